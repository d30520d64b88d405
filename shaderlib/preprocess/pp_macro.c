/* Macros: the table, #define, and expansion with hide sets.
 *
 * #define checks a definition completely when it is made (parameter
 * list, the places of # and ##, compatibility with an earlier definition)
 * and stores its body with each parameter already resolved to its index,
 * so expansion never looks names up again.  Expansion follows Prosser's
 * algorithm: every token carries the set of macros it came out of, a
 * macro is not expanded again inside its own set, and the result of an
 * expansion is pushed back onto the input to be rescanned.  That gives
 * C's rescanning rules, including the ones about nested and recursive
 * macros, without special cases.  Arguments are expanded on their own
 * before substitution unless they meet # or ##; an empty argument next to
 * ## becomes a placemarker so pasting with nothing works.  A function-like
 * invocation may span source lines, so the input can read further lines
 * of the current file, stopping at a directive.  Nesting depth and the
 * argument count are bounded, each with its own diagnostic.  ReShade mode
 * adds its operator `exists` beside `defined`, the builtins
 * __FILE_NAME__ and __FILE_STEM__, and its reading of `##`: the pasted
 * text is lexed again, so a result of several tokens is no error. */
#include "preprocess/pp_internal.h"

static gboolean
hs_has (const HideSet *h, const Macro *m)
{
  for (; h; h = h->next)
    if (h->macro == m)
      return TRUE;
  return FALSE;
}

static const HideSet *
hs_add (Pp *pp, const HideSet *h, const Macro *m)
{
  if (hs_has (h, m))
    return h;
  HideSet *n = SL_NEW (pp->line, HideSet);
  n->macro = m;
  n->next = h;
  return n;
}

static const HideSet *
hs_union (Pp *pp, const HideSet *a, const HideSet *b)
{
  for (; a; a = a->next)
    b = hs_add (pp, b, a->macro);
  return b;
}

static const HideSet *
hs_intersect (Pp *pp, const HideSet *a, const HideSet *b)
{
  const HideSet *r = NULL;
  for (; a; a = a->next)
    if (hs_has (b, a->macro))
      r = hs_add (pp, r, a->macro);
  return r;
}

static int
hs_len (const HideSet *h)
{
  int n = 0;
  for (; h; h = h->next)
    n++;
  return n;
}

/* Pushes the next text line of the current file onto @in; a directive
 * line ends the fetching and is left for the driver (pp->pushback). */
static gboolean
fetch_line (Pp *pp, Input *in)
{
  File *f = top_file (pp);
  if (pp->pushback || pp->fatal || !f)
    return FALSE;
  for (;;)
    {
      if (!sl_pp_lex_line (pp, f, pp->line_b))
        return FALSE;
      if (pp->line_b->len == 0)
        continue;
      if (is_punct (pp->line_b->pdata[0], "#"))
        {
          pp->pushback = TRUE;
          return FALSE;
        }
      for (guint i = pp->line_b->len; i-- > 0;)
        g_ptr_array_add (in->stack, pp->line_b->pdata[i]);
      return TRUE;
    }
}

static Tok *
in_next (Input *in)
{
  if (!in->stack->len)
    return NULL;
  return g_ptr_array_steal_index (in->stack, in->stack->len - 1);
}

/* The next token, reading further source lines when allowed: a macro
 * invocation may span lines. */
static Tok *
in_peek (Pp *pp, Input *in)
{
  while (in->stack->len == 0)
    if (!in->can_fetch || !fetch_line (pp, in))
      return NULL;
  return in->stack->pdata[in->stack->len - 1];
}

static void
put (Pp *pp, GPtrArray *collect, const Tok *t)
{
  if (collect)
    g_ptr_array_add (collect, (gpointer) t);
  else
    sl_pp_emit_tok (pp, t);
}

GPtrArray *
sl_pp_expand_list (Pp *pp, GPtrArray *toks, gboolean if_mode)
{
  GPtrArray *result = g_ptr_array_new ();
  Input sub = { g_ptr_array_sized_new (toks->len), FALSE, if_mode };
  for (guint i = toks->len; i-- > 0;)
    g_ptr_array_add (sub.stack, toks->pdata[i]);
  sl_pp_expand_stream (pp, &sub, result);
  g_ptr_array_free (sub.stack, TRUE);
  return result;
}

static Tok *
stringize (Pp *pp, GPtrArray *arg, const Tok *at)
{
  GString *s = g_string_new ("\"");
  for (guint i = 0; i < arg->len; i++)
    {
      const Tok *t = arg->pdata[i];
      if (i > 0 && (t->flags & TF_WS))
        g_string_append_c (s, ' ');
      if (t->kind == TK_STRING || t->kind == TK_CHAR)
        sl_pp_append_escaped (s, t->text);
      else
        g_string_append (s, t->text);
    }
  g_string_append_c (s, '"');
  Tok *r = sl_pp_tok_copy (pp, at);
  r->kind = TK_STRING;
  r->text = sl_arena_strndup (pp->line, s->str, s->len);
  r->param = -1;
  g_string_free (s, TRUE);
  return r;
}

static Tok *
placemarker (Pp *pp)
{
  Tok *t = sl_pp_tok_new (pp);
  t->kind = TK_PLACEMARKER;
  t->text = "";
  return t;
}

/* Pastes two tokens; NULL (after an error) when the result is not one
 * valid token.  ReShade's preprocessor re-reads the pasted text instead:
 * in ReShade mode a result of several tokens is the first, returned, and
 * the others, appended to @more. */
static Tok *
paste (Pp *pp, const Tok *a, const Tok *b, const Tok *where, GPtrArray *more)
{
  if (a->kind == TK_PLACEMARKER)
    return (Tok *) b;
  if (b->kind == TK_PLACEMARKER)
    return (Tok *) a;
  char *text = g_strconcat (a->text, b->text, NULL);
  size_t n = strlen (text);
  TokKind kind;
  gboolean unterminated;
  size_t used = sl_pp_scan_token (text, n, &kind, &unterminated);
  if ((used != n || unterminated) && !pp->opt->reshade)
    {
      error_at (pp, where, SL_DIAG_PP_PASTE,
                "pasting \"%s\" and \"%s\" does not give a valid preprocessing token",
                a->text, b->text);
      g_free (text);
      return NULL;
    }
  Tok *first = NULL;
  for (size_t at = 0; at < n;)
    {
      size_t k = at;
      while (k < n && g_ascii_isspace (text[k]))
        k++;
      if (k >= n)
        break;
      used = sl_pp_scan_token (text + k, n - k, &kind, &unterminated);
      if (used == 0)
        used = 1;
      Tok *r = sl_pp_tok_copy (pp, a);
      r->kind = kind;
      r->text = sl_arena_strndup (pp->line, text + k, used);
      r->hs = hs_union (pp, a->hs, b->hs);
      if (first)
        {
          r->flags &= ~TF_WS;
          g_ptr_array_add (more, r);
        }
      else
        first = r;
      at = k + used;
    }
  g_free (text);
  return first ? first : placemarker (pp);
}

static void
add_arg (Pp *pp, GPtrArray *r, GPtrArray *arg, const Tok *param)
{
  for (guint i = 0; i < arg->len; i++)
    {
      Tok *t = arg->pdata[i];
      if (i == 0)
        {
          t = sl_pp_tok_copy (pp, t);
          t->flags = (t->flags & ~TF_WS) | (param->flags & TF_WS);
        }
      g_ptr_array_add (r, t);
    }
}

/* Substitutes arguments into @m's body and pushes the result in front of
 * the input for rescanning. */
static void
subst (Pp *pp, Input *in, const Macro *m, const Tok *name, GPtrArray **args,
       const HideSet *hs)
{
  GPtrArray *r = g_ptr_array_new ();
  GPtrArray **expanded = args ? g_new0 (GPtrArray *, m->n_params) : NULL;

  for (int i = 0; i < m->n_body && !pp->fatal; i++)
    {
      const Tok *b = &m->body[i];
      gboolean before_paste = i + 1 < m->n_body
                              && is_punct (&m->body[i + 1], "##");
      if (m->function_like && is_punct (b, "#") && i + 1 < m->n_body
          && m->body[i + 1].param >= 0)
        {
          Tok *s = stringize (pp, args[m->body[i + 1].param], b);
          g_ptr_array_add (r, s);
          i++;
          continue;
        }
      if (is_punct (b, "##") && i + 1 < m->n_body)
        {
          const Tok *rhs = &m->body[++i];
          GPtrArray *rtoks = g_ptr_array_new ();
          if (rhs->param >= 0)
            add_arg (pp, rtoks, args[rhs->param], rhs);
          else if (m->function_like && is_punct (rhs, "#") && i + 1 < m->n_body
                   && m->body[i + 1].param >= 0)
            {
              g_ptr_array_add (rtoks, stringize (pp, args[m->body[i + 1].param],
                                                 rhs));
              i++;
            }
          else
            g_ptr_array_add (rtoks, (gpointer) rhs);
          const Tok *lhs = r->len ? r->pdata[r->len - 1] : placemarker (pp);
          const Tok *first = rtoks->len ? rtoks->pdata[0] : placemarker (pp);
          GPtrArray *more = g_ptr_array_new ();
          Tok *p = paste (pp, lhs, first, name, more);
          if (r->len)
            g_ptr_array_set_size (r, r->len - 1);
          if (p)
            {
              g_ptr_array_add (r, p);
              for (guint k = 0; k < more->len; k++)
                g_ptr_array_add (r, more->pdata[k]);
            }
          else
            {
              g_ptr_array_add (r, (gpointer) lhs);
              g_ptr_array_add (r, (gpointer) first);
            }
          for (guint k = 1; k < rtoks->len; k++)
            g_ptr_array_add (r, rtoks->pdata[k]);
          g_ptr_array_free (more, TRUE);
          g_ptr_array_free (rtoks, TRUE);
          continue;
        }
      if (b->param >= 0)
        {
          GPtrArray *a = args[b->param];
          if (before_paste)
            {
              if (a->len)
                add_arg (pp, r, a, b);
              else
                g_ptr_array_add (r, placemarker (pp));
            }
          else
            {
              if (!expanded[b->param])
                expanded[b->param] = sl_pp_expand_list (pp, a, in->if_mode);
              add_arg (pp, r, expanded[b->param], b);
            }
          continue;
        }
      g_ptr_array_add (r, (gpointer) b);
    }

  /* Position the result where the invocation was; only the first token
   * inherits the invocation's exact column. */
  GPtrArray *final = g_ptr_array_sized_new (r->len);
  for (guint i = 0; i < r->len; i++)
    {
      const Tok *src = r->pdata[i];
      if (src->kind == TK_PLACEMARKER)
        continue;
      Tok *t = sl_pp_tok_copy (pp, src);
      t->hs = src->hs ? hs_union (pp, src->hs, hs) : hs;
      t->file = name->file;
      t->line = name->line;
      t->col = name->col;
      t->param = -1;
      if (final->len == 0)
        {
          t->flags = (t->flags & ~(TF_WS | TF_MACRO))
                     | (name->flags & (TF_WS | TF_MACRO));
          t->pre = name->pre;
          t->seq = 0;   /* never the neighbour of the text around it */
        }
      else
        {
          t->flags |= TF_MACRO;
          t->pre = "";
          t->seq = 0;
        }
      g_ptr_array_add (final, t);
    }
  for (guint i = final->len; i-- > 0;)
    g_ptr_array_add (in->stack, final->pdata[i]);

  g_ptr_array_free (final, TRUE);
  g_ptr_array_free (r, TRUE);
  if (expanded)
    {
      for (int i = 0; i < m->n_params; i++)
        if (expanded[i])
          g_ptr_array_free (expanded[i], TRUE);
      g_free (expanded);
    }
}

static const HideSet *
expansion_hs (Pp *pp, const HideSet *base, const Macro *m, const Tok *name)
{
  const HideSet *hs = hs_add (pp, base, m);
  if (hs_len (hs) > SL_PP_MAX_EXPANSION && !pp->fatal)
    fatal_at (pp, name->file, name->line, name->col, SL_DIAG_PP_EXPANSION_DEPTH,
              "macro expansion nested too deeply (more than %d levels) "
              "while expanding '%s'", SL_PP_MAX_EXPANSION, m->name);
  return hs;
}

static void
free_args (GPtrArray **args, guint n)
{
  for (guint i = 0; i < n; i++)
    g_ptr_array_free (args[i], TRUE);
  g_free (args);
}

/* Collects the arguments of a function-like macro whose '(' was just
 * read, then expands it. */
static void
invoke (Pp *pp, Input *in, const Macro *m, const Tok *name)
{
  GPtrArray *list = g_ptr_array_new ();
  GPtrArray *cur = g_ptr_array_new ();
  const Tok *rparen = NULL;
  int depth = 0;
  gboolean too_many = FALSE;

  while (!pp->fatal)
    {
      if (!in_peek (pp, in))
        break;
      Tok *t = in_next (in);
      if (is_punct (t, "("))
        depth++;
      else if (is_punct (t, ")"))
        {
          if (depth == 0)
            {
              rparen = t;
              break;
            }
          depth--;
        }
      else if (is_punct (t, ",") && depth == 0
               && !(m->variadic && (int) list->len == m->n_params - 1))
        {
          if (list->len >= MAX_MACRO_ARGS)
            too_many = TRUE;
          else
            g_ptr_array_add (list, cur);
          if (!too_many)
            cur = g_ptr_array_new ();
          else
            g_ptr_array_set_size (cur, 0);
          continue;
        }
      g_ptr_array_add (cur, t);
    }
  g_ptr_array_add (list, cur);
  guint n_list = list->len;
  GPtrArray **args = (GPtrArray **) g_ptr_array_free (list, FALSE);

  if (!rparen)
    {
      if (!pp->fatal)
        error_at (pp, name, SL_DIAG_PP_UNTERMINATED_ARGUMENTS,
                  "unterminated argument list invoking macro '%s'",
                  m->name);
      free_args (args, n_list);
      return;
    }
  if (too_many)
    {
      error_at (pp, name, SL_DIAG_PP_ARGUMENT_LIMIT,
                "too many arguments for macro '%s' (limit %d)",
                m->name, MAX_MACRO_ARGS);
      free_args (args, n_list);
      return;
    }
  int n = (int) n_list;
  if (m->n_params == 0 && n == 1 && args[0]->len == 0)
    n = 0;
  if (m->variadic ? n < m->n_params - 1 : n != m->n_params)
    {
      int want = m->variadic ? m->n_params - 1 : m->n_params;
      error_at (pp, name, SL_DIAG_PP_ARGUMENT_COUNT,
                "macro '%s' expects %s%d argument%s, got %d",
                m->name, m->variadic ? "at least " : "", want,
                want == 1 ? "" : "s", n);
      free_args (args, n_list);
      return;
    }
  if (m->variadic && n == m->n_params - 1)
    {
      args = g_renew (GPtrArray *, args, n_list + 1);
      args[n_list++] = g_ptr_array_new ();
    }
  const HideSet *hs = expansion_hs (pp, hs_intersect (pp, name->hs, rparen->hs),
                                    m, name);
  if (!pp->fatal)
    subst (pp, in, m, name, args, hs);
  free_args (args, n_list);
}

static Tok *
number_tok (Pp *pp, const Tok *at, const char *text, TokKind kind)
{
  Tok *r = sl_pp_tok_copy (pp, at);
  r->kind = kind;
  r->text = sl_arena_strdup (pp->line, text);
  return r;
}

/* `defined X` / `defined(X)` inside #if / #elif. */
static Tok *
eval_defined (Pp *pp, Input *in, const Tok *op)
{
  Tok *n = in_next (in);
  gboolean paren = is_punct (n, "(");
  if (paren)
    n = in_next (in);
  gboolean value = FALSE;
  if (!n || n->kind != TK_IDENT)
    {
      error_at (pp, op, SL_DIAG_PP_DEFINED_SYNTAX,
                "operator 'defined' requires an identifier");
      if (n)
        g_ptr_array_add (in->stack, n);
    }
  else
    {
      value = g_hash_table_contains (pp->macros, n->text);
      if (paren)
        {
          Tok *c = in_next (in);
          if (!is_punct (c, ")"))
            {
              error_at (pp, op, SL_DIAG_PP_DEFINED_PAREN,
                        "missing ')' after 'defined'");
              if (c)
                g_ptr_array_add (in->stack, c);
            }
        }
    }
  return number_tok (pp, op, value ? "1" : "0", TK_NUMBER);
}

/* ReShade's `exists "file"`, `exists("file")` and `exists(NAME)` with
 * NAME a macro that gives the string, inside #if / #elif: 1 when #include
 * would find the file. */
static Tok *
eval_exists (Pp *pp, Input *in, const Tok *op)
{
  Tok *n = in_next (in);
  gboolean paren = is_punct (n, "(");
  if (paren)
    n = in_next (in);
  const Tok *str = n;
  if (n && n->kind == TK_IDENT)
    {
      GPtrArray *one = g_ptr_array_new ();
      g_ptr_array_add (one, n);
      GPtrArray *x = sl_pp_expand_list (pp, one, FALSE);
      str = x->len == 1 ? x->pdata[0] : NULL;
      g_ptr_array_free (x, TRUE);
      g_ptr_array_free (one, TRUE);
    }
  size_t len = str && str->kind == TK_STRING ? strlen (str->text) : 0;
  if (len < 2 || str->text[0] != '"' || str->text[len - 1] != '"')
    {
      error_at (pp, op, SL_DIAG_PP_EXISTS_SYNTAX,
                "operator 'exists' requires a file name in quotes");
      if (n && n->kind != TK_IDENT && !is_punct (n, ")"))
        g_ptr_array_add (in->stack, n);
      return number_tok (pp, op, "0", TK_NUMBER);
    }
  char *name = g_strndup (str->text + 1, len - 2);
  gboolean value = sl_pp_file_exists (pp, name);
  g_free (name);
  if (paren)
    {
      Tok *c = in_next (in);
      if (!is_punct (c, ")"))
        {
          error_at (pp, op, SL_DIAG_PP_EXISTS_SYNTAX,
                    "operator 'exists' requires a file name in quotes");
          if (c)
            g_ptr_array_add (in->stack, c);
        }
    }
  return number_tok (pp, op, value ? "1" : "0", TK_NUMBER);
}

/* The name of a file without its folders (and, for the stem, without its
 * extension), as a string literal. */
static Tok *
file_name_tok (Pp *pp, const Tok *t, gboolean stem)
{
  const char *base = t->file;
  for (const char *c = t->file; *c; c++)
    if (*c == '/' || *c == '\\')
      base = c + 1;
  char *name = g_strdup (base);
  char *dot = stem ? strrchr (name, '.') : NULL;
  if (dot && dot != name)
    *dot = 0;
  GString *s = g_string_new ("\"");
  sl_pp_append_escaped (s, name);
  g_string_append_c (s, '"');
  Tok *r = number_tok (pp, t, s->str, TK_STRING);
  g_string_free (s, TRUE);
  g_free (name);
  return r;
}

void
sl_pp_expand_stream (Pp *pp, Input *in, GPtrArray *collect)
{
  if (++pp->depth > SL_PP_MAX_EXPANSION)
    {
      const Tok *t = in->stack->len ? in->stack->pdata[in->stack->len - 1]
                                    : NULL;
      if (!pp->fatal)
        fatal_at (pp, t ? t->file : pp->main_name, t ? t->line : 0,
                  t ? t->col : 0, SL_DIAG_PP_ARGUMENT_DEPTH,
                  "macro arguments nested too deeply (more than %d levels)",
                  SL_PP_MAX_EXPANSION);
      pp->depth--;
      return;
    }
  Tok *t;
  while (!pp->fatal && (t = in_next (in)))
    {
      if (t->kind == TK_IDENT)
        {
          if (in->if_mode && strcmp (t->text, "defined") == 0)
            {
              put (pp, collect, eval_defined (pp, in, t));
              continue;
            }
          if (in->if_mode && pp->opt->reshade && strcmp (t->text, "exists") == 0
              && !g_hash_table_contains (pp->macros, "exists"))
            {
              put (pp, collect, eval_exists (pp, in, t));
              continue;
            }
          const Macro *m = g_hash_table_lookup (pp->macros, t->text);
          if (m && !hs_has (t->hs, m))
            {
              if (m->builtin == BUILTIN_LINE)
                {
                  char buf[32];
                  g_snprintf (buf, sizeof buf, "%d", t->line);
                  put (pp, collect, number_tok (pp, t, buf, TK_NUMBER));
                  continue;
                }
              if (m->builtin == BUILTIN_FILE_NAME || m->builtin == BUILTIN_FILE_STEM)
                {
                  put (pp, collect, file_name_tok (pp, t, m->builtin == BUILTIN_FILE_STEM));
                  continue;
                }
              if (m->builtin == BUILTIN_FILE)
                {
                  GString *s = g_string_new ("\"");
                  sl_pp_append_escaped (s, t->file);
                  g_string_append_c (s, '"');
                  put (pp, collect, number_tok (pp, t, s->str, TK_STRING));
                  g_string_free (s, TRUE);
                  continue;
                }
              if (!m->function_like)
                {
                  const HideSet *hs = expansion_hs (pp, t->hs, m, t);
                  if (!pp->fatal)
                    subst (pp, in, m, t, NULL, hs);
                  continue;
                }
              if (is_punct (in_peek (pp, in), "("))
                {
                  in_next (in);
                  invoke (pp, in, m, t);
                  continue;
                }
            }
        }
      put (pp, collect, t);
    }
  pp->depth--;
}

void
sl_pp_macro_free (gpointer data)
{
  Macro *m = data;
  g_free (m->name);
  g_strfreev (m->params);
  g_free (m);
}

static gboolean
macro_same (const Macro *a, const Macro *b)
{
  if (a->function_like != b->function_like || a->variadic != b->variadic
      || a->n_params != b->n_params || a->n_body != b->n_body
      || a->builtin || b->builtin)
    return FALSE;
  for (int i = 0; i < a->n_params; i++)
    if (strcmp (a->params[i], b->params[i]) != 0)
      return FALSE;
  for (int i = 0; i < a->n_body; i++)
    if (strcmp (a->body[i].text, b->body[i].text) != 0
        || (i > 0 && (a->body[i].flags & TF_WS) != (b->body[i].flags & TF_WS)))
      return FALSE;
  return TRUE;
}

/* #define: toks[start] is the macro name. */
void
sl_pp_define (Pp *pp, GPtrArray *toks, guint start)
{
  const Tok *at = toks->pdata[start - 1];
  if (start >= toks->len)
    {
      error_at (pp, at, SL_DIAG_PP_DEFINE_NO_NAME,
                "no macro name given in #define directive");
      return;
    }
  const Tok *n = toks->pdata[start];
  if (n->kind != TK_IDENT)
    {
      error_at (pp, n, SL_DIAG_PP_MACRO_NAME,
                "macro names must be identifiers, not '%s'", n->text);
      return;
    }
  if (strcmp (n->text, "defined") == 0)
    {
      error_at (pp, n, SL_DIAG_PP_DEFINE_DEFINED,
                "'defined' cannot be used as a macro name");
      return;
    }

  Macro *m = g_new0 (Macro, 1);
  m->name = g_strdup (n->text);
  m->file = n->file;
  m->line = n->line;
  m->col = n->col;
  guint i = start + 1;
  if (i < toks->len && is_punct (toks->pdata[i], "(")
      && !(((const Tok *) toks->pdata[i])->flags & TF_WS))
    {
      m->function_like = TRUE;
      GPtrArray *params = g_ptr_array_new_with_free_func (g_free);
      i++;
      gboolean ok = FALSE;
      for (;;)
        {
          if (i >= toks->len)
            {
              error_at (pp, n, SL_DIAG_PP_PARAMETER_PAREN,
                        "missing ')' in parameter list of macro '%s'",
                        n->text);
              break;
            }
          const Tok *t = toks->pdata[i++];
          if (params->len == 0 && is_punct (t, ")"))
            {
              ok = TRUE;
              break;
            }
          if (is_punct (t, "..."))
            {
              m->variadic = TRUE;
              g_ptr_array_add (params, g_strdup ("__VA_ARGS__"));
            }
          else if (t->kind == TK_IDENT && strcmp (t->text, "__VA_ARGS__") != 0)
            {
              for (guint k = 0; k < params->len; k++)
                if (strcmp (params->pdata[k], t->text) == 0)
                  {
                    error_at (pp, t, SL_DIAG_PP_PARAMETER_DUPLICATE,
                              "duplicate macro parameter '%s'", t->text);
                    goto bad;
                  }
              if (params->len >= MAX_MACRO_ARGS)
                {
                  error_at (pp, t, SL_DIAG_PP_PARAMETER_LIMIT,
                            "macro '%s' has too many parameters (limit %d)",
                            n->text, MAX_MACRO_ARGS);
                  goto bad;
                }
              g_ptr_array_add (params, g_strdup (t->text));
            }
          else
            {
              error_at (pp, t, SL_DIAG_PP_EXPECTED_PARAMETER,
                        "expected a parameter name, found '%s'",
                        t->text);
              goto bad;
            }
          if (i >= toks->len)
            continue;   /* reported at the top of the loop */
          const Tok *sep = toks->pdata[i++];
          if (is_punct (sep, ")"))
            {
              ok = TRUE;
              break;
            }
          if (!is_punct (sep, ",") || m->variadic)
            {
              error_at (pp, sep, SL_DIAG_PP_PARAMETER_SEPARATOR,
                        "expected ',' or ')' in parameter list, found '%s'",
                        sep->text);
              goto bad;
            }
        }
    bad:
      m->n_params = (int) params->len;
      g_ptr_array_add (params, NULL);
      m->params = (char **) g_ptr_array_free (params, FALSE);
      if (!ok)
        {
          sl_pp_macro_free (m);
          return;
        }
    }

  m->n_body = (int) (toks->len - i);
  m->body = SL_NEW_N (pp->perm, Tok, MAX (m->n_body, 1));
  for (int k = 0; k < m->n_body; k++)
    {
      const Tok *src = toks->pdata[i + (guint) k];
      Tok *b = &m->body[k];
      *b = *src;
      b->text = sl_arena_strdup (pp->perm, src->text);
      b->pre = "";
      b->file = src->file;
      b->hs = NULL;
      b->seq = 0;
      b->param = -1;
      b->flags = k == 0 ? 0 : (src->flags & TF_WS);
      if (m->function_like && b->kind == TK_IDENT)
        for (int p = 0; p < m->n_params; p++)
          if (strcmp (m->params[p], b->text) == 0)
            b->param = p;
    }
  for (int k = 0; k < m->n_body; k++)
    {
      const Tok *b = &m->body[k];
      if (is_punct (b, "##") && (k == 0 || k == m->n_body - 1))
        {
          error_at (pp, b, SL_DIAG_PP_PASTE_AT_END,
                    "'##' cannot appear at either end of a macro expansion");
          sl_pp_macro_free (m);
          return;
        }
      if (m->function_like && is_punct (b, "#")
          && (k + 1 >= m->n_body || m->body[k + 1].param < 0))
        {
          error_at (pp, b, SL_DIAG_PP_STRINGIFY,
                    "'#' is not followed by a macro parameter");
          sl_pp_macro_free (m);
          return;
        }
    }

  const Macro *old = g_hash_table_lookup (pp->macros, m->name);
  if (old && old->builtin)
    warning_at (pp, n, SL_DIAG_PP_REDEFINE_BUILTIN,
                "redefining builtin macro '%s'", m->name);
  else if (old && !macro_same (old, m))
    {
      warning_at (pp, n, SL_DIAG_PP_REDEFINED, "'%s' redefined", m->name);
      sl_pp_report (pp, SL_DIAG_PP_PREVIOUS_DEFINITION,
                    old->file, old->line, old->col,
                    "previous definition of '%s' is here", old->name);
    }
  g_hash_table_replace (pp->macros, m->name, m);
}
