/* Sm4Shader → IR and reflection: the SM4/SM5 half of the common IR, with
 * the compile driver's entry (sm4_to_ir, at the end) that reads assembly
 * text or a DXBC container into the Sm4Shader first.
 *
 * SM4 registers are typeless 32-bit components; the IR's values carry
 * a kind only for constants and dumps, so a register component is simply
 * one IR variable that float and integer ops read and write as bits.
 * r#, o# and x#[] components are variables (initialised to zero), v#
 * components are INPUT temporaries read once at the top, cbN[i] reads are
 * LOADC at word base(N) + 4*i + component (LOADCI when indexed by a
 * register), where buffers are laid out one after another in slot order.
 *
 * Every instruction computes all of its destination components before it
 * writes any of them, because `mov r0.xy, r0.yx` reads the old r0.  The
 * body is wrapped in FBEGIN/FEND so that `ret` inside control flow stops
 * only its lanes; outputs are emitted after FEND from the o# variables.
 *
 * Inputs map to pixel inputs by their semantic (from the ISGN chunk or the
 * listing's signature comment): TEXCOORDn, COLORn, SV_Position,
 * SV_IsFrontFace.  Without a signature, dcl_input_ps_siv …, position is
 * SV_Position, is_front_face is SV_IsFrontFace and the k-th other declared
 * input is TEXCOORDk, which is what fxc produces for the usual
 * (position, uv…) pixel shader inputs. */
#include "asm/sm4/sm4.h"

#include "base/diag.h"
#include "vm/scalar_ops.h"

#include <string.h>

#define MAX_REGS 4096
#define MAX_IO 32
#define MAX_CB 15
#define MAX_X 32

typedef struct
{
  int       size, comps;
  uint32_t *vals;          /* size*4 variables */
} XTemp;

typedef struct
{
  const Sm4Shader *sh;
  SlIr            *ir;
  SlProgramInfo   *info;
  SlDiagnostics   *diags;
  const char      *file;
  bool             failed;
  uint32_t         varying_warned;   /* v# already reported as reading 0 */
  int              line, column;     /* of the instruction being lowered */
  GPtrArray       *said;             /* its errors so far, "column:message" */

  uint32_t        *r;        /* n_r*4 variables */
  int              n_r;
  XTemp            x[MAX_X];
  uint32_t         v[MAX_IO][4];
  bool             v_decl[MAX_IO];
  uint32_t         o[8][4];
  uint8_t          o_mask[8];
  bool             tex_decl[SL_MAX_SLOTS];
  int              tex_dim[SL_MAX_SLOTS];
  bool             samp_decl[SL_MAX_SLOTS];
  int              samp_mode[SL_MAX_SLOTS];
  bool             cb_decl[MAX_CB];
  uint32_t         cb_regs[MAX_CB];
  size_t           cb_base[MAX_CB];
  const uint32_t  *icb;
  int              n_icb;      /* words */
} Lw;

static void
at_insn (Lw *l, const Sm4Insn *in)
{
  l->line = in->line;
  l->column = in->column;
  g_ptr_array_set_size (l->said, 0);
}

/* An operand is read once per destination component, so an error about
 * it would otherwise repeat up to four times: each error is reported
 * once per instruction and column. */
static void
vlerr (Lw *l, SlDiagKind kind, int column, const char *fmt, va_list ap)
{
  char *msg = g_strdup_vprintf (fmt, ap);
  char *key = g_strdup_printf ("%d:%s", column, msg);
  l->failed = true;
  for (guint i = 0; i < l->said->len; i++)
    if (!strcmp (g_ptr_array_index (l->said, i), key))
      {
        g_free (key);
        g_free (msg);
        return;
      }
  g_ptr_array_add (l->said, key);
  sl_diag (l->diags, kind, l->file, l->line, column, "%s", msg);
  g_free (msg);
}

static void lerr (Lw *l, SlDiagKind kind, const char *fmt, ...) G_GNUC_PRINTF (3, 4);

static void
lerr (Lw *l, SlDiagKind kind, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vlerr (l, kind, l->column, fmt, ap);
  va_end (ap);
}

/* An error about operand @o: at the operand when the listing gave its
 * column (bytecode operands have none), else at the instruction. */
static void oerr (Lw *l, const Sm4Operand *o, SlDiagKind kind, const char *fmt, ...)
  G_GNUC_PRINTF (4, 5);

static void
oerr (Lw *l, const Sm4Operand *o, SlDiagKind kind, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vlerr (l, kind, o->column ? o->column : l->column, fmt, ap);
  va_end (ap);
}

/* The SM4 limit (64 blocks deep per subroutine) is enforced because the
 * passes and the VM cost grows with depth: a listing of thousands of
 * nested loops would otherwise take minutes.  Reported once, where the
 * 65th level opens. */
#define MAX_CF_DEPTH 64

/* An open if/else/loop and where it opened. */
typedef struct
{
  int kind, line, column;    /* SM4_IF, SM4_ELSE or SM4_LOOP */
} Block;

static void
check_nesting (Lw *l, const GArray *cf)
{
  if (cf->len == MAX_CF_DEPTH)
    lerr (l, SL_DIAG_SM4_FLOW_DEPTH, "flow control blocks nest more than %d deep", MAX_CF_DEPTH);
}

static SlKind
kind_of (Sm4Type t)
{
  return t == SM4T_F ? SL_KIND_FLOAT : t == SM4T_I ? SL_KIND_INT : SL_KIND_UINT;
}

static uint32_t
to_temp (Lw *l, uint32_t v, SlKind k)
{
  if (sl_ir_value (l->ir, v)->cls != SL_VALUE_VAR)
    return v;
  return sl_ir_op1 (l->ir, SL_OP_MOV, k, v);
}

static int
sel_comp (const Sm4Operand *o, int c)
{
  if (o->n_comp == 1)
    return 0;
  if (o->sel == SM4_SEL_SWIZZLE)
    return o->swz[c];
  if (o->sel == SM4_SEL_SELECT1)
    return o->swz[0];
  return c;
}

static const char *const xyzw = "xyzw";

/* The integer value of a relative index part. */
static uint32_t
rel_value (Lw *l, const Sm4Operand *o, int k)
{
  uint32_t base;
  const Sm4RelIndex *ri = &o->rel[k];
  if (ri->type == SM4_REG_TEMP)
    {
      if (ri->index >= l->n_r)
        {
          oerr (l, o, SL_DIAG_SM4_UNDECLARED_TEMP, "r%u is not declared (dcl_temps %d)", ri->index, l->n_r);
          return sl_ir_const_i (l->ir, 0);
        }
      base = l->r[ri->index * 4 + ri->comp];
    }
  else
    {
      if (ri->index >= MAX_IO || !l->v_decl[ri->index])
        {
          oerr (l, o, SL_DIAG_SM4_UNDECLARED_INPUT, "v%u is not declared (dcl_input_ps)", ri->index);
          return sl_ir_const_i (l->ir, 0);
        }
      base = l->v[ri->index][ri->comp];
    }
  if (!o->idx[k])
    return to_temp (l, base, SL_KIND_INT);
  return sl_ir_op2 (l->ir, SL_OP_IADD, SL_KIND_INT, base, sl_ir_const_i (l->ir, (int32_t) o->idx[k]));
}

/* Select among @n candidate values by an integer index (0 outside). */
static uint32_t
select_by_index (Lw *l, uint32_t idx, const uint32_t *cands, int n, int stride)
{
  uint32_t acc = sl_ir_const_u (l->ir, 0);
  for (int e = 0; e < n; e++)
    {
      uint32_t hit = sl_ir_op2 (l->ir, SL_OP_IEQ, SL_KIND_BOOL, idx, sl_ir_const_i (l->ir, e));
      acc = sl_ir_op3 (l->ir, SL_OP_SELECT, SL_KIND_UINT, hit, cands[e * stride], acc);
    }
  return acc;
}

static XTemp *
xtemp (Lw *l, const Sm4Operand *o)
{
  uint32_t n = o->idx[0];
  if (n >= MAX_X || !l->x[n].vals)
    {
      oerr (l, o, SL_DIAG_SM4_UNDECLARED_INDEXABLE, "x%u is not declared (dcl_indexableTemp)", n);
      return NULL;
    }
  return &l->x[n];
}

/* Source operand @o, component for destination component @c. */
static uint32_t
read_src (Lw *l, const Sm4Operand *o, int c, Sm4Type t)
{
  SlIr *ir = l->ir;
  int k = sel_comp (o, c);
  uint32_t v = 0;
  switch (o->type)
    {
    case SM4_REG_IMM32:
      v = sl_ir_const (ir, kind_of (t), o->imm[o->n_comp == 1 ? 0 : k]);
      break;
    case SM4_REG_TEMP:
      if (o->idx[0] >= (uint32_t) l->n_r)
        {
          oerr (l, o, SL_DIAG_SM4_UNDECLARED_TEMP, "r%u is not declared (dcl_temps %d)", o->idx[0], l->n_r);
          return sl_ir_const_u (ir, 0);
        }
      v = l->r[o->idx[0] * 4 + k];
      break;
    case SM4_REG_INPUT:
      if (o->idx[0] >= MAX_IO || !l->v_decl[o->idx[0]])
        {
          oerr (l, o, SL_DIAG_SM4_UNDECLARED_INPUT, "v%u is not declared (dcl_input_ps)", o->idx[0]);
          return sl_ir_const_u (ir, 0);
        }
      v = l->v[o->idx[0]][k];
      break;
    case SM4_REG_OUTPUT:
      if (o->idx[0] >= 8 || !l->o_mask[o->idx[0]])
        {
          oerr (l, o, SL_DIAG_SM4_UNDECLARED_OUTPUT, "o%u is not declared (dcl_output)", o->idx[0]);
          return sl_ir_const_u (ir, 0);
        }
      v = l->o[o->idx[0]][k];
      break;
    case SM4_REG_INDEXABLE_TEMP:
      {
        XTemp *x = xtemp (l, o);
        if (!x)
          return sl_ir_const_u (ir, 0);
        if (o->has_rel[1])
          v = select_by_index (l, rel_value (l, o, 1), x->vals + k, x->size, 4);
        else if (o->idx[1] < (uint32_t) x->size)
          v = x->vals[o->idx[1] * 4 + k];
        else
          {
            oerr (l, o, SL_DIAG_SM4_INDEXABLE_RANGE,
                  "x%u[%u] is out of range (size %d)", o->idx[0], o->idx[1], x->size);
            return sl_ir_const_u (ir, 0);
          }
      }
      break;
    case SM4_REG_CB:
      {
        uint32_t s = o->idx[0];
        if (s >= MAX_CB || !l->cb_decl[s])
          {
            oerr (l, o, SL_DIAG_SM4_UNDECLARED_CONSTANT_BUFFER,
                  "cb%u is not declared (dcl_constantbuffer)", s);
            return sl_ir_const_u (ir, 0);
          }
        /* A literal index past the declared size would read the next
         * buffer's words (they are laid out one after another). */
        if (!o->has_rel[1] && o->idx[1] >= l->cb_regs[s])
          {
            oerr (l, o, SL_DIAG_SM4_CONSTANT_BUFFER_RANGE,
                  "cb%u[%u] is out of range (size %u)", s, o->idx[1], l->cb_regs[s]);
            return sl_ir_const_u (ir, 0);
          }
        v = sl_ir_new_value (ir, kind_of (t), SL_VALUE_TEMP);
        SlInsn in = { .op = SL_OP_LOADC, .n_dst = 1, .dst = { v } };
        if (o->has_rel[1])
          {
            in.op = SL_OP_LOADCI;
            in.n_src = 1;
            in.src[0] = rel_value (l, o, 1);
            in.imm = (uint32_t) l->cb_base[s] + k;
          }
        else
          in.imm = (uint32_t) (l->cb_base[s] + 4 * (size_t) o->idx[1] + k);
        in.dst[0] = v;
        sl_ir_emit (ir, &in);
      }
      break;
    case SM4_REG_ICB:
      {
        int n = l->n_icb / 4;
        if (!l->icb)
          {
            oerr (l, o, SL_DIAG_SM4_UNDECLARED_ICB,
                  "icb is read but there is no dcl_immediateConstantBuffer");
            return sl_ir_const_u (ir, 0);
          }
        if (o->has_rel[0])
          {
            uint32_t *cands = g_new (uint32_t, n);
            for (int e = 0; e < n; e++)
              cands[e] = sl_ir_const (ir, kind_of (t), l->icb[e * 4 + k]);
            v = select_by_index (l, rel_value (l, o, 0), cands, n, 1);
            g_free (cands);
          }
        else if (o->idx[0] < (uint32_t) n)
          v = sl_ir_const (ir, kind_of (t), l->icb[o->idx[0] * 4 + k]);
        else
          {
            oerr (l, o, SL_DIAG_SM4_ICB_RANGE, "icb[%u] is out of range (size %d)", o->idx[0], n);
            return sl_ir_const_u (ir, 0);
          }
      }
      break;
    default:
      oerr (l, o, SL_DIAG_SM4_OPERAND_NOT_READABLE, "this operand cannot be read");
      return sl_ir_const_u (ir, 0);
    }
  if (o->modifier & SM4_MOD_ABS)
    v = t == SM4T_I || t == SM4T_U ? sl_ir_op1 (ir, SL_OP_IABS, SL_KIND_INT, v)
                                   : sl_ir_op1 (ir, SL_OP_ABS, SL_KIND_FLOAT, v);
  if (o->modifier & SM4_MOD_NEG)
    v = t == SM4T_I || t == SM4T_U ? sl_ir_op1 (ir, SL_OP_INEG, SL_KIND_INT, v)
                                   : sl_ir_op1 (ir, SL_OP_NEG, SL_KIND_FLOAT, v);
  return v;
}

static uint8_t
dst_mask (const Sm4Operand *o)
{
  if (o->type == SM4_REG_NULL)
    return 0;
  if (o->type == SM4_REG_DEPTH)
    return 1;
  return o->sel == SM4_SEL_MASK ? o->mask : 0xf;
}

static void
write_dst (Lw *l, const Sm4Operand *o, int c, uint32_t val)
{
  SlIr *ir = l->ir;
  switch (o->type)
    {
    case SM4_REG_NULL: case SM4_REG_DEPTH:
      return;   /* no depth buffer: written and unused */
    case SM4_REG_TEMP:
      if (o->idx[0] >= (uint32_t) l->n_r)
        {
          oerr (l, o, SL_DIAG_SM4_UNDECLARED_TEMP, "r%u is not declared (dcl_temps %d)", o->idx[0], l->n_r);
          return;
        }
      sl_ir_mov (ir, l->r[o->idx[0] * 4 + c], val);
      return;
    case SM4_REG_OUTPUT:
      if (o->idx[0] >= 8 || !l->o_mask[o->idx[0]])
        {
          oerr (l, o, SL_DIAG_SM4_UNDECLARED_OUTPUT, "o%u is not declared (dcl_output)", o->idx[0]);
          return;
        }
      sl_ir_mov (ir, l->o[o->idx[0]][c], val);
      return;
    case SM4_REG_INDEXABLE_TEMP:
      {
        XTemp *x = xtemp (l, o);
        if (!x)
          return;
        if (o->has_rel[1])
          {
            uint32_t idx = rel_value (l, o, 1);
            for (int e = 0; e < x->size; e++)
              {
                uint32_t hit = sl_ir_op2 (ir, SL_OP_IEQ, SL_KIND_BOOL, idx, sl_ir_const_i (ir, e));
                uint32_t cur = x->vals[e * 4 + c];
                sl_ir_mov (ir, cur, sl_ir_op3 (ir, SL_OP_SELECT, SL_KIND_UINT, hit, val, cur));
              }
          }
        else if (o->idx[1] < (uint32_t) x->size)
          sl_ir_mov (ir, x->vals[o->idx[1] * 4 + c], val);
        else
          oerr (l, o, SL_DIAG_SM4_INDEXABLE_RANGE,
                "x%u[%u] is out of range (size %d)", o->idx[0], o->idx[1], x->size);
        return;
      }
    default:
      oerr (l, o, SL_DIAG_SM4_OPERAND_NOT_WRITABLE, "this operand cannot be written");
      return;
    }
}

/* Computes then writes: res[c] for every c in the mask. */
static void
commit (Lw *l, const Sm4Operand *o, uint32_t res[4], bool sat)
{
  uint8_t m = dst_mask (o);
  for (int c = 0; c < 4; c++)
    if (m & (1u << c))
      {
        res[c] = to_temp (l, res[c], SL_KIND_UINT);
        if (sat)
          res[c] = sl_ir_op1 (l->ir, SL_OP_SAT, SL_KIND_FLOAT, res[c]);
      }
  for (int c = 0; c < 4; c++)
    if (m & (1u << c))
      write_dst (l, o, c, res[c]);
}

static uint32_t
test_cond (Lw *l, const Sm4Insn *in)
{
  uint32_t v = read_src (l, &in->ops[0], 0, SM4T_U);
  return sl_ir_op2 (l->ir, in->test_nz ? SL_OP_INE : SL_OP_IEQ, SL_KIND_BOOL, v, sl_ir_const_u (l->ir, 0));
}

static int
dim_coords (int dim)
{
  return dim == SM4_DIM_TEXTURE1D ? 1 : dim == SM4_DIM_TEXTURE2D ? 2 : 3;
}

static SlTextureKind
dim_kind (int dim)
{
  switch (dim)
    {
    case SM4_DIM_TEXTURE1D: return SL_TEXTURE_1D;
    case SM4_DIM_TEXTURE3D: return SL_TEXTURE_3D;
    case SM4_DIM_TEXTURECUBE: return SL_TEXTURE_CUBE;
    default: return SL_TEXTURE_2D;
    }
}

static const char *const mode_names[] = { "mode_default", "mode_comparison", "mode_mono" };

/* Which sample instructions each sampler mode serves (dcl_sampler). */
static bool
mode_allows (int mode, int op)
{
  switch (mode)
    {
    case SM4_SAMPLER_DEFAULT:
      return op == SM4_SAMPLE || op == SM4_SAMPLE_B || op == SM4_SAMPLE_L || op == SM4_SAMPLE_D;
    case SM4_SAMPLER_COMPARISON:
      return op == SM4_SAMPLE_C || op == SM4_SAMPLE_C_LZ;
    case SM4_SAMPLER_MONO:
      return op == SM4_SAMPLE_L;
    default:
      return false;
    }
}

static int
texture_slot (Lw *l, const Sm4Operand *t)
{
  if (t->type != SM4_REG_RESOURCE || t->idx[0] >= SL_MAX_SLOTS || !l->tex_decl[t->idx[0]])
    {
      oerr (l, t, SL_DIAG_SM4_UNDECLARED_TEXTURE,
            "t%u is not a declared texture (dcl_resource_texture*)", t->idx[0]);
      return -1;
    }
  return (int) t->idx[0];
}

static void
lower_sample (Lw *l, const Sm4Insn *in)
{
  SlIr *ir = l->ir;
  const char *mn = sm4_ops[in->op].mnemonic;
  int ts = texture_slot (l, &in->ops[2]);
  const Sm4Operand *so = &in->ops[3];
  if (ts < 0)
    return;
  if (so->type != SM4_REG_SAMPLER || so->idx[0] >= SL_MAX_SLOTS || !l->samp_decl[so->idx[0]])
    {
      oerr (l, so, SL_DIAG_SM4_UNDECLARED_SAMPLER,
            "%s: s%u is not a declared sampler (dcl_sampler)", mn, so->idx[0]);
      return;
    }
  int ss = (int) so->idx[0];
  int mode = l->samp_mode[ss];
  if (!mode_allows (mode, in->op))
    {
      oerr (l, so, SL_DIAG_SM4_SAMPLER_MODE_MISMATCH,
            "%s cannot use sampler s%d: it is declared %s, which serves only %s", mn, ss,
            mode_names[mode],
            mode == SM4_SAMPLER_DEFAULT ? "sample, sample_b, sample_l and sample_d"
            : mode == SM4_SAMPLER_COMPARISON ? "sample_c and sample_c_lz" : "sample_l");
      return;
    }
  int dim = l->tex_dim[ts];
  int nc = dim_coords (dim);
  uint32_t srcs[SL_IR_MAX_SRC];
  int n = 0;
  for (int i = 0; i < nc; i++)
    srcs[n++] = read_src (l, &in->ops[1], i, SM4T_F);
  SlSampleMode sm = SL_SAMPLE_IMPLICIT;
  switch (in->op)
    {
    case SM4_SAMPLE_B: sm = SL_SAMPLE_BIAS; srcs[n++] = read_src (l, &in->ops[4], 0, SM4T_F); break;
    case SM4_SAMPLE_L: sm = SL_SAMPLE_LOD; srcs[n++] = read_src (l, &in->ops[4], 0, SM4T_F); break;
    case SM4_SAMPLE_C: case SM4_SAMPLE_C_LZ:
      sm = SL_SAMPLE_COMPARE; srcs[n++] = read_src (l, &in->ops[4], 0, SM4T_F); break;
    case SM4_SAMPLE_D:
      sm = SL_SAMPLE_GRAD;
      for (int i = 0; i < nc; i++)
        srcs[n++] = read_src (l, &in->ops[4], i, SM4T_F);
      for (int i = 0; i < nc; i++)
        srcs[n++] = read_src (l, &in->ops[5], i, SM4T_F);
      break;
    default:
      break;
    }
  SlInsn s = { .op = SL_OP_SAMPLE, .n_dst = 4, .n_src = n };
  s.sample.mode = sm;
  s.sample.texture = ts;
  s.sample.sampler = ss;
  s.sample.dim = dim_kind (dim);
  memcpy (s.sample.offset, in->offset, 3);
  memcpy (s.src, srcs, n * sizeof (uint32_t));
  for (int k = 0; k < 4; k++)
    s.dst[k] = sl_ir_new_value (ir, SL_KIND_FLOAT, SL_VALUE_TEMP);
  sl_ir_emit (ir, &s);
  uint32_t res[4];
  for (int c = 0; c < 4; c++)
    res[c] = s.dst[sel_comp (&in->ops[2], c)];
  commit (l, &in->ops[0], res, in->sat);
}

static void
lower_ld (Lw *l, const Sm4Insn *in)
{
  int ts = texture_slot (l, &in->ops[2]);
  if (ts < 0)
    return;
  int dim = l->tex_dim[ts];
  int nc = dim_coords (dim);
  uint32_t srcs[4];
  int n = 0;
  for (int i = 0; i < nc; i++)
    srcs[n++] = read_src (l, &in->ops[1], i, SM4T_I);
  srcs[n++] = read_src (l, &in->ops[1], 3, SM4T_I);
  SlInsn s = { .op = SL_OP_SAMPLE, .n_dst = 4, .n_src = n };
  s.sample.mode = SL_SAMPLE_LOAD;
  s.sample.texture = ts;
  s.sample.sampler = ts;
  s.sample.dim = dim_kind (dim);
  memcpy (s.sample.offset, in->offset, 3);
  memcpy (s.src, srcs, n * sizeof (uint32_t));
  for (int k = 0; k < 4; k++)
    s.dst[k] = sl_ir_new_value (l->ir, SL_KIND_FLOAT, SL_VALUE_TEMP);
  sl_ir_emit (l->ir, &s);
  uint32_t res[4];
  for (int c = 0; c < 4; c++)
    res[c] = s.dst[sel_comp (&in->ops[2], c)];
  commit (l, &in->ops[0], res, false);
}

static void
lower_resinfo (Lw *l, const Sm4Insn *in)
{
  SlIr *ir = l->ir;
  int ts = texture_slot (l, &in->ops[2]);
  if (ts < 0)
    return;
  int dim = l->tex_dim[ts];
  SlInsn s = { .op = SL_OP_TEXSIZE, .n_dst = 4, .n_src = 1 };
  s.src[0] = to_temp (l, read_src (l, &in->ops[1], 0, SM4T_U), SL_KIND_INT);
  s.sample.texture = ts;
  s.sample.sampler = ts;
  s.sample.dim = dim_kind (dim);
  for (int k = 0; k < 4; k++)
    s.dst[k] = sl_ir_new_value (ir, SL_KIND_UINT, SL_VALUE_TEMP);
  sl_ir_emit (ir, &s);
  uint32_t vals[4];
  int nc = dim == SM4_DIM_TEXTURECUBE ? 2 : dim_coords (dim);
  for (int k = 0; k < 4; k++)
    {
      /* components past the resource's dimensions read 0 */
      uint32_t u = k < nc || k == 3 ? s.dst[k] : sl_ir_const_u (ir, 0);
      if (in->ctrl == 2)
        vals[k] = u;
      else
        {
          uint32_t f = sl_ir_op1 (ir, SL_OP_UTOF, SL_KIND_FLOAT, u);
          if (in->ctrl == 1 && k < nc)
            f = sl_ir_op1 (ir, SL_OP_RCP, SL_KIND_FLOAT, f);
          vals[k] = f;
        }
    }
  uint32_t res[4];
  for (int c = 0; c < 4; c++)
    res[c] = vals[sel_comp (&in->ops[2], c)];
  commit (l, &in->ops[0], res, false);
}

/* Input component → INPUT imm, or -1 (error reported, or a user varying
 * that reads 0), or -2 when the signature lacks it (the caller reports
 * the missing components together). */
static int
input_imm (Lw *l, int reg, int comp, int sysval, int plain_index)
{
  if (sysval == 1)
    return SL_INPUT_POSITION + comp;
  if (sysval == 9)
    return SL_INPUT_FACE;
  for (guint i = 0; i < l->sh->inputs->len; i++)
    {
      const Sm4SigElem *e = &g_array_index (l->sh->inputs, Sm4SigElem, i);
      if (e->reg != reg || !(e->mask & (1u << comp)))
        continue;
      int first = 0;
      while (!(e->mask & (1u << first)))
        first++;
      int k = comp - first;
      if (!g_ascii_strcasecmp (e->semantic, "TEXCOORD") && e->index >= 0 && e->index < 8)
        return SL_INPUT_TEXCOORD + 4 * e->index + k;
      if (!g_ascii_strcasecmp (e->semantic, "COLOR") && e->index >= 0 && e->index < 2)
        return SL_INPUT_COLOR + 4 * e->index + k;
      if (!g_ascii_strcasecmp (e->semantic, "SV_POSITION") || !g_ascii_strcasecmp (e->semantic, "VPOS"))
        return SL_INPUT_POSITION + k;
      if (!g_ascii_strcasecmp (e->semantic, "SV_ISFRONTFACE") || !g_ascii_strcasecmp (e->semantic, "VFACE"))
        return SL_INPUT_FACE;
      if (g_ascii_strncasecmp (e->semantic, "SV_", 3))
        {
          /* A user varying (POSITION_WS, NORMAL …) that only a vertex
             shader could fill: it keeps the 0 it was declared with. */
          if (reg < 32 && !(l->varying_warned & (1u << reg)))
            {
              l->varying_warned |= 1u << reg;
              sl_diag (l->diags, SL_DIAG_SM4_INPUT_NO_SOURCE, l->file, l->line, l->column,
                       "v%d: input semantic '%s%d' has no source; it reads 0", reg,
                       e->semantic, e->index);
            }
          return -1;
        }
      lerr (l, SL_DIAG_SM4_INPUT_SEMANTIC,
            "v%d: unsupported input semantic '%s%d'", reg, e->semantic, e->index);
      return -1;
    }
  if (l->sh->inputs->len)
    return -2;
  if (plain_index >= 8)
    {
      lerr (l, SL_DIAG_SM4_TEXCOORD_LIMIT, "v%d: only 8 texture coordinate inputs exist", reg);
      return -1;
    }
  return SL_INPUT_TEXCOORD + 4 * plain_index + comp;
}

/* Declarations: registers, slots, buffers.  Emits the initial values. */
static void
declare (Lw *l)
{
  SlIr *ir = l->ir;
  int plain_inputs = 0;
  for (guint i = 0; i < l->sh->insns->len; i++)
    {
      const Sm4Insn *in = &g_array_index (l->sh->insns, Sm4Insn, i);
      at_insn (l, in);
      const Sm4Operand *o = &in->ops[0];
      switch (in->op)
        {
        case SM4_DCL_TEMPS:
          if (l->r || in->data[0] > MAX_REGS)
            {
              if (l->r)
                lerr (l, SL_DIAG_SM4_TEMPS_TWICE, "dcl_temps appears twice");
              else
                lerr (l, SL_DIAG_SM4_TEMP_LIMIT, "dcl_temps: at most %d temporaries", MAX_REGS);
              break;
            }
          l->n_r = (int) in->data[0];
          l->r = g_new (uint32_t, (size_t) l->n_r * 4 + 1);
          for (int k = 0; k < l->n_r * 4; k++)
            {
              l->r[k] = sl_ir_new_value (ir, SL_KIND_UINT, SL_VALUE_VAR);
              sl_ir_mov (ir, l->r[k], sl_ir_const_u (ir, 0));
            }
          break;
        case SM4_DCL_INDEXABLE_TEMP:
          {
            uint32_t n = in->data[0];
            if (n >= MAX_X || l->x[n].vals)
              {
                if (n >= MAX_X)
                  lerr (l, SL_DIAG_SM4_INDEXABLE_LIMIT, "x%u: at most %d indexable temporaries", n, MAX_X);
                else
                  lerr (l, SL_DIAG_SM4_INDEXABLE_TWICE, "x%u is declared twice", n);
                break;
              }
            l->x[n].size = (int) in->data[1];
            l->x[n].comps = (int) in->data[2];
            l->x[n].vals = g_new (uint32_t, (size_t) in->data[1] * 4);
            for (uint32_t k = 0; k < in->data[1] * 4; k++)
              {
                l->x[n].vals[k] = sl_ir_new_value (ir, SL_KIND_UINT, SL_VALUE_VAR);
                sl_ir_mov (ir, l->x[n].vals[k], sl_ir_const_u (ir, 0));
              }
          }
          break;
        case SM4_DCL_INPUT_PS: case SM4_DCL_INPUT_PS_SIV: case SM4_DCL_INPUT_PS_SGV:
        case SM4_DCL_INPUT: case SM4_DCL_INPUT_SIV: case SM4_DCL_INPUT_SGV:
          {
            uint32_t n = o->idx[0];
            if (n >= MAX_IO)
              {
                lerr (l, SL_DIAG_SM4_INPUT_LIMIT, "v%u: at most %d input registers", n, MAX_IO);
                break;
              }
            int sv = in->op == SM4_DCL_INPUT_PS || in->op == SM4_DCL_INPUT ? 0 : (int) in->data[0];
            if (sv != 0 && sv != 1 && sv != 9)
              {
                lerr (l, SL_DIAG_SM4_SYSTEM_VALUE_UNAVAILABLE,
                      "v%u: system value %u is not available to pixel shaders here", n, in->data[0]);
                break;
              }
            if (!l->v_decl[n])
              for (int c = 0; c < 4; c++)
                l->v[n][c] = sl_ir_const_u (ir, 0);
            l->v_decl[n] = true;
            char missing[5] = "";
            int n_missing = 0;
            for (int c = 0; c < 4; c++)
              if (dst_mask (o) & (1u << c))
                {
                  int imm = input_imm (l, (int) n, c, sv, plain_inputs);
                  if (imm == -2)
                    missing[n_missing++] = xyzw[c];
                  if (imm < 0)
                    continue;
                  uint32_t d = sl_ir_new_value (ir, SL_KIND_FLOAT, SL_VALUE_TEMP);
                  SlInsn ii = { .op = SL_OP_INPUT, .n_dst = 1, .dst = { d }, .imm = (uint32_t) imm };
                  sl_ir_emit (ir, &ii);
                  /* SV_IsFrontFace is a boolean: all bits set when front facing */
                  l->v[n][c] = sv == 9 ? sl_ir_op1 (ir, SL_OP_FTOB, SL_KIND_BOOL, d) : d;
                }
            if (n_missing)
              lerr (l, SL_DIAG_SM4_INPUT_SIGNATURE, "v%u.%s is not in the input signature", n, missing);
            if (sv == 0)
              plain_inputs++;
          }
          break;
        case SM4_DCL_OUTPUT:
          if (o->type == SM4_REG_DEPTH)
            break;
          if (o->idx[0] >= 8)
            {
              lerr (l, SL_DIAG_SM4_RENDER_TARGET_LIMIT, "o%u: at most 8 render targets", o->idx[0]);
              break;
            }
          if (!l->o_mask[o->idx[0]])
            for (int c = 0; c < 4; c++)
              {
                l->o[o->idx[0]][c] = sl_ir_new_value (ir, SL_KIND_FLOAT, SL_VALUE_VAR);
                sl_ir_mov (ir, l->o[o->idx[0]][c], sl_ir_const_f (ir, 0.0f));
              }
          l->o_mask[o->idx[0]] |= dst_mask (o);
          break;
        case SM4_DCL_RESOURCE:
          if (o->idx[0] >= SL_MAX_SLOTS)
            {
              lerr (l, SL_DIAG_SM4_TEXTURE_LIMIT, "t%u: at most %d texture slots", o->idx[0], SL_MAX_SLOTS);
              break;
            }
          if (in->ctrl < SM4_DIM_TEXTURE1D || in->ctrl == SM4_DIM_TEXTURE2DMS || in->ctrl > SM4_DIM_TEXTURECUBE)
            {
              lerr (l, SL_DIAG_SM4_TEXTURE_KIND,
                    "t%u: only texture1d, texture2d, texture3d and texturecube resources are supported",
                    o->idx[0]);
              break;
            }
          l->tex_decl[o->idx[0]] = true;
          l->tex_dim[o->idx[0]] = (int) in->ctrl;
          break;
        case SM4_DCL_SAMPLER:
          if (o->idx[0] >= SL_MAX_SLOTS)
            {
              lerr (l, SL_DIAG_SM4_SAMPLER_LIMIT, "s%u: at most %d sampler slots", o->idx[0], SL_MAX_SLOTS);
              break;
            }
          if (in->ctrl > SM4_SAMPLER_MONO)
            {
              lerr (l, SL_DIAG_SM4_SAMPLER_MODE_VALUE, "s%u: unknown sampler mode %u", o->idx[0], in->ctrl);
              break;
            }
          l->samp_decl[o->idx[0]] = true;
          l->samp_mode[o->idx[0]] = (int) in->ctrl;
          break;
        case SM4_DCL_CONSTANT_BUFFER:
          if (o->idx[0] >= MAX_CB || o->idx[1] > 4096)
            {
              lerr (l, SL_DIAG_SM4_CONSTANT_BUFFER_LIMIT,
                    "cb%u[%u]: at most %d buffers of 4096 registers", o->idx[0], o->idx[1], MAX_CB);
              break;
            }
          l->cb_decl[o->idx[0]] = true;
          l->cb_regs[o->idx[0]] = o->idx[1];
          break;
        case SM4_DCL_ICB:
          if (l->icb)
            {
              lerr (l, SL_DIAG_SM4_ICB_TWICE, "dcl_immediateConstantBuffer appears twice");
              break;
            }
          if (!in->n_data || in->n_data % 4 || in->n_data > 4096 * 4)
            {
              lerr (l, SL_DIAG_SM4_ICB_SIZE,
                    "dcl_immediateConstantBuffer needs 1 to 4096 four-component entries");
              break;
            }
          l->icb = in->data;
          l->n_icb = in->n_data;
          break;
        default:
          break;
        }
    }
  size_t base = 0;
  for (int s = 0; s < MAX_CB; s++)
    if (l->cb_decl[s])
      {
        l->cb_base[s] = base;
        base += 4 * (size_t) l->cb_regs[s];
      }
  sl_program_info_reserve_constants (l->info, base);
}

static void
lower_insn (Lw *l, const Sm4Insn *in, GArray *cf)
{
  SlIr *ir = l->ir;
  const Sm4OpInfo *info = &sm4_ops[in->op];
  Sm4Type t = (Sm4Type) info->type;
  uint32_t res[4] = { 0, 0, 0, 0 };
  Block open = { .kind = 0, .line = in->line, .column = in->column };
  int top = cf->len ? g_array_index (cf, Block, cf->len - 1).kind : -1;
  bool in_loop = false;
  for (guint i = 0; i < cf->len; i++)
    if (g_array_index (cf, Block, i).kind == SM4_LOOP)
      in_loop = true;
  switch ((Sm4Lower) info->lower)
    {
    case SM4L_DCL: case SM4L_NOP:
      return;
    case SM4L_MAP:
      for (int c = 0; c < 4; c++)
        if (dst_mask (&in->ops[0]) & (1u << c))
          {
            uint32_t s[3];
            for (int k = 0; k < info->n_src; k++)
              s[k] = read_src (l, &in->ops[1 + k], c, t);
            SlOp op = (SlOp) info->irop;
            SlKind rk = sl_op_result_kind (op);
            res[c] = info->n_src == 1 ? sl_ir_op1 (ir, op, rk, s[0])
                     : info->n_src == 2 ? sl_ir_op2 (ir, op, rk, s[0], s[1])
                     : sl_ir_op3 (ir, op, rk, s[0], s[1], s[2]);
          }
      commit (l, &in->ops[0], res, in->sat);
      return;
    case SM4L_MOV:
      for (int c = 0; c < 4; c++)
        if (dst_mask (&in->ops[0]) & (1u << c))
          res[c] = read_src (l, &in->ops[1], c, in->ops[1].modifier ? SM4T_F : SM4T_X);
      commit (l, &in->ops[0], res, in->sat);
      return;
    case SM4L_MOVC:
      for (int c = 0; c < 4; c++)
        if (dst_mask (&in->ops[0]) & (1u << c))
          {
            uint32_t cond = sl_ir_op2 (ir, SL_OP_INE, SL_KIND_BOOL, read_src (l, &in->ops[1], c, SM4T_U),
                                       sl_ir_const_u (ir, 0));
            uint32_t a = read_src (l, &in->ops[2], c, in->ops[2].modifier ? SM4T_F : SM4T_X);
            uint32_t b = read_src (l, &in->ops[3], c, in->ops[3].modifier ? SM4T_F : SM4T_X);
            res[c] = sl_ir_op3 (ir, SL_OP_SELECT, SL_KIND_UINT, cond, a, b);
          }
      commit (l, &in->ops[0], res, in->sat);
      return;
    case SM4L_DOT:
      {
        int n = in->op == SM4_DP2 ? 2 : in->op == SM4_DP3 ? 3 : 4;
        /* the HLSL front end's order: a0*b0, then mad(ai, bi, acc) */
        uint32_t acc = sl_ir_op2 (ir, SL_OP_MUL, SL_KIND_FLOAT, read_src (l, &in->ops[1], 0, t),
                                  read_src (l, &in->ops[2], 0, t));
        for (int i = 1; i < n; i++)
          acc = sl_ir_op3 (ir, SL_OP_MAD, SL_KIND_FLOAT, read_src (l, &in->ops[1], i, t),
                           read_src (l, &in->ops[2], i, t), acc);
        for (int c = 0; c < 4; c++)
          res[c] = acc;
        commit (l, &in->ops[0], res, in->sat);
        return;
      }
    case SM4L_SINCOS: case SM4L_DIVQR: case SM4L_MULHL:
      {
        uint32_t r2[2][4] = { { 0 } };
        for (int d = 0; d < 2; d++)
          for (int c = 0; c < 4; c++)
            if (dst_mask (&in->ops[d]) & (1u << c))
              {
                if (info->lower == SM4L_SINCOS)
                  r2[d][c] = sl_ir_op1 (ir, d ? SL_OP_COS : SL_OP_SIN, SL_KIND_FLOAT,
                                        read_src (l, &in->ops[2], c, t));
                else if (info->lower == SM4L_DIVQR)
                  r2[d][c] = sl_ir_op2 (ir, d ? SL_OP_UMOD : SL_OP_UDIV, SL_KIND_UINT,
                                        read_src (l, &in->ops[2], c, t), read_src (l, &in->ops[3], c, t));
                else if (d == 0)
                  {
                    oerr (l, &in->ops[0], SL_DIAG_SM4_MUL_HIGH,
                          "%s: the high 32 bits of the product are not supported; write null there",
                          info->mnemonic);
                    return;
                  }
                else
                  r2[d][c] = sl_ir_op2 (ir, SL_OP_IMUL, SL_KIND_INT, read_src (l, &in->ops[2], c, t),
                                        read_src (l, &in->ops[3], c, t));
              }
        commit (l, &in->ops[0], r2[0], in->sat);
        commit (l, &in->ops[1], r2[1], in->sat);
        return;
      }
    case SM4L_MAD:
      for (int c = 0; c < 4; c++)
        if (dst_mask (&in->ops[0]) & (1u << c))
          res[c] = sl_ir_op2 (ir, SL_OP_IADD, SL_KIND_INT,
                              sl_ir_op2 (ir, SL_OP_IMUL, SL_KIND_INT, read_src (l, &in->ops[1], c, t),
                                         read_src (l, &in->ops[2], c, t)),
                              read_src (l, &in->ops[3], c, t));
      commit (l, &in->ops[0], res, false);
      return;
    case SM4L_DERIV:
      for (int c = 0; c < 4; c++)
        if (dst_mask (&in->ops[0]) & (1u << c))
          res[c] = sl_ir_op1 (ir, (SlOp) info->irop, SL_KIND_FLOAT,
                              to_temp (l, read_src (l, &in->ops[1], c, t), SL_KIND_FLOAT));
      commit (l, &in->ops[0], res, in->sat);
      return;
    case SM4L_SAMPLE:
      lower_sample (l, in);
      return;
    case SM4L_LD:
      lower_ld (l, in);
      return;
    case SM4L_RESINFO:
      lower_resinfo (l, in);
      return;
    case SM4L_IF:
      check_nesting (l, cf);
      sl_ir_ctrl (ir, SL_OP_IF, test_cond (l, in), 0);
      open.kind = SM4_IF;
      g_array_append_val (cf, open);
      return;
    case SM4L_ELSE:
      if (top != SM4_IF)
        {
          lerr (l, SL_DIAG_SM4_ELSE_WITHOUT_IF, "else without if");
          return;
        }
      sl_ir_ctrl (ir, SL_OP_ELSE, SL_IR_NONE, 0);
      g_array_index (cf, Block, cf->len - 1).kind = SM4_ELSE;
      return;
    case SM4L_ENDIF:
      if (top != SM4_IF && top != SM4_ELSE)
        {
          lerr (l, SL_DIAG_SM4_ENDIF_WITHOUT_IF, "endif without if");
          return;
        }
      sl_ir_ctrl (ir, SL_OP_ENDIF, SL_IR_NONE, 0);
      g_array_set_size (cf, cf->len - 1);
      return;
    case SM4L_LOOP:
      check_nesting (l, cf);
      sl_ir_ctrl (ir, SL_OP_LOOP, SL_IR_NONE, SL_HLSL_LOOP_CAP);
      open.kind = SM4_LOOP;
      g_array_append_val (cf, open);
      return;
    case SM4L_ENDLOOP:
      if (top != SM4_LOOP)
        {
          lerr (l, SL_DIAG_SM4_ENDLOOP_WITHOUT_LOOP, "endloop without loop");
          return;
        }
      sl_ir_ctrl (ir, SL_OP_CONTEND, SL_IR_NONE, 0);
      sl_ir_ctrl (ir, SL_OP_ENDLOOP, SL_IR_NONE, 0);
      g_array_set_size (cf, cf->len - 1);
      return;
    case SM4L_BREAK: case SM4L_BREAKC: case SM4L_CONTINUE: case SM4L_CONTINUEC:
      if (!in_loop)
        {
          lerr (l, SL_DIAG_SM4_OUTSIDE_LOOP, "%s outside a loop", info->mnemonic);
          return;
        }
      {
        bool brk = info->lower == SM4L_BREAK || info->lower == SM4L_BREAKC;
        bool cond = info->lower == SM4L_BREAKC || info->lower == SM4L_CONTINUEC;
        sl_ir_ctrl (ir, brk ? SL_OP_BREAK : SL_OP_CONTINUE, cond ? test_cond (l, in) : SL_IR_NONE, 0);
      }
      return;
    case SM4L_DISCARD:
      sl_ir_ctrl (ir, SL_OP_DISCARD, test_cond (l, in), 0);
      return;
    case SM4L_RET:
      sl_ir_ctrl (ir, SL_OP_RETURN, SL_IR_NONE, 0);
      return;
    case SM4L_RETC:
      sl_ir_ctrl (ir, SL_OP_IF, test_cond (l, in), 0);
      sl_ir_ctrl (ir, SL_OP_RETURN, SL_IR_NONE, 0);
      sl_ir_ctrl (ir, SL_OP_ENDIF, SL_IR_NONE, 0);
      return;
    }
}

static SlScalarType
scalar_type (int code)
{
  return code == 2 ? SL_SCALAR_INT : code == 19 ? SL_SCALAR_UINT : code == 1 ? SL_SCALAR_BOOL
         : SL_SCALAR_FLOAT;
}

/* Word of component @i (declaration order) of @p relative to its offset:
 * the same walk as sl_binding_set_param. */
static size_t
component_word (const SlParam *p, int i)
{
  int per = p->rows * p->columns;
  int elem_regs = p->rows > 1 ? (p->row_major ? p->rows : p->columns) : 1;
  int e = i / per, k = i % per, r = k / p->columns, c = k % p->columns;
  size_t off = p->rows > 1 ? (p->row_major ? (size_t) r * 4 + c : (size_t) c * 4 + r) : (size_t) c;
  return off + (size_t) e * elem_regs * 4;
}

static void
reflect (Lw *l)
{
  SlProgramInfo *info = l->info;
  const Sm4Shader *sh = l->sh;
  bool named[MAX_CB] = { false };
  for (guint i = 0; i < sh->cbuffers->len; i++)
    {
      const Sm4CBuffer *cb = &g_array_index (sh->cbuffers, Sm4CBuffer, i);
      if (cb->slot < 0 || cb->slot >= MAX_CB || !l->cb_decl[cb->slot])
        continue;
      named[cb->slot] = true;
      for (guint k = 0; k < cb->vars->len; k++)
        {
          const Sm4Var *v = &g_array_index (cb->vars, Sm4Var, k);
          SlParam p = {
            .name = sl_arena_strdup (info->arena, v->name),
            .type = scalar_type (v->type),
            .rows = MAX (v->rows, 1),
            .columns = MAX (v->columns, 1),
            .array_size = v->elements,
            .row_major = v->cls == 2,
            .offset = l->cb_base[cb->slot] + v->offset / 4,
            .size = v->size / 4,
          };
          if (p.offset + p.size > info->constants_size)
            continue;   /* outside the declared buffer: unused by the code */
          /* A damaged table may claim millions of elements in a few words;
           * a real variable has no more components than four per word of
           * its size (the last register of an array may be partly used). */
          if ((uint64_t) p.rows * p.columns * MAX (p.array_size, 1)
              > 4 * (uint64_t) p.size + 16)
            continue;
          if (v->defaults)
            {
              int n = p.rows * p.columns * MAX (p.array_size, 1);
              float *d = sl_arena_alloc (info->arena, sizeof (float) * n);
              for (int c = 0; c < n; c++)
                {
                  size_t w = component_word (&p, c);
                  uint32_t bits = w < v->size / 4 ? v->defaults[w] : 0;
                  d[c] = p.type == SL_SCALAR_FLOAT ? sl_u2f (bits)
                         : p.type == SL_SCALAR_UINT ? (float) bits : (float) (int32_t) bits;
                  if (w < v->size / 4)
                    info->defaults[p.offset + w] = bits;
                }
              p.default_value = d;
            }
          g_array_append_val (info->params, p);
        }
    }
  /* Buffers without names are still settable, as float4 arrays "cbN". */
  for (int s = 0; s < MAX_CB; s++)
    if (l->cb_decl[s] && !named[s] && l->cb_regs[s])
      {
        char name[16];
        g_snprintf (name, sizeof name, "cb%d", s);
        SlParam p = {
          .name = sl_arena_strdup (info->arena, name),
          .type = SL_SCALAR_FLOAT, .rows = 1, .columns = 4,
          .array_size = l->cb_regs[s] > 1 ? (int) l->cb_regs[s] : 0,
          .offset = l->cb_base[s], .size = 4 * (size_t) l->cb_regs[s],
        };
        g_array_append_val (info->params, p);
      }
  for (int pass = 0; pass < 2; pass++)
    for (int s = 0; s < SL_MAX_SLOTS; s++)
      {
        bool tex = pass == 0;
        if (tex ? !l->tex_decl[s] : !l->samp_decl[s])
          continue;
        const char *name = NULL;
        for (guint k = 0; k < sh->bindings->len; k++)
          {
            const Sm4Binding *b = &g_array_index (sh->bindings, Sm4Binding, k);
            if (b->slot == s && b->kind == (tex ? 2 : 3))
              name = b->name;
          }
        char *fallback = g_strdup_printf ("%c%d", tex ? 't' : 's', s);
        SlSamplerInfo si = {
          .name = sl_arena_strdup (info->arena, name ? name : fallback),
          .slot = s,
          .kind = tex ? dim_kind (l->tex_dim[s]) : SL_TEXTURE_2D,
          .is_texture_object = tex,
        };
        g_free (fallback);
        g_array_append_val (info->samplers, si);
      }
}

SlIr *
sm4_lower (const Sm4Shader *sh, const char *filename, SlProgramInfo *info, SlDiagnostics *diags)
{
  Lw l = { .sh = sh, .ir = sl_ir_new (), .info = info, .diags = diags,
           .file = filename ? filename : "<source>", .said = g_ptr_array_new_with_free_func (g_free) };
  SlIr *ir = l.ir;
  info->shader_model = sh->major * 10 + sh->minor;
  declare (&l);
  GArray *cf = g_array_new (FALSE, FALSE, sizeof (Block));
  sl_ir_ctrl (ir, SL_OP_FBEGIN, SL_IR_NONE, 0);
  for (guint i = 0; i < sh->insns->len && !ir->overflow; i++)
    {
      const Sm4Insn *in = &g_array_index (sh->insns, Sm4Insn, i);
      at_insn (&l, in);
      lower_insn (&l, in, cf);
    }
  if (cf->len && !l.failed)
    {
      /* at the innermost open block: where a missing end belongs */
      const Block *b = &g_array_index (cf, Block, cf->len - 1);
      l.line = b->line;
      l.column = b->column;
      lerr (&l, SL_DIAG_SM4_UNCLOSED_BLOCK,
            "%s is not closed at the end of the program", b->kind == SM4_LOOP ? "loop" : "if");
    }
  g_array_free (cf, TRUE);
  sl_ir_ctrl (ir, SL_OP_FEND, SL_IR_NONE, 0);
  for (int n = 0; n < 8; n++)
    for (int c = 0; c < 4; c++)
      if (l.o_mask[n] & (1u << c))
        {
          SlInsn out = { .op = SL_OP_OUTPUT, .n_src = 1, .src = { l.o[n][c] }, .imm = n * 4 + c };
          sl_ir_emit (ir, &out);
          ir->n_outputs = MAX (ir->n_outputs, n + 1);
        }
  if (ir->overflow)
    lerr (&l, SL_DIAG_SM4_PROGRAM_TOO_LARGE, "the program is too large");
  if (!l.failed)
    reflect (&l);
  info->n_outputs = ir->n_outputs;
  g_free (l.r);
  g_ptr_array_free (l.said, TRUE);
  for (int i = 0; i < MAX_X; i++)
    g_free (l.x[i].vals);
  if (l.failed)
    {
      sl_ir_free (ir);
      return NULL;
    }
  return ir;
}

SlIr *
sm4_to_ir (const SlCompileOptions *options, SlProgramInfo *info, SlDiagnostics *diags)
{
  Sm4Shader *sh = options->language == SL_LANGUAGE_DXBC
                    ? sm4_dxbc_read (options->source, options->length, options->filename, diags)
                    : sm4_assemble (options->source, options->length, options->filename, diags);
  if (!sh)
    return NULL;
  SlIr *ir = sm4_lower (sh, options->filename, info, diags);
  sm4_shader_free (sh);
  return ir;
}
