/* The IR: tables generated from ops.def, the builder, a text dump and the
 * validator that runs after every pass in test builds. */
#include "ir/ir.h"

#include "vm/scalar_ops.h"

const char *const sl_op_names[SL_OP_COUNT] = {
#define SL_OP(name, shape, doc) #name,
#include "vm/ops.def"
#undef SL_OP
};

const SlShape sl_op_shapes[SL_OP_COUNT] = {
#define SL_OP(name, shape, doc) SL_SHAPE_##shape,
#include "vm/ops.def"
#undef SL_OP
};

int
sl_shape_n_srcs (SlShape shape)
{
  switch (shape)
    {
    case SL_SHAPE_X_BXX: case SL_SHAPE_F_FFF:
      return 3;
    case SL_SHAPE_F_FF: case SL_SHAPE_B_FF: case SL_SHAPE_I_II:
    case SL_SHAPE_U_UU: case SL_SHAPE_B_II: case SL_SHAPE_B_UU:
      return 2;
    case SL_SHAPE_SPECIAL:
      return -1;
    default:
      return 1;
    }
}

SlKind
sl_op_result_kind (SlOp op)
{
  switch (sl_op_shapes[op])
    {
    case SL_SHAPE_F_F: case SL_SHAPE_F_FF: case SL_SHAPE_F_FFF:
    case SL_SHAPE_F_I: case SL_SHAPE_F_U: case SL_SHAPE_F_B:
      return SL_KIND_FLOAT;
    case SL_SHAPE_I_I: case SL_SHAPE_I_II: case SL_SHAPE_I_F: case SL_SHAPE_I_B:
      return SL_KIND_INT;
    case SL_SHAPE_U_U: case SL_SHAPE_U_UU: case SL_SHAPE_U_F:
      return SL_KIND_UINT;
    case SL_SHAPE_B_FF: case SL_SHAPE_B_F: case SL_SHAPE_B_II:
    case SL_SHAPE_B_UU: case SL_SHAPE_B_I:
      return SL_KIND_BOOL;
    default:
      return SL_KIND_FLOAT;
    }
}

/* Folding: one switch generated from the table, calling the same scalar
 * helpers the VM runs. */
bool
sl_fold_op (SlOp op, const uint32_t *s, uint32_t *r)
{
  switch (op)
    {
#define F(i) sl_u2f (s[i])
#define I(i) ((int32_t) s[i])
#define U(i) (s[i])
#define RF(x) (*r = sl_f2u (x))
#define RI(x) (*r = (uint32_t) (x))
#define SL_SHAPE_CASE_X_X(n)   RI (sl_scalar_##n (U (0)))
#define SL_SHAPE_CASE_X_BXX(n) RI (sl_scalar_##n (U (0), U (1), U (2)))
#define SL_SHAPE_CASE_F_F(n)   RF (sl_scalar_##n (F (0)))
#define SL_SHAPE_CASE_F_FF(n)  RF (sl_scalar_##n (F (0), F (1)))
#define SL_SHAPE_CASE_F_FFF(n) RF (sl_scalar_##n (F (0), F (1), F (2)))
#define SL_SHAPE_CASE_B_FF(n)  RI (sl_scalar_##n (F (0), F (1)))
#define SL_SHAPE_CASE_B_F(n)   RI (sl_scalar_##n (F (0)))
#define SL_SHAPE_CASE_I_I(n)   RI (sl_scalar_##n (I (0)))
#define SL_SHAPE_CASE_I_II(n)  RI (sl_scalar_##n (I (0), I (1)))
#define SL_SHAPE_CASE_U_U(n)   RI (sl_scalar_##n (U (0)))
#define SL_SHAPE_CASE_U_UU(n)  RI (sl_scalar_##n (U (0), U (1)))
#define SL_SHAPE_CASE_B_II(n)  RI (sl_scalar_##n (I (0), I (1)))
#define SL_SHAPE_CASE_B_UU(n)  RI (sl_scalar_##n (U (0), U (1)))
#define SL_SHAPE_CASE_F_I(n)   RF (sl_scalar_##n (I (0)))
#define SL_SHAPE_CASE_F_U(n)   RF (sl_scalar_##n (U (0)))
#define SL_SHAPE_CASE_I_F(n)   RI (sl_scalar_##n (F (0)))
#define SL_SHAPE_CASE_U_F(n)   RI (sl_scalar_##n (F (0)))
#define SL_SHAPE_CASE_F_B(n)   RF (sl_scalar_##n (U (0)))
#define SL_SHAPE_CASE_I_B(n)   RI (sl_scalar_##n (U (0)))
#define SL_SHAPE_CASE_B_I(n)   RI (sl_scalar_##n (I (0)))
#define SL_SHAPE_CASE_SPECIAL(n) return false
#define SL_OP(name, shape, doc) \
    case SL_OP_##name: SL_SHAPE_CASE_##shape (name); return true;
#include "vm/ops.def"
#undef SL_OP
    default:
      return false;
    }
}

SlIr *
sl_ir_new (void)
{
  SlIr *ir = g_new0 (SlIr, 1);
  ir->values = g_array_new (FALSE, TRUE, sizeof (SlValue));
  ir->insns = g_array_new (FALSE, TRUE, sizeof (SlInsn));
  ir->const_cache = g_hash_table_new (g_int64_hash, g_int64_equal);
  return ir;
}

void
sl_ir_free (SlIr *ir)
{
  if (!ir)
    return;
  g_array_free (ir->values, TRUE);
  g_array_free (ir->insns, TRUE);
  GHashTableIter it;
  gpointer key;
  g_hash_table_iter_init (&it, ir->const_cache);
  while (g_hash_table_iter_next (&it, &key, NULL))
    g_free (key);
  g_hash_table_destroy (ir->const_cache);
  g_free (ir);
}

SlIr *
sl_ir_copy (const SlIr *src)
{
  SlIr *ir = sl_ir_new ();
  g_array_append_vals (ir->values, src->values->data, src->values->len);
  g_array_append_vals (ir->insns, src->insns->data, src->insns->len);
  GHashTableIter it;
  gpointer key, val;
  g_hash_table_iter_init (&it, src->const_cache);
  while (g_hash_table_iter_next (&it, &key, &val))
    g_hash_table_insert (ir->const_cache, g_memdup2 (key, sizeof (gint64)), val);
  ir->n_outputs = src->n_outputs;
  ir->overflow = src->overflow;
  return ir;
}

uint32_t
sl_ir_new_value (SlIr *ir, SlKind kind, SlValueClass cls)
{
  if (ir->values->len >= SL_MAX_IR_VALUES)
    {
      ir->overflow = true;
      return 0;
    }
  SlValue v = { .kind = kind, .cls = cls };
  g_array_append_val (ir->values, v);
  return ir->values->len - 1;
}

uint32_t
sl_ir_const (SlIr *ir, SlKind kind, uint32_t bits)
{
  gint64 key = ((gint64) kind << 32) | bits;
  gpointer hit = g_hash_table_lookup (ir->const_cache, &key);
  if (hit)
    return GPOINTER_TO_UINT (hit) - 1;
  uint32_t id = sl_ir_new_value (ir, kind, SL_VALUE_CONST);
  if (ir->overflow)
    return 0;
  sl_ir_value (ir, id)->bits = bits;
  g_hash_table_insert (ir->const_cache, g_memdup2 (&key, sizeof key),
                       GUINT_TO_POINTER (id + 1));
  return id;
}

uint32_t sl_ir_const_f (SlIr *ir, float f) { return sl_ir_const (ir, SL_KIND_FLOAT, sl_f2u (f)); }
uint32_t sl_ir_const_i (SlIr *ir, int32_t i) { return sl_ir_const (ir, SL_KIND_INT, (uint32_t) i); }
uint32_t sl_ir_const_u (SlIr *ir, uint32_t u) { return sl_ir_const (ir, SL_KIND_UINT, u); }
uint32_t sl_ir_const_b (SlIr *ir, bool b) { return sl_ir_const (ir, SL_KIND_BOOL, b ? SL_TRUE : 0); }

guint
sl_ir_emit (SlIr *ir, const SlInsn *insn)
{
  if (ir->insns->len >= SL_MAX_IR_INSNS)
    {
      ir->overflow = true;
      return 0;
    }
  g_array_append_vals (ir->insns, insn, 1);
  return ir->insns->len - 1;
}

static uint32_t
emit_n (SlIr *ir, SlOp op, SlKind kind, int n, uint32_t a, uint32_t b, uint32_t c)
{
  uint32_t d = sl_ir_new_value (ir, kind, SL_VALUE_TEMP);
  SlInsn insn = { .op = op, .n_dst = 1, .n_src = n, .dst = { d }, .src = { a, b, c } };
  sl_ir_emit (ir, &insn);
  return d;
}

uint32_t sl_ir_op1 (SlIr *ir, SlOp op, SlKind kind, uint32_t a) { return emit_n (ir, op, kind, 1, a, 0, 0); }
uint32_t sl_ir_op2 (SlIr *ir, SlOp op, SlKind kind, uint32_t a, uint32_t b) { return emit_n (ir, op, kind, 2, a, b, 0); }
uint32_t sl_ir_op3 (SlIr *ir, SlOp op, SlKind kind, uint32_t a, uint32_t b, uint32_t c) { return emit_n (ir, op, kind, 3, a, b, c); }

void
sl_ir_mov (SlIr *ir, uint32_t dst, uint32_t src)
{
  SlInsn insn = { .op = SL_OP_MOV, .n_dst = 1, .n_src = 1, .dst = { dst }, .src = { src } };
  sl_ir_emit (ir, &insn);
}

void
sl_ir_ctrl (SlIr *ir, SlOp op, uint32_t cond, uint32_t imm)
{
  SlInsn insn = { .op = op, .imm = imm };
  if (cond != SL_IR_NONE)
    {
      insn.n_src = 1;
      insn.src[0] = cond;
    }
  sl_ir_emit (ir, &insn);
}

static void
dump_value (GString *out, const SlIr *ir, uint32_t id)
{
  const SlValue *v = sl_ir_value (ir, id);
  if (v->cls == SL_VALUE_CONST)
    {
      switch (v->kind)
        {
        case SL_KIND_FLOAT: g_string_append_printf (out, "%.9g", sl_u2f (v->bits)); break;
        case SL_KIND_INT: g_string_append_printf (out, "%di", (int32_t) v->bits); break;
        case SL_KIND_UINT: g_string_append_printf (out, "%uu", v->bits); break;
        default: g_string_append (out, v->bits ? "true" : "false"); break;
        }
      return;
    }
  static const char kind_chars[] = "fiub";
  g_string_append_printf (out, "%s%c%u", v->cls == SL_VALUE_VAR ? "$" : "%",
                          kind_chars[v->kind & 3], id);
}

char *
sl_ir_dump (const SlIr *ir)
{
  GString *out = g_string_new (NULL);
  int depth = 0;
  for (guint i = 0; i < ir->insns->len; i++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      if (in->op == SL_OP_ELSE || in->op == SL_OP_ENDIF || in->op == SL_OP_ENDLOOP
          || in->op == SL_OP_FEND)
        depth = MAX (depth - 1, 0);
      g_string_append_printf (out, "%*s", 2 + 2 * (in->op == SL_OP_ELSE ? depth : depth), "");
      for (int d = 0; d < in->n_dst; d++)
        {
          if (d)
            g_string_append (out, ", ");
          dump_value (out, ir, in->dst[d]);
        }
      if (in->n_dst)
        g_string_append (out, " = ");
      g_string_append (out, sl_op_names[in->op]);
      for (int s = 0; s < in->n_src; s++)
        {
          g_string_append (out, s ? ", " : " ");
          dump_value (out, ir, in->src[s]);
        }
      switch (in->op)
        {
        case SL_OP_INPUT: case SL_OP_LOADC: case SL_OP_LOADCI: case SL_OP_OUTPUT:
        case SL_OP_LOOP:
          g_string_append_printf (out, " [%u]", in->imm);
          break;
        case SL_OP_SAMPLE: case SL_OP_TEXSIZE:
          g_string_append_printf (out, " [t%d s%d mode %d dim %d]", in->sample.texture,
                                  in->sample.sampler, in->sample.mode, in->sample.dim);
          break;
        default:
          break;
        }
      g_string_append_c (out, '\n');
      if (in->op == SL_OP_IF || in->op == SL_OP_ELSE || in->op == SL_OP_LOOP
          || in->op == SL_OP_FBEGIN)
        depth++;
    }
  return g_string_free (out, FALSE);
}

bool
sl_ir_validate (const SlIr *ir, const char *stage, SlDiagnostics *diags)
{
  GArray *stack = g_array_new (FALSE, FALSE, sizeof (int));
  bool ok = true;
  guint n_values = ir->values->len;
  /* Temporaries are defined once, before use. */
  guint8 *defined = g_new0 (guint8, n_values);

#define FAIL(...) do { sl_diagnostics_add (diags, SL_SEVERITY_ERROR, "<ir>", 0, 0, \
                     "E-INTERNAL", "internal error after %s: " __VA_ARGS__); ok = false; goto out; } while (0)

  for (guint i = 0; i < ir->insns->len; i++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      if (in->op >= SL_OP_COUNT)
        FAIL ("instruction %u has a bad opcode", stage, i);
      int want = sl_shape_n_srcs (sl_op_shapes[in->op]);
      if (want >= 0 && (in->n_src != want || in->n_dst != 1))
        FAIL ("%s at %u has %d sources", stage, sl_op_names[in->op], i, in->n_src);
      for (int s = 0; s < in->n_src; s++)
        {
          if (in->src[s] >= n_values)
            FAIL ("%s at %u reads a value that does not exist", stage, sl_op_names[in->op], i);
          const SlValue *v = sl_ir_value (ir, in->src[s]);
          if (v->cls == SL_VALUE_TEMP && !defined[in->src[s]])
            FAIL ("%s at %u reads %%%u before its definition", stage, sl_op_names[in->op], i, in->src[s]);
        }
      for (int d = 0; d < in->n_dst; d++)
        {
          if (in->dst[d] >= n_values)
            FAIL ("%s at %u writes a value that does not exist", stage, sl_op_names[in->op], i);
          const SlValue *v = sl_ir_value (ir, in->dst[d]);
          if (v->cls == SL_VALUE_CONST)
            FAIL ("%s at %u writes a constant", stage, sl_op_names[in->op], i);
          if (v->cls == SL_VALUE_TEMP && defined[in->dst[d]])
            FAIL ("%s at %u defines %%%u twice", stage, sl_op_names[in->op], i, in->dst[d]);
          defined[in->dst[d]] = 1;
        }
      switch (in->op)
        {
        case SL_OP_IF: case SL_OP_LOOP: case SL_OP_FBEGIN:
          {
            int op = in->op;
            g_array_append_val (stack, op);
          }
          break;
        case SL_OP_ELSE:
          if (!stack->len || g_array_index (stack, int, stack->len - 1) != SL_OP_IF)
            FAIL ("ELSE at %u without IF", stage, i);
          g_array_index (stack, int, stack->len - 1) = SL_OP_ELSE;
          break;
        case SL_OP_ENDIF:
          if (!stack->len || (g_array_index (stack, int, stack->len - 1) != SL_OP_IF
                              && g_array_index (stack, int, stack->len - 1) != SL_OP_ELSE))
            FAIL ("ENDIF at %u without IF", stage, i);
          g_array_set_size (stack, stack->len - 1);
          break;
        case SL_OP_ENDLOOP:
          if (!stack->len || g_array_index (stack, int, stack->len - 1) != SL_OP_LOOP)
            FAIL ("ENDLOOP at %u without LOOP", stage, i);
          g_array_set_size (stack, stack->len - 1);
          break;
        case SL_OP_FEND:
          if (!stack->len || g_array_index (stack, int, stack->len - 1) != SL_OP_FBEGIN)
            FAIL ("FEND at %u without FBEGIN", stage, i);
          g_array_set_size (stack, stack->len - 1);
          break;
        case SL_OP_BREAK: case SL_OP_CONTINUE:
          {
            bool in_loop = false;
            for (guint k = 0; k < stack->len; k++)
              if (g_array_index (stack, int, k) == SL_OP_LOOP)
                in_loop = true;
            if (!in_loop)
              FAIL ("%s at %u outside a loop", stage, sl_op_names[in->op], i);
          }
          break;
        default:
          break;
        }
    }
  if (stack->len)
    FAIL ("unterminated control flow", stage);
out:
#undef FAIL
  g_free (defined);
  g_array_free (stack, TRUE);
  return ok;
}
