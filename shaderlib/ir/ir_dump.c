/* The IR as text: one instruction a line, indented by control-flow depth,
 * values written %f3 (temporary), $i7 (variable) or as their constant.
 * For `gegl-shaders dump`, sl_program_dump and the golden tests, which
 * compare this text, so its format only changes with them. */
#include "ir/ir.h"

#include "vm/scalar_ops.h"

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
