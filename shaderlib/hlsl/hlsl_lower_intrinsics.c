/* Intrinsic lowering: each HLSL intrinsic and texture method as IR.
 *
 * Some follow fxc's expansions rather than the IR's exact operations
 * (fmod, asin, acos, atan2), because the conformance corpus encodes
 * their results; texture reads become SAMPLE and TEXSIZE instructions on
 * provisional objects. */
#include "hlsl/hlsl_lower.h"

#include <string.h>

static bool const_offsets (L *l, Node *arg, int nc, int8_t out[3]);

static uint32_t
dot_n (L *l, BaseType b, RVal x, RVal y, int n)
{
  uint32_t acc = hlsl_arith (l, '*', b, x.c[0], y.c[0]);
  for (int i = 1; i < n; i++)
    {
      if (b == BT_FLOAT)
        acc = f3 (l, SL_OP_MAD, x.c[i], y.c[i], acc);
      else
        acc = hlsl_arith (l, '+', b, acc, hlsl_arith (l, '*', b, x.c[i], y.c[i]));
    }
  return acc;
}

static RVal
map1 (L *l, RVal a, SlOp op)
{
  RVal r = rv_new (l, a.n);
  for (int i = 0; i < a.n; i++)
    r.c[i] = f1 (l, op, a.c[i]);
  return r;
}

static RVal
map2 (L *l, RVal a, RVal b, SlOp op)
{
  RVal r = rv_new (l, a.n);
  for (int i = 0; i < a.n; i++)
    r.c[i] = f2 (l, op, a.c[i], b.c[b.n == 1 ? 0 : i]);
  return r;
}

/* acos |x| as fxc computes it: a cubic in |x| times sqrt(1 - |x|)
 * (absolute error below 7e-5 on [0, 1]). */
static uint32_t
fxc_acos_abs (L *l, uint32_t x)
{
  uint32_t ax = f1 (l, SL_OP_ABS, x);
  uint32_t poly = f3 (l, SL_OP_MAD, fc (l, -0.0187293f), ax, fc (l, 0.0742610f));
  poly = f3 (l, SL_OP_MAD, poly, ax, fc (l, -0.2121144f));
  poly = f3 (l, SL_OP_MAD, poly, ax, fc (l, 1.5707288f));
  return f2 (l, SL_OP_MUL, poly, f1 (l, SL_OP_SQRT, f2 (l, SL_OP_SUB, fc (l, 1.0f), ax)));
}

static RVal
fxc_inverse_trig (L *l, RVal a, bool sine)
{
  RVal r = rv_new (l, a.n);
  for (int i = 0; i < a.n; i++)
    {
      uint32_t x = a.c[i];
      uint32_t negative = sl_ir_op2 (l->ir, SL_OP_LT, SL_KIND_BOOL, x, fc (l, 0.0f));
      uint32_t core = fxc_acos_abs (l, x);
      uint32_t pos, neg;
      if (sine)
        {
          pos = f2 (l, SL_OP_SUB, fc (l, 1.57079632679f), core);
          neg = f1 (l, SL_OP_NEG, pos);
        }
      else
        {
          pos = core;
          neg = f2 (l, SL_OP_SUB, fc (l, 3.14159265359f), core);
        }
      r.c[i] = sl_ir_op3 (l->ir, SL_OP_SELECT, SL_KIND_FLOAT, negative, neg, pos);
    }
  return r;
}

static RVal
emit_sample (L *l, int tex_obj, int samp_obj, int dim, SlSampleMode mode,
             const uint32_t *srcs, int n_src, const int8_t offset[3], int n_results)
{
  SlInsn in = { .op = SL_OP_SAMPLE, .n_dst = 4, .n_src = n_src };
  in.sample.mode = mode;
  in.sample.texture = tex_obj;   /* provisional: patched to slots later */
  in.sample.sampler = samp_obj;
  in.sample.dim = dim;
  if (offset)
    memcpy (in.sample.offset, offset, 3);
  for (int i = 0; i < n_src; i++)
    in.src[i] = srcs[i];
  RVal r = rv_new (l, n_results);
  for (int k = 0; k < 4; k++)
    in.dst[k] = sl_ir_new_value (l->ir, SL_KIND_FLOAT, SL_VALUE_TEMP);
  for (int k = 0; k < n_results; k++)
    r.c[k] = in.dst[k];
  sl_ir_emit (l->ir, &in);
  return r;
}

static RVal
lower_tex_intrinsic (L *l, Node *e)
{
  int id = e->op;
  int variant = (id - INTR_TEX1D) % 5;
  int dim = e->sampler_obj;
  int nc = dim == SL_TEXTURE_1D ? 1 : dim == SL_TEXTURE_2D ? 2 : 3;
  int obj = hlsl_lower_object (l, e->args[0]);
  RVal c = hlsl_lower_expr (l, e->args[1]);
  uint32_t srcs[SL_IR_MAX_SRC];
  int n = 0;
  SlSampleMode mode = SL_SAMPLE_IMPLICIT;
  if (variant == 4)   /* proj: divide by w */
    {
      uint32_t w = c.c[3];
      for (int i = 0; i < nc; i++)
        srcs[n++] = f2 (l, SL_OP_DIV, c.c[i], w);
    }
  else
    for (int i = 0; i < nc; i++)
      srcs[n++] = c.c[i];
  if (variant == 1)        /* bias: t.w */
    {
      srcs[n++] = c.c[3];
      mode = SL_SAMPLE_BIAS;
    }
  else if (variant == 3)   /* lod: t.w */
    {
      srcs[n++] = c.c[3];
      mode = SL_SAMPLE_LOD;
    }
  int8_t off[3] = { 0, 0, 0 };
  if (e->n_args == 3 && (variant == 0 || variant == 3))
    {
      /* ReShade's offset forms (the parser allows them only there) */
      if (!const_offsets (l, e->args[2], 2, off))
        return rv_new (l, 4);
      if (variant == 3)
        {
          srcs[n++] = c.c[3];
          mode = SL_SAMPLE_LOD;
        }
    }
  else if (variant == 2 || (variant == 0 && e->n_args == 4))
    {
      RVal dx = hlsl_lower_expr (l, e->args[2]), dy = hlsl_lower_expr (l, e->args[3]);
      for (int i = 0; i < nc; i++)
        srcs[n++] = dx.c[i];
      for (int i = 0; i < nc; i++)
        srcs[n++] = dy.c[i];
      mode = SL_SAMPLE_GRAD;
    }
  return emit_sample (l, obj, obj, dim, mode, srcs, n, off, 4);
}

static bool
const_offsets (L *l, Node *arg, int nc, int8_t out[3])
{
  RVal o = hlsl_lower_expr (l, arg);
  for (int i = 0; i < nc && i < o.n; i++)
    {
      const SlValue *v = sl_ir_value (l->ir, o.c[i]);
      if (v->cls != SL_VALUE_CONST)
        {
          hlsl_lower_error (l, arg->loc, "texel offsets must be constant");
          return false;
        }
      out[i] = (int8_t) CLAMP ((int32_t) v->bits, -8, 7);
    }
  return true;
}

static RVal
lower_method (L *l, Node *e)
{
  int id = e->op, dim = e->sampler_obj;
  int nc = dim == SL_TEXTURE_1D ? 1 : dim == SL_TEXTURE_2D ? 2 : 3;
  int tex = hlsl_lower_object (l, e->a);
  uint32_t srcs[SL_IR_MAX_SRC];
  int n = 0;
  int8_t off[3] = { 0, 0, 0 };
  if (id == INTR_M_LOAD)
    {
      RVal c = hlsl_lower_expr (l, e->args[0]);
      for (int i = 0; i < nc; i++)
        srcs[n++] = c.c[i];
      srcs[n++] = c.c[nc];
      if (e->n_args > 1)
        const_offsets (l, e->args[1], nc, off);
      return emit_sample (l, tex, tex, dim, SL_SAMPLE_LOAD, srcs, n, off, 4);
    }
  if (id == INTR_M_GETDIMENSIONS)
    {
      /* GetDimensions([mip,] width [, height [, levels]]) */
      int first = 0;
      uint32_t level = sl_ir_const_i (l->ir, 0);
      int n_out = e->n_args;
      if (e->n_args == nc + 2)
        {
          RVal m = hlsl_lower_expr (l, e->args[0]);
          level = hlsl_conv (l, m.c[0], e->args[0]->type->base, BT_INT);
          first = 1;
          n_out--;
        }
      SlInsn in = { .op = SL_OP_TEXSIZE, .n_dst = 4, .n_src = 1, .src = { level } };
      in.sample.texture = tex;
      in.sample.sampler = tex;
      in.sample.dim = dim;
      for (int k = 0; k < 4; k++)
        in.dst[k] = sl_ir_new_value (l->ir, SL_KIND_UINT, SL_VALUE_TEMP);
      sl_ir_emit (l->ir, &in);
      for (int k = 0; k < n_out; k++)
        {
          Node *target = e->args[first + k];
          int which = k < nc ? k : 3;
          RVal v = rv_new (l, 1);
          v.c[0] = hlsl_conv (l, in.dst[which], BT_UINT, target->type->base);
          hlsl_store (l, target, v);
        }
      return rv_new (l, 0);
    }
  int samp = hlsl_lower_object (l, e->args[0]);
  RVal c = hlsl_lower_expr (l, e->args[1]);
  for (int i = 0; i < nc; i++)
    srcs[n++] = c.c[i];
  SlSampleMode mode = SL_SAMPLE_IMPLICIT;
  int next_arg = 2;
  switch (id)
    {
    case INTR_M_SAMPLEBIAS: mode = SL_SAMPLE_BIAS; srcs[n++] = hlsl_lower_expr (l, e->args[2]).c[0]; next_arg = 3; break;
    case INTR_M_SAMPLELEVEL: mode = SL_SAMPLE_LOD; srcs[n++] = hlsl_lower_expr (l, e->args[2]).c[0]; next_arg = 3; break;
    case INTR_M_SAMPLECMP: case INTR_M_SAMPLECMPLZ:
      mode = SL_SAMPLE_COMPARE; srcs[n++] = hlsl_lower_expr (l, e->args[2]).c[0]; next_arg = 3; break;
    case INTR_M_SAMPLEGRAD:
      {
        RVal dx = hlsl_lower_expr (l, e->args[2]), dy = hlsl_lower_expr (l, e->args[3]);
        for (int i = 0; i < nc; i++)
          srcs[n++] = dx.c[i];
        for (int i = 0; i < nc; i++)
          srcs[n++] = dy.c[i];
        mode = SL_SAMPLE_GRAD;
        next_arg = 4;
      }
      break;
    default:
      break;
    }
  if (e->n_args > next_arg)
    const_offsets (l, e->args[next_arg], nc, off);
  int n_res = mode == SL_SAMPLE_COMPARE ? 1 : 4;
  if (l->sm < 40 && tex != samp)
    tex = samp = hlsl_combined_ref (l, tex, samp);
  return emit_sample (l, tex, samp, dim, mode, srcs, n, off, n_res);
}

/* The width and height of mip @level of a sampler's texture, as uints. */
static void
texture_size (L *l, int obj, uint32_t level, uint32_t *w, uint32_t *h)
{
  SlInsn in = { .op = SL_OP_TEXSIZE, .n_dst = 4, .n_src = 1, .src = { level } };
  in.sample.texture = obj;
  in.sample.sampler = obj;
  in.sample.dim = SL_TEXTURE_2D;
  for (int k = 0; k < 4; k++)
    in.dst[k] = sl_ir_new_value (l->ir, SL_KIND_UINT, SL_VALUE_TEMP);
  sl_ir_emit (l->ir, &in);
  *w = in.dst[0];
  *h = in.dst[1];
}

/* ReShade's sampler intrinsics.  Gather has no sampling mode of its own:
 * it samples level 0 at the centres of the four texels of the bilinear
 * footprint, which a linear or point filter returns unweighted (up to a
 * rounding of about 1e-7 of the texel difference) and which the sampler's
 * address modes wrap or clamp as D3D's Gather does. */
static RVal
lower_reshade (L *l, Node *e)
{
  int id = e->op;
  int obj = hlsl_lower_object (l, e->args[0]);
  uint32_t srcs[SL_IR_MAX_SRC];
  int8_t off[3] = { 0, 0, 0 };
  switch (id)
    {
    case INTR_RS_TEX2DFETCH:
      {
        RVal c = hlsl_lower_expr (l, e->args[1]);
        srcs[0] = c.c[0];
        srcs[1] = c.c[1];
        srcs[2] = c.n >= 4 ? c.c[3] : e->n_args > 2 ? hlsl_lower_expr (l, e->args[2]).c[0] : sl_ir_const_i (l->ir, 0);
        return emit_sample (l, obj, obj, SL_TEXTURE_2D, SL_SAMPLE_LOAD, srcs, 3, NULL, 4);
      }
    case INTR_RS_TEX2DSIZE:
      {
        uint32_t level = e->n_args > 1 ? hlsl_lower_expr (l, e->args[1]).c[0] : sl_ir_const_i (l->ir, 0);
        uint32_t w, h;
        texture_size (l, obj, level, &w, &h);
        RVal r = rv_new (l, 2);
        r.c[0] = hlsl_conv (l, w, BT_UINT, BT_INT);
        r.c[1] = hlsl_conv (l, h, BT_UINT, BT_INT);
        return r;
      }
    case INTR_RS_TEX2DOFFSET:
    case INTR_RS_TEX2DLODOFFSET:
      {
        RVal c = hlsl_lower_expr (l, e->args[1]);
        if (!const_offsets (l, e->args[2], 2, off))
          return rv_new (l, 4);
        srcs[0] = c.c[0];
        srcs[1] = c.c[1];
        if (id == INTR_RS_TEX2DOFFSET)
          return emit_sample (l, obj, obj, SL_TEXTURE_2D, SL_SAMPLE_IMPLICIT, srcs, 2, off, 4);
        srcs[2] = c.c[3];
        return emit_sample (l, obj, obj, SL_TEXTURE_2D, SL_SAMPLE_LOD, srcs, 3, off, 4);
      }
    default:
      break;
    }
  /* gather */
  int comp = id - INTR_RS_TEX2DGATHERR;
  int off_arg = 2;
  if (id == INTR_RS_TEX2DGATHER)
    {
      RVal cv = hlsl_lower_expr (l, e->args[2]);
      const SlValue *v = sl_ir_value (l->ir, cv.c[0]);
      if (v->cls != SL_VALUE_CONST || (int32_t) v->bits < 0 || (int32_t) v->bits > 3)
        {
          hlsl_lower_error (l, e->args[2]->loc, "the component of 'tex2Dgather' must be a constant 0 to 3");
          return rv_new (l, 4);
        }
      comp = (int32_t) v->bits;
      off_arg = 3;
    }
  if (e->n_args > off_arg && !const_offsets (l, e->args[off_arg], 2, off))
    return rv_new (l, 4);
  RVal c = hlsl_lower_expr (l, e->args[1]);
  uint32_t wu, hu;
  texture_size (l, obj, sl_ir_const_i (l->ir, 0), &wu, &hu);
  uint32_t size[2] = { hlsl_conv (l, wu, BT_UINT, BT_FLOAT), hlsl_conv (l, hu, BT_UINT, BT_FLOAT) };
  uint32_t lo[2], hi[2];
  for (int a = 0; a < 2; a++)
    {
      /* first texel of the footprint, then the centres of it and its neighbour */
      uint32_t t0 = f1 (l, SL_OP_FLOOR, f2 (l, SL_OP_SUB, f2 (l, SL_OP_MUL, c.c[a], size[a]), fc (l, 0.5f)));
      t0 = f2 (l, SL_OP_ADD, t0, fc (l, off[a] + 0.5f));
      lo[a] = f2 (l, SL_OP_DIV, t0, size[a]);
      hi[a] = f2 (l, SL_OP_DIV, f2 (l, SL_OP_ADD, t0, fc (l, 1.0f)), size[a]);
    }
  /* D3D's order: (u0,v1), (u1,v1), (u1,v0), (u0,v0) */
  const uint32_t *us[4] = { &lo[0], &hi[0], &hi[0], &lo[0] };
  const uint32_t *vs[4] = { &hi[1], &hi[1], &lo[1], &lo[1] };
  RVal r = rv_new (l, 4);
  for (int k = 0; k < 4; k++)
    {
      uint32_t at[3] = { *us[k], *vs[k], fc (l, 0.0f) };
      r.c[k] = emit_sample (l, obj, obj, SL_TEXTURE_2D, SL_SAMPLE_LOD, at, 3, NULL, 4).c[comp];
    }
  return r;
}

static RVal
arg_rv (L *l, Node *e, int i)
{
  return hlsl_lower_expr (l, e->args[i]);
}

RVal
hlsl_lower_intrinsic (L *l, Node *e)
{
  int id = e->op;
  if (id >= INTR_TEX1D && id <= INTR_TEXCUBEPROJ)
    return lower_tex_intrinsic (l, e);
  if (id >= INTR_RS_TEX2DFETCH && id <= INTR_RS_TEX2DLODOFFSET)
    return lower_reshade (l, e);
  if (id >= INTR_M_SAMPLE)
    return lower_method (l, e);

  SlIr *ir = l->ir;
  Type *rt = e->type;
  BaseType ab = e->n_args ? e->args[0]->type->base : BT_FLOAT;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  switch (id)
    {
    case INTR_ABS:
      {
        RVal a = arg_rv (l, e, 0);
        for (int i = 0; i < a.n; i++)
          r.c[i] = ab == BT_FLOAT ? f1 (l, SL_OP_ABS, a.c[i])
                   : ab == BT_INT ? sl_ir_op1 (ir, SL_OP_IABS, SL_KIND_INT, a.c[i]) : a.c[i];
        return r;
      }
    case INTR_MIN: case INTR_MAX:
      {
        RVal a = arg_rv (l, e, 0), b = arg_rv (l, e, 1);
        bool mn = id == INTR_MIN;
        SlOp op = ab == BT_FLOAT ? (mn ? SL_OP_MIN : SL_OP_MAX)
                  : ab == BT_UINT ? (mn ? SL_OP_UMIN : SL_OP_UMAX)
                  : (mn ? SL_OP_IMIN : SL_OP_IMAX);
        for (int i = 0; i < a.n; i++)
          r.c[i] = sl_ir_op2 (ir, op, kind_of (ab), a.c[i], b.c[i]);
        return r;
      }
    case INTR_CLAMP:
      {
        RVal a = arg_rv (l, e, 0), lo = arg_rv (l, e, 1), hi = arg_rv (l, e, 2);
        SlOp mx = ab == BT_FLOAT ? SL_OP_MAX : ab == BT_UINT ? SL_OP_UMAX : SL_OP_IMAX;
        SlOp mn = ab == BT_FLOAT ? SL_OP_MIN : ab == BT_UINT ? SL_OP_UMIN : SL_OP_IMIN;
        for (int i = 0; i < a.n; i++)
          r.c[i] = sl_ir_op2 (ir, mn, kind_of (ab), sl_ir_op2 (ir, mx, kind_of (ab), a.c[i], lo.c[i]), hi.c[i]);
        return r;
      }
    case INTR_SIGN:
      {
        RVal a = arg_rv (l, e, 0);
        for (int i = 0; i < a.n; i++)
          {
            if (ab == BT_FLOAT)
              r.c[i] = sl_ir_op1 (ir, SL_OP_FTOI, SL_KIND_INT, f1 (l, SL_OP_SIGN, a.c[i]));
            else
              {
                uint32_t z = zero_of (l, ab);
                uint32_t pos = sl_ir_op1 (ir, SL_OP_BTOI, SL_KIND_INT, hlsl_arith (l, '<', ab, z, a.c[i]));
                uint32_t neg = sl_ir_op1 (ir, SL_OP_BTOI, SL_KIND_INT, hlsl_arith (l, '<', ab, a.c[i], z));
                r.c[i] = sl_ir_op2 (ir, SL_OP_ISUB, SL_KIND_INT, pos, neg);
              }
          }
        return r;
      }
    case INTR_ACOS: return fxc_inverse_trig (l, arg_rv (l, e, 0), false);
    case INTR_ASIN: return fxc_inverse_trig (l, arg_rv (l, e, 0), true);
    case INTR_ATAN: return map1 (l, arg_rv (l, e, 0), SL_OP_ATAN);
    case INTR_ATAN2:
      {
        /* fxc's expansion tests signs with comparisons, so a y of -0
         * counts as +0: atan2(-0, -1) is +pi (the corpus checks it). */
        RVal y = arg_rv (l, e, 0), x = arg_rv (l, e, 1);
        RVal angle = rv_new (l, y.n);
        for (int i = 0; i < y.n; i++)
          {
            uint32_t zero = sl_ir_op2 (l->ir, SL_OP_EQ, SL_KIND_BOOL, y.c[i], fc (l, 0.0f));
            uint32_t yy = sl_ir_op3 (l->ir, SL_OP_SELECT, SL_KIND_FLOAT, zero, fc (l, 0.0f), y.c[i]);
            angle.c[i] = f2 (l, SL_OP_ATAN2, yy, x.c[x.n == 1 ? 0 : i]);
          }
        return angle;
      }
    case INTR_CEIL: return map1 (l, arg_rv (l, e, 0), SL_OP_CEIL);
    case INTR_COS: return map1 (l, arg_rv (l, e, 0), SL_OP_COS);
    case INTR_COSH: return map1 (l, arg_rv (l, e, 0), SL_OP_COSH);
    case INTR_SIN: return map1 (l, arg_rv (l, e, 0), SL_OP_SIN);
    case INTR_SINH: return map1 (l, arg_rv (l, e, 0), SL_OP_SINH);
    case INTR_TAN: return map1 (l, arg_rv (l, e, 0), SL_OP_TAN);
    case INTR_TANH: return map1 (l, arg_rv (l, e, 0), SL_OP_TANH);
    case INTR_EXP: return map1 (l, arg_rv (l, e, 0), SL_OP_EXP);
    case INTR_EXP2: return map1 (l, arg_rv (l, e, 0), SL_OP_EXP2);
    case INTR_LOG: return map1 (l, arg_rv (l, e, 0), SL_OP_LOG);
    case INTR_LOG2: return map1 (l, arg_rv (l, e, 0), SL_OP_LOG2);
    case INTR_LOG10:
      {
        RVal a = map1 (l, arg_rv (l, e, 0), SL_OP_LOG2);
        for (int i = 0; i < a.n; i++)
          a.c[i] = f2 (l, SL_OP_MUL, a.c[i], fc (l, 0.301029995663981f));
        return a;
      }
    case INTR_FLOOR: return map1 (l, arg_rv (l, e, 0), SL_OP_FLOOR);
    case INTR_FRAC: return map1 (l, arg_rv (l, e, 0), SL_OP_FRC);
    case INTR_TRUNC: return map1 (l, arg_rv (l, e, 0), SL_OP_TRUNC);
    case INTR_ROUND: return map1 (l, arg_rv (l, e, 0), SL_OP_ROUND_NE);
    case INTR_SQRT: return map1 (l, arg_rv (l, e, 0), SL_OP_SQRT);
    case INTR_RSQRT: return map1 (l, arg_rv (l, e, 0), SL_OP_RSQ);
    case INTR_RCP: return map1 (l, arg_rv (l, e, 0), SL_OP_RCP);
    case INTR_SATURATE: return map1 (l, arg_rv (l, e, 0), SL_OP_SAT);
    case INTR_FMOD:
      {
        RVal x = arg_rv (l, e, 0), y = arg_rv (l, e, 1);
        RVal rem = rv_new (l, x.n);
        for (int i = 0; i < x.n; i++)
          rem.c[i] = hlsl_fxc_fmod (l, x.c[i], y.c[y.n == 1 ? 0 : i]);
        return rem;
      }
    case INTR_POW: return map2 (l, arg_rv (l, e, 0), arg_rv (l, e, 1), SL_OP_POW);
    case INTR_LDEXP: return map2 (l, arg_rv (l, e, 0), arg_rv (l, e, 1), SL_OP_LDEXP);
    case INTR_STEP: return map2 (l, arg_rv (l, e, 0), arg_rv (l, e, 1), SL_OP_STEP);
    case INTR_DDX: case INTR_DDX_COARSE: case INTR_DDX_FINE:
      return map1 (l, arg_rv (l, e, 0), SL_OP_DDX);
    case INTR_DDY: case INTR_DDY_COARSE: case INTR_DDY_FINE:
      return map1 (l, arg_rv (l, e, 0), SL_OP_DDY);
    case INTR_FWIDTH:
      {
        RVal a = arg_rv (l, e, 0);
        for (int i = 0; i < a.n; i++)
          r.c[i] = f2 (l, SL_OP_ADD, f1 (l, SL_OP_ABS, f1 (l, SL_OP_DDX, a.c[i])),
                       f1 (l, SL_OP_ABS, f1 (l, SL_OP_DDY, a.c[i])));
        return r;
      }
    case INTR_DEGREES: case INTR_RADIANS:
      {
        RVal a = arg_rv (l, e, 0);
        float k = id == INTR_DEGREES ? 57.29577951308232f : 0.017453292519943295f;
        for (int i = 0; i < a.n; i++)
          r.c[i] = f2 (l, SL_OP_MUL, a.c[i], fc (l, k));
        return r;
      }
    case INTR_LERP:
      {
        /* lerp(x, y, s) = x + s*(y - x) */
        RVal x = arg_rv (l, e, 0), y = arg_rv (l, e, 1), s = arg_rv (l, e, 2);
        for (int i = 0; i < x.n; i++)
          r.c[i] = f3 (l, SL_OP_MAD, s.c[i], f2 (l, SL_OP_SUB, y.c[i], x.c[i]), x.c[i]);
        return r;
      }
    case INTR_MAD:
      {
        RVal a = arg_rv (l, e, 0), b = arg_rv (l, e, 1), c = arg_rv (l, e, 2);
        for (int i = 0; i < a.n; i++)
          r.c[i] = ab == BT_FLOAT ? f3 (l, SL_OP_MAD, a.c[i], b.c[i], c.c[i])
                                  : hlsl_arith (l, '+', ab, hlsl_arith (l, '*', ab, a.c[i], b.c[i]), c.c[i]);
        return r;
      }
    case INTR_SMOOTHSTEP:
      {
        /* t = saturate((x - a) / (b - a)); t*t*(3 - 2t) */
        RVal a = arg_rv (l, e, 0), b = arg_rv (l, e, 1), x = arg_rv (l, e, 2);
        for (int i = 0; i < x.n; i++)
          {
            uint32_t t = f1 (l, SL_OP_SAT, f2 (l, SL_OP_DIV, f2 (l, SL_OP_SUB, x.c[i], a.c[i]),
                                                 f2 (l, SL_OP_SUB, b.c[i], a.c[i])));
            uint32_t k = f3 (l, SL_OP_MAD, fc (l, -2.0f), t, fc (l, 3.0f));
            r.c[i] = f2 (l, SL_OP_MUL, f2 (l, SL_OP_MUL, t, t), k);
          }
        return r;
      }
    case INTR_ISNAN: case INTR_ISINF: case INTR_ISFINITE:
      {
        RVal a = arg_rv (l, e, 0);
        for (int i = 0; i < a.n; i++)
          {
            if (id == INTR_ISNAN)
              r.c[i] = sl_ir_op1 (ir, SL_OP_ISNAN, SL_KIND_BOOL, a.c[i]);
            else if (id == INTR_ISINF)
              r.c[i] = sl_ir_op1 (ir, SL_OP_ISINF, SL_KIND_BOOL, a.c[i]);
            else
              r.c[i] = sl_ir_op1 (ir, SL_OP_NOT, SL_KIND_BOOL,
                                  sl_ir_op2 (ir, SL_OP_OR, SL_KIND_BOOL,
                                             sl_ir_op1 (ir, SL_OP_ISNAN, SL_KIND_BOOL, a.c[i]),
                                             sl_ir_op1 (ir, SL_OP_ISINF, SL_KIND_BOOL, a.c[i])));
          }
        return r;
      }
    case INTR_ALL: case INTR_ANY:
      {
        RVal a = arg_rv (l, e, 0);
        uint32_t acc = SL_IR_NONE;
        for (int i = 0; i < a.n; i++)
          {
            uint32_t b = hlsl_conv (l, a.c[i], ab, BT_BOOL);
            acc = acc == SL_IR_NONE ? b
                  : sl_ir_op2 (ir, id == INTR_ALL ? SL_OP_AND : SL_OP_OR, SL_KIND_BOOL, acc, b);
          }
        r.c[0] = acc;
        return r;
      }
    case INTR_ASFLOAT: case INTR_ASINT: case INTR_ASUINT:
      {
        RVal a = arg_rv (l, e, 0);
        for (int i = 0; i < a.n; i++)
          r.c[i] = sl_ir_op1 (ir, SL_OP_MOV, kind_of (rt->base), a.c[i]);
        return r;
      }
    case INTR_F32TOF16:
      {
        RVal a = arg_rv (l, e, 0);
        for (int i = 0; i < a.n; i++)
          r.c[i] = sl_ir_op1 (ir, SL_OP_F32TOF16, SL_KIND_UINT, a.c[i]);
        return r;
      }
    case INTR_F16TOF32:
      {
        RVal a = arg_rv (l, e, 0);
        for (int i = 0; i < a.n; i++)
          r.c[i] = sl_ir_op1 (ir, SL_OP_F16TOF32, SL_KIND_FLOAT, a.c[i]);
        return r;
      }
    case INTR_CLIP:
      {
        RVal a = arg_rv (l, e, 0);
        uint32_t any = SL_IR_NONE;
        for (int i = 0; i < a.n; i++)
          {
            uint32_t lt = f2 (l, SL_OP_LT, a.c[i], fc (l, 0.0f));
            any = any == SL_IR_NONE ? lt : sl_ir_op2 (ir, SL_OP_OR, SL_KIND_BOOL, any, lt);
          }
        sl_ir_ctrl (ir, SL_OP_DISCARD, any, 0);
        return r;
      }
    case INTR_CROSS:
      {
        RVal a = arg_rv (l, e, 0), b = arg_rv (l, e, 1);
        for (int i = 0; i < 3; i++)
          {
            int j = (i + 1) % 3, k = (i + 2) % 3;
            r.c[i] = f2 (l, SL_OP_SUB, f2 (l, SL_OP_MUL, a.c[j], b.c[k]), f2 (l, SL_OP_MUL, a.c[k], b.c[j]));
          }
        return r;
      }
    case INTR_DOT:
      {
        RVal a = arg_rv (l, e, 0), b = arg_rv (l, e, 1);
        BaseType db = e->args[0]->type->base == BT_BOOL ? BT_INT : e->args[0]->type->base;
        r.c[0] = dot_n (l, db, a, b, a.n);
        return r;
      }
    case INTR_LENGTH:
      {
        RVal a = arg_rv (l, e, 0);
        r.c[0] = f1 (l, SL_OP_SQRT, dot_n (l, BT_FLOAT, a, a, a.n));
        return r;
      }
    case INTR_DISTANCE:
      {
        RVal a = arg_rv (l, e, 0), b = arg_rv (l, e, 1);
        RVal d = map2 (l, a, b, SL_OP_SUB);
        r.c[0] = f1 (l, SL_OP_SQRT, dot_n (l, BT_FLOAT, d, d, d.n));
        return r;
      }
    case INTR_NORMALIZE:
      {
        RVal a = arg_rv (l, e, 0);
        uint32_t inv = f1 (l, SL_OP_RSQ, dot_n (l, BT_FLOAT, a, a, a.n));
        for (int i = 0; i < a.n; i++)
          r.c[i] = f2 (l, SL_OP_MUL, a.c[i], inv);
        return r;
      }
    case INTR_REFLECT:
      {
        /* i - 2 n dot(i, n) */
        RVal i_ = arg_rv (l, e, 0), n = arg_rv (l, e, 1);
        uint32_t d2 = f2 (l, SL_OP_MUL, fc (l, 2.0f), dot_n (l, BT_FLOAT, i_, n, i_.n));
        for (int k = 0; k < i_.n; k++)
          r.c[k] = f2 (l, SL_OP_SUB, i_.c[k], f2 (l, SL_OP_MUL, n.c[k], d2));
        return r;
      }
    case INTR_REFRACT:
      {
        RVal i_ = arg_rv (l, e, 0), n = arg_rv (l, e, 1), eta = arg_rv (l, e, 2);
        uint32_t d = dot_n (l, BT_FLOAT, n, i_, i_.n);
        uint32_t k = f2 (l, SL_OP_SUB, fc (l, 1.0f),
                         f2 (l, SL_OP_MUL, f2 (l, SL_OP_MUL, eta.c[0], eta.c[0]),
                             f2 (l, SL_OP_SUB, fc (l, 1.0f), f2 (l, SL_OP_MUL, d, d))));
        uint32_t ok = f2 (l, SL_OP_GE, k, fc (l, 0.0f));
        uint32_t t = f3 (l, SL_OP_MAD, eta.c[0], d, f1 (l, SL_OP_SQRT, k));
        for (int c = 0; c < i_.n; c++)
          {
            uint32_t v = f2 (l, SL_OP_SUB, f2 (l, SL_OP_MUL, eta.c[0], i_.c[c]), f2 (l, SL_OP_MUL, t, n.c[c]));
            r.c[c] = sl_ir_op3 (ir, SL_OP_SELECT, SL_KIND_FLOAT, ok, v, fc (l, 0.0f));
          }
        return r;
      }
    case INTR_FACEFORWARD:
      {
        /* -n * sign(dot(i, ng)) */
        RVal n = arg_rv (l, e, 0), i_ = arg_rv (l, e, 1), ng = arg_rv (l, e, 2);
        uint32_t neg = f2 (l, SL_OP_LT, dot_n (l, BT_FLOAT, i_, ng, i_.n), fc (l, 0.0f));
        for (int c = 0; c < n.n; c++)
          r.c[c] = sl_ir_op3 (ir, SL_OP_SELECT, SL_KIND_FLOAT, neg, n.c[c], f1 (l, SL_OP_NEG, n.c[c]));
        return r;
      }
    case INTR_LIT:
      {
        RVal nl = arg_rv (l, e, 0), nh = arg_rv (l, e, 1), m = arg_rv (l, e, 2);
        uint32_t zero = fc (l, 0.0f);
        r.c[0] = fc (l, 1.0f);
        r.c[1] = f2 (l, SL_OP_MAX, nl.c[0], zero);
        uint32_t spec_ok = sl_ir_op2 (ir, SL_OP_AND, SL_KIND_BOOL, f2 (l, SL_OP_GE, nl.c[0], zero),
                                      f2 (l, SL_OP_GE, nh.c[0], zero));
        r.c[2] = sl_ir_op3 (ir, SL_OP_SELECT, SL_KIND_FLOAT, spec_ok, f2 (l, SL_OP_POW, nh.c[0], m.c[0]), zero);
        r.c[3] = fc (l, 1.0f);
        return r;
      }
    case INTR_DST:
      {
        RVal a = arg_rv (l, e, 0), b = arg_rv (l, e, 1);
        r.c[0] = fc (l, 1.0f);
        r.c[1] = f2 (l, SL_OP_MUL, a.c[1], b.c[1]);
        r.c[2] = a.c[2];
        r.c[3] = b.c[3];
        return r;
      }
    case INTR_D3DCOLORTOUBYTE4:
      {
        RVal a = arg_rv (l, e, 0);
        static const int swz[4] = { 2, 1, 0, 3 };
        for (int i = 0; i < 4; i++)
          r.c[i] = sl_ir_op1 (ir, SL_OP_FTOI, SL_KIND_INT,
                              f2 (l, SL_OP_MUL, a.c[swz[i]], fc (l, 255.001953f)));
        return r;
      }
    case INTR_MODF:
      {
        RVal a = arg_rv (l, e, 0);
        RVal ip = map1 (l, a, SL_OP_TRUNC);
        for (int i = 0; i < a.n; i++)
          r.c[i] = f2 (l, SL_OP_SUB, a.c[i], ip.c[i]);
        hlsl_store (l, e->args[1], hlsl_cast_rval (l, ip, e->args[0]->type, e->args[1]->type));
        return r;
      }
    case INTR_FREXP:
      {
        RVal a = arg_rv (l, e, 0);
        RVal ex = rv_new (l, a.n);
        for (int i = 0; i < a.n; i++)
          {
            /* exponent from the bits; mantissa scaled into [0.5, 1) */
            uint32_t bits = sl_ir_op1 (ir, SL_OP_MOV, SL_KIND_UINT, a.c[i]);
            uint32_t ebits = sl_ir_op2 (ir, SL_OP_AND, SL_KIND_UINT,
                                        sl_ir_op2 (ir, SL_OP_USHR, SL_KIND_UINT, bits, sl_ir_const_u (ir, 23)),
                                        sl_ir_const_u (ir, 0xff));
            uint32_t e_i = sl_ir_op2 (ir, SL_OP_ISUB, SL_KIND_INT, ebits, sl_ir_const_i (ir, 126));
            uint32_t is_zero = f2 (l, SL_OP_EQ, a.c[i], fc (l, 0.0f));
            uint32_t e_f = sl_ir_op3 (ir, SL_OP_SELECT, SL_KIND_FLOAT, is_zero, fc (l, 0.0f),
                                      sl_ir_op1 (ir, SL_OP_ITOF, SL_KIND_FLOAT, e_i));
            ex.c[i] = e_f;
            uint32_t mbits = sl_ir_op2 (ir, SL_OP_OR, SL_KIND_UINT,
                                        sl_ir_op2 (ir, SL_OP_AND, SL_KIND_UINT, bits, sl_ir_const_u (ir, 0x807fffffu)),
                                        sl_ir_const_u (ir, 0x3f000000u));
            r.c[i] = sl_ir_op3 (ir, SL_OP_SELECT, SL_KIND_FLOAT, is_zero, fc (l, 0.0f), mbits);
          }
        hlsl_store (l, e->args[1], hlsl_cast_rval (l, ex, e->args[0]->type, e->args[1]->type));
        return r;
      }
    case INTR_SINCOS:
      {
        RVal a = arg_rv (l, e, 0);
        hlsl_store (l, e->args[1], hlsl_cast_rval (l, map1 (l, a, SL_OP_SIN), e->args[0]->type, e->args[1]->type));
        hlsl_store (l, e->args[2], hlsl_cast_rval (l, map1 (l, a, SL_OP_COS), e->args[0]->type, e->args[2]->type));
        return r;
      }
    case INTR_DETERMINANT:
      {
        RVal m = arg_rv (l, e, 0);
        Type *t = e->args[0]->type;
        int n = t->cls == NUM_MATRIX ? MIN (t->rows, t->cols) : 1;
        int stride = t->cls == NUM_MATRIX ? t->cols : 1;
#define M(i, j) m.c[(i) * stride + (j)]
        if (n == 1)
          r.c[0] = m.c[0];
        else if (n == 2)
          r.c[0] = f2 (l, SL_OP_SUB, f2 (l, SL_OP_MUL, M (0, 0), M (1, 1)), f2 (l, SL_OP_MUL, M (0, 1), M (1, 0)));
        else
          {
            /* Laplace expansion along the first row, recursively. */
            uint32_t acc = SL_IR_NONE;
            for (int c = 0; c < n; c++)
              {
                int sub_n = n - 1;
                RVal sub = rv_new (l, sub_n * sub_n);
                for (int i = 1; i < n; i++)
                  for (int j = 0, k = 0; j < n; j++)
                    if (j != c)
                      sub.c[(i - 1) * sub_n + k++] = M (i, j);
                uint32_t minor;
                if (sub_n == 2)
                  minor = f2 (l, SL_OP_SUB, f2 (l, SL_OP_MUL, sub.c[0], sub.c[3]), f2 (l, SL_OP_MUL, sub.c[1], sub.c[2]));
                else
                  {
                    minor = SL_IR_NONE;
                    for (int c2 = 0; c2 < 3; c2++)
                      {
                        int a1 = (c2 + 1) % 3, a2 = (c2 + 2) % 3;
                        int lo = MIN (a1, a2), hi = MAX (a1, a2);
                        uint32_t m2 = f2 (l, SL_OP_SUB, f2 (l, SL_OP_MUL, sub.c[3 + lo], sub.c[6 + hi]),
                                          f2 (l, SL_OP_MUL, sub.c[3 + hi], sub.c[6 + lo]));
                        uint32_t term = f2 (l, SL_OP_MUL, sub.c[c2], m2);
                        if (c2 == 1)
                          term = f1 (l, SL_OP_NEG, term);
                        minor = minor == SL_IR_NONE ? term : f2 (l, SL_OP_ADD, minor, term);
                      }
                  }
                uint32_t term = f2 (l, SL_OP_MUL, M (0, c), minor);
                if (c & 1)
                  term = f1 (l, SL_OP_NEG, term);
                acc = acc == SL_IR_NONE ? term : f2 (l, SL_OP_ADD, acc, term);
              }
            r.c[0] = acc;
          }
#undef M
        return r;
      }
    case INTR_TRANSPOSE:
      {
        RVal m = arg_rv (l, e, 0);
        Type *t = e->args[0]->type;
        if (t->cls != NUM_MATRIX)
          return m;
        for (int i = 0; i < t->rows; i++)
          for (int j = 0; j < t->cols; j++)
            r.c[j * t->rows + i] = m.c[i * t->cols + j];
        return r;
      }
    case INTR_MUL:
      {
        Type *x = e->args[0]->type, *y = e->args[1]->type;
        RVal a = arg_rv (l, e, 0), b = arg_rv (l, e, 1);
        BaseType mb = rt->base;
        if (x->n_comp == 1 || y->n_comp == 1)
          {
            for (int i = 0; i < r.n; i++)
              r.c[i] = hlsl_arith (l, '*', mb, a.c[a.n == 1 ? 0 : i], b.c[b.n == 1 ? 0 : i]);
            return r;
          }
        int xr = x->cls == NUM_VECTOR ? 1 : x->rows, inner = x->cols;
        int yc = y->cls == NUM_VECTOR ? 1 : y->cols;
        for (int i = 0; i < xr; i++)
          for (int j = 0; j < yc; j++)
            {
              RVal row = { a.c + i * inner, inner };
              RVal col = rv_new (l, inner);
              for (int k = 0; k < inner; k++)
                col.c[k] = b.c[k * yc + j];
              r.c[i * yc + j] = dot_n (l, mb, row, col, inner);
            }
        return r;
      }
    default:
      hlsl_lower_error (l, e->loc, "intrinsic is not supported yet");
      return r;
    }
}
