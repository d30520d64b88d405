/* Expressions in HLSL lowering: operators (with the D3D9 rules for
 * integer division and known-zero divisors), initializer lists and
 * constructors, and the dispatch of every expression node. */
#include "hlsl/hlsl_lower.h"

#include <limits.h>

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
  int64_t x;
  if (b != BT_FLOAT && hlsl_exact (l, y, &x))
    {
      if (x == 0)
        hlsl_lower_error (l, loc, SL_DIAG_HLSL_DIVISION_BY_ZERO, "division by zero");
      return;
    }
  if (!known_bits (l->ir, y, l->ir->insns->len, 0, &bits))
    return;
  /* The bits of a float, or (below SM 4 too) of an integer held in one. */
  bool is_float = sl_ir_value (l->ir, y)->kind == SL_KIND_FLOAT;
  if (is_float ? (bits & 0x7fffffffu) == 0 : bits == 0)
    hlsl_lower_error (l, loc, SL_DIAG_HLSL_DIVISION_BY_ZERO, "division by zero");
}

/* Below SM 4: int and uint operations on floats.  Operands known to be
 * constants fold as exact integers, as fxc folds them (16777217 % 10 is
 * 7, INT_MIN / -1 is +2^31), and the result is then a float; anything
 * else is float arithmetic, quotients truncated towards zero and
 * remainders taking the dividend's sign. */
static uint32_t
float_int_arith (L *l, int op, uint32_t x, uint32_t y)
{
  int64_t a, b;
  if (hlsl_exact (l, x, &a) && hlsl_exact (l, y, &b))
    {
      /* Wide enough for any two 32-bit operands; int64 overflow (only
       * from values beyond 2^32) wraps rather than being undefined. */
      uint64_t ua = (uint64_t) a, ub = (uint64_t) b;
      switch (op)
        {
        case '+': return hlsl_exact_value (l, (int64_t) (ua + ub));
        case '-': return hlsl_exact_value (l, (int64_t) (ua - ub));
        case '*': return hlsl_exact_value (l, (int64_t) (ua * ub));
        case '/': return hlsl_exact_value (l, b == 0 || (a == INT64_MIN && b == -1) ? 0 : a / b);
        case '%': return hlsl_exact_value (l, b == 0 || b == -1 ? 0 : a % b);
        case '<': return sl_ir_const_b (l->ir, a < b);
        case '>': return sl_ir_const_b (l->ir, a > b);
        case '<' * 256 + '=': return sl_ir_const_b (l->ir, a <= b);
        case '>' * 256 + '=': return sl_ir_const_b (l->ir, a >= b);
        case '=' * 256 + '=': return sl_ir_const_b (l->ir, a == b);
        case '!' * 256 + '=': return sl_ir_const_b (l->ir, a != b);
        default: break;
        }
    }
  if (op == '/')
    return f1 (l, SL_OP_TRUNC, f2 (l, SL_OP_DIV, x, y));
  if (op == '%')
    return f2 (l, SL_OP_FMOD, x, y);
  return hlsl_arith (l, op, BT_FLOAT, x, y);
}

uint32_t
hlsl_arith (L *l, int op, BaseType b, uint32_t x, uint32_t y)
{
  SlIr *ir = l->ir;
  bool f = b == BT_FLOAT, u = b == BT_UINT;
  SlOp o;
  SlKind k = kind_of (b);
  if (l->float_ints && (b == BT_INT || b == BT_UINT))
    return float_int_arith (l, op, x, y);
  if (l->sm < 40 && b == BT_INT && (op == '/' || op == '%'))
    {
      /* Integers that stay integers at a D3D9 target (no named profile,
       * ReShade FX) still divide as D3D9 does... */
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
        return hlsl_fxc_fmod (l, x, y);
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

/* Neither D3D9 nor SM4/SM5 bytecode has an instruction for float
 * remainders or inverse sines and cosines: fxc expands them, and the
 * conformance corpus encodes the expansions' results (0.15 % 0.05 is
 * exactly 0, asin(0) is 6.75e-5, asin(0.5) * 20000 rounds to 10473).
 * HLSL gets the same arithmetic, so a shader gives here what it gives
 * under Direct3D.  The IR's FMOD, ASIN and ACOS keep their exact
 * meaning for the other users.
 *
 * x % y: q = x / y; the fraction of |q| with q's sign, times y. */
uint32_t
hlsl_fxc_fmod (L *l, uint32_t x, uint32_t y)
{
  uint32_t q = f2 (l, SL_OP_DIV, x, y);
  uint32_t frac = f1 (l, SL_OP_FRC, f1 (l, SL_OP_ABS, q));
  uint32_t q_positive = sl_ir_op2 (l->ir, SL_OP_GE, SL_KIND_BOOL, q, f1 (l, SL_OP_NEG, q));
  uint32_t signed_frac = sl_ir_op3 (l->ir, SL_OP_SELECT, SL_KIND_FLOAT, q_positive, frac,
                                    f1 (l, SL_OP_NEG, frac));
  return f2 (l, SL_OP_MUL, signed_frac, y);
}

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
  RVal v = hlsl_lower_expr (l, e);
  BaseType *b = hlsl_bases_of (l, e->type);
  for (int i = 0; i < v.n; i++)
    {
      g_array_append_val (comps, v.c[i]);
      g_array_append_val (bases, b[i]);
    }
  if (objs && v.o)
    g_array_append_vals (objs, v.o, v.no);
}

RVal
hlsl_lower_initlist (L *l, Node *e, Type *target)
{
  GArray *comps = g_array_new (FALSE, FALSE, sizeof (uint32_t));
  GArray *bases = g_array_new (FALSE, FALSE, sizeof (BaseType));
  GArray *objs = g_array_new (FALSE, FALSE, sizeof (int));
  flatten_init (l, e, comps, bases, objs);
  RVal r = rv_new (l, target->n_comp);
  if (target->n_objects)
    {
      RVal ov = { .o = (int *) objs->data, .no = objs->len };
      r.o = hlsl_objs_copy (l, hlsl_objs_at (l, ov, 0, target->n_objects), target->n_objects);
      r.no = target->n_objects;
    }
  g_array_free (objs, TRUE);
  BaseType *tb = hlsl_bases_of (l, target);
  for (int i = 0; i < r.n; i++)
    {
      int src = comps->len == 1 ? 0 : i;
      if ((guint) src >= comps->len)
        {
          r.c[i] = zero_of (l, tb[i]);
          continue;
        }
      r.c[i] = hlsl_conv (l, g_array_index (comps, uint32_t, src), g_array_index (bases, BaseType, src), tb[i]);
    }
  g_array_free (comps, TRUE);
  g_array_free (bases, TRUE);
  return r;
}

/* An expression of object type goes through hlsl_lower_object, which
 * resolves variables, members and indices to the one object they name
 * without touching the rest of an array or struct. */
RVal
hlsl_lower_expr (L *l, Node *e)
{
  if (e->type && (e->type->kind == TY_SAMPLER || e->type->kind == TY_TEXTURE))
    {
      RVal r = rv_new (l, 0);
      r.o = SL_NEW (l->u->arena, int);
      r.o[0] = hlsl_lower_object (l, e);
      r.no = 1;
      return r;
    }
  return hlsl_lower_value (l, e);
}

RVal
hlsl_lower_value (L *l, Node *e)
{
  SlIr *ir = l->ir;
  switch (e->kind)
    {
    case N_LIT:
      {
        if (e->type->kind != TY_NUM)
          return rv_new (l, 0);
        RVal r = rv_new (l, e->type->n_comp);
        BaseType b = e->type->base;
        for (int i = 0; i < r.n; i++)
          if (l->float_ints && (b == BT_INT || b == BT_UINT))
            {
              /* Below SM 4 the literal's 32-bit value (3000000000 is
               * the int -1294967296, 3000000000u the uint 3e9) as a
               * float, exactly known. */
              r.c[i] = hlsl_exact_value (l, b == BT_INT ? (int32_t) e->lit[i] : (int64_t) e->lit[i]);
            }
          else
            r.c[i] = sl_ir_const (ir, kind_of (b), e->lit[i]);
        return r;
      }
    case N_VAR:
      if (e->type->n_objects && !hlsl_tracks_objects (l, e->var))
        {
          /* A whole array of global objects (an argument, say). */
          RVal r = rv_new (l, 0);
          if (e->type->n_comp)
            {
              hlsl_refuse_global_struct (l, e->var, e->loc);
              return rv_new (l, e->type->n_comp);
            }
          r.no = e->type->n_objects;
          r.o = SL_NEW_N (l->u->arena, int, r.no);
          for (int j = 0; j < r.no; j++)
            r.o[j] = hlsl_obj_ref (l, e->var, j);
          return r;
        }
      return hlsl_var_rval (l, e->var, e->loc);
    case N_SWIZZLE:
      {
        RVal a = hlsl_lower_expr (l, e->a);
        RVal r = rv_new (l, e->n_comps);
        for (int i = 0; i < e->n_comps; i++)
          r.c[i] = a.c[MIN (e->comps[i], a.n - 1)];
        return r;
      }
    case N_MEMBER:
      {
        RVal a = hlsl_lower_expr (l, e->a);
        RVal r = { a.c + e->offset, e->type->n_comp };
        if (e->type->n_objects)
          {
            r.o = hlsl_objs_at (l, a, hlsl_objects_before_field (e->a->type, e->op), e->type->n_objects);
            r.no = e->type->n_objects;
          }
        return r;
      }
    case N_INDEX:
      {
        RVal idx = hlsl_lower_expr (l, e->b);   /* the index is evaluated first */
        RVal a = hlsl_lower_expr (l, e->a);
        int es = e->type->n_comp, eo = e->type->n_objects;
        int n_elem = e->a->type->kind == TY_ARRAY ? e->a->type->len : a.n / MAX (es, 1);
        int32_t k;
        if (hlsl_const_int (l, idx.c[0], &k))
          {
            if (k < 0 || k >= n_elem)
              {
                if (!l->dead)
                  hlsl_lower_error (l, e->b->loc, SL_DIAG_HLSL_INDEX_RANGE,
                                    "index %d is out of bounds (0 to %d)", k, n_elem - 1);
                k = 0;
              }
            RVal r = { a.c + k * es, es };
            if (eo)
              {
                r.o = hlsl_objs_at (l, a, k * eo, eo);
                r.no = eo;
              }
            return r;
          }
        if (eo)
          {
            hlsl_lower_error (l, e->loc, SL_DIAG_HLSL_OBJECT_ARRAY_INDEX,
                              "arrays holding samplers or textures must be indexed by a constant");
            return rv_new (l, es);
          }
        /* Dynamic index: a chain of selects; out-of-range reads give
         * element 0 rather than memory outside the array. */
        RVal r = rv_new (l, es);
        for (int c = 0; c < es; c++)
          r.c[c] = a.c[c];
        for (int j = 1; j < n_elem; j++)
          {
            uint32_t cond = l->float_ints ? f2 (l, SL_OP_EQ, idx.c[0], fc (l, (float) j))
                                          : sl_ir_op2 (ir, SL_OP_IEQ, SL_KIND_BOOL, idx.c[0], sl_ir_const_i (ir, j));
            for (int c = 0; c < es; c++)
              r.c[c] = sl_ir_op3 (ir, SL_OP_SELECT, sl_ir_value (ir, a.c[j * es + c])->kind, cond,
                                  a.c[j * es + c], r.c[c]);
          }
        return r;
      }
    case N_UNARY:
      {
        RVal a = hlsl_lower_expr (l, e->a);
        RVal r = rv_new (l, a.n);
        BaseType b = e->type->base;
        for (int i = 0; i < a.n; i++)
          {
            const SlValue *av = sl_ir_value (ir, a.c[i]);
            int64_t x;
            if (l->float_ints && (b == BT_INT || b == BT_UINT) && e->op == '-' && hlsl_exact (l, a.c[i], &x))
              /* A negated literal folds in 32 bits (-1u is 4294967295,
               * -2147483648 stays itself); other known values negate
               * in float, as fxc folds them below SM 4 (the negated
               * 16782201 is -16782200). */
              r.c[i] = hlsl_exact_value (l, e->a->kind == N_LIT ? (b == BT_INT ? (int64_t) (int32_t) (0u - (uint32_t) x)
                                                                                 : (int64_t) (uint32_t) (0u - (uint32_t) x))
                                                              : (int64_t) -(double) (float) x);
            else if (l->float_ints && (b == BT_INT || b == BT_UINT) && e->op == '-')
              r.c[i] = f1 (l, SL_OP_NEG, a.c[i]);
            else if (e->op == '-' && av->cls == SL_VALUE_CONST && (b == BT_INT || b == BT_UINT))
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
              r.c[i] = sl_ir_op1 (ir, SL_OP_NOT, kind_for (l, b), a.c[i]);
          }
        return r;
      }
    case N_BINARY:
      {
        RVal a = hlsl_lower_expr (l, e->a), b = hlsl_lower_expr (l, e->b);
        BaseType ob = e->a->type->base;
        RVal r = rv_new (l, e->type->n_comp);
        for (int i = 0; i < r.n; i++)
          {
            uint32_t y = b.c[b.n == 1 ? 0 : i];
            /* fxc refuses a divisor known to be zero below SM 4, and an
             * integer one at every profile. */
            if ((l->sm < 40 || (l->u->fxc_profile && ob != BT_FLOAT)) && (e->op == '/' || e->op == '%')
                && !l->failed)
              check_zero_divisor (l, e->loc, ob, y);
            r.c[i] = hlsl_arith (l, e->op, ob, a.c[a.n == 1 ? 0 : i], y);
          }
        return r;
      }
    case N_ASSIGN:
      {
        RVal v = hlsl_lower_expr (l, e->b);
        hlsl_store (l, e->a, v);
        return v;
      }
    case N_TERNARY:
      {
        if (e->type->n_objects)
          {
            Node *taken = hlsl_constant_branch (l, e);
            return taken ? hlsl_lower_expr (l, taken) : rv_new (l, e->type->n_comp);
          }
        RVal c = hlsl_lower_expr (l, e->a), a = hlsl_lower_expr (l, e->b), b = hlsl_lower_expr (l, e->c);
        RVal r = rv_new (l, e->type->n_comp);
        for (int i = 0; i < r.n; i++)
          r.c[i] = sl_ir_op3 (ir, SL_OP_SELECT, sl_ir_value (ir, a.c[MIN (i, a.n - 1)])->kind,
                              c.c[c.n == 1 ? 0 : i], a.c[MIN (i, a.n - 1)], b.c[MIN (i, b.n - 1)]);
        return r;
      }
    case N_COMMA:
      hlsl_lower_expr (l, e->a);
      return hlsl_lower_expr (l, e->b);
    case N_CALL:
      return hlsl_inline_call (l, e);
    case N_INTRINSIC:
      return hlsl_lower_intrinsic (l, e);
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
            r.c[i] = hlsl_conv (l, g_array_index (comps, uint32_t, src),
                                g_array_index (bases, BaseType, src), e->type->base);
          }
        g_array_free (comps, TRUE);
        g_array_free (bases, TRUE);
        return r;
      }
    case N_CAST:
      return hlsl_cast_rval (l, hlsl_lower_expr (l, e->a), e->a->type, e->type);
    case N_INCDEC:
      {
        RVal old = hlsl_lower_expr (l, e->a);
        RVal nv = rv_new (l, old.n);
        BaseType b = e->type->base;
        for (int i = 0; i < old.n; i++)
          nv.c[i] = hlsl_arith (l, e->op == '+' ? '+' : '-', b == BT_BOOL ? BT_INT : b, old.c[i], one_of (l, b));
        hlsl_store (l, e->a, nv);
        return e->postfix ? old : nv;
      }
    case N_INITLIST:
      return hlsl_lower_initlist (l, e, e->type);
    default:
      hlsl_lower_error (l, e->loc, SL_DIAG_INTERNAL_HLSL_EXPRESSION, "internal error: unexpected expression");
      return rv_new (l, e->type ? e->type->n_comp : 0);
    }
}
