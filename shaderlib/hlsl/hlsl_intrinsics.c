/* Intrinsic typing: checks and converts the arguments of a call to an HLSL
 * intrinsic (or a texture object's method) and gives the call's type.
 *
 * The intrinsics themselves are listed in hlsl_intrinsics.def. */
#include "hlsl/hlsl_parse.h"

const char *const hlsl_intrinsic_names[] = {
#define SL_INTRINSIC(id, name, nmin, nmax) name,
#include "hlsl/hlsl_intrinsics.def"
#undef SL_INTRINSIC
};
const int hlsl_intrinsic_min[] = {
#define SL_INTRINSIC(id, name, nmin, nmax) nmin,
#include "hlsl/hlsl_intrinsics.def"
#undef SL_INTRINSIC
};
const int hlsl_intrinsic_max[] = {
#define SL_INTRINSIC(id, name, nmin, nmax) nmax,
#include "hlsl/hlsl_intrinsics.def"
#undef SL_INTRINSIC
};

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
        hlsl_error (p, call->args[i]->loc, "argument %d of '%s' must be numeric", i + 1,
                    hlsl_intrinsic_names[call->op]);
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
      hlsl_error (p, call->loc, "cannot mix matrix and vector arguments");
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
      hlsl_error (p, s->loc, "first argument of '%s' must be a sampler", hlsl_intrinsic_names[call->op]);
      return p->t_error;
    }
  if (s->type->tex_dim >= 0 && s->type->tex_dim != dim)
    {
      hlsl_error (p, call->loc, "'%s' needs a %s sampler, not '%s'", hlsl_intrinsic_names[call->op],
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
          hlsl_error (p, call->args[i]->loc, "'%s' coordinates need %d components", hlsl_intrinsic_names[call->op], want);
          return p->t_error;
        }
      coerce (p, call, i, t);
    }
  call->sampler_obj = dim;
  return hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4);
}

/* ReShade's sampler intrinsics (SL_COMPILE_RESHADE_FX only):
 *   tex2Dfetch(s, int2 xy [, int lod]) and tex2Dfetch(s, int4 (x, y, -, lod))
 *   tex2Dsize(s [, int lod]) → int2
 *   tex2Dgather(s, float2 t, int comp [, int2 offset]), tex2DgatherR…A(s, t [, offset])
 *   tex2Doffset(s, float2 t, int2 offset), tex2Dlodoffset(s, float4 t, int2 offset) */
static Type *
reshade_call_type (P *p, Node *call)
{
  int id = call->op;
  Node *s = call->args[0];
  if (s->type->kind != TY_SAMPLER)
    {
      hlsl_error (p, s->loc, "first argument of '%s' must be a sampler", hlsl_intrinsic_names[id]);
      return p->t_error;
    }
  if (s->type->tex_dim >= 0 && s->type->tex_dim != SL_TEXTURE_2D)
    {
      hlsl_error (p, call->loc, "'%s' needs a 2D sampler", hlsl_intrinsic_names[id]);
      return p->t_error;
    }
  if (!all_numeric (p, call, 1, call->n_args))
    return p->t_error;
  Type *i1 = p->t_int;
  Type *i2 = hlsl_type_num (p->arena, BT_INT, NUM_VECTOR, 1, 2);
  Type *f2 = hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 2);
  Type *f4 = hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4);
  call->sampler_obj = SL_TEXTURE_2D;
  switch (id)
    {
    case INTR_RS_TEX2DFETCH:
      coerce (p, call, 1, call->args[1]->type->n_comp >= 4
                            ? hlsl_type_num (p->arena, BT_INT, NUM_VECTOR, 1, 4) : i2);
      if (call->n_args > 2)
        coerce (p, call, 2, i1);
      return f4;
    case INTR_RS_TEX2DSIZE:
      if (call->n_args > 1)
        coerce (p, call, 1, i1);
      return i2;
    case INTR_RS_TEX2DGATHER:
      coerce (p, call, 1, f2);
      coerce (p, call, 2, i1);
      if (call->n_args > 3)
        coerce (p, call, 3, i2);
      return f4;
    case INTR_RS_TEX2DGATHERR: case INTR_RS_TEX2DGATHERG: case INTR_RS_TEX2DGATHERB:
    case INTR_RS_TEX2DGATHERA:
      coerce (p, call, 1, f2);
      if (call->n_args > 2)
        coerce (p, call, 2, i2);
      return f4;
    default:   /* tex2Doffset, tex2Dlodoffset */
      coerce (p, call, 1, id == INTR_RS_TEX2DOFFSET ? f2 : f4);
      coerce (p, call, 2, i2);
      return f4;
    }
}

Type *
hlsl_intrinsic_type (P *p, Node *call)
{
  int id = call->op;
  Node **a = call->args;
  switch (id)
    {
    case INTR_ABS: case INTR_MIN: case INTR_MAX: case INTR_CLAMP: case INTR_SIGN:
      {
        Type *t = unify_args (p, call, false);
        if (t->kind == TY_NUM && id == INTR_SIGN)
          return hlsl_type_num (p->arena, BT_INT, t->cls, t->rows, t->cols);
        return t;
      }
    case INTR_ACOS: case INTR_ASIN: case INTR_ATAN: case INTR_ATAN2: case INTR_CEIL:
    case INTR_COS: case INTR_COSH: case INTR_DEGREES: case INTR_EXP: case INTR_EXP2:
    case INTR_FLOOR: case INTR_FMOD: case INTR_FRAC: case INTR_LDEXP: case INTR_LERP:
    case INTR_LOG: case INTR_LOG10: case INTR_LOG2: case INTR_MAD: case INTR_POW:
    case INTR_RADIANS: case INTR_RCP: case INTR_ROUND: case INTR_RSQRT: case INTR_SATURATE:
    case INTR_SIN: case INTR_SINH: case INTR_SMOOTHSTEP: case INTR_SQRT: case INTR_STEP:
    case INTR_TAN: case INTR_TANH: case INTR_TRUNC: case INTR_DDX: case INTR_DDY:
    case INTR_DDX_COARSE: case INTR_DDX_FINE: case INTR_DDY_COARSE: case INTR_DDY_FINE:
    case INTR_FWIDTH:
      return unify_args (p, call, true);
    case INTR_MODF: case INTR_FREXP:
      {
        if (!all_numeric (p, call, 0, 2))
          return p->t_error;
        Type *t = float_like (p, a[0]->type);
        coerce (p, call, 0, t);
        if (!hlsl_is_lvalue (p, a[1], true))
          return p->t_error;
        return t;
      }
    case INTR_SINCOS:
      {
        if (!all_numeric (p, call, 0, 3))
          return p->t_error;
        Type *t = float_like (p, a[0]->type);
        coerce (p, call, 0, t);
        if (!hlsl_is_lvalue (p, a[1], true) || !hlsl_is_lvalue (p, a[2], true))
          return p->t_error;
        return p->t_void;
      }
    case INTR_ISNAN: case INTR_ISINF: case INTR_ISFINITE:
      {
        Type *t = unify_args (p, call, true);
        if (t->kind != TY_NUM)
          return t;
        return hlsl_type_num (p->arena, BT_BOOL, t->cls, t->rows, t->cols);
      }
    case INTR_ALL: case INTR_ANY:
      if (!all_numeric (p, call, 0, 1))
        return p->t_error;
      return p->t_bool;
    case INTR_ASFLOAT: case INTR_ASINT: case INTR_ASUINT:
      {
        if (!all_numeric (p, call, 0, 1))
          return p->t_error;
        Type *t = a[0]->type;
        BaseType b = id == INTR_ASFLOAT ? BT_FLOAT : id == INTR_ASINT ? BT_INT : BT_UINT;
        if (t->base == BT_BOOL)
          coerce (p, call, 0, hlsl_type_num (p->arena, BT_UINT, t->cls, t->rows, t->cols));
        return hlsl_type_num (p->arena, b, t->cls, t->rows, t->cols);
      }
    case INTR_F32TOF16:
      {
        if (!all_numeric (p, call, 0, 1))
          return p->t_error;
        Type *t = float_like (p, a[0]->type);
        coerce (p, call, 0, t);
        return hlsl_type_num (p->arena, BT_UINT, t->cls, t->rows, t->cols);
      }
    case INTR_F16TOF32:
      {
        if (!all_numeric (p, call, 0, 1))
          return p->t_error;
        Type *t = a[0]->type;
        coerce (p, call, 0, hlsl_type_num (p->arena, BT_UINT, t->cls, t->rows, t->cols));
        return float_like (p, t);
      }
    case INTR_CLIP:
      if (!all_numeric (p, call, 0, 1))
        return p->t_error;
      coerce (p, call, 0, float_like (p, a[0]->type));
      return p->t_void;
    case INTR_CROSS:
      {
        if (!all_numeric (p, call, 0, 2))
          return p->t_error;
        Type *t = hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 3);
        coerce (p, call, 0, t);
        coerce (p, call, 1, t);
        return t;
      }
    case INTR_DOT:
      {
        Type *t = unify_args (p, call, false);
        if (t->kind != TY_NUM)
          return t;
        if (t->cls == NUM_MATRIX)
          {
            hlsl_error (p, call->loc, "'dot' takes vectors, not matrices");
            return p->t_error;
          }
        return hlsl_type_num (p->arena, t->base == BT_BOOL ? BT_INT : t->base, NUM_SCALAR, 1, 1);
      }
    case INTR_DISTANCE: case INTR_LENGTH:
      {
        for (int i = 0; i < call->n_args; i++)
          if (a[i]->type->kind == TY_NUM && a[i]->type->cls == NUM_MATRIX)
            {
              hlsl_error (p, a[i]->loc, "'%s' takes vectors, not matrices", hlsl_intrinsic_names[call->op]);
              return p->t_error;
            }
        Type *t = unify_args (p, call, true);
        if (t->kind != TY_NUM)
          return t;
        return p->t_float;
      }
    case INTR_NORMALIZE:
      if (a[0]->type->kind == TY_NUM && a[0]->type->cls == NUM_MATRIX)
        {
          hlsl_error (p, a[0]->loc, "'normalize' takes a vector, not a matrix");
          return p->t_error;
        }
      return unify_args (p, call, true);
    case INTR_REFLECT:
      return unify_args (p, call, true);
    case INTR_REFRACT:
      {
        if (!all_numeric (p, call, 0, 3))
          return p->t_error;
        Type *t = float_like (p, a[0]->type);
        coerce (p, call, 0, t);
        coerce (p, call, 1, t);
        coerce (p, call, 2, p->t_float);
        return t;
      }
    case INTR_FACEFORWARD:
      return unify_args (p, call, true);
    case INTR_LIT:
      if (!all_numeric (p, call, 0, 3))
        return p->t_error;
      for (int i = 0; i < 3; i++)
        coerce (p, call, i, p->t_float);
      return hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4);
    case INTR_DST:
      return unify_args (p, call, true);
    case INTR_D3DCOLORTOUBYTE4:
      if (!all_numeric (p, call, 0, 1))
        return p->t_error;
      coerce (p, call, 0, hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4));
      return hlsl_type_num (p->arena, BT_INT, NUM_VECTOR, 1, 4);
    case INTR_DETERMINANT:
      if (!all_numeric (p, call, 0, 1))
        return p->t_error;
      /* A non-square matrix uses its leading square part. */
      if (a[0]->type->cls == NUM_VECTOR)
        {
          hlsl_error (p, call->loc, "'determinant' takes a matrix or a scalar");
          return p->t_error;
        }
      coerce (p, call, 0, float_like (p, a[0]->type));
      return p->t_float;
    case INTR_TRANSPOSE:
      {
        if (!all_numeric (p, call, 0, 1))
          return p->t_error;
        Type *t = a[0]->type;
        if (t->cls != NUM_MATRIX)
          return t;
        return hlsl_type_num (p->arena, t->base, NUM_MATRIX, t->cols, t->rows);
      }
    case INTR_MUL:
      {
        if (!all_numeric (p, call, 0, 2))
          return p->t_error;
        Type *x = a[0]->type, *y = a[1]->type;
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
    case INTR_TEX1D: case INTR_TEX1DBIAS: case INTR_TEX1DGRAD: case INTR_TEX1DLOD: case INTR_TEX1DPROJ:
    case INTR_TEX2D: case INTR_TEX2DBIAS: case INTR_TEX2DGRAD: case INTR_TEX2DLOD: case INTR_TEX2DPROJ:
    case INTR_TEX3D: case INTR_TEX3DBIAS: case INTR_TEX3DGRAD: case INTR_TEX3DLOD: case INTR_TEX3DPROJ:
    case INTR_TEXCUBE: case INTR_TEXCUBEBIAS: case INTR_TEXCUBEGRAD: case INTR_TEXCUBELOD: case INTR_TEXCUBEPROJ:
      {
        int group = (id - INTR_TEX1D) / 5, variant = (id - INTR_TEX1D) % 5;
        int dim = group == 0 ? SL_TEXTURE_1D : group == 1 ? SL_TEXTURE_2D : group == 2 ? SL_TEXTURE_3D : SL_TEXTURE_CUBE;
        int nc = dim == SL_TEXTURE_1D ? 1 : dim == SL_TEXTURE_2D ? 2 : 3;
        /* ReShade's tex2D(s, t, offset) and tex2Dlod(s, t, offset): the
         * offset is an int2 constant. */
        if (p->u->reshade && group == 1 && (variant == 0 || variant == 3) && call->n_args == 3)
          {
            call->n_args = 2;
            Type *r = texture_call_type (p, call, dim, variant == 3 ? 4 : 2);
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
        if (variant == 0 && call->n_args == 3)
          {
            hlsl_error (p, call->loc, "'%s' takes 2 or 4 arguments", hlsl_intrinsic_names[id]);
            return p->t_error;
          }
        int coord = (variant == 1 || variant == 3 || variant == 4) ? 4 : nc;
        return texture_call_type (p, call, dim, coord);
      }
    case INTR_RS_TEX2DFETCH: case INTR_RS_TEX2DSIZE: case INTR_RS_TEX2DGATHER:
    case INTR_RS_TEX2DGATHERR: case INTR_RS_TEX2DGATHERG: case INTR_RS_TEX2DGATHERB:
    case INTR_RS_TEX2DGATHERA: case INTR_RS_TEX2DOFFSET: case INTR_RS_TEX2DLODOFFSET:
      return reshade_call_type (p, call);
    default:
      break;
    }

  /* Methods of texture objects: the object is call->a. */
  Node *obj = call->a;
  if (obj->type->kind != TY_TEXTURE)
    {
      hlsl_error (p, call->loc, "'%s' is a method of texture objects", hlsl_intrinsic_names[id]);
      return p->t_error;
    }
  int dim = obj->type->tex_dim < 0 ? SL_TEXTURE_2D : obj->type->tex_dim;
  int nc = dim == SL_TEXTURE_1D ? 1 : dim == SL_TEXTURE_2D ? 2 : 3;
  Type *coord_t = hlsl_type_num (p->arena, BT_FLOAT, nc == 1 ? NUM_SCALAR : NUM_VECTOR, 1, nc);
  Type *off_t = hlsl_type_num (p->arena, BT_INT, nc == 1 ? NUM_SCALAR : NUM_VECTOR, 1, nc);
  call->sampler_obj = dim;
  switch (id)
    {
    case INTR_M_SAMPLE: case INTR_M_SAMPLEBIAS: case INTR_M_SAMPLELEVEL: case INTR_M_SAMPLEGRAD:
    case INTR_M_SAMPLECMP: case INTR_M_SAMPLECMPLZ:
      {
        if (a[0]->type->kind != TY_SAMPLER)
          {
            hlsl_error (p, a[0]->loc, "first argument of '%s' must be a sampler state", hlsl_intrinsic_names[id]);
            return p->t_error;
          }
        bool cmp = id == INTR_M_SAMPLECMP || id == INTR_M_SAMPLECMPLZ;
        if (cmp && !a[0]->type->comparison)
          {
            hlsl_error (p, a[0]->loc, "'%s' needs a SamplerComparisonState", hlsl_intrinsic_names[id]);
            return p->t_error;
          }
        if (!all_numeric (p, call, 1, call->n_args))
          return p->t_error;
        coerce (p, call, 1, coord_t);
        int extra = id == INTR_M_SAMPLE ? 0 : id == INTR_M_SAMPLEGRAD ? 2 : 1;
        for (int i = 2; i < 2 + extra && i < call->n_args; i++)
          coerce (p, call, i, id == INTR_M_SAMPLEGRAD ? coord_t : p->t_float);
        /* Offsets must be constant; lowering checks that once folded. */
        if (call->n_args > 2 + extra)
          coerce (p, call, 2 + extra, off_t);
        if (call->n_args < 2 + extra)
          {
            hlsl_error (p, call->loc, "'%s' needs %d arguments", hlsl_intrinsic_names[id], 2 + extra);
            return p->t_error;
          }
        return cmp ? p->t_float : hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4);
      }
    case INTR_M_LOAD:
      {
        if (!all_numeric (p, call, 0, call->n_args))
          return p->t_error;
        coerce (p, call, 0, hlsl_type_num (p->arena, BT_INT, NUM_VECTOR, 1, nc + 1));
        if (call->n_args > 1)
          coerce (p, call, 1, off_t);
        return hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4);
      }
    case INTR_M_GETDIMENSIONS:
      for (int i = 0; i < call->n_args; i++)
        if (!hlsl_is_lvalue (p, a[i], i > 0 || call->n_args == nc) && i > 0)
          return p->t_error;
      return p->t_void;
    default:
      break;
    }
  hlsl_error (p, call->loc, "unsupported intrinsic '%s'",
              (unsigned) id < G_N_ELEMENTS (hlsl_intrinsic_names) ? hlsl_intrinsic_names[id] : "?");
  return p->t_error;
}
