/* Intrinsic lowering: the lowering rules the rows of hlsl_intrinsics.def
 * name, one lower_… function per class of intrinsics.
 *
 * Each rule emits the IR of one call from its already typed and converted
 * arguments (hlsl_intrinsics.c saw to that) and takes the row's ARG
 * column.  Some follow fxc's expansions rather than the IR's exact
 * operations (fmod, asin, acos, atan2), because the conformance corpus
 * encodes their results; texture reads become SAMPLE and TEXSIZE
 * instructions on provisional objects, given their slots by hlsl_lower(). */
#include "hlsl/hlsl_lower.h"

#include <string.h>

typedef RVal (*LowerRule) (L *l, Node *e, int arg);

#define SL_INTRINSIC(id, name, nmin, nmax, kind, sm, params, result, typing, lowering, arg) \
  static RVal lower_##lowering (L *l, Node *e, int arg_);
#include "hlsl/hlsl_intrinsics.def"
#undef SL_INTRINSIC

#define NOT_PS (-1)

static const struct
{
  const char *name;
  int         sm;
  LowerRule   lower;
  int         arg;
} lowerings[] = {
#define SL_INTRINSIC(id, name, nmin, nmax, kind, sm, params, result, typing, lowering, arg) \
  { name, sm, lower_##lowering, arg },
#include "hlsl/hlsl_intrinsics.def"
#undef SL_INTRINSIC
};

static RVal zeros (L *l, Node *e);
static bool require_model (L *l, Node *e, int need);

/* ---- helpers -------------------------------------------------------------- */

static RVal
arg_rv (L *l, Node *e, int i)
{
  return hlsl_lower_expr (l, e->args[i]);
}

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

static bool
const_offsets (L *l, Node *arg, int nc, int8_t out[3])
{
  RVal o = hlsl_lower_expr (l, arg);
  for (int i = 0; i < nc && i < o.n; i++)
    {
      int32_t k;
      int64_t x;
      if (hlsl_const_int (l, o.c[i], &k))
        ;
      else if (hlsl_exact (l, o.c[i], &x))
        k = (int32_t) CLAMP (x, INT32_MIN, INT32_MAX);
      else
        {
          hlsl_lower_error (l, arg->loc, SL_DIAG_HLSL_OFFSET_NOT_CONSTANT, "texel offsets must be constant");
          return false;
        }
      if (k < -8 || k > 7)
        {
          /* The sample instructions hold 4-bit signed offsets. */
          hlsl_lower_error (l, arg->loc, SL_DIAG_HLSL_OFFSET_RANGE,
                            "texel offsets range from -8 to 7, not %d", k);
          return false;
        }
      out[i] = (int8_t) k;
    }
  return true;
}

static bool texel_offsets (L *l, Node *arg, int obj, uint32_t *coords, int8_t out[3]);

/* ---- component-wise rules -------------------------------------------------- */

/* @op on each component of the argument, in the result's type. */
static RVal
map_to_result (L *l, Node *e, SlOp op)
{
  RVal a = arg_rv (l, e, 0);
  RVal r = rv_new (l, a.n);
  SlKind k = kind_for (l, e->type->base);
  for (int i = 0; i < a.n; i++)
    r.c[i] = sl_ir_op1 (l->ir, op, k, a.c[i]);
  return r;
}

/* One IR operation (ARG) per component. */
static RVal
lower_map (L *l, Node *e, int arg)
{
  return map_to_result (l, e, (SlOp) arg);
}

/* asfloat, asint, asuint: the same bits as the result type. */
static RVal
lower_reinterpret (L *l, Node *e, int arg)
{
  return map_to_result (l, e, SL_OP_MOV);
}

/* A float operation (ARG) of two arguments per component. */
static RVal
lower_map2 (L *l, Node *e, int arg)
{
  return map2 (l, arg_rv (l, e, 0), arg_rv (l, e, 1), (SlOp) arg);
}

static RVal
lower_abs (L *l, Node *e, int arg)
{
  SlIr *ir = l->ir;
  Type *rt = e->type;
  BaseType ab = op_base (l, e->n_args ? e->args[0]->type->base : BT_FLOAT);
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  RVal a = arg_rv (l, e, 0);
  for (int i = 0; i < a.n; i++)
    r.c[i] = ab == BT_FLOAT ? f1 (l, SL_OP_ABS, a.c[i])
             : ab == BT_INT ? sl_ir_op1 (ir, SL_OP_IABS, SL_KIND_INT, a.c[i]) : a.c[i];
  return r;
}

/* min and max (ARG: the float operation) in the arguments' type. */
static RVal
lower_minmax (L *l, Node *e, int arg)
{
  SlIr *ir = l->ir;
  Type *rt = e->type;
  BaseType ab = op_base (l, e->n_args ? e->args[0]->type->base : BT_FLOAT);
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  RVal a = arg_rv (l, e, 0), b = arg_rv (l, e, 1);
  bool mn = arg == SL_OP_MIN;
  SlOp op = ab == BT_FLOAT ? (mn ? SL_OP_MIN : SL_OP_MAX)
            : ab == BT_UINT ? (mn ? SL_OP_UMIN : SL_OP_UMAX)
            : (mn ? SL_OP_IMIN : SL_OP_IMAX);
  for (int i = 0; i < a.n; i++)
    r.c[i] = sl_ir_op2 (ir, op, kind_of (ab), a.c[i], b.c[i]);
  return r;
}

static RVal
lower_clamp (L *l, Node *e, int arg)
{
  SlIr *ir = l->ir;
  Type *rt = e->type;
  BaseType ab = op_base (l, e->n_args ? e->args[0]->type->base : BT_FLOAT);
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  RVal a = arg_rv (l, e, 0), lo = arg_rv (l, e, 1), hi = arg_rv (l, e, 2);
  SlOp mx = ab == BT_FLOAT ? SL_OP_MAX : ab == BT_UINT ? SL_OP_UMAX : SL_OP_IMAX;
  SlOp mn = ab == BT_FLOAT ? SL_OP_MIN : ab == BT_UINT ? SL_OP_UMIN : SL_OP_IMIN;
  for (int i = 0; i < a.n; i++)
    r.c[i] = sl_ir_op2 (ir, mn, kind_of (ab), sl_ir_op2 (ir, mx, kind_of (ab), a.c[i], lo.c[i]), hi.c[i]);
  return r;
}

static RVal
lower_sign (L *l, Node *e, int arg)
{
  SlIr *ir = l->ir;
  Type *rt = e->type;
  BaseType ab = op_base (l, e->n_args ? e->args[0]->type->base : BT_FLOAT);
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  RVal a = arg_rv (l, e, 0);
  for (int i = 0; i < a.n; i++)
    {
      if (ab == BT_FLOAT)
        r.c[i] = hlsl_conv (l, f1 (l, SL_OP_SIGN, a.c[i]), BT_FLOAT, BT_INT);
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

/* asin (ARG: SL_OP_ASIN) and acos as fxc expands them. */
static RVal
lower_inverse_trig (L *l, Node *e, int arg)
{
  return fxc_inverse_trig (l, arg_rv (l, e, 0), arg == SL_OP_ASIN);
}

static RVal
lower_atan2 (L *l, Node *e, int arg)
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

static RVal
lower_log10 (L *l, Node *e, int arg)
{
  RVal a = map1 (l, arg_rv (l, e, 0), SL_OP_LOG2);
  for (int i = 0; i < a.n; i++)
    a.c[i] = f2 (l, SL_OP_MUL, a.c[i], fc (l, 0.301029995663981f));
  return a;
}

static RVal
lower_fmod (L *l, Node *e, int arg)
{
  RVal x = arg_rv (l, e, 0), y = arg_rv (l, e, 1);
  RVal rem = rv_new (l, x.n);
  for (int i = 0; i < x.n; i++)
    rem.c[i] = hlsl_fxc_fmod (l, x.c[i], y.c[y.n == 1 ? 0 : i]);
  return rem;
}

static RVal
lower_fwidth (L *l, Node *e, int arg)
{
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  RVal a = arg_rv (l, e, 0);
  for (int i = 0; i < a.n; i++)
    r.c[i] = f2 (l, SL_OP_ADD, f1 (l, SL_OP_ABS, f1 (l, SL_OP_DDX, a.c[i])),
                 f1 (l, SL_OP_ABS, f1 (l, SL_OP_DDY, a.c[i])));
  return r;
}

/* Each component times @k. */
static RVal
scale (L *l, Node *e, float k)
{
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  RVal a = arg_rv (l, e, 0);
  for (int i = 0; i < a.n; i++)
    r.c[i] = f2 (l, SL_OP_MUL, a.c[i], fc (l, k));
  return r;
}

static RVal
lower_degrees (L *l, Node *e, int arg)
{
  return scale (l, e, 57.29577951308232f);
}

static RVal
lower_radians (L *l, Node *e, int arg)
{
  return scale (l, e, 0.017453292519943295f);
}

static RVal
lower_lerp (L *l, Node *e, int arg)
{
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  /* lerp(x, y, s) = x + s*(y - x) */
  RVal x = arg_rv (l, e, 0), y = arg_rv (l, e, 1), s = arg_rv (l, e, 2);
  for (int i = 0; i < x.n; i++)
    r.c[i] = f3 (l, SL_OP_MAD, s.c[i], f2 (l, SL_OP_SUB, y.c[i], x.c[i]), x.c[i]);
  return r;
}

static RVal
lower_mad (L *l, Node *e, int arg)
{
  Type *rt = e->type;
  BaseType ab = op_base (l, e->n_args ? e->args[0]->type->base : BT_FLOAT);
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  RVal a = arg_rv (l, e, 0), b = arg_rv (l, e, 1), c = arg_rv (l, e, 2);
  for (int i = 0; i < a.n; i++)
    r.c[i] = ab == BT_FLOAT ? f3 (l, SL_OP_MAD, a.c[i], b.c[i], c.c[i])
                            : hlsl_arith (l, '+', ab, hlsl_arith (l, '*', ab, a.c[i], b.c[i]), c.c[i]);
  return r;
}

static RVal
lower_smoothstep (L *l, Node *e, int arg)
{
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
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

/* Neither NaN nor infinite. */
static RVal
lower_isfinite (L *l, Node *e, int arg)
{
  SlIr *ir = l->ir;
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  RVal a = arg_rv (l, e, 0);
  for (int i = 0; i < a.n; i++)
    r.c[i] = sl_ir_op1 (ir, SL_OP_NOT, SL_KIND_BOOL,
                        sl_ir_op2 (ir, SL_OP_OR, SL_KIND_BOOL,
                                   sl_ir_op1 (ir, SL_OP_ISNAN, SL_KIND_BOOL, a.c[i]),
                                   sl_ir_op1 (ir, SL_OP_ISINF, SL_KIND_BOOL, a.c[i])));
  return r;
}

/* all and any: the components as bools, combined by ARG (AND, OR). */
static RVal
lower_reduce (L *l, Node *e, int arg)
{
  SlIr *ir = l->ir;
  Type *rt = e->type;
  BaseType ab = e->n_args ? e->args[0]->type->base : BT_FLOAT;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  RVal a = arg_rv (l, e, 0);
  uint32_t acc = SL_IR_NONE;
  for (int i = 0; i < a.n; i++)
    {
      uint32_t b = hlsl_conv (l, a.c[i], ab, BT_BOOL);
      acc = acc == SL_IR_NONE ? b : sl_ir_op2 (ir, (SlOp) arg, SL_KIND_BOOL, acc, b);
    }
  r.c[0] = acc;
  return r;
}

static RVal
lower_clip (L *l, Node *e, int arg)
{
  SlIr *ir = l->ir;
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
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

/* ---- vectors and matrices -------------------------------------------------- */

static RVal
lower_cross (L *l, Node *e, int arg)
{
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  RVal a = arg_rv (l, e, 0), b = arg_rv (l, e, 1);
  for (int i = 0; i < 3; i++)
    {
      int j = (i + 1) % 3, k = (i + 2) % 3;
      r.c[i] = f2 (l, SL_OP_SUB, f2 (l, SL_OP_MUL, a.c[j], b.c[k]), f2 (l, SL_OP_MUL, a.c[k], b.c[j]));
    }
  return r;
}

static RVal
lower_dot (L *l, Node *e, int arg)
{
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  RVal a = arg_rv (l, e, 0), b = arg_rv (l, e, 1);
  BaseType db = op_base (l, e->args[0]->type->base == BT_BOOL ? BT_INT : e->args[0]->type->base);
  r.c[0] = dot_n (l, db, a, b, a.n);
  return r;
}

static RVal
lower_length (L *l, Node *e, int arg)
{
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  RVal a = arg_rv (l, e, 0);
  r.c[0] = f1 (l, SL_OP_SQRT, dot_n (l, BT_FLOAT, a, a, a.n));
  return r;
}

static RVal
lower_distance (L *l, Node *e, int arg)
{
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  RVal a = arg_rv (l, e, 0), b = arg_rv (l, e, 1);
  RVal d = map2 (l, a, b, SL_OP_SUB);
  r.c[0] = f1 (l, SL_OP_SQRT, dot_n (l, BT_FLOAT, d, d, d.n));
  return r;
}

static RVal
lower_normalize (L *l, Node *e, int arg)
{
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  RVal a = arg_rv (l, e, 0);
  uint32_t inv = f1 (l, SL_OP_RSQ, dot_n (l, BT_FLOAT, a, a, a.n));
  for (int i = 0; i < a.n; i++)
    r.c[i] = f2 (l, SL_OP_MUL, a.c[i], inv);
  return r;
}

static RVal
lower_reflect (L *l, Node *e, int arg)
{
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  /* i - 2 n dot(i, n) */
  RVal i_ = arg_rv (l, e, 0), n = arg_rv (l, e, 1);
  uint32_t d2 = f2 (l, SL_OP_MUL, fc (l, 2.0f), dot_n (l, BT_FLOAT, i_, n, i_.n));
  for (int k = 0; k < i_.n; k++)
    r.c[k] = f2 (l, SL_OP_SUB, i_.c[k], f2 (l, SL_OP_MUL, n.c[k], d2));
  return r;
}

static RVal
lower_refract (L *l, Node *e, int arg)
{
  SlIr *ir = l->ir;
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
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

static RVal
lower_faceforward (L *l, Node *e, int arg)
{
  SlIr *ir = l->ir;
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  /* -n * sign(dot(i, ng)) */
  RVal n = arg_rv (l, e, 0), i_ = arg_rv (l, e, 1), ng = arg_rv (l, e, 2);
  uint32_t neg = f2 (l, SL_OP_LT, dot_n (l, BT_FLOAT, i_, ng, i_.n), fc (l, 0.0f));
  for (int c = 0; c < n.n; c++)
    r.c[c] = sl_ir_op3 (ir, SL_OP_SELECT, SL_KIND_FLOAT, neg, n.c[c], f1 (l, SL_OP_NEG, n.c[c]));
  return r;
}

static RVal
lower_lit (L *l, Node *e, int arg)
{
  SlIr *ir = l->ir;
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
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

static RVal
lower_dst (L *l, Node *e, int arg)
{
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  RVal a = arg_rv (l, e, 0), b = arg_rv (l, e, 1);
  r.c[0] = fc (l, 1.0f);
  r.c[1] = f2 (l, SL_OP_MUL, a.c[1], b.c[1]);
  r.c[2] = a.c[2];
  r.c[3] = b.c[3];
  return r;
}

static RVal
lower_d3dcolor (L *l, Node *e, int arg)
{
  SlIr *ir = l->ir;
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  RVal a = arg_rv (l, e, 0);
  static const int swz[4] = { 2, 1, 0, 3 };
  /* Below SM 4 the int4 is a float4 that nothing truncates: fxc's
   * expansion is the scaling alone. */
  for (int i = 0; i < 4; i++)
    {
      uint32_t scaled = f2 (l, SL_OP_MUL, a.c[swz[i]], fc (l, 255.001953f));
      r.c[i] = l->float_ints ? scaled : sl_ir_op1 (ir, SL_OP_FTOI, SL_KIND_INT, scaled);
    }
  return r;
}

static RVal
lower_modf (L *l, Node *e, int arg)
{
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  RVal a = arg_rv (l, e, 0);
  RVal ip = map1 (l, a, SL_OP_TRUNC);
  for (int i = 0; i < a.n; i++)
    r.c[i] = f2 (l, SL_OP_SUB, a.c[i], ip.c[i]);
  hlsl_store (l, e->args[1], hlsl_cast_rval (l, ip, e->args[0]->type, e->args[1]->type));
  return r;
}

static RVal
lower_frexp (L *l, Node *e, int arg)
{
  SlIr *ir = l->ir;
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
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

static RVal
lower_sincos (L *l, Node *e, int arg)
{
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  RVal a = arg_rv (l, e, 0);
  hlsl_store (l, e->args[1], hlsl_cast_rval (l, map1 (l, a, SL_OP_SIN), e->args[0]->type, e->args[1]->type));
  hlsl_store (l, e->args[2], hlsl_cast_rval (l, map1 (l, a, SL_OP_COS), e->args[0]->type, e->args[2]->type));
  return r;
}

static RVal
lower_determinant (L *l, Node *e, int arg)
{
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
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

static RVal
lower_transpose (L *l, Node *e, int arg)
{
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  RVal m = arg_rv (l, e, 0);
  Type *t = e->args[0]->type;
  if (t->cls != NUM_MATRIX)
    return m;
  for (int i = 0; i < t->rows; i++)
    for (int j = 0; j < t->cols; j++)
      r.c[j * t->rows + i] = m.c[i * t->cols + j];
  return r;
}

static RVal
lower_mul (L *l, Node *e, int arg)
{
  Type *rt = e->type;
  RVal r = rv_new (l, rt->kind == TY_NUM ? rt->n_comp : 0);
  Type *x = e->args[0]->type, *y = e->args[1]->type;
  RVal a = arg_rv (l, e, 0), b = arg_rv (l, e, 1);
  BaseType mb = op_base (l, rt->base);
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

/* ---- D3D9 texture reads --------------------------------------------------- */

enum { TEX_PLAIN, TEX_BIAS, TEX_GRAD, TEX_LOD, TEX_PROJ };

/* tex1D … texCUBEproj; the parser put the texture dimension in
 * sampler_obj. */
static RVal
tex_read (L *l, Node *e, int variant)
{
  int dim = e->sampler_obj;
  int nc = dim == SL_TEXTURE_1D ? 1 : dim == SL_TEXTURE_2D ? 2 : 3;
  int obj = hlsl_lower_object (l, e->args[0]);
  RVal c = hlsl_lower_expr (l, e->args[1]);
  uint32_t srcs[SL_IR_MAX_SRC];
  int n = 0;
  SlSampleMode mode = SL_SAMPLE_IMPLICIT;
  if (variant == TEX_PROJ)   /* divide by w */
    {
      uint32_t w = c.c[3];
      for (int i = 0; i < nc; i++)
        srcs[n++] = f2 (l, SL_OP_DIV, c.c[i], w);
    }
  else
    for (int i = 0; i < nc; i++)
      srcs[n++] = c.c[i];
  if (variant == TEX_BIAS)        /* t.w */
    {
      srcs[n++] = c.c[3];
      mode = SL_SAMPLE_BIAS;
    }
  else if (variant == TEX_LOD)    /* t.w */
    {
      srcs[n++] = c.c[3];
      mode = SL_SAMPLE_LOD;
    }
  int8_t off[3] = { 0, 0, 0 };
  if (e->n_args == 3 && (variant == TEX_PLAIN || variant == TEX_LOD))
    {
      /* ReShade's offset forms (the parser allows them only there) */
      if (!texel_offsets (l, e->args[2], obj, srcs, off))
        return rv_new (l, 4);
      if (variant == TEX_LOD)
        {
          srcs[n++] = c.c[3];
          mode = SL_SAMPLE_LOD;
        }
    }
  else if (variant == TEX_GRAD || (variant == TEX_PLAIN && e->n_args == 4))
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

/* The gradient form tex2D(s, t, ddx, ddy) is texldd, from ps_2_x. */
static RVal
lower_tex (L *l, Node *e, int arg)
{
  if (e->n_args == 4 && !require_model (l, e, 21))
    return zeros (l, e);
  return tex_read (l, e, TEX_PLAIN);
}

static RVal
lower_tex_bias (L *l, Node *e, int arg)
{
  return tex_read (l, e, TEX_BIAS);
}

static RVal
lower_tex_grad (L *l, Node *e, int arg)
{
  return tex_read (l, e, TEX_GRAD);
}

static RVal
lower_tex_lod (L *l, Node *e, int arg)
{
  return tex_read (l, e, TEX_LOD);
}

static RVal
lower_tex_proj (L *l, Node *e, int arg)
{
  return tex_read (l, e, TEX_PROJ);
}

/* ---- methods of texture objects ------------------------------------------- */

static int
coord_count (int dim)
{
  return dim == SL_TEXTURE_1D ? 1 : dim == SL_TEXTURE_2D ? 2 : 3;
}

/* Sample and its variants (ARG: the sampling mode). */
static RVal
lower_sample (L *l, Node *e, int arg)
{
  int dim = e->sampler_obj, nc = coord_count (dim);
  int tex = hlsl_lower_object (l, e->a);
  uint32_t srcs[SL_IR_MAX_SRC];
  int n = 0;
  int8_t off[3] = { 0, 0, 0 };
  int samp = hlsl_lower_object (l, e->args[0]);
  RVal c = hlsl_lower_expr (l, e->args[1]);
  for (int i = 0; i < nc; i++)
    srcs[n++] = c.c[i];
  SlSampleMode mode = (SlSampleMode) arg;
  int next_arg = 2;
  if (mode == SL_SAMPLE_BIAS || mode == SL_SAMPLE_LOD || mode == SL_SAMPLE_COMPARE)
    {
      /* the bias, level or reference value */
      srcs[n++] = hlsl_lower_expr (l, e->args[2]).c[0];
      next_arg = 3;
    }
  else if (mode == SL_SAMPLE_GRAD)
    {
      RVal dx = hlsl_lower_expr (l, e->args[2]), dy = hlsl_lower_expr (l, e->args[3]);
      for (int i = 0; i < nc; i++)
        srcs[n++] = dx.c[i];
      for (int i = 0; i < nc; i++)
        srcs[n++] = dy.c[i];
      next_arg = 4;
    }
  if (e->n_args > next_arg)
    const_offsets (l, e->args[next_arg], nc, off);
  int n_res = mode == SL_SAMPLE_COMPARE ? 1 : 4;
  if (l->sm < 40 && tex != samp)
    tex = samp = hlsl_combined_ref (l, tex, samp);
  return emit_sample (l, tex, samp, dim, mode, srcs, n, off, n_res);
}

static RVal
lower_load (L *l, Node *e, int arg)
{
  int dim = e->sampler_obj, nc = coord_count (dim);
  int tex = hlsl_lower_object (l, e->a);
  uint32_t srcs[SL_IR_MAX_SRC];
  int n = 0;
  int8_t off[3] = { 0, 0, 0 };
  RVal c = hlsl_lower_expr (l, e->args[0]);
  for (int i = 0; i <= nc; i++)
    srcs[n++] = hlsl_real_int (l, c.c[i]);
  if (e->n_args > 1)
    const_offsets (l, e->args[1], nc, off);
  return emit_sample (l, tex, tex, dim, SL_SAMPLE_LOAD, srcs, n, off, 4);
}

/* GetDimensions([mip,] width [, height [, depth]] [, levels]); a cube
 * has two sizes, like its faces. */
static RVal
lower_get_dimensions (L *l, Node *e, int arg)
{
  int dim = e->sampler_obj;
  int nc = dim == SL_TEXTURE_1D ? 1 : dim == SL_TEXTURE_3D ? 3 : 2;
  int tex = hlsl_lower_object (l, e->a);
  int first = 0;
  uint32_t level = sl_ir_const_i (l->ir, 0);
  int n_out = e->n_args;
  if (e->n_args == nc + 2)
    {
      RVal m = hlsl_lower_expr (l, e->args[0]);
      level = hlsl_real_int (l, hlsl_conv (l, m.c[0], e->args[0]->type->base, BT_INT));
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

/* ---- ReShade's sampler intrinsics ----------------------------------------- */

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

/* The texel offset of one of ReShade's reads: constant ones go to the
 * sampler (@out); ReShade also takes them computed at run time, which
 * move @coords (u, v) by whole texels of level 0 instead. */
static bool
texel_offsets (L *l, Node *arg, int obj, uint32_t *coords, int8_t out[3])
{
  RVal o = hlsl_lower_expr (l, arg);
  bool constant = true;
  for (int i = 0; i < 2 && i < o.n; i++)
    constant &= sl_ir_value (l->ir, o.c[i])->cls == SL_VALUE_CONST;
  if (constant)
    {
      for (int i = 0; i < 2 && i < o.n; i++)
        out[i] = (int8_t) CLAMP ((int32_t) sl_ir_value (l->ir, o.c[i])->bits, -8, 7);
      return true;
    }
  uint32_t size[2];
  texture_size (l, obj, sl_ir_const_i (l->ir, 0), &size[0], &size[1]);
  for (int i = 0; i < 2 && i < o.n; i++)
    coords[i] = f2 (l, SL_OP_ADD, coords[i],
                    f2 (l, SL_OP_DIV, hlsl_conv (l, o.c[i], arg->type->base, BT_FLOAT),
                        hlsl_conv (l, size[i], BT_UINT, BT_FLOAT)));
  return true;
}

/* tex2Dfetch, tex3Dfetch (@arg SL_TEXTURE_3D): texel coordinates, then
 * the level (the w of an int4, or the third argument, or 0). */
static RVal
lower_rs_fetch (L *l, Node *e, int arg)
{
  int dim = arg == SL_TEXTURE_3D ? SL_TEXTURE_3D : SL_TEXTURE_2D, nc = dim == SL_TEXTURE_3D ? 3 : 2;
  int obj = hlsl_lower_object (l, e->args[0]);
  uint32_t srcs[SL_IR_MAX_SRC];
  RVal c = hlsl_lower_expr (l, e->args[1]);
  for (int i = 0; i < nc; i++)
    srcs[i] = c.c[i];
  srcs[nc] = c.n >= 4 ? c.c[3] : e->n_args > 2 ? hlsl_lower_expr (l, e->args[2]).c[0] : sl_ir_const_i (l->ir, 0);
  return emit_sample (l, obj, obj, dim, SL_SAMPLE_LOAD, srcs, nc + 1, NULL, 4);
}

/* countbits: the classic parallel bit count, per component. */
static RVal
lower_countbits (L *l, Node *e, int arg)
{
  SlIr *ir = l->ir;
  RVal a = arg_rv (l, e, 0);
  RVal r = rv_new (l, a.n);
  for (int i = 0; i < a.n; i++)
    {
      uint32_t x = a.c[i];
      uint32_t h = sl_ir_op2 (ir, SL_OP_AND, SL_KIND_UINT, sl_ir_op2 (ir, SL_OP_USHR, SL_KIND_UINT, x, sl_ir_const_u (ir, 1)),
                              sl_ir_const_u (ir, 0x55555555u));
      x = hlsl_arith (l, '-', BT_UINT, x, h);
      uint32_t m2 = sl_ir_const_u (ir, 0x33333333u);
      x = hlsl_arith (l, '+', BT_UINT, sl_ir_op2 (ir, SL_OP_AND, SL_KIND_UINT, x, m2),
                      sl_ir_op2 (ir, SL_OP_AND, SL_KIND_UINT,
                                 sl_ir_op2 (ir, SL_OP_USHR, SL_KIND_UINT, x, sl_ir_const_u (ir, 2)), m2));
      x = sl_ir_op2 (ir, SL_OP_AND, SL_KIND_UINT,
                     hlsl_arith (l, '+', BT_UINT, x, sl_ir_op2 (ir, SL_OP_USHR, SL_KIND_UINT, x, sl_ir_const_u (ir, 4))),
                     sl_ir_const_u (ir, 0x0f0f0f0fu));
      x = hlsl_arith (l, '*', BT_UINT, x, sl_ir_const_u (ir, 0x01010101u));
      r.c[i] = sl_ir_op2 (ir, SL_OP_USHR, SL_KIND_UINT, x, sl_ir_const_u (ir, 24));
    }
  return r;
}

static RVal
lower_rs_size (L *l, Node *e, int arg)
{
  int obj = hlsl_lower_object (l, e->args[0]);
  uint32_t level = e->n_args > 1 ? hlsl_lower_expr (l, e->args[1]).c[0] : sl_ir_const_i (l->ir, 0);
  uint32_t w, h;
  texture_size (l, obj, level, &w, &h);
  RVal r = rv_new (l, 2);
  r.c[0] = hlsl_conv (l, w, BT_UINT, BT_INT);
  r.c[1] = hlsl_conv (l, h, BT_UINT, BT_INT);
  return r;
}

/* tex2Doffset and tex2Dlodoffset */
static RVal
offset_read (L *l, Node *e, bool lod)
{
  int obj = hlsl_lower_object (l, e->args[0]);
  uint32_t srcs[SL_IR_MAX_SRC];
  int8_t off[3] = { 0, 0, 0 };
  RVal c = hlsl_lower_expr (l, e->args[1]);
  srcs[0] = c.c[0];
  srcs[1] = c.c[1];
  if (!texel_offsets (l, e->args[2], obj, srcs, off))
    return rv_new (l, 4);
  if (!lod)
    return emit_sample (l, obj, obj, SL_TEXTURE_2D, SL_SAMPLE_IMPLICIT, srcs, 2, off, 4);
  srcs[2] = c.c[3];
  return emit_sample (l, obj, obj, SL_TEXTURE_2D, SL_SAMPLE_LOD, srcs, 3, off, 4);
}

static RVal
lower_rs_offset (L *l, Node *e, int arg)
{
  return offset_read (l, e, false);
}

static RVal
lower_rs_lod_offset (L *l, Node *e, int arg)
{
  return offset_read (l, e, true);
}

/* Gather has no sampling mode of its own: it samples level 0 at the
 * centres of the four texels of the bilinear footprint, which a linear or
 * point filter returns unweighted (up to a rounding of about 1e-7 of the
 * texel difference) and which the sampler's address modes wrap or clamp
 * as D3D's Gather does.  @comp < 0: the component is argument 2. */
static RVal
gather (L *l, Node *e, int comp)
{
  int obj = hlsl_lower_object (l, e->args[0]);
  int8_t off[3] = { 0, 0, 0 };
  int off_arg = 2;
  if (comp < 0)
    {
      RVal cv = hlsl_lower_expr (l, e->args[2]);
      const SlValue *v = sl_ir_value (l->ir, cv.c[0]);
      if (v->cls != SL_VALUE_CONST || (int32_t) v->bits < 0 || (int32_t) v->bits > 3)
        {
          hlsl_lower_error (l, e->args[2]->loc, SL_DIAG_HLSL_GATHER_COMPONENT,
                            "the component of 'tex2Dgather' must be a constant 0 to 3");
          return rv_new (l, 4);
        }
      comp = (int32_t) v->bits;
      off_arg = 3;
    }
  RVal c = hlsl_lower_expr (l, e->args[1]);
  if (e->n_args > off_arg && !texel_offsets (l, e->args[off_arg], obj, c.c, off))
    return rv_new (l, 4);
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
lower_rs_gather (L *l, Node *e, int arg)
{
  return gather (l, e, -1);
}

/* tex2DgatherR…A (ARG: the component) */
static RVal
lower_rs_gather_comp (L *l, Node *e, int arg)
{
  return gather (l, e, arg);
}

/* The zero a call gives after a diagnostic. */
static RVal
zeros (L *l, Node *e)
{
  Type *rt = e->type;
  int n = rt->kind == TY_NUM ? rt->n_comp : 0;
  RVal r = rv_new (l, n);
  for (int i = 0; i < n; i++)
    r.c[i] = zero_of (l, rt->base);
  return r;
}

/* Rows that are never lowered: the profile check refuses them first. */
static RVal
lower_unavailable (L *l, Node *e, int arg)
{
  return zeros (l, e);
}

static const char *
model_name (int sm)
{
  switch (sm)
    {
    case 11: return "ps_1_1";
    case 12: return "ps_1_2";
    case 13: return "ps_1_3";
    case 14: return "ps_1_4";
    case 20: return "ps_2_0";
    case 21: return "ps_2_x";
    case 30: return "ps_3_0";
    case 40: return "ps_4_0";
    case 41: return "ps_4_1";
    case 50: return "ps_5_0";
    default: return "this profile";
    }
}

/* Whether the target has what the call needs (shader model @need);
 * reports it otherwise.  ReShade FX keeps its own rules, and without a
 * named profile every intrinsic the runtime implements is available. */
static bool
require_model (L *l, Node *e, int need)
{
  const char *name = lowerings[e->op].name;
  if (l->u->reshade)
    return true;
  if (need == NOT_PS)
    {
      hlsl_lower_error (l, e->loc, SL_DIAG_HLSL_INTRINSIC_NOT_PIXEL,
                        "'%s' is not available in pixel shaders", name);
      return false;
    }
  if (l->sm >= need || !l->u->fxc_profile)
    return true;
  hlsl_lower_error (l, e->loc, SL_DIAG_HLSL_INTRINSIC_PROFILE,
                    "'%s' needs %s or later; the target is %s", name, model_name (need),
                    model_name (l->sm));
  return false;
}

RVal
hlsl_lower_intrinsic (L *l, Node *e)
{
  if (!require_model (l, e, lowerings[e->op].sm))
    return zeros (l, e);
  return lowerings[e->op].lower (l, e, lowerings[e->op].arg);
}
