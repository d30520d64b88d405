/* HLSL statements and the checks on control flow the D3D compiler makes:
 * [attributes] before loops and branches, conditions, loops, switch bodies
 * (case values, fall-through, SM 3 limits), break/continue placement, and
 * the "not all control paths return a value" analysis. */
#include "hlsl/hlsl_parse.h"

#include <string.h>

static Node *parse_statement (P *p);

static SlLoc
loc_later (SlLoc a, SlLoc b)
{
  return a.line > b.line || (a.line == b.line && a.column > b.column) ? a : b;
}

/* ---- attributes and blocks --------------------------------------------- */

void
hlsl_parse_attributes (P *p, Attrs *at)
{
  GPtrArray *seen = g_ptr_array_new ();
  memset (at, 0, sizeof *at);
  while (is (p, "[") && peek_at (p, 1)->kind == TK_IDENT)
    {
      Token *open = next (p);
      if (!at->n)
        at->loc = open->loc;
      at->n++;
      Token *name = next (p);
      for (guint i = 0; i < seen->len; i++)
        if (!strcmp (g_ptr_array_index (seen, i), name->text))
          hlsl_error (p, name->loc, SL_DIAG_HLSL_ATTRIBUTE_TWICE,
                      "attribute '%s' is given twice", name->text);
      g_ptr_array_add (seen, (gpointer) name->text);
      int n_args = 0;
      Node *first = NULL;
      if (accept (p, "("))
        {
          /* Each argument is an expression or a string; an empty list or
           * an empty argument is a syntax error. */
          do
            {
              if (is (p, ")") || is (p, ","))
                {
                  hlsl_error (p, peek (p)->loc, SL_DIAG_HLSL_EXPECTED_ATTRIBUTE_ARGUMENT,
                              "expected an attribute argument before '%s'",
                              tok_desc (peek (p)));
                  break;
                }
              if (peek (p)->kind == TK_STRING)
                next (p);
              else
                {
                  Node *e = hlsl_parse_assign (p);
                  if (!n_args)
                    first = e;
                }
              n_args++;
            }
          while (accept (p, ","));
          expect (p, ")");
        }
      expect (p, "]");
      /* A lone non-constant argument cannot be evaluated as the
       * attribute's value. */
      if (n_args == 1 && first && first->kind == N_VAR && !first->var->is_const)
        hlsl_error (p, first->loc, SL_DIAG_HLSL_ATTRIBUTE_ARGUMENT,
                    "attribute argument must be a literal expression");
      if (!strcmp (name->text, "unroll"))
        {
          at->unroll = true;
          at->unroll_loc = name->loc;
          at->unroll_cap = -1;
          if (first)
            {
              bool ok = true;
              int v = hlsl_const_eval_int (p, first, &ok);
              if (ok)
                at->unroll_cap = v;
            }
        }
      else if (!strcmp (name->text, "loop"))
        at->loop = true, at->loop_loc = name->loc;
      else if (!strcmp (name->text, "fastopt"))
        at->fastopt = true, at->loop_loc = name->loc;
      else if (!strcmp (name->text, "branch"))
        at->branch = true, at->branch_loc = name->loc;
      else if (!strcmp (name->text, "flatten"))
        at->flatten = true, at->flatten_loc = name->loc;
    }
  g_ptr_array_free (seen, TRUE);
  /* A conflict is reported at the second of the two attributes. */
  if (at->unroll && (at->loop || at->fastopt))
    hlsl_error (p, loc_later (at->unroll_loc, at->loop_loc), SL_DIAG_HLSL_ATTRIBUTE_CONFLICT,
                "[unroll] conflicts with [%s]",
                at->loop ? "loop" : "fastopt");
  if (at->branch && at->flatten)
    hlsl_error (p, loc_later (at->branch_loc, at->flatten_loc), SL_DIAG_HLSL_ATTRIBUTE_CONFLICT,
                "[branch] conflicts with [flatten]");
}

Node *
hlsl_parse_block (P *p)
{
  Token *open = peek (p);
  expect (p, "{");
  hlsl_push_scope (p);
  Node *b = new_node (p, S_BLOCK, open->loc, p->t_void);
  GPtrArray *stmts = g_ptr_array_new ();
  while (!is (p, "}") && peek (p)->kind != TK_EOF)
    {
      int before = p->pos;
      g_ptr_array_add (stmts, parse_statement (p));
      if (p->pos == before)
        next (p);   /* never loop on the same token */
    }
  expect (p, "}");
  hlsl_pop_scope (p);
  b->n_args = stmts->len;
  b->args = SL_NEW_N (p->arena, Node *, stmts->len + 1);
  if (stmts->len > 0)   /* pdata is NULL while empty */
    memcpy (b->args, stmts->pdata, stmts->len * sizeof (Node *));
  g_ptr_array_free (stmts, TRUE);
  return b;
}

/* ---- statements -------------------------------------------------------- */

static Node *
condition (P *p, Node *c)
{
  if (is_error (c))
    return c;
  if (c->type->kind != TY_NUM)
    {
      hlsl_error (p, c->loc, SL_DIAG_HLSL_CONDITION_NOT_NUMERIC,
                  "condition must be numeric, not '%s'", hlsl_type_name (p, c->type));
      return error_node (p, c->loc);
    }
  if (c->type->n_comp > 1)
    {
      hlsl_error (p, c->loc, SL_DIAG_HLSL_CONDITION_NOT_SCALAR,
                  "condition must have one component, not '%s'", hlsl_type_name (p, c->type));
      return error_node (p, c->loc);
    }
  return hlsl_convert (p, c, p->t_bool, c->loc, true, NULL);
}

static Node *
strip_casts (Node *e)
{
  while (e && e->kind == N_CAST)
    e = e->a;
  return e;
}

/* The iteration count of for (i = A; i < B; ++i) with constant A and B,
 * or -1 for any other loop shape. */
static int
for_trip_count (P *p, Node *s)
{
  Node *cond = strip_casts (s->b);
  if (!cond || cond->kind != N_BINARY || cond->op != '<')
    return -1;
  Node *iv = strip_casts (cond->a);
  if (!iv || iv->kind != N_VAR)
    return -1;
  bool ok = true;
  int hi = hlsl_const_eval_int (p, cond->b, &ok);
  Node *init = s->a;
  Node *start = NULL;
  if (init && init->kind == S_EXPR && init->a && init->a->kind == N_ASSIGN
      && init->a->a->kind == N_VAR && init->a->a->var == iv->var)
    start = init->a->b;
  else if (init && init->kind == S_BLOCK && init->n_args == 1 && init->args[0]->var == iv->var)
    start = iv->var->init;
  if (!start)
    return -1;
  int lo = hlsl_const_eval_int (p, start, &ok);
  return ok ? hi - lo : -1;
}

/* Whether a statement contains a 'break' of the enclosing switch (not
 * one of a nested loop) or a 'return'. */
static bool
leaves_switch (Node *s, Node **has_loop, Node **has_return)
{
  if (!s)
    return false;
  switch (s->kind)
    {
    case S_BREAK:
      return true;
    case S_CONTINUE:   /* an error of its own in a switch: no fall-through error too */
      return true;
    case S_RETURN:
      if (!*has_return)
        *has_return = s;
      return true;
    case S_BLOCK:
      {
        bool r = false;
        for (int i = 0; i < s->n_args; i++)
          r |= leaves_switch (s->args[i], has_loop, has_return);
        return r;
      }
    case S_IF:
      {
        bool a = leaves_switch (s->b, has_loop, has_return);
        bool b = leaves_switch (s->c, has_loop, has_return);
        return a || b;
      }
    case S_FOR: case S_WHILE: case S_DO:
      {
        if (!*has_loop)
          *has_loop = s;
        Node *dummy = NULL;
        leaves_switch (s->d, &dummy, has_return);
        return false;
      }
    default:
      return false;
    }
}

/* The D3D compiler's rules for switch bodies: distinct case values, one
 * default, no case group that falls through into the next (or is left
 * empty at the end); before SM4 no loops inside and no return from a
 * switch inside a loop. */
static void
check_switch (P *p, GPtrArray *items, bool in_loop)
{
  int n_default = 0;
  Node *has_loop = NULL, *has_return = NULL;
  for (guint i = 0; i < items->len; i++)
    {
      Node *it = g_ptr_array_index (items, i);
      if (it->kind == S_EXPR && it->op == 2 && ++n_default == 2)
        hlsl_error (p, it->loc, SL_DIAG_HLSL_SWITCH_DEFAULTS, "switch has more than one default label");
      if (it->kind == S_EXPR && it->op == 1)
        for (guint j = 0; j < i; j++)
          {
            Node *o = g_ptr_array_index (items, j);
            if (o->kind == S_EXPR && o->op == 1 && o->offset == it->offset)
              {
                hlsl_error (p, it->loc, SL_DIAG_HLSL_SWITCH_DUPLICATE_CASE,
                            "duplicate case value %d", it->offset);
                break;
              }
          }
    }
  guint i = 0;
  while (i < items->len)
    {
      Node *label = g_ptr_array_index (items, i);
      while (i < items->len && ((Node *) g_ptr_array_index (items, i))->kind == S_EXPR
             && ((Node *) g_ptr_array_index (items, i))->op)
        i++;
      bool any = false, leaves = false;
      for (; i < items->len; i++)
        {
          Node *st = g_ptr_array_index (items, i);
          if (st->kind == S_EXPR && st->op)
            break;
          any = true;
          leaves |= leaves_switch (st, &has_loop, &has_return);
        }
      if (!any && i >= items->len)
        hlsl_error (p, label->loc, SL_DIAG_HLSL_SWITCH_EMPTY_LAST_CASE, "the last case of a switch is empty");
      else if (any && !leaves)
        hlsl_error (p, label->loc, SL_DIAG_HLSL_SWITCH_FALLTHROUGH, "case falls through to the next one");
    }
  if (p->u->shader_model < 40 && has_loop)
    hlsl_error (p, has_loop->loc, SL_DIAG_HLSL_SWITCH_LOOP, "loops inside a switch need shader model 4.0");
  else if (p->u->shader_model < 40 && in_loop && has_return)
    hlsl_error (p, has_return->loc, SL_DIAG_HLSL_SWITCH_RETURN,
                "returning from a switch inside a loop needs shader model 4.0");
}

static Node *
parse_statement (P *p)
{
  Token *t = peek (p);
  SlLoc loc = t->loc;
  if (++p->depth > SL_MAX_NESTING)
    {
      hlsl_error (p, loc, SL_DIAG_HLSL_STATEMENT_DEPTH, "statements nested too deeply");
      p->depth--;
      hlsl_recover (p);
      return new_node (p, S_EMPTY, loc, p->t_void);
    }
  Node *result;
  Attrs attrs;
  hlsl_parse_attributes (p, &attrs);
  int cap = attrs.unroll_cap > 0 ? attrs.unroll_cap : 0;
  t = peek (p);
  loc = t->loc;
  if (is (p, "{"))
    result = hlsl_parse_block (p);
  else if (accept (p, ";"))
    result = new_node (p, S_EMPTY, loc, p->t_void);
  else if (accept (p, "if"))
    {
      result = new_node (p, S_IF, loc, p->t_void);
      expect (p, "(");
      result->a = condition (p, hlsl_parse_expr (p));
      expect (p, ")");
      result->b = parse_statement (p);
      if (accept (p, "else"))
        result->c = parse_statement (p);
    }
  else if (accept (p, "for"))
    {
      result = new_node (p, S_FOR, loc, p->t_void);
      result->loop_cap = cap;
      hlsl_push_scope (p);
      expect (p, "(");
      if (!accept (p, ";"))
        {
          if (hlsl_is_type_start (p))
            {
              unsigned mods = hlsl_parse_modifiers (p);
              Type *ty = hlsl_parse_type (p);
              result->a = hlsl_parse_declarators (p, ty ? ty : p->t_error, mods, false);
            }
          else
            {
              Node *s = new_node (p, S_EXPR, peek (p)->loc, p->t_void);
              s->a = hlsl_parse_expr (p);
              result->a = s;
              expect (p, ";");
            }
        }
      if (!is (p, ";"))
        result->b = condition (p, hlsl_parse_expr (p));
      expect (p, ";");
      if (!is (p, ")"))
        result->c = hlsl_parse_expr (p);
      expect (p, ")");
      p->loop_depth++;
      bool sw = p->in_switch;
      p->in_switch = false;
      result->d = parse_statement (p);
      p->in_switch = sw;
      p->loop_depth--;
      hlsl_pop_scope (p);
      if (attrs.unroll && attrs.unroll_cap < 0 && for_trip_count (p, result) >= 1024)
        hlsl_error (p, loc, SL_DIAG_HLSL_UNROLL_LIMIT, "cannot unroll a loop of more than 1024 iterations");
    }
  else if (accept (p, "while"))
    {
      result = new_node (p, S_WHILE, loc, p->t_void);
      result->loop_cap = cap;
      expect (p, "(");
      result->b = condition (p, hlsl_parse_expr (p));
      expect (p, ")");
      p->loop_depth++;
      bool sw = p->in_switch;
      p->in_switch = false;
      result->d = parse_statement (p);
      p->in_switch = sw;
      p->loop_depth--;
    }
  else if (accept (p, "do"))
    {
      result = new_node (p, S_DO, loc, p->t_void);
      result->loop_cap = cap;
      p->loop_depth++;
      bool sw = p->in_switch;
      p->in_switch = false;
      result->d = parse_statement (p);
      p->in_switch = sw;
      p->loop_depth--;
      expect (p, "while");
      expect (p, "(");
      result->b = condition (p, hlsl_parse_expr (p));
      expect (p, ")");
      expect (p, ";");
    }
  else if (accept (p, "return"))
    {
      result = new_node (p, S_RETURN, loc, p->t_void);
      Type *rt = p->cur_func ? p->cur_func->ret : p->t_void;
      if (!is (p, ";"))
        {
          Node *e = hlsl_parse_expr (p);
          if (rt->kind == TY_VOID && !is_error (e))
            hlsl_error (p, loc, SL_DIAG_HLSL_RETURN_VALUE_IN_VOID, "void function cannot return a value");
          else
            result->a = hlsl_convert (p, e, rt, e->loc, false, "return");
        }
      else if (rt->kind != TY_VOID && rt->kind != TY_ERROR)
        hlsl_error (p, loc, SL_DIAG_HLSL_RETURN_NO_VALUE, "non-void function must return a value");
      expect (p, ";");
    }
  else if (is (p, "break") || is (p, "continue"))
    {
      next (p);
      result = new_node (p, t->text[0] == 'b' ? S_BREAK : S_CONTINUE, loc, p->t_void);
      if (p->loop_depth == 0)
        hlsl_error (p, loc, SL_DIAG_HLSL_JUMP_OUTSIDE_LOOP, "'%s' outside a loop", t->text);
      else if (t->text[0] == 'c' && p->in_switch)
        hlsl_error (p, loc, SL_DIAG_HLSL_CONTINUE_IN_SWITCH, "'continue' is not allowed inside a switch");
      expect (p, ";");
    }
  else if (accept (p, "discard"))
    {
      result = new_node (p, S_DISCARD, loc, p->t_void);
      expect (p, ";");
    }
  else if (accept (p, "typedef"))
    {
      hlsl_parse_typedef (p, false);
      result = new_node (p, S_EMPTY, loc, p->t_void);
    }
  else if (hlsl_is_shader_object_type (t))
    {
      hlsl_error (p, loc, SL_DIAG_HLSL_LOCAL_SHADER_OBJECT,
                  "shader objects cannot be declared inside functions");
      hlsl_recover (p);
      result = new_node (p, S_EMPTY, loc, p->t_void);
    }
  else if (accept (p, "switch"))
    {
      result = new_node (p, S_SWITCH, loc, p->t_void);
      expect (p, "(");
      Node *sel = hlsl_parse_expr (p);
      expect (p, ")");
      if (!is_error (sel) && (sel->type->kind != TY_NUM || sel->type->n_comp != 1
                              || sel->type->base == BT_FLOAT))
        {
          hlsl_error (p, sel->loc, SL_DIAG_HLSL_SWITCH_SELECTOR, "switch selector must be an integer scalar");
          sel = error_node (p, sel->loc);
        }
      else if (!is_error (sel))
        sel = hlsl_convert (p, sel, p->t_int, sel->loc, false, NULL);
      result->a = sel;
      /* Cases are kept as a flat list: S_EXPR nodes with op = 1 (case
       * value in a) or 2 (default) mark the labels. */
      expect (p, "{");
      hlsl_push_scope (p);
      GPtrArray *items = g_ptr_array_new ();
      int outer_loops = p->loop_depth;
      bool sw = p->in_switch;
      p->in_switch = true;
      p->loop_depth++;
      while (!is (p, "}") && peek (p)->kind != TK_EOF)
        {
          Token *ct = peek (p);
          if (accept (p, "case"))
            {
              Node *lab = new_node (p, S_EXPR, ct->loc, p->t_void);
              lab->op = 1;
              int v = 0;
              hlsl_parse_const_int_expr (p, &v);
              lab->offset = v;
              expect (p, ":");
              g_ptr_array_add (items, lab);
            }
          else if (accept (p, "default"))
            {
              Node *lab = new_node (p, S_EXPR, ct->loc, p->t_void);
              lab->op = 2;
              expect (p, ":");
              g_ptr_array_add (items, lab);
            }
          else
            {
              int before = p->pos;
              g_ptr_array_add (items, parse_statement (p));
              if (p->pos == before)
                next (p);
            }
        }
      p->loop_depth--;
      p->in_switch = sw;
      hlsl_pop_scope (p);
      expect (p, "}");
      check_switch (p, items, outer_loops > 0);
      result->n_args = items->len;
      result->args = SL_NEW_N (p->arena, Node *, items->len + 1);
      if (items->len > 0)   /* pdata is NULL while empty */
        memcpy (result->args, items->pdata, items->len * sizeof (Node *));
      g_ptr_array_free (items, TRUE);
    }
  else if (hlsl_is_type_start (p) && !(peek_at (p, 1)->kind == TK_PUNCT && !strcmp (peek_at (p, 1)->text, "(")
                                        && hlsl_builtin_numeric (p, t->text)))
    {
      unsigned mods = hlsl_parse_modifiers (p);
      Type *ty = hlsl_parse_type (p);
      if (!ty)
        {
          hlsl_error (p, peek (p)->loc, SL_DIAG_HLSL_EXPECTED_TYPE,
                      "expected a type before '%s'", tok_desc (peek (p)));
          hlsl_recover (p);
          result = new_node (p, S_EMPTY, loc, p->t_void);
        }
      else if (is (p, ";") && ty->kind == TY_STRUCT)
        {
          next (p);
          result = new_node (p, S_EMPTY, loc, p->t_void);
        }
      else
        {
          ty = hlsl_apply_majority (p, ty, mods);
          result = hlsl_parse_declarators (p, ty, mods, false);
        }
    }
  else
    {
      result = new_node (p, S_EXPR, loc, p->t_void);
      int errors_before = p->u->n_errors;
      result->a = hlsl_parse_expr (p);
      if (p->u->n_errors > errors_before && !is (p, ";"))
        hlsl_recover (p);
      else
        expect (p, ";");
    }
  p->depth--;
  return result;
}

typedef struct
{
  bool brk;    /* a reachable 'break' leaves the innermost loop/switch */
  bool cont;   /* a reachable 'continue' goes to the innermost loop's test */
} Exits;

/* ---- return paths ------------------------------------------------------ */

/* A condition's value when the parser can tell: 1, 0, or -1 (unknown).
 * hlsl_const_eval_int truncates floats, which would make 0.5 false. */
static int
literal_truth (P *p, Node *cond)
{
  Node *e = cond;
  while (e->kind == N_CAST)
    e = e->a;
  if (e->type->kind == TY_NUM && e->type->base == BT_FLOAT)
    {
      if (e->kind != N_LIT || !e->lit || e->type->n_comp != 1)
        return -1;
      return (e->lit[0] & 0x7fffffffu) != 0;
    }
  bool ok = true;
  int v = hlsl_const_eval_int (p, cond, &ok);
  return ok ? v != 0 : -1;
}

static bool
always_true (P *p, Node *cond)
{
  return !cond || literal_truth (p, cond) == 1;   /* !cond: for (;;) */
}

/* Whether control can run past the end of statement s. */
static bool
can_fall_through (P *p, Node *s, Exits *ex)
{
  if (!s)
    return true;
  switch (s->kind)
    {
    case S_RETURN:
      return false;
    case S_BREAK:
      ex->brk = true;
      return false;
    case S_CONTINUE:
      ex->cont = true;
      return false;
    case S_BLOCK:
      for (int i = 0; i < s->n_args; i++)
        if (!can_fall_through (p, s->args[i], ex))
          return false;   /* the rest is unreachable */
      return true;
    case S_IF:
      {
        int v = literal_truth (p, s->a);
        if (v >= 0)
          return can_fall_through (p, v ? s->b : s->c, ex);
        bool a = can_fall_through (p, s->b, ex);
        bool b = can_fall_through (p, s->c, ex);
        return a || b;
      }
    case S_FOR: case S_WHILE: case S_DO:
      {
        Exits in = { false, false };
        bool body = can_fall_through (p, s->d, &in);
        if (always_true (p, s->b))
          return in.brk;
        /* A do-while whose every pass returns never tests its condition. */
        if (s->kind == S_DO)
          return body || in.brk || in.cont;
        return true;
      }
    case S_SWITCH:
      {
        /* Labels are S_EXPR items with op 1 (case) or 2 (default); each
         * makes the code after it reachable again. */
        Exits in = { false, false };
        bool has_default = false, reach = true;
        for (int i = 0; i < s->n_args; i++)
          {
            Node *it = s->args[i];
            if (it->kind == S_EXPR && it->op)
              {
                has_default |= it->op == 2;
                reach = true;
              }
            else if (reach)
              reach = can_fall_through (p, it, &in);
          }
        ex->cont |= in.cont;   /* a continue in a switch is the loop's */
        return !has_default || in.brk || reach;
      }
    default:
      return true;
    }
}

/* Whether control can run past the end of a function body. */
bool
hlsl_end_reachable (P *p, Node *body)
{
  Exits ex = { false, false };
  return can_fall_through (p, body, &ex);
}
