/* Intrinsic typing: the table of HLSL intrinsics and the typing rules it
 * names.
 *
 * Each row of hlsl_intrinsics.def gives an intrinsic's arity, where it may
 * be called (as a function, as a texture method, under ReShade FX only)
 * and its typing rule: a type_… function here that checks the arguments,
 * converts each to the type the intrinsic computes in (explicit N_CAST
 * nodes, as everywhere in the parser) and returns the call's type, or
 * TY_ERROR after a diagnostic.  Rules are shared by the intrinsics of one
 * class, and take the row's ARG column.  hlsl_intrinsic_call() does what
 * is common to all calls: lookup, the method/function distinction, the
 * argument count and the sampler checks, then the row's rule. */
#include "hlsl/hlsl_parse.h"

#include <string.h>

typedef Type *(*TypeRule) (P *p, Node *call, int arg);

typedef enum { INTRINSIC_FUNC, INTRINSIC_METHOD, INTRINSIC_RESHADE } IntrinsicKind;

#define SL_INTRINSIC(id, name, nmin, nmax, kind, typing, lowering, arg) \
  static Type *type_##typing (P *p, Node *call, int arg_);
#include "hlsl/hlsl_intrinsics.def"
#undef SL_INTRINSIC

typedef struct
{
  const char   *name;
  int           min_args, max_args;
  IntrinsicKind kind;
  TypeRule      type;
  int           arg;
} Intrinsic;

static const Intrinsic intrinsics[] = {
#define SL_INTRINSIC(id, name, nmin, nmax, kind, typing, lowering, arg) \
  { name, nmin, nmax, INTRINSIC_##kind, type_##typing, arg },
#include "hlsl/hlsl_intrinsics.def"
#undef SL_INTRINSIC
};

static const char *
intrinsic_name (const Node *call)
{
  return intrinsics[call->op].name;
}

/* ---- argument helpers ----------------------------------------------------- */

static Type *
float_like (P *p, Type *t)
{
  return hlsl_type_num (p->arena, BT_FLOAT, t->cls, t->rows, t->cols);
}

/* Converts args[i] to @t in place. */
static void
coerce (P *p, Node *call, int i, Type *t)
{
  call->args[i] = hlsl_convert (p, call->args[i], t, call->args[i]->loc, false, "argument");
}

static bool
all_numeric (P *p, Node *call, int from, int to)
{
  for (int i = from; i < to && i < call->n_args; i++)
    if (call->args[i]->type->kind != TY_NUM)
      {
        hlsl_error (p, call->args[i]->loc, SL_DIAG_HLSL_INTRINSIC_NOT_NUMERIC,
                    "argument %d of '%s' must be numeric", i + 1,
                    intrinsic_name (call));
        return false;
      }
  return true;
}

/* Common type of all arguments for component-wise intrinsics. */
static Type *
unify_args (P *p, Node *call, bool force_float)
{
  if (!all_numeric (p, call, 0, call->n_args))
    return p->t_error;
  /* Component-wise intrinsics do not mix matrices with vectors (a
   * scalar goes with anything). */
  bool has_matrix = false, has_vector = false;
  for (int i = 0; i < call->n_args; i++)
    {
      has_matrix |= call->args[i]->type->cls == NUM_MATRIX;
      has_vector |= call->args[i]->type->cls == NUM_VECTOR;
    }
  if (has_matrix && has_vector)
    {
      hlsl_error (p, call->loc, SL_DIAG_HLSL_INTRINSIC_MATRIX_VECTOR,
                  "cannot mix matrix and vector arguments");
      return p->t_error;
    }
  Type *t = call->args[0]->type;
  for (int i = 1; i < call->n_args; i++)
    {
      t = hlsl_binary_type_ex (p, call->loc, t, call->args[i]->type,
                               hlsl_common_base (t->base, call->args[i]->type->base), false);
      if (t->kind == TY_ERROR)
        return t;
    }
  if (force_float || t->base == BT_BOOL)
    t = float_like (p, t);
  for (int i = 0; i < call->n_args; i++)
    coerce (p, call, i, t);
  return t;
}

static Type *
texture_call_type (P *p, Node *call, int dim, int n_coord_args)
{
  Node *s = call->args[0];
  if (s->type->kind != TY_SAMPLER)
    {
      hlsl_error (p, s->loc, SL_DIAG_HLSL_INTRINSIC_SAMPLER,
                  "first argument of '%s' must be a sampler", intrinsic_name (call));
      return p->t_error;
    }
  if (s->type->tex_dim >= 0 && s->type->tex_dim != dim)
    {
      hlsl_error (p, call->loc, SL_DIAG_HLSL_INTRINSIC_SAMPLER_KIND,
                  "'%s' needs a %s sampler, not '%s'", intrinsic_name (call),
                  dim == SL_TEXTURE_1D ? "1D" : dim == SL_TEXTURE_2D ? "2D" : dim == SL_TEXTURE_3D ? "3D" : "cube",
                  s->type->name ? s->type->name : "sampler");
      return p->t_error;
    }
  if (!all_numeric (p, call, 1, call->n_args))
    return p->t_error;
  int nc = dim == SL_TEXTURE_1D ? 1 : dim == SL_TEXTURE_2D ? 2 : 3;
  for (int i = 1; i < call->n_args; i++)
    {
      int want = (i == 1) ? n_coord_args : nc;
      Type *t = hlsl_type_num (p->arena, BT_FLOAT, want == 1 ? NUM_SCALAR : NUM_VECTOR, 1, want);
      if (call->args[i]->type->n_comp < want && call->args[i]->type->n_comp != 1)
        {
          hlsl_error (p, call->args[i]->loc, SL_DIAG_HLSL_INTRINSIC_COORDINATES,
                      "'%s' coordinates need %d components", intrinsic_name (call), want);
          return p->t_error;
        }
      coerce (p, call, i, t);
    }
  call->sampler_obj = dim;
  return hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4);
}

/* ---- component-wise rules -------------------------------------------------- */

/* abs, min, max, clamp: in the arguments' common type (bool as float). */
static Type *
type_numeric (P *p, Node *call, int arg)
{
  return unify_args (p, call, false);
}

/* sign: in the common type, with an int result of the same shape. */
static Type *
type_to_int (P *p, Node *call, int arg)
{
  Type *t = unify_args (p, call, false);
  if (t->kind == TY_NUM)
    return hlsl_type_num (p->arena, BT_INT, t->cls, t->rows, t->cols);
  return t;
}

/* countbits: the number of set bits of each component, as uint. */
static Type *
type_countbits (P *p, Node *call, int arg)
{
  Type *t = unify_args (p, call, false);
  if (t->kind != TY_NUM)
    return t;
  Type *u = hlsl_type_num (p->arena, BT_UINT, t->cls, t->rows, t->cols);
  coerce (p, call, 0, u);
  return u;
}

/* Most of the math library: component-wise in float. */
static Type *
type_float (P *p, Node *call, int arg)
{
  return unify_args (p, call, true);
}

/* isnan, isinf, isfinite: in float, with a bool result of the same shape. */
static Type *
type_test (P *p, Node *call, int arg)
{
  Type *t = unify_args (p, call, true);
  if (t->kind != TY_NUM)
    return t;
  return hlsl_type_num (p->arena, BT_BOOL, t->cls, t->rows, t->cols);
}

/* asfloat, asint, asuint: the same bits as the base type @arg. */
static Type *
type_reinterpret (P *p, Node *call, int arg)
{
  if (!all_numeric (p, call, 0, 1))
    return p->t_error;
  Type *t = call->args[0]->type;
  if (t->base == BT_BOOL)
    coerce (p, call, 0, hlsl_type_num (p->arena, BT_UINT, t->cls, t->rows, t->cols));
  return hlsl_type_num (p->arena, (BaseType) arg, t->cls, t->rows, t->cols);
}

static Type *
type_f32tof16 (P *p, Node *call, int arg)
{
  if (!all_numeric (p, call, 0, 1))
    return p->t_error;
  Type *t = float_like (p, call->args[0]->type);
  coerce (p, call, 0, t);
  return hlsl_type_num (p->arena, BT_UINT, t->cls, t->rows, t->cols);
}

static Type *
type_f16tof32 (P *p, Node *call, int arg)
{
  if (!all_numeric (p, call, 0, 1))
    return p->t_error;
  Type *t = call->args[0]->type;
  coerce (p, call, 0, hlsl_type_num (p->arena, BT_UINT, t->cls, t->rows, t->cols));
  return float_like (p, t);
}

static Type *
type_d3dcolor (P *p, Node *call, int arg)
{
  if (!all_numeric (p, call, 0, 1))
    return p->t_error;
  coerce (p, call, 0, hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4));
  return hlsl_type_num (p->arena, BT_INT, NUM_VECTOR, 1, 4);
}

/* modf, frexp: a float value and an out argument for the second result. */
static Type *
type_with_out (P *p, Node *call, int arg)
{
  if (!all_numeric (p, call, 0, 2))
    return p->t_error;
  Type *t = float_like (p, call->args[0]->type);
  coerce (p, call, 0, t);
  if (!hlsl_is_lvalue (p, call->args[1], true))
    return p->t_error;
  return t;
}

static Type *
type_sincos (P *p, Node *call, int arg)
{
  if (!all_numeric (p, call, 0, 3))
    return p->t_error;
  Type *t = float_like (p, call->args[0]->type);
  coerce (p, call, 0, t);
  if (!hlsl_is_lvalue (p, call->args[1], true) || !hlsl_is_lvalue (p, call->args[2], true))
    return p->t_error;
  return p->t_void;
}

static Type *
type_clip (P *p, Node *call, int arg)
{
  if (!all_numeric (p, call, 0, 1))
    return p->t_error;
  coerce (p, call, 0, float_like (p, call->args[0]->type));
  return p->t_void;
}

/* ---- vectors and matrices -------------------------------------------------- */

/* all, any: a bool. */
static Type *
type_any (P *p, Node *call, int arg)
{
  if (!all_numeric (p, call, 0, 1))
    return p->t_error;
  return p->t_bool;
}

static Type *
type_cross (P *p, Node *call, int arg)
{
  if (!all_numeric (p, call, 0, 2))
    return p->t_error;
  Type *t = hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 3);
  coerce (p, call, 0, t);
  coerce (p, call, 1, t);
  return t;
}

static Type *
type_dot (P *p, Node *call, int arg)
{
  Type *t = unify_args (p, call, false);
  if (t->kind != TY_NUM)
    return t;
  if (t->cls == NUM_MATRIX)
    {
      hlsl_error (p, call->loc, SL_DIAG_HLSL_INTRINSIC_VECTORS, "'dot' takes vectors, not matrices");
      return p->t_error;
    }
  return hlsl_type_num (p->arena, t->base == BT_BOOL ? BT_INT : t->base, NUM_SCALAR, 1, 1);
}

/* length, distance: float vectors to a float. */
static Type *
type_length (P *p, Node *call, int arg)
{
  for (int i = 0; i < call->n_args; i++)
    if (call->args[i]->type->kind == TY_NUM && call->args[i]->type->cls == NUM_MATRIX)
      {
        hlsl_error (p, call->args[i]->loc, SL_DIAG_HLSL_INTRINSIC_VECTORS,
                    "'%s' takes vectors, not matrices", intrinsic_name (call));
        return p->t_error;
      }
  Type *t = unify_args (p, call, true);
  if (t->kind != TY_NUM)
    return t;
  return p->t_float;
}

static Type *
type_normalize (P *p, Node *call, int arg)
{
  Node *a = call->args[0];
  if (a->type->kind == TY_NUM && a->type->cls == NUM_MATRIX)
    {
      hlsl_error (p, a->loc, SL_DIAG_HLSL_INTRINSIC_VECTORS, "'normalize' takes a vector, not a matrix");
      return p->t_error;
    }
  return unify_args (p, call, true);
}

static Type *
type_refract (P *p, Node *call, int arg)
{
  if (!all_numeric (p, call, 0, 3))
    return p->t_error;
  Type *t = float_like (p, call->args[0]->type);
  coerce (p, call, 0, t);
  coerce (p, call, 1, t);
  coerce (p, call, 2, p->t_float);
  return t;
}

static Type *
type_lit (P *p, Node *call, int arg)
{
  if (!all_numeric (p, call, 0, 3))
    return p->t_error;
  for (int i = 0; i < 3; i++)
    coerce (p, call, i, p->t_float);
  return hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4);
}

static Type *
type_determinant (P *p, Node *call, int arg)
{
  if (!all_numeric (p, call, 0, 1))
    return p->t_error;
  /* A non-square matrix uses its leading square part. */
  if (call->args[0]->type->cls == NUM_VECTOR)
    {
      hlsl_error (p, call->loc, SL_DIAG_HLSL_INTRINSIC_DETERMINANT,
                  "'determinant' takes a matrix or a scalar");
      return p->t_error;
    }
  coerce (p, call, 0, float_like (p, call->args[0]->type));
  return p->t_float;
}

static Type *
type_transpose (P *p, Node *call, int arg)
{
  if (!all_numeric (p, call, 0, 1))
    return p->t_error;
  Type *t = call->args[0]->type;
  if (t->cls != NUM_MATRIX)
    return t;
  return hlsl_type_num (p->arena, t->base, NUM_MATRIX, t->cols, t->rows);
}

static Type *
type_mul (P *p, Node *call, int arg)
{
  if (!all_numeric (p, call, 0, 2))
    return p->t_error;
  Type *x = call->args[0]->type, *y = call->args[1]->type;
  BaseType b = hlsl_common_base (x->base, y->base);
  if (b == BT_BOOL)
    b = BT_INT;
  if (x->cls == NUM_SCALAR || y->cls == NUM_SCALAR)
    {
      Type *other = x->cls == NUM_SCALAR ? y : x;
      Type *t = hlsl_type_num (p->arena, b, other->cls, other->rows, other->cols);
      coerce (p, call, 0, x->cls == NUM_SCALAR ? hlsl_type_num (p->arena, b, NUM_SCALAR, 1, 1) : t);
      coerce (p, call, 1, y->cls == NUM_SCALAR ? hlsl_type_num (p->arena, b, NUM_SCALAR, 1, 1) : t);
      return t;
    }
  /* vector·vector → scalar; vector·matrix → vector(cols);
   * matrix·vector → vector(rows); matrix·matrix → matrix. */
  int xr = x->cls == NUM_VECTOR ? 1 : x->rows, xc = x->cols;
  int yr = y->cls == NUM_VECTOR ? y->cols : y->rows, yc = y->cls == NUM_VECTOR ? 1 : y->cols;
  /* When xc != yr, coerce() warns about the truncated operand. */
  int inner = MIN (xc, yr);
  Type *xt = x->cls == NUM_VECTOR ? hlsl_type_num (p->arena, b, NUM_VECTOR, 1, inner)
                                  : hlsl_type_num (p->arena, b, NUM_MATRIX, xr, inner);
  Type *yt = y->cls == NUM_VECTOR ? hlsl_type_num (p->arena, b, NUM_VECTOR, 1, inner)
                                  : hlsl_type_num (p->arena, b, NUM_MATRIX, inner, yc);
  coerce (p, call, 0, xt);
  coerce (p, call, 1, yt);
  if (x->cls == NUM_VECTOR && y->cls == NUM_VECTOR)
    return hlsl_type_num (p->arena, b, NUM_SCALAR, 1, 1);
  if (x->cls == NUM_VECTOR)
    return hlsl_type_num (p->arena, b, yc == 1 ? NUM_SCALAR : NUM_VECTOR, 1, yc);
  if (y->cls == NUM_VECTOR)
    return hlsl_type_num (p->arena, b, xr == 1 ? NUM_SCALAR : NUM_VECTOR, 1, xr);
  return hlsl_type_num (p->arena, b, NUM_MATRIX, xr, yc);
}

/* ---- D3D9 texture reads (ARG: the texture dimension) ---------------------- */

enum { TEX_PLAIN, TEX_BIAS, TEX_GRAD, TEX_LOD, TEX_PROJ };

static Type *
tex_type (P *p, Node *call, int dim, int variant)
{
  int nc = dim == SL_TEXTURE_1D ? 1 : dim == SL_TEXTURE_2D ? 2 : 3;
  /* ReShade's tex2D(s, t, offset) and tex2Dlod(s, t, offset): the
   * offset is an int2 constant. */
  if (p->u->reshade && dim == SL_TEXTURE_2D && (variant == TEX_PLAIN || variant == TEX_LOD)
      && call->n_args == 3)
    {
      call->n_args = 2;
      Type *r = texture_call_type (p, call, dim, variant == TEX_LOD ? 4 : 2);
      call->n_args = 3;
      if (r->kind != TY_ERROR)
        {
          if (!all_numeric (p, call, 2, 3))
            return p->t_error;
          coerce (p, call, 2, hlsl_type_num (p->arena, BT_INT, NUM_VECTOR, 1, 2));
        }
      return r;
    }
  /* tex2D(s, t, ddx, ddy) is the gradient form. */
  if (variant == TEX_PLAIN && call->n_args == 3)
    {
      hlsl_error (p, call->loc, SL_DIAG_HLSL_INTRINSIC_ARGUMENT_COUNT,
                  "'%s' takes 2 or 4 arguments", intrinsic_name (call));
      return p->t_error;
    }
  int coord = (variant == TEX_BIAS || variant == TEX_LOD || variant == TEX_PROJ) ? 4 : nc;
  return texture_call_type (p, call, dim, coord);
}

static Type *
type_tex (P *p, Node *call, int arg)
{
  return tex_type (p, call, arg, TEX_PLAIN);
}

static Type *
type_tex_bias (P *p, Node *call, int arg)
{
  return tex_type (p, call, arg, TEX_BIAS);
}

static Type *
type_tex_grad (P *p, Node *call, int arg)
{
  return tex_type (p, call, arg, TEX_GRAD);
}

static Type *
type_tex_lod (P *p, Node *call, int arg)
{
  return tex_type (p, call, arg, TEX_LOD);
}

static Type *
type_tex_proj (P *p, Node *call, int arg)
{
  return tex_type (p, call, arg, TEX_PROJ);
}

/* ---- ReShade's sampler intrinsics (SL_COMPILE_RESHADE_FX only) ------------- *
 *   tex2Dfetch(s, int2 xy [, int lod]) and tex2Dfetch(s, int4 (x, y, -, lod));
 *   tex3Dfetch(s, int3 xyz [, int lod]) and tex3Dfetch(s, int4 (x, y, z, lod))
 *   tex2Dsize(s [, int lod]) → int2
 *   tex2Dgather(s, float2 t, int comp [, int2 offset]), tex2DgatherR…A(s, t [, offset])
 *   tex2Doffset(s, float2 t, int2 offset), tex2Dlodoffset(s, float4 t, int2 offset) */

/* The sampler (2D, or @dim) and numeric other arguments all of them take. */
static bool
reshade_sampler_dim (P *p, Node *call, int dim)
{
  Node *s = call->args[0];
  if (s->type->kind != TY_SAMPLER)
    {
      hlsl_error (p, s->loc, SL_DIAG_HLSL_INTRINSIC_SAMPLER,
                  "first argument of '%s' must be a sampler", intrinsic_name (call));
      return false;
    }
  if (s->type->tex_dim >= 0 && s->type->tex_dim != dim)
    {
      hlsl_error (p, call->loc, SL_DIAG_HLSL_INTRINSIC_SAMPLER_KIND,
                  "'%s' needs a %s sampler", intrinsic_name (call), dim == SL_TEXTURE_3D ? "3D" : "2D");
      return false;
    }
  if (!all_numeric (p, call, 1, call->n_args))
    return false;
  call->sampler_obj = dim;
  return true;
}

static bool
reshade_sampler (P *p, Node *call)
{
  return reshade_sampler_dim (p, call, SL_TEXTURE_2D);
}

static Type *
int_vector (P *p, int n)
{
  return hlsl_type_num (p->arena, BT_INT, NUM_VECTOR, 1, n);
}

static Type *
float_vector (P *p, int n)
{
  return hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, n);
}

/* @arg: the dimension, 0 for 2D */
static Type *
type_rs_fetch (P *p, Node *call, int arg)
{
  int nc = arg == SL_TEXTURE_3D ? 3 : 2;
  if (!reshade_sampler_dim (p, call, arg == SL_TEXTURE_3D ? SL_TEXTURE_3D : SL_TEXTURE_2D))
    return p->t_error;
  coerce (p, call, 1, int_vector (p, call->args[1]->type->n_comp >= 4 ? 4 : nc));
  if (call->n_args > 2)
    coerce (p, call, 2, p->t_int);
  return float_vector (p, 4);
}

static Type *
type_rs_size (P *p, Node *call, int arg)
{
  if (!reshade_sampler (p, call))
    return p->t_error;
  if (call->n_args > 1)
    coerce (p, call, 1, p->t_int);
  return int_vector (p, 2);
}

static Type *
type_rs_gather (P *p, Node *call, int arg)
{
  if (!reshade_sampler (p, call))
    return p->t_error;
  coerce (p, call, 1, float_vector (p, 2));
  coerce (p, call, 2, p->t_int);
  if (call->n_args > 3)
    coerce (p, call, 3, int_vector (p, 2));
  return float_vector (p, 4);
}

/* tex2DgatherR…A: the component is the row's. */
static Type *
type_rs_gather_comp (P *p, Node *call, int arg)
{
  if (!reshade_sampler (p, call))
    return p->t_error;
  coerce (p, call, 1, float_vector (p, 2));
  if (call->n_args > 2)
    coerce (p, call, 2, int_vector (p, 2));
  return float_vector (p, 4);
}

static Type *
type_rs_offset (P *p, Node *call, int arg)
{
  if (!reshade_sampler (p, call))
    return p->t_error;
  coerce (p, call, 1, float_vector (p, 2));
  coerce (p, call, 2, int_vector (p, 2));
  return float_vector (p, 4);
}

static Type *
type_rs_lod_offset (P *p, Node *call, int arg)
{
  if (!reshade_sampler (p, call))
    return p->t_error;
  coerce (p, call, 1, float_vector (p, 4));
  coerce (p, call, 2, int_vector (p, 2));
  return float_vector (p, 4);
}

/* ---- methods of texture objects (the object is call->a) ------------------- */

/* The dimension of the texture a method is called on (untyped textures
 * count as 2D), or -1 after a diagnostic. */
static int
method_texture (P *p, Node *call)
{
  Node *obj = call->a;
  if (obj->type->kind != TY_TEXTURE)
    {
      hlsl_error (p, call->loc, SL_DIAG_HLSL_INTRINSIC_METHOD_ONLY,
                  "'%s' is a method of texture objects", intrinsic_name (call));
      return -1;
    }
  int dim = obj->type->tex_dim < 0 ? SL_TEXTURE_2D : obj->type->tex_dim;
  call->sampler_obj = dim;
  return dim;
}

static int
coord_count (int dim)
{
  return dim == SL_TEXTURE_1D ? 1 : dim == SL_TEXTURE_2D ? 2 : 3;
}

static Type *
int_coords (P *p, int nc)
{
  return hlsl_type_num (p->arena, BT_INT, nc == 1 ? NUM_SCALAR : NUM_VECTOR, 1, nc);
}

/* Sample, SampleBias, SampleLevel, SampleGrad, SampleCmp,
 * SampleCmpLevelZero (ARG: the sampling mode): a sampler state, the
 * coordinates, what the mode needs (a float, or two gradients), and an
 * optional constant texel offset. */
static Type *
type_sample (P *p, Node *call, int arg)
{
  int dim = method_texture (p, call);
  if (dim < 0)
    return p->t_error;
  int nc = coord_count (dim);
  Type *coord_t = hlsl_type_num (p->arena, BT_FLOAT, nc == 1 ? NUM_SCALAR : NUM_VECTOR, 1, nc);
  Node **a = call->args;
  if (a[0]->type->kind != TY_SAMPLER)
    {
      hlsl_error (p, a[0]->loc, SL_DIAG_HLSL_INTRINSIC_SAMPLER_STATE,
                  "first argument of '%s' must be a sampler state", intrinsic_name (call));
      return p->t_error;
    }
  bool cmp = arg == SL_SAMPLE_COMPARE;
  if (cmp && !a[0]->type->comparison)
    {
      hlsl_error (p, a[0]->loc, SL_DIAG_HLSL_INTRINSIC_COMPARISON_SAMPLER,
                  "'%s' needs a SamplerComparisonState", intrinsic_name (call));
      return p->t_error;
    }
  if (!all_numeric (p, call, 1, call->n_args))
    return p->t_error;
  coerce (p, call, 1, coord_t);
  int extra = arg == SL_SAMPLE_IMPLICIT ? 0 : arg == SL_SAMPLE_GRAD ? 2 : 1;
  for (int i = 2; i < 2 + extra && i < call->n_args; i++)
    coerce (p, call, i, arg == SL_SAMPLE_GRAD ? coord_t : p->t_float);
  /* Offsets must be constant; lowering checks that once folded. */
  if (call->n_args > 2 + extra)
    coerce (p, call, 2 + extra, int_coords (p, nc));
  if (call->n_args < 2 + extra)
    {
      hlsl_error (p, call->loc, SL_DIAG_HLSL_INTRINSIC_ARGUMENT_COUNT,
                  "'%s' needs %d arguments", intrinsic_name (call), 2 + extra);
      return p->t_error;
    }
  return cmp ? p->t_float : hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4);
}

/* Load(int3 (x, y, mip) [, offset]) */
static Type *
type_load (P *p, Node *call, int arg)
{
  int dim = method_texture (p, call);
  if (dim < 0)
    return p->t_error;
  int nc = coord_count (dim);
  if (!all_numeric (p, call, 0, call->n_args))
    return p->t_error;
  coerce (p, call, 0, hlsl_type_num (p->arena, BT_INT, NUM_VECTOR, 1, nc + 1));
  if (call->n_args > 1)
    coerce (p, call, 1, int_coords (p, nc));
  return hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4);
}

/* GetDimensions([mip,] width [, height [, levels]]): out arguments. */
static Type *
type_get_dimensions (P *p, Node *call, int arg)
{
  int dim = method_texture (p, call);
  if (dim < 0)
    return p->t_error;
  int nc = coord_count (dim);
  for (int i = 0; i < call->n_args; i++)
    if (!hlsl_is_lvalue (p, call->args[i], i > 0 || call->n_args == nc) && i > 0)
      return p->t_error;
  return p->t_void;
}

/* ---- calls ---------------------------------------------------------------- */

/* Names to rows (id + 1) for a unit: the ReShade rows only with
 * SL_COMPILE_RESHADE_FX, where they replace HLSL rows of the same name. */
GHashTable *
hlsl_intrinsic_table_new (bool reshade)
{
  GHashTable *h = g_hash_table_new (g_str_hash, g_str_equal);
  for (int i = 0; i < INTR_COUNT; i++)
    if (intrinsics[i].kind != INTRINSIC_RESHADE)
      g_hash_table_insert (h, (gpointer) intrinsics[i].name, GINT_TO_POINTER (i + 1));
  for (int i = 0; i < INTR_COUNT && reshade; i++)
    if (intrinsics[i].kind == INTRINSIC_RESHADE)
      g_hash_table_insert (h, (gpointer) intrinsics[i].name, GINT_TO_POINTER (i + 1));
  return h;
}

/* A call to the intrinsic @name (a method of @object when that is not
 * NULL), once no user function took it. */
Node *
hlsl_intrinsic_call (P *p, Token *name, Node *object, GPtrArray *args)
{
  SlLoc loc = name->loc;
  gpointer hit = g_hash_table_lookup (p->intrinsics, name->text);
  if (!hit)
    {
      hlsl_error (p, loc, SL_DIAG_HLSL_UNDECLARED_FUNCTION, "undeclared function '%s'", name->text);
      return error_node (p, loc);
    }
  int id = GPOINTER_TO_INT (hit) - 1;
  const Intrinsic *in = &intrinsics[id];
  bool is_method = in->kind == INTRINSIC_METHOD;
  if (is_method != (object != NULL))
    {
      if (is_method)
        hlsl_error (p, loc, SL_DIAG_HLSL_INTRINSIC_METHOD_ONLY,
                    "'%s' is a method of texture objects", name->text);
      else
        hlsl_error (p, loc, SL_DIAG_HLSL_NOT_A_METHOD, "'%s' is not a method", name->text);
      return error_node (p, loc);
    }
  if ((int) args->len < in->min_args || (int) args->len > in->max_args)
    {
      if (in->min_args == in->max_args)
        hlsl_error (p, loc, SL_DIAG_HLSL_ARGUMENT_COUNT,
                    "'%s' takes %d argument%s, not %u", name->text, in->max_args,
                    in->max_args == 1 ? "" : "s", args->len);
      else
        hlsl_error (p, loc, SL_DIAG_HLSL_ARGUMENT_COUNT,
                    "'%s' takes %d to %d arguments, not %u", name->text, in->min_args,
                    in->max_args, args->len);
      return error_node (p, loc);
    }
  Node *call = new_node (p, N_INTRINSIC, loc, NULL);
  call->op = id;
  call->a = object;
  call->n_args = args->len;
  call->args = SL_NEW_N (p->arena, Node *, args->len + 1);
  if (args->len > 0)   /* pdata is NULL while empty */
    memcpy (call->args, args->pdata, args->len * sizeof (Node *));
  for (int i = 0; i < call->n_args; i++)
    {
      Node *arg = call->args[i];
      if (arg->type->kind == TY_SAMPLER && arg->kind == N_VAR && arg->var->storage == STORE_STATIC)
        {
          /* A static sampler is never bound to anything. */
          hlsl_error (p, arg->loc, SL_DIAG_HLSL_STATIC_SAMPLER,
                      "cannot sample with static sampler '%s'", arg->var->name);
          return error_node (p, loc);
        }
      const char *n = in->name;
      if (i == 0 && arg->type->kind == TY_SAMPLER && arg->kind == N_VAR && !strncmp (n, "tex", 3)
          && (n[3] == '1' || n[3] == '2' || n[3] == '3' || n[3] == 'C'))
        {
          /* One sampler serves one texture dimension (the D3D9 names
           * say which). */
          int dim = n[3] == 'C' ? 4 : n[3] - '0';
          if (arg->var->sampled_dim && arg->var->sampled_dim != dim)
            {
              hlsl_error (p, arg->loc, SL_DIAG_HLSL_SAMPLER_DIMENSIONS,
                          "sampler '%s' is used with textures of different dimensions",
                          arg->var->name);
              return error_node (p, loc);
            }
          arg->var->sampled_dim = dim;
        }
    }
  call->type = in->type (p, call, in->arg);
  if (call->type->kind == TY_ERROR)
    return error_node (p, loc);
  return call;
}
