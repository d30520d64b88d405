/* The span interpreter.
 *
 * One switch dispatches each span-program instruction; the body of every
 * table-driven op is a loop over the SL_SPAN lanes calling the op's scalar
 * helper, which the C compiler vectorises.  Divergent control flow uses lane
 * masks: cf (lanes enabled by the enclosing IFs), brk/cont (lanes that left
 * the current loop or iteration), ret (lanes that returned from the current
 * function) and kill (discarded lanes); exec is their combination.  Writes
 * to variables inside control flow go through MOVM, which honours exec. */
#include "vm.h"

#include "scalar_ops.h"

#include <string.h>

typedef struct
{
  SlReg cf, brk, cont, ret, exec;
  bool  all_active;
} Masks;

static void
update_exec (Masks *m, const SlReg *kill)
{
  uint32_t any_off = 0;
  for (int i = 0; i < SL_SPAN; i++)
    {
      uint32_t e = m->cf.u[i] & ~m->brk.u[i] & ~m->cont.u[i] & ~m->ret.u[i] & ~kill->u[i];
      m->exec.u[i] = e;
      any_off |= ~e;
    }
  m->all_active = any_off == 0;
}

static bool
any_lane (const SlReg *r)
{
  uint32_t acc = 0;
  for (int i = 0; i < SL_SPAN; i++)
    acc |= r->u[i];
  return acc != 0;
}

void
sl_vm_state_reserve (SlVmState *state, const SlSpanProgram *prog)
{
  if (state->n_regs < prog->n_regs)
    {
      g_free (state->regs);
      state->regs = g_malloc_n (prog->n_regs, sizeof (SlReg));
      state->n_regs = prog->n_regs;
    }
  /* Each nesting level saves up to four masks. */
  int need = 4 * (prog->max_depth + 1);
  if (state->stack_size < need)
    {
      g_free (state->stack);
      state->stack = g_malloc_n (need, sizeof (SlReg));
      state->stack_size = need;
      g_free (state->iterations);
      state->iterations = g_new (int32_t, prog->max_depth + 1);
    }
}

void
sl_vm_state_clear (SlVmState *state)
{
  g_free (state->regs);
  g_free (state->stack);
  g_free (state->iterations);
  memset (state, 0, sizeof *state);
}

void
sl_vm_load_constants (SlVmState *state, const SlSpanProgram *prog)
{
  for (int k = 0; k < prog->n_consts; k++)
    {
      SlReg *r = &state->regs[prog->const_regs[k]];
      uint32_t bits = prog->const_bits[k];
      for (int i = 0; i < SL_SPAN; i++)
        r->u[i] = bits;
    }
}

static void
load_input (SlReg *d, uint32_t input, const SlVmEnv *env, int x0, int y0)
{
  float w = (float) env->viewport_width, h = (float) env->viewport_height;
  if (input < SL_INPUT_COLOR)
    {
      /* Every TEXCOORDn carries the normalised pixel centre: a full-screen
       * quad maps texture coordinates (0,0)-(1,1) over the viewport. */
      int c = input & 3;
      for (int i = 0; i < SL_SPAN; i++)
        {
          float px = (float) (x0 + i % SL_SPAN_COLS) + 0.5f;
          float py = (float) (y0 + i / SL_SPAN_COLS) + 0.5f;
          d->f[i] = c == 0 ? px / w : c == 1 ? py / h : c == 2 ? 0.0f : 1.0f;
        }
    }
  else if (input < SL_INPUT_POSITION)
    {
      for (int i = 0; i < SL_SPAN; i++)
        d->f[i] = 0.0f;
    }
  else if (input < SL_INPUT_FACE)
    {
      int c = input - SL_INPUT_POSITION;
      for (int i = 0; i < SL_SPAN; i++)
        {
          float px = (float) (x0 + i % SL_SPAN_COLS) + 0.5f;
          float py = (float) (y0 + i / SL_SPAN_COLS) + 0.5f;
          d->f[i] = c == 0 ? px : c == 1 ? py : c == 2 ? 0.0f : 1.0f;
        }
    }
  else
    {
      for (int i = 0; i < SL_SPAN; i++)
        d->f[i] = 1.0f;
    }
}

bool
sl_vm_run_span (const SlSpanProgram *prog, SlVmState *st,
                const SlVmEnv *env, int x0, int y0)
{
  SlReg *R = st->regs;
  Masks m;
  bool capped = false;
  for (int i = 0; i < SL_SPAN; i++)
    {
      m.cf.u[i] = SL_TRUE;
      m.brk.u[i] = m.cont.u[i] = m.ret.u[i] = 0;
      st->kill.u[i] = 0;
    }
  update_exec (&m, &st->kill);
  memset (st->out, 0, sizeof st->out);

  SlReg *sp = st->stack;          /* save area, grows upwards */
  /* Loop nesting is unbounded after inlining: the counters live in the
   * state, sized by the program's maximum depth. */
  int32_t *iter_stack = st->iterations;
  int iter_top = 0;

  const SlVmInsn *code = prog->code;
  for (int pc = 0; pc < prog->n_code; pc++)
    {
      const SlVmInsn *in = &code[pc];
      SlReg *restrict d = &R[in->dst];
      const SlReg *restrict a = &R[in->a];
      const SlReg *restrict b = &R[in->b];
      const SlReg *restrict c = &R[in->c];
      switch ((SlOp) in->op)
        {
#define LOOP_(expr) for (int i = 0; i < SL_SPAN; i++) expr; break
#define SL_SHAPE_BODY_X_X(n)   LOOP_ (d->u[i] = sl_scalar_##n (a->u[i]))
#define SL_SHAPE_BODY_X_BXX(n) LOOP_ (d->u[i] = sl_scalar_##n (a->u[i], b->u[i], c->u[i]))
#define SL_SHAPE_BODY_F_F(n)   LOOP_ (d->f[i] = sl_scalar_##n (a->f[i]))
#define SL_SHAPE_BODY_F_FF(n)  LOOP_ (d->f[i] = sl_scalar_##n (a->f[i], b->f[i]))
#define SL_SHAPE_BODY_F_FFF(n) LOOP_ (d->f[i] = sl_scalar_##n (a->f[i], b->f[i], c->f[i]))
#define SL_SHAPE_BODY_B_FF(n)  LOOP_ (d->u[i] = sl_scalar_##n (a->f[i], b->f[i]))
#define SL_SHAPE_BODY_B_F(n)   LOOP_ (d->u[i] = sl_scalar_##n (a->f[i]))
#define SL_SHAPE_BODY_I_I(n)   LOOP_ (d->i[i] = sl_scalar_##n (a->i[i]))
#define SL_SHAPE_BODY_I_II(n)  LOOP_ (d->i[i] = sl_scalar_##n (a->i[i], b->i[i]))
#define SL_SHAPE_BODY_U_U(n)   LOOP_ (d->u[i] = sl_scalar_##n (a->u[i]))
#define SL_SHAPE_BODY_U_UU(n)  LOOP_ (d->u[i] = sl_scalar_##n (a->u[i], b->u[i]))
#define SL_SHAPE_BODY_B_II(n)  LOOP_ (d->u[i] = sl_scalar_##n (a->i[i], b->i[i]))
#define SL_SHAPE_BODY_B_UU(n)  LOOP_ (d->u[i] = sl_scalar_##n (a->u[i], b->u[i]))
#define SL_SHAPE_BODY_F_I(n)   LOOP_ (d->f[i] = sl_scalar_##n (a->i[i]))
#define SL_SHAPE_BODY_F_U(n)   LOOP_ (d->f[i] = sl_scalar_##n (a->u[i]))
#define SL_SHAPE_BODY_I_F(n)   LOOP_ (d->i[i] = sl_scalar_##n (a->f[i]))
#define SL_SHAPE_BODY_U_F(n)   LOOP_ (d->u[i] = sl_scalar_##n (a->f[i]))
#define SL_SHAPE_BODY_F_B(n)   LOOP_ (d->f[i] = sl_scalar_##n (a->u[i]))
#define SL_SHAPE_BODY_I_B(n)   LOOP_ (d->i[i] = sl_scalar_##n (a->u[i]))
#define SL_SHAPE_BODY_B_I(n)   LOOP_ (d->u[i] = sl_scalar_##n (a->i[i]))
#define SL_SHAPE_BODY_SPECIAL(n) break
#define SL_OP(name, shape, doc) \
        case SL_OP_##name: SL_SHAPE_BODY_##shape (name);
#include "ops.def"
#undef SL_OP
          /* Special ops do nothing here; the second switch runs them. */
        default:
          break;
        }

      switch ((SlOp) in->op)
        {
        case SL_OP_MOVM:
          if (m.all_active)
            memcpy (d, a, sizeof *d);
          else
            for (int i = 0; i < SL_SPAN; i++)
              d->u[i] = (m.exec.u[i] & a->u[i]) | (~m.exec.u[i] & d->u[i]);
          break;
        case SL_OP_INPUT:
          load_input (d, in->imm, env, x0, y0);
          break;
        case SL_OP_LOADC:
          {
            uint32_t w = in->imm < env->n_constants ? env->constants[in->imm] : 0;
            for (int i = 0; i < SL_SPAN; i++)
              d->u[i] = w;
          }
          break;
        case SL_OP_LOADCI:
          for (int i = 0; i < SL_SPAN; i++)
            {
              /* Out-of-range register indices read zero, as D3D does. */
              int64_t reg = (int64_t) a->i[i];
              int64_t idx = (int64_t) in->imm + 4 * reg;
              d->u[i] = (idx >= 0 && (size_t) idx < env->n_constants)
                          ? env->constants[idx] : 0;
            }
          break;
        case SL_OP_OUTPUT:
          {
            SlReg *o = &st->out[in->imm >> 2][in->imm & 3];
            memcpy (o, a, sizeof *o);
          }
          break;
        case SL_OP_SAMPLE:
          {
            const SlVmSample *s = &prog->samples[in->imm];
            const SlReg *srcs[SL_IR_MAX_SRC];
            for (int k = 0; k < s->n_src; k++)
              srcs[k] = &R[s->src[k]];
            SlReg *outs[4];
            SlReg junk;
            for (int k = 0; k < 4; k++)
              outs[k] = s->dst[k] != SL_IR_NONE ? &R[s->dst[k]] : &junk;
            SlSamplerState def;
            const SlSamplerState *ss = env->samplers[s->info.sampler];
            if (!ss)
              {
                sl_sampler_state_init_default (&def);
                ss = &def;
              }
            sl_sample_span (env->textures[s->info.texture], ss, &s->info, srcs, s->n_src, outs);
          }
          break;
        case SL_OP_TEXSIZE:
          {
            const SlVmSample *s = &prog->samples[in->imm];
            const SlTexture *t = env->textures[s->info.texture];
            for (int i = 0; i < SL_SPAN; i++)
              {
                int lvl = R[s->src[0]].i[i];
                uint32_t wv = 0, hv = 0, dv = 0, nl = 0;
                if (t && lvl >= 0 && lvl < t->n_levels)
                  {
                    wv = t->levels[lvl].width;
                    hv = t->levels[lvl].height;
                    dv = t->levels[lvl].depth;
                  }
                if (t)
                  nl = t->n_levels;
                uint32_t vals[4] = { wv, hv, dv, nl };
                for (int k = 0; k < 4; k++)
                  if (s->dst[k] != SL_IR_NONE)
                    R[s->dst[k]].u[i] = vals[k];
              }
          }
          break;
        case SL_OP_DDX:
          for (int i = 0; i < SL_SPAN; i++)
            d->f[i] = a->f[i | 1] - a->f[i & ~1];
          break;
        case SL_OP_DDY:
          for (int i = 0; i < SL_SPAN; i++)
            {
              int col = i % SL_SPAN_COLS;
              d->f[i] = a->f[col + SL_SPAN_COLS] - a->f[col];
            }
          break;
        case SL_OP_IF:
          memcpy (sp++, &m.cf, sizeof (SlReg));
          memcpy (sp++, a, sizeof (SlReg));
          for (int i = 0; i < SL_SPAN; i++)
            m.cf.u[i] = m.exec.u[i] & a->u[i];
          update_exec (&m, &st->kill);
          if (!any_lane (&m.exec))
            pc = in->jump - 1;     /* to the matching ELSE or ENDIF */
          break;
        case SL_OP_ELSE:
          {
            const SlReg *saved_cf = sp - 2, *cond = sp - 1;
            for (int i = 0; i < SL_SPAN; i++)
              m.cf.u[i] = saved_cf->u[i] & ~cond->u[i];
            update_exec (&m, &st->kill);
            if (!any_lane (&m.exec))
              pc = in->jump - 1;   /* to the matching ENDIF */
          }
          break;
        case SL_OP_ENDIF:
          sp -= 2;
          memcpy (&m.cf, sp, sizeof (SlReg));
          update_exec (&m, &st->kill);
          break;
        case SL_OP_LOOP:
          memcpy (sp++, &m.cf, sizeof (SlReg));
          memcpy (sp++, &m.brk, sizeof (SlReg));
          memcpy (sp++, &m.cont, sizeof (SlReg));
          memcpy (&m.cf, &m.exec, sizeof (SlReg));
          memset (&m.brk, 0, sizeof (SlReg));
          memset (&m.cont, 0, sizeof (SlReg));
          iter_stack[iter_top++] = 0;
          update_exec (&m, &st->kill);
          if (!any_lane (&m.exec))
            pc = in->jump - 1;     /* to the ENDLOOP, which exits */
          break;
        case SL_OP_ENDLOOP:
          {
            memset (&m.cont, 0, sizeof (SlReg));
            update_exec (&m, &st->kill);
            int32_t *iters = &iter_stack[iter_top - 1];
            ++*iters;
            bool again = any_lane (&m.exec);
            if (again && (uint32_t) *iters >= code[in->jump].imm)
              {
                capped = true;
                again = false;
              }
            if (again)
              {
                pc = in->jump;     /* body starts after LOOP */
                break;
              }
            iter_top--;
            sp -= 3;
            memcpy (&m.cf, sp, sizeof (SlReg));
            memcpy (&m.brk, sp + 1, sizeof (SlReg));
            memcpy (&m.cont, sp + 2, sizeof (SlReg));
            update_exec (&m, &st->kill);
          }
          break;
        case SL_OP_BREAK:
        case SL_OP_CONTINUE:
        case SL_OP_DISCARD:
        case SL_OP_RETURN:
          {
            SlReg *target = in->op == SL_OP_BREAK ? &m.brk
                            : in->op == SL_OP_CONTINUE ? &m.cont
                            : in->op == SL_OP_DISCARD ? &st->kill : &m.ret;
            bool cond = in->imm != 0;   /* imm != 0: a holds a condition */
            for (int i = 0; i < SL_SPAN; i++)
              target->u[i] |= m.exec.u[i] & (cond ? a->u[i] : SL_TRUE);
            update_exec (&m, &st->kill);
          }
          break;
        case SL_OP_CONTEND:
          memset (&m.cont, 0, sizeof (SlReg));
          update_exec (&m, &st->kill);
          break;
        case SL_OP_FBEGIN:
          memcpy (sp++, &m.cf, sizeof (SlReg));
          memcpy (sp++, &m.ret, sizeof (SlReg));
          memcpy (&m.cf, &m.exec, sizeof (SlReg));
          memset (&m.ret, 0, sizeof (SlReg));
          update_exec (&m, &st->kill);
          break;
        case SL_OP_FEND:
          sp -= 2;
          memcpy (&m.cf, sp, sizeof (SlReg));
          memcpy (&m.ret, sp + 1, sizeof (SlReg));
          update_exec (&m, &st->kill);
          break;
        default:
          break;
        }
    }
  return !capped;
}
