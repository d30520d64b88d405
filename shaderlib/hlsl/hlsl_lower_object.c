/* Sampler and texture objects in HLSL lowering.
 *
 * Objects are chosen when compiling: an expression of object type (a
 * variable, a member, a constant index, a ternary with a constant
 * condition, a local that was assigned one) resolves to a provisional
 * object, an ObjRef; assignments only rebind a variable's objects, which
 * run-time control flow must not do.  Below SM 4 a texture sampled through
 * a sampler object becomes one combined sampler, and D3D9 sampler
 * registers are numbered as the native compiler numbers them. */
#include "hlsl/hlsl_lower.h"

int
hlsl_obj_ref (L *l, Var *v, int element)
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

int
hlsl_combined_ref (L *l, int tex, int samp)
{
  ObjRef t = g_array_index (l->objs, ObjRef, tex), s = g_array_index (l->objs, ObjRef, samp);
  for (guint i = 0; i < l->objs->len; i++)
    {
      ObjRef *o = &g_array_index (l->objs, ObjRef, i);
      if (o->var == t.var && o->element == t.element && o->svar == s.var && o->selement == s.element)
        return i;
    }
  ObjRef o = { .var = t.var, .element = t.element, .slot = -1,
               .first_use_order = l->objs->len, .svar = s.var, .selement = s.element,
               .no_resource = t.no_resource || s.no_resource,
               .use_loc = t.no_resource ? t.use_loc : s.use_loc };
  g_array_append_val (l->objs, o);
  return l->objs->len - 1;
}

/* How many objects come before field @fi of struct @t. */
int
hlsl_objects_before_field (const Type *t, int fi)
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
void
hlsl_refuse_global_struct (L *l, Var *v, SlLoc loc)
{
  if (g_hash_table_contains (l->refused, v))
    return;
  g_hash_table_add (l->refused, v);
  hlsl_lower_error (l, loc, SL_DIAG_HLSL_OBJECT_IN_STRUCT,
                    "'%s': samplers and textures inside global structs are not supported; "
                    "declare them as separate globals", v->name);
}

static bool
is_local_storage (const Var *v)
{
  return v->storage == STORE_PARAM || v->storage == STORE_LOCAL;
}

/* A global texture or sampler (not a struct holding them): one of its
 * own until the shader assigns it another, which rebinds the name. */
static bool
global_object (const Var *v)
{
  const Type *t = v->type;
  while (t->kind == TY_ARRAY)
    t = t->elem;
  return v->storage == STORE_UNIFORM && !v->uniform_param
         && (t->kind == TY_TEXTURE || t->kind == TY_SAMPLER);
}

/* Whether @v's objects are values the shader binds (locals, parameters,
 * and static globals once initialised or assigned) rather than resources
 * of their own. */
bool
hlsl_tracks_objects (L *l, const Var *v)
{
  return is_local_storage (v)
         || ((v->storage == STORE_STATIC || global_object (v)) && l->var_objs[v->id]);
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
          *first += hlsl_objects_before_field (e->a->type, e->op);
        return v;
      }
    case N_INDEX:
      {
        if (e->a->type->kind != TY_ARRAY)
          return NULL;
        Var *v = object_path (l, e->a, first, bad);
        if (!v)
          return NULL;
        RVal idx = hlsl_lower_expr (l, e->b);
        int32_t k;
        if (!hlsl_const_int (l, idx.c[0], &k))
          {
            hlsl_lower_error (l, e->loc, SL_DIAG_HLSL_SAMPLER_ARRAY_INDEX,
                              "sampler arrays must be indexed by a constant");
            *bad = true;
            return NULL;
          }
        if (k < 0 || k >= e->a->type->len)
          {
            hlsl_lower_error (l, e->loc, SL_DIAG_HLSL_SAMPLER_INDEX_RANGE,
                              "sampler index %d is out of range", k);
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
Node *
hlsl_constant_branch (L *l, Node *e)
{
  Node *c = e->a;
  while (c->kind == N_CAST)
    c = c->a;
  if (c->kind != N_LIT || !c->lit)
    {
      hlsl_lower_error (l, e->loc, SL_DIAG_HLSL_OBJECT_CONDITION,
                        "the condition selecting a sampler or texture must be constant");
      return NULL;
    }
  return (c->lit[0] & 0x7fffffffu) ? e->b : e->c;
}

/* Resolves an expression of sampler/texture type to its object. */
int
hlsl_lower_object (L *l, Node *e)
{
  int first = 0;
  bool bad = false;
  Var *v = object_path (l, e, &first, &bad);
  if (bad)
    return 0;
  if (v && v->type->kind == TY_STRUCT && !hlsl_tracks_objects (l, v))
    {
      hlsl_refuse_global_struct (l, v, e->loc);
      return 0;
    }
  if (v && hlsl_tracks_objects (l, v))
    {
      int *objs = l->var_objs[v->id];
      int o = objs && first < v->type->n_objects ? objs[first] : -1;
      if (o < 0 && v->type->kind == TY_STRUCT)
        hlsl_lower_error (l, e->loc, SL_DIAG_HLSL_OBJECT_UNBOUND,
                          "'%s' holds a sampler or texture that is not bound to a global one",
                          v->name);
      else if (o < 0)
        hlsl_lower_error (l, e->loc, SL_DIAG_HLSL_OBJECT_UNBOUND,
                          "sampler '%s' is not bound to a global sampler", v->name);
      return o < 0 ? 0 : o;
    }
  if (v)
    {
      int o = hlsl_obj_ref (l, v, first);
      ObjRef *r = &g_array_index (l->objs, ObjRef, o);
      if (v->storage == STORE_STATIC && !r->no_resource)
        {
          r->no_resource = true;
          r->use_loc = e->loc;
        }
      return o;
    }
  if (e->kind == N_TERNARY)
    {
      Node *b = hlsl_constant_branch (l, e);
      return b ? hlsl_lower_object (l, b) : 0;
    }
  RVal r = hlsl_lower_value (l, e);
  if (r.no < 1 || !r.o)
    {
      hlsl_lower_error (l, e->loc, SL_DIAG_HLSL_OBJECT_EXPRESSION, "unsupported sampler expression");
      return 0;
    }
  if (r.o[0] < 0)
    {
      hlsl_lower_error (l, e->loc, SL_DIAG_HLSL_OBJECT_UNBOUND,
                        "sampler or texture is not bound to a global one");
      return 0;
    }
  return r.o[0];
}

/* Objects are compile-time values, so an assignment only rebinds the
 * variable's objects; one that would pick different objects depending on
 * run-time control flow cannot be honoured and is an error. */
void
hlsl_store_objects (L *l, Node *lhs, RVal v)
{
  int first = 0;
  bool bad = false;
  Var *var = object_path (l, lhs, &first, &bad);
  if (bad)
    return;
  if (!var || (!is_local_storage (var) && var->storage != STORE_STATIC && !global_object (var)))
    {
      hlsl_lower_error (l, lhs->loc, SL_DIAG_HLSL_OBJECT_ASSIGN,
                        "samplers and textures can only be assigned to local variables");
      return;
    }
  int n = var->type->n_objects;
  if (!l->var_objs[var->id])
    {
      l->var_objs[var->id] = hlsl_objs_copy (l, NULL, n);
      /* Elements a global does not get assigned keep its own objects. */
      for (int j = 0; j < n && global_object (var); j++)
        l->var_objs[var->id][j] = hlsl_obj_ref (l, var, j);
    }
  int *slots = l->var_objs[var->id];
  for (int j = 0; j < lhs->type->n_objects && first + j < n; j++)
    {
      int nv = j < v.no ? v.o[j] : -1;
      int *old = &slots[first + j];
      if (l->cf_depth > 0 && *old >= 0 && nv != *old)
        {
          hlsl_lower_error (l, lhs->loc, SL_DIAG_HLSL_OBJECT_REASSIGN,
                            "a sampler or texture cannot be reassigned inside control flow "
                            "(objects are chosen when compiling)");
          return;
        }
      *old = nv;
    }
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
void
hlsl_allocate_sm1_samplers (HlslUnit *u, Func *f, SlIr *ir, GArray *objs, GHashTable *taken, bool *unused)
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
