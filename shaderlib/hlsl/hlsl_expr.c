/* HLSL expressions: primaries, postfix (members, swizzles, indexing,
 * methods), unary and binary operators by precedence, the ternary and
 * assignments.
 *
 * Each level checks its operands' types and converts them with
 * hlsl_convert(), so every node leaves here fully typed.  Calls resolve
 * user overloads first (ranked like the D3D compiler ranks them) and then
 * intrinsics, whose arguments are typed by hlsl_intrinsics.c. */
#include "hlsl/hlsl_parse.h"

#include "vm/scalar_ops.h"

#include <limits.h>
#include <string.h>

/* ---- operands ---------------------------------------------------------- */

static Node *
lit_scalar (P *p, SlLoc loc, BaseType base, uint32_t bits)
{
  Node *n = new_node (p, N_LIT, loc, hlsl_type_num (p->arena, base, NUM_SCALAR, 1, 1));
  n->lit = SL_NEW_N (p->arena, uint32_t, 1);
  n->lit[0] = bits;
  return n;
}

/* "Operators": bitwise operators need shader model 4; below it integers
 * are floats.  Checked after the operand types, as fxc reports a float
 * operand first.  Without a named profile (and in ReShade FX) integers
 * are integers at every target. */
static bool
bitwise_available (P *p, SlLoc loc)
{
  if (p->u->shader_model >= 40 || !p->u->fxc_profile)
    return true;
  hlsl_error (p, loc, SL_DIAG_HLSL_BITWISE_PROFILE,
              "bitwise operators need shader model 4 or later; the target is ps_%d_%s",
              p->u->shader_model / 10, p->u->shader_model % 10 ? "x" : "0");
  return false;
}

static Node *
make_binary (P *p, SlLoc loc, int op, Node *a, Node *b)
{
  if (is_error (a) || is_error (b))
    return error_node (p, loc);
  Type *ta = a->type, *tb = b->type;
  bool cmp = op == '<' || op == '>' || op == '<' * 256 + '=' || op == '>' * 256 + '='
             || op == '=' * 256 + '=' || op == '!' * 256 + '=';
  bool logical = op == '&' * 256 + '&' || op == '|' * 256 + '|';
  bool bitwise = op == '&' || op == '|' || op == '^' || op == '<' * 256 + '<'
                 || op == '>' * 256 + '>' || op == '%';
  if (ta->kind != TY_NUM || tb->kind != TY_NUM)
    {
      hlsl_error (p, loc, SL_DIAG_HLSL_OPERANDS_NOT_NUMERIC,
                  "operator needs numeric operands, not '%s' and '%s'", hlsl_type_name (p, ta),
                  hlsl_type_name (p, tb));
      return error_node (p, loc);
    }
  BaseType base = hlsl_common_base (ta->base, tb->base);
  if (logical)
    base = BT_BOOL;
  else if (bitwise && op != '%')
    {
      if (ta->base == BT_FLOAT || tb->base == BT_FLOAT)
        {
          hlsl_error (p, loc, SL_DIAG_HLSL_BITWISE_NOT_INTEGER, "bitwise operators need integer operands");
          return error_node (p, loc);
        }
      if (!bitwise_available (p, loc))
        return error_node (p, loc);
      if (base == BT_BOOL)
        base = BT_INT;
    }
  else if (base == BT_BOOL)
    base = BT_INT;    /* arithmetic on bools happens in int */
  if (op == '<' * 256 + '<' || op == '>' * 256 + '>')
    base = ta->base == BT_BOOL ? BT_INT : ta->base;
  Type *rt = hlsl_binary_type (p, loc, ta, tb, base);
  if (rt->kind == TY_ERROR)
    return error_node (p, loc);
  Node *n = new_node (p, N_BINARY, loc, NULL);
  n->op = op;
  Type *operand_t = hlsl_type_num (p->arena, logical ? BT_BOOL : base, rt->cls, rt->rows, rt->cols);
  if (op == '<' * 256 + '<' || op == '>' * 256 + '>')
    {
      n->a = hlsl_convert (p, a, operand_t, loc, false, NULL);
      n->b = hlsl_convert (p, b, hlsl_type_num (p->arena, BT_UINT, rt->cls, rt->rows, rt->cols), loc, false, NULL);
    }
  else
    {
      n->a = hlsl_convert (p, a, operand_t, loc, false, NULL);
      n->b = hlsl_convert (p, b, operand_t, loc, false, NULL);
    }
  n->type = cmp ? hlsl_type_num (p->arena, BT_BOOL, rt->cls, rt->rows, rt->cols) : rt;
  return n;
}

static bool
hlsl_is_object_type (const Type *t)
{
  while (t->kind == TY_ARRAY)
    t = t->elem;
  return t->kind == TY_TEXTURE || t->kind == TY_SAMPLER;
}

bool
hlsl_is_lvalue (P *p, Node *e, bool report)
{
  switch (e->kind)
    {
    case N_VAR:
      if (e->var->is_const)
        {
          if (report)
            hlsl_error (p, e->loc, SL_DIAG_HLSL_ASSIGN_CONST,
                        "cannot assign to const variable '%s'", e->var->name);
          return false;
        }
      /* A global texture or sampler may be assigned: below SM 5.1 fxc
       * resolves objects when compiling, so the assignment rebinds the
       * name (lowering follows it, as for locals). */
      if (e->var->storage == STORE_UNIFORM && !hlsl_is_object_type (e->var->type))
        {
          if (report)
            hlsl_error (p, e->loc, SL_DIAG_HLSL_ASSIGN_UNIFORM,
                        "cannot assign to uniform '%s'", e->var->name);
          return false;
        }
      return true;
    case N_SWIZZLE:
      for (int i = 0; i < e->n_comps; i++)
        for (int j = 0; j < i; j++)
          if (e->comps[i] == e->comps[j])
            {
              if (report)
                hlsl_error (p, e->loc, SL_DIAG_HLSL_WRITE_MASK_REPEAT,
                            "swizzle used as a write mask repeats a component");
              return false;
            }
      return hlsl_is_lvalue (p, e->a, report);
    case N_MEMBER: case N_INDEX:
      return hlsl_is_lvalue (p, e->a, report);
    case N_CAST:
      /* (float2) v = … assigns part of v; aggregates must keep their
       * component types. */
      if (e->a->type->n_objects
          || (e->type->kind != TY_NUM && !hlsl_prefix_component_bases (e->type, e->a->type)))
        {
          if (report)
            hlsl_error (p, e->loc, SL_DIAG_HLSL_ASSIGN_CAST,
                        "cast of type '%s' cannot be assigned to", hlsl_type_name (p, e->type));
          return false;
        }
      return hlsl_is_lvalue (p, e->a, report);
    default:
      if (report && !is_error (e))
        hlsl_error (p, e->loc, SL_DIAG_HLSL_NOT_ASSIGNABLE, "expression is not assignable");
      return false;
    }
}

Node *
hlsl_parse_initializer_list (P *p, SlLoc loc)
{
  /* { a, b, { c, d } } — flattened by lowering */
  Node *n = new_node (p, N_INITLIST, loc, p->t_void);
  GPtrArray *items = g_ptr_array_new ();
  int total = 0;
  if (!is (p, "}"))
    for (;;)
      {
        Node *item;
        if (is (p, "{") && p->depth >= SL_MAX_NESTING)
          {
            hlsl_error (p, peek (p)->loc, SL_DIAG_HLSL_INITIALIZER_DEPTH,
                        "initializer braces nested too deeply (more than %d)", SL_MAX_NESTING);
            /* The braces inside are skipped, so the list's size is
             * unknown: the whole initializer is an error. */
            hlsl_skip_rest_of_expression (p);
            while (accept (p, ","))
              hlsl_skip_rest_of_expression (p);
            expect (p, "}");
            g_ptr_array_free (items, TRUE);
            return error_node (p, loc);
          }
        else if (is (p, "{"))
          {
            Token *b = next (p);
            p->depth++;
            item = hlsl_parse_initializer_list (p, b->loc);
            p->depth--;
            if (is_error (item))
              {
                /* Only the depth limit makes a list an error: this one is
                 * one too, quietly. */
                hlsl_skip_rest_of_expression (p);
                while (accept (p, ","))
                  hlsl_skip_rest_of_expression (p);
                expect (p, "}");
                g_ptr_array_free (items, TRUE);
                return item;
              }
          }
        else
          item = hlsl_parse_assign (p);
        g_ptr_array_add (items, item);
        total += item->type->kind == TY_VOID ? item->n_comps : item->type->n_comp;
        if (!accept (p, ","))
          break;
        if (is (p, "}"))
          break;
      }
  expect (p, "}");
  n->n_args = items->len;
  n->args = SL_NEW_N (p->arena, Node *, items->len + 1);
  if (items->len > 0)   /* pdata is NULL while empty */
    memcpy (n->args, items->pdata, items->len * sizeof (Node *));
  n->n_comps = total;
  g_ptr_array_free (items, TRUE);
  return n;
}

/* Parses the swizzle/member letters of a numeric value. */
static Node *
parse_swizzle (P *p, Node *base, Token *name)
{
  Type *t = base->type;
  const char *s = name->text;
  int comps[16];
  int n = 0;
  if (t->cls == NUM_MATRIX || (s[0] == '_' ))
    {
      /* _m00 / _11 forms, chained: _m00_m11 (one form per swizzle) */
      const char *q = s;
      int form = 0;
      if (t->cls != NUM_MATRIX)
        {
          hlsl_error (p, name->loc, SL_DIAG_HLSL_MATRIX_SWIZZLE_NOT_MATRIX,
                      "'%s' is not a matrix; '%s' is a matrix swizzle", hlsl_type_name (p, t), s);
          return error_node (p, name->loc);
        }
      while (*q)
        {
          int r, c;
          int this_form = q[0] == '_' && q[1] == 'm' ? 1 : 2;
          if (form && form != this_form)
            {
              hlsl_error (p, name->loc, SL_DIAG_HLSL_MATRIX_SWIZZLE_MIXED,
                          "matrix swizzle '%s' mixes the _mRC and _RC forms", s);
              return error_node (p, name->loc);
            }
          form = this_form;
          if (q[0] == '_' && q[1] == 'm' && q[2] >= '0' && q[2] <= '3' && q[3] >= '0' && q[3] <= '3')
            {
              r = q[2] - '0';
              c = q[3] - '0';
              q += 4;
            }
          else if (q[0] == '_' && q[1] >= '1' && q[1] <= '4' && q[2] >= '1' && q[2] <= '4')
            {
              r = q[1] - '1';
              c = q[2] - '1';
              q += 3;
            }
          else
            {
              hlsl_error (p, name->loc, SL_DIAG_HLSL_MATRIX_SWIZZLE, "invalid matrix swizzle '%s'", s);
              return error_node (p, name->loc);
            }
          if (r >= t->rows || c >= t->cols || n >= 4)
            {
              hlsl_error (p, name->loc, SL_DIAG_HLSL_MATRIX_SWIZZLE_RANGE,
                          "matrix swizzle '%s' is out of range for '%s'", s, hlsl_type_name (p, t));
              return error_node (p, name->loc);
            }
          comps[n++] = r * t->cols + c;
        }
    }
  else
    {
      int len = strlen (s);
      if (len > 4)
        {
          hlsl_error (p, name->loc, SL_DIAG_HLSL_SWIZZLE, "invalid swizzle '%s'", s);
          return error_node (p, name->loc);
        }
      int set = 0;
      for (int i = 0; i < len; i++)
        {
          const char *xyzw = "xyzw", *rgba = "rgba";
          const char *a = strchr (xyzw, s[i]), *b = strchr (rgba, s[i]);
          int c = a ? a - xyzw : b ? b - rgba : -1;
          int this_set = a ? 1 : 2;
          if (c < 0 || (set && set != this_set))
            {
              hlsl_error (p, name->loc, SL_DIAG_HLSL_SWIZZLE, "invalid swizzle '%s'", s);
              return error_node (p, name->loc);
            }
          set = this_set;
          if (c >= t->n_comp)
            {
              hlsl_error (p, name->loc, SL_DIAG_HLSL_SWIZZLE_RANGE,
                          "swizzle '%s' reads beyond the %d component(s) of '%s'", s,
                          t->n_comp, hlsl_type_name (p, t));
              return error_node (p, name->loc);
            }
          comps[n++] = c;
        }
    }
  Node *sw = new_node (p, N_SWIZZLE, name->loc,
                       hlsl_type_num (p->arena, t->base, n == 1 ? NUM_SCALAR : NUM_VECTOR, 1, n));
  sw->a = base;
  sw->n_comps = n;
  sw->comps = SL_NEW_N (p->arena, int, n);
  memcpy (sw->comps, comps, n * sizeof (int));
  return sw;
}

/* ---- calls ------------------------------------------------------------- */

static Node *
make_call (P *p, Token *name, Node *object, GPtrArray *args)
{
  SlLoc loc = name->loc;
  for (guint i = 0; i < args->len; i++)
    if (is_error (g_ptr_array_index (args, i)))
      return error_node (p, loc);

  /* User functions first: they may overload intrinsic names. */
  Func *f = object ? NULL : g_hash_table_lookup (p->u->funcs, name->text);
  Func *best = NULL;
  if (f)
    {
      /* Overload resolution: exact matches beat conversions; among
       * viable candidates the one with fewest conversions wins. */
      int best_cost = INT_MAX, ties = 0;
      for (Func *c = f; c; c = c->next_overload)
        {
          int n_req = 0;
          for (int k = 0; k < c->n_params; k++)
            if (!c->defaults || !c->defaults[k])
              n_req = k + 1;
          if ((int) args->len < n_req || (int) args->len > c->n_params)
            continue;
          int cost = 0;
          bool viable = true;
          for (guint k = 0; k < args->len && viable; k++)
            {
              Node *an = g_ptr_array_index (args, k);
              Type *at = an->type, *pt = c->params[k]->type;
              if (at->kind == TY_NUM && pt->kind == TY_NUM && at->is_double != pt->is_double)
                cost += 100;
              if (hlsl_type_equal (at, pt))
                continue;
              /* Ranked like the D3D compiler: dropping components is
               * worse than changing the component type, which is worse
               * than replicating a scalar; how many components change
               * does not matter, nor does vector versus matrix shape. */
              if (at->kind == TY_NUM && pt->kind == TY_NUM)
                {
                  if (at->n_comp == pt->n_comp)
                    ;
                  else if (at->n_comp == 1)
                    cost += 1;
                  else if (at->n_comp > pt->n_comp)
                    cost += 10000;
                  else
                    viable = false;
                  /* An unsuffixed integer literal is as much uint as int. */
                  bool literal_int = an->kind == N_LIT && at->base == BT_INT && pt->base == BT_UINT;
                  if (at->base != pt->base && !literal_int)
                    cost += 100;
                }
              else if ((at->kind == TY_ARRAY || at->kind == TY_STRUCT)
                       && (pt->kind == TY_ARRAY || pt->kind == TY_STRUCT)
                       && at->n_comp == pt->n_comp
                       && (at->n_objects || pt->n_objects ? hlsl_objects_line_up (at, pt, false, true)
                                                          : hlsl_same_component_bases (at, pt)))
                cost += 1;   /* the same components in another shape */
              else if (!((at->kind == TY_SAMPLER || at->kind == TY_TEXTURE) && at->kind == pt->kind))
                viable = false;
            }
          if (!viable)
            continue;
          if (cost < best_cost)
            {
              best = c;
              best_cost = cost;
              ties = 0;
            }
          else if (cost == best_cost)
            ties++;
        }
      if (!best && g_hash_table_lookup (p->intrinsics, name->text))
        f = NULL;   /* user overloads of an intrinsic that do not fit: the intrinsic */
      else if (!best)
        {
          hlsl_error (p, loc, SL_DIAG_HLSL_NO_OVERLOAD,
                      "no overload of '%s' takes these %u argument(s)", name->text, args->len);
          return error_node (p, loc);
        }
      if (best && ties)
        {
          hlsl_error (p, loc, SL_DIAG_HLSL_AMBIGUOUS_CALL,
                      "ambiguous call to overloaded function '%s'", name->text);
          return error_node (p, loc);
        }
    }
  if (f)
    {
      Node *call = new_node (p, N_CALL, loc, best->ret);
      call->func = best;
      call->n_args = best->n_params;
      call->args = SL_NEW_N (p->arena, Node *, best->n_params + 1);
      for (int k = 0; k < best->n_params; k++)
        {
          Node *arg = k < (int) args->len ? g_ptr_array_index (args, k) : best->defaults[k];
          Var *prm = best->params[k];
          if (prm->param_mod != 0)
            {
              if (!hlsl_is_lvalue (p, arg, true))
                return error_node (p, arg->loc);
              if (!hlsl_type_equal (arg->type, prm->type) && arg->type->n_comp != prm->type->n_comp)
                {
                  hlsl_error (p, arg->loc, SL_DIAG_HLSL_OUT_ARGUMENT,
                              "cannot pass '%s' as out parameter of type '%s'",
                              hlsl_type_name (p, arg->type), hlsl_type_name (p, prm->type));
                  return error_node (p, arg->loc);
                }
              call->args[k] = arg;
            }
          else
            call->args[k] = hlsl_convert (p, arg, prm->type, arg->loc, false, "argument");
        }
      return call;
    }

  return hlsl_intrinsic_call (p, name, object, args);
}

/* ---- the grammar, by precedence ---------------------------------------- */

/* Operator chains are parsed in loops or in a recursion one frame deep
 * per operator, but each operator puts its operand one level lower in the
 * tree, and lowering walks trees recursively.  p->chain counts the
 * operators above the operand being parsed; past SL_MAX_EXPR_CHAIN the
 * rest of the operand is skipped (so the enclosing levels close quietly)
 * and the caller returns an error node.  Every kind of chain reports its
 * own diagnostic at the operator that crossed the limit. */
static bool
chain_too_long (P *p, SlLoc loc, SlDiagKind kind, const char *what)
{
  if (p->chain < SL_MAX_EXPR_CHAIN)
    return false;
  hlsl_error (p, loc, kind, "%s (more than %d)", what, SL_MAX_EXPR_CHAIN);
  hlsl_skip_rest_of_expression (p);
  return true;
}

static Node *
parse_primary (P *p)
{
  Token *t = peek (p);
  SlLoc loc = t->loc;
  if (++p->depth > SL_MAX_NESTING)
    {
      hlsl_error (p, loc, SL_DIAG_HLSL_EXPRESSION_DEPTH, "expression nested too deeply");
      p->depth--;
      /* Skip only this operand, up to the ')' or ',' its enclosing
       * levels are waiting for, so that they close without errors. */
      hlsl_skip_rest_of_expression (p);
      return error_node (p, loc);
    }
  Node *result = NULL;
  if (t->kind == TK_INT)
    {
      next (p);
      if (t->ival > 0xffffffffull)
        hlsl_warning (p, loc, SL_DIAG_HLSL_INTEGER_TRUNCATED,
                      "integer constant is too large and is truncated");
      result = lit_scalar (p, loc, t->suffix == 'u' ? BT_UINT : BT_INT, (uint32_t) t->ival);
    }
  else if (t->kind == TK_FLOAT)
    {
      next (p);
      result = lit_scalar (p, loc, BT_FLOAT, sl_f2u ((float) t->fval));
    }
  else if (t->kind == TK_IDENT && (!strcmp (t->text, "true") || !strcmp (t->text, "false")))
    {
      next (p);
      result = lit_scalar (p, loc, BT_BOOL, t->text[0] == 't' ? SL_TRUE : 0);
    }
  else if (t->kind == TK_STRING)
    {
      next (p);
      result = new_node (p, N_LIT, loc, p->t_string);
    }
  else if (t->kind == TK_IDENT && (!strcmp (t->text, "compile")
                                   || (!strcmp (t->text, "CompileShader")
                                       && peek_at (p, 1)->kind == TK_PUNCT
                                       && !strcmp (peek_at (p, 1)->text, "("))))
    {
      /* A compiled shader inside a numeric initializer: the D3D compiler
       * accepts it and drops the default value; it counts as one zero. */
      next (p);
      if (t->text[0] == 'C')
        {
          next (p);
          hlsl_skip_args (p);
        }
      else
        hlsl_parse_compile_target (p, false);
      result = lit_scalar (p, loc, BT_FLOAT, 0);
    }
  else if (is (p, "("))
    {
      next (p);
      result = hlsl_parse_expr (p);
      expect (p, ")");
    }
  else if (t->kind == TK_IDENT)
    {
      /* Constructors: float3(…), vector<float,3>(…). */
      if (hlsl_is_type_start (p) && !hlsl_lookup_var (p, t->text))
        {
          int save = p->pos;
          Type *ty = hlsl_parse_type (p);
          if (ty && is (p, "("))
            {
              next (p);
              GPtrArray *args = g_ptr_array_new ();
              int total = 0;
              bool bad = false;
              if (!is (p, ")"))
                do
                  {
                    Node *a = hlsl_parse_assign (p);
                    g_ptr_array_add (args, a);
                    if (is_error (a))
                      bad = true;
                    else if (a->type->kind != TY_NUM && !(a->type->kind == TY_STRUCT || a->type->kind == TY_ARRAY))
                      {
                        hlsl_error (p, a->loc, SL_DIAG_HLSL_CONSTRUCTOR_NOT_NUMERIC,
                                    "constructor argument must be numeric");
                        bad = true;
                      }
                    else
                      total += a->type->n_comp;
                  }
                while (accept (p, ","));
              expect (p, ")");
              if (!bad && ty->kind != TY_NUM)
                {
                  hlsl_error (p, loc, SL_DIAG_HLSL_CONSTRUCTOR_TYPE,
                              "cannot construct '%s' this way", hlsl_type_name (p, ty));
                  bad = true;
                }
              if (!bad && p->u->reshade && args->len == 1 && total == 1 && ty->n_comp > 1)
                {
                  /* ReShade FX: float4(x) repeats x, like (float4) x. */
                  result = new_node (p, N_CAST, loc, ty);
                  result->a = g_ptr_array_index (args, 0);
                }
              else if (!bad && total != ty->n_comp)
                {
                  hlsl_error (p, loc, SL_DIAG_HLSL_CONSTRUCTOR_COUNT,
                              "'%s' constructor needs %d components, got %d",
                              hlsl_type_name (p, ty), ty->n_comp, total);
                  bad = true;
                }
              if (result)
                ;
              else if (bad)
                result = error_node (p, loc);
              else
                {
                  Node *c = new_node (p, N_CTOR, loc, ty);
                  c->n_args = args->len;
                  c->args = SL_NEW_N (p->arena, Node *, args->len + 1);
                  if (args->len > 0)   /* pdata is NULL while empty */
                    memcpy (c->args, args->pdata, args->len * sizeof (Node *));
                  result = c;
                }
              g_ptr_array_free (args, TRUE);
            }
          else
            {
              p->pos = save;
              hlsl_error (p, loc, SL_DIAG_HLSL_UNEXPECTED_TYPE_NAME,
                          "unexpected type name '%s' in an expression", t->text);
              next (p);
              result = error_node (p, loc);
            }
        }
      else if (peek_at (p, 1)->kind == TK_PUNCT && !strcmp (peek_at (p, 1)->text, "(")
               && !hlsl_lookup_var (p, t->text))
        {
          next (p);
          next (p);
          GPtrArray *args = g_ptr_array_new ();
          if (!is (p, ")"))
            do
              g_ptr_array_add (args, hlsl_parse_assign (p));
            while (accept (p, ","));
          expect (p, ")");
          result = make_call (p, t, NULL, args);
          g_ptr_array_free (args, TRUE);
        }
      else
        {
          next (p);
          Var *v = hlsl_lookup_var (p, t->text);
          if (!v)
            {
              hlsl_error (p, loc, SL_DIAG_HLSL_UNDECLARED, "undeclared identifier '%s'", t->text);
              result = error_node (p, loc);
            }
          else
            {
              result = new_node (p, N_VAR, loc, v->type);
              result->var = v;
            }
        }
    }
  else
    {
      hlsl_error (p, loc, SL_DIAG_HLSL_EXPECTED_EXPRESSION,
                  "expected an expression before '%s'", tok_desc (t));
      if (t->kind != TK_EOF && !is (p, ";") && !is (p, "}") && !is (p, ")"))
        next (p);
      result = error_node (p, loc);
    }
  p->depth--;
  return result;
}

static Node *
parse_postfix_chain (P *p, Node *e);

static Node *
parse_postfix (P *p)
{
  Node *e = parse_primary (p);
  int base = p->chain;
  e = parse_postfix_chain (p, e);
  p->chain = base;
  return e;
}

/* The '.', '[]' and postfix '++'/'--' links after a primary; each one
 * counts in p->chain (parse_postfix restores it). */
static Node *
parse_postfix_chain (P *p, Node *e)
{
  for (;;)
    {
      Token *t = peek (p);
      if ((is (p, ".") || is (p, "[") || is (p, "++") || is (p, "--"))
          && chain_too_long (p, t->loc, SL_DIAG_HLSL_POSTFIX_DEPTH,
                             "too many swizzles, members, indices or postfix operators in a row"))
        return error_node (p, t->loc);
      p->chain++;
      if (is (p, "."))
        {
          next (p);
          Token *name = peek (p);
          if (name->kind != TK_IDENT)
            {
              hlsl_error (p, name->loc, SL_DIAG_HLSL_EXPECTED_MEMBER_NAME,
                          "expected a member name after '.'");
              hlsl_skip_rest_of_expression (p);
              return error_node (p, name->loc);
            }
          next (p);
          if (is_error (e))
            {
              if (is (p, "("))
                {
                  next (p);
                  while (!is (p, ")") && peek (p)->kind != TK_EOF)
                    next (p);
                  accept (p, ")");
                }
              continue;
            }
          if (is (p, "(") && (e->type->kind == TY_TEXTURE || e->type->kind == TY_SAMPLER))
            {
              next (p);
              GPtrArray *args = g_ptr_array_new ();
              if (!is (p, ")"))
                do
                  g_ptr_array_add (args, hlsl_parse_assign (p));
                while (accept (p, ","));
              expect (p, ")");
              e = make_call (p, name, e, args);
              g_ptr_array_free (args, TRUE);
              continue;
            }
          if (is (p, "("))
            {
              /* v.Sample (…) on a non-object: one message, not a
               * swizzle error and a syntax error after it. */
              hlsl_error (p, name->loc, SL_DIAG_HLSL_NO_METHOD,
                          "'%s' has no method '%s'", hlsl_type_name (p, e->type), name->text);
              hlsl_skip_rest_of_expression (p);
              e = error_node (p, name->loc);
              continue;
            }
          if (e->type->kind == TY_STRUCT)
            {
              Field *f = NULL;
              for (int i = 0; i < e->type->n_fields; i++)
                if (!strcmp (e->type->fields[i].name, name->text))
                  f = &e->type->fields[i];
              if (!f)
                {
                  hlsl_error (p, name->loc, SL_DIAG_HLSL_NO_MEMBER,
                              "'%s' has no member '%s'", hlsl_type_name (p, e->type), name->text);
                  e = error_node (p, name->loc);
                  continue;
                }
              Node *m = new_node (p, N_MEMBER, name->loc, f->type);
              m->a = e;
              m->offset = f->offset;
              m->op = (int) (f - e->type->fields);   /* lowering finds the field's objects */
              e = m;
              continue;
            }
          if (e->type->kind == TY_NUM)
            {
              e = parse_swizzle (p, e, name);
              continue;
            }
          hlsl_error (p, name->loc, SL_DIAG_HLSL_NO_MEMBERS,
                      "'%s' has no members", hlsl_type_name (p, e->type));
          e = error_node (p, name->loc);
        }
      else if (is (p, "["))
        {
          next (p);
          Node *idx = hlsl_parse_expr (p);
          expect (p, "]");
          if (is_error (e) || is_error (idx))
            {
              e = error_node (p, t->loc);
              continue;
            }
          Type *et;
          if (e->type->kind == TY_ARRAY)
            et = e->type->elem;
          else if (e->type->kind == TY_NUM && e->type->cls == NUM_MATRIX)
            et = hlsl_type_num (p->arena, e->type->base, NUM_VECTOR, 1, e->type->cols);
          else if (e->type->kind == TY_NUM && e->type->cls == NUM_VECTOR)
            et = hlsl_type_num (p->arena, e->type->base, NUM_SCALAR, 1, 1);
          else
            {
              hlsl_error (p, t->loc, SL_DIAG_HLSL_NOT_INDEXABLE,
                          "'%s' cannot be indexed", hlsl_type_name (p, e->type));
              e = error_node (p, t->loc);
              continue;
            }
          /* A vector index is truncated (hlsl_convert() warns). */
          if (idx->type->kind != TY_NUM
              || (idx->type->n_comp != 1 && idx->type->cls != NUM_VECTOR))
            {
              hlsl_error (p, idx->loc, SL_DIAG_HLSL_INDEX_NOT_SCALAR, "array index must be a scalar");
              e = error_node (p, t->loc);
              continue;
            }
          Node *n = new_node (p, N_INDEX, t->loc, et);
          n->a = e;
          n->b = hlsl_convert (p, idx, p->t_int, idx->loc, false, NULL);
          e = n;
        }
      else if (is (p, "++") || is (p, "--"))
        {
          next (p);
          if (is_error (e) || !hlsl_is_lvalue (p, e, true))
            {
              e = error_node (p, t->loc);
              continue;
            }
          Node *n = new_node (p, N_INCDEC, t->loc, e->type);
          n->a = e;
          n->op = t->text[0];
          n->postfix = true;
          e = n;
        }
      else
        return e;
    }
}

Node *
hlsl_parse_unary (P *p)
{
  Token *t = peek (p);
  if (is (p, "-") || is (p, "+") || is (p, "!") || is (p, "~"))
    {
      if (chain_too_long (p, t->loc, SL_DIAG_HLSL_PREFIX_DEPTH, "prefix operators stacked too deeply"))
        return error_node (p, t->loc);
      next (p);
      p->chain++;
      Node *a = hlsl_parse_unary (p);
      p->chain--;
      if (is_error (a))
        return a;
      if (a->type->kind != TY_NUM)
        {
          hlsl_error (p, t->loc, SL_DIAG_HLSL_UNARY_NOT_NUMERIC,
                      "operator '%s' needs a numeric operand", t->text);
          return error_node (p, t->loc);
        }
      if (t->text[0] == '+')
        return a;
      Node *n = new_node (p, N_UNARY, t->loc, a->type);
      n->op = t->text[0];
      if (n->op == '!')
        {
          n->type = hlsl_type_num (p->arena, BT_BOOL, a->type->cls, a->type->rows, a->type->cols);
          n->a = hlsl_convert (p, a, n->type, t->loc, false, NULL);
        }
      else if (n->op == '~')
        {
          if (a->type->base == BT_FLOAT)
            {
              hlsl_error (p, t->loc, SL_DIAG_HLSL_COMPLEMENT_NOT_INTEGER,
                          "operator '~' needs an integer operand");
              return error_node (p, t->loc);
            }
          if (!bitwise_available (p, t->loc))
            return error_node (p, t->loc);
          n->type = a->type->base == BT_BOOL
                      ? hlsl_type_num (p->arena, BT_INT, a->type->cls, a->type->rows, a->type->cols)
                      : a->type;
          n->a = hlsl_convert (p, a, n->type, t->loc, false, NULL);
        }
      else
        {
          if (a->type->base == BT_BOOL)
            n->type = hlsl_type_num (p->arena, BT_INT, a->type->cls, a->type->rows, a->type->cols);
          n->a = hlsl_convert (p, a, n->type, t->loc, false, NULL);
        }
      return n;
    }
  if (is (p, "++") || is (p, "--"))
    {
      if (chain_too_long (p, t->loc, SL_DIAG_HLSL_PREFIX_DEPTH, "prefix operators stacked too deeply"))
        return error_node (p, t->loc);
      next (p);
      p->chain++;
      Node *a = hlsl_parse_unary (p);
      p->chain--;
      if (is_error (a) || !hlsl_is_lvalue (p, a, true))
        return error_node (p, t->loc);
      Node *n = new_node (p, N_INCDEC, t->loc, a->type);
      n->a = a;
      n->op = t->text[0];
      return n;
    }
  /* C-style cast: '(' type ')' */
  if (is (p, "("))
    {
      int save = p->pos;
      next (p);
      if (hlsl_is_type_start (p))
        {
          hlsl_parse_modifiers (p);
          Type *ty = hlsl_parse_type (p);
          if (ty)
            {
              while (accept (p, "["))
                {
                  int n;
                  hlsl_parse_const_int_expr (p, &n);
                  expect (p, "]");
                  ty = hlsl_type_array (p, ty, MAX (n, 1));
                }
              if (accept (p, ")"))
                {
                  if (chain_too_long (p, t->loc, SL_DIAG_HLSL_CAST_DEPTH, "casts stacked too deeply"))
                    return error_node (p, t->loc);
                  p->chain++;
                  Node *a = hlsl_parse_unary (p);
                  p->chain--;
                  if (is_error (a) || ty->kind == TY_ERROR)
                    return error_node (p, t->loc);
                  return hlsl_convert (p, a, ty, t->loc, true, "cast");
                }
            }
        }
      p->pos = save;
    }
  return parse_postfix (p);
}

typedef struct
{
  const char *tok;
  int         prec;
  int         op;
} BinOp;

static const BinOp binops[] = {
  { "||", 1, '|' * 256 + '|' }, { "&&", 2, '&' * 256 + '&' },
  { "|", 3, '|' }, { "^", 4, '^' }, { "&", 5, '&' },
  { "==", 6, '=' * 256 + '=' }, { "!=", 6, '!' * 256 + '=' },
  { "<", 7, '<' }, { ">", 7, '>' }, { "<=", 7, '<' * 256 + '=' }, { ">=", 7, '>' * 256 + '=' },
  { "<<", 8, '<' * 256 + '<' }, { ">>", 8, '>' * 256 + '>' },
  { "+", 9, '+' }, { "-", 9, '-' },
  { "*", 10, '*' }, { "/", 10, '/' }, { "%", 10, '%' },
};

static const BinOp *
binop_here (P *p)
{
  Token *t = peek (p);
  if (t->kind != TK_PUNCT)
    return NULL;
  for (size_t i = 0; i < G_N_ELEMENTS (binops); i++)
    if (!strcmp (t->text, binops[i].tok))
      return &binops[i];
  return NULL;
}

static Node *
parse_binary (P *p, int min_prec)
{
  /* a+b+c… is a loop, but the tree leans left one level per operator. */
  int base = p->chain;
  Node *lhs = hlsl_parse_unary (p);
  for (;;)
    {
      const BinOp *op = binop_here (p);
      if (!op || op->prec < min_prec)
        break;
      Token *t = next (p);
      if (chain_too_long (p, t->loc, SL_DIAG_HLSL_BINARY_DEPTH, "chain of binary operators too long"))
        {
          lhs = error_node (p, t->loc);
          break;
        }
      p->chain++;
      Node *rhs = parse_binary (p, op->prec + 1);
      lhs = make_binary (p, t->loc, op->op, lhs, rhs);
    }
  p->chain = base;
  return lhs;
}

static Node *
parse_ternary (P *p)
{
  Node *c = parse_binary (p, 1);
  if (!is (p, "?"))
    return c;
  Token *q = next (p);
  if (chain_too_long (p, q->loc, SL_DIAG_HLSL_TERNARY_DEPTH, "'?:' nested too deeply"))
    return error_node (p, q->loc);
  p->chain++;
  Node *a = hlsl_parse_assign (p);
  if (is_error (a) && !is (p, ":"))
    {
      /* A level below gave up on the rest of the expression. */
      p->chain--;
      return a;
    }
  expect (p, ":");
  Node *b = hlsl_parse_assign (p);
  p->chain--;
  if (is_error (c) || is_error (a) || is_error (b))
    return error_node (p, q->loc);
  if (c->type->kind != TY_NUM)
    {
      hlsl_error (p, c->loc, SL_DIAG_HLSL_TERNARY_NOT_NUMERIC, "condition must be numeric");
      return error_node (p, q->loc);
    }
  Type *rt;
  Type *ta = a->type, *tb = b->type, *tc = c->type;
  if (ta->kind == TY_NUM && tb->kind == TY_NUM && ta->cls == tb->cls && ta->rows == tb->rows
      && ta->cols == tb->cols)
    rt = hlsl_type_num (p->arena, hlsl_common_base (ta->base, tb->base), ta->cls, ta->rows, ta->cols);
  else if (ta->kind == TY_NUM && tb->kind == TY_NUM)
    rt = hlsl_binary_type (p, q->loc, a->type, b->type, hlsl_common_base (a->type->base, b->type->base));
  else if (hlsl_type_equal (a->type, b->type))
    rt = a->type;
  else
    {
      hlsl_error (p, q->loc, SL_DIAG_HLSL_TERNARY_TYPES, "'?:' operands have different types '%s' and '%s'",
                  hlsl_type_name (p, a->type), hlsl_type_name (p, b->type));
      return error_node (p, q->loc);
    }
  if (rt->kind == TY_ERROR)
    return error_node (p, q->loc);
  if (rt->kind != TY_NUM && tc->n_comp > 1)
    {
      hlsl_error (p, c->loc, SL_DIAG_HLSL_TERNARY_CONDITION_SCALAR,
                  "condition selecting '%s' values must be scalar", hlsl_type_name (p, rt));
      return error_node (p, q->loc);
    }
  /* The condition must have the result's shape, or either is scalar, or
   * one is typeN and the other type1xN. */
  if (rt->kind == TY_NUM && tc->n_comp > 1 && rt->n_comp > 1
      && !(tc->cls == rt->cls && tc->rows == rt->rows && tc->cols == rt->cols)
      && !(tc->rows == 1 && rt->rows == 1 && tc->cols == rt->cols))
    {
      hlsl_error (p, c->loc, SL_DIAG_HLSL_TERNARY_CONDITION_TYPE,
                  "condition of type '%s' does not match the result type '%s'",
                  hlsl_type_name (p, tc), hlsl_type_name (p, rt));
      return error_node (p, q->loc);
    }
  Node *n = new_node (p, N_TERNARY, q->loc, rt);
  if (rt->kind == TY_NUM && tc->n_comp > 1 && rt->n_comp == 1)
    rt = hlsl_type_num (p->arena, rt->base, tc->cls, tc->rows, tc->cols);
  n->type = rt;
  Type *ct = rt->kind == TY_NUM && c->type->n_comp > 1
               ? hlsl_type_num (p->arena, BT_BOOL, rt->cls, rt->rows, rt->cols)
               : p->t_bool;
  n->a = hlsl_convert (p, c, ct, c->loc, false, NULL);
  n->b = hlsl_convert (p, a, rt, a->loc, false, NULL);
  n->c = hlsl_convert (p, b, rt, b->loc, false, NULL);
  return n;
}

Node *
hlsl_parse_assign (P *p)
{
  Node *lhs = parse_ternary (p);
  static const char *const ops[] = { "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=" };
  Token *t = peek (p);
  if (t->kind != TK_PUNCT)
    return lhs;
  size_t k;
  for (k = 0; k < G_N_ELEMENTS (ops); k++)
    if (!strcmp (t->text, ops[k]))
      break;
  if (k == G_N_ELEMENTS (ops))
    return lhs;
  next (p);
  /* ReShade FX takes a brace list as a value: `arr = { a, b, c };` stores
   * its components in order, as the same list would initialise. */
  if (p->u->reshade && k == 0 && is (p, "{"))
    {
      Token *b = next (p);
      Node *list = hlsl_parse_initializer_list (p, b->loc);
      if (is_error (lhs) || !hlsl_is_lvalue (p, lhs, true))
        return error_node (p, t->loc);
      if (lhs->type->n_objects || list->n_comps != lhs->type->n_comp)
        {
          hlsl_error (p, b->loc, SL_DIAG_HLSL_LIST_ASSIGNMENT,
                      "cannot convert from a list of %d components to '%s' in assignment",
                      list->n_comps, hlsl_type_name (p, lhs->type));
          return error_node (p, t->loc);
        }
      list->type = lhs->type;
      Node *n = new_node (p, N_ASSIGN, t->loc, lhs->type);
      n->a = lhs;
      n->b = list;
      return n;
    }
  if (chain_too_long (p, t->loc, SL_DIAG_HLSL_ASSIGN_DEPTH, "chain of assignments too long"))
    return error_node (p, t->loc);
  p->chain++;
  Node *rhs = hlsl_parse_assign (p);
  p->chain--;
  if (is_error (lhs) || is_error (rhs))
    return error_node (p, t->loc);
  if (!hlsl_is_lvalue (p, lhs, true))
    return error_node (p, t->loc);
  /* ReShade FX widens a shorter vector on the right of = and op= by
   * repeating its last component (v4 = v3 stores v3.xyzz; v4 /= v3 is
   * v4 / v3.xyzz), where HLSL refuses. */
  if (p->u->reshade && lhs->type->kind == TY_NUM && lhs->type->cls == NUM_VECTOR
      && rhs->type->kind == TY_NUM && rhs->type->cls == NUM_VECTOR
      && rhs->type->n_comp > 1 && rhs->type->n_comp < lhs->type->n_comp)
    {
      int n = lhs->type->n_comp, m = rhs->type->n_comp;
      Node *sw = new_node (p, N_SWIZZLE, rhs->loc, hlsl_type_num (p->arena, rhs->type->base, NUM_VECTOR, 1, n));
      sw->a = rhs;
      sw->n_comps = n;
      sw->comps = SL_NEW_N (p->arena, int, n);
      for (int i = 0; i < n; i++)
        sw->comps[i] = MIN (i, m - 1);
      rhs = sw;
    }
  Node *value = rhs;
  if (k > 0)
    {
      int op = t->text[0];
      if (!strcmp (t->text, "<<="))
        op = '<' * 256 + '<';
      else if (!strcmp (t->text, ">>="))
        op = '>' * 256 + '>';
      value = make_binary (p, t->loc, op, lhs, rhs);
      if (is_error (value))
        return value;
    }
  Node *n = new_node (p, N_ASSIGN, t->loc, lhs->type);
  n->a = lhs;
  n->b = hlsl_convert (p, value, lhs->type, t->loc, false, "assignment");
  return n;
}

Node *
hlsl_parse_expr (P *p)
{
  int base = p->chain;
  Node *e = hlsl_parse_assign (p);
  while (is (p, ","))
    {
      Token *t = next (p);
      if (chain_too_long (p, t->loc, SL_DIAG_HLSL_COMMA_DEPTH, "comma expression too long"))
        {
          while (accept (p, ","))
            hlsl_skip_rest_of_expression (p);
          e = error_node (p, t->loc);
          break;
        }
      p->chain++;
      Node *rhs = hlsl_parse_assign (p);
      Node *n = new_node (p, N_COMMA, t->loc, rhs->type);
      n->a = e;
      n->b = rhs;
      e = n;
    }
  p->chain = base;
  return e;
}
