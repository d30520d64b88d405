/* Compile-time constants of an effect: the values of texture properties,
 * pass and sampler states, annotations and `static const` scalars.
 *
 * ReShade takes a constant expression wherever a number goes — `Width =
 * BUFFER_WIDTH / 2`, `MipLevels = LOG2_SIZE + 1`, `ui_max = BUFFER_WIDTH
 * * 0.5`, a `static const int` declared earlier — and folds it with the
 * types of the language: int with int stays int (division truncates, so
 * `BUFFER_WIDTH / 64 * 64` is a multiple of 64), anything with a float is
 * a 32-bit float.  This file folds the same way over the scan's tokens
 * (macros are already expanded): C's operators with their precedence,
 * casts and scalar constructors, a few pure intrinsics, and the names of
 * `static const` scalars recorded as the scan meets them
 * (fx_record_constants).  Nothing here writes output: a caller that
 * folds a value and copies the tokens too (annotations) restores the
 * cursor itself. */
#include "base/limits.h"
#include "fx/fx_scan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  Scan *s;
  int   end;    /* exclusive token index */
  bool  ok;
  int   depth;  /* open '(', casts, signs and '?:' arms: each one recursion */
  SlLoc deep;   /* where SL_MAX_EXPR_CHAIN was crossed, if it was */
  bool  too_deep;
} Ev;

static FxNum ev_expr (Ev *e);
static FxNum ev_unary_body (Ev *e);

/* The recursive entries count their depth, so a hostile value such as
 * `Width = ((((…))))` ends in an error instead of the stack's end. */
static bool
enter (Ev *e)
{
  if (e->depth >= SL_MAX_EXPR_CHAIN)
    {
      if (!e->too_deep && e->s->pos < e->s->n)
        e->deep = e->s->t[e->s->pos].loc;
      e->too_deep = true;
      e->ok = false;
      return false;
    }
  e->depth++;
  return true;
}

static FxNum
num_int (double v)
{
  return (FxNum) { .v = trunc (v), .integer = true };
}

static FxNum
num_float (double v)
{
  return (FxNum) { .v = (double) (float) v, .integer = false };
}

static bool
at (Ev *e, const char *text)
{
  return e->ok && e->s->pos < e->end && is (e->s, text);
}

static FxNum
fail (Ev *e)
{
  e->ok = false;
  return num_int (0);
}

/* A scalar type name: its kind (int-like or float) in *integer. */
static bool
scalar_type (const char *name, bool *integer)
{
  static const char *const ints[] = { "int", "uint", "dword", "bool", "int1", "uint1", "bool1",
                                      "min16int", "min16uint" };
  static const char *const floats[] = { "float", "half", "double", "float1", "half1", "min16float" };
  for (size_t i = 0; i < G_N_ELEMENTS (ints); i++)
    if (!strcmp (name, ints[i]))
      return *integer = true;
  for (size_t i = 0; i < G_N_ELEMENTS (floats); i++)
    if (!strcmp (name, floats[i]))
      {
        *integer = false;
        return true;
      }
  return false;
}

static FxNum
convert (FxNum v, bool integer, const char *type)
{
  if (type && !strcmp (type, "bool"))
    return num_int (v.v != 0);
  return integer ? num_int (v.v) : num_float (v.v);
}

/* min, max, abs, … on constants: the pure intrinsics effects put into
 * sizes and annotations. */
static FxNum
call (Ev *e, const char *name)
{
  FxNum a[3];
  int n = 0;
  if (!at (e, ")"))
    for (;;)
      {
        if (n == 3)
          return fail (e);
        a[n++] = ev_expr (e);
        if (!at (e, ","))
          break;
        next (e->s);
      }
  if (!at (e, ")"))
    return fail (e);
  next (e->s);
  bool all_int = true;
  for (int i = 0; i < n; i++)
    all_int &= a[i].integer;
  static const struct { const char *name; int n; double (*f) (double); } one[] = {
    { "floor", 1, floor }, { "ceil", 1, ceil }, { "trunc", 1, trunc }, { "round", 1, nearbyint },
    { "sqrt", 1, sqrt }, { "exp", 1, exp }, { "exp2", 1, exp2 }, { "log", 1, log }, { "log2", 1, log2 },
    { "log10", 1, log10 }, { "sin", 1, sin }, { "cos", 1, cos }, { "rcp", 1, NULL },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (one); i++)
    if (!strcmp (name, one[i].name))
      {
        if (n != 1)
          return fail (e);
        return num_float (one[i].f ? one[i].f (a[0].v) : 1.0 / a[0].v);
      }
  if (!strcmp (name, "abs") && n == 1)
    return all_int ? num_int (fabs (a[0].v)) : num_float (fabs (a[0].v));
  if (!strcmp (name, "sign") && n == 1)
    return num_int (a[0].v > 0 ? 1 : a[0].v < 0 ? -1 : 0);
  if (!strcmp (name, "saturate") && n == 1)
    return num_float (CLAMP (a[0].v, 0.0, 1.0));
  if ((!strcmp (name, "min") || !strcmp (name, "max")) && n == 2)
    {
      double v = !strcmp (name, "min") ? MIN (a[0].v, a[1].v) : MAX (a[0].v, a[1].v);
      return all_int ? num_int (v) : num_float (v);
    }
  if (!strcmp (name, "pow") && n == 2)
    return num_float (pow (a[0].v, a[1].v));
  if (!strcmp (name, "clamp") && n == 3)
    {
      double v = MIN (MAX (a[0].v, a[1].v), a[2].v);
      return all_int ? num_int (v) : num_float (v);
    }
  return fail (e);
}

static FxNum
ev_unary (Ev *e)
{
  if (!enter (e))
    return (FxNum) { 0 };
  FxNum v = ev_unary_body (e);
  e->depth--;
  return v;
}

static FxNum
ev_unary_body (Ev *e)
{
  Scan *s = e->s;
  if (!e->ok || s->pos >= e->end)
    return fail (e);
  Token *t = peek (s);
  if (t->kind == TK_INT)
    {
      next (s);
      return num_int ((double) (t->suffix == 'u' ? (uint32_t) t->ival : (int64_t) (uint32_t) t->ival));
    }
  if (t->kind == TK_FLOAT)
    {
      next (s);
      return num_float (t->fval);
    }
  if (tok_is (t, "true") || tok_is (t, "false"))
    {
      next (s);
      return num_int (tok_is (t, "true"));
    }
  if (tok_is (t, "-") || tok_is (t, "+") || tok_is (t, "!") || tok_is (t, "~"))
    {
      next (s);
      FxNum v = ev_unary (e);
      if (tok_is (t, "-"))
        v.v = v.integer ? -v.v : (double) -(float) v.v;
      else if (tok_is (t, "!"))
        v = num_int (v.v == 0);
      else if (tok_is (t, "~"))
        {
          if (!v.integer)
            return fail (e);
          v = num_int ((double) ~(int32_t) v.v);
        }
      return v;
    }
  if (tok_is (t, "("))
    {
      next (s);
      bool integer;
      /* a cast: (int) x */
      if (peek (s)->kind == TK_IDENT && tok_is (peek_at (s, 1), ")") && scalar_type (peek (s)->text, &integer))
        {
          const char *ty = next (s)->text;
          next (s);
          return convert (ev_unary (e), integer, ty);
        }
      FxNum v = ev_expr (e);
      if (!at (e, ")"))
        return fail (e);
      next (s);
      return v;
    }
  if (t->kind == TK_IDENT || tok_is (t, "::"))
    {
      bool integer;
      if (t->kind == TK_IDENT && tok_is (peek_at (s, 1), "("))
        {
          next (s);
          next (s);
          if (scalar_type (t->text, &integer))
            {
              FxNum v = ev_expr (e);
              if (!at (e, ")"))
                return fail (e);
              next (s);
              return convert (v, integer, t->text);
            }
          return call (e, t->text);
        }
      SlLoc loc;
      const char *name = fx_read_name (s, &loc);
      const FxNum *c = name && s->consts ? g_hash_table_lookup (s->consts, name) : NULL;
      if (!c)
        return fail (e);
      return *c;
    }
  return fail (e);
}

/* Binary operators by precedence, tightest last. */
static const struct
{
  const char *op;
  int         prec;
} binary_ops[] = {
  { "||", 1 }, { "&&", 2 }, { "|", 3 }, { "^", 4 }, { "&", 5 }, { "==", 6 }, { "!=", 6 },
  { "<", 7 }, { ">", 7 }, { "<=", 7 }, { ">=", 7 }, { "<<", 8 }, { ">>", 8 },
  { "+", 9 }, { "-", 9 }, { "*", 10 }, { "/", 10 }, { "%", 10 },
};

static int
binary_prec (Ev *e, const char **op)
{
  if (!e->ok || e->s->pos >= e->end)
    return 0;
  Token *t = peek (e->s);
  if (t->kind != TK_PUNCT)
    return 0;
  for (size_t i = 0; i < G_N_ELEMENTS (binary_ops); i++)
    if (!strcmp (t->text, binary_ops[i].op))
      {
        *op = binary_ops[i].op;
        return binary_ops[i].prec;
      }
  return 0;
}

static FxNum
apply (Ev *e, const char *op, FxNum a, FxNum b)
{
  bool integer = a.integer && b.integer;
  if (!strcmp (op, "||"))
    return num_int (a.v != 0 || b.v != 0);
  if (!strcmp (op, "&&"))
    return num_int (a.v != 0 && b.v != 0);
  if (!strcmp (op, "==") || !strcmp (op, "!=") || !strcmp (op, "<") || !strcmp (op, ">")
      || !strcmp (op, "<=") || !strcmp (op, ">="))
    {
      double x = a.v, y = b.v;
      if (!integer)
        x = (float) x, y = (float) y;
      bool r = !strcmp (op, "==") ? x == y : !strcmp (op, "!=") ? x != y : !strcmp (op, "<") ? x < y
               : !strcmp (op, ">") ? x > y : !strcmp (op, "<=") ? x <= y : x >= y;
      return num_int (r);
    }
  if (strchr ("|^&", op[0]) || !strcmp (op, "<<") || !strcmp (op, ">>"))
    {
      if (!integer)
        return fail (e);
      int32_t x = (int32_t) a.v, y = (int32_t) b.v;
      int32_t r = op[0] == '|' ? x | y : op[0] == '^' ? x ^ y : op[0] == '&' ? x & y
                  : op[0] == '<' ? (int32_t) ((uint32_t) x << (y & 31)) : x >> (y & 31);
      return num_int (r);
    }
  if (integer)
    {
      int64_t x = (int64_t) a.v, y = (int64_t) b.v;
      switch (op[0])
        {
        case '+': return num_int ((double) (int32_t) (x + y));
        case '-': return num_int ((double) (int32_t) (x - y));
        case '*': return num_int ((double) (int32_t) (x * y));
        default:
          if (y == 0)
            return fail (e);
          return num_int ((double) (op[0] == '/' ? x / y : x % y));
        }
    }
  float x = (float) a.v, y = (float) b.v;
  switch (op[0])
    {
    case '+': return num_float (x + y);
    case '-': return num_float (x - y);
    case '*': return num_float (x * y);
    case '/': return num_float (x / y);
    default: return num_float (fmodf (x, y));
    }
}

static FxNum
ev_binary (Ev *e, int min_prec)
{
  FxNum a = ev_unary (e);
  const char *op;
  int p;
  while ((p = binary_prec (e, &op)) >= min_prec && p > 0)
    {
      next (e->s);
      FxNum b = ev_binary (e, p + 1);
      if (!e->ok)
        break;
      a = apply (e, op, a, b);
    }
  return a;
}

/* A '?:' arm is one more level; a parenthesis counts in ev_unary. */
static FxNum
ev_arm (Ev *e)
{
  if (!enter (e))
    return (FxNum) { 0 };
  FxNum v = ev_expr (e);
  e->depth--;
  return v;
}

static FxNum
ev_expr (Ev *e)
{
  FxNum c = ev_binary (e, 1);
  if (!at (e, "?"))
    return c;
  next (e->s);
  FxNum a = ev_arm (e);
  if (!at (e, ":"))
    return fail (e);
  next (e->s);
  FxNum b = ev_arm (e);
  if (a.integer != b.integer)
    a = num_float (a.v), b = num_float (b.v);
  return c.v != 0 ? a : b;
}

/* Index of the ';' ending the value at the current position (nesting
 * aware); the value is [pos, end). */
int
fx_value_end (Scan *s)
{
  int depth = 0;
  for (int i = s->pos; i < s->n; i++)
    {
      Token *t = &s->t[i];
      if (t->kind == TK_EOF)
        return i;
      if (tok_is (t, "(") || tok_is (t, "{") || tok_is (t, "["))
        depth++;
      else if (tok_is (t, ")") || tok_is (t, "}") || tok_is (t, "]"))
        {
          if (depth == 0)
            return i;
          depth--;
        }
      else if (depth == 0 && tok_is (t, ";"))
        return i;
    }
  return s->n - 1;
}

/* *@deep (when given) is set to where the value first nested past
 * SL_MAX_EXPR_CHAIN, with true returned in *@too_deep. */
static bool
fold (Scan *s, int end, FxNum *value, bool *too_deep, SlLoc *deep)
{
  Ev e = { .s = s, .end = end, .ok = true };
  *value = ev_expr (&e);
  if (too_deep)
    {
      *too_deep = e.too_deep;
      *deep = e.deep;
    }
  return e.ok && s->pos == end;
}

bool
fx_fold (Scan *s, int end, FxNum *value)
{
  return fold (s, end, value, NULL, NULL);
}

bool
fx_eval_value (Scan *s, double *value)
{
  int end = fx_value_end (s);
  SlLoc loc = peek (s)->loc;
  FxNum v;
  bool too_deep;
  SlLoc deep;
  bool folded = fold (s, end, &v, &too_deep, &deep);
  if (too_deep)
    {
      fx_error (s, deep, SL_DIAG_FX_EXPRESSION_DEPTH,
                "value nested too deeply (more than %d parentheses, casts and signs)", SL_MAX_EXPR_CHAIN);
      s->pos = end;
      return false;
    }
  if (!folded)
    {
      fx_error (s, loc, SL_DIAG_FX_EXPECTED_CONSTANT, "expected a constant number");
      s->pos = end;
      return false;
    }
  *value = v.v;
  return true;
}

/* `static const T NAME = value [, NAME = value …];` at the current
 * position: records each scalar NAME whose value folds.  The cursor is
 * left where it was. */
void
fx_record_constants (Scan *s, const char *prefix)
{
  int start = s->pos;
  bool is_static = false, is_const = false;
  while (is (s, "static") || is (s, "const"))
    {
      is_static |= is (s, "static");
      is_const |= is (s, "const");
      next (s);
    }
  bool integer;
  if (!is_static || !is_const || peek (s)->kind != TK_IDENT || !scalar_type (peek (s)->text, &integer))
    {
      s->pos = start;
      return;
    }
  const char *type = next (s)->text;
  while (peek (s)->kind == TK_IDENT && tok_is (peek_at (s, 1), "="))
    {
      const char *name = next (s)->text;
      next (s);
      int end = s->pos;
      for (int depth = 0; end < s->n && s->t[end].kind != TK_EOF; end++)
        {
          Token *t = &s->t[end];
          if (tok_is (t, "(") || tok_is (t, "["))
            depth++;
          else if (tok_is (t, ")") || tok_is (t, "]"))
            depth--;
          else if (depth == 0 && (tok_is (t, ";") || tok_is (t, ",")))
            break;
        }
      FxNum v;
      if (fx_fold (s, end, &v))
        {
          if (!s->consts)
            s->consts = g_hash_table_new (g_str_hash, g_str_equal);
          FxNum *c = SL_NEW (s->arena, FxNum);
          *c = convert (v, integer, type);
          char *m = g_strconcat (prefix, name, NULL);
          g_hash_table_insert (s->consts, (gpointer) sl_arena_strdup (s->arena, m), c);
          g_free (m);
        }
      s->pos = end;
      if (!is (s, ","))
        break;
      next (s);
    }
  s->pos = start;
}
