/* The IR validator: the structural invariants every pass relies on (known
 * opcodes with their source counts, values that exist, temporaries defined
 * once before use, constants never written, control flow nested properly,
 * BREAK and CONTINUE inside a loop).  The compile driver runs it after
 * lowering and after every optimiser step when validation is on (always
 * in test runs), so a pass that corrupts the IR fails as an internal error
 * where it happened instead of as a wrong picture later. */
#include "base/diag.h"
#include "ir/ir.h"

bool
sl_ir_validate (const SlIr *ir, const char *stage, SlDiagnostics *diags)
{
  GArray *stack = g_array_new (FALSE, FALSE, sizeof (int));
  bool ok = true;
  guint n_values = ir->values->len;
  /* Temporaries are defined once, before use. */
  guint8 *defined = g_new0 (guint8, n_values);

#define FAIL(kind, ...) do { sl_diag (diags, kind, "<ir>", 0, 0, "internal error after %s: " __VA_ARGS__); \
                           ok = false; goto out; } while (0)

  for (guint i = 0; i < ir->insns->len; i++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      if (in->op >= SL_OP_COUNT)
        FAIL (SL_DIAG_INTERNAL_IR_OPCODE, "instruction %u has a bad opcode", stage, i);
      int want = sl_shape_n_srcs (sl_op_shapes[in->op]);
      if (want >= 0 && (in->n_src != want || in->n_dst != 1))
        FAIL (SL_DIAG_INTERNAL_IR_SOURCE_COUNT,
              "%s at %u has %d sources", stage, sl_op_names[in->op], i, in->n_src);
      for (int s = 0; s < in->n_src; s++)
        {
          if (in->src[s] >= n_values)
            FAIL (SL_DIAG_INTERNAL_IR_READ_UNKNOWN,
                  "%s at %u reads a value that does not exist", stage, sl_op_names[in->op], i);
          const SlValue *v = sl_ir_value (ir, in->src[s]);
          if (v->cls == SL_VALUE_TEMP && !defined[in->src[s]])
            FAIL (SL_DIAG_INTERNAL_IR_READ_BEFORE_DEF,
                  "%s at %u reads %%%u before its definition", stage, sl_op_names[in->op], i, in->src[s]);
        }
      for (int d = 0; d < in->n_dst; d++)
        {
          if (in->dst[d] >= n_values)
            FAIL (SL_DIAG_INTERNAL_IR_WRITE_UNKNOWN,
                  "%s at %u writes a value that does not exist", stage, sl_op_names[in->op], i);
          const SlValue *v = sl_ir_value (ir, in->dst[d]);
          if (v->cls == SL_VALUE_CONST)
            FAIL (SL_DIAG_INTERNAL_IR_WRITE_CONST,
                  "%s at %u writes a constant", stage, sl_op_names[in->op], i);
          if (v->cls == SL_VALUE_TEMP && defined[in->dst[d]])
            FAIL (SL_DIAG_INTERNAL_IR_REDEFINED,
                  "%s at %u defines %%%u twice", stage, sl_op_names[in->op], i, in->dst[d]);
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
            FAIL (SL_DIAG_INTERNAL_IR_ELSE, "ELSE at %u without IF", stage, i);
          g_array_index (stack, int, stack->len - 1) = SL_OP_ELSE;
          break;
        case SL_OP_ENDIF:
          if (!stack->len || (g_array_index (stack, int, stack->len - 1) != SL_OP_IF
                              && g_array_index (stack, int, stack->len - 1) != SL_OP_ELSE))
            FAIL (SL_DIAG_INTERNAL_IR_ENDIF, "ENDIF at %u without IF", stage, i);
          g_array_set_size (stack, stack->len - 1);
          break;
        case SL_OP_ENDLOOP:
          if (!stack->len || g_array_index (stack, int, stack->len - 1) != SL_OP_LOOP)
            FAIL (SL_DIAG_INTERNAL_IR_ENDLOOP, "ENDLOOP at %u without LOOP", stage, i);
          g_array_set_size (stack, stack->len - 1);
          break;
        case SL_OP_FEND:
          if (!stack->len || g_array_index (stack, int, stack->len - 1) != SL_OP_FBEGIN)
            FAIL (SL_DIAG_INTERNAL_IR_FEND, "FEND at %u without FBEGIN", stage, i);
          g_array_set_size (stack, stack->len - 1);
          break;
        case SL_OP_BREAK: case SL_OP_CONTINUE:
          {
            bool in_loop = false;
            for (guint k = 0; k < stack->len; k++)
              if (g_array_index (stack, int, k) == SL_OP_LOOP)
                in_loop = true;
            if (!in_loop)
              FAIL (SL_DIAG_INTERNAL_IR_OUTSIDE_LOOP,
                    "%s at %u outside a loop", stage, sl_op_names[in->op], i);
          }
          break;
        default:
          break;
        }
    }
  if (stack->len)
    FAIL (SL_DIAG_INTERNAL_IR_UNTERMINATED, "unterminated control flow", stage);
out:
#undef FAIL
  g_free (defined);
  g_array_free (stack, TRUE);
  return ok;
}
