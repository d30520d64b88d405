/* #if and #elif expressions: C's integer arithmetic in 64 bits.
 *
 * The line is macro-expanded first (with `defined` evaluated during the
 * expansion, as C requires), then parsed by precedence climbing over the
 * expanded tokens.  Values carry signedness, so unsigned operands and
 * comparisons follow the usual arithmetic conversions; wrap-around is
 * computed in unsigned arithmetic so no input is undefined behaviour.
 * Operands on a branch that is not taken (the right of a decided && or
 * ||, the other arm of ?:) are parsed but raise no division by zero.
 * The first error ends the evaluation and the condition counts as false,
 * so one bad line gives one message. */
#include "preprocess/pp_internal.h"
#include "base/limits.h"

#include <stdarg.h>

/* A value and whether it is unsigned. */
typedef struct
{
  gint64   v;
  gboolean u;
} Val;

typedef struct
{
  Pp        *pp;
  GPtrArray *t;
  guint      i;
  gboolean   failed;
  const Tok *dir;
  int        depth;   /* open '(', prefix operators and '?' (recursion) */
} Ev;

static const Tok *
ev_peek (Ev *e)
{
  return e->i < e->t->len ? e->t->pdata[e->i] : NULL;
}

static void G_GNUC_PRINTF (4, 5)
ev_error (Ev *e, const Tok *at, SlDiagKind kind, const char *format, ...)
{
  if (e->failed)
    return;
  e->failed = TRUE;
  if (at && (at->flags & TF_BAD))
    return;
  if (!at)
    at = e->dir;
  va_list args;
  va_start (args, format);
  char *msg = g_strdup_vprintf (format, args);
  va_end (args);
  error_at (e->pp, at, kind, "%s", msg);
  g_free (msg);
}

static gboolean
parse_char (const char *s, Val *out)
{
  /* s is 'x' with simple escapes; multi-character constants are refused */
  const char *p = s + 1;
  guint64 v;
  if (*p == '\\')
    {
      p++;
      switch (*p)
        {
        case 'n': v = '\n'; p++; break;
        case 't': v = '\t'; p++; break;
        case 'r': v = '\r'; p++; break;
        case 'a': v = 7; p++; break;
        case 'b': v = 8; p++; break;
        case 'f': v = 12; p++; break;
        case 'v': v = 11; p++; break;
        case 'x':
          p++;
          v = 0;
          if (!g_ascii_isxdigit (*p))
            return FALSE;
          while (g_ascii_isxdigit (*p))
            v = (v * 16 + g_ascii_xdigit_value (*p++)) & 0xFF;
          break;
        default:
          if (*p >= '0' && *p <= '7')
            {
              v = 0;
              for (int k = 0; k < 3 && *p >= '0' && *p <= '7'; k++)
                v = v * 8 + (guint64) (*p++ - '0');
              v &= 0xFF;
            }
          else if (*p)
            v = (unsigned char) *p++;
          else
            return FALSE;
        }
    }
  else if (*p && *p != '\'')
    {
      gunichar c = g_utf8_get_char (p);
      v = c;
      p = g_utf8_next_char (p);
    }
  else
    return FALSE;
  if (*p != '\'' || p[1])
    return FALSE;
  out->v = (gint64) v;
  out->u = FALSE;
  return TRUE;
}

static gboolean
parse_int (Ev *e, const Tok *t, Val *out)
{
  const char *s = t->text;
  size_t len = strlen (s);
  gboolean u = FALSE;
  while (len > 0 && strchr ("uUlL", s[len - 1]))
    {
      if (s[len - 1] == 'u' || s[len - 1] == 'U')
        u = TRUE;
      len--;
    }
  size_t i = 0;
  unsigned base = 10;
  if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    base = 16, i = 2;
  else if (s[0] == '0')
    base = 8;
  if (i >= len)
    {
      ev_error (e, t, SL_DIAG_PP_IF_INTEGER,
                "invalid integer constant '%s' in #if", s);
      return FALSE;
    }
  guint64 v = 0;
  for (; i < len; i++)
    {
      int d = g_ascii_xdigit_value (s[i]);
      if (d < 0 || (unsigned) d >= base)
        {
          ev_error (e, t, SL_DIAG_PP_IF_INTEGER,
                    "invalid integer constant '%s' in #if", s);
          return FALSE;
        }
      if (v > (G_MAXUINT64 - (guint64) d) / base)
        {
          ev_error (e, t, SL_DIAG_PP_IF_INTEGER_RANGE,
                    "integer constant '%s' is too large", s);
          return FALSE;
        }
      v = v * base + (guint64) d;
    }
  out->v = (gint64) v;
  out->u = u || v > (guint64) G_MAXINT64;
  return TRUE;
}

static Val ev_cond (Ev *e, gboolean live);

/* Parentheses, prefix operators and '?:' recurse once per level: past
 * SL_MAX_EXPR_CHAIN levels the expression is an error, not a stack
 * overflow. */
static gboolean
ev_too_deep (Ev *e)
{
  if (e->depth < SL_MAX_EXPR_CHAIN)
    return FALSE;
  const Tok *at = ev_peek (e) ? ev_peek (e) : e->dir;
  ev_error (e, at, SL_DIAG_PP_IF_DEPTH, "#%s expression nested too deeply (more than %d levels)",
            e->dir->text, SL_MAX_EXPR_CHAIN);
  e->i = e->t->len;
  return TRUE;
}

static Val ev_unary_body (Ev *e, gboolean live);

static Val
ev_unary (Ev *e, gboolean live)
{
  Val zero = { 0, FALSE };
  if (ev_too_deep (e))
    return zero;
  e->depth++;
  Val v = ev_unary_body (e, live);
  e->depth--;
  return v;
}

static Val
ev_unary_body (Ev *e, gboolean live)
{
  Val zero = { 0, FALSE };
  const Tok *t = ev_peek (e);
  if (!t)
    {
      ev_error (e, e->t->len ? e->t->pdata[e->t->len - 1] : NULL,
                SL_DIAG_PP_IF_TRUNCATED,
                "#%s expression ends too early", e->dir->text);
      return zero;
    }
  e->i++;
  if (t->kind == TK_PUNCT)
    {
      if (strcmp (t->text, "(") == 0)
        {
          Val v = ev_cond (e, live);
          if (!is_punct (ev_peek (e), ")"))
            ev_error (e, ev_peek (e) ? ev_peek (e) : t,
                      SL_DIAG_PP_IF_MISSING_PAREN,
                      "missing ')' in #if expression");
          else
            e->i++;
          return v;
        }
      if (strcmp (t->text, "+") == 0)
        return ev_unary (e, live);
      if (strcmp (t->text, "-") == 0)
        {
          Val v = ev_unary (e, live);
          v.v = (gint64) (0 - (guint64) v.v);
          return v;
        }
      if (strcmp (t->text, "~") == 0)
        {
          Val v = ev_unary (e, live);
          v.v = (gint64) ~(guint64) v.v;
          return v;
        }
      if (strcmp (t->text, "!") == 0)
        {
          Val v = ev_unary (e, live);
          Val r = { v.v == 0, FALSE };
          return r;
        }
    }
  Val v = zero;
  if (t->kind == TK_NUMBER)
    {
      parse_int (e, t, &v);
      return v;
    }
  if (t->kind == TK_CHAR)
    {
      if (!parse_char (t->text, &v))
        ev_error (e, t, SL_DIAG_PP_IF_CHARACTER,
                  "invalid character constant %s in #if", t->text);
      return v;
    }
  if (t->kind == TK_IDENT)
    return zero;   /* identifiers left after expansion count as 0 */
  ev_error (e, t, SL_DIAG_PP_IF_TOKEN,
            "token '%s' is not valid in #if expressions", t->text);
  return zero;
}

static int
binary_prec (const Tok *t)
{
  static const struct { const char *op; int prec; } ops[] = {
    { "||", 1 }, { "&&", 2 }, { "|", 3 }, { "^", 4 }, { "&", 5 },
    { "==", 6 }, { "!=", 6 }, { "<", 7 }, { ">", 7 }, { "<=", 7 }, { ">=", 7 },
    { "<<", 8 }, { ">>", 8 }, { "+", 9 }, { "-", 9 }, { "*", 10 }, { "/", 10 },
    { "%", 10 },
  };
  if (!t || t->kind != TK_PUNCT)
    return 0;
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (strcmp (t->text, ops[i].op) == 0)
      return ops[i].prec;
  return 0;
}

static Val
apply (Ev *e, const Tok *op, Val l, Val r, gboolean live)
{
  const char *o = op->text;
  gboolean u = l.u || r.u;
  guint64 ul = (guint64) l.v, ur = (guint64) r.v;
  Val res = { 0, u };
  if (strcmp (o, "*") == 0)
    res.v = (gint64) (ul * ur);
  else if (strcmp (o, "/") == 0 || strcmp (o, "%") == 0)
    {
      gboolean div = o[0] == '/';
      if (r.v == 0)
        {
          if (live)
            ev_error (e, op, SL_DIAG_PP_IF_DIVISION_BY_ZERO,
                      "division by zero in #if");
          res.v = 0;
        }
      else if (u)
        res.v = (gint64) (div ? ul / ur : ul % ur);
      else if (l.v == G_MININT64 && r.v == -1)
        res.v = div ? G_MININT64 : 0;
      else
        res.v = div ? l.v / r.v : l.v % r.v;
    }
  else if (strcmp (o, "+") == 0)
    res.v = (gint64) (ul + ur);
  else if (strcmp (o, "-") == 0)
    res.v = (gint64) (ul - ur);
  else if (strcmp (o, "<<") == 0 || strcmp (o, ">>") == 0)
    {
      res.u = l.u;
      gboolean out_of_range = r.u ? ur >= 64 : (r.v < 0 || r.v >= 64);
      if (o[0] == '<')
        res.v = out_of_range ? 0 : (gint64) (ul << ur);
      else if (out_of_range)
        res.v = (!l.u && l.v < 0) ? -1 : 0;
      else
        res.v = l.u ? (gint64) (ul >> ur)
                    : (l.v < 0 ? (gint64) ~(~ul >> ur) : (gint64) (ul >> ur));
    }
  else if (strcmp (o, "&") == 0)
    res.v = (gint64) (ul & ur);
  else if (strcmp (o, "|") == 0)
    res.v = (gint64) (ul | ur);
  else if (strcmp (o, "^") == 0)
    res.v = (gint64) (ul ^ ur);
  else
    {
      res.u = FALSE;
      int cmp = u ? (ul < ur ? -1 : ul > ur) : (l.v < r.v ? -1 : l.v > r.v);
      if (strcmp (o, "==") == 0) res.v = cmp == 0;
      else if (strcmp (o, "!=") == 0) res.v = cmp != 0;
      else if (strcmp (o, "<") == 0) res.v = cmp < 0;
      else if (strcmp (o, ">") == 0) res.v = cmp > 0;
      else if (strcmp (o, "<=") == 0) res.v = cmp <= 0;
      else res.v = cmp >= 0;
    }
  return res;
}

static Val
ev_binary (Ev *e, int min_prec, gboolean live)
{
  Val l = ev_unary (e, live);
  for (;;)
    {
      const Tok *op = ev_peek (e);
      int p = binary_prec (op);
      if (p == 0 || p < min_prec || e->failed)
        return l;
      e->i++;
      if (strcmp (op->text, "&&") == 0)
        {
          Val r = ev_binary (e, p + 1, live && l.v != 0);
          l.v = l.v != 0 && r.v != 0;
          l.u = FALSE;
        }
      else if (strcmp (op->text, "||") == 0)
        {
          Val r = ev_binary (e, p + 1, live && l.v == 0);
          l.v = l.v != 0 || r.v != 0;
          l.u = FALSE;
        }
      else
        {
          Val r = ev_binary (e, p + 1, live);
          l = apply (e, op, l, r, live);
        }
    }
}

static Val
ev_cond (Ev *e, gboolean live)
{
  Val c = ev_binary (e, 1, live);
  if (!is_punct (ev_peek (e), "?") || e->failed)
    return c;
  const Tok *question = ev_peek (e);
  e->i++;
  if (ev_too_deep (e))
    return c;
  e->depth++;
  Val a = ev_cond (e, live && c.v != 0);
  e->depth--;
  if (!is_punct (ev_peek (e), ":"))
    {
      ev_error (e, ev_peek (e) ? ev_peek (e) : question,
                SL_DIAG_PP_IF_MISSING_COLON, "expected ':' in #if expression");
      return c;
    }
  e->i++;
  e->depth++;
  Val b = ev_cond (e, live && c.v == 0);
  e->depth--;
  Val r = c.v ? a : b;
  r.u = a.u || b.u;
  return r;
}

/* Evaluates the tokens after the directive name; errors count as false. */
gboolean
sl_pp_eval_if (Pp *pp, GPtrArray *toks, guint start)
{
  const Tok *dir = toks->pdata[1];
  if (start >= toks->len)
    {
      error_at (pp, dir, SL_DIAG_PP_IF_EMPTY,
                "#%s with no expression", dir->text);
      return FALSE;
    }
  GPtrArray *rest = g_ptr_array_new ();
  for (guint i = start; i < toks->len; i++)
    g_ptr_array_add (rest, toks->pdata[i]);
  int errors_before = pp->n_errors;
  GPtrArray *x = sl_pp_expand_list (pp, rest, TRUE);
  g_ptr_array_free (rest, TRUE);
  /* An error while expanding (a bad 'defined', a macro's arguments)
   * already explains the line; evaluating the rest would only add a
   * confusing second message about the tokens left behind. */
  Ev e = { pp, x, 0, pp->n_errors != errors_before, dir, 0 };
  Val v = { 0, FALSE };
  if (e.failed)
    ;
  else if (x->len == 0)
    ev_error (&e, dir, SL_DIAG_PP_IF_EMPTY,
              "#%s with no expression", dir->text);
  else
    {
      v = ev_cond (&e, TRUE);
      if (!e.failed && e.i < x->len)
        {
          const Tok *t = x->pdata[e.i];
          ev_error (&e, t, SL_DIAG_PP_IF_MISSING_OPERATOR,
                    "missing binary operator before token '%s'",
                    t->text);
        }
    }
  g_ptr_array_free (x, TRUE);
  return !e.failed && v.v != 0;
}
