/* Freeing and printing span programs.
 *
 * Both read nothing but the format in vm.h, so they live beside the VM
 * rather than beside the emitter: a span program can be inspected without
 * the IR that produced it.  The listing names ops from ops.def, the table
 * the VM's op enum is generated from; it is what `gegl-shaders dump`
 * prints as its third stage.  Not hot code: built once, outside the
 * per-level copies of vm.c and sample.c. */
#include "vm/vm.h"

static const char *const op_names[SL_VM_OP_COUNT] = {
#define SL_OP(name, shape, doc) #name,
#include "vm/ops.def"
#undef SL_OP
};

/* Register operands of a table-driven op (ops.def SHAPE: the result comes
 * first, then one letter per operand); -1 for SPECIAL ops, which list
 * their operands by hand below. */
#define N_SRCS_X_X     1
#define N_SRCS_X_BXX   3
#define N_SRCS_F_F     1
#define N_SRCS_F_FF    2
#define N_SRCS_F_FFF   3
#define N_SRCS_B_FF    2
#define N_SRCS_B_F     1
#define N_SRCS_I_I     1
#define N_SRCS_I_II    2
#define N_SRCS_U_U     1
#define N_SRCS_U_UU    2
#define N_SRCS_B_II    2
#define N_SRCS_B_UU    2
#define N_SRCS_F_I     1
#define N_SRCS_F_U     1
#define N_SRCS_I_F     1
#define N_SRCS_U_F     1
#define N_SRCS_F_B     1
#define N_SRCS_I_B     1
#define N_SRCS_B_I     1
#define N_SRCS_SPECIAL (-1)

static const int8_t op_n_srcs[SL_VM_OP_COUNT] = {
#define SL_OP(name, shape, doc) N_SRCS_##shape,
#include "vm/ops.def"
#undef SL_OP
};

int
sl_vm_op_n_srcs (unsigned op)
{
  return op < SL_VM_OP_COUNT ? op_n_srcs[op] : -1;
}

void
sl_span_program_free (SlSpanProgram *prog)
{
  if (!prog)
    return;
  g_free (prog->code);
  g_free (prog->samples);
  g_free (prog->const_regs);
  g_free (prog->const_bits);
  g_free (prog->cost_before);
  g_free (prog);
}

char *
sl_span_program_dump (const SlSpanProgram *prog)
{
  GString *out = g_string_new (NULL);
  g_string_append_printf (out, "; %u registers, %d constants, depth %d\n",
                          prog->n_regs, prog->n_consts, prog->max_depth);
  for (int k = 0; k < prog->n_consts; k++)
    g_string_append_printf (out, "; r%u = 0x%08x\n", prog->const_regs[k], prog->const_bits[k]);
  for (int pc = 0; pc < prog->n_code; pc++)
    {
      const SlVmInsn *in = &prog->code[pc];
      int n = op_n_srcs[in->op];
      if (in->variant >= SL_VM_SUB_MAD && n >= 0)
        {
          /* Fused pairs, written as the expression they compute. */
          char k[3][16];
          g_snprintf (k[0], sizeof k[0], "#%08x", in->imm);
          g_snprintf (k[1], sizeof k[1], "#%08x", in->jump);
          g_snprintf (k[2], sizeof k[2], "#%08x", in->b);
          g_string_append_printf (out, "%4d  %-9s r%u = ", pc,
                                  in->op == SL_VM_OP_POW ? "SAT.POW"
                                  : in->variant == SL_VM_MUL_MAD ? "MUL.MAD"
                                  : in->variant == SL_VM_MAD_MAD ? "MAD.MAD"
                                  : in->variant >= SL_VM_MAD_SAT && in->variant <= SL_VM_MADKK_SAT
                                  ? "MAD.SAT" : "SUB.MAD",
                                  in->dst);
          switch (in->variant)
            {
            case SL_VM_SUB_MAD:
              g_string_append_printf (out, "(r%u - r%u) * %s + r%u\n", in->a, in->b, k[0], in->c);
              break;
            case SL_VM_SUBK_MAD:
              g_string_append_printf (out, "(r%u - %s) * %s + r%u\n", in->a, k[1], k[0], in->c);
              break;
            case SL_VM_SUBK_MADK:
              g_string_append_printf (out, "(r%u - %s) * %s + %s\n", in->a, k[2], k[0], k[1]);
              break;
            case SL_VM_MUL_MAD:
              g_string_append_printf (out, "r%u * %s + r%u * %s\n", in->a, k[0], in->b, k[1]);
              break;
            case SL_VM_MAD_MAD:
              g_string_append_printf (out, "r%u * %s + (r%u * %s + r%u)\n", in->a, k[0], in->b,
                                      k[1], in->c);
              break;
            case SL_VM_MAD_SAT:
              g_string_append_printf (out, "saturate (r%u * r%u + r%u)\n", in->a, in->b, in->c);
              break;
            case SL_VM_MADK_SAT:
              g_string_append_printf (out, "saturate (r%u * %s + r%u)\n", in->a, k[0], in->c);
              break;
            case SL_VM_MADKK_SAT:
              g_string_append_printf (out, "saturate (r%u * %s + %s)\n", in->a, k[0], k[1]);
              break;
            case SL_VM_SAT_POW:
              g_string_append_printf (out, "saturate (r%u) ^ r%u\n", in->a, in->b);
              break;
            default:
              g_string_append_printf (out, "saturate (r%u) ^ %s\n", in->a, k[0]);
              break;
            }
          continue;
        }
      g_string_append_printf (out, "%4d  %-9s", pc, op_names[in->op]);
      if (n >= 0)
        {
          g_string_append_printf (out, " r%u", in->dst);
          uint32_t s[3] = { in->a, in->b, in->c };
          for (int k = 0; k < n; k++)
            {
              if (k == 1 && in->variant != SL_VM_REGS)
                g_string_append_printf (out, ", #%08x", in->imm);
              else if (k == 2 && in->variant == SL_VM_KBC && in->op == SL_VM_OP_MAD)
                g_string_append_printf (out, ", #%08x", in->jump);
              else
                g_string_append_printf (out, ", r%u", s[k]);
            }
        }
      else if (in->op == SL_VM_OP_SAMPLE || in->op == SL_VM_OP_TEXSIZE)
        {
          const SlVmSample *s = &prog->samples[in->imm];
          for (int k = 0; k < 4; k++)
            {
              if (s->dst[k] == SL_VM_NONE)
                g_string_append (out, k ? ", _" : " _");
              else
                g_string_append_printf (out, k ? ", r%u" : " r%u", s->dst[k]);
            }
          for (int k = 0; k < s->n_src; k++)
            g_string_append_printf (out, ", r%u", s->src[k]);
          g_string_append_printf (out, " (t%d, s%d)", s->texture, s->sampler);
          if (s->at_pixel)
            g_string_append_printf (out, " at pixel + (%.9g, %.9g)",
                                    s->pixel_add[0], s->pixel_add[1]);
          if (s->chain > 1)
            g_string_append_printf (out, " chain of %u", s->chain);
          if (s->relative)
            g_string_append_printf (out, " relative %s%s", s->relative & 1 ? "x" : "",
                                    s->relative & 2 ? "y" : "");
          for (int k = 0; k < 4; k++)
            {
              const char *t = (const char *[]) { "t.x", "t.y", "t.z", "t.w" }[k];
              switch (s->acc_mode[k])
                {
                case SL_VM_ACC_ADD:
                  g_string_append_printf (out, "; r%u = r%u + %s", s->dst[k], s->acc_src[k], t);
                  break;
                case SL_VM_ACC_MAD_IMM:
                  g_string_append_printf (out, "; r%u = %s * #%08x + r%u", s->dst[k], t,
                                          s->acc_weight[k], s->acc_src[k]);
                  break;
                case SL_VM_ACC_MAD_COMP:
                  g_string_append_printf (out, "; r%u = %s * t.%c + r%u", s->dst[k], t,
                                          "xyzw"[s->acc_comp[k] & 3], s->acc_src[k]);
                  break;
                default:
                  break;
                }
            }
        }
      else if (in->op == SL_VM_OP_MOVM || in->op == SL_VM_OP_DDX || in->op == SL_VM_OP_DDY)
        g_string_append_printf (out, " r%u, r%u", in->dst, in->a);
      else if (in->op == SL_VM_OP_INPUT || in->op == SL_VM_OP_LOADC)
        g_string_append_printf (out, " r%u, [%u]", in->dst, in->imm);
      else if (in->op == SL_VM_OP_LOADCI)
        g_string_append_printf (out, " r%u, [%u + 4*r%u]", in->dst, in->imm, in->a);
      else if (in->op == SL_VM_OP_OUTPUT)
        g_string_append_printf (out, " o%u.%c, r%u", in->imm >> 2, "xyzw"[in->imm & 3], in->a);
      else if (in->op == SL_VM_OP_IF
               || (in->imm && (in->op == SL_VM_OP_BREAK || in->op == SL_VM_OP_CONTINUE
                               || in->op == SL_VM_OP_DISCARD)))
        g_string_append_printf (out, " r%u", in->a);
      if (in->op == SL_VM_OP_IF || in->op == SL_VM_OP_ELSE || in->op == SL_VM_OP_LOOP
          || in->op == SL_VM_OP_ENDLOOP)
        g_string_append_printf (out, " -> %u", in->jump);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}
