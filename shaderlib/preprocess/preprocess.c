/* The HLSL preprocessor.
 *
 * Design: each source file is decoded to UTF-8, its line endings are
 * normalised and its backslash-newlines are spliced out up front; a small
 * table of splice offsets lets the lexer still report physical line and
 * column numbers.  The main loop lexes one logical line at a time into
 * tokens that remember their position and the whitespace before them.
 * Directive lines are executed; text lines are macro-expanded with
 * Prosser's hide-set algorithm (each token carries the set of macros it
 * must not expand again), which gives the C rescanning rules without
 * special cases.  Expanded tokens are written straight to the output by an
 * emitter that tracks which source line the current output line stands
 * for: it adds blank lines to stay in step, or a `#line` marker when the
 * gap is large, the file changes or the numbering goes backwards.
 *
 * Tokens live in a per-line arena that is dropped once a line is done, so
 * memory stays bounded by the largest single line's expansion; macro
 * bodies live in a second arena for the whole call.  Every limit (output
 * size, expansion nesting, memory per line, include depth, error count)
 * ends in a diagnostic rather than a crash or a hang. */
#include "preprocess/pp_internal.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* Diagnostics                                                         */
/* ------------------------------------------------------------------ */

void
sl_pp_report (Pp *pp, SlSeverity sev, const char *file, int line, int col,
              const char *format, ...)
{
  if (pp->fatal)
    return;
  va_list args;
  va_start (args, format);
  char *msg = g_strdup_vprintf (format, args);
  va_end (args);
  const char *code = sev == SL_SEVERITY_ERROR ? "E-PP"
                     : sev == SL_SEVERITY_WARNING ? "W-PP" : "";
  sl_diagnostics_add (pp->diags, sev, file, line, col, code, "%s", msg);
  g_free (msg);
  if (sev == SL_SEVERITY_ERROR && ++pp->n_errors >= MAX_ERRORS)
    {
      sl_diagnostics_add (pp->diags, SL_SEVERITY_ERROR, file, line, col,
                          "E-PP", "too many errors; preprocessing stopped");
      pp->fatal = TRUE;
    }
}

const char *
sl_pp_intern (Pp *pp, const char *s)
{
  char *v = g_hash_table_lookup (pp->names, s);
  if (!v)
    {
      v = g_strdup (s);
      g_hash_table_add (pp->names, v);
    }
  return v;
}

/* ------------------------------------------------------------------ */
/* Tokens and hide sets                                                */
/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* Scanning                                                            */
/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* Files                                                               */
/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* Lexing one logical line                                             */
/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* Macro expansion                                                     */
/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* #if expressions                                                     */
/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* Directives                                                          */
/* ------------------------------------------------------------------ */

static void
extra_tokens (Pp *pp, GPtrArray *toks, guint i, const char *directive)
{
  if (i < toks->len)
    warning_at (pp, (const Tok *) toks->pdata[i],
                "extra tokens at end of #%s directive", directive);
}

static const char *
canonical_key (Pp *pp, const char *path)
{
  if (!path)
    return NULL;
  if (!pp->opt->read_file)
    {
      char *real = realpath (path, NULL);
      if (real)
        {
          const char *k = sl_pp_intern (pp, real);
          free (real);
          return k;
        }
    }
  return sl_pp_intern (pp, path);
}

static char *
read_candidate (Pp *pp, const char *path, size_t *len)
{
  if (pp->opt->read_file)
    return pp->opt->read_file (pp->opt->read_file_user, path, len);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return NULL;
  char *data = NULL;
  gsize n = 0;
  if (!g_file_get_contents (path, &data, &n, NULL))
    return NULL;
  *len = n;
  return data;
}

static char *
join_path (const char *dir, const char *name)
{
  if (!dir || !*dir || strcmp (dir, ".") == 0)
    return g_strdup (name);
  return g_build_filename (dir, name, NULL);
}

/* Finds and reads an include file; returns the path it was found at. */
static char *
find_include (Pp *pp, File *from, const char *name, gboolean angled,
              char **data, size_t *len)
{
  GPtrArray *cands = g_ptr_array_new_with_free_func (g_free);
  if (g_path_is_absolute (name))
    g_ptr_array_add (cands, g_strdup (name));
  else
    {
      if (!angled)
        {
          char *dir = from->path ? g_path_get_dirname (from->path) : NULL;
          g_ptr_array_add (cands, join_path (dir, name));
          g_free (dir);
        }
      for (const char *const *d = pp->opt->include_dirs; d && *d; d++)
        g_ptr_array_add (cands, join_path (*d, name));
    }
  char *found = NULL;
  for (guint i = 0; i < cands->len && !found; i++)
    {
      *data = read_candidate (pp, cands->pdata[i], len);
      if (*data)
        found = g_strdup (cands->pdata[i]);
    }
  g_ptr_array_free (cands, TRUE);
  return found;
}

static void
do_include (Pp *pp, File *f, GPtrArray *toks)
{
  char *fname = NULL;
  gboolean angled = FALSE;
  guint next = 3;
  const Tok *a = toks->len > 2 ? toks->pdata[2] : NULL;
  /* Errors point at the file name, or at 'include' when there is none. */
  const Tok *where = a ? a : toks->pdata[1];

  if (a && a->kind == TK_STRING)
    {
      size_t n = strlen (a->text);
      if (n >= 2 && a->text[n - 1] == '"')
        fname = g_strndup (a->text + 1, n - 2);
    }
  else if (is_punct (a, "<"))
    {
      /* A header name is raw text, not tokens. */
      const char *s = f->buf + a->off + 1;
      const char *end = memchr (s, '>', f->buf + f->line_end_off - s);
      if (!end)
        {
          error_at (pp, a, "missing terminating > character");
          return;
        }
      fname = g_strndup (s, (size_t) (end - s));
      angled = TRUE;
      next = toks->len;
      for (guint i = 3; i < toks->len; i++)
        if (((const Tok *) toks->pdata[i])->off > (size_t) (end - f->buf))
          {
            next = i;
            break;
          }
    }
  else if (a)
    {
      GPtrArray *rest = g_ptr_array_new ();
      for (guint i = 2; i < toks->len; i++)
        g_ptr_array_add (rest, toks->pdata[i]);
      GPtrArray *x = sl_pp_expand_list (pp, rest, FALSE);
      g_ptr_array_free (rest, TRUE);
      next = toks->len;
      const Tok *x0 = x->len ? x->pdata[0] : NULL;
      if (x0 && x0->kind == TK_STRING && x->len == 1)
        {
          size_t n = strlen (x0->text);
          if (n >= 2 && x0->text[n - 1] == '"')
            fname = g_strndup (x0->text + 1, n - 2);
        }
      else if (is_punct (x0, "<") && is_punct (x->pdata[x->len - 1], ">") && x->len > 2)
        {
          GString *s = g_string_new (NULL);
          for (guint i = 1; i + 1 < x->len; i++)
            {
              const Tok *t = x->pdata[i];
              if (i > 1 && (t->flags & TF_WS))
                g_string_append_c (s, ' ');
              g_string_append (s, t->text);
            }
          fname = g_string_free (s, FALSE);
          angled = TRUE;
        }
      g_ptr_array_free (x, TRUE);
    }
  if (!fname)
    {
      error_at (pp, where, "#include expects \"FILENAME\" or <FILENAME>");
      return;
    }
  extra_tokens (pp, toks, next, "include");
  if (!*fname)
    {
      error_at (pp, where, "empty file name in #include");
      g_free (fname);
      return;
    }
  /* Shaders written on Windows often use backslashes. */
  for (char *p = fname; *p; p++)
    if (*p == '\\')
      *p = '/';

  char *data = NULL;
  size_t len = 0;
  char *path = find_include (pp, f, fname, angled, &data, &len);
  if (!path)
    {
      error_at (pp, where, "#include file %c%s%c not found", angled ? '<' : '"',
                fname, angled ? '>' : '"');
      g_free (fname);
      return;
    }
  g_free (fname);

  const char *key = canonical_key (pp, path);
  if (g_hash_table_contains (pp->once, key))
    {
      g_free (data);
      g_free (path);
      return;
    }
  if (pp->files->len > SL_PP_MAX_INCLUDE_DEPTH)
    {
      /* A file that includes itself (directly or through others) is
       * legal with include guards, so a cycle is only an error once it
       * runs into the depth limit; then the message names the cycle
       * rather than 32 copies of it. */
      guint first = 0;
      gboolean cycle = FALSE;
      for (guint i = pp->files->len; i-- > 0 && !cycle;)
        if (((File *) pp->files->pdata[i])->once_key == key)
          {
            first = i;
            cycle = TRUE;
          }
      GString *chain = g_string_new (NULL);
      for (guint i = first; i < pp->files->len; i++)
        {
          g_string_append (chain, ((File *) pp->files->pdata[i])->name);
          g_string_append (chain, " -> ");
        }
      g_string_append (chain, path);
      if (cycle)
        error_at (pp, where, "#include cycle without include guards: %s", chain->str);
      else
        error_at (pp, where, "#include nested more than %d levels deep: %s",
                  SL_PP_MAX_INCLUDE_DEPTH, chain->str);
      g_string_free (chain, TRUE);
      g_free (data);
      g_free (path);
      return;
    }
  File *nf = sl_pp_file_new (pp, data, len, path, path, where);
  g_free (data);
  g_free (path);
  if (!nf)
    return;
  nf->once_key = key;
  g_ptr_array_add (pp->files, nf);
}

static char *
unescape_string (const char *s)
{
  GString *o = g_string_new (NULL);
  size_t n = strlen (s);
  for (size_t i = 1; i + 1 < n; i++)
    {
      if (s[i] == '\\' && i + 2 < n)
        i++;
      g_string_append_c (o, s[i]);
    }
  return g_string_free (o, FALSE);
}

/* #line N ["file"], also the `# N "file"` form compilers emit. */
static void
do_line (Pp *pp, File *f, GPtrArray *toks, guint start)
{
  const Tok *dir = toks->pdata[1];
  GPtrArray *rest = g_ptr_array_new ();
  for (guint i = start; i < toks->len; i++)
    g_ptr_array_add (rest, toks->pdata[i]);
  GPtrArray *x = sl_pp_expand_list (pp, rest, FALSE);
  g_ptr_array_free (rest, TRUE);

  const Tok *num = x->len ? x->pdata[0] : NULL;
  gint64 line = -1;
  if (num && num->kind == TK_NUMBER)
    {
      line = 0;
      for (const char *p = num->text; *p && line >= 0; p++)
        {
          if (!g_ascii_isdigit (*p))
            line = -1;
          else if ((line = line * 10 + (*p - '0')) > INT_MAX)
            line = -1;
        }
    }
  if (line < 1)
    {
      error_at (pp, num ? num : dir, "#line expects a line number from 1 to %d%s%s%s",
                INT_MAX, num ? ", not '" : "", num ? num->text : "", num ? "'" : "");
      g_ptr_array_free (x, TRUE);
      return;
    }
  guint i = 1;
  if (i < x->len)
    {
      const Tok *name = x->pdata[i];
      if (name->kind != TK_STRING)
        {
          error_at (pp, name, "invalid file name '%s' in #line directive", name->text);
          g_ptr_array_free (x, TRUE);
          return;
        }
      char *s = unescape_string (name->text);
      f->name = sl_pp_intern (pp, s);
      g_free (s);
      i++;
    }
  if (is_punct (dir, "#") || dir->kind == TK_IDENT)
    extra_tokens (pp, x, i, "line");
  f->delta = (int) (line - (f->line_end_phys + 1));
  g_ptr_array_free (x, TRUE);
}

static void
update_skipping (Pp *pp)
{
  pp->skipping = pp->conds->len > 0
                 && !g_array_index (pp->conds, Cond, pp->conds->len - 1).active;
}

static Cond *
top_cond (Pp *pp, File *f, const Tok *dir)
{
  if (pp->conds->len <= f->cond_base)
    {
      error_at (pp, dir, "#%s without #if", dir->text);
      return NULL;
    }
  return &g_array_index (pp->conds, Cond, pp->conds->len - 1);
}

static char *
rest_text (GPtrArray *toks, guint start)
{
  GString *s = g_string_new (NULL);
  for (guint i = start; i < toks->len; i++)
    {
      const Tok *t = toks->pdata[i];
      if (i > start && (t->flags & TF_WS))
        g_string_append_c (s, ' ');
      g_string_append (s, t->text);
    }
  return g_string_free (s, FALSE);
}

static void
directive (Pp *pp, File *f, GPtrArray *toks)
{
  const Tok *hash = toks->pdata[0];
  if (toks->len == 1)
    return;   /* the null directive */
  const Tok *d = toks->pdata[1];
  const char *name = d->kind == TK_IDENT ? d->text : "";

  if (!strcmp (name, "if") || !strcmp (name, "ifdef") || !strcmp (name, "ifndef"))
    {
      Cond c = { d->file, hash->line, hash->col, NULL, !pp->skipping, FALSE, FALSE, FALSE };
      c.kind = name[2] == 'd' ? "#ifdef" : name[2] == 'n' ? "#ifndef" : "#if";
      if (!pp->skipping)
        {
          gboolean v;
          if (name[2] == 0)
            v = sl_pp_eval_if (pp, toks, 2);
          else
            {
              const Tok *id = toks->len > 2 ? toks->pdata[2] : NULL;
              if (!id || id->kind != TK_IDENT)
                {
                  error_at (pp, id ? id : d, "#%s expects a macro name", name);
                  v = FALSE;
                }
              else
                {
                  v = g_hash_table_contains (pp->macros, id->text);
                  if (name[2] == 'n')
                    v = !v;
                  extra_tokens (pp, toks, 3, name);
                }
            }
          c.active = c.taken = v;
        }
      g_array_append_val (pp->conds, c);
      update_skipping (pp);
      return;
    }
  if (!strcmp (name, "elif") || !strcmp (name, "else"))
    {
      Cond *c = top_cond (pp, f, d);
      if (!c)
        return;
      gboolean is_else = name[2] == 's';
      if (c->seen_else)
        {
          error_at (pp, d, "#%s after #else", name);
          c->active = FALSE;
          update_skipping (pp);
          return;
        }
      if (is_else)
        {
          c->seen_else = TRUE;
          if (c->parent_active)
            extra_tokens (pp, toks, 2, "else");
          c->active = c->parent_active && !c->taken;
          c->taken = TRUE;
        }
      else if (!c->parent_active || c->taken)
        c->active = FALSE;
      else
        {
          /* The condition is evaluated only when no branch was taken yet. */
          pp->skipping = FALSE;
          c->active = c->taken = sl_pp_eval_if (pp, toks, 2);
        }
      update_skipping (pp);
      return;
    }
  if (!strcmp (name, "endif"))
    {
      Cond *c = top_cond (pp, f, d);
      if (!c)
        return;
      if (c->parent_active)
        extra_tokens (pp, toks, 2, "endif");
      g_array_set_size (pp->conds, pp->conds->len - 1);
      update_skipping (pp);
      return;
    }
  if (pp->skipping)
    return;

  if (!strcmp (name, "define"))
    sl_pp_define (pp, toks, 2);
  else if (!strcmp (name, "undef"))
    {
      const Tok *id = toks->len > 2 ? toks->pdata[2] : NULL;
      if (!id || id->kind != TK_IDENT)
        error_at (pp, id ? id : d, "#undef expects a macro name");
      else
        {
          const Macro *m = g_hash_table_lookup (pp->macros, id->text);
          if (m && m->builtin)
            warning_at (pp, id, "undefining builtin macro '%s'", id->text);
          g_hash_table_remove (pp->macros, id->text);
          extra_tokens (pp, toks, 3, "undef");
        }
    }
  else if (!strcmp (name, "include"))
    do_include (pp, f, toks);
  else if (!strcmp (name, "line"))
    do_line (pp, f, toks, 2);
  else if (d->kind == TK_NUMBER)
    do_line (pp, f, toks, 1);
  else if (!strcmp (name, "error") || !strcmp (name, "warning"))
    {
      char *msg = rest_text (toks, 2);
      sl_pp_report (pp, name[0] == 'e' ? SL_SEVERITY_ERROR : SL_SEVERITY_WARNING,
                    hash->file, hash->line, hash->col, "#%s%s%s", name,
                    *msg ? " " : "", msg);
      g_free (msg);
    }
  else if (!strcmp (name, "pragma"))
    {
      const Tok *p = toks->len > 2 ? toks->pdata[2] : NULL;
      if (!p)
        return;
      if (p->kind == TK_IDENT && !strcmp (p->text, "once"))
        {
          if (f->once_key)
            g_hash_table_add (pp->once, (gpointer) f->once_key);
          extra_tokens (pp, toks, 3, "pragma once");
        }
      else if (p->kind == TK_IDENT
               && (!strcmp (p->text, "warning") || !strcmp (p->text, "def")))
        ;   /* fxc-specific, meaningless here */
      else
        sl_pp_emit_line (pp, toks);
    }
  else
    error_at (pp, d, "unknown directive '#%s'", d->text);
}

/* ------------------------------------------------------------------ */
/* Driver                                                              */
/* ------------------------------------------------------------------ */

static void
pop_file (Pp *pp)
{
  File *f = top_file (pp);
  int line = f->phys + f->delta, col = f->col;
  if (f->len > 0 && f->buf[f->len - 1] == '\n')
    line = f->last_nl_line, col = f->last_nl_col;
  for (guint i = f->cond_base; i < pp->conds->len; i++)
    {
      const Cond *c = &g_array_index (pp->conds, Cond, i);
      sl_pp_report (pp, SL_SEVERITY_ERROR, f->name, line, col,
                    "unterminated %s (opened at line %d)", c->kind, c->line);
    }
  g_array_set_size (pp->conds, f->cond_base);
  update_skipping (pp);
  g_ptr_array_remove_index (pp->files, pp->files->len - 1);
  sl_pp_file_free (f);
}

static void
run (Pp *pp)
{
  while (!pp->fatal && pp->files->len > 0)
    {
      File *f = top_file (pp);
      GPtrArray *toks;
      if (pp->pushback)
        {
          toks = pp->line_b;
          pp->pushback = FALSE;
        }
      else
        {
          sl_arena_free (pp->line);
          pp->line = sl_arena_new ();
          if (!sl_pp_lex_line (pp, f, pp->line_a))
            {
              pop_file (pp);
              continue;
            }
          toks = pp->line_a;
        }
      if (toks->len == 0)
        continue;
      if (is_punct (toks->pdata[0], "#"))
        {
          directive (pp, f, toks);
          continue;
        }
      if (pp->skipping)
        continue;
      Input in = { pp->top_stack, TRUE, FALSE };
      g_ptr_array_set_size (in.stack, 0);
      for (guint i = toks->len; i-- > 0;)
        g_ptr_array_add (in.stack, toks->pdata[i]);
      sl_pp_expand_stream (pp, &in, NULL);
    }
}

static void
add_builtin (Pp *pp, const char *name, int kind)
{
  Macro *m = g_new0 (Macro, 1);
  m->name = g_strdup (name);
  m->builtin = kind;
  m->file = "<built-in>";
  g_hash_table_replace (pp->macros, m->name, m);
}

/* "NAME", "NAME=VALUE" or "F(x)=body", read like a #define line. */
static void
predefine (Pp *pp, const char *def)
{
  const char *eq = strchr (def, '=');
  if (!g_ascii_isalpha (def[0]) && def[0] != '_')
    {
      sl_pp_report (pp, SL_SEVERITY_ERROR, "<command-line>", 0, 0,
                    "invalid predefined macro \"%s\"", def);
      return;
    }
  char *line = eq ? g_strdup_printf ("#define %.*s %s", (int) (eq - def), def, eq + 1)
                  : g_strdup_printf ("#define %s 1", def);
  File *f = sl_pp_file_new (pp, line, strlen (line), "<command-line>", NULL, NULL);
  g_free (line);
  if (!f)
    return;
  if (sl_pp_lex_line (pp, f, pp->line_a) && pp->line_a->len > 2)
    sl_pp_define (pp, pp->line_a, 2);
  else
    sl_pp_report (pp, SL_SEVERITY_ERROR, "<command-line>", 0, 0,
                  "invalid predefined macro \"%s\"", def);
  sl_pp_file_free (f);
}

char *
sl_preprocess (const char *source, size_t length, const SlPreprocessOptions *options,
               SlDiagnostics *diags)
{
  static const SlPreprocessOptions defaults = { 0 };
  if (!options)
    options = &defaults;
  if (!source)
    source = "", length = 0;
  else if (length == (size_t) -1)
    length = strlen (source);

  Pp pp = { 0 };
  pp.opt = options;
  pp.diags = diags;
  pp.names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  pp.macros = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                    sl_pp_macro_free);
  pp.once = g_hash_table_new (g_direct_hash, g_direct_equal);
  pp.perm = sl_arena_new ();
  pp.line = sl_arena_new ();
  pp.files = g_ptr_array_new ();
  pp.conds = g_array_new (FALSE, FALSE, sizeof (Cond));
  pp.line_a = g_ptr_array_new ();
  pp.line_b = g_ptr_array_new ();
  pp.top_stack = g_ptr_array_new ();
  pp.pre = g_string_new (NULL);
  pp.out = g_string_new (NULL);
  pp.max_output = options->max_output ? options->max_output : SL_PP_MAX_OUTPUT;
  pp.main_name = sl_pp_intern (&pp, options->filename ? options->filename : "<source>");

  add_builtin (&pp, "__LINE__", BUILTIN_LINE);
  add_builtin (&pp, "__FILE__", BUILTIN_FILE);
  for (const char *const *d = options->defines; d && *d && !pp.fatal; d++)
    predefine (&pp, *d);

  File *main_file = pp.fatal ? NULL
                    : sl_pp_file_new (&pp, source, length, pp.main_name, options->filename, NULL);
  if (main_file)
    {
      main_file->once_key = canonical_key (&pp, options->filename);
      g_ptr_array_add (pp.files, main_file);
      pp.out_file = main_file->name;
      pp.out_line = 1;
      pp.out_col = 1;
      run (&pp);
    }

  char *result = NULL;
  if (!pp.fatal)
    {
      if (pp.out_col > 1)
        sl_pp_out_newline (&pp);
      result = g_string_free (pp.out, FALSE);
    }
  else
    g_string_free (pp.out, TRUE);

  while (pp.files->len)
    {
      sl_pp_file_free (top_file (&pp));
      g_ptr_array_remove_index (pp.files, pp.files->len - 1);
    }
  g_ptr_array_free (pp.files, TRUE);
  g_array_free (pp.conds, TRUE);
  g_ptr_array_free (pp.line_a, TRUE);
  g_ptr_array_free (pp.line_b, TRUE);
  g_ptr_array_free (pp.top_stack, TRUE);
  g_string_free (pp.pre, TRUE);
  g_hash_table_destroy (pp.macros);
  g_hash_table_destroy (pp.once);
  g_hash_table_destroy (pp.names);
  sl_arena_free (pp.line);
  sl_arena_free (pp.perm);
  return result;
}
