/* The span interpreter.
 *
 * One switch dispatches each span-program instruction; the body of every
 * table-driven op is a loop over the SL_SPAN lanes calling the op's scalar
 * helper, which the C compiler vectorises (the helpers are branch-free and
 * the transcendental ones are polynomial approximations, see
 * scalar_ops.h).  This file and sample.c are compiled once per x86-64
 * level (SL_VM_LEVEL); the baseline copy also holds the dispatcher that
 * picks the best level for the CPU at run time.
 *
 * Span width: SL_SPAN_COLS columns × 2 rows.  Each instruction costs
 * about 25 instructions of dispatch per span whatever the width, so
 * wider spans spread it over more pixels; they also lengthen the texel
 * runs of sample.c.  Measured with callgrind (x86-64-v3, 512², whole
 * render, instructions a pixel) once dispatch had been trimmed:
 *   columns   point  alu   sample
 *   32        32.5   115   349
 *   64        23.3    93   330
 * and CPU time agreed (point +28%, alu +18% at x86-64-v4).  A register
 * is then 512 bytes: a 100-register shader's file is 50 KiB, about L1,
 * and the 300-line test shader (112 registers) still ran 10% faster at
 * 64 than at 32.  Wider spans waste more work on narrow rectangles
 * (a span computes all its columns), so 64 rather than 128.
 *
 * Divergent control flow uses lane masks: cf (lanes enabled by the
 * enclosing IFs), brk/cont (lanes that left the current loop or
 * iteration), ret (lanes that returned from the current function) and
 * kill (discarded lanes); exec is their combination.  Writes to variables
 * inside control flow go through MOVM, which honours exec.
 *
 * Run-time limits: each loop stops at its own iteration cap, and each span
 * has a budget of SL_VM_SPAN_BUDGET instructions (a texture read counts
 * SL_VM_SAMPLE_COST).  One pass over the whole program is charged when the
 * span starts, which counts every instruction once, straight-line code
 * included; each further loop iteration is charged at the back edge (the
 * body's cost, whether or not every instruction ran), so nested loops
 * cannot multiply caps into hours.  Once the budget is spent every loop
 * exits at its next ENDLOOP; with no backward jump left the rest of the
 * program runs at most once and still writes the pixels.  A program whose
 * one pass alone costs more than the budget (possible only with tens of
 * thousands of texture reads: SL_MAX_PROGRAM_INSNS bounds the rest) runs
 * that pass once, loops included, and reports it.  The charge is one
 * subtraction per span and per iteration, not per instruction.  A span that hits a cap or the budget
 * marks its binding as running away (SlVmEnv.runaway): every later span
 * of that binding then starts with an empty budget, so a shader that
 * never ends costs one span's budget, not one per span of the image. */
#include "vm/vm.h"

#include "base/limits.h"           /* SL_VM_SPAN_BUDGET */
#include "vm/rgba.h"
#include "vm/scalar_ops.h"
#include "vm/simd.h"

#include <stdlib.h>
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

#if SL_VM_LEVEL == 0
void
sl_vm_state_reserve (SlVmState *state, const SlSpanProgram *prog)
{
  /* Each nesting level saves up to four masks. */
  int need_stack = 4 * (prog->max_depth + 1);
  if (state->n_iterations < prog->max_depth + 1)
    {
      g_free (state->iterations);
      state->n_iterations = prog->max_depth + 1;
      state->iterations = g_new (int32_t, state->n_iterations);
    }
  if (state->n_steps < prog->n_code)
    {
      g_free (state->steps);
      state->n_steps = prog->n_code;
      state->steps = g_new (SlVmStep, state->n_steps);
    }
  if (!state->runs && prog->n_samples)
    state->runs = g_new0 (SlVmRunCache, 1);
  if (state->n_texel_offsets < prog->n_samples)
    {
      g_free (state->texel_offsets);
      state->n_texel_offsets = prog->n_samples;
      state->texel_offsets = g_malloc_n (state->n_texel_offsets, sizeof (int32_t[2]));
    }
  if (state->block && state->n_regs >= prog->n_regs && state->stack_size >= need_stack)
    return;
  uint32_t n_regs = MAX (state->n_regs, prog->n_regs);
  int stack_size = MAX (state->stack_size, need_stack);
  /* The vectorised loops assume registers on 64-byte boundaries, which
   * malloc does not promise. */
  size_t n = (size_t) n_regs + (size_t) stack_size + 8 * 4 + 1;
  g_free (state->block);
  state->block = g_malloc (n * sizeof (SlReg) + 63);
  state->regs = (SlReg *) (((uintptr_t) state->block + 63) & ~(uintptr_t) 63);
  state->n_regs = n_regs;
  state->stack = state->regs + n_regs;
  state->stack_size = stack_size;
  state->out = (SlReg (*)[4]) (state->stack + stack_size);
  state->kill = state->stack + stack_size + 32;
}

void
sl_vm_state_reserve_columns (SlVmState *state, int n_columns)
{
  if (state->n_columns >= n_columns)
    return;
  g_free (state->column_px);
  state->column_px = g_new (float, 2 * (size_t) n_columns);
  state->column_u = state->column_px + n_columns;
  state->n_columns = n_columns;
}

void
sl_vm_state_reserve_footprints (SlVmState *state, int n_samples, int n_columns)
{
  size_t need = (size_t) n_samples * (size_t) n_columns;
  if (state->footprint_size < need)
    {
      g_free (state->footprint_x0);
      g_free (state->footprint_fx);
      state->footprint_x0 = g_new (int32_t, need);
      state->footprint_fx = g_new (float, 2 * need);
      state->footprint_gx = state->footprint_fx + need;
      state->footprint_size = need;
    }
  size_t need_ready = (size_t) n_samples * (size_t) (n_columns / SL_SPAN_COLS);
  if (state->footprint_ready_size < need_ready)
    {
      g_free (state->footprint_ready);
      state->footprint_ready = g_new (uint8_t, need_ready);
      state->footprint_ready_size = need_ready;
    }
  if (need_ready)
    memset (state->footprint_ready, 0, need_ready);
  state->n_footprint_columns = n_columns;
}

void
sl_vm_state_clear (SlVmState *state)
{
  g_free (state->steps);
  g_free (state->texel_offsets);
  g_free (state->column_px);
  g_free (state->block);
  g_free (state->iterations);
  g_free (state->runs);
  g_free (state->footprint_x0);
  g_free (state->footprint_fx);
  g_free (state->footprint_ready);
  memset (state, 0, sizeof *state);
}
#endif

static void
load_constants (SlVmState *state, const SlSpanProgram *prog)
{
  for (int k = 0; k < prog->n_consts; k++)
    {
      SlReg *r = &state->regs[prog->const_regs[k]];
      uint32_t bits = prog->const_bits[k];
      for (int i = 0; i < SL_SPAN; i++)
        r->u[i] = bits;
    }
}

/* The pixel coordinates of every column of a render call's spans: the
 * division by the viewport width runs once per column and call, not once
 * per lane of every span. */
static void
load_columns (SlVmState *st, const SlVmEnv *env, int x0, int n)
{
  sl_vm_state_reserve_columns (st, n);
  const float w = (float) env->viewport_width;
  /* Local restrict pointers: through st, every store would reload the
   * other array's address, and the loop would not vectorise. */
  float *restrict column_px = st->column_px, *restrict column_u = st->column_u;
  for (int i = 0; i < n; i++)
    {
      float px = (float) (x0 + i) + 0.5f;
      column_px[i] = px;
      column_u[i] = px / w;
    }
}

/* @col: the span's first column in the tables of load_columns(). */
static void
load_input (SlReg *d, uint32_t input, const SlVmState *st, const SlVmEnv *env, int col, int y0)
{
  int c = input & 3;
  if (input < SL_VM_INPUT_COLOR || (input >= SL_VM_INPUT_POSITION && input < SL_VM_INPUT_FACE))
    {
      /* Every TEXCOORDn carries the normalised pixel centre: a full-screen
       * quad maps texture coordinates (0,0)-(1,1) over the viewport. */
      bool norm = input < SL_VM_INPUT_COLOR;
      if (c == 0)
        {
          const float *x = (norm ? st->column_u : st->column_px) + col;
          memcpy (d->f, x, SL_SPAN_COLS * sizeof (float));
          memcpy (d->f + SL_SPAN_COLS, x, SL_SPAN_COLS * sizeof (float));
        }
      else if (c == 1)
        for (int r = 0; r < 2; r++)
          {
            float py = (float) (y0 + r) + 0.5f;
            float v = norm ? py / (float) env->viewport_height : py;
            for (int i = 0; i < SL_SPAN_COLS; i++)
              d->f[r * SL_SPAN_COLS + i] = v;
          }
      else
        for (int i = 0; i < SL_SPAN; i++)
          d->f[i] = c == 2 ? 0.0f : 1.0f;
    }
  else
    {
      /* COLOR0 is the quad's diffuse colour and COLOR1 its specular one;
       * with no vertex data they take Direct3D's defaults, opaque white and
       * zero, which sprite and WPF-style shaders multiply by as a tint. */
      float v = input >= SL_VM_INPUT_POSITION || input < SL_VM_INPUT_COLOR + 4 ? 1.0f : 0.0f;
      for (int i = 0; i < SL_SPAN; i++)
        d->f[i] = v;
    }
}

/* Ops whose span body is written by hand (POW, SAT) get these variants
 * in their decoded key (no program carries them), so the cases the op
 * table generates for them are never reached. */
enum { OWN_REGS = 3, OWN_KB = 4 };

static unsigned
decode_key (const SlVmInsn *in)
{
  unsigned variant = in->variant;
  if (in->op == SL_VM_OP_POW && variant < SL_VM_SUB_MAD)
    variant = variant == SL_VM_KB ? OWN_KB : OWN_REGS;
  if (in->op == SL_VM_OP_SAT)
    variant = OWN_REGS;
  return SL_VM_KEY (in->op, variant);
}

/* SAT over a span as one max and one min a machine vector (simd.h). */
static void
sat_span (float *d, const float *a)
{
  for (int i = 0; i < SL_SPAN; i += SL_VEC_LANES)
    sl_vec_store (d + i, sl_vec_sat (sl_vec_load (a + i)));
}

/* saturate (a * b + c) over a span, b and c each per lane or one
 * constant for every lane (when @b or @c is NULL): the MAD's two
 * roundings, then sat_span's max and min, in registers. */
static inline __attribute__ ((always_inline)) void
mad_sat_span (float *d, const float *a, const float *b, float kb, const float *c, float kc)
{
  const SlVec vb = sl_vec_set1 (kb), vc = sl_vec_set1 (kc);
  for (int i = 0; i < SL_SPAN; i += SL_VEC_LANES)
    {
      SlVec p = sl_vec_mul (sl_vec_load (a + i), b ? sl_vec_load (b + i) : vb);
      sl_vec_store (d + i, sl_vec_sat (sl_vec_add (p, c ? sl_vec_load (c + i) : vc)));
    }
}

/* POW over a span: out = a^b, b per lane, or the immediate k for every
 * lane when per_lane is false; out must not overlap a or b.  Most lanes
 * of a shader's pow are ordinary (scalar_ops.h: a positive normal base
 * and a result within 2^+-125) or have a zero base and a positive
 * exponent (a saturated black), and take the short forms of log2 and
 * exp2, which give sl_scalar_POW's bits; the rare others (negative or
 * subnormal bases, results near the limits, NaN) are redone one by one
 * with sl_scalar_POW.
 *
 * The short forms are one long chain of dependent operations a lane.  In
 * one loop, the processor could keep only a few machine vectors of it in
 * flight, and each waited on its own chain; cut into five passes over
 * the span, each pass's chain is short and its iterations overlap, which
 * on a Zen 4 made pow about 1.7 times faster at every width.  The passes
 * keep the scalar stages' order of operations, so the bits are the
 * same. */
static inline bool
pow_takes_short_form (float a, float b, float x)
{
  /* 0^b = 0 for b > 0 (the exp2 of -inf that sl_scalar_POW takes). */
  bool zero = (a == 0.0f) & (b > 0.0f);
  return zero | (sl_approx_is_ordinary (a) & (fabsf (x) <= SL_APPROX_EXP2_ORDINARY));
}

static inline __attribute__ ((always_inline)) void
pow_span (float *restrict out, const float *restrict a, const float *restrict b, float k,
          bool per_lane)
{
  alignas (64) float e[SL_SPAN], s[SL_SPAN], series[SL_SPAN], x[SL_SPAN];
  alignas (64) float f[SL_SPAN], p[SL_SPAN], t[SL_SPAN];
  for (int i = 0; i < SL_SPAN; i++)
    s[i] = sl_approx_log2_ratio (sl_approx_log2_reduce (sl_f2u (a[i]), &e[i]));
  for (int i = 0; i < SL_SPAN; i++)
    series[i] = sl_approx_log2_series (s[i]);
  uint32_t any = 0;
  for (int i = 0; i < SL_SPAN; i++)
    {
      float bi = per_lane ? b[i] : k;
      x[i] = bi * (e[i] + sl_approx_log2_sum (s[i], series[i]));
      any |= pow_takes_short_form (a[i], bi, x[i]) ? 0u : 1u;
    }
  /* Every lane runs the short exp2; in the lanes that do not use it, x
   * may be anything, and its integer steps wrap harmlessly. */
  for (int i = 0; i < SL_SPAN; i++)
    {
      t[i] = sl_approx_exp2_round (x[i]);
      f[i] = sl_approx_exp2_fraction (x[i], t[i]);
      p[i] = sl_approx_exp2_poly_high (f[i]);
    }
  for (int i = 0; i < SL_SPAN; i++)
    {
      float r = sl_approx_exp2_place (sl_approx_exp2_poly_low (p[i], f[i]), t[i]);
      out[i] = a[i] == 0.0f ? 0.0f : r;
    }
  if (any)
    for (int i = 0; i < SL_SPAN; i++)
      {
        float bi = per_lane ? b[i] : k;
        if (!pow_takes_short_form (a[i], bi, x[i]))
          out[i] = sl_scalar_POW (a[i], bi);
      }
}

/* pow_span where d may be one of the operands, as in the other ops'
 * loops.  pow_span redoes odd lanes from a and b after writing its
 * output, so an overlapping d is written last, from a copy.  (The span
 * emitter gives every POW a fresh register today, so the copy is for the
 * VM's contract, not for a program it makes.) */
static void
pow_lanes (float *d, const float *a, const float *b, float k, bool per_lane)
{
  alignas (64) float copy[SL_SPAN];
  float *out = d != a && d != b ? d : copy;
  if (per_lane)
    pow_span (out, a, b, 0.0f, true);
  else
    pow_span (out, a, a, k, false);
  if (out != d)
    memcpy (d, copy, sizeof copy);
}

/* The sums a fused read does (span_fuse.c): each the scalar op its
 * instruction was, on the same operands, in the instructions' order. */
static void
resolve_sums (const SlVmSample *s, SlReg *R, SlVmSums *sums)
{
  sums->n = s->n_acc;
  for (int n = 0; n < s->n_acc; n++)
    {
      int k = s->acc_order[n] & 3;
      sums->mode[n] = s->acc_mode[k];
      sums->comp[n] = (uint8_t) k;
      sums->wcomp[n] = s->acc_comp[k];
      sums->weight[n] = sl_u2f (s->acc_weight[k]);
      sums->dst[n] = R[s->dst[k]].f;
      sums->acc[n] = R[s->acc_src[k]].f;
    }
  sums->shape = s->sums_shape;
}

/* The chain of fused reads starting at @pc (SlVmSample.chain) as one
 * sl_sample_chain_at_pixel(); false when it cannot, and the reads then
 * run one by one. */
static bool
run_chain (const SlSpanProgram *prog, SlVmState *st, const SlVmEnv *env, int pc, int x0, int y0)
{
  const SlVmSample *first = &prog->samples[prog->code[pc].imm];
  int n = first->chain;
  const SlVmSample *last = &prog->samples[prog->code[pc + n - 1].imm];
  const SlSamplerState *ss = env->samplers[first->sampler];
  SlSamplerState def;
  if (!ss)
    {
      sl_sampler_state_init_default (&def);
      ss = &def;
    }
  int32_t offsets[SL_VM_MAX_CHAIN][2];
  float weights[SL_VM_MAX_CHAIN];
  for (int j = 0; j < n; j++)
    {
      uint32_t si = prog->code[pc + j].imm;
      offsets[j][0] = st->texel_offsets[si][0];
      offsets[j][1] = st->texel_offsets[si][1];
      weights[j] = sl_u2f (prog->samples[si].acc_weight[0]);
    }
  SlVmSums sums = { .n = 4, .shape = first->sums_shape };
  for (int k = 0; k < 4; k++)
    {
      sums.acc[k] = st->regs[first->acc_src[k]].f;
      sums.dst[k] = st->regs[last->dst[k]].f;
    }
  return SL_LEVEL (sl_sample_chain_at_pixel) (env->textures[first->texture], ss, n, offsets,
                                              weights, x0, y0, env->viewport_width,
                                              env->viewport_height, &sums);
}

/* Lanes [from, to) of the sums, from texels landed in @texel. */
static void
accumulate (const SlVmSums *sums, const SlReg texel[4], int from, int to)
{
  for (int n = 0; n < sums->n; n++)
    {
      float *restrict d = sums->dst[n];
      const float *restrict acc = sums->acc[n];
      const float *restrict t = texel[sums->comp[n]].f;
      switch (sums->mode[n])
        {
        case SL_VM_ACC_ADD:
          for (int i = from; i < to; i++)
            d[i] = sl_scalar_ADD (acc[i], t[i]);
          break;
        case SL_VM_ACC_MAD_IMM:
          {
            const float w = sums->weight[n];
            for (int i = from; i < to; i++)
              d[i] = sl_scalar_MAD (t[i], w, acc[i]);
          }
          break;
        default:
          {
            const float *restrict w = texel[sums->wcomp[n] & 3].f;
            for (int i = from; i < to; i++)
              d[i] = sl_scalar_MAD (t[i], w[i], acc[i]);
          }
          break;
        }
    }
}

/* Runs the program over the span at (x0, y0), whose first column is
 * column @col of the call's column tables. */
static unsigned
run_span (const SlSpanProgram *prog, SlVmState *st, const SlVmEnv *env, int x0, int y0,
          int col)
{
  SlReg *R = st->regs;
  Masks m;
  unsigned stopped = 0;
  unsigned earlier = env->runaway ? (unsigned) g_atomic_int_get ((gint *) env->runaway) : 0;
  uint32_t budget = earlier ? 0 : SL_VM_SPAN_BUDGET;
  uint32_t once = prog->cost_before[prog->n_code];
  if (once >= budget)
    {
      /* Straight-line code cannot be cut short: the pass runs, each loop
       * once. */
      stopped |= earlier ? earlier : SL_VM_STOPPED_STRAIGHT;
      budget = 0;
    }
  else
    budget -= once;
  m.all_active = true;
  if (!prog->straight)
    {
      /* Straight-line programs never read the masks: skip their set-up. */
      memset (&m.cf, 0xff, sizeof m.cf);
      memset (&m.brk, 0, sizeof m.brk);
      memset (&m.cont, 0, sizeof m.cont);
      memset (&m.ret, 0, sizeof m.ret);
      memset (&m.exec, 0xff, sizeof m.exec);
      memset (st->kill, 0, sizeof (SlReg));
    }
  /* Each output the program writes is read from staging unless an OUTPUT
   * points it elsewhere; staging needs a defined value only where control
   * flow may skip the OUTPUT (which leaves zeros). */
  for (int t = 0; t < prog->n_outputs && t < 8; t++)
    for (int k = 0; k < 4; k++)
      if (prog->writes_output[t][k])
        {
          st->out_src[t][k] = &st->out[t][k];
          if (!prog->straight)
            memset (&st->out[t][k], 0, sizeof (SlReg));
        }

  SlReg *sp = st->stack;          /* save area, grows upwards */
  /* Loop nesting is unbounded after inlining: the counters live in the
   * state, sized by the program's maximum depth. */
  int32_t *iter_stack = st->iterations;
  int iter_top = 0;

  const SlVmInsn *code = prog->code;
  const SlVmStep *steps = st->steps;
  for (int pc = 0; pc < prog->n_code; pc++)
    {
      const SlVmStep *step = &steps[pc];
      const SlVmInsn *in = &code[pc];   /* for the fields steps lack */
      SlReg *restrict d = step->d;
      const SlReg *restrict a = step->a;
      const SlReg *restrict b = step->b;
      const SlReg *restrict c = step->c;
      /* The immediate operand of the SL_VM_KB forms, in each type. */
      const uint32_t ku = step->imm;
      const int32_t ki = (int32_t) step->imm;
      const float kf = sl_u2f (step->imm);
      switch (step->key)
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
/* The SL_VM_KB forms of two-operand ops: b is the immediate. */
#define SL_K_BODY_F_FF(n) LOOP_ (d->f[i] = sl_scalar_##n (a->f[i], kf))
#define SL_K_BODY_B_FF(n) LOOP_ (d->u[i] = sl_scalar_##n (a->f[i], kf))
#define SL_K_BODY_I_II(n) LOOP_ (d->i[i] = sl_scalar_##n (a->i[i], ki))
#define SL_K_BODY_U_UU(n) LOOP_ (d->u[i] = sl_scalar_##n (a->u[i], ku))
#define SL_K_BODY_B_II(n) LOOP_ (d->u[i] = sl_scalar_##n (a->i[i], ki))
#define SL_K_BODY_B_UU(n) LOOP_ (d->u[i] = sl_scalar_##n (a->u[i], ku))
#define SL_OP(name, shape, doc) SL_OP_CASE_##shape (name)
#define SL_OP_CASE_SPECIAL(name)
#define SL_REG_CASE(n, shape) case SL_VM_KEY (SL_VM_OP_##n, SL_VM_REGS): SL_SHAPE_BODY_##shape (n);
#define SL_K_CASE(n, shape)   case SL_VM_KEY (SL_VM_OP_##n, SL_VM_KB): SL_K_BODY_##shape (n);
#define SL_OP_CASE_X_X(n)   SL_REG_CASE (n, X_X)
#define SL_OP_CASE_X_BXX(n) SL_REG_CASE (n, X_BXX)
#define SL_OP_CASE_F_F(n)   SL_REG_CASE (n, F_F)
#define SL_OP_CASE_F_FF(n)  SL_REG_CASE (n, F_FF) SL_K_CASE (n, F_FF)
#define SL_OP_CASE_F_FFF(n) SL_REG_CASE (n, F_FFF)
#define SL_OP_CASE_B_FF(n)  SL_REG_CASE (n, B_FF) SL_K_CASE (n, B_FF)
#define SL_OP_CASE_B_F(n)   SL_REG_CASE (n, B_F)
#define SL_OP_CASE_I_I(n)   SL_REG_CASE (n, I_I)
#define SL_OP_CASE_I_II(n)  SL_REG_CASE (n, I_II) SL_K_CASE (n, I_II)
#define SL_OP_CASE_U_U(n)   SL_REG_CASE (n, U_U)
#define SL_OP_CASE_U_UU(n)  SL_REG_CASE (n, U_UU) SL_K_CASE (n, U_UU)
#define SL_OP_CASE_B_II(n)  SL_REG_CASE (n, B_II) SL_K_CASE (n, B_II)
#define SL_OP_CASE_B_UU(n)  SL_REG_CASE (n, B_UU) SL_K_CASE (n, B_UU)
#define SL_OP_CASE_F_I(n)   SL_REG_CASE (n, F_I)
#define SL_OP_CASE_F_U(n)   SL_REG_CASE (n, F_U)
#define SL_OP_CASE_I_F(n)   SL_REG_CASE (n, I_F)
#define SL_OP_CASE_U_F(n)   SL_REG_CASE (n, U_F)
#define SL_OP_CASE_F_B(n)   SL_REG_CASE (n, F_B)
#define SL_OP_CASE_I_B(n)   SL_REG_CASE (n, I_B)
#define SL_OP_CASE_B_I(n)   SL_REG_CASE (n, B_I)
#include "vm/ops.def"
#undef SL_OP
        case SL_VM_KEY (SL_VM_OP_SAT, OWN_REGS):
          sat_span (d->f, a->f);
          break;
        case SL_VM_KEY (SL_VM_OP_POW, OWN_REGS):
          pow_lanes (d->f, a->f, b->f, 0.0f, true);
          break;
        case SL_VM_KEY (SL_VM_OP_POW, OWN_KB):
          pow_lanes (d->f, a->f, a->f, kf, false);
          break;
        case SL_VM_KEY (SL_VM_OP_POW, SL_VM_SAT_POW):
        case SL_VM_KEY (SL_VM_OP_POW, SL_VM_SAT_POWK):
          {
            alignas (64) float s[SL_SPAN];
            sat_span (s, a->f);
            if (in->variant == SL_VM_SAT_POW)
              pow_lanes (d->f, s, b->f, 0.0f, true);
            else
              pow_lanes (d->f, s, s, kf, false);
          }
          break;
        case SL_VM_KEY (SL_VM_OP_MAD, SL_VM_SUB_MAD):
          LOOP_ (d->f[i] = sl_scalar_MAD (sl_scalar_SUB (a->f[i], b->f[i]), kf, c->f[i]));
        case SL_VM_KEY (SL_VM_OP_MAD, SL_VM_SUBK_MAD):
          {
            const float k1 = sl_u2f (in->jump);
            LOOP_ (d->f[i] = sl_scalar_MAD (sl_scalar_SUB (a->f[i], k1), kf, c->f[i]));
          }
        case SL_VM_KEY (SL_VM_OP_MAD, SL_VM_SUBK_MADK):
          {
            const float k1 = sl_u2f (in->b), k3 = sl_u2f (in->jump);
            LOOP_ (d->f[i] = sl_scalar_MAD (sl_scalar_SUB (a->f[i], k1), kf, k3));
          }
        case SL_VM_KEY (SL_VM_OP_MAD, SL_VM_MUL_MAD):
          {
            const float k2 = sl_u2f (in->jump);
            LOOP_ (d->f[i] = sl_scalar_MAD (a->f[i], kf, sl_scalar_MUL (b->f[i], k2)));
          }
        case SL_VM_KEY (SL_VM_OP_MAD, SL_VM_MAD_MAD):
          {
            const float k2 = sl_u2f (in->jump);
            LOOP_ (d->f[i] = sl_scalar_MAD (a->f[i], kf, sl_scalar_MAD (b->f[i], k2, c->f[i])));
          }
        case SL_VM_KEY (SL_VM_OP_MAD, SL_VM_MAD_SAT):
          mad_sat_span (d->f, a->f, b->f, 0.0f, c->f, 0.0f);
          break;
        case SL_VM_KEY (SL_VM_OP_MAD, SL_VM_MADK_SAT):
          mad_sat_span (d->f, a->f, NULL, kf, c->f, 0.0f);
          break;
        case SL_VM_KEY (SL_VM_OP_MAD, SL_VM_MADKK_SAT):
          mad_sat_span (d->f, a->f, NULL, kf, NULL, sl_u2f (in->jump));
          break;
        case SL_VM_KEY (SL_VM_OP_MAD, SL_VM_KB):
          LOOP_ (d->f[i] = sl_scalar_MAD (a->f[i], kf, c->f[i]));
        case SL_VM_KEY (SL_VM_OP_MAD, SL_VM_KBC):
          {
            const float kc = sl_u2f (in->jump);
            LOOP_ (d->f[i] = sl_scalar_MAD (a->f[i], kf, kc));
          }
        case SL_VM_OP_MOVM:
          if (m.all_active)
            memcpy (d, a, sizeof *d);
          else
            for (int i = 0; i < SL_SPAN; i++)
              d->u[i] = (m.exec.u[i] & a->u[i]) | (~m.exec.u[i] & d->u[i]);
          break;
        case SL_VM_OP_INPUT:
          load_input (d, in->imm, st, env, col, y0);
          break;
        case SL_VM_OP_LOADC:
          {
            uint32_t w = in->imm < env->n_constants ? env->constants[in->imm] : 0;
            for (int i = 0; i < SL_SPAN; i++)
              d->u[i] = w;
          }
          break;
        case SL_VM_OP_LOADCI:
          for (int i = 0; i < SL_SPAN; i++)
            {
              /* Out-of-range register indices read zero, as D3D does. */
              int64_t reg = (int64_t) a->i[i];
              int64_t idx = (int64_t) in->imm + 4 * reg;
              d->u[i] = (idx >= 0 && (size_t) idx < env->n_constants)
                          ? env->constants[idx] : 0;
            }
          break;
        case SL_VM_OP_OUTPUT:
          {
            SlReg *o = &st->out[in->imm >> 2][in->imm & 3];
            memcpy (o, a, sizeof *o);
            st->out_src[in->imm >> 2][in->imm & 3] = o;
          }
          break;
        case SL_VM_KEY (SL_VM_OP_OUTPUT, SL_VM_OUT_REF):
          st->out_src[in->imm >> 2][in->imm & 3] = a;
          break;
        case SL_VM_OP_SAMPLE:
          {
            const SlVmSample *s = &prog->samples[in->imm];
            if (s->chain > 1 && run_chain (prog, st, env, pc, x0, y0))
              {
                pc += s->chain - 1;
                break;
              }
            SlReg *outs[4];
            /* One each: the samplers write through restrict.  A fused
             * read lands here and is summed into its destinations. */
            SlReg texel[4];
            for (int k = 0; k < 4; k++)
              outs[k] = s->dst[k] != SL_VM_NONE && !s->fused ? &R[s->dst[k]] : &texel[k];
            SlSamplerState def;
            const SlSamplerState *ss = env->samplers[s->sampler];
            if (!ss)
              {
                sl_sampler_state_init_default (&def);
                ss = &def;
              }
            SlVmSums sums;
            if (s->fused)
              resolve_sums (s, R, &sums);
            unsigned summed_rows = 0;
            if (!s->at_pixel
                || !SL_LEVEL (sl_sample_at_pixel) (env->textures[s->texture], ss,
                                                   st->texel_offsets[in->imm], x0, y0,
                                                   env->viewport_width,
                                                   env->viewport_height, outs,
                                                   s->fused ? &sums : NULL, &summed_rows))
              {
                const SlReg *srcs[SL_VM_SAMPLE_MAX_SRC];
                SlReg coords[2];
                for (int k = 0; k < s->n_src; k++)
                  srcs[k] = &R[s->src[k]];
                for (int k = 0; k < 2; k++)
                  if (s->relative & (1u << k))
                    {
                      /* The ADD span_fuse.c dropped, of TEXCOORD: its x
                       * is the same in both rows of the span, its y the
                       * same along each row. */
                      const float *from = srcs[k]->f;
                      float *to = coords[k].f;
                      const float add = s->pixel_add[k];
                      if (k == 0)
                        {
                          for (int i = 0; i < SL_SPAN_COLS; i++)
                            to[i] = sl_scalar_ADD (from[i], add);
                          memcpy (to + SL_SPAN_COLS, to, SL_SPAN_COLS * sizeof (float));
                        }
                      else
                        for (int r = 0; r < 2; r++)
                          {
                            const float v = sl_scalar_ADD (from[r * SL_SPAN_COLS], add);
                            for (int i = 0; i < SL_SPAN_COLS; i++)
                              to[r * SL_SPAN_COLS + i] = v;
                          }
                      srcs[k] = &coords[k];
                    }
                SlVmSampleAux aux = { .runs = st->runs, .sums = s->fused ? &sums : NULL };
                if (s->at_pixel)
                  {
                    size_t at = (size_t) in->imm * (size_t) st->n_footprint_columns + (size_t) col;
                    aux.column_x0 = st->footprint_x0 + at;
                    aux.column_fx = st->footprint_fx + at;
                    aux.column_gx = st->footprint_gx + at;
                    aux.column_ready = st->footprint_ready
                                         + (size_t) in->imm * (size_t) (st->n_footprint_columns
                                                                        / SL_SPAN_COLS)
                                         + (size_t) (col / SL_SPAN_COLS);
                  }
                SL_LEVEL (sl_sample_span) (env->textures[s->texture], ss, s, srcs, outs, &aux);
                summed_rows = aux.summed_rows;
              }
            if (s->fused)
              for (int r = 0; r < 2; r++)
                if (!(summed_rows & (1u << r)))
                  accumulate (&sums, texel, r * SL_SPAN_COLS, (r + 1) * SL_SPAN_COLS);
          }
          break;
        case SL_VM_OP_TEXSIZE:
          {
            const SlVmSample *s = &prog->samples[in->imm];
            const SlTexture *t = env->textures[s->texture];
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
                  if (s->dst[k] != SL_VM_NONE)
                    R[s->dst[k]].u[i] = vals[k];
              }
          }
          break;
        case SL_VM_OP_DDX:
          for (int i = 0; i < SL_SPAN; i++)
            d->f[i] = a->f[i | 1] - a->f[i & ~1];
          break;
        case SL_VM_OP_DDY:
          for (int i = 0; i < SL_SPAN; i++)
            {
              int qc = i % SL_SPAN_COLS;
              d->f[i] = a->f[qc + SL_SPAN_COLS] - a->f[qc];
            }
          break;
        case SL_VM_OP_IF:
          memcpy (sp++, &m.cf, sizeof (SlReg));
          memcpy (sp++, a, sizeof (SlReg));
          for (int i = 0; i < SL_SPAN; i++)
            m.cf.u[i] = m.exec.u[i] & a->u[i];
          update_exec (&m, st->kill);
          if (!any_lane (&m.exec))
            pc = in->jump - 1;     /* to the matching ELSE or ENDIF */
          break;
        case SL_VM_OP_ELSE:
          {
            const SlReg *saved_cf = sp - 2, *cond = sp - 1;
            for (int i = 0; i < SL_SPAN; i++)
              m.cf.u[i] = saved_cf->u[i] & ~cond->u[i];
            update_exec (&m, st->kill);
            if (!any_lane (&m.exec))
              pc = in->jump - 1;   /* to the matching ENDIF */
          }
          break;
        case SL_VM_OP_ENDIF:
          sp -= 2;
          memcpy (&m.cf, sp, sizeof (SlReg));
          update_exec (&m, st->kill);
          break;
        case SL_VM_OP_LOOP:
          memcpy (sp++, &m.cf, sizeof (SlReg));
          memcpy (sp++, &m.brk, sizeof (SlReg));
          memcpy (sp++, &m.cont, sizeof (SlReg));
          memcpy (&m.cf, &m.exec, sizeof (SlReg));
          memset (&m.brk, 0, sizeof (SlReg));
          memset (&m.cont, 0, sizeof (SlReg));
          iter_stack[iter_top++] = 0;
          update_exec (&m, st->kill);
          if (!any_lane (&m.exec))
            pc = in->jump - 1;     /* to the ENDLOOP, which exits */
          break;
        case SL_VM_OP_ENDLOOP:
          {
            memset (&m.cont, 0, sizeof (SlReg));
            update_exec (&m, st->kill);
            int32_t *iters = &iter_stack[iter_top - 1];
            ++*iters;
            bool again = any_lane (&m.exec);
            if (again && (uint32_t) *iters >= code[in->jump].imm)
              {
                stopped |= SL_VM_STOPPED_CAP;
                again = false;
              }
            if (again)
              {
                uint32_t cost = prog->cost_before[pc] - prog->cost_before[in->jump]
                                + SL_VM_LOOP_COST;
                if (cost >= budget)
                  {
                    /* Stays at zero: every loop still open exits. */
                    budget = 0;
                    stopped |= earlier ? earlier : SL_VM_STOPPED_BUDGET;
                    again = false;
                  }
                else
                  budget -= cost;
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
            update_exec (&m, st->kill);
          }
          break;
        case SL_VM_OP_BREAK:
        case SL_VM_OP_CONTINUE:
        case SL_VM_OP_DISCARD:
        case SL_VM_OP_RETURN:
          {
            SlReg *target = in->op == SL_VM_OP_BREAK ? &m.brk
                            : in->op == SL_VM_OP_CONTINUE ? &m.cont
                            : in->op == SL_VM_OP_DISCARD ? st->kill : &m.ret;
            bool cond = in->imm != 0;   /* imm != 0: a holds a condition */
            for (int i = 0; i < SL_SPAN; i++)
              target->u[i] |= m.exec.u[i] & (cond ? a->u[i] : SL_TRUE);
            update_exec (&m, st->kill);
          }
          break;
        case SL_VM_OP_CONTEND:
          memset (&m.cont, 0, sizeof (SlReg));
          update_exec (&m, st->kill);
          break;
        case SL_VM_OP_FBEGIN:
          memcpy (sp++, &m.cf, sizeof (SlReg));
          memcpy (sp++, &m.ret, sizeof (SlReg));
          memcpy (&m.cf, &m.exec, sizeof (SlReg));
          memset (&m.ret, 0, sizeof (SlReg));
          update_exec (&m, st->kill);
          break;
        case SL_VM_OP_FEND:
          sp -= 2;
          memcpy (&m.cf, sp, sizeof (SlReg));
          memcpy (&m.ret, sp + 1, sizeof (SlReg));
          update_exec (&m, st->kill);
          break;
        default:
          break;
        }
    }
  if (stopped && !earlier && env->runaway)
    g_atomic_int_or ((guint *) env->runaway, stopped);
  return stopped;
}

/* Writes the outputs of one span to the targets: lanes outside the
 * rectangle and discarded lanes are skipped. */
static void
store_span (const SlSpanProgram *prog, const SlVmState *st, int sx, int sy,
            int x, int y, int width, int height, const SlTarget *targets, int n_targets,
            bool stream)
{
  int c0 = MAX (x - sx, 0), c1 = MIN (x + width - sx, SL_SPAN_COLS);
  uint32_t killed = 0;
  if (!prog->straight)
    for (int i = 0; i < SL_SPAN; i++)
      killed |= st->kill->u[i];
  for (int r = 0; r < 2; r++)
    {
      int py = sy + r;
      if (py < y || py >= y + height)
        continue;
      for (int t = 0; t < n_targets && t < 8; t++)
        {
          const bool *wr = prog->writes_output[t];
          if (!(wr[0] | wr[1] | wr[2] | wr[3]))
            continue;
          float *row = targets[t].pixels + (size_t) (py - y) * targets[t].row_stride
                       + (ptrdiff_t) (sx - x) * 4;
          const float *o[4];
          for (int k = 0; k < 4; k++)
            o[k] = wr[k] ? st->out_src[t][k]->f + r * SL_SPAN_COLS : NULL;
          if (!killed && wr[0] && wr[1] && wr[2] && wr[3])
            {
              /* The common case: interleave four SoA rows into RGBA. */
              float *p = row + 4 * c0;
              bool st_ok = stream && sl_rgba_can_stream (p);
              /* A whole span (the usual case) with its length known to
               * the compiler, then the rest. */
              if (c1 - c0 == SL_SPAN_COLS)
                sl_rgba_merge (p, SL_SPAN_COLS, o[0], o[1], o[2], o[3], st_ok);
              else
                sl_rgba_merge (p, c1 - c0, o[0] + c0, o[1] + c0, o[2] + c0, o[3] + c0, st_ok);
              continue;
            }
          const uint32_t *kill = st->kill->u + r * SL_SPAN_COLS;
          for (int c = c0; c < c1; c++)
            if (!killed || !kill[c])
              for (int k = 0; k < 4; k++)
                if (wr[k])
                  row[4 * c + k] = o[k][c];
        }
    }
}

/* Outputs of one render call at least this large (bytes) are written with
 * streaming stores (rgba.h): they cannot all stay in a core's cache until
 * whatever reads them next (a 16-row band of a 4096-pixel-wide float image
 * is 1 MiB), so reading each line into the cache before overwriting it is
 * wasted memory traffic.  Smaller calls (GEGL's tiles are 128×64 pixels,
 * 128 KiB) keep ordinary stores, so the next operation finds the pixels in
 * the cache.  Measured with bench-vm's point shader at 4096² (one thread,
 * x86-64-v4): 290 Mpix/s with ordinary stores, 470 streaming, memcpy 640. */
#define STREAM_MIN_BYTES (512 * 1024)

bool
SL_LEVEL (sl_vm_render) (const SlSpanProgram *prog, SlVmState *st, const SlVmEnv *env,
                         int x, int y, int width, int height,
                         const SlTarget *targets, int n_targets)
{
  st->stopped = 0;
  if (width <= 0 || height <= 0)
    return true;
  sl_vm_state_reserve (st, prog);
  load_constants (st, prog);
  for (int i = 0; i < prog->n_samples; i++)
    {
      const SlVmSample *s = &prog->samples[i];
      for (int k = 0; k < 2; k++)
        if (!s->at_pixel
            || !sl_vm_whole_texels (s->pixel_add[k],
                                    k ? env->viewport_height : env->viewport_width,
                                    &st->texel_offsets[i][k]))
          st->texel_offsets[i][k] = SL_VM_NOT_WHOLE;
    }
  for (int pc = 0; pc < prog->n_code; pc++)
    {
      const SlVmInsn *in = &prog->code[pc];
      st->steps[pc] = (SlVmStep) {
        .key = decode_key (in), .imm = in->imm,
        .d = &st->regs[in->dst], .a = &st->regs[in->a],
        /* SUBK_MADK keeps a constant's bits in b, not a register. */
        .b = &st->regs[in->variant == SL_VM_SUBK_MADK ? 0 : in->b],
        .c = &st->regs[in->c],
      };
    }
  bool stream = (size_t) width * (size_t) height * 16 * (size_t) MAX (n_targets, 1)
                >= STREAM_MIN_BYTES;
  /* Spans cover aligned 2×2 quads: start on even coordinates. */
  int x0 = x & ~1, y0 = y & ~1;
  int n_spans = (x + width - x0 + SL_SPAN_COLS - 1) / SL_SPAN_COLS;
  load_columns (st, env, x0, n_spans * SL_SPAN_COLS);
  sl_vm_state_reserve_footprints (st, prog->n_samples, n_spans * SL_SPAN_COLS);
  if (st->runs)
    for (int i = 0; i < SL_VM_RUN_SLOTS; i++)
      st->runs->runs[i].row = NULL;
  for (int sy = y0; sy < y + height; sy += 2)
    for (int sx = x0; sx < x + width; sx += SL_SPAN_COLS)
      {
        if (st->runs)
          st->runs->span++;
        st->stopped |= run_span (prog, st, env, sx, sy, sx - x0);
        store_span (prog, st, sx, sy, x, y, width, height, targets, n_targets, stream);
      }
  if (stream)
    sl_rgba_fence ();
  return st->stopped == 0;
}

#if SL_VM_LEVEL == 0
/* Level selection: a pure function of the CPU, so recomputing it on every
 * call keeps shaderlib free of mutable globals at the price of a few
 * loads (__builtin_cpu_supports reads data libgcc filled at start-up). */
typedef enum { LEVEL_V0, LEVEL_V2, LEVEL_V3, LEVEL_V4 } Level;

static Level
cpu_level (void)
{
#if defined(SL_HAVE_VM_LEVELS) && defined(__x86_64__) && defined(__GNUC__)
  const char *forced = g_getenv ("SL_VM_LEVEL");
  /* Set and empty (`SL_VM_LEVEL= cmd`) is unset, not level 0. */
  if (forced && g_ascii_isdigit (forced[0]))
    {
      /* For benchmarks and tests: force a lower level. */
      int want = atoi (forced);
      if (want < 2)
        return LEVEL_V0;
      if (want < 3)
        return __builtin_cpu_supports ("x86-64-v2") ? LEVEL_V2 : LEVEL_V0;
      if (want < 4)
        return __builtin_cpu_supports ("x86-64-v3") ? LEVEL_V3
               : __builtin_cpu_supports ("x86-64-v2") ? LEVEL_V2 : LEVEL_V0;
    }
  if (__builtin_cpu_supports ("x86-64-v4"))
    return LEVEL_V4;
  if (__builtin_cpu_supports ("x86-64-v3"))
    return LEVEL_V3;
  if (__builtin_cpu_supports ("x86-64-v2"))
    return LEVEL_V2;
#endif
  return LEVEL_V0;
}

const char *
sl_vm_level_name (void)
{
  static const char *const names[] = { "baseline", "x86-64-v2", "x86-64-v3", "x86-64-v4" };
  return names[cpu_level ()];
}

bool
sl_vm_render (const SlSpanProgram *prog, SlVmState *st, const SlVmEnv *env,
              int x, int y, int width, int height,
              const SlTarget *targets, int n_targets)
{
  switch (cpu_level ())
    {
#ifdef SL_HAVE_VM_LEVELS
    case LEVEL_V4:
      return sl_vm_render_v4 (prog, st, env, x, y, width, height, targets, n_targets);
    case LEVEL_V3:
      return sl_vm_render_v3 (prog, st, env, x, y, width, height, targets, n_targets);
    case LEVEL_V2:
      return sl_vm_render_v2 (prog, st, env, x, y, width, height, targets, n_targets);
#endif
    default:
      return sl_vm_render_v0 (prog, st, env, x, y, width, height, targets, n_targets);
    }
}
#endif
