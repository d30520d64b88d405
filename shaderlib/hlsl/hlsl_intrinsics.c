/* Intrinsic typing: the table of HLSL intrinsics and the checks its rows
 * describe.
 *
 * Each row of hlsl_intrinsics.def gives an intrinsic's arity, where it may
 * be called (as a function, as a texture method, under ReShade FX only),
 * its parameters (shape class, fixed size or the shared template, and
 * component type), its result, and its typing rule.  check_params() reads
 * the parameter words: it refuses what the row does not take with a
 * located error naming the type it got and the one it wanted, finds the
 * template the shared parameters agree on, and converts every argument
 * to its parameter's type through hlsl_convert() (explicit N_CAST nodes,
 * as everywhere in the parser), so the same implicit conversions apply as
 * to any call: a scalar replicates, a longer vector truncates with a
 * warning, an Nx1 or 1xN matrix and a vector convert into each other.
 * The `generic` rule then gives the row's result; the other rules (mul's
 * shapes, the tex* forms, texture methods, ReShade's reads) call the same
 * check and add what a table cannot say.  hlsl_intrinsic_call() does what
 * is common to all calls: lookup, the method/function distinction, the
 * argument count and the sampler checks, then the row's rule.  Whether
 * the target profile has the intrinsic is the lowering's business
 * (hlsl_lower_intrinsics.c), since fxc lets a function nobody calls name
 * what the profile lacks. */
#include "hlsl/hlsl_parse.h"

#include <string.h>

typedef Type *(*TypeRule) (P *p, Node *call, int arg);

typedef enum { INTRINSIC_FUNC, INTRINSIC_METHOD, INTRINSIC_RESHADE } IntrinsicKind;

#define SL_INTRINSIC(id, name, nmin, nmax, kind, sm, params, result, typing, lowering, arg) \
  static Type *type_##typing (P *p, Node *call, int arg_);
#include "hlsl/hlsl_intrinsics.def"
#undef SL_INTRINSIC

typedef struct
{
  const char   *name;
  int           min_args, max_args;
  IntrinsicKind kind;
  const char   *params, *result;
  TypeRule      type;
  int           arg;
} Intrinsic;

static const Intrinsic intrinsics[] = {
#define SL_INTRINSIC(id, name, nmin, nmax, kind, sm, params, result, typing, lowering, arg) \
  { name, nmin, nmax, INTRINSIC_##kind, params, result, type_##typing, arg },
#include "hlsl/hlsl_intrinsics.def"
#undef SL_INTRINSIC
};

static const char *
intrinsic_name (const Node *call)
{
  return intrinsics[call->op].name;
}

/* ---- parameter words ------------------------------------------------------ */

typedef struct
{
  bool out;
  char cls;    /* s v m a o */
  int  size;   /* v: a fixed size, 0 for the template; o: the texture kind */
  char type;   /* F N A R U; 0 for samplers */
} Param;

#define MAX_PARAMS 8

/* Splits a row's PARAMS into @out; returns the count.  The words are the
 * table's, so they are well formed (tests/hlsl-ref calls every row). */
static int
parse_params (const char *s, Param *out)
{
  int n = 0;
  while (*s && n < MAX_PARAMS)
    {
      while (*s == ' ')
        s++;
      if (!*s)
        break;
      Param q = { 0 };
      if (*s == '>')
        {
          q.out = true;
          s++;
        }
      q.cls = *s++;
      if (q.cls == 'o')
        {
          char d = *s++;
          q.size = d == '1' ? SL_TEXTURE_1D : d == '2' ? SL_TEXTURE_2D
                   : d == '3' ? SL_TEXTURE_3D : SL_TEXTURE_CUBE;
        }
      else
        {
          if (*s >= '1' && *s <= '4')
            q.size = *s++ - '0';
          q.type = *s++;
        }
      out[n++] = q;
    }
  return n;
}

static bool
in_template (const Param *q)
{
  return q->cls != 'o' && q->cls != 's' && q->size == 0;
}

/* The component type a parameter of TYPE @t computes in, for an argument
 * of base @b. */
static BaseType
param_base (char t, BaseType b)
{
  switch (t)
    {
    case 'F': return BT_FLOAT;
    case 'U': return BT_UINT;
    case 'N': return b == BT_BOOL ? BT_FLOAT : b;
    default: return b;
    }
}

static const char *
class_wanted (char cls)
{
  switch (cls)
    {
    case 's': return "a scalar";
    case 'v': return "a vector or a scalar";
    case 'm': return "a matrix or a scalar";
    default: return "numeric";
    }
}

/* ---- argument helpers ----------------------------------------------------- */

/* Converts args[i] to @t in place, as an argument of the call. */
static void
coerce (P *p, Node *call, int i, Type *t)
{
  char what[96];
  g_snprintf (what, sizeof what, "argument %d of '%s'", i + 1, intrinsic_name (call));
  call->args[i] = hlsl_convert (p, call->args[i], t, call->args[i]->loc, false, what);
}

static bool
numeric_arg (P *p, Node *call, int i)
{
  Type *t = call->args[i]->type;
  if (t->kind == TY_NUM || t->kind == TY_ERROR)
    return true;
  hlsl_error (p, call->args[i]->loc, SL_DIAG_HLSL_INTRINSIC_NOT_NUMERIC,
              "argument %d of '%s' must be numeric, not '%s'", i + 1, intrinsic_name (call),
              hlsl_type_name (p, t));
  return false;
}

static bool
all_numeric (P *p, Node *call, int from, int to)
{
  for (int i = from; i < to && i < call->n_args; i++)
    if (!numeric_arg (p, call, i))
      return false;
  return true;
}

/* A sampler argument of the texture kind @dim. */
static bool
sampler_arg (P *p, Node *call, int i, int dim)
{
  Node *s = call->args[i];
  if (s->type->kind != TY_SAMPLER)
    {
      hlsl_error (p, s->loc, SL_DIAG_HLSL_INTRINSIC_SAMPLER,
                  "argument %d of '%s' must be a sampler, not '%s'", i + 1,
                  intrinsic_name (call), hlsl_type_name (p, s->type));
      return false;
    }
  if (s->type->tex_dim >= 0 && s->type->tex_dim != dim)
    {
      hlsl_error (p, s->loc, SL_DIAG_HLSL_INTRINSIC_SAMPLER_KIND,
                  "'%s' needs a %s sampler, not '%s'", intrinsic_name (call),
                  dim == SL_TEXTURE_1D ? "1D" : dim == SL_TEXTURE_2D ? "2D" : dim == SL_TEXTURE_3D ? "3D" : "cube",
                  hlsl_type_name (p, s->type));
      return false;
    }
  call->sampler_obj = dim;
  return true;
}

/* The shape the template parameters agree on: the smallest argument (by
 * rows and columns for matrices, by size for vectors); a scalar goes with
 * anything, but matrices and vectors (a 1-vector too) do not mix.  Its
 * component type is the common one of the arguments, as @type says. */
static Type *
template_type (P *p, Node *call, const Param *q, int n)
{
  Node *mat = NULL, *vec = NULL;
  int rows = 4, cols = 4, size = 4;
  bool any = false;
  BaseType base = BT_BOOL;
  char type = 0;
  for (int i = 0; i < n && i < call->n_args; i++)
    {
      if (!in_template (&q[i]) || q[i].out)
        continue;
      Type *t = call->args[i]->type;
      any = true;
      type = q[i].type;
      base = hlsl_common_base (base, t->base);
      if (t->cls == NUM_MATRIX)
        {
          mat = mat ? mat : call->args[i];
          rows = MIN (rows, t->rows);
          cols = MIN (cols, t->cols);
        }
      else if (t->cls == NUM_VECTOR)
        {
          vec = vec ? vec : call->args[i];
          size = MIN (size, t->cols);
        }
    }
  if (!any)
    return NULL;
  if (mat && vec)
    {
      hlsl_error (p, call->loc, SL_DIAG_HLSL_INTRINSIC_MATRIX_VECTOR,
                  "'%s' cannot mix matrix and vector arguments ('%s' and '%s')",
                  intrinsic_name (call), hlsl_type_name (p, mat->type), hlsl_type_name (p, vec->type));
      return p->t_error;
    }
  base = param_base (type, base);
  if (mat)
    return hlsl_type_num (p->arena, base, NUM_MATRIX, rows, cols);
  if (vec)
    return hlsl_type_num (p->arena, base, NUM_VECTOR, 1, size);
  return hlsl_type_num (p->arena, base, NUM_SCALAR, 1, 1);
}

/* The parameter type of argument @i under @tmpl. */
static Type *
param_type (P *p, Node *call, const Param *q, Type *tmpl)
{
  if (in_template (q))
    return tmpl;
  if (q->cls == 's')
    return hlsl_type_num (p->arena, param_base (q->type, BT_FLOAT), NUM_SCALAR, 1, 1);
  /* A fixed-size vector of the parameter's type. */
  return hlsl_type_num (p->arena, param_base (q->type, BT_FLOAT), NUM_VECTOR, 1, q->size);
}

/* Checks and converts the arguments against the row's parameter words;
 * *@tmpl receives the template (NULL if the row has none).  False after a
 * diagnostic. */
static bool
check_params (P *p, Node *call, Type **tmpl)
{
  Param q[MAX_PARAMS];
  int n = parse_params (intrinsics[call->op].params, q);
  *tmpl = NULL;
  for (int i = 0; i < n && i < call->n_args; i++)
    {
      Node *a = call->args[i];
      if (q[i].cls == 'o')
        {
          if (!sampler_arg (p, call, i, q[i].size))
            return false;
          continue;
        }
      if (!numeric_arg (p, call, i))
        return false;
      Type *t = a->type;
      bool fits = q[i].cls == 's' ? t->n_comp == 1
                  : q[i].cls == 'v' ? t->cls != NUM_MATRIX
                  : q[i].cls == 'm' ? t->cls != NUM_VECTOR : true;
      if (!fits)
        {
          hlsl_error (p, a->loc, SL_DIAG_HLSL_INTRINSIC_ARGUMENT_CLASS,
                      "argument %d of '%s' must be %s, not '%s'", i + 1, intrinsic_name (call),
                      class_wanted (q[i].cls), hlsl_type_name (p, t));
          return false;
        }
      if (q[i].type == 'R' && (t->base == BT_BOOL || t->is_double))
        {
          hlsl_error (p, a->loc, SL_DIAG_HLSL_INTRINSIC_ARGUMENT_TYPE,
                      "argument %d of '%s' must be int, uint or float, not '%s'", i + 1,
                      intrinsic_name (call), t->is_double ? "double" : hlsl_type_name (p, t));
          return false;
        }
    }
  Type *tt = template_type (p, call, q, n);
  if (tt && tt->kind == TY_ERROR)
    return false;
  for (int i = 0; i < n && i < call->n_args; i++)
    {
      if (q[i].cls == 'o')
        continue;
      Type *want = param_type (p, call, &q[i], tt);
      if (q[i].out)
        {
          /* Out arguments take the parameter's value as it is: they may
           * change the component type, not the size. */
          Node *a = call->args[i];
          if (!hlsl_is_lvalue (p, a, true))
            return false;
          if (a->type->n_comp != want->n_comp)
            {
              hlsl_error (p, a->loc, SL_DIAG_HLSL_OUT_ARGUMENT,
                          "cannot pass '%s' as out parameter of type '%s'",
                          hlsl_type_name (p, a->type), hlsl_type_name (p, want));
              return false;
            }
          continue;
        }
      coerce (p, call, i, want);
      if (is_error (call->args[i]))
        return false;
    }
  *tmpl = tt;
  return true;
}

/* The row's RESULT for the template @t. */
static Type *
result_type (P *p, Node *call, Type *t)
{
  const char *r = intrinsics[call->op].result;
  BaseType b = t ? t->base : BT_FLOAT;
  switch (r[0])
    {
    case '-':
      return p->t_void;
    case 'T':
      if (t->cls != NUM_MATRIX)
        return t;
      return hlsl_type_num (p->arena, t->base, NUM_MATRIX, t->cols, t->rows);
    case '=':
      if (!r[1])
        return t;
      b = r[1] == 'F' ? BT_FLOAT : r[1] == 'I' ? BT_INT : r[1] == 'U' ? BT_UINT : BT_BOOL;
      return hlsl_type_num (p->arena, b, t->cls, t->rows, t->cols);
    case 's':
      if (r[1] != '=')
        b = r[1] == 'F' ? BT_FLOAT : BT_BOOL;
      return hlsl_type_num (p->arena, b, NUM_SCALAR, 1, 1);
    case 'v':
      return hlsl_type_num (p->arena, r[2] == 'I' ? BT_INT : BT_FLOAT, NUM_VECTOR, 1, r[1] - '0');
    default:
      return p->t_error;
    }
}

/* Rows the table describes completely. */
static Type *
type_generic (P *p, Node *call, int arg)
{
  Type *t;
  if (!check_params (p, call, &t))
    return p->t_error;
  return result_type (p, call, t);
}

/* clip: below SM 4 the argument goes to one texkill register, so it may
 * hold at most four components. */
static Type *
type_clip (P *p, Node *call, int arg)
{
  Type *t = type_generic (p, call, arg);
  Node *a = call->args[0];
  if (t->kind != TY_ERROR && p->u->shader_model < 40 && p->u->fxc_profile && a->type->n_comp > 4)
    {
      hlsl_error (p, a->loc, SL_DIAG_HLSL_INTRINSIC_CLIP_SIZE,
                  "argument 1 of 'clip' has %d components; below shader model 4 it may have at most 4",
                  a->type->n_comp);
      return p->t_error;
    }
  return t;
}

/* ---- vectors and matrices -------------------------------------------------- */

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

/* tex1D, tex2D, tex3D, texCUBE: (s, t) or the gradient form (s, t, ddx,
 * ddy); the other tex* rows are generic.  ReShade's tex2D(s, t, offset)
 * takes an int2 constant offset. */
static Type *
type_tex (P *p, Node *call, int arg)
{
  if (p->u->reshade && arg == SL_TEXTURE_2D && call->n_args == 3)
    {
      call->n_args = 2;
      Type *r = type_generic (p, call, arg);
      call->n_args = 3;
      if (r->kind == TY_ERROR || !all_numeric (p, call, 2, 3))
        return p->t_error;
      coerce (p, call, 2, hlsl_type_num (p->arena, BT_INT, NUM_VECTOR, 1, 2));
      return r;
    }
  if (call->n_args == 3)
    {
      hlsl_error (p, call->loc, SL_DIAG_HLSL_INTRINSIC_ARGUMENT_COUNT,
                  "'%s' takes 2 or 4 arguments", intrinsic_name (call));
      return p->t_error;
    }
  return type_generic (p, call, arg);
}

/* ReShade's tex2Dlod(s, t [, offset]); its offset is an int2 constant. */
static Type *
type_tex_lod (P *p, Node *call, int arg)
{
  int n = call->n_args;
  call->n_args = MIN (n, 2);
  Type *r = type_generic (p, call, arg);
  call->n_args = n;
  if (r->kind == TY_ERROR || n < 3)
    return r;
  if (!all_numeric (p, call, 2, 3))
    return p->t_error;
  coerce (p, call, 2, hlsl_type_num (p->arena, BT_INT, NUM_VECTOR, 1, 2));
  return r;
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
  return sampler_arg (p, call, 0, dim) && all_numeric (p, call, 1, call->n_args);
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

/* How many sizes GetDimensions gives for a texture kind. */
static int
size_count (int dim)
{
  return dim == SL_TEXTURE_1D ? 1 : dim == SL_TEXTURE_3D ? 3 : 2;
}

/* A method the texture object's type does not have. */
static Type *
not_a_method_of (P *p, Node *call)
{
  hlsl_error (p, call->loc, SL_DIAG_HLSL_METHOD_OBJECT, "'%s' is not a method of '%s'",
              intrinsic_name (call), hlsl_type_name (p, call->a->type));
  return p->t_error;
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
                  "argument 1 of '%s' must be a sampler state, not '%s'", intrinsic_name (call),
                  hlsl_type_name (p, a[0]->type));
      return p->t_error;
    }
  bool cmp = arg == SL_SAMPLE_COMPARE;
  if (cmp && !a[0]->type->comparison)
    {
      hlsl_error (p, a[0]->loc, SL_DIAG_HLSL_INTRINSIC_COMPARISON_SAMPLER,
                  "'%s' needs a SamplerComparisonState, not '%s'", intrinsic_name (call),
                  hlsl_type_name (p, a[0]->type));
      return p->t_error;
    }
  /* A comparison sampler serves only the comparing reads. */
  if (!cmp && a[0]->type->comparison)
    {
      hlsl_error (p, a[0]->loc, SL_DIAG_HLSL_INTRINSIC_PLAIN_SAMPLER,
                  "'%s' needs a SamplerState, not '%s'", intrinsic_name (call),
                  hlsl_type_name (p, a[0]->type));
      return p->t_error;
    }
  /* The SampleCmp pages leave Texture3D out. */
  if (cmp && dim == SL_TEXTURE_3D)
    return not_a_method_of (p, call);
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

/* Load(int3 (x, y, mip) [, offset]); a cube texture has no Load. */
static Type *
type_load (P *p, Node *call, int arg)
{
  int dim = method_texture (p, call);
  if (dim < 0)
    return p->t_error;
  if (dim == SL_TEXTURE_CUBE)
    return not_a_method_of (p, call);
  int nc = coord_count (dim);
  if (!all_numeric (p, call, 0, call->n_args))
    return p->t_error;
  coerce (p, call, 0, hlsl_type_num (p->arena, BT_INT, NUM_VECTOR, 1, nc + 1));
  if (call->n_args > 1)
    coerce (p, call, 1, int_coords (p, nc));
  return hlsl_type_num (p->arena, BT_FLOAT, NUM_VECTOR, 1, 4);
}

/* GetDimensions([mip,] width [, height [, depth]] [, levels]): the size
 * arguments a texture type has (a cube's faces are 2D), with the level
 * count after them when a mip level comes first.  Every argument but the
 * level is a scalar out argument, uint or float. */
static Type *
type_get_dimensions (P *p, Node *call, int arg)
{
  int dim = method_texture (p, call);
  if (dim < 0)
    return p->t_error;
  int n_size = size_count (dim);
  if (call->n_args != n_size && call->n_args != n_size + 2)
    {
      hlsl_error (p, call->loc, SL_DIAG_HLSL_ARGUMENT_COUNT,
                  "'GetDimensions' of a '%s' takes %d or %d arguments, not %d",
                  hlsl_type_name (p, call->a->type), n_size, n_size + 2, call->n_args);
      return p->t_error;
    }
  int first = call->n_args == n_size + 2;
  if (!all_numeric (p, call, 0, call->n_args))
    return p->t_error;
  if (first)
    coerce (p, call, 0, hlsl_type_num (p->arena, BT_UINT, NUM_SCALAR, 1, 1));
  for (int i = first; i < call->n_args; i++)
    {
      Node *o = call->args[i];
      if (!hlsl_is_lvalue (p, o, true))
        return p->t_error;
      if (o->type->kind == TY_NUM && o->type->n_comp != 1)
        {
          hlsl_error (p, o->loc, SL_DIAG_HLSL_INTRINSIC_ARGUMENT_CLASS,
                      "out argument %d of 'GetDimensions' must be a scalar, not '%s'",
                      i - first + 1, hlsl_type_name (p, o->type));
          return p->t_error;
        }
    }
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
