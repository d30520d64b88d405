/* D3D9 instruction list → IR, plus reflection; and the front end's
 * entries that the compile driver calls (d9_to_ir, d9_disassemble_*), which
 * read assembly text or bytecode into the list first.
 *
 * Every register the shader names becomes four IR VAR values, created and
 * initialised before the first instruction (so writes inside divergent
 * flow control never leave lanes uninitialised): r#, oC#, p0 and the
 * ps_1_1–1_3 t# registers start at zero; t# (ps_1_4 and ps_2_x) read
 * TEXCOORD#, v# reads COLOR# (ps_3_0: the declared usage), vPos/vFace
 * their inputs.  c# reads fold to the def'd value or become LOADC of word
 * 4*N; i# and b# live after the float registers, then the bump-mapping
 * matrices that texbem/texbeml/bem use (D3D keeps those in texture-stage
 * state; here they are parameters "bumpenvmatN" = (m00, m01, m10, m11) and
 * "bumpenvlN" = (scale, offset)).
 *
 * ps_1_x value ranges (the rule implemented): reads of c# clamp to
 * [-1, 1] in every ps_1_x version; every register write clamps to [-1, 1]
 * in ps_1_1–1_3 and to [-8, 8] in ps_1_4 (the minimum
 * MaxPixelShaderValue each version guarantees), after the instruction's
 * shift and _sat; texcoord saturates to [0, 1].  ps_2_0 and later do not
 * clamp.
 *
 * Co-issued pairs read all sources before either writes: writes are
 * queued and committed when the next instruction is not co-issued.
 * Subroutines are inlined at each call inside FBEGIN/FEND so ret works
 * from any depth; rep/loop become LOOP with an explicit counter capped at
 * D3D's 255 iterations. */
#include "asm/d3d9/d3d9.h"
#include "base/diag.h"

#include <string.h>

#define MAX_CALL_DEPTH 16
#define REP_LIMIT 255

typedef struct
{
  const D9Shader *sh;
  SlIr           *ir;
  SlProgramInfo  *info;
  SlDiagnostics  *diags;
  D9Version       ver;
  bool            failed;
  GHashTable     *regs;        /* (type<<16|index)+1 → uint32_t[4] */
  GHashTable     *defs;        /* (type<<16|index)+1 → const D9Insn* (def/defi/defb) */
  int             c_words, i_base, b_base, bump_base, total;
  bool            c_used[8192], i_used[16], b_used[16], bump_used[8];
  int             sampler_kind[SL_MAX_SLOTS];   /* -1 unused */
  uint8_t         dcl_kind[SL_MAX_SLOTS];
  uint32_t        pad[3];
  int             n_pad;
  uint32_t        aL[8];
  int             n_loops;
  struct { uint32_t var, val; } pending[16];
  int             n_pending;
  int             call_depth;
  const D9Insn   *cur;
} L;

static void G_GNUC_PRINTF (3, 4)
lerr (L *l, SlDiagKind kind, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  sl_diag_v (l->diags, kind, l->sh->file, l->cur ? l->cur->line : 0, l->cur ? l->cur->column : 0,
             fmt, ap);
  va_end (ap);
  l->failed = true;
}

static uint32_t f1 (L *l, SlOp op, uint32_t a) { return sl_ir_op1 (l->ir, op, SL_KIND_FLOAT, a); }
static uint32_t f2 (L *l, SlOp op, uint32_t a, uint32_t b) { return sl_ir_op2 (l->ir, op, SL_KIND_FLOAT, a, b); }
static uint32_t b2 (L *l, SlOp op, uint32_t a, uint32_t b) { return sl_ir_op2 (l->ir, op, SL_KIND_BOOL, a, b); }
static uint32_t kf (L *l, float f) { return sl_ir_const_f (l->ir, f); }

static uint32_t
sel (L *l, uint32_t c, uint32_t a, uint32_t b, SlKind kind)
{
  return sl_ir_op3 (l->ir, SL_OP_SELECT, kind, c, a, b);
}

static uint32_t
clampf (L *l, uint32_t v, float lo, float hi)
{
  return f2 (l, SL_OP_MIN, f2 (l, SL_OP_MAX, v, kf (l, lo)), kf (l, hi));
}

static uint32_t
input (L *l, uint32_t imm)
{
  uint32_t d = sl_ir_new_value (l->ir, SL_KIND_FLOAT, SL_VALUE_TEMP);
  SlInsn in = { .op = SL_OP_INPUT, .n_dst = 1, .dst = { d }, .imm = imm };
  sl_ir_emit (l->ir, &in);
  return d;
}

static uint32_t
loadc (L *l, uint32_t word)
{
  uint32_t d = sl_ir_new_value (l->ir, SL_KIND_FLOAT, SL_VALUE_TEMP);
  SlInsn in = { .op = SL_OP_LOADC, .n_dst = 1, .dst = { d }, .imm = word };
  sl_ir_emit (l->ir, &in);
  return d;
}

static gpointer
key (int type, int index)
{
  return GINT_TO_POINTER (((type << 16) | index) + 1);
}

/* The texture coordinate set @n as 4 values. */
static void
texcoord (L *l, int n, uint32_t out[4])
{
  for (int c = 0; c < 4; c++)
    out[c] = n < 8 ? input (l, SL_INPUT_TEXCOORD + 4 * n + c) : kf (l, 0);
}

/* Creates the VARs of every register the shader uses, at the top. */
static uint32_t *
reg_vars (L *l, int type, int index)
{
  uint32_t *v = g_hash_table_lookup (l->regs, key (type, index));
  if (v)
    return v;
  v = SL_NEW_N (l->sh->arena, uint32_t, 4);
  bool pred = type == D9_REG_PREDICATE;
  uint32_t init[4];
  if (type == D9_REG_TEXTURE && l->ver >= V14)
    texcoord (l, index, init);
  else if (type == D9_REG_INPUT && l->ver < V30)
    for (int c = 0; c < 4; c++)
      init[c] = index < 2 ? input (l, SL_INPUT_COLOR + 4 * index + c) : kf (l, 0);
  else if (type == D9_REG_INPUT)
    {
      /* ps_3_0: the usage the dcl gave. */
      int usage = 10, ui = index;
      for (guint i = 0; i < l->sh->insns->len; i++)
        {
          const D9Insn *in = &g_array_index (l->sh->insns, D9Insn, i);
          if (in->id == D9_DCL && in->dst.type == D9_REG_INPUT && in->dst.index == index)
            {
              usage = in->usage;
              ui = in->usage_index;
            }
        }
      for (int c = 0; c < 4; c++)
        init[c] = usage == 5 ? (ui < 8 ? input (l, SL_INPUT_TEXCOORD + 4 * ui + c) : kf (l, 0))
                  : usage == 10 && ui < 2 ? input (l, SL_INPUT_COLOR + 4 * ui + c)
                  : usage == 0 ? input (l, SL_INPUT_POSITION + c) : kf (l, 0);
    }
  else if (type == D9_REG_MISCTYPE)
    for (int c = 0; c < 4; c++)
      init[c] = index == 0 ? input (l, SL_INPUT_POSITION + c) : input (l, SL_INPUT_FACE);
  else
    for (int c = 0; c < 4; c++)
      init[c] = pred ? sl_ir_const_b (l->ir, false) : kf (l, 0);
  for (int c = 0; c < 4; c++)
    {
      v[c] = sl_ir_new_value (l->ir, pred ? SL_KIND_BOOL : SL_KIND_FLOAT, SL_VALUE_VAR);
      sl_ir_mov (l->ir, v[c], init[c]);
    }
  g_hash_table_insert (l->regs, key (type, index), v);
  return v;
}

static bool
has_vars (int type, D9Version ver)
{
  return type == D9_REG_TEMP || type == D9_REG_COLOROUT || type == D9_REG_PREDICATE
         || type == D9_REG_INPUT || type == D9_REG_MISCTYPE || (type == D9_REG_TEXTURE)
         || type == D9_REG_DEPTHOUT || (ver < 0);
}

/* One component of a register, before swizzle and modifiers. */
static uint32_t
reg_comp (L *l, const D9Param *p, int c)
{
  switch (p->type)
    {
    case D9_REG_CONST:
      {
        if (p->relative && l->n_loops)
          {
            uint32_t idx = sl_ir_op1 (l->ir, SL_OP_FTOI, SL_KIND_INT, l->aL[l->n_loops - 1]);
            uint32_t d = sl_ir_new_value (l->ir, SL_KIND_FLOAT, SL_VALUE_TEMP);
            SlInsn in = { .op = SL_OP_LOADCI, .n_dst = 1, .n_src = 1, .dst = { d }, .src = { idx },
                          .imm = (uint32_t) (4 * p->index + c) };
            sl_ir_emit (l->ir, &in);
            return d;
          }
        const D9Insn *def = g_hash_table_lookup (l->defs, key (D9_REG_CONST, p->index));
        uint32_t v = def ? sl_ir_const (l->ir, SL_KIND_FLOAT, def->lit[c]) : loadc (l, 4u * p->index + c);
        if (l->ver <= V14)
          v = clampf (l, v, -1.0f, 1.0f);
        return v;
      }
    case D9_REG_CONSTINT:
      {
        const D9Insn *def = g_hash_table_lookup (l->defs, key (p->type, p->index));
        return def ? kf (l, (float) (int32_t) def->lit[c]) : loadc (l, (uint32_t) (l->i_base + 4 * p->index + c));
      }
    case D9_REG_CONSTBOOL:
      {
        const D9Insn *def = g_hash_table_lookup (l->defs, key (p->type, p->index));
        return def ? kf (l, def->lit[0] ? 1.0f : 0.0f) : loadc (l, (uint32_t) (l->b_base + 4 * p->index));
      }
    case D9_REG_LOOP:
      return l->n_loops ? l->aL[l->n_loops - 1] : kf (l, 0);
    default:
      if (p->relative && p->type == D9_REG_INPUT && l->n_loops)
        {
          /* v[aL]: choose among the input registers by the index. */
          uint32_t idx = f2 (l, SL_OP_ADD, l->aL[l->n_loops - 1], kf (l, (float) p->index));
          uint32_t r = kf (l, 0);
          for (int k = 9; k >= 0; k--)
            r = sel (l, b2 (l, SL_OP_EQ, idx, kf (l, (float) k)), reg_vars (l, D9_REG_INPUT, k)[c], r,
                     SL_KIND_FLOAT);
          return r;
        }
      return reg_vars (l, p->type, p->index)[c];
    }
}

static uint32_t
apply_srcmod (L *l, int m, uint32_t x)
{
  switch (m)
    {
    case D9_SRC_NEG: return f1 (l, SL_OP_NEG, x);
    case D9_SRC_BIAS: return f2 (l, SL_OP_SUB, x, kf (l, 0.5f));
    case D9_SRC_BIASNEG: return f1 (l, SL_OP_NEG, f2 (l, SL_OP_SUB, x, kf (l, 0.5f)));
    case D9_SRC_SIGN: return f2 (l, SL_OP_MUL, kf (l, 2.0f), f2 (l, SL_OP_SUB, x, kf (l, 0.5f)));
    case D9_SRC_SIGNNEG:
      return f1 (l, SL_OP_NEG, f2 (l, SL_OP_MUL, kf (l, 2.0f), f2 (l, SL_OP_SUB, x, kf (l, 0.5f))));
    case D9_SRC_COMP: return f2 (l, SL_OP_SUB, kf (l, 1.0f), x);
    case D9_SRC_X2: return f2 (l, SL_OP_MUL, kf (l, 2.0f), x);
    case D9_SRC_X2NEG: return f1 (l, SL_OP_NEG, f2 (l, SL_OP_MUL, kf (l, 2.0f), x));
    case D9_SRC_ABS: return f1 (l, SL_OP_ABS, x);
    case D9_SRC_ABSNEG: return f1 (l, SL_OP_NEG, f1 (l, SL_OP_ABS, x));
    default: return x;
    }
}

/* The four components of a source after swizzle and modifier. */
static void
read_src (L *l, const D9Param *p, uint32_t out[4])
{
  uint32_t raw[4] = { SL_IR_NONE, SL_IR_NONE, SL_IR_NONE, SL_IR_NONE };
  for (int c = 0; c < 4; c++)
    {
      int s = (p->swizzle >> (2 * c)) & 3;
      if (raw[s] == SL_IR_NONE)
        raw[s] = reg_comp (l, p, s);
      out[c] = raw[s];
      if (p->type == D9_REG_PREDICATE)
        {
          if (p->srcmod == D9_SRC_NOT)
            out[c] = sel (l, out[c], sl_ir_const_b (l->ir, false), sl_ir_const_b (l->ir, true), SL_KIND_BOOL);
        }
      else
        out[c] = apply_srcmod (l, p->srcmod, out[c]);
    }
}

/* A boolean condition from b#, p0.c or !p0.c. */
static uint32_t
read_cond (L *l, const D9Param *p)
{
  uint32_t v[4];
  read_src (l, p, v);
  if (p->type == D9_REG_PREDICATE)
    return v[0];
  uint32_t r = b2 (l, SL_OP_NE, v[0], kf (l, 0));
  if (p->srcmod == D9_SRC_NOT)
    r = sel (l, r, sl_ir_const_b (l->ir, false), sl_ir_const_b (l->ir, true), SL_KIND_BOOL);
  return r;
}

static void
commit (L *l)
{
  for (int i = 0; i < l->n_pending; i++)
    sl_ir_mov (l->ir, l->pending[i].var, l->pending[i].val);
  l->n_pending = 0;
}

/* Queues the masked, modified, clamped, predicated write of @vals. */
static void
write_dst (L *l, const D9Insn *in, const uint32_t vals[4])
{
  const D9Param *d = &in->dst;
  if (d->type == D9_REG_DEPTHOUT)
    return;   /* no depth buffer */
  uint32_t *vars = reg_vars (l, d->type, d->index);
  bool pred = d->type == D9_REG_PREDICATE;
  uint32_t pv[4] = { 0 };
  if (in->predicated)
    read_src (l, &in->pred, pv);
  for (int c = 0; c < 4; c++)
    {
      if (!(d->mask & (1u << c)) || vals[c] == SL_IR_NONE)
        continue;
      uint32_t v = vals[c];
      if (!pred)
        {
          if (d->shift)
            v = f2 (l, SL_OP_MUL, v, kf (l, d->shift > 0 ? (float) (1 << d->shift) : 1.0f / (float) (1 << -d->shift)));
          if (d->dstmod & D9_DST_SAT)
            v = f1 (l, SL_OP_SAT, v);
          if (l->ver <= V13)
            v = clampf (l, v, -1.0f, 1.0f);
          else if (l->ver == V14)
            v = clampf (l, v, -8.0f, 8.0f);
        }
      if (in->predicated)
        v = sel (l, pv[c], v, vars[c], pred ? SL_KIND_BOOL : SL_KIND_FLOAT);
      if (l->n_pending < 16)
        {
          l->pending[l->n_pending].var = vars[c];
          l->pending[l->n_pending].val = v;
          l->n_pending++;
        }
    }
}

static void
write_all (L *l, const D9Insn *in, uint32_t v)
{
  uint32_t vals[4] = { v, v, v, v };
  write_dst (l, in, vals);
}

static uint32_t
dot (L *l, const uint32_t *a, const uint32_t *b, int n)
{
  uint32_t s = f2 (l, SL_OP_MUL, a[0], b[0]);
  for (int i = 1; i < n; i++)
    s = f2 (l, SL_OP_ADD, s, f2 (l, SL_OP_MUL, a[i], b[i]));
  return s;
}

/* Samples slot @slot; @coords has 1–3 coordinates plus the extras. */
static void
sample (L *l, int slot, int dim, SlSampleMode mode, const uint32_t *srcs, int n_src, uint32_t out[4])
{
  if (slot < 0 || slot >= SL_MAX_SLOTS)
    {
      lerror_slot:
      lerr (l, SL_DIAG_D3D9_TEXTURE_STAGE, "texture stage %d is out of range", slot);
      for (int k = 0; k < 4; k++)
        out[k] = kf (l, 0);
      return;
    }
  if (0)
    goto lerror_slot;
  SlInsn in = { .op = SL_OP_SAMPLE, .n_dst = 4, .n_src = (uint8_t) n_src };
  in.sample.mode = (uint8_t) mode;
  in.sample.texture = (uint8_t) slot;
  in.sample.sampler = (uint8_t) slot;
  in.sample.dim = (uint8_t) dim;
  for (int i = 0; i < n_src; i++)
    in.src[i] = srcs[i];
  for (int k = 0; k < 4; k++)
    out[k] = in.dst[k] = sl_ir_new_value (l->ir, SL_KIND_FLOAT, SL_VALUE_TEMP);
  sl_ir_emit (l->ir, &in);
  if (l->sampler_kind[slot] < 0)
    l->sampler_kind[slot] = dim;
}

static int
slot_dim (L *l, int slot)
{
  if (slot < 0 || slot >= SL_MAX_SLOTS)
    return SL_TEXTURE_2D;
  switch (l->dcl_kind[slot])
    {
    case 3: return SL_TEXTURE_CUBE;
    case 4: return SL_TEXTURE_3D;
    default: return SL_TEXTURE_2D;
    }
}

static void
sample_dim (L *l, int slot, const uint32_t c[4], uint32_t out[4])
{
  int dim = slot_dim (l, slot);
  sample (l, slot, dim, SL_SAMPLE_IMPLICIT, c, dim == SL_TEXTURE_2D ? 2 : 3, out);
}

static uint32_t
bump (L *l, int stage, int k)
{
  if (stage < 0 || stage >= 8)
    return kf (l, 0);
  l->bump_used[stage] = true;
  return loadc (l, (uint32_t) (l->bump_base + 8 * stage + k));
}

static uint32_t
compare (L *l, int cmp, uint32_t a, uint32_t b)
{
  switch (cmp)
    {
    case 1: return b2 (l, SL_OP_LT, b, a);
    case 2: return b2 (l, SL_OP_EQ, a, b);
    case 3: return b2 (l, SL_OP_GE, a, b);
    case 4: return b2 (l, SL_OP_LT, a, b);
    case 5: return b2 (l, SL_OP_NE, a, b);
    default: return b2 (l, SL_OP_GE, b, a);
    }
}

static uint32_t
any_negative (L *l, const uint32_t *v, int n)
{
  uint32_t r = sl_ir_const_b (l->ir, false);
  for (int i = 0; i < n; i++)
    r = sel (l, b2 (l, SL_OP_LT, v[i], kf (l, 0)), sl_ir_const_b (l->ir, true), r, SL_KIND_BOOL);
  return r;
}

static void lower_range (L *l, guint start, guint end);

static guint
find_label (L *l, int index)
{
  for (guint i = 0; i < l->sh->insns->len; i++)
    {
      const D9Insn *in = &g_array_index (l->sh->insns, D9Insn, i);
      if (in->id == D9_LABEL && in->src[0].index == index)
        return i;
    }
  return G_MAXUINT;
}

/* End of a subroutine body: the next label or the end. */
static guint
body_end (L *l, guint start)
{
  guint i = start;
  while (i < l->sh->insns->len && g_array_index (l->sh->insns, D9Insn, i).id != D9_LABEL)
    i++;
  return i;
}

static void
call (L *l, int label)
{
  guint at = find_label (l, label);
  if (at == G_MAXUINT)
    return;
  if (l->call_depth >= MAX_CALL_DEPTH)
    {
      lerr (l, SL_DIAG_D3D9_CALL_DEPTH,
            "calls nest deeper than %d (recursive call of l%d?)", MAX_CALL_DEPTH, label);
      return;
    }
  const D9Insn *saved = l->cur;
  int saved_loops = l->n_loops;
  l->call_depth++;
  sl_ir_ctrl (l->ir, SL_OP_FBEGIN, SL_IR_NONE, 0);
  lower_range (l, at + 1, body_end (l, at + 1));
  sl_ir_ctrl (l->ir, SL_OP_FEND, SL_IR_NONE, 0);
  l->call_depth--;
  l->n_loops = saved_loops;
  l->cur = saved;
}

static void
lower_insn (L *l, const D9Insn *in)
{
  uint32_t s[4][4], r[4] = { SL_IR_NONE, SL_IR_NONE, SL_IR_NONE, SL_IR_NONE };
  const D9OpInfo *oi = &d9_ops[in->id];
  int m = in->dst.index;
  l->cur = in;
  /* Sources of ordinary instructions; texture and flow instructions read
   * their own operands. */
  bool plain = !(oi->flags & (D9F_T | D9F_F)) && in->id != D9_DCL && in->id != D9_DEF
               && in->id != D9_DEFI && in->id != D9_DEFB && in->id != D9_PHASE
               && in->id != D9_M4X4 && in->id != D9_M4X3 && in->id != D9_M3X4 && in->id != D9_M3X3
               && in->id != D9_M3X2;
  if (plain)
    for (int k = 0; k < oi->n_src; k++)
      read_src (l, &in->src[k], s[k]);
  switch (in->id)
    {
    case D9_NOP: case D9_DCL: case D9_DEF: case D9_DEFI: case D9_DEFB: case D9_PHASE: case D9_LABEL:
      return;
    case D9_MOV: for (int c = 0; c < 4; c++) r[c] = s[0][c]; break;
    case D9_ADD: for (int c = 0; c < 4; c++) r[c] = f2 (l, SL_OP_ADD, s[0][c], s[1][c]); break;
    case D9_SUB: for (int c = 0; c < 4; c++) r[c] = f2 (l, SL_OP_SUB, s[0][c], s[1][c]); break;
    case D9_MUL: for (int c = 0; c < 4; c++) r[c] = f2 (l, SL_OP_MUL, s[0][c], s[1][c]); break;
    case D9_MAD:
      for (int c = 0; c < 4; c++)
        r[c] = f2 (l, SL_OP_ADD, f2 (l, SL_OP_MUL, s[0][c], s[1][c]), s[2][c]);
      break;
    case D9_LRP:
      for (int c = 0; c < 4; c++)
        r[c] = f2 (l, SL_OP_ADD, f2 (l, SL_OP_MUL, s[0][c], f2 (l, SL_OP_SUB, s[1][c], s[2][c])), s[2][c]);
      break;
    case D9_MIN: for (int c = 0; c < 4; c++) r[c] = f2 (l, SL_OP_MIN, s[0][c], s[1][c]); break;
    case D9_MAX: for (int c = 0; c < 4; c++) r[c] = f2 (l, SL_OP_MAX, s[0][c], s[1][c]); break;
    case D9_FRC: for (int c = 0; c < 4; c++) r[c] = f1 (l, SL_OP_FRC, s[0][c]); break;
    case D9_ABS: for (int c = 0; c < 4; c++) r[c] = f1 (l, SL_OP_ABS, s[0][c]); break;
    case D9_DSX: for (int c = 0; c < 4; c++) r[c] = f1 (l, SL_OP_DDX, s[0][c]); break;
    case D9_DSY: for (int c = 0; c < 4; c++) r[c] = f1 (l, SL_OP_DDY, s[0][c]); break;
    case D9_CMP:
      for (int c = 0; c < 4; c++)
        r[c] = sel (l, b2 (l, SL_OP_GE, s[0][c], kf (l, 0)), s[1][c], s[2][c], SL_KIND_FLOAT);
      break;
    case D9_CND:
      for (int c = 0; c < 4; c++)
        r[c] = sel (l, b2 (l, SL_OP_LT, kf (l, 0.5f), s[0][c]), s[1][c], s[2][c], SL_KIND_FLOAT);
      break;
    case D9_DP3: write_all (l, in, dot (l, s[0], s[1], 3)); return;
    case D9_DP4: write_all (l, in, dot (l, s[0], s[1], 4)); return;
    case D9_DP2ADD: write_all (l, in, f2 (l, SL_OP_ADD, dot (l, s[0], s[1], 2), s[2][0])); return;
    case D9_RCP: write_all (l, in, f1 (l, SL_OP_RCP, s[0][0])); return;
    case D9_RSQ: write_all (l, in, f1 (l, SL_OP_RSQ, f1 (l, SL_OP_ABS, s[0][0]))); return;
    case D9_EXP: write_all (l, in, f1 (l, SL_OP_EXP2, s[0][0])); return;
    case D9_LOG: write_all (l, in, f1 (l, SL_OP_LOG2, f1 (l, SL_OP_ABS, s[0][0]))); return;
    case D9_POW: write_all (l, in, f2 (l, SL_OP_POW, f1 (l, SL_OP_ABS, s[0][0]), s[1][0])); return;
    case D9_NRM:
      {
        uint32_t f = f1 (l, SL_OP_RSQ, dot (l, s[0], s[0], 3));
        for (int c = 0; c < 4; c++)
          r[c] = f2 (l, SL_OP_MUL, s[0][c], f);
        break;
      }
    case D9_SINCOS: case D9_SINCOS2:
      r[0] = f1 (l, SL_OP_COS, s[0][0]);
      r[1] = f1 (l, SL_OP_SIN, s[0][0]);
      break;
    case D9_CRS:
      r[0] = f2 (l, SL_OP_SUB, f2 (l, SL_OP_MUL, s[0][1], s[1][2]), f2 (l, SL_OP_MUL, s[0][2], s[1][1]));
      r[1] = f2 (l, SL_OP_SUB, f2 (l, SL_OP_MUL, s[0][2], s[1][0]), f2 (l, SL_OP_MUL, s[0][0], s[1][2]));
      r[2] = f2 (l, SL_OP_SUB, f2 (l, SL_OP_MUL, s[0][0], s[1][1]), f2 (l, SL_OP_MUL, s[0][1], s[1][0]));
      break;
    case D9_M4X4: case D9_M4X3: case D9_M3X4: case D9_M3X3: case D9_M3X2:
      {
        int width = in->id == D9_M4X4 || in->id == D9_M4X3 ? 4 : 3;
        int rows = in->id == D9_M4X4 || in->id == D9_M3X4 ? 4 : in->id == D9_M3X2 ? 2 : 3;
        read_src (l, &in->src[0], s[0]);
        for (int k = 0; k < rows; k++)
          {
            D9Param row = in->src[1];
            row.index = (uint16_t) (row.index + k);
            read_src (l, &row, s[1]);
            r[k] = dot (l, s[0], s[1], width);
          }
        break;
      }
    case D9_SETP:
      for (int c = 0; c < 4; c++)
        r[c] = compare (l, in->compare, s[0][c], s[1][c]);
      break;
    case D9_BEM:
      r[0] = f2 (l, SL_OP_ADD, s[0][0], f2 (l, SL_OP_ADD, f2 (l, SL_OP_MUL, bump (l, m, 0), s[1][0]),
                                                        f2 (l, SL_OP_MUL, bump (l, m, 2), s[1][1])));
      r[1] = f2 (l, SL_OP_ADD, s[0][1], f2 (l, SL_OP_ADD, f2 (l, SL_OP_MUL, bump (l, m, 1), s[1][0]),
                                                        f2 (l, SL_OP_MUL, bump (l, m, 3), s[1][1])));
      break;

    /* ---- ps_1_1–1_3 texture addressing ---- */
    case D9_TEX:
      {
        uint32_t tc[4];
        texcoord (l, m, tc);
        sample_dim (l, m, tc, r);
        break;
      }
    case D9_TEXCOORD:
      texcoord (l, m, r);
      for (int c = 0; c < 3; c++)
        r[c] = f1 (l, SL_OP_SAT, r[c]);
      r[3] = kf (l, 1.0f);
      break;
    case D9_TEXKILL:
      {
        uint32_t v[4];
        int n = 4;
        if (l->ver <= V13 || (l->ver == V14 && in->dst.type == D9_REG_TEXTURE))
          {
            texcoord (l, m, v);
            n = 3;
          }
        else
          {
            for (int c = 0; c < 4; c++)
              v[c] = reg_vars (l, in->dst.type, m)[c];
            if (l->ver == V14)
              n = 3;
          }
        uint32_t cond = any_negative (l, v, n);
        commit (l);
        sl_ir_ctrl (l->ir, SL_OP_DISCARD, cond, 0);
        return;
      }
    case D9_TEXBEM: case D9_TEXBEML:
      {
        uint32_t tc[4], t[4], uv[2];
        texcoord (l, m, tc);
        read_src (l, &in->src[0], t);
        uv[0] = f2 (l, SL_OP_ADD, tc[0], f2 (l, SL_OP_ADD, f2 (l, SL_OP_MUL, bump (l, m, 0), t[0]),
                                                           f2 (l, SL_OP_MUL, bump (l, m, 2), t[1])));
        uv[1] = f2 (l, SL_OP_ADD, tc[1], f2 (l, SL_OP_ADD, f2 (l, SL_OP_MUL, bump (l, m, 1), t[0]),
                                                           f2 (l, SL_OP_MUL, bump (l, m, 3), t[1])));
        sample (l, m, SL_TEXTURE_2D, SL_SAMPLE_IMPLICIT, uv, 2, r);
        if (in->id == D9_TEXBEML)
          {
            uint32_t lum = f2 (l, SL_OP_ADD, f2 (l, SL_OP_MUL, t[2], bump (l, m, 4)), bump (l, m, 5));
            for (int c = 0; c < 3; c++)
              r[c] = f2 (l, SL_OP_MUL, r[c], lum);
          }
        break;
      }
    case D9_TEXREG2AR: case D9_TEXREG2GB: case D9_TEXREG2RGB:
      {
        uint32_t t[4], uv[3];
        read_src (l, &in->src[0], t);
        if (in->id == D9_TEXREG2AR)
          uv[0] = t[3], uv[1] = t[0];
        else if (in->id == D9_TEXREG2GB)
          uv[0] = t[1], uv[1] = t[2];
        else
          uv[0] = t[0], uv[1] = t[1], uv[2] = t[2];
        int dim = in->id == D9_TEXREG2RGB ? slot_dim (l, m) : SL_TEXTURE_2D;
        sample (l, m, dim, SL_SAMPLE_IMPLICIT, uv, dim == SL_TEXTURE_2D ? 2 : 3, r);
        break;
      }
    case D9_TEXM3X2PAD: case D9_TEXM3X3PAD:
      {
        uint32_t tc[4], t[4];
        texcoord (l, m, tc);
        read_src (l, &in->src[0], t);
        if (l->n_pad < 3)
          l->pad[l->n_pad++] = dot (l, tc, t, 3);
        return;
      }
    case D9_TEXM3X2TEX: case D9_TEXM3X2DEPTH: case D9_TEXM3X3TEX: case D9_TEXM3X3:
    case D9_TEXM3X3SPEC: case D9_TEXM3X3VSPEC: case D9_TEXDP3TEX: case D9_TEXDP3:
      {
        uint32_t tc[4], t[4];
        texcoord (l, m, tc);
        read_src (l, &in->src[0], t);
        uint32_t last = dot (l, tc, t, 3);
        bool two = in->id == D9_TEXM3X2TEX || in->id == D9_TEXM3X2DEPTH;
        bool single = in->id == D9_TEXDP3TEX || in->id == D9_TEXDP3;
        int need = single ? 0 : two ? 1 : 2;
        if (l->n_pad != need)
          {
            lerr (l, SL_DIAG_D3D9_TEXM_SEQUENCE, "%s needs %d preceding %s instruction%s", oi->name, need,
                  two ? "texm3x2pad" : "texm3x3pad", need == 1 ? "" : "s");
            l->n_pad = 0;
            return;
          }
        uint32_t n[3] = { need > 0 ? l->pad[0] : last, need > 1 ? l->pad[1] : last, last };
        l->n_pad = 0;
        if (in->id == D9_TEXM3X2DEPTH)
          return;   /* writes depth only */
        if (in->id == D9_TEXDP3)
          {
            write_all (l, in, last);
            return;
          }
        if (in->id == D9_TEXDP3TEX)
          {
            uint32_t uv[2] = { last, kf (l, 0) };
            sample (l, m, SL_TEXTURE_2D, SL_SAMPLE_IMPLICIT, uv, 2, r);
            break;
          }
        if (two)
          {
            uint32_t uv[2] = { n[0], last };
            sample (l, m, SL_TEXTURE_2D, SL_SAMPLE_IMPLICIT, uv, 2, r);
            break;
          }
        if (in->id == D9_TEXM3X3)
          {
            r[0] = n[0], r[1] = n[1], r[2] = n[2], r[3] = kf (l, 1.0f);
            break;
          }
        uint32_t coord[3] = { n[0], n[1], n[2] };
        if (in->id != D9_TEXM3X3TEX)
          {
            uint32_t e[4];
            if (in->id == D9_TEXM3X3SPEC)
              read_src (l, &in->src[1], e);
            else
              {
                uint32_t a[4], b[4], c[4];
                texcoord (l, m - 2, a);
                texcoord (l, m - 1, b);
                texcoord (l, m, c);
                e[0] = a[3], e[1] = b[3], e[2] = c[3];
              }
            /* R = 2 N (N·E) / (N·N) − E */
            uint32_t ne = dot (l, n, e, 3), nn = dot (l, n, n, 3);
            uint32_t k = f2 (l, SL_OP_DIV, f2 (l, SL_OP_MUL, kf (l, 2.0f), ne), nn);
            for (int c = 0; c < 3; c++)
              coord[c] = f2 (l, SL_OP_SUB, f2 (l, SL_OP_MUL, n[c], k), e[c]);
          }
        int dim = slot_dim (l, m) == SL_TEXTURE_3D ? SL_TEXTURE_3D : SL_TEXTURE_CUBE;
        sample (l, m, dim, SL_SAMPLE_IMPLICIT, coord, 3, r);
        break;
      }
    case D9_TEXDEPTH:
      return;   /* writes depth only */

    /* ---- ps_1_4 ---- */
    case D9_TEXLD14: case D9_TEXCRD:
      {
        D9Param p = in->src[0];
        int mod = p.srcmod;
        p.srcmod = D9_SRC_NONE;
        uint32_t c[4];
        read_src (l, &p, c);
        if (mod == D9_SRC_DZ || mod == D9_SRC_DW)
          {
            uint32_t d = mod == D9_SRC_DZ ? c[2] : c[3];
            c[0] = f2 (l, SL_OP_DIV, c[0], d);
            c[1] = f2 (l, SL_OP_DIV, c[1], d);
          }
        if (in->id == D9_TEXCRD)
          {
            for (int k = 0; k < 3; k++)
              r[k] = c[k];
            r[3] = kf (l, 1.0f);
          }
        else
          sample_dim (l, m, c, r);
        break;
      }

    /* ---- ps_2_0 and later ---- */
    case D9_TEXLD: case D9_TEXLDP: case D9_TEXLDB: case D9_TEXLDL: case D9_TEXLDD:
      {
        uint32_t c[4], srcs[SL_IR_MAX_SRC];
        read_src (l, &in->src[0], c);
        int slot = in->src[1].index;
        int dim = slot_dim (l, slot);
        int nc = dim == SL_TEXTURE_2D ? 2 : 3, n = 0;
        SlSampleMode mode = SL_SAMPLE_IMPLICIT;
        for (int k = 0; k < nc; k++)
          srcs[n++] = in->id == D9_TEXLDP ? f2 (l, SL_OP_DIV, c[k], c[3]) : c[k];
        if (in->id == D9_TEXLDB || in->id == D9_TEXLDL)
          {
            srcs[n++] = c[3];
            mode = in->id == D9_TEXLDB ? SL_SAMPLE_BIAS : SL_SAMPLE_LOD;
          }
        if (in->id == D9_TEXLDD)
          {
            uint32_t dx[4], dy[4];
            read_src (l, &in->src[2], dx);
            read_src (l, &in->src[3], dy);
            for (int k = 0; k < nc; k++)
              srcs[n++] = dx[k];
            for (int k = 0; k < nc; k++)
              srcs[n++] = dy[k];
            mode = SL_SAMPLE_GRAD;
          }
        uint32_t t[4];
        sample (l, slot, dim, mode, srcs, n, t);
        /* ps_2_x+ sampler swizzles select from the fetched colour. */
        for (int k = 0; k < 4; k++)
          r[k] = t[(in->src[1].swizzle >> (2 * k)) & 3];
        break;
      }

    /* ---- flow control ---- */
    case D9_IF:
      commit (l);
      sl_ir_ctrl (l->ir, SL_OP_IF, read_cond (l, &in->src[0]), 0);
      return;
    case D9_IFC:
      {
        uint32_t a[4], b[4];
        read_src (l, &in->src[0], a);
        read_src (l, &in->src[1], b);
        commit (l);
        sl_ir_ctrl (l->ir, SL_OP_IF, compare (l, in->compare, a[0], b[0]), 0);
        return;
      }
    case D9_ELSE: commit (l); sl_ir_ctrl (l->ir, SL_OP_ELSE, SL_IR_NONE, 0); return;
    case D9_ENDIF: commit (l); sl_ir_ctrl (l->ir, SL_OP_ENDIF, SL_IR_NONE, 0); return;
    case D9_BREAK: commit (l); sl_ir_ctrl (l->ir, SL_OP_BREAK, SL_IR_NONE, 0); return;
    case D9_BREAKC:
      {
        uint32_t a[4], b[4];
        read_src (l, &in->src[0], a);
        read_src (l, &in->src[1], b);
        commit (l);
        sl_ir_ctrl (l->ir, SL_OP_BREAK, compare (l, in->compare, a[0], b[0]), 0);
        return;
      }
    case D9_BREAKP:
      commit (l);
      sl_ir_ctrl (l->ir, SL_OP_BREAK, read_cond (l, &in->src[0]), 0);
      return;
    case D9_REP: case D9_LOOP:
      {
        uint32_t iv[4];
        read_src (l, &in->src[in->id == D9_REP ? 0 : 1], iv);
        commit (l);
        if (l->n_loops == 8)
          {
            lerr (l, SL_DIAG_D3D9_LOOP_DEPTH, "loops nest too deeply");
            return;
          }
        /* Counter and aL are VARs; the count clamps to D3D's range. */
        uint32_t count = clampf (l, iv[0], 0.0f, (float) REP_LIMIT);
        uint32_t k = sl_ir_new_value (l->ir, SL_KIND_FLOAT, SL_VALUE_VAR);
        uint32_t al = sl_ir_new_value (l->ir, SL_KIND_FLOAT, SL_VALUE_VAR);
        sl_ir_mov (l->ir, k, kf (l, 0));
        sl_ir_mov (l->ir, al, in->id == D9_LOOP ? iv[1] : kf (l, 0));
        sl_ir_ctrl (l->ir, SL_OP_LOOP, SL_IR_NONE, REP_LIMIT + 1);
        sl_ir_ctrl (l->ir, SL_OP_BREAK, b2 (l, SL_OP_GE, k, count), 0);
        l->aL[l->n_loops++] = al;
        /* Remember the counter for the matching end. */
        l->pad[0] = l->pad[0];
        g_hash_table_insert (l->regs, key (0x7f, l->n_loops), GUINT_TO_POINTER (k + 1));
        g_hash_table_insert (l->regs, key (0x7e, l->n_loops),
                             GUINT_TO_POINTER ((in->id == D9_LOOP ? iv[2] : kf (l, 0)) + 1));
        return;
      }
    case D9_ENDREP: case D9_ENDLOOP:
      {
        commit (l);
        if (!l->n_loops)
          return;
        uint32_t k = GPOINTER_TO_UINT (g_hash_table_lookup (l->regs, key (0x7f, l->n_loops))) - 1;
        uint32_t step = GPOINTER_TO_UINT (g_hash_table_lookup (l->regs, key (0x7e, l->n_loops))) - 1;
        uint32_t al = l->aL[l->n_loops - 1];
        sl_ir_mov (l->ir, k, f2 (l, SL_OP_ADD, k, kf (l, 1.0f)));
        sl_ir_mov (l->ir, al, f2 (l, SL_OP_ADD, al, step));
        sl_ir_ctrl (l->ir, SL_OP_ENDLOOP, SL_IR_NONE, 0);
        l->n_loops--;
        return;
      }
    case D9_CALL:
      commit (l);
      call (l, in->src[0].index);
      return;
    case D9_CALLNZ:
      commit (l);
      sl_ir_ctrl (l->ir, SL_OP_IF, read_cond (l, &in->src[1]), 0);
      call (l, in->src[0].index);
      sl_ir_ctrl (l->ir, SL_OP_ENDIF, SL_IR_NONE, 0);
      return;
    case D9_RET:
      commit (l);
      sl_ir_ctrl (l->ir, SL_OP_RETURN, SL_IR_NONE, 0);
      return;
    default:
      lerr (l, SL_DIAG_D3D9_UNSUPPORTED, "%s is not supported", oi->name);
      return;
    }
  write_dst (l, in, r);
}

static void
lower_range (L *l, guint start, guint end)
{
  for (guint i = start; i < end && !l->failed; i++)
    {
      const D9Insn *in = &g_array_index (l->sh->insns, D9Insn, i);
      lower_insn (l, in);
      bool next_coissued = i + 1 < end && g_array_index (l->sh->insns, D9Insn, i + 1).coissue;
      if (!next_coissued)
        commit (l);
    }
  commit (l);
}

static void
add_param (L *l, const char *name, SlScalarType type, int rows, int cols, int elems, bool row_major,
           int offset, int size, const float *def)
{
  SlParam p = { 0 };
  p.name = sl_arena_strdup (l->info->arena, name);
  p.type = type;
  p.rows = rows;
  p.columns = cols;
  p.array_size = elems > 1 ? elems : 0;
  p.row_major = row_major;
  p.offset = (size_t) offset;
  p.size = (size_t) size;
  if (def)
    {
      int n = rows * cols * MAX (elems, 1);
      float *d = SL_NEW_N (l->info->arena, float, n);
      memcpy (d, def, sizeof (float) * n);
      p.default_value = d;
    }
  g_array_append_val (l->info->params, p);
}

SlIr *
d9_lower (const D9Shader *sh, SlProgramInfo *info, SlDiagnostics *diags)
{
  L l = { .sh = sh, .info = info, .diags = diags, .ver = sh->version };
  l.ir = sl_ir_new ();
  l.regs = g_hash_table_new (NULL, NULL);
  l.defs = g_hash_table_new (NULL, NULL);
  for (int i = 0; i < SL_MAX_SLOTS; i++)
    l.sampler_kind[i] = -1;
  info->shader_model = sh->version <= V14 ? 10 + (int) sh->version : sh->version == V20 ? 20
                       : sh->version <= V2SW ? 21 : 30;
  if (sh->version == V10)
    info->shader_model = 10;

  /* Pre-pass: defs, declarations and the constant-buffer layout. */
  int max_c = -1, max_i = -1, max_b = -1;
  for (guint i = 0; i < sh->insns->len; i++)
    {
      const D9Insn *in = &g_array_index (sh->insns, D9Insn, i);
      if (in->id == D9_DEF || in->id == D9_DEFI || in->id == D9_DEFB)
        g_hash_table_insert (l.defs, key (in->dst.type, in->dst.index), (gpointer) in);
      if (in->id == D9_DEF)
        max_c = MAX (max_c, in->dst.index);
      if (in->id == D9_DCL && in->dst.type == D9_REG_SAMPLER && in->dst.index < SL_MAX_SLOTS)
        l.dcl_kind[in->dst.index] = in->tex_type;
      for (int k = 0; k < d9_ops[in->id].n_src; k++)
        {
          const D9Param *p = &in->src[k];
          int rows = (in->id >= D9_M4X4 && in->id <= D9_M3X2 && k == 1) ? 4 : 1;
          if (p->type == D9_REG_CONST)
            max_c = MAX (max_c, p->index + rows - 1 + (p->relative ? 0 : 0));
          if (p->type == D9_REG_CONSTINT)
            max_i = MAX (max_i, p->index);
          if (p->type == D9_REG_CONSTBOOL)
            max_b = MAX (max_b, p->index);
        }
    }
  for (guint i = 0; i < sh->constants->len; i++)
    {
      const D9Constant *c = &g_array_index (sh->constants, D9Constant, i);
      int last = c->reg_index + MAX (c->reg_count, 1) - 1;
      if (c->regset == 2) max_c = MAX (max_c, last);
      if (c->regset == 1) max_i = MAX (max_i, last);
      if (c->regset == 0) max_b = MAX (max_b, last);
    }
  max_c = MIN (max_c, 8191);
  l.c_words = 4 * (max_c + 1);
  l.i_base = l.c_words;
  l.b_base = l.i_base + 4 * (max_i + 1);
  l.bump_base = l.b_base + 4 * (max_b + 1);
  l.total = l.bump_base + 8 * 8;

  /* Registers the shader touches get their VARs up front. */
  for (guint i = 0; i < sh->insns->len; i++)
    {
      const D9Insn *in = &g_array_index (sh->insns, D9Insn, i);
      const D9OpInfo *oi = &d9_ops[in->id];
      if (oi->n_dst && in->id != D9_DCL && has_vars (in->dst.type, sh->version))
        reg_vars (&l, in->dst.type, in->dst.index);
      for (int k = 0; k < oi->n_src; k++)
        if (has_vars (in->src[k].type, sh->version) && !in->src[k].relative
            && !(oi->flags & D9F_T && sh->version <= V13 && in->src[k].type == D9_REG_TEXTURE && false))
          reg_vars (&l, in->src[k].type, in->src[k].index);
      if (in->predicated)
        reg_vars (&l, D9_REG_PREDICATE, 0);
      if (in->id == D9_TEXKILL && (sh->version >= V20 || in->dst.type == D9_REG_TEMP))
        reg_vars (&l, in->dst.type, in->dst.index);
    }
  if (sh->version <= V14)
    reg_vars (&l, D9_REG_TEMP, 0);
  for (guint i = 0; i < sh->insns->len; i++)
    {
      const D9Insn *in = &g_array_index (sh->insns, D9Insn, i);
      for (int k = 0; k < d9_ops[in->id].n_src; k++)
        if (in->src[k].relative && in->src[k].type == D9_REG_INPUT)
          for (int r = 0; r < 10; r++)
            reg_vars (&l, D9_REG_INPUT, r);
    }

  /* Main body: up to the first label; ret there ends the shader. */
  guint main_end = body_end (&l, 0);
  bool has_ret = false;
  for (guint i = 0; i < main_end; i++)
    if (g_array_index (sh->insns, D9Insn, i).id == D9_RET)
      has_ret = true;
  if (has_ret)
    sl_ir_ctrl (l.ir, SL_OP_FBEGIN, SL_IR_NONE, 0);
  lower_range (&l, 0, main_end);
  if (has_ret)
    sl_ir_ctrl (l.ir, SL_OP_FEND, SL_IR_NONE, 0);

  /* Colour outputs. */
  for (int t = 0; t < 4; t++)
    {
      uint32_t *v = sh->version <= V14 ? (t == 0 ? reg_vars (&l, D9_REG_TEMP, 0) : NULL)
                    : g_hash_table_lookup (l.regs, key (D9_REG_COLOROUT, t));
      if (!v)
        continue;
      for (int c = 0; c < 4; c++)
        {
          SlInsn out = { .op = SL_OP_OUTPUT, .n_src = 1, .src = { v[c] }, .imm = (uint32_t) (t * 4 + c) };
          sl_ir_emit (l.ir, &out);
        }
      l.ir->n_outputs = t + 1;
    }
  if (l.ir->overflow)
    lerr (&l, SL_DIAG_D3D9_SHADER_TOO_LARGE, "shader is too large");

  /* Which constants the code reads. */
  for (guint i = 0; i < l.ir->insns->len; i++)
    {
      const SlInsn *in = sl_ir_insn (l.ir, i);
      if (in->op == SL_OP_LOADC && (int) in->imm < l.c_words)
        l.c_used[in->imm / 4] = true;
      else if (in->op == SL_OP_LOADCI)
        for (int r = (int) in->imm / 4; r <= max_c; r++)
          l.c_used[r] = true;
      else if (in->op == SL_OP_LOADC && (int) in->imm < l.b_base)
        l.i_used[(in->imm - l.i_base) / 4] = true;
      else if (in->op == SL_OP_LOADC && (int) in->imm < l.bump_base)
        l.b_used[(in->imm - l.b_base) / 4] = true;
    }

  /* Reflection: named constants from the CTAB first. */
  info->constants_size = (size_t) l.total;
  sl_program_info_reserve_constants (info, info->constants_size);
  /* def'd registers also go into the buffer so that c#[aL] sees them. */
  for (guint i = 0; i < sh->insns->len; i++)
    {
      const D9Insn *in = &g_array_index (sh->insns, D9Insn, i);
      if (in->id == D9_DEF && 4 * in->dst.index + 3 < l.c_words)
        memcpy (info->defaults + 4 * in->dst.index, in->lit, sizeof in->lit);
    }
  bool named_c[8192] = { false }, named_s[SL_MAX_SLOTS] = { false };
  for (guint i = 0; i < sh->constants->len; i++)
    {
      const D9Constant *c = &g_array_index (sh->constants, D9Constant, i);
      if (c->regset == 3)
        {
          if (c->reg_index < SL_MAX_SLOTS)
            {
              SlSamplerInfo si = { 0 };
              si.name = sl_arena_strdup (info->arena, c->name);
              si.slot = c->reg_index;
              si.kind = c->type == 14 ? SL_TEXTURE_CUBE : c->type == 13 ? SL_TEXTURE_3D
                        : c->type == 11 ? SL_TEXTURE_1D : SL_TEXTURE_2D;
              g_array_append_val (info->samplers, si);
              named_s[c->reg_index] = true;
            }
          continue;
        }
      int base = c->regset == 2 ? 4 * c->reg_index : c->regset == 1 ? l.i_base + 4 * c->reg_index
                 : l.b_base + 4 * c->reg_index;
      SlScalarType ty = c->regset == 2 ? SL_SCALAR_FLOAT : c->regset == 1 ? SL_SCALAR_INT : SL_SCALAR_BOOL;
      int rows = MAX (c->rows, 1), cols = MAX (c->columns, 1), el = c->elements;
      float *def = NULL;
      if (c->defaults)
        {
          for (int k = 0; k < c->reg_count * 4 && base + k < l.total; k++)
            info->defaults[base + k] = sl_f2u (c->defaults[k]);
          if (rows == 1)
            {
              int n = cols * MAX (el, 1);
              def = g_new0 (float, n);
              for (int e = 0; e < MAX (el, 1); e++)
                for (int k = 0; k < cols; k++)
                  if (e * 4 + k < c->reg_count * 4)
                    def[e * cols + k] = c->defaults[e * 4 + k];
            }
        }
      add_param (&l, c->name, ty, rows, cols, el, c->cls == 2, base, 4 * c->reg_count, def);
      g_free (def);
      if (c->regset == 2)
        for (int r = c->reg_index; r < c->reg_index + c->reg_count && r < 8192; r++)
          named_c[r] = true;
    }
  /* Unnamed registers the code reads get their register's name. */
  for (int r = 0; r <= max_c; r++)
    if (l.c_used[r] && !named_c[r])
      {
        char name[16];
        g_snprintf (name, sizeof name, "c%d", r);
        add_param (&l, name, SL_SCALAR_FLOAT, 1, 4, 0, false, 4 * r, 4, NULL);
      }
  for (int r = 0; r <= max_i && r < 16; r++)
    if (l.i_used[r] && !sh->constants->len)
      {
        char name[16];
        g_snprintf (name, sizeof name, "i%d", r);
        add_param (&l, name, SL_SCALAR_INT, 1, 4, 0, false, l.i_base + 4 * r, 4, NULL);
      }
  for (int r = 0; r <= max_b && r < 16; r++)
    if (l.b_used[r] && !sh->constants->len)
      {
        char name[16];
        g_snprintf (name, sizeof name, "b%d", r);
        add_param (&l, name, SL_SCALAR_BOOL, 1, 1, 0, false, l.b_base + 4 * r, 1, NULL);
      }
  for (int st = 0; st < 8; st++)
    if (l.bump_used[st])
      {
        char name[32];
        g_snprintf (name, sizeof name, "bumpenvmat%d", st);
        add_param (&l, name, SL_SCALAR_FLOAT, 1, 4, 0, false, l.bump_base + 8 * st, 4, NULL);
        g_snprintf (name, sizeof name, "bumpenvl%d", st);
        float d[2] = { 1.0f, 0.0f };
        add_param (&l, name, SL_SCALAR_FLOAT, 1, 2, 0, false, l.bump_base + 8 * st + 4, 2, d);
        info->defaults[l.bump_base + 8 * st + 4] = sl_f2u (1.0f);
      }
  for (int s = 0; s < SL_MAX_SLOTS; s++)
    if (l.sampler_kind[s] >= 0 && !named_s[s])
      {
        SlSamplerInfo si = { 0 };
        char name[16];
        g_snprintf (name, sizeof name, "s%d", s);
        si.name = sl_arena_strdup (info->arena, name);
        si.slot = s;
        si.kind = (SlTextureKind) l.sampler_kind[s];
        g_array_append_val (info->samplers, si);
      }
  info->n_outputs = l.ir->n_outputs;
  g_hash_table_destroy (l.regs);
  g_hash_table_destroy (l.defs);
  if (l.failed)
    {
      sl_ir_free (l.ir);
      return NULL;
    }
  return l.ir;
}

/* ---- the front end's entries ---------------------------------------------- */

static D9Shader *
read_shader (const char *source, size_t length, bool bytecode, const char *filename,
             SlDiagnostics *diags)
{
  return bytecode ? d9_decode ((const uint8_t *) source, length, filename, diags)
                  : d9_assemble (source, length, filename, diags);
}

SlIr *
d9_to_ir (const SlCompileOptions *options, SlProgramInfo *info, SlDiagnostics *diags)
{
  D9Shader *d9 = read_shader (options->source, options->length,
                              options->language == SL_LANGUAGE_D3D9_BYTECODE,
                              options->filename, diags);
  if (!d9)
    return NULL;
  SlIr *ir = d9_lower (d9, info, diags);
  d9_shader_free (d9);
  return ir;
}

static char *
disassemble (const char *source, size_t length, bool bytecode, const char *filename,
             SlDiagnostics *diags)
{
  D9Shader *d9 = read_shader (source, length, bytecode, filename, diags);
  if (!d9)
    return NULL;
  char *text = d9_print (d9);
  d9_shader_free (d9);
  return text;
}

char *
d9_disassemble_asm (const char *source, size_t length, const char *filename,
                    SlDiagnostics *diags)
{
  return disassemble (source, length, false, filename, diags);
}

char *
d9_disassemble_bytecode (const char *source, size_t length, const char *filename,
                         SlDiagnostics *diags)
{
  return disassemble (source, length, true, filename, diags);
}
