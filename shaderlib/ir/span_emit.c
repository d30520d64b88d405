/* Lowering IR to a span program: the one file that reads both formats.
 *
 * Translates the IR's ops, pixel inputs and sample descriptions into the
 * VM's own (vm/vm.h), which knows nothing of the IR, and assigns VM
 * registers: constants and variables get registers of their own for the
 * whole run; temporaries share registers by linear scan over their live
 * ranges (a use inside a loop that does not contain the definition keeps
 * the register alive to the loop's end).  A destination never shares a
 * register with a source of the same instruction, so VM op bodies may use
 * restrict pointers.  Writes to variables inside control flow (or after a
 * top-level return) become compute-into-temporary + MOVM.  The emitter
 * also resolves jump targets and prices each instruction for the VM's
 * loop budget (SlSpanProgram.cost_before). */
#include "ir/span_emit.h"
#include "base/diag.h"

#include <string.h>

/* Both op enums are generated from vm/ops.def, so an op keeps its number
 * across the boundary and vm_op() is a cast.  Every op is checked by name
 * here: a table that stopped being shared, or an enum that gained a member
 * of its own, breaks the build rather than the programs. */
#define SL_OP(name, shape, doc) \
  _Static_assert ((int) SL_OP_##name == (int) SL_VM_OP_##name, \
                  "IR and VM number " #name " differently");
#include "vm/ops.def"
#undef SL_OP
_Static_assert ((int) SL_OP_COUNT == (int) SL_VM_OP_COUNT, "IR and VM have different op counts");

static inline uint16_t
vm_op (SlOp op)
{
  return (uint16_t) op;
}

/* Pixel inputs: both sides number TEXCOORDn, COLORn and the position as
 * base + 4*n + component, so each IR range maps onto the VM's. */
_Static_assert (SL_INPUT_COLOR - SL_INPUT_TEXCOORD
                <= SL_VM_INPUT_COLOR - SL_VM_INPUT_TEXCOORD, "TEXCOORDn fit");
_Static_assert (SL_INPUT_POSITION - SL_INPUT_COLOR
                <= SL_VM_INPUT_POSITION - SL_VM_INPUT_COLOR, "COLORn fit");
_Static_assert (SL_INPUT_FACE - SL_INPUT_POSITION
                <= SL_VM_INPUT_FACE - SL_VM_INPUT_POSITION, "the position fits");

static uint32_t
vm_input (uint32_t input)
{
  if (input < SL_INPUT_COLOR)
    return SL_VM_INPUT_TEXCOORD + (input - SL_INPUT_TEXCOORD);
  if (input < SL_INPUT_POSITION)
    return SL_VM_INPUT_COLOR + (input - SL_INPUT_COLOR);
  if (input < SL_INPUT_FACE)
    return SL_VM_INPUT_POSITION + (input - SL_INPUT_POSITION);
  return SL_VM_INPUT_FACE;
}

static uint8_t
vm_sample_mode (SlSampleMode mode)
{
  switch (mode)
    {
    case SL_SAMPLE_BIAS: return SL_VM_SAMPLE_BIAS;
    case SL_SAMPLE_LOD: return SL_VM_SAMPLE_LOD;
    case SL_SAMPLE_GRAD: return SL_VM_SAMPLE_GRAD;
    case SL_SAMPLE_LOAD: return SL_VM_SAMPLE_LOAD;
    case SL_SAMPLE_COMPARE: return SL_VM_SAMPLE_COMPARE;
    default: return SL_VM_SAMPLE_IMPLICIT;
    }
}

_Static_assert (SL_VM_SAMPLE_MAX_SRC >= SL_IR_MAX_SRC, "every IR source of a SAMPLE fits");

/* The VM's description of a read.  The IR's projective flag has no VM
 * counterpart: no front end sets it (they divide by coord[3] in IR before
 * the SAMPLE) and the VM never read it; here it only keeps such a read
 * off the at-pixel path. */
static void
vm_sample_desc (SlVmSample *s, const SlSampleInfo *info)
{
  s->mode = vm_sample_mode ((SlSampleMode) info->mode);
  s->texture = info->texture;
  s->sampler = info->sampler;
  s->dim = info->dim;
  for (int k = 0; k < 3; k++)
    s->offset[k] = info->offset[k];
}

typedef struct
{
  const SlIr *ir;
  uint32_t   *reg_of;       /* IR value → VM register, or SL_VM_NONE */
  int        *last_use;     /* IR value → instruction index of last use */
  int        *n_uses;
  GArray     *free_regs;    /* uint32_t */
  uint32_t    n_regs;
  GArray     *code;         /* SlVmInsn */
  GArray     *samples;      /* SlVmSample */
} Emit;

static uint32_t
alloc_reg (Emit *e)
{
  if (e->free_regs->len)
    {
      uint32_t r = g_array_index (e->free_regs, uint32_t, e->free_regs->len - 1);
      g_array_set_size (e->free_regs, e->free_regs->len - 1);
      return r;
    }
  return e->n_regs++;
}

static void
free_reg (Emit *e, uint32_t r)
{
  g_array_append_val (e->free_regs, r);
}

static uint32_t
reg_for_src (Emit *e, uint32_t v)
{
  return e->reg_of[v];
}

static uint32_t
reg_for_dst (Emit *e, uint32_t v)
{
  if (e->reg_of[v] == SL_VM_NONE)
    e->reg_of[v] = alloc_reg (e);
  return e->reg_of[v];
}

/* Frees temporaries whose last use is instruction @i. */
static void
release_srcs (Emit *e, const SlInsn *in, int i)
{
  for (int s = 0; s < in->n_src; s++)
    {
      uint32_t v = in->src[s];
      const SlValue *val = sl_ir_value (e->ir, v);
      if (val->cls != SL_VALUE_TEMP || e->last_use[v] != i || e->reg_of[v] == SL_VM_NONE)
        continue;
      free_reg (e, e->reg_of[v]);
      e->reg_of[v] = SL_VM_NONE;
      e->last_use[v] = -1;   /* guard against a value listed twice */
    }
}

static void
release_dead_dsts (Emit *e, const SlInsn *in)
{
  for (int d = 0; d < in->n_dst; d++)
    {
      uint32_t v = in->dst[d];
      if (sl_ir_value (e->ir, v)->cls == SL_VALUE_TEMP && e->n_uses[v] == 0
          && e->reg_of[v] != SL_VM_NONE)
        {
          free_reg (e, e->reg_of[v]);
          e->reg_of[v] = SL_VM_NONE;
        }
    }
}

static bool
is_const (const SlIr *ir, uint32_t v)
{
  return sl_ir_value (ir, v)->cls == SL_VALUE_CONST;
}

/* Ops whose operands may swap without changing any result bit (MIN/MAX
 * may not: they order signed zeros by position). */
static bool
commutes (SlOp op)
{
  switch (op)
    {
    case SL_OP_ADD: case SL_OP_MUL: case SL_OP_EQ: case SL_OP_NE:
    case SL_OP_IADD: case SL_OP_IMUL: case SL_OP_IEQ: case SL_OP_INE:
    case SL_OP_AND: case SL_OP_OR: case SL_OP_XOR:
      return true;
    default:
      return false;
    }
}

/* Which sources of @in become immediates (bit s set for src[s]), and
 * whether a and b swap first; see vm.h for the variants. */
static unsigned
immediate_srcs (const SlIr *ir, const SlInsn *in, bool *swap)
{
  SlShape shape = sl_op_shapes[in->op];
  *swap = false;
  if (shape == SL_SHAPE_F_FF || shape == SL_SHAPE_B_FF || shape == SL_SHAPE_I_II
      || shape == SL_SHAPE_U_UU || shape == SL_SHAPE_B_II || shape == SL_SHAPE_B_UU
      || in->op == SL_OP_MAD)
    {
      uint32_t a = in->src[0], b = in->src[1];
      /* a*b = b*a exactly, so MAD may swap too. */
      if (!is_const (ir, b) && is_const (ir, a) && (commutes (in->op) || in->op == SL_OP_MAD))
        {
          *swap = true;
          b = a;
        }
      if (!is_const (ir, b) || in->src[0] == in->src[1])
        return 0;
      unsigned mask = *swap ? 1u : 2u;
      if (in->op == SL_OP_MAD && is_const (ir, in->src[2]))
        mask |= 4u;
      return mask;
    }
  return 0;
}

/* Picks a constant-operand variant of a table-driven op (see vm.h). */
static void
specialise_operands (const SlIr *ir, const SlInsn *in, SlVmInsn *vi)
{
  bool swap;
  unsigned mask = immediate_srcs (ir, in, &swap);
  if (!mask)
    return;
  uint32_t kb = swap ? in->src[0] : in->src[1];
  if (swap)
    vi->a = vi->b;
  vi->b = 0;                       /* unused; keep the pointer in range */
  vi->variant = SL_VM_KB;
  vi->imm = sl_ir_value (ir, kb)->bits;
  if (mask & 4u)
    {
      vi->variant = SL_VM_KBC;
      vi->jump = sl_ir_value (ir, in->src[2])->bits;
      vi->c = 0;
    }
}

/* Ops that open or close a lane-mask scope or change lane masks: a
 * program without them is straight-line (vm.h). */
static bool
is_control (SlOp op)
{
  switch (op)
    {
    case SL_OP_IF: case SL_OP_ELSE: case SL_OP_ENDIF: case SL_OP_LOOP: case SL_OP_ENDLOOP:
    case SL_OP_BREAK: case SL_OP_CONTINUE: case SL_OP_CONTEND: case SL_OP_DISCARD:
    case SL_OP_FBEGIN: case SL_OP_FEND: case SL_OP_RETURN:
      return true;
    default:
      return false;
    }
}

/* The instruction that fuses the SUB, SAT, MUL or MAD at @p with it
 * (vm.h: the SL_VM_SUB_MAD .. SL_VM_SAT_POWK forms), or -1: the one
 * reader of its result, in the same block (no control flow between), a
 * MAD multiplying it by a constant or adding it to a product by a
 * constant (of no texel's component: see is_texel), or a POW of it; the producer's operands unchanged in between
 * (only variables can change) and none of them the consumer's
 * destination (the VM's loops take restrict pointers).  The VM then does
 * the same two operations, so the bits stay. */
/* A texel component read once: a fused read may sum it (span_fuse.c). */
/* How far after a producer fused_consumer() looks for its reader. */
#define FUSE_REACH 32

static bool
is_texel (const SlIr *ir, const int *n_uses, const int *def_at, uint32_t v)
{
  return n_uses[v] == 1 && def_at[v] >= 0
         && sl_ir_insn (ir, (guint) def_at[v])->op == SL_OP_SAMPLE;
}

static int
fused_consumer (const SlIr *ir, const int *n_uses, const int *def_at, const int *fused_from,
                guint p)
{
  const SlInsn *in = sl_ir_insn (ir, p);
  bool swap;
  SlOp op = (SlOp) in->op;
  if ((op != SL_OP_SUB && op != SL_OP_SAT && op != SL_OP_MUL && op != SL_OP_MAD)
      || in->n_dst != 1 || fused_from[p] >= 0
      || sl_ir_value (ir, in->dst[0])->cls != SL_VALUE_TEMP || n_uses[in->dst[0]] != 1)
    return -1;
  uint32_t t = in->dst[0];
  unsigned own = immediate_srcs (ir, in, &swap);
  /* A product by a constant (plus a register, for MAD) to add to
   * another; a texel weighed into a sum is better summed by its read
   * (span_fuse.c), which the pair would hide. */
  bool addend = (op == SL_OP_MUL || op == SL_OP_MAD) && (own & (swap ? 1u : 2u))
                && !(own & 4u) && !is_texel (ir, n_uses, def_at, swap ? in->src[1] : in->src[0]);
  bool saturated = op == SL_OP_MAD
                   && ((own & 4u) || (!is_texel (ir, n_uses, def_at, in->src[0])
                                      && !is_texel (ir, n_uses, def_at, in->src[1])));
  /* A reader far away is not worth it: the producer's operands would
   * stay in registers all the way, and the search would grow with the
   * program. */
  guint end = MIN (ir->insns->len, p + 1 + FUSE_REACH);
  for (guint j = p + 1; j < end; j++)
    {
      const SlInsn *c = sl_ir_insn (ir, j);
      if (is_control ((SlOp) c->op))
        return -1;
      bool reads = false;
      for (int k = 0; k < c->n_src; k++)
        reads |= c->src[k] == t;
      for (int d = 0; d < c->n_dst; d++)
        for (int k = 0; k < in->n_src; k++)
          if (c->dst[d] == in->src[k])
            return -1;
      if (!reads)
        continue;
      if (c->op == SL_OP_MAD)
        {
          unsigned mask = immediate_srcs (ir, c, &swap);
          uint32_t x = swap ? c->src[1] : c->src[0];
          if (!(mask & (swap ? 1u : 2u)))
            return -1;
          if (op == SL_OP_SUB)
            return x == t && c->src[2] != t && (!(mask & 4u) || (own & 2u)) ? (int) j : -1;
          if (addend)
            return c->src[2] == t && x != t && !(mask & 4u) && !is_texel (ir, n_uses, def_at, x)
                   ? (int) j : -1;
          return -1;
        }
      if (c->op == SL_OP_SAT && saturated)
        return (int) j;
      if (c->op == SL_OP_POW && op == SL_OP_SAT && c->src[0] == t && c->src[1] != t)
        return (int) j;
      return -1;
    }
  return -1;
}

/* Makes @vi, a MAD or POW emitted for fused_consumer() of @p, read @p's
 * operands in place of its result. */
static void
fuse_producer (const SlIr *ir, Emit *e, const SlInsn *p, SlVmInsn *vi)
{
  SlVmInsn pv = { .op = vm_op ((SlOp) p->op) };
  pv.a = reg_for_src (e, p->src[0]);
  if (p->n_src > 1)
    pv.b = reg_for_src (e, p->src[1]);
  if (p->n_src > 2)
    pv.c = reg_for_src (e, p->src[2]);
  specialise_operands (ir, p, &pv);
  switch ((SlOp) p->op)
    {
    case SL_OP_SAT:
      vi->a = pv.a;
      vi->variant = vi->variant == SL_VM_KB ? SL_VM_SAT_POWK : SL_VM_SAT_POW;
      break;
    case SL_OP_SUB:
      vi->a = pv.a;
      if (vi->variant == SL_VM_KBC)
        {
          vi->variant = SL_VM_SUBK_MADK;
          vi->b = pv.imm;
        }
      else if (pv.variant == SL_VM_KB)
        {
          vi->variant = SL_VM_SUBK_MAD;
          vi->jump = pv.imm;
        }
      else
        {
          vi->variant = SL_VM_SUB_MAD;
          vi->b = pv.b;
        }
      break;
    case SL_OP_MAD:
      if (vi->op == SL_VM_OP_SAT)
        {
          /* MAD then SAT: the MAD, saturated. */
          *vi = pv;
          vi->variant = pv.variant == SL_VM_KBC ? SL_VM_MADKK_SAT
                        : pv.variant == SL_VM_KB ? SL_VM_MADK_SAT : SL_VM_MAD_SAT;
          break;
        }
      /* fall through */
    default:   /* MUL or MAD by a constant: the consumer's addend */
      vi->b = pv.a;
      vi->jump = pv.imm;
      if (p->op == SL_OP_MAD)
        {
          vi->variant = SL_VM_MAD_MAD;
          vi->c = pv.c;
        }
      else
        {
          vi->variant = SL_VM_MUL_MAD;
          vi->c = 0;
        }
      break;
    }
}

static int
push_code (Emit *e, SlVmInsn vi)
{
  g_array_append_val (e->code, vi);
  return e->code->len - 1;
}

SlSpanProgram *
sl_span_emit (const SlIr *ir)
{
  guint n_values = ir->values->len, n_insns = ir->insns->len;
  Emit e = {
    .ir = ir,
    .reg_of = g_new (uint32_t, n_values),
    .last_use = g_new (int, n_values),
    .n_uses = g_new0 (int, n_values),
    .free_regs = g_array_new (FALSE, FALSE, sizeof (uint32_t)),
    .code = g_array_new (FALSE, TRUE, sizeof (SlVmInsn)),
    .samples = g_array_new (FALSE, TRUE, sizeof (SlVmSample)),
  };
  for (guint v = 0; v < n_values; v++)
    {
      e.reg_of[v] = SL_VM_NONE;
      e.last_use[v] = -1;
    }

  /* Loop structure: for each instruction its innermost enclosing loop. */
  int *loop_of = g_new (int, n_insns);     /* index of LOOP insn or -1 */
  int *loop_end = g_new (int, n_insns);    /* for LOOP insns: its ENDLOOP */
  int *loop_parent = g_new (int, n_insns);
  {
    GArray *stack = g_array_new (FALSE, FALSE, sizeof (int));
    for (guint i = 0; i < n_insns; i++)
      {
        const SlInsn *in = sl_ir_insn (ir, i);
        int cur = stack->len ? g_array_index (stack, int, stack->len - 1) : -1;
        if (in->op == SL_OP_ENDLOOP && stack->len)
          {
            loop_end[cur] = i;
            g_array_set_size (stack, stack->len - 1);
            cur = stack->len ? g_array_index (stack, int, stack->len - 1) : -1;
            loop_of[i] = cur;
            continue;
          }
        loop_of[i] = cur;
        if (in->op == SL_OP_LOOP)
          {
            loop_parent[i] = cur;
            int li = i;
            g_array_append_val (stack, li);
          }
      }
    g_array_free (stack, TRUE);
  }

  /* Live ranges. */
  int *def_at = g_new (int, n_values);
  for (guint v = 0; v < n_values; v++)
    def_at[v] = -1;
  for (guint i = 0; i < n_insns; i++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      for (int d = 0; d < in->n_dst; d++)
        if (def_at[in->dst[d]] < 0)
          def_at[in->dst[d]] = i;
      bool swap;
      unsigned imm = in->op < SL_OP_COUNT && sl_op_shapes[in->op] != SL_SHAPE_SPECIAL
                     ? immediate_srcs (ir, in, &swap) : 0;
      for (int s = 0; s < in->n_src; s++)
        {
          uint32_t v = in->src[s];
          if (imm & (1u << s))
            continue;              /* an immediate: needs no register */
          e.n_uses[v]++;
          int last = i;
          /* Extend through every loop that holds the use but not the
           * definition: the next iteration may read the value again. */
          for (int l = loop_of[i]; l >= 0; l = loop_parent[l])
            if (l > def_at[v])
              last = MAX (last, loop_end[l]);
          e.last_use[v] = MAX (e.last_use[v], last);
        }
    }

  /* Fused pairs: the producer is not emitted, and its register operands
   * live on to the consumer, which reads them instead of its result. */
  int *fused_from = g_new (int, n_insns);   /* consumer → producer, or -1 */
  bool *fused_away = g_new0 (bool, n_insns); /* producers */
  for (guint i = 0; i < n_insns; i++)
    fused_from[i] = -1;
  /* SHADERLIB_NO_FUSION (tests only): no pairs and no fused reads, the
   * plain program that fusion must match bit for bit. */
  const bool fuse = !sl_fusion_disabled ();
  for (guint i = 0; fuse && i < n_insns; i++)
    {
      int c = fused_consumer (ir, e.n_uses, def_at, fused_from, i);
      if (c < 0 || fused_from[c] >= 0)
        continue;
      const SlInsn *in = sl_ir_insn (ir, i);
      bool swap;
      unsigned imm = immediate_srcs (ir, in, &swap);
      fused_from[c] = (int) i;
      fused_away[i] = true;
      for (int k = 0; k < in->n_src; k++)
        if (!(imm & (1u << k)))
          e.last_use[in->src[k]] = MAX (e.last_use[in->src[k]], c);
    }

  /* Which values are TEXCOORDn components (0 x, 1 y), unchanged or plus
   * a constant in one float addition: texcoord_add[v] holds the
   * constant's bits (0 for none).  a - k is a + (-k) to the bit. */
  int8_t *texcoord_of = g_new (int8_t, n_values);
  uint32_t *texcoord_add = g_new0 (uint32_t, n_values);
  for (guint v = 0; v < n_values; v++)    /* g_new gives NULL for 0 */
    texcoord_of[v] = -1;
  for (guint i = 0; i < n_insns; i++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      if (in->n_dst < 1 || sl_ir_value (ir, in->dst[0])->cls != SL_VALUE_TEMP)
        continue;
      if (in->op == SL_OP_INPUT && in->imm < SL_INPUT_COLOR)
        texcoord_of[in->dst[0]] = in->imm & 3;
      else if ((in->op == SL_OP_ADD || in->op == SL_OP_SUB) && in->n_src == 2)
        {
          uint32_t a = in->src[0], b = in->src[1];
          const SlValue *va = sl_ir_value (ir, a), *vb = sl_ir_value (ir, b);
          if (in->op == SL_OP_ADD && va->cls == SL_VALUE_CONST)
            {
              uint32_t t = a;
              a = b;
              b = t;
              const SlValue *vt = va;
              va = vb;
              vb = vt;
            }
          if (vb->cls != SL_VALUE_CONST || vb->kind != SL_KIND_FLOAT
              || texcoord_of[a] < 0 || texcoord_add[a] != 0)
            continue;
          texcoord_of[in->dst[0]] = texcoord_of[a];
          texcoord_add[in->dst[0]] = in->op == SL_OP_SUB ? vb->bits ^ 0x80000000u : vb->bits;
        }
    }

  /* Constants and variables get fixed registers. */
  GArray *const_regs = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  GArray *const_bits = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  for (guint v = 0; v < n_values; v++)
    {
      const SlValue *val = sl_ir_value (ir, v);
      if (val->cls == SL_VALUE_CONST && e.n_uses[v])
        {
          e.reg_of[v] = e.n_regs++;
          g_array_append_val (const_regs, e.reg_of[v]);
          g_array_append_val (const_bits, val->bits);
        }
      else if (val->cls == SL_VALUE_VAR && (e.n_uses[v] || def_at[v] >= 0))
        e.reg_of[v] = e.n_regs++;
    }

  int depth = 0, max_depth = 0;
  bool returned_at_top = false;
  GArray *open = g_array_new (FALSE, FALSE, sizeof (int));   /* pcs of IF/ELSE/LOOP */
  SlSpanProgram *prog = g_new0 (SlSpanProgram, 1);

  for (guint i = 0; i < n_insns; i++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      SlVmInsn vi = { .op = vm_op ((SlOp) in->op) };
      switch ((SlOp) in->op)
        {
        case SL_OP_IF:
          vi.a = reg_for_src (&e, in->src[0]);
          {
            int pc = push_code (&e, vi);
            g_array_append_val (open, pc);
          }
          depth++;
          break;
        case SL_OP_ELSE:
          {
            int pc = push_code (&e, vi);
            int if_pc = g_array_index (open, int, open->len - 1);
            g_array_index (e.code, SlVmInsn, if_pc).jump = pc;
            g_array_index (open, int, open->len - 1) = pc;
          }
          break;
        case SL_OP_ENDIF:
          {
            int pc = push_code (&e, vi);
            int from = g_array_index (open, int, open->len - 1);
            g_array_set_size (open, open->len - 1);
            g_array_index (e.code, SlVmInsn, from).jump = pc;
            depth--;
          }
          break;
        case SL_OP_LOOP:
          vi.imm = in->imm ? in->imm : SL_HLSL_LOOP_CAP;
          {
            int pc = push_code (&e, vi);
            g_array_append_val (open, pc);
          }
          depth++;
          break;
        case SL_OP_ENDLOOP:
          {
            int loop_pc = g_array_index (open, int, open->len - 1);
            g_array_set_size (open, open->len - 1);
            vi.jump = loop_pc;
            int pc = push_code (&e, vi);
            g_array_index (e.code, SlVmInsn, loop_pc).jump = pc;
            depth--;
          }
          break;
        case SL_OP_FBEGIN:
          push_code (&e, vi);
          depth++;
          break;
        case SL_OP_FEND:
          push_code (&e, vi);
          depth--;
          break;
        case SL_OP_CONTEND:
          /* No operands: the default case would read a stale dst. */
          push_code (&e, vi);
          break;
        case SL_OP_BREAK: case SL_OP_CONTINUE: case SL_OP_DISCARD: case SL_OP_RETURN:
          if (in->n_src)
            {
              vi.a = reg_for_src (&e, in->src[0]);
              vi.imm = 1;
            }
          push_code (&e, vi);
          if (in->op == SL_OP_RETURN && depth == 0)
            returned_at_top = true;
          break;
        case SL_OP_OUTPUT:
          vi.a = reg_for_src (&e, in->src[0]);
          vi.imm = in->imm;
          /* At the top level an OUTPUT runs once, so the VM may read the
           * register in place when nothing writes it again: a constant,
           * or a temporary whose register is never freed from here on (a
           * last use that matches no instruction). */
          if (depth == 0)
            {
              SlValueClass cls = sl_ir_value (ir, in->src[0])->cls;
              if (cls == SL_VALUE_CONST || cls == SL_VALUE_TEMP)
                {
                  vi.variant = SL_VM_OUT_REF;
                  if (cls == SL_VALUE_TEMP)
                    e.last_use[in->src[0]] = -2;
                }
            }
          if ((in->imm >> 2) < 8)
            {
              prog->writes_output[in->imm >> 2][in->imm & 3] = true;
              prog->n_outputs = MAX (prog->n_outputs, (int) (in->imm >> 2) + 1);
            }
          push_code (&e, vi);
          break;
        case SL_OP_SAMPLE: case SL_OP_TEXSIZE:
          {
            SlVmSample s = { .n_src = in->n_src };
            vm_sample_desc (&s, &in->sample);
            s.at_pixel = in->op == SL_OP_SAMPLE && in->n_src >= 2
                         && in->sample.dim == SL_TEXTURE_2D && !in->sample.projective
                         && in->sample.mode != SL_SAMPLE_LOAD
                         && in->sample.mode != SL_SAMPLE_COMPARE
                         && !in->sample.offset[0] && !in->sample.offset[1]
                         && texcoord_of[in->src[0]] == 0 && texcoord_of[in->src[1]] == 1;
            if (s.at_pixel)
              for (int k = 0; k < 2; k++)
                memcpy (&s.pixel_add[k], &texcoord_add[in->src[k]], sizeof (float));
            for (int k = 0; k < in->n_src; k++)
              s.src[k] = reg_for_src (&e, in->src[k]);
            for (int k = 0; k < 4; k++)
              s.dst[k] = SL_VM_NONE;
            /* Results may not alias sources: allocate before releasing. */
            bool masked = depth > 0 || returned_at_top;
            uint32_t final_dst[4];
            for (int k = 0; k < in->n_dst; k++)
              {
                uint32_t v = in->dst[k];
                final_dst[k] = SL_VM_NONE;
                if (sl_ir_value (ir, v)->cls == SL_VALUE_VAR && masked)
                  {
                    final_dst[k] = e.reg_of[v];
                    s.dst[k] = alloc_reg (&e);
                  }
                else
                  s.dst[k] = reg_for_dst (&e, v);
              }
            g_array_append_val (e.samples, s);
            vi.imm = e.samples->len - 1;
            push_code (&e, vi);
            for (int k = 0; k < in->n_dst; k++)
              if (final_dst[k] != SL_VM_NONE)
                {
                  SlVmInsn mv = { .op = SL_VM_OP_MOVM, .dst = final_dst[k], .a = s.dst[k] };
                  push_code (&e, mv);
                  free_reg (&e, s.dst[k]);
                }
            release_srcs (&e, in, i);
            release_dead_dsts (&e, in);
          }
          continue;
        default:
          {
            if (fused_away[i])
              continue;   /* emitted with its consumer */
            if (in->n_src > 0) vi.a = reg_for_src (&e, in->src[0]);
            if (in->n_src > 1) vi.b = reg_for_src (&e, in->src[1]);
            if (in->n_src > 2) vi.c = reg_for_src (&e, in->src[2]);
            vi.imm = in->op == SL_OP_INPUT ? vm_input (in->imm) : in->imm;
            specialise_operands (ir, in, &vi);
            const SlInsn *producer = fused_from[i] >= 0 ? sl_ir_insn (ir, fused_from[i]) : NULL;
            if (producer)
              fuse_producer (ir, &e, producer, &vi);
            uint32_t v = in->dst[0];
            bool masked_var = sl_ir_value (ir, v)->cls == SL_VALUE_VAR
                              && (depth > 0 || returned_at_top);
            if (masked_var)
              {
                uint32_t tmp = alloc_reg (&e);
                if (in->op == SL_OP_MOV)
                  {
                    /* A masked copy needs no temporary. */
                    free_reg (&e, tmp);
                    vi.op = SL_VM_OP_MOVM;
                    vi.dst = e.reg_of[v];
                    push_code (&e, vi);
                  }
                else
                  {
                    vi.dst = tmp;
                    push_code (&e, vi);
                    SlVmInsn mv = { .op = SL_VM_OP_MOVM, .dst = e.reg_of[v], .a = tmp };
                    push_code (&e, mv);
                    free_reg (&e, tmp);
                  }
              }
            else
              {
                vi.dst = reg_for_dst (&e, v);
                push_code (&e, vi);
              }
            release_srcs (&e, in, i);
            if (producer)
              release_srcs (&e, producer, i);
            release_dead_dsts (&e, in);
          }
          continue;
        }
      max_depth = MAX (max_depth, depth);
      release_srcs (&e, in, i);
    }

  /* Straight-line code (vm.h): nothing that opens a mask scope or
   * changes lane masks. */
  prog->straight = true;
  for (guint i = 0; i < e.code->len; i++)
    prog->straight &= !is_control ((SlOp) g_array_index (e.code, SlVmInsn, i).op);
  prog->n_code = e.code->len;
  prog->code = (SlVmInsn *) g_array_free (e.code, FALSE);
  prog->n_samples = e.samples->len;
  prog->samples = (SlVmSample *) g_array_free (e.samples, FALSE);
  prog->n_regs = MAX (e.n_regs, 1);
  prog->n_consts = const_regs->len;
  prog->const_regs = (uint32_t *) g_array_free (const_regs, FALSE);
  prog->const_bits = (uint32_t *) g_array_free (const_bits, FALSE);
  prog->max_depth = max_depth;
  if (fuse)
    sl_span_program_fuse (prog);
  prog->cost_before = g_new (uint32_t, prog->n_code + 1);
  prog->cost_before[0] = 0;
  for (int i = 0; i < prog->n_code; i++)
    {
      uint32_t cost = 1;
      if (prog->code[i].op == SL_VM_OP_SAMPLE)
        {
          /* A volume read filters eight texels where a 2D read filters
           * four (fuzz-exec: a capped loop around tex3D ran 34 s per span
           * under ASan at the 2D weight). */
          SlTextureKind dim = prog->samples[prog->code[i].imm].dim;
          cost = dim == SL_TEXTURE_3D ? 2 * SL_VM_SAMPLE_COST
                 : dim == SL_TEXTURE_CUBE ? SL_VM_SAMPLE_COST * 3 / 2 : SL_VM_SAMPLE_COST;
        }
      prog->cost_before[i + 1] = prog->cost_before[i] + cost;
    }

  g_array_free (open, TRUE);
  g_array_free (e.free_regs, TRUE);
  g_free (e.reg_of);
  g_free (e.last_use);
  g_free (e.n_uses);
  g_free (def_at);
  g_free (fused_from);
  g_free (fused_away);
  g_free (texcoord_of);
  g_free (texcoord_add);
  g_free (loop_of);
  g_free (loop_end);
  g_free (loop_parent);
  return prog;
}
