/* Constant evaluation in the parser.
 *
 * The grammar needs some values while parsing: array sizes, case labels,
 * register offsets, [unroll(n)] counts, loop trip counts, and whether a
 * uniform's default value is a literal expression.  Only literals, casts,
 * constant variables and simple arithmetic fold here; everything else is
 * left to the IR's folding after lowering.  Integer arithmetic uses the
 * VM's wrapping scalar helpers, so hostile sizes are never undefined
 * behaviour in the compiler itself. */
#include "hlsl/hlsl_parse.h"

#include "vm/scalar_ops.h"

/* Component @k of a constant expression: literals, initializer lists
 * and the constant variables they initialise, seen through indexing,
 * members and swizzles. */
static double
const_component (P *p, Node *e, int k, bool *ok)
{
  if (!e || !*ok)
    {
      *ok = false;
      return 0;
    }
  switch (e->kind)
    {
    case N_LIT:
      if (e->type->kind != TY_NUM || !e->lit || k >= e->type->n_comp)
        break;
      switch (e->type->base)
        {
        case BT_FLOAT: return sl_u2f (e->lit[k]);
        case BT_BOOL: return e->lit[k] ? 1 : 0;
        case BT_UINT: return e->lit[k];
        default: return (int32_t) e->lit[k];
        }
    case N_VAR:
      if (e->var->is_const && e->var->init)
        return const_component (p, e->var->init, k, ok);
      break;
    case N_INITLIST:
      for (int i = 0; i < e->n_args; i++)
        {
          Node *a = e->args[i];
          int n = a->kind == N_INITLIST ? a->n_comps : a->type->n_comp;
          if (k < n)
            return const_component (p, a, k, ok);
          k -= n;
        }
      break;
    case N_CAST:
      {
        double v = const_component (p, e->a, e->a->type->n_comp == 1 ? 0 : k, ok);
        if (e->type->kind == TY_NUM && (e->type->base == BT_INT || e->type->base == BT_UINT))
          v = (double) (int64_t) v;
        else if (e->type->kind == TY_NUM && e->type->base == BT_BOOL)
          v = v != 0;
        return v;
      }
    case N_INDEX:
      {
        int idx = (int) const_component (p, e->b, 0, ok);
        return const_component (p, e->a, idx * e->type->n_comp + k, ok);
      }
    case N_MEMBER:
      return const_component (p, e->a, e->offset + k, ok);
    case N_SWIZZLE:
      if (k < e->n_comps)
        return const_component (p, e->a, e->comps[k], ok);
      break;
    case N_UNARY:
      if (e->op == '-')
        return -const_component (p, e->a, k, ok);
      if (e->op == '+')
        return const_component (p, e->a, k, ok);
      break;
    case N_BINARY:
      {
        double a = const_component (p, e->a, e->a->type->n_comp == 1 ? 0 : k, ok);
        double b = const_component (p, e->b, e->b->type->n_comp == 1 ? 0 : k, ok);
        switch (e->op)
          {
          case '+': return a + b;
          case '-': return a - b;
          case '*': return a * b;
          case '/': return b != 0 ? a / b : 0;
          default: break;
          }
        break;
      }
    default:
      break;
    }
  *ok = false;
  return 0;
}

int
hlsl_const_eval_int (P *p, Node *e, bool *ok)
{
  /* Only literals and casts of literals fold here; the IR folds the rest. */
  if (e->kind == N_LIT && e->type->kind == TY_NUM && e->lit)
    {
      uint32_t w = e->lit[0];
      switch (e->type->base)
        {
        case BT_FLOAT: return sl_scalar_FTOI (sl_u2f (w));
        case BT_BOOL: return w ? 1 : 0;
        default: return (int32_t) w;
        }
    }
  if (e->kind == N_CAST)
    return hlsl_const_eval_int (p, e->a, ok);
  if (e->kind == N_UNARY && e->op == '-')
    return sl_scalar_INEG (hlsl_const_eval_int (p, e->a, ok));
  if (e->kind == N_BINARY)
    {
      /* The VM's wrapping helpers: hostile sizes like INT_MAX * 2 must not
       * be undefined behaviour in the compiler itself. */
      int32_t a = hlsl_const_eval_int (p, e->a, ok), b = hlsl_const_eval_int (p, e->b, ok);
      switch (e->op)
        {
        case '+': return sl_scalar_IADD (a, b);
        case '-': return sl_scalar_ISUB (a, b);
        case '*': return sl_scalar_IMUL (a, b);
        case '/': return b ? sl_scalar_IDIV (a, b) : 0;
        case '%': return b ? sl_scalar_IMOD (a, b) : 0;
        case '<' * 256 + '<': return (int32_t) sl_scalar_SHL ((uint32_t) a, (uint32_t) b);
        case '>' * 256 + '>': return sl_scalar_ISHR (a, b);
        default: break;
        }
    }
  if (e->kind == N_VAR && e->var->is_const && e->var->init)
    return hlsl_const_eval_int (p, e->var->init, ok);
  if (e->kind == N_INDEX || e->kind == N_MEMBER || e->kind == N_SWIZZLE)
    return (int) const_component (p, e, 0, ok);
  *ok = false;
  return 0;
}

double
hlsl_const_eval_double (P *p, Node *e, bool *ok)
{
  if (e->kind == N_LIT && e->type->kind == TY_NUM && e->lit)
    {
      uint32_t w = e->lit[0];
      switch (e->type->base)
        {
        case BT_FLOAT: return sl_u2f (w);
        case BT_BOOL: return w ? 1 : 0;
        case BT_UINT: return w;
        default: return (int32_t) w;
        }
    }
  if (e->kind == N_CAST)
    return hlsl_const_eval_double (p, e->a, ok);
  if (e->kind == N_UNARY && e->op == '-')
    return -hlsl_const_eval_double (p, e->a, ok);
  if (e->kind == N_BINARY)
    {
      double a = hlsl_const_eval_double (p, e->a, ok), b = hlsl_const_eval_double (p, e->b, ok);
      switch (e->op)
        {
        case '+': return a + b;
        case '-': return a - b;
        case '*': return a * b;
        case '/': return b != 0 ? a / b : 0;
        default: break;
        }
    }
  *ok = false;
  return 0;
}

int
hlsl_parse_const_int_expr (P *p, int *out)
{
  Token *t = peek (p);
  Node *e = hlsl_parse_unary (p);
  /* allow simple binary arithmetic */
  while (is (p, "*") || is (p, "+") || is (p, "-") || is (p, "/"))
    {
      Token *o = next (p);
      Node *b = new_node (p, N_BINARY, o->loc, e->type);
      b->op = o->text[0];
      b->a = e;
      b->b = hlsl_parse_unary (p);
      e = b;
    }
  bool ok = true;
  int v = hlsl_const_eval_int (p, e, &ok);
  if (!ok && !is_error (e))
    hlsl_error (p, t->loc, SL_DIAG_HLSL_EXPECTED_CONSTANT, "expected a constant integer expression");
  *out = v;
  return ok;
}

bool
hlsl_is_literal_expr (const Node *e)
{
  if (!e)
    return true;
  switch (e->kind)
    {
    case N_LIT:
      return true;
    case N_VAR:
      return e->var->is_const && e->var->storage == STORE_STATIC;
    case N_CALL: case N_ASSIGN: case N_INCDEC:
      return false;
    default:
      break;
    }
  if (e->type && (e->type->kind == TY_SAMPLER || e->type->kind == TY_TEXTURE))
    return false;
  if (!hlsl_is_literal_expr (e->a) || !hlsl_is_literal_expr (e->b) || !hlsl_is_literal_expr (e->c))
    return false;
  for (int i = 0; i < e->n_args; i++)
    if (!hlsl_is_literal_expr (e->args[i]))
      return false;
  return true;
}
