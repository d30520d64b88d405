/* Values in HLSL lowering: flat lists of scalar IR values (RVal), their
 * conversions between base types and HLSL types, the IR storage of
 * variables and uniform reads, and stores through lvalues (swizzles,
 * members, constant and dynamic indices, casts). */
#include "hlsl/hlsl_lower.h"

#include "vm/scalar_ops.h"

#include <math.h>
#include <string.h>

/* The objects of @v from @first on, @n of them; unbound where @v has
 * none there. */
int *
hlsl_objs_at (L *l, RVal v, int first, int n)
{
  if (v.o && first >= 0 && first + n <= v.no)
    return v.o + first;
  int *o = SL_NEW_N (l->u->arena, int, n > 0 ? n : 1);
  for (int j = 0; j < n; j++)
    o[j] = v.o && first + j >= 0 && first + j < v.no ? v.o[first + j] : -1;
  return o;
}

int *
hlsl_objs_copy (L *l, const int *src, int n)
{
  int *o = SL_NEW_N (l->u->arena, int, n > 0 ? n : 1);
  for (int j = 0; j < n; j++)
    o[j] = src ? src[j] : -1;
  return o;
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

BaseType *
hlsl_bases_of (L *l, const Type *t)
{
  BaseType *b = SL_NEW_N (l->u->arena, BaseType, t->n_comp + 1);
  int pos = 0;
  comp_bases (t, b, &pos);
  return b;
}

/* Converts one scalar of HLSL base @from to base @to.  The IR kind of @v
 * decides the operation (it may hold a real integer where HLSL has one
 * in a float, as texture sizes do below SM 4); @from only says whether a
 * float becomes an integer, which truncates towards zero. */
uint32_t
hlsl_conv (L *l, uint32_t v, BaseType from, BaseType to)
{
  SlIr *ir = l->ir;
  if (v >= ir->values->len)
    return v;   /* a placeholder after an error */
  SlKind have = sl_ir_value (ir, v)->kind, want = kind_for (l, to);
  bool to_integer = to == BT_INT || to == BT_UINT;
  if (have == want)
    {
      /* Below SM 4, float to int is a float truncation. */
      if (have == SL_KIND_FLOAT && to_integer && from == BT_FLOAT)
        {
          int64_t x;
          if (hlsl_exact (l, v, &x))
            return v;
          return sl_ir_op1 (ir, SL_OP_TRUNC, SL_KIND_FLOAT, v);
        }
      return v;
    }
  switch (want)
    {
    case SL_KIND_FLOAT:
      return sl_ir_op1 (ir, have == SL_KIND_INT ? SL_OP_ITOF : have == SL_KIND_UINT ? SL_OP_UTOF : SL_OP_BTOF,
                        SL_KIND_FLOAT, v);
    case SL_KIND_INT:
      if (have == SL_KIND_FLOAT)
        return sl_ir_op1 (ir, SL_OP_FTOI, SL_KIND_INT, v);
      if (have == SL_KIND_BOOL)
        return sl_ir_op1 (ir, SL_OP_BTOI, SL_KIND_INT, v);
      return sl_ir_op1 (ir, SL_OP_MOV, SL_KIND_INT, v);
    case SL_KIND_UINT:
      if (have == SL_KIND_FLOAT)
        return sl_ir_op1 (ir, SL_OP_FTOU, SL_KIND_UINT, v);
      if (have == SL_KIND_BOOL)
        return sl_ir_op1 (ir, SL_OP_BTOI, SL_KIND_UINT, v);
      return sl_ir_op1 (ir, SL_OP_MOV, SL_KIND_UINT, v);
    case SL_KIND_BOOL:
      return sl_ir_op1 (ir, have == SL_KIND_FLOAT ? SL_OP_FTOB : SL_OP_ITOB, SL_KIND_BOOL, v);
    default:
      return v;
    }
}

/* An IR integer for an HLSL int value (texel coordinates and offsets,
 * mip levels): below SM 4 the value is a float holding an integer. */
uint32_t
hlsl_real_int (L *l, uint32_t v)
{
  if (v >= l->ir->values->len)
    return v;
  SlKind k = sl_ir_value (l->ir, v)->kind;
  if (k == SL_KIND_INT)
    return v;
  if (k == SL_KIND_FLOAT)
    return sl_ir_op1 (l->ir, SL_OP_FTOI, SL_KIND_INT, v);
  return hlsl_conv (l, v, k == SL_KIND_BOOL ? BT_BOOL : BT_UINT, BT_INT);
}

/* The constant an IR value is known to hold as an integer, if any: a
 * constant (a float one with an integral value), a value made by
 * hlsl_exact_value, or a variable whose last assignment in the
 * straight-line code emitted so far is one of those. */
bool
hlsl_exact (L *l, uint32_t v, int64_t *out)
{
  SlIr *ir = l->ir;
  for (int depth = 0; depth < 16 && v < ir->values->len; depth++)
    {
      gint64 *hit = l->exact ? g_hash_table_lookup (l->exact, GUINT_TO_POINTER (v)) : NULL;
      if (hit)
        {
          *out = *hit;
          return true;
        }
      const SlValue *val = sl_ir_value (ir, v);
      if (val->cls == SL_VALUE_CONST)
        {
          switch (val->kind)
            {
            case SL_KIND_INT: *out = (int32_t) val->bits; return true;
            case SL_KIND_UINT: *out = val->bits; return true;
            case SL_KIND_BOOL: *out = val->bits ? 1 : 0; return true;
            default:
              {
                float f = sl_u2f (val->bits);
                if (!(f == (float) (int64_t) f) || fabsf (f) > 9.2e18f)
                  return false;
                *out = (int64_t) f;
                return true;
              }
            }
        }
      if (val->cls != SL_VALUE_VAR)
        return false;
      /* The variable's last assignment, if no control flow is between. */
      guint scanned = 0;
      bool found = false;
      for (guint i = ir->insns->len; i-- > 0 && scanned < 512; scanned++)
        {
          const SlInsn *in = sl_ir_insn (ir, i);
          bool writes = false;
          for (int d = 0; d < in->n_dst; d++)
            writes |= in->dst[d] == v;
          if (!writes)
            {
              if (sl_op_shapes[in->op] == SL_SHAPE_SPECIAL && in->op >= SL_OP_IF)
                return false;
              continue;
            }
          if (in->op != SL_OP_MOV || in->n_dst != 1)
            return false;
          v = in->src[0];
          found = true;
          break;
        }
      if (!found)
        return false;
    }
  return false;
}

/* A float IR value for the integer @x, remembered as exact. */
uint32_t
hlsl_exact_value (L *l, int64_t x)
{
  if (!l->exact)
    {
      l->exact = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      sl_arena_own (l->u->arena, l->exact, (GDestroyNotify) g_hash_table_unref);
    }
  uint32_t c = sl_ir_const_f (l->ir, (float) x);
  if ((int64_t) (float) x == x && x > -16777216 && x < 16777216)
    return c;   /* the constant says it all */
  uint32_t t = sl_ir_op1 (l->ir, SL_OP_MOV, SL_KIND_FLOAT, c);
  gint64 *box = g_new (gint64, 1);
  *box = x;
  g_hash_table_insert (l->exact, GUINT_TO_POINTER (t), box);
  return t;
}

/* A constant integer an index, offset or case value holds. */
bool
hlsl_const_int (L *l, uint32_t v, int32_t *out)
{
  if (v >= l->ir->values->len)
    return false;
  const SlValue *val = sl_ir_value (l->ir, v);
  if (val->cls != SL_VALUE_CONST)
    return false;
  if (val->kind == SL_KIND_FLOAT)
    {
      float f = sl_u2f (val->bits);
      *out = f >= 2147483647.0f ? INT32_MAX : f <= -2147483648.0f ? INT32_MIN : (int32_t) f;
    }
  else
    *out = (int32_t) val->bits;
  return true;
}

/* The value of @v (of type @from) as type @to, following HLSL's rules:
 * scalars replicate, matrices truncate by rows and columns, everything
 * else takes leading components. */
RVal
hlsl_cast_rval (L *l, RVal v, const Type *from, const Type *to)
{
  if (to->kind == TY_SAMPLER || to->kind == TY_TEXTURE || to->kind == TY_VOID)
    return v;
  RVal r = rv_new (l, to->n_comp);
  BaseType *fb = hlsl_bases_of (l, from), *tb = hlsl_bases_of (l, to);
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
      r.c[i] = hlsl_conv (l, v.c[src], fb[src < from->n_comp ? src : 0], tb[i]);
    }
  /* The parser let the cast through only if the objects line up: the
   * leading ones carry over. */
  if (to->n_objects)
    {
      r.o = hlsl_objs_at (l, v, 0, to->n_objects);
      r.no = to->n_objects;
    }
  return r;
}

uint32_t *
hlsl_alloc_var (L *l, Var *v)
{
  int n = v->type->n_comp;
  BaseType *b = hlsl_bases_of (l, v->type);
  uint32_t *vals = SL_NEW_N (l->u->arena, uint32_t, n + 1);
  for (int i = 0; i < n; i++)
    vals[i] = sl_ir_new_value (l->ir, kind_for (l, b[i]), SL_VALUE_VAR);
  l->var_vals[v->id] = vals;
  return vals;
}

static RVal
load_uniform (L *l, Var *v)
{
  RVal r = rv_new (l, v->type->n_comp);
  BaseType *b = hlsl_bases_of (l, v->type);
  for (int k = 0; k < r.n; k++)
    {
      /* SM2/3 keep every uniform in float registers: integers are floats
       * there too, bools are converted.  An SM4 bool is a 32-bit word
       * that is true when not zero (the host writes 1), while the IR's
       * bools are lane masks: it is loaded as an integer and compared. */
      bool word_bool = l->sm >= 40 && b[k] == BT_BOOL;
      SlKind kind = l->sm < 40 ? SL_KIND_FLOAT : word_bool ? SL_KIND_INT : kind_of (b[k]);
      uint32_t d = sl_ir_new_value (l->ir, kind, SL_VALUE_TEMP);
      SlInsn in = { .op = SL_OP_LOADC, .n_dst = 1, .dst = { d } };
      guint at = sl_ir_emit (l->ir, &in);
      URef u = { .insn = at, .var = v, .comp = k };
      g_array_append_val (l->urefs, u);
      r.c[k] = l->sm < 40 && !(l->float_ints && b[k] != BT_BOOL) ? hlsl_conv (l, d, BT_FLOAT, b[k]) : d;
      if (word_bool)
        {
          uint32_t mask = sl_ir_new_value (l->ir, SL_KIND_BOOL, SL_VALUE_TEMP);
          SlInsn test = { .op = SL_OP_ITOB, .n_dst = 1, .dst = { mask }, .n_src = 1, .src = { d } };
          sl_ir_emit (l->ir, &test);
          r.c[k] = mask;
        }
    }
  return r;
}

RVal
hlsl_var_rval (L *l, Var *v, SlLoc loc)
{
  /* The entry point's uniform parameters became STORE_UNIFORM; anywhere
   * else a uniform parameter is an in parameter. */
  if (v->storage == STORE_UNIFORM)
    return load_uniform (l, v);
  uint32_t *vals = l->var_vals[v->id];
  if (!vals && v->type->n_comp)
    {
      /* A static global read before main initialised it cannot happen;
       * anything else is a compiler bug, reported rather than crashed. */
      hlsl_lower_error (l, loc, SL_DIAG_INTERNAL_HLSL_STORAGE,
                        "internal error: variable '%s' has no storage", v->name);
      vals = hlsl_alloc_var (l, v);
    }
  RVal r = { .c = vals, .n = v->type->n_comp };
  /* Copy, so that later writes to the variable do not change this value. */
  RVal c = rv_new (l, r.n);
  if (r.n)
    memcpy (c.c, r.c, r.n * sizeof (uint32_t));
  if (v->type->n_objects)
    {
      c.o = hlsl_objs_copy (l, l->var_objs[v->id], v->type->n_objects);
      c.no = v->type->n_objects;
    }
  return c;
}

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
          vals = hlsl_alloc_var (l, e->var);
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
        RVal idx = hlsl_lower_expr (l, e->b);
        int n_elem = e->a->type->n_comp / MAX (es, 1);
        uint32_t *conds = g_new0 (uint32_t, n_elem + 1);
        for (guint i = 0; i < sub->len; i++)
          {
            LRef r = g_array_index (sub, LRef, i);
            int k = r.comp / es;
            int32_t ik;
            if (hlsl_const_int (l, idx.c[0], &ik))
              {
                if (ik != k)
                  continue;
              }
            else
              {
                if (!conds[k])
                  conds[k] = (l->float_ints ? f2 (l, SL_OP_EQ, idx.c[0], fc (l, (float) k))
                                            : sl_ir_op2 (l->ir, SL_OP_IEQ, SL_KIND_BOOL, idx.c[0],
                                                         sl_ir_const_i (l->ir, k))) + 1;
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
      hlsl_lower_error (l, e->loc, SL_DIAG_HLSL_NOT_ASSIGNABLE, "expression is not assignable");
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

void
hlsl_store (L *l, Node *lhs, RVal v)
{
  if (lhs->type->n_objects && v.o)
    hlsl_store_objects (l, lhs, v);
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
      hlsl_store (l, lhs->a, wide);
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
        src = hlsl_conv (l, src, base_of_kind (sk), base_of_kind (dk));
      if (r.cond != SL_IR_NONE)
        src = sl_ir_op3 (l->ir, SL_OP_SELECT, sl_ir_value (l->ir, r.ref)->kind, r.cond, src, r.ref);
      sl_ir_mov (l->ir, r.ref, src);
    }
  g_array_free (refs, TRUE);
}
