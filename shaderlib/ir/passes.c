/* IR passes: specialisation on constant values, turning variables into
 * temporaries where control flow allows, constant folding, copy
 * propagation, common-subexpression elimination, dead-code elimination,
 * pruning of empty blocks and of the untaken side of IFs on constants,
 * unrolling of counted loops, and multiply-add fusion.  (Swizzles and dead
 * components need no pass of their own: the IR is scalar, so a swizzle is
 * a choice of value numbers and an unused component is a dead
 * instruction.)
 *
 * Temporaries are defined once and, by the front ends' contract, only used
 * inside the control-flow region where they are defined or nested regions,
 * so forward substitution of temporaries is always safe.  Variables are
 * never substituted: they may change between a definition and a use.
 * Folding calls sl_fold_op(), i.e. the VM's own scalar helpers.
 *
 * sl_pass_optimise_checked can run the IR validator after every step of
 * the fixed-point loop (fold, copy propagation and CSE are one forward
 * walk, so one step), which the compile driver and the bindings do when
 * validation is on: a step that breaks an invariant is then reported by
 * name and round instead of surfacing as a wrong picture. */
#include "ir/ir.h"
#include "vm/scalar_ops.h"

#include <string.h>

static bool
is_pure (SlOp op)
{
  if (sl_op_shapes[op] != SL_SHAPE_SPECIAL)
    return true;
  switch (op)
    {
    case SL_OP_INPUT: case SL_OP_LOADC: case SL_OP_LOADCI: case SL_OP_SAMPLE:
    case SL_OP_TEXSIZE: case SL_OP_DDX: case SL_OP_DDY:
      return true;
    default:
      return false;
    }
}

void
sl_pass_specialise (SlIr *ir, const uint32_t *constants, size_t n)
{
  for (guint i = 0; i < ir->insns->len; i++)
    {
      SlInsn *in = sl_ir_insn (ir, i);
      if (in->op != SL_OP_LOADC)
        continue;
      uint32_t bits = in->imm < n ? constants[in->imm] : 0;
      SlKind kind = sl_ir_value (ir, in->dst[0])->kind;
      uint32_t c = sl_ir_const (ir, kind, bits);
      in = sl_ir_insn (ir, i);    /* the array may have moved */
      in->op = SL_OP_MOV;
      in->n_src = 1;
      in->src[0] = c;
      in->imm = 0;
    }
}

void
sl_pass_saturate_outputs (SlIr *ir, int target)
{
  for (guint i = 0; i < ir->insns->len; i++)
    {
      SlInsn *in = sl_ir_insn (ir, i);
      if (in->op != SL_OP_OUTPUT || (int) (in->imm >> 2) != target
          || sl_ir_value (ir, in->src[0])->kind != SL_KIND_FLOAT)
        continue;
      uint32_t clamped = sl_ir_new_value (ir, SL_KIND_FLOAT, SL_VALUE_TEMP);
      in = sl_ir_insn (ir, i);    /* the array may have moved */
      SlInsn sat = { .op = SL_OP_SAT, .n_dst = 1, .n_src = 1, .dst = { clamped },
                     .src = { in->src[0] }, .line = in->line };
      in->src[0] = clamped;
      g_array_insert_val (ir->insns, i, sat);
      i++;
    }
}

bool
sl_ir_writes_all_components (const SlIr *ir, int target)
{
  unsigned written = 0;
  for (guint i = 0; i < ir->insns->len; i++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      if (in->op == SL_OP_OUTPUT && (int) (in->imm >> 2) == target)
        written |= 1u << (in->imm & 3);
    }
  return written == 0xfu;
}

bool
sl_ir_takes_derivatives (const SlIr *ir)
{
  for (guint i = 0; i < ir->insns->len; i++)
    {
      SlOp op = sl_ir_insn (ir, i)->op;
      if (op == SL_OP_DDX || op == SL_OP_DDY)
        return true;
    }
  return false;
}

bool
sl_ir_discards (const SlIr *ir)
{
  for (guint i = 0; i < ir->insns->len; i++)
    if (sl_ir_insn (ir, i)->op == SL_OP_DISCARD)
      return true;
  return false;
}

/* Forward pass: substitute, fold constants, propagate copies, and merge
 * common subexpressions.  Returns true when anything changed. */
static bool
forward (SlIr *ir)
{
  guint n_values = ir->values->len;
  uint32_t *subst = g_new (uint32_t, n_values);
  for (guint v = 0; v < n_values; v++)
    subst[v] = v;
  bool changed = false;

  /* CSE table: key = op + sources; value = result.  An undo log per
   * control-flow region drops entries when the region closes. */
  GHashTable *cse = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                           (GDestroyNotify) g_bytes_unref, NULL);
  GPtrArray *undo = g_ptr_array_new ();    /* GBytes* keys, NULL = region mark */

  GArray *out = g_array_sized_new (FALSE, TRUE, sizeof (SlInsn), ir->insns->len);
  for (guint i = 0; i < ir->insns->len; i++)
    {
      SlInsn in = *sl_ir_insn (ir, i);
      for (int s = 0; s < in.n_src; s++)
        in.src[s] = subst[in.src[s]];

      SlOp op = in.op;
      if (op == SL_OP_IF || op == SL_OP_LOOP || op == SL_OP_FBEGIN)
        g_ptr_array_add (undo, NULL);
      if (op == SL_OP_ELSE || op == SL_OP_ENDIF || op == SL_OP_ENDLOOP || op == SL_OP_FEND)
        {
          while (undo->len)
            {
              GBytes *k = g_ptr_array_index (undo, undo->len - 1);
              g_ptr_array_set_size (undo, undo->len - 1);
              if (!k)
                break;
              g_hash_table_remove (cse, k);
            }
          if (op == SL_OP_ELSE)
            g_ptr_array_add (undo, NULL);
        }

      bool dst_is_temp = in.n_dst == 1 && sl_ir_value (ir, in.dst[0])->cls == SL_VALUE_TEMP;

      /* Constant folding. */
      if (sl_op_shapes[op] != SL_SHAPE_SPECIAL && in.n_dst == 1)
        {
          bool all_const = true;
          uint32_t bits[3];
          for (int s = 0; s < in.n_src; s++)
            {
              const SlValue *v = sl_ir_value (ir, in.src[s]);
              if (v->cls != SL_VALUE_CONST)
                all_const = false;
              else
                bits[s] = v->bits;
            }
          uint32_t r;
          if (all_const && (op != SL_OP_MOV || dst_is_temp) && sl_fold_op (op, bits, &r))
            {
              SlKind kind = sl_ir_value (ir, in.dst[0])->kind;
              uint32_t c = sl_ir_const (ir, kind, r);
              if (ir->values->len > n_values)
                {
                  subst = g_renew (uint32_t, subst, ir->values->len);
                  for (guint v = n_values; v < ir->values->len; v++)
                    subst[v] = v;
                  n_values = ir->values->len;
                }
              if (dst_is_temp)
                {
                  subst[in.dst[0]] = c;
                  changed = true;
                  continue;
                }
              if (op != SL_OP_MOV)
                {
                  in.op = SL_OP_MOV;
                  in.n_src = 1;
                  in.src[0] = c;
                  changed = true;
                }
            }
        }

      /* Identities that hold for every float including NaN, infinities
       * and signed zeros: x*1 = x, x + (-0) = x, x - (+0) = x, and
       * MAD(x, 1, c) = x + c. */
      if (sl_op_shapes[op] == SL_SHAPE_F_FF || op == SL_OP_MAD)
        {
          uint32_t one = sl_f2u (1.0f);
          const SlValue *va = sl_ir_value (ir, in.src[0]), *vb = sl_ir_value (ir, in.src[1]);
          bool a_one = va->cls == SL_VALUE_CONST && va->bits == one;
          bool b_one = vb->cls == SL_VALUE_CONST && vb->bits == one;
          bool b_is = vb->cls == SL_VALUE_CONST;
          uint32_t keep = SL_IR_NONE;
          if (op == SL_OP_MUL && b_one)
            keep = in.src[0];
          else if (op == SL_OP_MUL && a_one)
            keep = in.src[1];
          else if (op == SL_OP_ADD && b_is && vb->bits == 0x80000000u)
            keep = in.src[0];
          else if (op == SL_OP_SUB && b_is && vb->bits == 0)
            keep = in.src[0];
          else if (op == SL_OP_MAD && (a_one || b_one))
            {
              in.op = op = SL_OP_ADD;
              in.src[0] = a_one ? in.src[1] : in.src[0];
              in.src[1] = in.src[2];
              in.n_src = 2;
              changed = true;
            }
          if (keep != SL_IR_NONE)
            {
              in.op = op = SL_OP_MOV;
              in.n_src = 1;
              in.src[0] = keep;
              changed = true;
            }
        }

      /* Copy propagation of temporaries and constants into temporaries. */
      if (op == SL_OP_MOV && dst_is_temp
          && sl_ir_value (ir, in.src[0])->cls != SL_VALUE_VAR
          && sl_ir_value (ir, in.src[0])->kind == sl_ir_value (ir, in.dst[0])->kind)
        {
          subst[in.dst[0]] = in.src[0];
          changed = true;
          continue;
        }

      /* Common subexpressions: pure single-result ops on temps/consts. */
      if (dst_is_temp && is_pure (op) && op != SL_OP_SAMPLE && op != SL_OP_TEXSIZE)
        {
          bool reads_var = false;
          for (int s = 0; s < in.n_src; s++)
            if (sl_ir_value (ir, in.src[s])->cls == SL_VALUE_VAR)
              reads_var = true;
          if (!reads_var)
            {
              uint32_t key_data[2 + SL_IR_MAX_SRC + 1];
              int nk = 0;
              key_data[nk++] = op;
              key_data[nk++] = in.imm;
              key_data[nk++] = sl_ir_value (ir, in.dst[0])->kind;
              for (int s = 0; s < in.n_src; s++)
                key_data[nk++] = in.src[s];
              GBytes *key = g_bytes_new (key_data, nk * sizeof (uint32_t));
              gpointer prev;
              if (g_hash_table_lookup_extended (cse, key, NULL, &prev))
                {
                  subst[in.dst[0]] = GPOINTER_TO_UINT (prev);
                  g_bytes_unref (key);
                  changed = true;
                  continue;
                }
              g_hash_table_insert (cse, key, GUINT_TO_POINTER (in.dst[0]));
              g_ptr_array_add (undo, key);
            }
        }
      g_array_append_val (out, in);
    }

  g_array_free (ir->insns, TRUE);
  ir->insns = out;
  g_ptr_array_free (undo, TRUE);
  g_hash_table_destroy (cse);
  g_free (subst);
  return changed;
}

void
sl_pass_dce (SlIr *ir)
{
  guint n_values = ir->values->len;
  int *uses = g_new0 (int, n_values);
  for (guint i = 0; i < ir->insns->len; i++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      for (int s = 0; s < in->n_src; s++)
        uses[in->src[s]]++;
    }
  guint8 *dead = g_new0 (guint8, ir->insns->len);
  bool changed = true;
  while (changed)
    {
      changed = false;
      for (guint i = ir->insns->len; i-- > 0;)
        {
          if (dead[i])
            continue;
          const SlInsn *in = sl_ir_insn (ir, i);
          if (!is_pure (in->op) || in->n_dst == 0)
            continue;
          bool used = false;
          for (int d = 0; d < in->n_dst; d++)
            if (uses[in->dst[d]])
              used = true;
          if (used)
            continue;
          dead[i] = 1;
          changed = true;
          for (int s = 0; s < in->n_src; s++)
            uses[in->src[s]]--;
        }
    }
  GArray *out = g_array_sized_new (FALSE, TRUE, sizeof (SlInsn), ir->insns->len);
  for (guint i = 0; i < ir->insns->len; i++)
    if (!dead[i])
      g_array_append_vals (out, sl_ir_insn (ir, i), 1);
  g_array_free (ir->insns, TRUE);
  ir->insns = out;
  g_free (dead);
  g_free (uses);
}

/* The ELSE (or 0 when none) and ENDIF matching the IF at @i. */
static void
match_if (const SlIr *ir, guint i, guint *else_at, guint *endif_at)
{
  int depth = 0;
  *else_at = 0;
  *endif_at = ir->insns->len;
  for (guint j = i + 1; j < ir->insns->len; j++)
    {
      SlOp op = sl_ir_insn (ir, j)->op;
      if (op == SL_OP_IF || op == SL_OP_LOOP || op == SL_OP_FBEGIN)
        depth++;
      else if (op == SL_OP_ENDLOOP || op == SL_OP_FEND)
        depth--;
      else if (op == SL_OP_ELSE && depth == 0)
        *else_at = j;
      else if (op == SL_OP_ENDIF)
        {
          if (depth == 0)
            {
              *endif_at = j;
              return;
            }
          depth--;
        }
    }
}

/* Removes IF/ENDIF pairs around nothing, and resolves IFs on constant
 * conditions (all lanes true or all false, which is what a specialised
 * uniform gives): the side taken stays, in the enclosing region, the
 * other goes.  An IF that every lane takes still cost the VM its mask
 * bookkeeping and made every variable written inside it a masked move;
 * one that none takes kept its reads in the program, so a pass that no
 * longer samples a texture could not say so. */
static bool
prune_empty_blocks (SlIr *ir)
{
  bool changed = false;
  guint n = ir->insns->len;
  /* Per instruction: dropped (resolved IF markers and the untaken side). */
  guint8 *drop = g_new0 (guint8, n);
  for (guint i = 0; i < n; i++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      if (drop[i] || in->op != SL_OP_IF)
        continue;
      const SlValue *c = sl_ir_value (ir, in->src[0]);
      if (c->cls != SL_VALUE_CONST || (c->bits != 0 && c->bits != 0xffffffffu))
        continue;
      guint else_at, endif_at;
      match_if (ir, i, &else_at, &endif_at);
      if (endif_at >= n)
        continue;
      bool taken = c->bits != 0;
      guint mid = else_at ? else_at : endif_at;
      drop[i] = drop[endif_at] = 1;
      if (else_at)
        drop[else_at] = 1;
      /* The untaken side: IF+1 .. ELSE-1, or ELSE+1 .. ENDIF-1. */
      guint from = taken ? mid + 1 : i + 1, to = taken ? endif_at : mid;
      for (guint j = from; j < to; j++)
        drop[j] = 1;
      changed = true;
    }
  GArray *out = g_array_sized_new (FALSE, TRUE, sizeof (SlInsn), ir->insns->len);
  for (guint i = 0; i < ir->insns->len; i++)
    {
      if (drop[i])
        continue;
      const SlInsn *in = sl_ir_insn (ir, i);
      if (in->op == SL_OP_IF && i + 1 < ir->insns->len
          && sl_ir_insn (ir, i + 1)->op == SL_OP_ENDIF)
        {
          i++;
          changed = true;
          continue;
        }
      if (in->op == SL_OP_ELSE && i + 1 < ir->insns->len
          && sl_ir_insn (ir, i + 1)->op == SL_OP_ENDIF)
        {
          changed = true;
          continue;
        }
      g_array_append_vals (out, in, 1);
    }
  g_array_free (ir->insns, TRUE);
  ir->insns = out;
  g_free (drop);
  return changed;
}

/* Which instructions every lane that entered the program runs: those
 * outside IF and LOOP bodies and not after a RETURN that some lanes may
 * have taken.  An inlined function's body (FBEGIN … FEND) is straight-line
 * code until its first RETURN (its usual last instruction); after that,
 * until its FEND, lanes that returned are masked off.  A RETURN of the
 * program itself (outside every function) masks everything after it.
 * Returns a flag per instruction (g_free). */
static guint8 *
unconditional_insns (const SlIr *ir)
{
  guint8 *all = g_new0 (guint8, MAX (ir->insns->len, 1));
  int control = 0, frames = 0, returned = G_MAXINT;   /* outermost frame with a RETURN */
  for (guint i = 0; i < ir->insns->len; i++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      if (in->op == SL_OP_ENDIF || in->op == SL_OP_ENDLOOP)
        control--;
      if (in->op == SL_OP_FEND)
        {
          if (returned == frames)
            returned = G_MAXINT;   /* the lanes that returned rejoin */
          frames--;
        }
      all[i] = control == 0 && returned == G_MAXINT;
      if (in->op == SL_OP_RETURN)
        returned = MIN (returned, frames);
      if (in->op == SL_OP_IF || in->op == SL_OP_LOOP)
        control++;
      if (in->op == SL_OP_FBEGIN)
        frames++;
    }
  return all;
}

/* A variable written exactly once, outside all control flow, before any
 * read, is really a temporary: turn it into one so that folding, copy
 * propagation and CSE see through it (front ends write every local and
 * parameter through a variable). */
static bool
promote_vars (SlIr *ir)
{
  guint nv = ir->values->len;
  int *writes = g_new0 (int, nv);
  guint8 *bad = g_new0 (guint8, nv);
  guint8 *unconditional = unconditional_insns (ir);
  for (guint i = 0; i < ir->insns->len; i++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      for (int s = 0; s < in->n_src; s++)
        if (!writes[in->src[s]])
          bad[in->src[s]] = 1;    /* read before written */
      for (int d = 0; d < in->n_dst; d++)
        {
          writes[in->dst[d]]++;
          if (!unconditional[i])
            bad[in->dst[d]] = 1;
        }
    }
  g_free (unconditional);
  bool changed = false;
  for (guint v = 0; v < nv; v++)
    {
      SlValue *val = sl_ir_value (ir, v);
      if (val->cls == SL_VALUE_VAR && writes[v] == 1 && !bad[v])
        {
          val->cls = SL_VALUE_TEMP;
          changed = true;
        }
    }
  g_free (writes);
  g_free (bad);
  return changed;
}

/* A variable whose every write is outside all control flow (and before
 * any top-level return) holds, at each read, the value of the last write
 * before it in program order: no branch can skip a write and no loop can
 * repeat one.  Such a variable is split into one temporary per write, so
 * copy propagation, folding and CSE see through reassignments like
 * "c = c * v".  Variables read before their first write keep their
 * storage. */
static bool
split_vars (SlIr *ir)
{
  guint nv = ir->values->len;
  guint8 *bad = g_new0 (guint8, nv);
  guint8 *written = g_new0 (guint8, nv);
  guint8 *unconditional = unconditional_insns (ir);
  for (guint i = 0; i < ir->insns->len; i++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      for (int s = 0; s < in->n_src; s++)
        if (!written[in->src[s]])
          bad[in->src[s]] = 1;
      for (int d = 0; d < in->n_dst; d++)
        {
          written[in->dst[d]] = 1;
          if (!unconditional[i])
            bad[in->dst[d]] = 1;
        }
    }
  g_free (unconditional);
  uint32_t *cur = g_new (uint32_t, nv);
  bool changed = false;
  for (guint v = 0; v < nv; v++)
    {
      cur[v] = v;
      if (sl_ir_value (ir, v)->cls != SL_VALUE_VAR || !written[v])
        bad[v] = 1;
    }
  for (guint i = 0; i < ir->insns->len; i++)
    {
      SlInsn *in = sl_ir_insn (ir, i);
      for (int s = 0; s < in->n_src; s++)
        in->src[s] = cur[in->src[s]];
      for (int d = 0; d < in->n_dst; d++)
        {
          uint32_t v = in->dst[d];
          if (v >= nv || bad[v])
            continue;
          uint32_t t = sl_ir_new_value (ir, sl_ir_value (ir, v)->kind, SL_VALUE_TEMP);
          in = sl_ir_insn (ir, i);
          in->dst[d] = t;
          cur[v] = t;
          changed = true;
        }
    }
  g_free (cur);
  g_free (bad);
  g_free (written);
  return changed;
}

/* Fuses a multiply whose only use is an add or subtract into MAD.  MAD
 * rounds twice (ops.def), so a*b + c as MAD is bit-identical to the two
 * ops; t - c becomes MAD(a, b, -c) and c - t MAD(-a, b, c) when the
 * operand to negate is a constant (negation is exact).  Only multiplies of
 * temporaries and constants move: a variable could change between the
 * MUL and the ADD.  The dead MUL is left to DCE. */
static bool
fuse_mad (SlIr *ir)
{
  guint nv = ir->values->len;
  int *uses = g_new0 (int, nv);
  int *def = g_new (int, nv);
  for (guint v = 0; v < nv; v++)
    def[v] = -1;
  for (guint i = 0; i < ir->insns->len; i++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      for (int k = 0; k < in->n_src; k++)
        uses[in->src[k]]++;
      for (int k = 0; k < in->n_dst; k++)
        def[in->dst[k]] = i;
    }
  bool changed = false;
  for (guint i = 0; i < ir->insns->len; i++)
    {
      SlInsn in = *sl_ir_insn (ir, i);
      if (in.op != SL_OP_ADD && in.op != SL_OP_SUB)
        continue;
      for (int side = 0; side < 2; side++)
        {
          uint32_t t = in.src[side], other = in.src[1 - side];
          const SlValue *tv = sl_ir_value (ir, t);
          if (tv->cls != SL_VALUE_TEMP || uses[t] != 1 || def[t] < 0)
            continue;
          const SlInsn *mul = sl_ir_insn (ir, def[t]);
          if (mul->op != SL_OP_MUL)
            continue;
          uint32_t a = mul->src[0], b = mul->src[1], c = other;
          if (sl_ir_value (ir, a)->cls == SL_VALUE_VAR || sl_ir_value (ir, b)->cls == SL_VALUE_VAR)
            continue;
          if (in.op == SL_OP_SUB && side == 0)
            {
              const SlValue *cv = sl_ir_value (ir, c);
              if (cv->cls != SL_VALUE_CONST)
                continue;
              c = sl_ir_const (ir, SL_KIND_FLOAT, cv->bits ^ 0x80000000u);
            }
          else if (in.op == SL_OP_SUB)
            {
              /* c - a*b = (-a)*b + c, or a*(-b) + c. */
              if (sl_ir_value (ir, a)->cls == SL_VALUE_CONST)
                a = sl_ir_const (ir, SL_KIND_FLOAT, sl_ir_value (ir, a)->bits ^ 0x80000000u);
              else if (sl_ir_value (ir, b)->cls == SL_VALUE_CONST)
                b = sl_ir_const (ir, SL_KIND_FLOAT, sl_ir_value (ir, b)->bits ^ 0x80000000u);
              else
                continue;
            }
          SlInsn *w = sl_ir_insn (ir, i);
          w->op = SL_OP_MAD;
          w->n_src = 3;
          w->src[0] = a;
          w->src[1] = b;
          w->src[2] = c;
          uses[t] = 0;
          changed = true;
          break;
        }
    }
  g_free (uses);
  g_free (def);
  return changed;
}

/* Loop unrolling.  A counted loop as the HLSL front ends lower `for`
 *
 *     $i = MOV c                 (the last write of $i before the loop)
 *     LOOP
 *       header: pure ops of $i and constants, ending in BREAK %cond
 *       body: no BREAK, CONTINUE or program RETURN of its own; no OUTPUT;
 *             does not write $i
 *       CONTEND
 *       step: pure ops of $i and constants, then $i = MOV %next
 *     ENDLOOP
 *
 * runs a number of times the compiler can count by running the header
 * and the step on constants (sl_fold_op, the VM's own arithmetic).  Such
 * a loop is replaced by that many copies of its body, each with $i
 * replaced by the constant it holds in that iteration, and $i is left
 * holding its final value.  Every lane runs the same iterations, so this
 * is exact: each copy does the arithmetic of that iteration in the same
 * order.  What it buys: no per-pixel loop bookkeeping, offsets and
 * weights that fold to constants, reads whose reach the compiler can
 * bound (ir/reach.c follows temporaries, not a counter written on every
 * iteration), and variables the splitting pass turns into temporaries
 * once they are written outside control flow.  Loops with more than
 * UNROLL_MAX_TRIPS iterations, or whose copies would exceed
 * UNROLL_MAX_INSNS (or take the program past UNROLL_MAX_TOTAL), stay
 * loops; so does one whose iteration cap (LOOP's imm) is below its
 * count, which the VM stops with a warning. */
#define UNROLL_MAX_TRIPS 256
#define UNROLL_MAX_INSNS 16384
#define UNROLL_MAX_TOTAL 32768

/* The end (index of the matching ENDLOOP) of the LOOP at @at, and checks
 * on what lies between: @body_ok false when something at the loop's own
 * level (outside nested loops or functions) leaves or skips the loop,
 * or the loop writes an output. */
static guint
loop_end (const SlIr *ir, guint at, bool *body_ok)
{
  int loops = 0, frames = 0;
  *body_ok = true;
  for (guint j = at + 1; j < ir->insns->len; j++)
    {
      const SlInsn *in = sl_ir_insn (ir, j);
      switch (in->op)
        {
        case SL_OP_LOOP: loops++; break;
        case SL_OP_FBEGIN: frames++; break;
        case SL_OP_FEND: frames--; break;
        case SL_OP_ENDLOOP:
          if (loops == 0)
            return j;
          loops--;
          break;
        case SL_OP_OUTPUT: *body_ok = false; break;
        case SL_OP_RETURN:
          if (frames == 0)
            *body_ok = false;
          break;
        default: break;
        }
    }
  *body_ok = false;
  return ir->insns->len;
}

/* Runs the pure, single-result instructions [@from, @to) on constant
 * bits: @var holds @var_bits, constants their own, values computed in
 * the range what they got (@bits, indexed by value).  False when an
 * operand is anything else or an op does not fold. */
static bool
run_on_constants (const SlIr *ir, guint from, guint to, uint32_t var, uint32_t var_bits,
                  GHashTable *bits)
{
  for (guint j = from; j < to; j++)
    {
      const SlInsn *in = sl_ir_insn (ir, j);
      if (in->n_dst != 1 || (sl_op_shapes[in->op] == SL_SHAPE_SPECIAL && in->op != SL_OP_MOV))
        return false;
      uint32_t srcs[SL_IR_MAX_SRC], r;
      for (int k = 0; k < in->n_src; k++)
        {
          uint32_t v = in->src[k];
          const SlValue *val = sl_ir_value (ir, v);
          gpointer got;
          if (v == var)
            srcs[k] = var_bits;
          else if (val->cls == SL_VALUE_CONST)
            srcs[k] = val->bits;
          else if (g_hash_table_lookup_extended (bits, GUINT_TO_POINTER (v), NULL, &got))
            srcs[k] = GPOINTER_TO_UINT (got);
          else
            return false;
        }
      if (in->op == SL_OP_MOV)
        r = srcs[0];
      else if (!sl_fold_op ((SlOp) in->op, srcs, &r))
        return false;
      g_hash_table_insert (bits, GUINT_TO_POINTER (in->dst[0]), GUINT_TO_POINTER (r));
    }
  return true;
}

/* Unrolls the loop at @at when it has the shape above; appends the
 * result (or nothing) to @out and returns the index after the loop, or
 * @at when it left the loop alone. */
static guint
unroll_loop (SlIr *ir, guint at, GArray *out, guint *budget)
{
  bool body_ok;
  guint end = loop_end (ir, at, &body_ok);
  if (!body_ok || out->len == 0)
    return at;
  /* The header: up to the first BREAK, nothing but pure ops before it. */
  guint brk = at + 1;
  while (brk < end && sl_ir_insn (ir, brk)->op != SL_OP_BREAK)
    {
      if (sl_ir_insn (ir, brk)->op != SL_OP_MOV && sl_op_shapes[sl_ir_insn (ir, brk)->op] == SL_SHAPE_SPECIAL)
        return at;
      brk++;
    }
  if (brk >= end || sl_ir_insn (ir, brk)->n_src != 1)
    return at;
  /* The CONTEND of this loop, and the step after it. */
  guint cont = end;
  int depth = 0;
  for (guint j = brk + 1; j < end; j++)
    {
      SlOp op = sl_ir_insn (ir, j)->op;
      if (op == SL_OP_LOOP || op == SL_OP_IF || op == SL_OP_FBEGIN)
        depth++;
      else if (op == SL_OP_ENDLOOP || op == SL_OP_ENDIF || op == SL_OP_FEND)
        depth--;
      else if (depth == 0 && op == SL_OP_CONTEND)
        {
          cont = j;
          break;
        }
    }
  if (cont >= end || end - 1 <= cont)
    return at;
  const SlInsn *last = sl_ir_insn (ir, end - 1);
  if (last->op != SL_OP_MOV || last->n_dst != 1)
    return at;
  uint32_t var = last->dst[0];
  if (sl_ir_value (ir, var)->cls != SL_VALUE_VAR)
    return at;
  /* Its value on entry: the last write before the loop, a constant, with
   * no control flow in between. */
  const SlInsn *init = NULL;
  for (guint j = out->len; j-- > 0;)
    {
      const SlInsn *in = &g_array_index (out, SlInsn, j);
      if (sl_op_shapes[in->op] == SL_SHAPE_SPECIAL && in->op != SL_OP_MOV && !is_pure (in->op))
        return at;
      bool writes = false;
      for (int d = 0; d < in->n_dst; d++)
        writes |= in->dst[d] == var;
      if (writes)
        {
          init = in;
          break;
        }
    }
  if (!init || init->op != SL_OP_MOV || sl_ir_value (ir, init->src[0])->cls != SL_VALUE_CONST)
    return at;
  /* Nothing in the loop but the step writes the counter; loops in the
   * body, and lanes leaving them, are the body's own affair (their
   * BREAKs and CONTINUEs are nested); this loop's own must not occur. */
  depth = 0;
  for (guint j = brk + 1; j < cont; j++)
    {
      const SlInsn *in = sl_ir_insn (ir, j);
      for (int d = 0; d < in->n_dst; d++)
        if (in->dst[d] == var)
          return at;
      if (in->op == SL_OP_LOOP)
        depth++;
      else if (in->op == SL_OP_ENDLOOP)
        depth--;
      else if (depth == 0 && (in->op == SL_OP_BREAK || in->op == SL_OP_CONTINUE))
        return at;
    }
  /* The header and the step compute temporaries only: the step is
   * dropped and the header's last run (the one that leaves) too. */
  for (guint j = at + 1; j + 1 < end; j = j + 1 == brk ? cont + 1 : j + 1)
    {
      const SlInsn *in = sl_ir_insn (ir, j);
      if (in->n_dst != 1 || sl_ir_value (ir, in->dst[0])->cls != SL_VALUE_TEMP)
        return at;
    }

  /* Count the iterations. */
  GArray *values = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  GHashTable *bits = g_hash_table_new (g_direct_hash, g_direct_equal);
  uint32_t i_bits = sl_ir_value (ir, init->src[0])->bits;
  uint32_t cond_value = sl_ir_insn (ir, brk)->src[0];
  bool counted = false;
  guint cap = sl_ir_insn (ir, at)->imm;
  /* Each round: the header on the counter's value (leaving ends the
   * count), then the step gives the next value. */
  for (guint trip = 0;; trip++)
    {
      g_hash_table_remove_all (bits);
      gpointer cond;
      if (!run_on_constants (ir, at + 1, brk, var, i_bits, bits))
        break;
      if (sl_ir_value (ir, cond_value)->cls == SL_VALUE_CONST)
        cond = GUINT_TO_POINTER (sl_ir_value (ir, cond_value)->bits);
      else if (!g_hash_table_lookup_extended (bits, GUINT_TO_POINTER (cond_value), NULL, &cond))
        break;
      if (GPOINTER_TO_UINT (cond) != 0)
        {
          counted = true;
          break;
        }
      if (trip == UNROLL_MAX_TRIPS || trip == cap)
        break;
      g_array_append_val (values, i_bits);
      g_hash_table_remove_all (bits);
      if (!run_on_constants (ir, cont + 1, end - 1, var, i_bits, bits))
        break;
      uint32_t next = last->src[0];
      gpointer got;
      if (sl_ir_value (ir, next)->cls == SL_VALUE_CONST)
        i_bits = sl_ir_value (ir, next)->bits;
      else if (next == var)
        ;
      else if (g_hash_table_lookup_extended (bits, GUINT_TO_POINTER (next), NULL, &got))
        i_bits = GPOINTER_TO_UINT (got);
      else
        break;
    }
  g_hash_table_destroy (bits);
  guint copy_len = cont - (at + 1);   /* header and body, without the BREAK */
  guint n = values->len;
  if (!counted || (guint64) n * copy_len > MIN (*budget, UNROLL_MAX_INSNS)
      || ir->values->len + (guint64) n * copy_len * 4 + 1 >= SL_MAX_IR_VALUES / 2)
    {
      g_array_free (values, TRUE);
      return at;
    }
  *budget -= n * copy_len;

  /* The copies: temporaries defined in the loop get fresh numbers in
   * each; reads of the counter read that iteration's constant. */
  SlKind var_kind = sl_ir_value (ir, var)->kind;
  GHashTable *renamed = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint k = 0; k < n; k++)
    {
      uint32_t here = sl_ir_const (ir, var_kind, g_array_index (values, uint32_t, k));
      g_hash_table_remove_all (renamed);
      for (guint j = at + 1; j < cont; j++)
        {
          if (j == brk)
            continue;
          SlInsn in = *sl_ir_insn (ir, j);
          for (int s = 0; s < in.n_src; s++)
            {
              gpointer to;
              if (in.src[s] == var)
                in.src[s] = here;
              else if (g_hash_table_lookup_extended (renamed, GUINT_TO_POINTER (in.src[s]), NULL, &to))
                in.src[s] = GPOINTER_TO_UINT (to);
            }
          for (int d = 0; d < in.n_dst; d++)
            {
              const SlValue *val = sl_ir_value (ir, in.dst[d]);
              if (val->cls != SL_VALUE_TEMP)
                continue;
              uint32_t fresh = sl_ir_new_value (ir, (SlKind) val->kind, SL_VALUE_TEMP);
              g_hash_table_insert (renamed, GUINT_TO_POINTER (in.dst[d]), GUINT_TO_POINTER (fresh));
              in.dst[d] = fresh;
            }
          g_array_append_val (out, in);
        }
    }
  g_hash_table_destroy (renamed);
  g_array_free (values, TRUE);
  /* The counter as the loop leaves it. */
  SlInsn final = { .op = SL_OP_MOV, .n_dst = 1, .n_src = 1, .dst = { var },
                   .src = { sl_ir_const (ir, var_kind, i_bits) }, .line = last->line };
  g_array_append_val (out, final);
  return end + 1;
}

static bool
unroll_loops (SlIr *ir)
{
  /* Unrolling never takes a program past UNROLL_MAX_TOTAL instructions,
   * whatever the number of rounds, well inside the program-size limit. */
  guint budget = ir->insns->len < UNROLL_MAX_TOTAL ? UNROLL_MAX_TOTAL - ir->insns->len : 0;
  /* Every optimiser round asks; a program without loops (most) costs
   * one scan, not a copy of its instructions. */
  bool any_loop = false;
  for (guint i = 0; i < ir->insns->len && !any_loop; i++)
    any_loop = sl_ir_insn (ir, i)->op == SL_OP_LOOP;
  if (!any_loop || budget == 0)
    return false;
  bool changed = false;
  GArray *out = g_array_sized_new (FALSE, TRUE, sizeof (SlInsn), ir->insns->len);
  for (guint i = 0; i < ir->insns->len;)
    {
      if (sl_ir_insn (ir, i)->op == SL_OP_LOOP && budget > 0)
        {
          guint next = unroll_loop (ir, i, out, &budget);
          if (next != i)
            {
              changed = true;
              i = next;
              continue;
            }
        }
      g_array_append_vals (out, sl_ir_insn (ir, i), 1);
      i++;
    }
  if (changed && !ir->overflow)
    {
      g_array_free (ir->insns, TRUE);
      ir->insns = out;
    }
  else
    g_array_free (out, TRUE);
  return changed && !ir->overflow;
}

/* With @validate, the IR after one step of the optimiser must still be
 * valid; @round counts from 0, -1 for the steps after the loop. */
static bool
step_ok (const SlIr *ir, bool validate, const char *step, int round, SlDiagnostics *diags)
{
  if (!validate)
    return true;
  char stage[96];
  if (round >= 0)
    g_snprintf (stage, sizeof stage, "%s (optimiser round %d)", step, round + 1);
  else
    g_snprintf (stage, sizeof stage, "%s (optimiser)", step);
  return sl_ir_validate (ir, stage, diags);
}

bool
sl_pass_optimise_checked (SlIr *ir, bool validate, SlDiagnostics *diags)
{
  for (int round = 0; round < 8; round++)
    {
      bool changed = promote_vars (ir);
      if (!step_ok (ir, validate, "variable promotion", round, diags))
        return false;
      changed |= split_vars (ir);
      if (!step_ok (ir, validate, "variable splitting", round, diags))
        return false;
      changed |= forward (ir);
      if (!step_ok (ir, validate, "folding, copy propagation and CSE", round, diags))
        return false;
      sl_pass_dce (ir);
      if (!step_ok (ir, validate, "dead-code elimination", round, diags))
        return false;
      changed |= prune_empty_blocks (ir);
      if (!step_ok (ir, validate, "empty-block pruning", round, diags))
        return false;
      changed |= unroll_loops (ir);
      if (!step_ok (ir, validate, "loop unrolling", round, diags))
        return false;
      if (!changed)
        break;
    }
  if (fuse_mad (ir))
    {
      if (!step_ok (ir, validate, "multiply-add fusion", -1, diags))
        return false;
      sl_pass_dce (ir);
      if (!step_ok (ir, validate, "dead-code elimination after fusion", -1, diags))
        return false;
    }
  return true;
}

void
sl_pass_optimise (SlIr *ir)
{
  sl_pass_optimise_checked (ir, false, NULL);
}
