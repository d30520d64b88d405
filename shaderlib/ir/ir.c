/* The IR's tables and builder: op names and shapes generated from
 * ops.def, constant folding through the VM's own scalar helpers, and the
 * calls front ends build a program with.  The builder enforces the IR
 * limits (SL_MAX_IR_VALUES, SL_MAX_IR_INSNS) by setting ir->overflow and
 * adding nothing more, so a front end can check it at the end instead of
 * after every call.  The text dump is in ir_dump.c, the validator in
 * ir_validate.c. */
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
