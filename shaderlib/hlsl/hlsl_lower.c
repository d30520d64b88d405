/* HLSL lowering: typed AST → scalar IR.
 *
 * Every value is a flat list of scalar IR values (an RVal), in HLSL's
 * declaration order (matrices row by row), so swizzles, members and
 * constant indices are compile-time slices.  Every call is inlined; a
 * function whose body returns from inside control flow is wrapped in
 * FBEGIN/FEND so that returning lanes stop.  Uniform reads become LOADC
 * instructions whose constant-buffer offsets are patched once the layout
 * (which depends on which uniforms are used in SM2/3) is known.  Sampler
 * and texture objects are compile-time values: each use resolves to a
 * provisional object that is given its slot at the end.  A value whose
 * type holds objects (a struct with a texture member, an array of
 * samplers) carries them beside its numbers, in flattened order, as
 * indices of those provisional objects; locals and parameters keep one per
 * object of their type, so copies, casts, calls and member accesses move
 * objects exactly as they move numbers. */
#include "hlsl/hlsl_ast.h"

#include "ir/reflect.h"
#include "vm/scalar_ops.h"

#include <stdlib.h>
#include <limits.h>
#include <string.h>

typedef struct
{
  uint32_t *c;
  int       n;
  int      *o;    /* objects (ObjRef indices, -1 = unbound), or NULL */
  int       no;
} RVal;

typedef struct
{
  uint32_t ref;   /* variable IR value */
  uint32_t cond;  /* bool IR value, or SL_IR_NONE */
  int      comp;  /* component of the lvalue expression */
} LRef;

typedef struct
{
  Func     *func;
  bool      framed;     /* FBEGIN/FEND emitted: returns are masked */
  uint32_t *ret_vals;   /* framed: variables holding the result */
  RVal      ret_rv;     /* unframed: the value of the final return */
  int      *ret_objs;   /* framed: the objects returned */
  bool      returned;
} Frame;

typedef struct
{
  Var *var;
  int  element;
  int  slot;
  int  first_use_order;
  /* Below SM 4 a texture object sampled through a sampler object becomes
   * one combined sampler (D3D9 has nothing else): @svar/@selement name the
   * sampler, @var/@element the texture. */
  Var *svar;
  int  selement;
} ObjRef;

typedef struct
{
  guint insn;
  Var  *var;
  int   comp;       /* flattened component of the variable */
  bool  indexed;    /* LOADCI: comp is within element 0 */
} URef;

typedef struct
{
  HlslUnit      *u;
  SlIr          *ir;
  SlProgramInfo *info;
  uint32_t     **var_vals;    /* var id → IR variables */
  int          **var_objs;    /* var id → its objects (ObjRef indices), or NULL */
  GArray        *objs;        /* ObjRef */
  GArray        *urefs;       /* URef */
  GHashTable    *refused;     /* Var*: global structs with objects, reported */
  Frame          frames[SL_MAX_INLINE_DEPTH];
  int            n_frames;
  int            loop_depth;
  int            cf_depth;
  bool           failed;
  int            sm;
} L;

static void
lerror (L *l, SlLoc loc, const char *fmt, ...) __attribute__ ((format (printf, 3, 4)));
static void
lerror (L *l, SlLoc loc, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  sl_diagnostics_add (l->u->diags, SL_SEVERITY_ERROR, loc.file, loc.line, loc.column, "E-HLSL",
                      "%s", msg);
  g_free (msg);
  l->failed = true;
}

static RVal
rv_new (L *l, int n)
{
  RVal r = { .c = SL_NEW_N (l->u->arena, uint32_t, n > 0 ? n : 1), .n = n };
  return r;
}

/* The objects of @v from @first on, @n of them; unbound where @v has
 * none there. */
static int *
objs_at (L *l, RVal v, int first, int n)
{
  if (v.o && first >= 0 && first + n <= v.no)
    return v.o + first;
  int *o = SL_NEW_N (l->u->arena, int, n > 0 ? n : 1);
  for (int j = 0; j < n; j++)
    o[j] = v.o && first + j >= 0 && first + j < v.no ? v.o[first + j] : -1;
  return o;
}

static int *
objs_copy (L *l, const int *src, int n)
{
  int *o = SL_NEW_N (l->u->arena, int, n > 0 ? n : 1);
  for (int j = 0; j < n; j++)
    o[j] = src ? src[j] : -1;
  return o;
}

static SlKind
kind_of (BaseType b)
{
  switch (b)
    {
    case BT_BOOL: return SL_KIND_BOOL;
    case BT_INT: return SL_KIND_INT;
    case BT_UINT: return SL_KIND_UINT;
    default: return SL_KIND_FLOAT;
    }
}

/* Base type of each flattened component of @t. */
static void
comp_bases (const Type *t, BaseType *out, int *pos)
{
  switch (t->kind)
    {
    case TY_NUM:
      for (int i = 0; i < t->n_comp; i++)
        out[(*pos)++] = t->base;
      break;
    case TY_ARRAY:
      for (int i = 0; i < t->len; i++)
        comp_bases (t->elem, out, pos);
      break;
    case TY_STRUCT:
      for (int i = 0; i < t->n_fields; i++)
        comp_bases (t->fields[i].type, out, pos);
      break;
    default:
      break;
    }
}

static BaseType *
bases_of (L *l, const Type *t)
{
  BaseType *b = SL_NEW_N (l->u->arena, BaseType, t->n_comp + 1);
  int pos = 0;
  comp_bases (t, b, &pos);
  return b;
}

static uint32_t
zero_of (L *l, BaseType b)
{
  return sl_ir_const (l->ir, kind_of (b), 0);
}

static uint32_t
one_of (L *l, BaseType b)
{
  switch (b)
    {
    case BT_FLOAT: return sl_ir_const_f (l->ir, 1.0f);
    case BT_BOOL: return sl_ir_const_b (l->ir, true);
    default: return sl_ir_const (l->ir, kind_of (b), 1);
    }
}

/* Converts one scalar between base types. */
static uint32_t
conv (L *l, uint32_t v, BaseType from, BaseType to)
{
  if (from == to)
    return v;
  SlIr *ir = l->ir;
  switch (to)
    {
    case BT_FLOAT:
      return sl_ir_op1 (ir, from == BT_INT ? SL_OP_ITOF : from == BT_UINT ? SL_OP_UTOF : SL_OP_BTOF,
                        SL_KIND_FLOAT, v);
    case BT_INT:
      if (from == BT_FLOAT)
        return sl_ir_op1 (ir, SL_OP_FTOI, SL_KIND_INT, v);
      if (from == BT_BOOL)
        return sl_ir_op1 (ir, SL_OP_BTOI, SL_KIND_INT, v);
      return sl_ir_op1 (ir, SL_OP_MOV, SL_KIND_INT, v);
    case BT_UINT:
      if (from == BT_FLOAT)
        return sl_ir_op1 (ir, SL_OP_FTOU, SL_KIND_UINT, v);
      if (from == BT_BOOL)
        return sl_ir_op1 (ir, SL_OP_BTOI, SL_KIND_UINT, v);
      return sl_ir_op1 (ir, SL_OP_MOV, SL_KIND_UINT, v);
    case BT_BOOL:
      return sl_ir_op1 (ir, from == BT_FLOAT ? SL_OP_FTOB : SL_OP_ITOB, SL_KIND_BOOL, v);
    }
  return v;
}

/* The value of @v (of type @from) as type @to, following HLSL's rules:
 * scalars replicate, matrices truncate by rows and columns, everything
 * else takes leading components. */
static RVal
cast_rval (L *l, RVal v, const Type *from, const Type *to)
{
  if (to->kind == TY_SAMPLER || to->kind == TY_TEXTURE || to->kind == TY_VOID)
    return v;
  RVal r = rv_new (l, to->n_comp);
  BaseType *fb = bases_of (l, from), *tb = bases_of (l, to);
  for (int i = 0; i < to->n_comp; i++)
    {
      int src;
      if (v.n == 1)
        src = 0;
      else if (from->kind == TY_NUM && to->kind == TY_NUM && from->cls == NUM_MATRIX
               && to->cls == NUM_MATRIX)
        src = (i / to->cols) * from->cols + (i % to->cols);
      else
        src = i;
      if (src >= v.n)
        src = v.n - 1;
      r.c[i] = conv (l, v.c[src], fb[src < from->n_comp ? src : 0], tb[i]);
    }
  /* The parser let the cast through only if the objects line up: the
   * leading ones carry over. */
  if (to->n_objects)
    {
      r.o = objs_at (l, v, 0, to->n_objects);
      r.no = to->n_objects;
    }
  return r;
}

static RVal lower_expr (L *l, Node *e);
static void lower_stmt (L *l, Node *s);

/* ------------------------------------------------------------------ */
/* Variables, uniforms, objects                                         */
/* ------------------------------------------------------------------ */

static uint32_t *
alloc_var (L *l, Var *v)
{
  int n = v->type->n_comp;
  BaseType *b = bases_of (l, v->type);
  uint32_t *vals = SL_NEW_N (l->u->arena, uint32_t, n + 1);
  for (int i = 0; i < n; i++)
    vals[i] = sl_ir_new_value (l->ir, kind_of (b[i]), SL_VALUE_VAR);
  l->var_vals[v->id] = vals;
  return vals;
}

static RVal
load_uniform (L *l, Var *v)
{
  RVal r = rv_new (l, v->type->n_comp);
  BaseType *b = bases_of (l, v->type);
  for (int k = 0; k < r.n; k++)
    {
      /* SM2/3 keep every uniform in float registers: integers and bools
       * are read as floats and converted. */
      SlKind kind = l->sm < 40 ? SL_KIND_FLOAT : kind_of (b[k]);
      uint32_t d = sl_ir_new_value (l->ir, kind, SL_VALUE_TEMP);
      SlInsn in = { .op = SL_OP_LOADC, .n_dst = 1, .dst = { d } };
      guint at = sl_ir_emit (l->ir, &in);
      URef u = { .insn = at, .var = v, .comp = k };
      g_array_append_val (l->urefs, u);
      r.c[k] = l->sm < 40 ? conv (l, d, BT_FLOAT, b[k]) : d;
    }
  return r;
}

static RVal
var_rval (L *l, Var *v, SlLoc loc)
{
  if (v->storage == STORE_UNIFORM || (v->storage == STORE_PARAM && v->uniform_param))
    return load_uniform (l, v);
  uint32_t *vals = l->var_vals[v->id];
  if (!vals && v->type->n_comp)
    {
      /* A static global read before main initialised it cannot happen;
       * anything else is a compiler bug, reported rather than crashed. */
      lerror (l, loc, "internal error: variable '%s' has no storage", v->name);
      vals = alloc_var (l, v);
    }
  RVal r = { .c = vals, .n = v->type->n_comp };
  /* Copy, so that later writes to the variable do not change this value. */
  RVal c = rv_new (l, r.n);
  if (r.n)
    memcpy (c.c, r.c, r.n * sizeof (uint32_t));
  if (v->type->n_objects)
    {
      c.o = objs_copy (l, l->var_objs[v->id], v->type->n_objects);
      c.no = v->type->n_objects;
    }
  return c;
}

static int
obj_ref (L *l, Var *v, int element)
{
  for (guint i = 0; i < l->objs->len; i++)
    {
      ObjRef *o = &g_array_index (l->objs, ObjRef, i);
      if (o->var == v && o->element == element && !o->svar)
        return i;
    }
  ObjRef o = { .var = v, .element = element, .slot = -1, .first_use_order = l->objs->len };
  g_array_append_val (l->objs, o);
  return l->objs->len - 1;
}

static int
combined_ref (L *l, int tex, int samp)
{
  ObjRef t = g_array_index (l->objs, ObjRef, tex), s = g_array_index (l->objs, ObjRef, samp);
  for (guint i = 0; i < l->objs->len; i++)
    {
      ObjRef *o = &g_array_index (l->objs, ObjRef, i);
      if (o->var == t.var && o->element == t.element && o->svar == s.var && o->selement == s.element)
        return i;
    }
  ObjRef o = { .var = t.var, .element = t.element, .slot = -1,
               .first_use_order = l->objs->len, .svar = s.var, .selement = s.element };
  g_array_append_val (l->objs, o);
  return l->objs->len - 1;
}

/* How many objects come before field @fi of struct @t. */
static int
objects_before_field (const Type *t, int fi)
{
  int n = 0;
  if (t->kind != TY_STRUCT)
    return 0;
  for (int i = 0; i < fi && i < t->n_fields; i++)
    n += t->fields[i].type->n_objects;
  return n;
}

/* Uniform structs holding objects would need constant layout, slots and
 * reflection for their members; they are refused, once per variable. */
static void
refuse_global_struct (L *l, Var *v, SlLoc loc)
{
  if (g_hash_table_contains (l->refused, v))
    return;
  g_hash_table_add (l->refused, v);
  lerror (l, loc, "'%s': samplers and textures inside global structs are not supported; "
          "declare them as separate globals", v->name);
}

static bool
is_local_storage (const Var *v)
{
  return v->storage == STORE_PARAM || v->storage == STORE_LOCAL;
}

/* Whether @v's objects are values the shader binds (locals, parameters,
 * and static globals once initialised or assigned) rather than resources
 * of their own. */
static bool
tracks_objects (L *l, const Var *v)
{
  return is_local_storage (v) || (v->storage == STORE_STATIC && l->var_objs[v->id]);
}

/* Follows members and indices from @e down to a variable, counting
 * objects: returns the variable, with *first the position of e's first
 * object among the variable's, or NULL when @e is no such path.  Indices
 * must be constant (objects are chosen when compiling); *bad is set after
 * a diagnostic. */
static Var *
object_path (L *l, Node *e, int *first, bool *bad)
{
  switch (e->kind)
    {
    case N_VAR:
      *first = 0;
      return e->var;
    case N_MEMBER:
      {
        Var *v = object_path (l, e->a, first, bad);
        if (v)
          *first += objects_before_field (e->a->type, e->op);
        return v;
      }
    case N_INDEX:
      {
        if (e->a->type->kind != TY_ARRAY)
          return NULL;
        Var *v = object_path (l, e->a, first, bad);
        if (!v)
          return NULL;
        RVal idx = lower_expr (l, e->b);
        const SlValue *iv = sl_ir_value (l->ir, idx.c[0]);
        if (iv->cls != SL_VALUE_CONST)
          {
            lerror (l, e->loc, "sampler arrays must be indexed by a constant");
            *bad = true;
            return NULL;
          }
        int k = (int32_t) iv->bits;
        if (k < 0 || k >= e->a->type->len)
          {
            lerror (l, e->loc, "sampler index %d is out of range", k);
            *bad = true;
            return NULL;
          }
        *first += k * e->type->n_objects;
        return v;
      }
    default:
      return NULL;
    }
}

/* The branch a ternary selecting objects takes: its condition must fold.
 * NULL after a diagnostic. */
static Node *
constant_branch (L *l, Node *e)
{
  Node *c = e->a;
  while (c->kind == N_CAST)
    c = c->a;
  if (c->kind != N_LIT || !c->lit)
    {
      lerror (l, e->loc, "the condition selecting a sampler or texture must be constant");
      return NULL;
    }
  return (c->lit[0] & 0x7fffffffu) ? e->b : e->c;
}

static RVal lower_value (L *l, Node *e);

/* Resolves an expression of sampler/texture type to its object. */
static int
lower_object (L *l, Node *e)
{
  int first = 0;
  bool bad = false;
  Var *v = object_path (l, e, &first, &bad);
  if (bad)
    return 0;
  if (v && v->type->kind == TY_STRUCT && !tracks_objects (l, v))
    {
      refuse_global_struct (l, v, e->loc);
      return 0;
    }
  if (v && tracks_objects (l, v))
    {
      int *objs = l->var_objs[v->id];
      int o = objs && first < v->type->n_objects ? objs[first] : -1;
      if (o < 0 && v->type->kind == TY_STRUCT)
        lerror (l, e->loc, "'%s' holds a sampler or texture that is not bound to a global one",
                v->name);
      else if (o < 0)
        lerror (l, e->loc, "sampler '%s' is not bound to a global sampler", v->name);
      return o < 0 ? 0 : o;
    }
  if (v)
    return obj_ref (l, v, first);
  if (e->kind == N_TERNARY)
    {
      Node *b = constant_branch (l, e);
      return b ? lower_object (l, b) : 0;
    }
  RVal r = lower_value (l, e);
  if (r.no < 1 || !r.o)
    {
      lerror (l, e->loc, "unsupported sampler expression");
      return 0;
    }
  if (r.o[0] < 0)
    {
      lerror (l, e->loc, "sampler or texture is not bound to a global one");
      return 0;
    }
  return r.o[0];
}

/* ------------------------------------------------------------------ */
/* Lvalues                                                              */
/* ------------------------------------------------------------------ */

static GArray *
lvalue_refs (L *l, Node *e)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (LRef));
  switch (e->kind)
    {
    case N_VAR:
      {
        uint32_t *vals = l->var_vals[e->var->id];
        if (!vals)
          vals = alloc_var (l, e->var);
        for (int k = 0; k < e->type->n_comp; k++)
          {
            LRef r = { vals[k], SL_IR_NONE, k };
            g_array_append_val (out, r);
          }
      }
      break;
    case N_SWIZZLE:
      {
        GArray *sub = lvalue_refs (l, e->a);
        for (int j = 0; j < e->n_comps; j++)
          for (guint i = 0; i < sub->len; i++)
            {
              LRef r = g_array_index (sub, LRef, i);
              if (r.comp == e->comps[j])
                {
                  r.comp = j;
                  g_array_append_val (out, r);
                }
            }
        g_array_free (sub, TRUE);
      }
      break;
    case N_MEMBER:
      {
        GArray *sub = lvalue_refs (l, e->a);
        for (guint i = 0; i < sub->len; i++)
          {
            LRef r = g_array_index (sub, LRef, i);
            if (r.comp >= e->offset && r.comp < e->offset + e->type->n_comp)
              {
                r.comp -= e->offset;
                g_array_append_val (out, r);
              }
          }
        g_array_free (sub, TRUE);
      }
      break;
    case N_INDEX:
      {
        GArray *sub = lvalue_refs (l, e->a);
        int es = e->type->n_comp;
        RVal idx = lower_expr (l, e->b);
        /* A copy: emitting the comparisons below may move the value table. */
        const SlValue iv_copy = *sl_ir_value (l->ir, idx.c[0]), *iv = &iv_copy;
        int n_elem = e->a->type->n_comp / MAX (es, 1);
        uint32_t *conds = g_new0 (uint32_t, n_elem + 1);
        for (guint i = 0; i < sub->len; i++)
          {
            LRef r = g_array_index (sub, LRef, i);
            int k = r.comp / es;
            if (iv->cls == SL_VALUE_CONST)
              {
                if ((int32_t) iv->bits != k)
                  continue;
              }
            else
              {
                if (!conds[k])
                  conds[k] = sl_ir_op2 (l->ir, SL_OP_IEQ, SL_KIND_BOOL, idx.c[0],
                                        sl_ir_const_i (l->ir, k)) + 1;
                uint32_t c = conds[k] - 1;
                r.cond = r.cond == SL_IR_NONE ? c : sl_ir_op2 (l->ir, SL_OP_AND, SL_KIND_BOOL, r.cond, c);
              }
            r.comp %= es;
            g_array_append_val (out, r);
          }
        g_free (conds);
        g_array_free (sub, TRUE);
      }
      break;
    case N_CAST:
      g_array_free (out, TRUE);
      return lvalue_refs (l, e->a);
    default:
      lerror (l, e->loc, "expression is not assignable");
      break;
    }
  return out;
}

static BaseType
base_of_kind (SlKind k)
{
  switch (k)
    {
    case SL_KIND_BOOL: return BT_BOOL;
    case SL_KIND_INT: return BT_INT;
    case SL_KIND_UINT: return BT_UINT;
    default: return BT_FLOAT;
    }
}

/* Objects are compile-time values, so an assignment only rebinds the
 * variable's objects; one that would pick different objects depending on
 * run-time control flow cannot be honoured and is an error. */
static void
store_objects (L *l, Node *lhs, RVal v)
{
  int first = 0;
  bool bad = false;
  Var *var = object_path (l, lhs, &first, &bad);
  if (bad)
    return;
  if (!var || (!is_local_storage (var) && var->storage != STORE_STATIC))
    {
      lerror (l, lhs->loc, "samplers and textures can only be assigned to local variables");
      return;
    }
  int n = var->type->n_objects;
  if (!l->var_objs[var->id])
    l->var_objs[var->id] = objs_copy (l, NULL, n);
  int *slots = l->var_objs[var->id];
  for (int j = 0; j < lhs->type->n_objects && first + j < n; j++)
    {
      int nv = j < v.no ? v.o[j] : -1;
      int *old = &slots[first + j];
      if (l->cf_depth > 0 && *old >= 0 && nv != *old)
        {
          lerror (l, lhs->loc, "a sampler or texture cannot be reassigned inside control flow "
                  "(objects are chosen when compiling)");
          return;
        }
      *old = nv;
    }
}

static void
store (L *l, Node *lhs, RVal v)
{
  if (lhs->type->n_objects && v.o)
    store_objects (l, lhs, v);
  /* A cast lvalue assigns part of its operand: component i of the cast
   * type lands on the same position (row and column for matrices) of the
   * operand.  The value keeps the outermost cast's conversion only; inner
   * casts change no values (as the D3D compiler does). */
  if (lhs->kind == N_CAST)
    {
      const Type *outer = lhs->type, *inner = lhs->a->type;
      RVal wide = rv_new (l, inner->n_comp);
      for (int j = 0; j < wide.n; j++)
        wide.c[j] = SL_IR_NONE;
      for (int i = 0; i < v.n && i < outer->n_comp; i++)
        {
          int j = i;
          if (outer->kind == TY_NUM && inner->kind == TY_NUM && outer->cls == NUM_MATRIX
              && inner->cls == NUM_MATRIX)
            j = (i / outer->cols) * inner->cols + i % outer->cols;
          else if (outer->n_comp > inner->n_comp)
            j = i - (outer->n_comp - inner->n_comp);   /* the trailing ones land */
          if (j >= 0 && j < wide.n)
            wide.c[j] = v.c[i];
        }
      store (l, lhs->a, wide);
      return;
    }
  GArray *refs = lvalue_refs (l, lhs);
  RVal val = v;
  for (guint i = 0; i < refs->len; i++)
    {
      LRef r = g_array_index (refs, LRef, i);
      if (r.comp >= val.n || val.c[r.comp] == SL_IR_NONE)
        continue;
      uint32_t src = val.c[r.comp];
      SlKind sk = sl_ir_value (l->ir, src)->kind, dk = sl_ir_value (l->ir, r.ref)->kind;
      if (sk != dk)
        src = conv (l, src, base_of_kind (sk), base_of_kind (dk));
      if (r.cond != SL_IR_NONE)
        src = sl_ir_op3 (l->ir, SL_OP_SELECT, sl_ir_value (l->ir, r.ref)->kind, r.cond, src, r.ref);
      sl_ir_mov (l->ir, r.ref, src);
    }
  g_array_free (refs, TRUE);
}

/* ------------------------------------------------------------------ */
/* Arithmetic helpers                                                   */
/* ------------------------------------------------------------------ */

/* The D3D9 back end has no integer unit: below SM 4 an `int` quotient or
 * remainder is a float division (or float remainder) of the operands
 * rounded to float, truncated back.  The conformance corpus encodes the
 * resulting rounding, so reproduce it; the result saturates where the
 * float exceeds int32, which converts back to the same float. */
static uint32_t
float_int_div (L *l, int op, uint32_t x, uint32_t y)
{
  SlIr *ir = l->ir;
  uint32_t fx = sl_ir_op1 (ir, SL_OP_ITOF, SL_KIND_FLOAT, x);
  uint32_t fy = sl_ir_op1 (ir, SL_OP_ITOF, SL_KIND_FLOAT, y);
  uint32_t q = op == '/'
    ? sl_ir_op1 (ir, SL_OP_TRUNC, SL_KIND_FLOAT, sl_ir_op2 (ir, SL_OP_DIV, SL_KIND_FLOAT, fx, fy))
    : sl_ir_op2 (ir, SL_OP_FMOD, SL_KIND_FLOAT, fx, fy);
  return sl_ir_op1 (ir, SL_OP_FTOI, SL_KIND_INT, q);
}

/* The constant bits of @v as of instruction @before, if the straight-line
 * code emitted so far determines them.  Locals are IR variables, so this
 * looks through their last assignment, but not across control flow (a
 * branch or loop may have assigned them). */
static bool
known_bits (const SlIr *ir, uint32_t v, guint before, int depth, uint32_t *out)
{
  const SlValue *val = sl_ir_value (ir, v);
  if (val->cls == SL_VALUE_CONST)
    {
      *out = val->bits;
      return true;
    }
  if (depth > 16)
    return false;
  guint scanned = 0;
  for (guint i = before; i-- > 0 && scanned < 512; scanned++)
    {
      const SlInsn *in = sl_ir_insn (ir, i);
      bool writes = false;
      for (int d = 0; d < in->n_dst; d++)
        writes |= in->dst[d] == v;
      if (!writes)
        {
          if (val->cls == SL_VALUE_VAR && sl_op_shapes[in->op] == SL_SHAPE_SPECIAL
              && in->op >= SL_OP_IF)
            return false;
          continue;
        }
      if (sl_op_shapes[in->op] == SL_SHAPE_SPECIAL || in->n_dst != 1)
        return false;
      uint32_t srcs[SL_IR_MAX_SRC];
      for (int k = 0; k < in->n_src; k++)
        if (!known_bits (ir, in->src[k], i, depth + 1, &srcs[k]))
          return false;
      if (in->op == SL_OP_MOV)
        {
          *out = srcs[0];
          return true;
        }
      return sl_fold_op (in->op, srcs, out);
    }
  return false;
}

/* D3D9 compilers reject a division whose divisor is known to be zero. */
static void
check_zero_divisor (L *l, SlLoc loc, BaseType b, uint32_t y)
{
  uint32_t bits;
  if (!known_bits (l->ir, y, l->ir->insns->len, 0, &bits))
    return;
  if (b == BT_FLOAT ? (bits & 0x7fffffffu) == 0 : bits == 0)
    lerror (l, loc, "division by zero");
}

static uint32_t fxc_fmod (L *l, uint32_t x, uint32_t y);

static uint32_t
arith (L *l, int op, BaseType b, uint32_t x, uint32_t y)
{
  SlIr *ir = l->ir;
  bool f = b == BT_FLOAT, u = b == BT_UINT;
  SlOp o;
  SlKind k = kind_of (b);
  if (l->sm < 40 && b == BT_INT && (op == '/' || op == '%'))
    {
      uint32_t kx, ky;
      if (!known_bits (ir, x, ir->insns->len, 0, &kx) || !known_bits (ir, y, ir->insns->len, 0, &ky))
        return float_int_div (l, op, x, y);
      /* ...but the compiler folds constant operands as exact integers
       * (INT_MIN / -1 is +2^31, kept as the saturated int). */
      int64_t nx = (int32_t) kx, ny = (int32_t) ky;
      int64_t q = ny == 0 ? 0 : op == '/' ? nx / ny : nx % ny;
      return sl_ir_const_i (ir, (int32_t) CLAMP (q, INT32_MIN, INT32_MAX));
    }
  switch (op)
    {
    case '+': o = f ? SL_OP_ADD : SL_OP_IADD; break;
    case '-': o = f ? SL_OP_SUB : SL_OP_ISUB; break;
    case '*': o = f ? SL_OP_MUL : SL_OP_IMUL; break;
    case '/': o = f ? SL_OP_DIV : u ? SL_OP_UDIV : SL_OP_IDIV; break;
    case '%':
      if (f)
        return fxc_fmod (l, x, y);
      o = u ? SL_OP_UMOD : SL_OP_IMOD;
      break;
    case '&': case '&' * 256 + '&': o = SL_OP_AND; break;
    case '|': case '|' * 256 + '|': o = SL_OP_OR; break;
    case '^': o = SL_OP_XOR; break;
    case '<' * 256 + '<': o = SL_OP_SHL; break;
    case '>' * 256 + '>': o = u ? SL_OP_USHR : SL_OP_ISHR; break;
    case '<':
      return sl_ir_op2 (ir, f ? SL_OP_LT : u ? SL_OP_ULT : SL_OP_ILT, SL_KIND_BOOL, x, y);
    case '>':
      return sl_ir_op2 (ir, f ? SL_OP_LT : u ? SL_OP_ULT : SL_OP_ILT, SL_KIND_BOOL, y, x);
    case '<' * 256 + '=':
      return sl_ir_op2 (ir, f ? SL_OP_GE : u ? SL_OP_UGE : SL_OP_IGE, SL_KIND_BOOL, y, x);
    case '>' * 256 + '=':
      return sl_ir_op2 (ir, f ? SL_OP_GE : u ? SL_OP_UGE : SL_OP_IGE, SL_KIND_BOOL, x, y);
    case '=' * 256 + '=':
      return sl_ir_op2 (ir, f ? SL_OP_EQ : SL_OP_IEQ, SL_KIND_BOOL, x, y);
    case '!' * 256 + '=':
      return sl_ir_op2 (ir, f ? SL_OP_NE : SL_OP_INE, SL_KIND_BOOL, x, y);
    default:
      return x;
    }
  if (b == BT_BOOL)
    k = SL_KIND_BOOL;
  return sl_ir_op2 (ir, o, k, x, y);
}

static uint32_t f1 (L *l, SlOp op, uint32_t a) { return sl_ir_op1 (l->ir, op, SL_KIND_FLOAT, a); }
static uint32_t f2 (L *l, SlOp op, uint32_t a, uint32_t b) { return sl_ir_op2 (l->ir, op, SL_KIND_FLOAT, a, b); }
static uint32_t f3 (L *l, SlOp op, uint32_t a, uint32_t b, uint32_t c) { return sl_ir_op3 (l->ir, op, SL_KIND_FLOAT, a, b, c); }
static uint32_t fc (L *l, float v) { return sl_ir_const_f (l->ir, v); }

static uint32_t
dot_n (L *l, BaseType b, RVal x, RVal y, int n)
{
  uint32_t acc = arith (l, '*', b, x.c[0], y.c[0]);
  for (int i = 1; i < n; i++)
    {
      if (b == BT_FLOAT)
        acc = f3 (l, SL_OP_MAD, x.c[i], y.c[i], acc);
      else
        acc = arith (l, '+', b, acc, arith (l, '*', b, x.c[i], y.c[i]));
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

/* Neither D3D9 nor SM4/SM5 bytecode has an instruction for float
 * remainders or inverse sines and cosines: fxc expands them, and the
 * conformance corpus encodes the expansions' results (0.15 % 0.05 is
 * exactly 0, asin(0) is 6.75e-5, asin(0.5) * 20000 rounds to 10473).
 * HLSL gets the same arithmetic, so a shader gives here what it gives
 * under Direct3D.  The IR's FMOD, ASIN and ACOS keep their exact
 * meaning for the other users.
 *
 * x % y: q = x / y; the fraction of |q| with q's sign, times y. */
static uint32_t
fxc_fmod (L *l, uint32_t x, uint32_t y)
{
  uint32_t q = f2 (l, SL_OP_DIV, x, y);
  uint32_t frac = f1 (l, SL_OP_FRC, f1 (l, SL_OP_ABS, q));
  uint32_t q_positive = sl_ir_op2 (l->ir, SL_OP_GE, SL_KIND_BOOL, q, f1 (l, SL_OP_NEG, q));
  uint32_t signed_frac = sl_ir_op3 (l->ir, SL_OP_SELECT, SL_KIND_FLOAT, q_positive, frac,
                                    f1 (l, SL_OP_NEG, frac));
  return f2 (l, SL_OP_MUL, signed_frac, y);
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

/* ------------------------------------------------------------------ */
/* Texture reads                                                        */
/* ------------------------------------------------------------------ */

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

static bool const_offsets (L *l, Node *arg, int nc, int8_t out[3]);

static RVal
lower_tex_intrinsic (L *l, Node *e)
{
  int id = e->op;
  int variant = (id - INTR_TEX1D) % 5;
  int dim = e->sampler_obj;
  int nc = dim == SL_TEXTURE_1D ? 1 : dim == SL_TEXTURE_2D ? 2 : 3;
  int obj = lower_object (l, e->args[0]);
  RVal c = lower_expr (l, e->args[1]);
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
      RVal dx = lower_expr (l, e->args[2]), dy = lower_expr (l, e->args[3]);
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
  RVal o = lower_expr (l, arg);
  for (int i = 0; i < nc && i < o.n; i++)
    {
      const SlValue *v = sl_ir_value (l->ir, o.c[i]);
      if (v->cls != SL_VALUE_CONST)
        {
          lerror (l, arg->loc, "texel offsets must be constant");
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
  int tex = lower_object (l, e->a);
  uint32_t srcs[SL_IR_MAX_SRC];
  int n = 0;
  int8_t off[3] = { 0, 0, 0 };
  if (id == INTR_M_LOAD)
    {
      RVal c = lower_expr (l, e->args[0]);
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
          RVal m = lower_expr (l, e->args[0]);
          level = conv (l, m.c[0], e->args[0]->type->base, BT_INT);
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
          v.c[0] = conv (l, in.dst[which], BT_UINT, target->type->base);
          store (l, target, v);
        }
      return rv_new (l, 0);
    }
  int samp = lower_object (l, e->args[0]);
  RVal c = lower_expr (l, e->args[1]);
  for (int i = 0; i < nc; i++)
    srcs[n++] = c.c[i];
  SlSampleMode mode = SL_SAMPLE_IMPLICIT;
  int next_arg = 2;
  switch (id)
    {
    case INTR_M_SAMPLEBIAS: mode = SL_SAMPLE_BIAS; srcs[n++] = lower_expr (l, e->args[2]).c[0]; next_arg = 3; break;
    case INTR_M_SAMPLELEVEL: mode = SL_SAMPLE_LOD; srcs[n++] = lower_expr (l, e->args[2]).c[0]; next_arg = 3; break;
    case INTR_M_SAMPLECMP: case INTR_M_SAMPLECMPLZ:
      mode = SL_SAMPLE_COMPARE; srcs[n++] = lower_expr (l, e->args[2]).c[0]; next_arg = 3; break;
    case INTR_M_SAMPLEGRAD:
      {
        RVal dx = lower_expr (l, e->args[2]), dy = lower_expr (l, e->args[3]);
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
    tex = samp = combined_ref (l, tex, samp);
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
  int obj = lower_object (l, e->args[0]);
  uint32_t srcs[SL_IR_MAX_SRC];
  int8_t off[3] = { 0, 0, 0 };
  switch (id)
    {
    case INTR_RS_TEX2DFETCH:
      {
        RVal c = lower_expr (l, e->args[1]);
        srcs[0] = c.c[0];
        srcs[1] = c.c[1];
        srcs[2] = c.n >= 4 ? c.c[3] : e->n_args > 2 ? lower_expr (l, e->args[2]).c[0] : sl_ir_const_i (l->ir, 0);
        return emit_sample (l, obj, obj, SL_TEXTURE_2D, SL_SAMPLE_LOAD, srcs, 3, NULL, 4);
      }
    case INTR_RS_TEX2DSIZE:
      {
        uint32_t level = e->n_args > 1 ? lower_expr (l, e->args[1]).c[0] : sl_ir_const_i (l->ir, 0);
        uint32_t w, h;
        texture_size (l, obj, level, &w, &h);
        RVal r = rv_new (l, 2);
        r.c[0] = conv (l, w, BT_UINT, BT_INT);
        r.c[1] = conv (l, h, BT_UINT, BT_INT);
        return r;
      }
    case INTR_RS_TEX2DOFFSET:
    case INTR_RS_TEX2DLODOFFSET:
      {
        RVal c = lower_expr (l, e->args[1]);
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
      RVal cv = lower_expr (l, e->args[2]);
      const SlValue *v = sl_ir_value (l->ir, cv.c[0]);
      if (v->cls != SL_VALUE_CONST || (int32_t) v->bits < 0 || (int32_t) v->bits > 3)
        {
          lerror (l, e->args[2]->loc, "the component of 'tex2Dgather' must be a constant 0 to 3");
          return rv_new (l, 4);
        }
      comp = (int32_t) v->bits;
      off_arg = 3;
    }
  if (e->n_args > off_arg && !const_offsets (l, e->args[off_arg], 2, off))
    return rv_new (l, 4);
  RVal c = lower_expr (l, e->args[1]);
  uint32_t wu, hu;
  texture_size (l, obj, sl_ir_const_i (l->ir, 0), &wu, &hu);
  uint32_t size[2] = { conv (l, wu, BT_UINT, BT_FLOAT), conv (l, hu, BT_UINT, BT_FLOAT) };
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

/* ------------------------------------------------------------------ */
/* Intrinsics                                                           */
/* ------------------------------------------------------------------ */

static RVal
arg_rv (L *l, Node *e, int i)
{
  return lower_expr (l, e->args[i]);
}

static RVal
lower_intrinsic (L *l, Node *e)
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
                uint32_t pos = sl_ir_op1 (ir, SL_OP_BTOI, SL_KIND_INT, arith (l, '<', ab, z, a.c[i]));
                uint32_t neg = sl_ir_op1 (ir, SL_OP_BTOI, SL_KIND_INT, arith (l, '<', ab, a.c[i], z));
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
          rem.c[i] = fxc_fmod (l, x.c[i], y.c[y.n == 1 ? 0 : i]);
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
                                  : arith (l, '+', ab, arith (l, '*', ab, a.c[i], b.c[i]), c.c[i]);
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
            uint32_t b = conv (l, a.c[i], ab, BT_BOOL);
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
        store (l, e->args[1], cast_rval (l, ip, e->args[0]->type, e->args[1]->type));
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
        store (l, e->args[1], cast_rval (l, ex, e->args[0]->type, e->args[1]->type));
        return r;
      }
    case INTR_SINCOS:
      {
        RVal a = arg_rv (l, e, 0);
        store (l, e->args[1], cast_rval (l, map1 (l, a, SL_OP_SIN), e->args[0]->type, e->args[1]->type));
        store (l, e->args[2], cast_rval (l, map1 (l, a, SL_OP_COS), e->args[0]->type, e->args[2]->type));
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
              r.c[i] = arith (l, '*', mb, a.c[a.n == 1 ? 0 : i], b.c[b.n == 1 ? 0 : i]);
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
      lerror (l, e->loc, "intrinsic is not supported yet");
      return r;
    }
}

/* ------------------------------------------------------------------ */
/* Calls                                                                */
/* ------------------------------------------------------------------ */

static bool
returns_inside_cf (Node *s, bool top)
{
  if (!s)
    return false;
  switch (s->kind)
    {
    case S_RETURN:
      return !top;
    case S_BLOCK:
      for (int i = 0; i < s->n_args; i++)
        if (returns_inside_cf (s->args[i], top && i == s->n_args - 1))
          return true;
      return false;
    case S_IF:
      return returns_inside_cf (s->b, false) || returns_inside_cf (s->c, false);
    case S_FOR: case S_WHILE: case S_DO:
      return returns_inside_cf (s->d, false);
    case S_SWITCH:
      for (int i = 0; i < s->n_args; i++)
        if (returns_inside_cf (s->args[i], false))
          return true;
      return false;
    default:
      return false;
    }
}

static RVal
inline_call (L *l, Node *call)
{
  Func *f = call->func;
  if (!f->body)
    {
      lerror (l, call->loc, "function '%s' is declared but never defined", f->name);
      return rv_new (l, f->ret->n_comp);
    }
  if (f->busy)
    {
      lerror (l, call->loc, "recursive call to '%s': recursion is not allowed in shaders", f->name);
      return rv_new (l, f->ret->n_comp);
    }
  if (l->n_frames >= SL_MAX_INLINE_DEPTH)
    {
      lerror (l, call->loc, "calls nested too deeply");
      return rv_new (l, f->ret->n_comp);
    }
  /* Arguments are evaluated before the parameters are bound, so
   * f(x, x) style calls see consistent values. */
  RVal *args = g_new0 (RVal, f->n_params + 1);
  for (int k = 0; k < f->n_params; k++)
    {
      Var *prm = f->params[k];
      /* An out parameter's objects come from the callee, but an inout
       * one is read like an in one. */
      if (prm->param_mod != 1)
        args[k] = lower_expr (l, call->args[k]);
    }
  for (int k = 0; k < f->n_params; k++)
    {
      Var *prm = f->params[k];
      if (prm->type->n_objects)
        l->var_objs[prm->id] = objs_copy (l, objs_at (l, args[k], 0, prm->type->n_objects),
                                          prm->type->n_objects);
      if (!prm->type->n_comp)
        continue;
      uint32_t *vals = alloc_var (l, prm);
      BaseType *b = bases_of (l, prm->type);
      for (int i = 0; i < prm->type->n_comp; i++)
        {
          uint32_t src = prm->param_mod == 1 ? zero_of (l, b[i])
                         : args[k].c[MIN (i, args[k].n - 1)];
          if (prm->param_mod == 2 && call->args[k]->type->n_comp == prm->type->n_comp)
            src = conv (l, src, bases_of (l, call->args[k]->type)[i], b[i]);
          sl_ir_mov (l->ir, vals[i], src);
        }
    }

  Frame *fr = &l->frames[l->n_frames++];
  memset (fr, 0, sizeof *fr);
  fr->func = f;
  fr->framed = returns_inside_cf (f->body, true);
  if (fr->framed)
    {
      fr->ret_vals = SL_NEW_N (l->u->arena, uint32_t, f->ret->n_comp + 1);
      fr->ret_objs = objs_copy (l, NULL, f->ret->n_objects);
      BaseType *b = bases_of (l, f->ret);
      for (int i = 0; i < f->ret->n_comp; i++)
        {
          fr->ret_vals[i] = sl_ir_new_value (l->ir, kind_of (b[i]), SL_VALUE_VAR);
          sl_ir_mov (l->ir, fr->ret_vals[i], zero_of (l, b[i]));
        }
      sl_ir_ctrl (l->ir, SL_OP_FBEGIN, SL_IR_NONE, 0);
      l->cf_depth++;
    }
  f->busy = true;
  int saved_loop = l->loop_depth;
  l->loop_depth = 0;
  lower_stmt (l, f->body);
  l->loop_depth = saved_loop;
  f->busy = false;
  if (fr->framed)
    {
      sl_ir_ctrl (l->ir, SL_OP_FEND, SL_IR_NONE, 0);
      l->cf_depth--;
    }
  RVal result;
  if (fr->framed)
    {
      result = rv_new (l, f->ret->n_comp);
      memcpy (result.c, fr->ret_vals, f->ret->n_comp * sizeof (uint32_t));
      if (f->ret->n_objects)
        {
          result.o = fr->ret_objs;
          result.no = f->ret->n_objects;
        }
    }
  else if (fr->returned)
    result = fr->ret_rv;
  else
    {
      /* The parser rejects a reachable end; what remains is a body that
       * never leaves an endless loop. */
      if (f->ret->kind != TY_VOID && f->ret->kind != TY_ERROR)
        lerror (l, f->loc, "function '%s' does not return a value", f->name);
      result = rv_new (l, f->ret->n_comp);
      BaseType *b = bases_of (l, f->ret);
      for (int i = 0; i < result.n; i++)
        result.c[i] = zero_of (l, b[i]);
    }
  l->n_frames--;

  /* Copy out/inout parameters back to the arguments. */
  for (int k = 0; k < f->n_params; k++)
    {
      Var *prm = f->params[k];
      if (prm->param_mod == 0)
        continue;
      RVal c = rv_new (l, prm->type->n_comp);
      if (prm->type->n_comp)
        memcpy (c.c, l->var_vals[prm->id], c.n * sizeof (uint32_t));
      /* Objects go back only if the callee rebound them: an inout
       * argument may be a global object, which cannot be assigned. */
      int no = prm->type->n_objects;
      int *now = l->var_objs[prm->id];
      if (no && now && (prm->param_mod == 1 || memcmp (now, objs_at (l, args[k], 0, no), no * sizeof (int))))
        {
          c.o = objs_copy (l, now, no);
          c.no = no;
        }
      if (!prm->type->n_comp && !c.o)
        continue;
      store (l, call->args[k], cast_rval (l, c, prm->type, call->args[k]->type));
    }
  g_free (args);
  return result;
}

/* ------------------------------------------------------------------ */
/* Expressions                                                          */
/* ------------------------------------------------------------------ */

/* Brace lists flatten numbers and objects separately: the parser checked
 * that the objects fall where the target type has them. */
static void
flatten_init (L *l, Node *e, GArray *comps, GArray *bases, GArray *objs)
{
  if (e->kind == N_INITLIST)
    {
      for (int i = 0; i < e->n_args; i++)
        flatten_init (l, e->args[i], comps, bases, objs);
      return;
    }
  RVal v = lower_expr (l, e);
  BaseType *b = bases_of (l, e->type);
  for (int i = 0; i < v.n; i++)
    {
      g_array_append_val (comps, v.c[i]);
      g_array_append_val (bases, b[i]);
    }
  if (objs && v.o)
    g_array_append_vals (objs, v.o, v.no);
}

static RVal
lower_initlist (L *l, Node *e, Type *target)
{
  GArray *comps = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  GArray *bases = g_array_new (FALSE, FALSE, sizeof (BaseType));
  GArray *objs = g_array_new (FALSE, FALSE, sizeof (int));
  flatten_init (l, e, comps, bases, objs);
  RVal r = rv_new (l, target->n_comp);
  if (target->n_objects)
    {
      RVal ov = { .o = (int *) objs->data, .no = objs->len };
      r.o = objs_copy (l, objs_at (l, ov, 0, target->n_objects), target->n_objects);
      r.no = target->n_objects;
    }
  g_array_free (objs, TRUE);
  BaseType *tb = bases_of (l, target);
  for (int i = 0; i < r.n; i++)
    {
      int src = comps->len == 1 ? 0 : i;
      if ((guint) src >= comps->len)
        {
          r.c[i] = zero_of (l, tb[i]);
          continue;
        }
      r.c[i] = conv (l, g_array_index (comps, uint32_t, src), g_array_index (bases, BaseType, src), tb[i]);
    }
  g_array_free (comps, TRUE);
  g_array_free (bases, TRUE);
  return r;
}

/* An expression of object type goes through lower_object, which resolves
 * variables, members and indices to the one object they name without
 * touching the rest of an array or struct. */
static RVal
lower_expr (L *l, Node *e)
{
  if (e->type && (e->type->kind == TY_SAMPLER || e->type->kind == TY_TEXTURE))
    {
      RVal r = rv_new (l, 0);
      r.o = SL_NEW (l->u->arena, int);
      r.o[0] = lower_object (l, e);
      r.no = 1;
      return r;
    }
  return lower_value (l, e);
}

static RVal
lower_value (L *l, Node *e)
{
  SlIr *ir = l->ir;
  switch (e->kind)
    {
    case N_LIT:
      {
        if (e->type->kind != TY_NUM)
          return rv_new (l, 0);
        RVal r = rv_new (l, e->type->n_comp);
        for (int i = 0; i < r.n; i++)
          r.c[i] = sl_ir_const (ir, kind_of (e->type->base), e->lit[i]);
        return r;
      }
    case N_VAR:
      if (e->type->n_objects && !tracks_objects (l, e->var))
        {
          /* A whole array of global objects (an argument, say). */
          RVal r = rv_new (l, 0);
          if (e->type->n_comp)
            {
              refuse_global_struct (l, e->var, e->loc);
              return rv_new (l, e->type->n_comp);
            }
          r.no = e->type->n_objects;
          r.o = SL_NEW_N (l->u->arena, int, r.no);
          for (int j = 0; j < r.no; j++)
            r.o[j] = obj_ref (l, e->var, j);
          return r;
        }
      return var_rval (l, e->var, e->loc);
    case N_SWIZZLE:
      {
        RVal a = lower_expr (l, e->a);
        RVal r = rv_new (l, e->n_comps);
        for (int i = 0; i < e->n_comps; i++)
          r.c[i] = a.c[MIN (e->comps[i], a.n - 1)];
        return r;
      }
    case N_MEMBER:
      {
        RVal a = lower_expr (l, e->a);
        RVal r = { a.c + e->offset, e->type->n_comp };
        if (e->type->n_objects)
          {
            r.o = objs_at (l, a, objects_before_field (e->a->type, e->op), e->type->n_objects);
            r.no = e->type->n_objects;
          }
        return r;
      }
    case N_INDEX:
      {
        RVal idx = lower_expr (l, e->b);   /* the index is evaluated first */
        RVal a = lower_expr (l, e->a);
        int es = e->type->n_comp, eo = e->type->n_objects;
        int n_elem = e->a->type->kind == TY_ARRAY ? e->a->type->len : a.n / MAX (es, 1);
        const SlValue *iv = sl_ir_value (ir, idx.c[0]);
        if (iv->cls == SL_VALUE_CONST)
          {
            int k = (int32_t) iv->bits;
            if (k < 0 || k >= n_elem)
              {
                lerror (l, e->b->loc, "index %d is out of bounds (0 to %d)", k, n_elem - 1);
                k = 0;
              }
            RVal r = { a.c + k * es, es };
            if (eo)
              {
                r.o = objs_at (l, a, k * eo, eo);
                r.no = eo;
              }
            return r;
          }
        if (eo)
          {
            lerror (l, e->loc, "arrays holding samplers or textures must be indexed by a constant");
            return rv_new (l, es);
          }
        /* Dynamic index: a chain of selects; out-of-range reads give
         * element 0 rather than memory outside the array. */
        RVal r = rv_new (l, es);
        for (int c = 0; c < es; c++)
          r.c[c] = a.c[c];
        for (int k = 1; k < n_elem; k++)
          {
            uint32_t cond = sl_ir_op2 (ir, SL_OP_IEQ, SL_KIND_BOOL, idx.c[0], sl_ir_const_i (ir, k));
            for (int c = 0; c < es; c++)
              r.c[c] = sl_ir_op3 (ir, SL_OP_SELECT, sl_ir_value (ir, a.c[k * es + c])->kind, cond,
                                  a.c[k * es + c], r.c[c]);
          }
        return r;
      }
    case N_UNARY:
      {
        RVal a = lower_expr (l, e->a);
        RVal r = rv_new (l, a.n);
        BaseType b = e->type->base;
        for (int i = 0; i < a.n; i++)
          {
            const SlValue *av = sl_ir_value (ir, a.c[i]);
            if (e->op == '-' && av->cls == SL_VALUE_CONST && (b == BT_INT || b == BT_UINT))
              /* folded here: texel offsets such as int2(-1, 0) must be
               * constants when lowering the sample */
              r.c[i] = b == BT_INT ? sl_ir_const_i (ir, (int32_t) (0u - av->bits))
                                   : sl_ir_const_u (ir, 0u - av->bits);
            else if (e->op == '-' && b == BT_INT && l->sm < 40 && e->a->kind != N_LIT)
              /* D3D9 negates integers as floats (see float_int_div); a
               * negative literal is still the wrapped int32. */
              r.c[i] = sl_ir_op1 (ir, SL_OP_FTOI, SL_KIND_INT,
                                  f1 (l, SL_OP_NEG, sl_ir_op1 (ir, SL_OP_ITOF, SL_KIND_FLOAT,
                                                               a.c[i])));
            else if (e->op == '-')
              r.c[i] = b == BT_FLOAT ? f1 (l, SL_OP_NEG, a.c[i])
                                     : sl_ir_op1 (ir, SL_OP_INEG, kind_of (b), a.c[i]);
            else
              r.c[i] = sl_ir_op1 (ir, SL_OP_NOT, kind_of (b), a.c[i]);
          }
        return r;
      }
    case N_BINARY:
      {
        RVal a = lower_expr (l, e->a), b = lower_expr (l, e->b);
        BaseType ob = e->a->type->base;
        RVal r = rv_new (l, e->type->n_comp);
        for (int i = 0; i < r.n; i++)
          {
            uint32_t y = b.c[b.n == 1 ? 0 : i];
            if (l->sm < 40 && (e->op == '/' || e->op == '%') && !l->failed)
              check_zero_divisor (l, e->loc, ob, y);
            r.c[i] = arith (l, e->op, ob, a.c[a.n == 1 ? 0 : i], y);
          }
        return r;
      }
    case N_ASSIGN:
      {
        RVal v = lower_expr (l, e->b);
        store (l, e->a, v);
        return v;
      }
    case N_TERNARY:
      {
        if (e->type->n_objects)
          {
            Node *taken = constant_branch (l, e);
            return taken ? lower_expr (l, taken) : rv_new (l, e->type->n_comp);
          }
        RVal c = lower_expr (l, e->a), a = lower_expr (l, e->b), b = lower_expr (l, e->c);
        RVal r = rv_new (l, e->type->n_comp);
        for (int i = 0; i < r.n; i++)
          r.c[i] = sl_ir_op3 (ir, SL_OP_SELECT, sl_ir_value (ir, a.c[MIN (i, a.n - 1)])->kind,
                              c.c[c.n == 1 ? 0 : i], a.c[MIN (i, a.n - 1)], b.c[MIN (i, b.n - 1)]);
        return r;
      }
    case N_COMMA:
      lower_expr (l, e->a);
      return lower_expr (l, e->b);
    case N_CALL:
      return inline_call (l, e);
    case N_INTRINSIC:
      return lower_intrinsic (l, e);
    case N_CTOR:
      {
        GArray *comps = g_array_new (FALSE, FALSE, sizeof (uint32_t));
        GArray *bases = g_array_new (FALSE, FALSE, sizeof (BaseType));
        for (int i = 0; i < e->n_args; i++)
          flatten_init (l, e->args[i], comps, bases, NULL);
        RVal r = rv_new (l, e->type->n_comp);
        for (int i = 0; i < r.n; i++)
          {
            int src = comps->len == 1 ? 0 : i;
            r.c[i] = conv (l, g_array_index (comps, uint32_t, src),
                           g_array_index (bases, BaseType, src), e->type->base);
          }
        g_array_free (comps, TRUE);
        g_array_free (bases, TRUE);
        return r;
      }
    case N_CAST:
      return cast_rval (l, lower_expr (l, e->a), e->a->type, e->type);
    case N_INCDEC:
      {
        RVal old = lower_expr (l, e->a);
        RVal nv = rv_new (l, old.n);
        BaseType b = e->type->base;
        for (int i = 0; i < old.n; i++)
          nv.c[i] = arith (l, e->op == '+' ? '+' : '-', b == BT_BOOL ? BT_INT : b, old.c[i], one_of (l, b));
        store (l, e->a, nv);
        return e->postfix ? old : nv;
      }
    case N_INITLIST:
      return lower_initlist (l, e, e->type);
    default:
      lerror (l, e->loc, "internal error: unexpected expression");
      return rv_new (l, e->type ? e->type->n_comp : 0);
    }
}

/* ------------------------------------------------------------------ */
/* Statements                                                           */
/* ------------------------------------------------------------------ */

static void
init_var (L *l, Var *v)
{
  uint32_t *vals = alloc_var (l, v);
  BaseType *b = bases_of (l, v->type);
  if (v->init)
    {
      RVal init = v->init->kind == N_INITLIST ? lower_initlist (l, v->init, v->type)
                                              : lower_expr (l, v->init);
      for (int i = 0; i < v->type->n_comp && i < init.n; i++)
        sl_ir_mov (l->ir, vals[i], init.c[i]);
      if (v->type->n_objects)
        l->var_objs[v->id] = objs_copy (l, objs_at (l, init, 0, v->type->n_objects),
                                        v->type->n_objects);
    }
  else
    {
      for (int i = 0; i < v->type->n_comp; i++)
        sl_ir_mov (l->ir, vals[i], zero_of (l, b[i]));
      if (v->type->n_objects)
        l->var_objs[v->id] = objs_copy (l, NULL, v->type->n_objects);
    }
}

static void
lower_loop (L *l, Node *s)
{
  SlIr *ir = l->ir;
  if (s->kind == S_FOR && s->a)
    lower_stmt (l, s->a);
  /* [unroll(n)] runs at most n iterations, as the D3D compiler's
   * unrolling does: an explicit counter, since reaching the LOOP cap
   * counts as a runaway loop. */
  uint32_t counter = SL_IR_NONE;
  if (s->loop_cap > 0)
    {
      counter = sl_ir_new_value (ir, SL_KIND_INT, SL_VALUE_VAR);
      sl_ir_mov (ir, counter, sl_ir_const_i (ir, 0));
    }
  sl_ir_ctrl (ir, SL_OP_LOOP, SL_IR_NONE, SL_HLSL_LOOP_CAP);
  l->loop_depth++;
  l->cf_depth++;
  if (counter != SL_IR_NONE)
    {
      sl_ir_ctrl (ir, SL_OP_BREAK, sl_ir_op2 (ir, SL_OP_IGE, SL_KIND_BOOL, counter,
                                              sl_ir_const_i (ir, s->loop_cap)), 0);
      sl_ir_mov (ir, counter, sl_ir_op2 (ir, SL_OP_IADD, SL_KIND_INT, counter, sl_ir_const_i (ir, 1)));
    }
  if (s->kind != S_DO && s->b)
    {
      RVal c = lower_expr (l, s->b);
      sl_ir_ctrl (ir, SL_OP_BREAK, sl_ir_op1 (ir, SL_OP_NOT, SL_KIND_BOOL, c.c[0]), 0);
    }
  lower_stmt (l, s->d);
  sl_ir_ctrl (ir, SL_OP_CONTEND, SL_IR_NONE, 0);
  if (s->kind == S_FOR && s->c)
    lower_expr (l, s->c);
  if (s->kind == S_DO && s->b)
    {
      RVal c = lower_expr (l, s->b);
      sl_ir_ctrl (ir, SL_OP_BREAK, sl_ir_op1 (ir, SL_OP_NOT, SL_KIND_BOOL, c.c[0]), 0);
    }
  sl_ir_ctrl (ir, SL_OP_ENDLOOP, SL_IR_NONE, 0);
  l->loop_depth--;
  l->cf_depth--;
}

static void
lower_switch (L *l, Node *s)
{
  /* A one-iteration loop, so 'break' leaves it; each case label opens a
   * region entered by lanes whose selector matches or that fell through
   * from the previous region. */
  SlIr *ir = l->ir;
  RVal sel = lower_expr (l, s->a);
  uint32_t through = sl_ir_new_value (ir, SL_KIND_BOOL, SL_VALUE_VAR);
  uint32_t matched = sl_ir_new_value (ir, SL_KIND_BOOL, SL_VALUE_VAR);
  sl_ir_mov (ir, through, sl_ir_const_b (ir, false));
  /* lanes matching any case label */
  uint32_t any = sl_ir_const_b (ir, false);
  for (int i = 0; i < s->n_args; i++)
    if (s->args[i]->kind == S_EXPR && s->args[i]->op == 1)
      any = sl_ir_op2 (ir, SL_OP_OR, SL_KIND_BOOL, any,
                       sl_ir_op2 (ir, SL_OP_IEQ, SL_KIND_BOOL, sel.c[0],
                                  sl_ir_const_i (ir, s->args[i]->offset)));
  sl_ir_mov (ir, matched, any);
  sl_ir_ctrl (ir, SL_OP_LOOP, SL_IR_NONE, 1);
  l->loop_depth++;
  l->cf_depth++;
  bool open = false;
  for (int i = 0; i < s->n_args; i++)
    {
      Node *it = s->args[i];
      if (it->kind == S_EXPR && it->op)
        {
          if (open)
            {
              sl_ir_ctrl (ir, SL_OP_ENDIF, SL_IR_NONE, 0);
              l->cf_depth--;
            }
          uint32_t hit = it->op == 1
                           ? sl_ir_op2 (ir, SL_OP_IEQ, SL_KIND_BOOL, sel.c[0], sl_ir_const_i (ir, it->offset))
                           : sl_ir_op1 (ir, SL_OP_NOT, SL_KIND_BOOL, matched);
          uint32_t enter = sl_ir_op2 (ir, SL_OP_OR, SL_KIND_BOOL, through, hit);
          sl_ir_mov (ir, through, enter);
          sl_ir_ctrl (ir, SL_OP_IF, through, 0);
          l->cf_depth++;
          open = true;
          continue;
        }
      if (open)
        lower_stmt (l, it);
    }
  if (open)
    {
      sl_ir_ctrl (ir, SL_OP_ENDIF, SL_IR_NONE, 0);
      l->cf_depth--;
    }
  sl_ir_ctrl (ir, SL_OP_BREAK, SL_IR_NONE, 0);
  sl_ir_ctrl (ir, SL_OP_ENDLOOP, SL_IR_NONE, 0);
  l->loop_depth--;
  l->cf_depth--;
}

static void
lower_stmt (L *l, Node *s)
{
  if (!s || l->ir->overflow)
    return;
  SlIr *ir = l->ir;
  switch (s->kind)
    {
    case S_BLOCK:
      for (int i = 0; i < s->n_args; i++)
        lower_stmt (l, s->args[i]);
      break;
    case S_DECL:
      /* A static local keeps one storage across all inlined calls. */
      if (s->var->storage == STORE_STATIC && l->var_vals[s->var->id])
        break;
      init_var (l, s->var);
      break;
    case S_EXPR:
      if (s->a)
        lower_expr (l, s->a);
      break;
    case S_IF:
      {
        RVal c = lower_expr (l, s->a);
        sl_ir_ctrl (ir, SL_OP_IF, c.c[0], 0);
        l->cf_depth++;
        lower_stmt (l, s->b);
        if (s->c)
          {
            sl_ir_ctrl (ir, SL_OP_ELSE, SL_IR_NONE, 0);
            lower_stmt (l, s->c);
          }
        sl_ir_ctrl (ir, SL_OP_ENDIF, SL_IR_NONE, 0);
        l->cf_depth--;
      }
      break;
    case S_FOR: case S_WHILE: case S_DO:
      lower_loop (l, s);
      break;
    case S_SWITCH:
      lower_switch (l, s);
      break;
    case S_RETURN:
      {
        Frame *fr = &l->frames[l->n_frames - 1];
        RVal v = s->a ? lower_expr (l, s->a) : rv_new (l, 0);
        if (fr->framed)
          {
            for (int i = 0; i < v.n; i++)
              sl_ir_mov (ir, fr->ret_vals[i], v.c[i]);
            for (int j = 0; j < v.no && v.o && fr->ret_objs; j++)
              {
                if (fr->ret_objs[j] >= 0 && fr->ret_objs[j] != v.o[j])
                  lerror (l, s->loc, "returns of one function must return the same samplers "
                          "and textures (objects are chosen when compiling)");
                fr->ret_objs[j] = v.o[j];
              }
            sl_ir_ctrl (ir, SL_OP_RETURN, SL_IR_NONE, 0);
          }
        else
          {
            fr->ret_rv = v;
            fr->returned = true;
          }
      }
      break;
    case S_BREAK:
      sl_ir_ctrl (ir, SL_OP_BREAK, SL_IR_NONE, 0);
      break;
    case S_CONTINUE:
      sl_ir_ctrl (ir, SL_OP_CONTINUE, SL_IR_NONE, 0);
      break;
    case S_DISCARD:
      sl_ir_ctrl (ir, SL_OP_DISCARD, SL_IR_NONE, 0);
      break;
    default:
      break;
    }
}

/* ------------------------------------------------------------------ */
/* Entry point                                                          */
/* ------------------------------------------------------------------ */

/* The digits of a semantic or register suffix.  atoi would overflow into
 * a negative index that passes every "< n" check (fuzz-exec found
 * SV_Target5555…); a huge number stays huge instead. */
static int
semantic_number (const char *digits)
{
  guint64 v = g_ascii_strtoull (digits, NULL, 10);
  return v > INT_MAX / 2 ? INT_MAX / 2 : (int) v;
}

static bool
semantic_is (const char *sem, const char *name, int *index)
{
  size_t n = strlen (name);
  if (!sem || g_ascii_strncasecmp (sem, name, n))
    return false;
  const char *rest = sem + n;
  if (!*rest)
    {
      *index = 0;
      return true;
    }
  for (const char *q = rest; *q; q++)
    if (!g_ascii_isdigit (*q))
      return false;
  *index = semantic_number (rest);
  return true;
}

/* Fills the IR values of an entry input of type @t from its semantic. */
static bool
bind_input (L *l, Type *t, const char *sem, uint32_t *vals, SlLoc loc)
{
  if (t->is_patch)
    {
      /* Patches are inputs of hull, domain and geometry stages only. */
      lerror (l, loc, "InputPatch and OutputPatch cannot be pixel shader inputs");
      return false;
    }
  if (t->kind == TY_ARRAY)
    {
      /* Elements of struct arrays share their fields' semantics; other
       * arrays take consecutive semantic indices. */
      for (int i = 0; i < t->len; i++)
        {
          char *esem = NULL;
          if (t->elem->kind != TY_STRUCT && t->elem->kind != TY_ARRAY && sem)
            {
              size_t n = strlen (sem);
              while (n > 0 && g_ascii_isdigit (sem[n - 1]))
                n--;
              esem = g_strdup_printf ("%.*s%d", (int) n, sem, semantic_number (sem + n) + i);
            }
          bool ok = bind_input (l, t->elem, esem ? esem : sem, vals + i * t->elem->n_comp, loc);
          g_free (esem);
          if (!ok)
            return false;
        }
      return true;
    }
  if (t->kind == TY_STRUCT)
    {
      for (int i = 0; i < t->n_fields; i++)
        {
          Field *f = &t->fields[i];
          if (!bind_input (l, f->type, f->semantic, vals + f->offset, loc))
            return false;
        }
      return true;
    }
  int idx = 0, base;
  if (semantic_is (sem, "TEXCOORD", &idx) && idx < 8)
    base = SL_INPUT_TEXCOORD + 4 * idx;
  else if (semantic_is (sem, "COLOR", &idx) && idx < 2)
    base = SL_INPUT_COLOR + 4 * idx;
  else if (semantic_is (sem, "VPOS", &idx) || semantic_is (sem, "SV_POSITION", &idx)
           || semantic_is (sem, "POSITION", &idx))
    base = SL_INPUT_POSITION;
  else if (semantic_is (sem, "VFACE", &idx) || semantic_is (sem, "SV_ISFRONTFACE", &idx))
    base = SL_INPUT_FACE;
  else if (sem && g_ascii_strncasecmp (sem, "SV_", 3))
    {
      /* A user semantic (POSITION_WS, NORMAL …) names a varying that only
         a vertex shader could fill; with none here it reads 0, as engine
         shaders that pass unused interpolants expect. */
      sl_diagnostics_add (l->u->diags, SL_SEVERITY_WARNING, loc.file, loc.line, loc.column,
                          "W-HLSL", "input semantic '%s' has no source; it reads 0", sem);
      for (int c = 0; c < t->n_comp; c++)
        sl_ir_mov (l->ir, vals[c], sl_ir_const_u (l->ir, 0));
      return true;
    }
  else
    {
      if (!sem)
        lerror (l, loc, "entry point input has no semantic");
      else
        lerror (l, loc, "unsupported input semantic '%s'", sem);
      return false;
    }
  BaseType *b = bases_of (l, t);
  for (int c = 0; c < t->n_comp && c < 4; c++)
    {
      uint32_t d = sl_ir_new_value (l->ir, SL_KIND_FLOAT, SL_VALUE_TEMP);
      SlInsn in = { .op = SL_OP_INPUT, .n_dst = 1, .dst = { d },
                    .imm = base == SL_INPUT_FACE ? SL_INPUT_FACE : base + c };
      sl_ir_emit (l->ir, &in);
      uint32_t v = conv (l, d, BT_FLOAT, b[c]);
      if (base == SL_INPUT_FACE && b[c] == BT_BOOL)
        v = sl_ir_const_b (l->ir, true);
      sl_ir_mov (l->ir, vals[c], v);
    }
  return true;
}

/* Emits OUTPUT for a value of type @t with semantic @sem. */
static void
bind_output (L *l, Type *t, const char *sem, const uint32_t *vals, SlLoc loc)
{
  if (t->kind == TY_STRUCT)
    {
      for (int i = 0; i < t->n_fields; i++)
        bind_output (l, t->fields[i].type, t->fields[i].semantic, vals + t->fields[i].offset, loc);
      return;
    }
  int idx = 0;
  if (semantic_is (sem, "SV_TARGET", &idx) || semantic_is (sem, "COLOR", &idx))
    {
      if (idx >= 8)
        {
          lerror (l, loc, "render target index %d is out of range", idx);
          return;
        }
      BaseType *b = bases_of (l, t);
      for (int c = 0; c < t->n_comp && c < 4; c++)
        {
          SlInsn in = { .op = SL_OP_OUTPUT, .n_src = 1, .src = { conv (l, vals[c], b[c], BT_FLOAT) },
                        .imm = idx * 4 + c };
          if (b[c] != BT_FLOAT)
            /* Integer targets receive the raw bits. */
            in.src[0] = vals[c];
          sl_ir_emit (l->ir, &in);
        }
      l->ir->n_outputs = MAX (l->ir->n_outputs, idx + 1);
      return;
    }
  if (semantic_is (sem, "SV_DEPTH", &idx) || semantic_is (sem, "DEPTH", &idx))
    return;   /* no depth buffer: depth output is accepted and unused */
  if (!sem)
    lerror (l, loc, "entry point output has no semantic");
  else
    lerror (l, loc, "unsupported output semantic '%s'", sem);
}

static gint
by_bind_count (gconstpointer a, gconstpointer b)
{
  const Var *x = *(Var *const *) a, *y = *(Var *const *) b;
  return y->bind_count - x->bind_count;
}

/* Component offset, within a variable laid out at @base, of every
 * flattened component.  SM2/3 give each variable, array element, struct
 * member and matrix row/column its own registers; SM4 packs scalars and
 * vectors into registers without crossing a register boundary. */
static int
layout (const Type *t, bool sm4, int base, int *out, int *pos)
{
  int align = (base + 3) & ~3;
  switch (t->kind)
    {
    case TY_NUM:
      if (t->cls == NUM_MATRIX)
        {
          int b = align;
          for (int r = 0; r < t->rows; r++)
            for (int c = 0; c < t->cols; c++)
              out[(*pos)++] = t->row_major ? b + r * 4 + c : b + c * 4 + r;
          return t->row_major ? b + (t->rows - 1) * 4 + t->cols : b + (t->cols - 1) * 4 + t->rows;
        }
      {
        int b = sm4 ? ((base % 4) + t->n_comp > 4 ? align : base) : align;
        for (int c = 0; c < t->n_comp; c++)
          out[(*pos)++] = b + c;
        return b + t->n_comp;
      }
    case TY_ARRAY:
      {
        int end = align;
        for (int i = 0; i < t->len; i++)
          end = layout (t->elem, sm4, (end + 3) & ~3, out, pos);
        return end;
      }
    case TY_STRUCT:
      {
        int end = align;
        for (int i = 0; i < t->n_fields; i++)
          end = layout (t->fields[i].type, sm4, sm4 ? end : (end + 3) & ~3, out, pos);
        return (end + 3) & ~3;
      }
    default:
      return base;
    }
}

static SlParam
make_param (L *l, Var *v, const int *offsets, int end)
{
  SlArena *a = l->info->arena;
  Type *t = v->type, *et = t->kind == TY_ARRAY ? t->elem : t;
  SlParam prm = {
    .name = sl_arena_strdup (a, v->name),
    .type = et->kind == TY_NUM ? (SlScalarType) (et->base == BT_FLOAT ? SL_SCALAR_FLOAT
                                                 : et->base == BT_INT ? SL_SCALAR_INT
                                                 : et->base == BT_UINT ? SL_SCALAR_UINT : SL_SCALAR_BOOL)
                               : SL_SCALAR_FLOAT,
    .rows = et->kind == TY_NUM ? et->rows : 1,
    .columns = et->kind == TY_NUM ? et->cols : et->n_comp,
    .array_size = t->kind == TY_ARRAY ? t->len : 0,
    .row_major = et->row_major,
    .offset = t->n_comp ? offsets[0] : 0,
    .size = t->n_comp ? end - offsets[0] : 0,
    .semantic = sl_arena_strdup (a, v->semantic),
  };
  if (v->annotations)
    {
      prm.n_annotations = v->annotations->len;
      SlAnnotation *anns = SL_NEW_N (a, SlAnnotation, v->annotations->len + 1);
      for (guint i = 0; i < v->annotations->len; i++)
        {
          anns[i] = g_array_index (v->annotations, SlAnnotation, i);
          anns[i].name = sl_arena_strdup (a, anns[i].name);
          anns[i].string_value = sl_arena_strdup (a, anns[i].string_value);
        }
      prm.annotations = anns;
    }
  return prm;
}

/* Evaluates a uniform's initializer at compile time, if it is constant. */
static bool
constant_initializer (L *l, Var *v, uint32_t *words)
{
  SlIr *saved = l->ir;
  SlIr *tmp = sl_ir_new ();
  guint saved_urefs = l->urefs->len;
  l->ir = tmp;
  /* Values of static globals live in the main IR; an initializer that
   * reads one (e.g. a static const table) needs them in this IR, so they
   * are initialised here again, their errors already reported there. */
  uint32_t **saved_vals = l->var_vals;
  SlDiagnostics *saved_diags = l->u->diags, *quiet = sl_diagnostics_new ();
  l->var_vals = g_new0 (uint32_t *, l->u->n_vars + 1);
  l->u->diags = quiet;
  for (guint i = 0; i < l->u->globals->len; i++)
    {
      Var *g = g_ptr_array_index (l->u->globals, i);
      if (g->storage == STORE_STATIC && !g->type->n_objects)
        init_var (l, g);
    }
  l->u->diags = saved_diags;
  sl_diagnostics_free (quiet);
  RVal r = v->init->kind == N_INITLIST ? lower_initlist (l, v->init, v->type) : lower_expr (l, v->init);
  /* OUTPUT keeps each component alive through folding; a constant
   * initializer leaves only OUTPUTs of constants. */
  for (int i = 0; i < r.n; i++)
    {
      SlInsn out = { .op = SL_OP_OUTPUT, .n_src = 1, .src = { r.c[i] }, .imm = i };
      sl_ir_emit (tmp, &out);
    }
  sl_pass_optimise (tmp);
  bool ok = r.n == v->type->n_comp;
  int found = 0;
  for (guint i = 0; ok && i < tmp->insns->len; i++)
    {
      const SlInsn *in = sl_ir_insn (tmp, i);
      if (in->op != SL_OP_OUTPUT)
        continue;
      const SlValue *val = sl_ir_value (tmp, in->src[0]);
      if (val->cls != SL_VALUE_CONST || (int) in->imm >= r.n)
        {
          ok = false;
          break;
        }
      words[in->imm] = val->bits;
      found++;
    }
  ok = ok && found == r.n;
  sl_ir_free (tmp);
  g_array_set_size (l->urefs, saved_urefs);
  g_free (l->var_vals);
  l->var_vals = saved_vals;
  l->ir = saved;
  return ok;
}

/* Position of @v among the globals and then the entry point's parameters:
 * the declaration order slots follow. */
static int
decl_index (HlslUnit *u, Func *f, Var *v)
{
  for (guint gi = 0; gi < u->globals->len; gi++)
    if (g_ptr_array_index (u->globals, gi) == v)
      return gi;
  for (int k = 0; k < f->n_params; k++)
    if (f->params[k] == v)
      return u->globals->len + k;
  return G_MAXINT;
}

typedef struct
{
  Var *var, *svar;
  int  selement, count, order, sorder;
} SlotGroup;

static int
compare_groups (const void *pa, const void *pb)
{
  const SlotGroup *a = pa, *b = pb;
  if (a->count != b->count)
    return b->count - a->count;
  if (!a->svar != !b->svar)
    return a->svar ? -1 : 1;
  if (a->sorder != b->sorder)
    return a->sorder < b->sorder ? -1 : 1;
  if (a->selement != b->selement)
    return a->selement - b->selement;
  return a->order < b->order ? -1 : a->order > b->order;
}

/* D3D9 sampler registers, as the native compiler numbers them: each
 * sampler variable, and each combination of a texture object with the
 * sampler it is sampled through, takes registers up to its highest used
 * element; larger blocks come first, combinations before plain samplers
 * of the same size, then declaration order.  The vkd3d conformance files
 * encode this numbering (combined-samplers). */
static void
allocate_sm1_samplers (HlslUnit *u, Func *f, SlIr *ir, GArray *objs, GHashTable *taken, bool *unused)
{
  /* A texture object only ever sampled through a combination takes no
   * register of its own. */
  for (guint i = 0; i < objs->len; i++)
    unused[i] = true;
  for (guint i = 0; i < ir->insns->len; i++)
    {
      SlInsn *in = sl_ir_insn (ir, i);
      if (in->op == SL_OP_SAMPLE || in->op == SL_OP_TEXSIZE)
        unused[in->sample.texture] = unused[in->sample.sampler] = false;
    }
  GArray *groups = g_array_new (FALSE, FALSE, sizeof (SlotGroup));
  for (guint i = 0; i < objs->len; i++)
    {
      ObjRef *o = &g_array_index (objs, ObjRef, i);
      if (o->slot >= 0 || unused[i])
        continue;
      guint k;
      for (k = 0; k < groups->len; k++)
        {
          SlotGroup *g = &g_array_index (groups, SlotGroup, k);
          if (g->var == o->var && g->svar == o->svar && g->selement == o->selement)
            break;
        }
      if (k == groups->len)
        {
          SlotGroup g = { .var = o->var, .svar = o->svar, .selement = o->selement,
                          .order = decl_index (u, f, o->var),
                          .sorder = o->svar ? decl_index (u, f, o->svar) : 0 };
          g_array_append_val (groups, g);
        }
      SlotGroup *g = &g_array_index (groups, SlotGroup, k);
      g->count = MAX (g->count, o->element + 1);
    }
  g_array_sort (groups, compare_groups);   /* qsort () must not see NULL */
  for (guint k = 0; k < groups->len; k++)
    {
      SlotGroup *g = &g_array_index (groups, SlotGroup, k);
      int base = 0;
      for (int e = 0; e < g->count; e++)
        if (g_hash_table_contains (taken, GINT_TO_POINTER (base + e + 1)))
          {
            base += e + 1;
            e = -1;
          }
      for (int e = 0; e < g->count; e++)
        g_hash_table_add (taken, GINT_TO_POINTER (base + e + 1));
      for (guint i = 0; i < objs->len; i++)
        {
          ObjRef *o = &g_array_index (objs, ObjRef, i);
          if (o->slot < 0 && !unused[i] && o->var == g->var && o->svar == g->svar && o->selement == g->selement)
            o->slot = base + o->element;
        }
    }
  g_array_free (groups, TRUE);
}


SlIr *
hlsl_lower (HlslUnit *u, SlProgramInfo *info)
{
  L l = { .u = u, .info = info, .sm = u->shader_model };
  l.ir = sl_ir_new ();
  l.var_vals = g_new0 (uint32_t *, u->n_vars + 1);
  l.var_objs = g_new0 (int *, u->n_vars + 1);
  l.refused = g_hash_table_new (NULL, NULL);
  l.objs = g_array_new (FALSE, TRUE, sizeof (ObjRef));
  l.urefs = g_array_new (FALSE, TRUE, sizeof (URef));
  Func *f = u->entry;
  SlIr *ir = l.ir;

  /* Static globals are initialised at the start of every pixel. */
  for (guint i = 0; i < u->globals->len; i++)
    {
      Var *v = g_ptr_array_index (u->globals, i);
      if (v->storage == STORE_STATIC && (!v->type->n_objects || v->type->n_comp || v->init))
        init_var (&l, v);
    }

  /* Entry parameters: inputs, outputs, or uniforms. */
  for (int k = 0; k < f->n_params; k++)
    {
      Var *prm = f->params[k];
      if (prm->uniform_param)
        {
          prm->storage = STORE_UNIFORM;
          continue;
        }
      uint32_t *vals = alloc_var (&l, prm);
      if (prm->param_mod == 1)
        {
          BaseType *b = bases_of (&l, prm->type);
          for (int i = 0; i < prm->type->n_comp; i++)
            sl_ir_mov (ir, vals[i], zero_of (&l, b[i]));
        }
      else if (!bind_input (&l, prm->type, prm->semantic, vals, prm->loc))
        break;
    }

  Frame *fr = &l.frames[l.n_frames++];
  fr->func = f;
  fr->framed = returns_inside_cf (f->body, true);
  if (fr->framed)
    {
      fr->ret_vals = SL_NEW_N (u->arena, uint32_t, f->ret->n_comp + 1);
      BaseType *b = bases_of (&l, f->ret);
      for (int i = 0; i < f->ret->n_comp; i++)
        {
          fr->ret_vals[i] = sl_ir_new_value (ir, kind_of (b[i]), SL_VALUE_VAR);
          sl_ir_mov (ir, fr->ret_vals[i], zero_of (&l, b[i]));
        }
      sl_ir_ctrl (ir, SL_OP_FBEGIN, SL_IR_NONE, 0);
    }
  f->busy = true;
  lower_stmt (&l, f->body);
  f->busy = false;
  if (fr->framed)
    sl_ir_ctrl (ir, SL_OP_FEND, SL_IR_NONE, 0);

  if (f->ret->kind != TY_VOID && !l.failed)
    {
      const uint32_t *rv = fr->framed ? fr->ret_vals : fr->returned ? fr->ret_rv.c : NULL;
      if (!rv)
        lerror (&l, f->loc, "entry point '%s' does not return a value", f->name);
      else
        bind_output (&l, f->ret, f->semantic, rv, f->loc);
    }
  for (int k = 0; k < f->n_params && !l.failed; k++)
    {
      Var *prm = f->params[k];
      if (prm->param_mod != 0 && !prm->uniform_param)
        bind_output (&l, prm->type, prm->semantic, l.var_vals[prm->id], prm->loc);
    }

  if (ir->overflow)
    lerror (&l, f->loc, "shader is too large (more than %u instructions or values)", SL_MAX_IR_INSNS);

  /* ---- constant buffer layout ---- */
  bool sm4 = u->shader_model >= 40;
  GHashTable *used = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < l.urefs->len; i++)
    g_hash_table_add (used, g_array_index (l.urefs, URef, i).var);
  GPtrArray *uniforms = g_ptr_array_new ();
  for (guint i = 0; i < u->globals->len; i++)
    {
      Var *v = g_ptr_array_index (u->globals, i);
      if (v->storage == STORE_UNIFORM && !v->type->n_objects && v->type->n_comp > 0)
        g_ptr_array_add (uniforms, v);
    }
  for (int k = 0; k < f->n_params; k++)
    if (f->params[k]->uniform_param)
      g_ptr_array_add (uniforms, f->params[k]);

  if (!sm4)
    {
      /* The D3D9 compiler hands out registers to the uniforms that use the
       * most registers first (counting an array only up to its last
       * element read); the sort is stable, so ties keep source order. */
      for (guint i = 0; i < uniforms->len; i++)
        {
          Var *v = g_ptr_array_index (uniforms, i);
          int *offs = g_new (int, v->type->n_comp + 1);
          int pos = 0;
          int end = layout (v->type, false, 0, offs, &pos);
          int bind = 0;
          for (guint k = 0; k < l.urefs->len; k++)
            {
              URef *r = &g_array_index (l.urefs, URef, k);
              if (r->var != v)
                continue;
              if (r->indexed)
                bind = MAX (bind, (end + 3) / 4);
              else
                bind = MAX (bind, offs[r->comp] / 4 + 1);
            }
          v->bind_count = bind;
          g_free (offs);
        }
      g_ptr_array_sort (uniforms, by_bind_count);
    }
  int cursor = 0, max_end = 0;
  GHashTable *offsets_of = g_hash_table_new (NULL, NULL);
  /* Explicitly placed uniforms first, then the rest in order. */
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < uniforms->len; i++)
      {
        Var *v = g_ptr_array_index (uniforms, i);
        bool explicit_reg = v->reg_kind == 'c' || v->reg_kind == 'p';
        if ((pass == 0) != explicit_reg)
          continue;
        /* SM2/3 give registers only to the uniforms the shader reads. */
        if (!sm4 && !explicit_reg && !g_hash_table_contains (used, v))
          continue;
        if (!sm4 && v->reg_kind == 'c' && g_hash_table_contains (used, v))
          for (guint j = 0; j < i; j++)
            {
              Var *o = g_ptr_array_index (uniforms, j);
              if (o->reg_kind == 'c' && o->reg_index == v->reg_index && g_hash_table_contains (used, o))
                lerror (&l, v->loc, "'%s' and '%s' are both bound to c%d", o->name, v->name, v->reg_index);
            }
        int *offs = g_new (int, v->type->n_comp + 1);
        int pos = 0, end;
        if (explicit_reg)
          end = layout (v->type, sm4, v->reg_kind == 'c' ? v->reg_index * 4 : v->reg_index, offs, &pos);
        else
          {
            /* Skip registers taken by explicit placements. */
            for (;;)
              {
                pos = 0;
                int start = sm4 ? cursor : (cursor + 3) & ~3;
                end = layout (v->type, sm4, start, offs, &pos);
                bool clash = false;
                GHashTableIter it;
                gpointer key, val;
                g_hash_table_iter_init (&it, offsets_of);
                while (g_hash_table_iter_next (&it, &key, &val))
                  {
                    Var *o = key;
                    if (o->reg_kind != 'c' && o->reg_kind != 'p')
                      continue;
                    int *oo = val;
                    int o_start = oo[0] & ~3, o_end = (oo[o->type->n_comp] + 3) & ~3;
                    int s0 = offs[0] & ~3, e0 = (end + 3) & ~3;
                    if (s0 < o_end && o_start < e0)
                      {
                        clash = true;
                        cursor = o_end;
                      }
                  }
                if (!clash)
                  break;
              }
            cursor = end;
          }
        offs[v->type->n_comp] = end;
        g_hash_table_insert (offsets_of, v, offs);
        max_end = MAX (max_end, end);
        v->cb_offset = offs[0];
      }
  info->constants_size = (size_t) ((max_end + 3) & ~3);
  sl_program_info_reserve_constants (info, info->constants_size);

  /* Reflection and defaults, in declaration order. */
  for (guint i = 0; i < uniforms->len; i++)
    {
      Var *v = g_ptr_array_index (uniforms, i);
      int *offs = g_hash_table_lookup (offsets_of, v);
      if (!offs)
        continue;
      SlParam prm = make_param (&l, v, offs, offs[v->type->n_comp]);
      if (v->init)
        {
          uint32_t *words = g_new0 (uint32_t, v->type->n_comp + 1);
          if (constant_initializer (&l, v, words))
            {
              float *def = SL_NEW_N (info->arena, float, v->type->n_comp + 1);
              BaseType *b = bases_of (&l, v->type);
              for (int c = 0; c < v->type->n_comp; c++)
                {
                  float fv = b[c] == BT_FLOAT ? sl_u2f (words[c])
                             : b[c] == BT_INT ? (float) (int32_t) words[c]
                             : b[c] == BT_UINT ? (float) words[c] : (words[c] ? 1.0f : 0.0f);
                  def[c] = fv;
                  /* SM2/3 registers hold floats; SM4 holds raw bits. */
                  uint32_t w = !sm4 ? sl_f2u (fv) : (b[c] == BT_BOOL ? (words[c] ? 1u : 0u) : words[c]);
                  info->defaults[offs[c]] = w;
                }
              prm.default_value = def;
            }
          g_free (words);
        }
      g_array_append_val (info->params, prm);
    }

  /* Patch LOADC offsets. */
  for (guint i = 0; i < l.urefs->len; i++)
    {
      URef *ur = &g_array_index (l.urefs, URef, i);
      int *offs = g_hash_table_lookup (offsets_of, ur->var);
      sl_ir_insn (ir, ur->insn)->imm = offs ? offs[ur->comp] : 0;
    }

  /* ---- samplers and textures ---- */
  GArray *objs = l.objs;
  int next_tex = 0, next_samp = 0;
  int *tex_slot_of = g_new0 (int, objs->len + 1), *samp_slot_of = g_new0 (int, objs->len + 1);
  /* Slots: explicit registers first, then declaration order. */
  GHashTable *taken_t = g_hash_table_new (NULL, NULL), *taken_s = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < objs->len; i++)
    {
      ObjRef *o = &g_array_index (objs, ObjRef, i);
      /* Cg's TEXUNITn semantic on a sampler is register(sN). */
      if (!o->var->reg_kind && o->var->semantic && o->var->type->n_objects
          && !g_ascii_strncasecmp (o->var->semantic, "TEXUNIT", 7))
        {
          o->var->reg_kind = 's';
          o->var->reg_index = semantic_number (o->var->semantic + 7);
        }
      if (o->var->reg_kind == 's' || o->var->reg_kind == 't')
        {
          o->slot = o->var->reg_index + o->element;
          g_hash_table_add (o->var->reg_kind == 't' || o->var->type->kind == TY_TEXTURE
                              || (o->var->type->kind == TY_ARRAY && o->var->type->elem->kind == TY_TEXTURE)
                              ? taken_t : taken_s, GINT_TO_POINTER (o->slot + 1));
        }
    }
  bool *unused = g_new0 (bool, objs->len + 1);
  if (l.sm < 40)
    allocate_sm1_samplers (u, f, ir, objs, taken_s, unused);
  /* Globals in declaration order, then uniform objects among the entry
   * point's parameters. */
  for (guint gi = 0; gi < u->globals->len + (guint) f->n_params; gi++)
    {
      Var *v = gi < u->globals->len ? g_ptr_array_index (u->globals, gi)
                                    : f->params[gi - u->globals->len];
      for (guint i = 0; i < objs->len; i++)
        {
          ObjRef *o = &g_array_index (objs, ObjRef, i);
          if (o->var != v || o->slot >= 0)
            continue;
          Type *et = v->type->kind == TY_ARRAY ? v->type->elem : v->type;
          bool is_tex = et->kind == TY_TEXTURE;
          GHashTable *taken = is_tex ? taken_t : taken_s;
          int *next = is_tex ? &next_tex : &next_samp;
          while (g_hash_table_contains (taken, GINT_TO_POINTER (*next + 1)))
            (*next)++;
          o->slot = (*next)++;
          g_hash_table_add (taken, GINT_TO_POINTER (o->slot + 1));
        }
    }
  for (guint i = 0; i < objs->len; i++)
    {
      ObjRef *o = &g_array_index (objs, ObjRef, i);
      if (unused[i])
        continue;
      if (o->slot >= SL_MAX_SLOTS || o->slot < 0)
        {
          lerror (&l, o->var->loc, "sampler '%s' needs slot %d; at most %d are supported",
                  o->var->name, o->slot, SL_MAX_SLOTS);
          o->slot = 0;
        }
      tex_slot_of[i] = o->slot;
      samp_slot_of[i] = o->slot;
      Type *et = o->var->type->kind == TY_ARRAY ? o->var->type->elem : o->var->type;
      char *element_name = o->element ? g_strdup_printf ("%s[%d]", o->var->name, o->element) : NULL;
      SlSamplerInfo si = {
        .name = sl_arena_strdup (info->arena, element_name ? element_name : o->var->name),
        .slot = o->slot,
        .kind = et->tex_dim >= 0 ? (SlTextureKind) et->tex_dim : SL_TEXTURE_2D,
        .is_texture_object = et->kind == TY_TEXTURE,
      };
      /* A combined sampler filters as its sampler object says. */
      Var *state_var = o->svar && o->svar->declared ? o->svar : o->var;
      if (state_var->declared)
        {
          SlSamplerState *st = SL_NEW (info->arena, SlSamplerState);
          *st = *state_var->declared;
          si.declared_state = st;
        }
      if (o->var->annotations && o->var->annotations->len)
        {
          si.n_annotations = o->var->annotations->len;
          SlAnnotation *an = SL_NEW_N (info->arena, SlAnnotation, si.n_annotations);
          memcpy (an, o->var->annotations->data, si.n_annotations * sizeof (SlAnnotation));
          si.annotations = an;
        }
      g_array_append_val (info->samplers, si);
      g_free (element_name);
    }
  for (guint i = 0; i < ir->insns->len; i++)
    {
      SlInsn *in = sl_ir_insn (ir, i);
      if (in->op != SL_OP_SAMPLE && in->op != SL_OP_TEXSIZE)
        continue;
      int t = in->sample.texture, s = in->sample.sampler;
      in->sample.texture = tex_slot_of[t];
      in->sample.sampler = samp_slot_of[s];
      /* A sampler2D declared without dimension used with tex2D: record it. */
      for (guint k = 0; k < info->samplers->len; k++)
        {
          SlSamplerInfo *si = &g_array_index (info->samplers, SlSamplerInfo, k);
          if (si->slot == tex_slot_of[t])
            si->kind = (SlTextureKind) in->sample.dim;
        }
    }
  g_free (tex_slot_of);
  g_free (samp_slot_of);
  g_free (unused);
  g_hash_table_destroy (taken_t);
  g_hash_table_destroy (taken_s);

  GHashTableIter it;
  gpointer key, val;
  g_hash_table_iter_init (&it, offsets_of);
  while (g_hash_table_iter_next (&it, &key, &val))
    g_free (val);
  g_hash_table_destroy (offsets_of);
  g_hash_table_destroy (used);
  g_ptr_array_free (uniforms, TRUE);
  g_array_free (l.objs, TRUE);
  g_array_free (l.urefs, TRUE);
  g_free (l.var_vals);
  g_free (l.var_objs);
  g_hash_table_destroy (l.refused);
  info->n_outputs = ir->n_outputs;
  if (l.failed)
    {
      sl_ir_free (ir);
      return NULL;
    }
  return ir;
}
