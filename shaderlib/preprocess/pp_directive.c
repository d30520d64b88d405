/* Directives: conditionals, #include, #line, diagnostics and pragmas.
 *
 * The conditional stack is shared by all open files, but each file
 * remembers its depth on entry, so an #if cannot be closed from another
 * file and whatever a file leaves open is reported when it ends.  Inside a
 * skipped group only the conditionals are read, for their nesting; their
 * expressions are not evaluated.  #include searches the including file's
 * folder (for "quoted" names) and then the include path, accepts the
 * backslashes of shaders written on Windows and honours #pragma once by
 * the file's canonical path.  Including a file again is legal (include
 * guards make it harmless), so a cycle is only diagnosed when it reaches
 * the include depth limit, naming the files in it.  #line also accepts
 * the `# N "file"` form compilers write.  An include is read only when it
 * is a regular file of at most SL_MAX_SOURCE_BYTES, and, unless the host
 * allows any path, only inside the main file's folder or an include
 * folder (base/file_read.h says why).  Pragmas the compiler reads are
 * passed through to the output as whole lines; fxc's own ones are
 * dropped, and so are ReShade's (`#pragma reshade …`; `#pragma message`
 * becomes a note) in ReShade mode, where a file name that is not found as
 * spelled is looked for without regard to case (sl_pp_find_path_nocase),
 * for #include as for `exists`. */
#include "preprocess/pp_internal.h"
#include "base/file_read.h"
#include "base/limits.h"

#include <limits.h>
#include <stdlib.h>

static void
extra_tokens (Pp *pp, GPtrArray *toks, guint i, const char *directive)
{
  if (i < toks->len)
    warning_at (pp, (const Tok *) toks->pdata[i], SL_DIAG_PP_EXTRA_TOKENS,
                "extra tokens at end of #%s directive", directive);
}

const char *
sl_pp_canonical_key (Pp *pp, const char *path)
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
  char *data = NULL;
  sl_read_regular_file (path, SL_MAX_SOURCE_BYTES, &data, len);
  return data;
}

/* Why find_include() found nothing. */
typedef enum
{
  INCLUDE_MISSING,
  INCLUDE_OUTSIDE,
  INCLUDE_NOT_REGULAR,
  INCLUDE_TOO_LARGE
} IncludeFailure;

static gboolean
include_allowed (Pp *pp, const char *path)
{
  if (pp->opt->any_path)
    return TRUE;
  const char *roots[2 + 64] = { NULL };
  int n = 0;
  char *own = pp->opt->filename ? g_path_get_dirname (pp->opt->filename) : g_strdup (".");
  roots[n++] = own;
  for (const char *const *d = pp->opt->include_dirs; d && *d && n < (int) G_N_ELEMENTS (roots); d++)
    roots[n++] = *d;
  gboolean ok = sl_path_confined (path, roots, n);
  g_free (own);
  return ok;
}

static char *
join_path (const char *dir, const char *name)
{
  if (!dir || !*dir || strcmp (dir, ".") == 0)
    return g_strdup (name);
  return g_build_filename (dir, name, NULL);
}

/* A directory entry named like @name but for case; NULL when none. */
static char *
entry_nocase (const char *dir, const char *name)
{
  GDir *d = g_dir_open (*dir ? dir : ".", 0, NULL);
  if (!d)
    return NULL;
  char *want = g_utf8_casefold (name, -1), *found = NULL;
  for (const char *e; !found && (e = g_dir_read_name (d));)
    {
      char *have = g_utf8_casefold (e, -1);
      if (!strcmp (have, want))
        found = g_strdup (e);
      g_free (have);
    }
  g_free (want);
  g_dir_close (d);
  return found;
}

char *
sl_pp_find_path_nocase (const char *path)
{
  if (!path || !*path)
    return NULL;
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    return g_strdup (path);
  char *dir = g_path_get_dirname (path), *base = g_path_get_basename (path);
  char *result = NULL;
  /* The folder first (itself perhaps in another case), then the entry. */
  char *rdir = strcmp (dir, path) && strcmp (base, ".") && strcmp (base, G_DIR_SEPARATOR_S)
               ? sl_pp_find_path_nocase (dir) : NULL;
  if (rdir)
    {
      char *entry = entry_nocase (rdir, base);
      if (entry)
        result = strcmp (dir, ".") || g_str_has_prefix (path, ".") ? g_build_filename (rdir, entry, NULL)
                                                                   : g_strdup (entry);
      g_free (entry);
    }
  g_free (rdir);
  g_free (dir);
  g_free (base);
  return result;
}

/* Finds and reads an include file; returns the path it was found at.
 * Every candidate is tried exactly before any is tried without regard
 * to case. */
static char *
find_include (Pp *pp, File *from, const char *name, gboolean angled,
              char **data, size_t *len, IncludeFailure *why)
{
  *why = INCLUDE_MISSING;
  GPtrArray *cands = g_ptr_array_new_with_free_func (g_free);
  if (g_path_is_absolute (name))
    g_ptr_array_add (cands, g_strdup (name));
  else
    {
      if (!angled)
        {
          char *dir = from && from->path ? g_path_get_dirname (from->path) : NULL;
          g_ptr_array_add (cands, join_path (dir, name));
          g_free (dir);
        }
      for (const char *const *d = pp->opt->include_dirs; d && *d; d++)
        g_ptr_array_add (cands, join_path (*d, name));
    }
  char *found = NULL;
  for (guint i = 0; i < cands->len && !found; i++)
    {
      if (!include_allowed (pp, cands->pdata[i]))
        {
          *why = INCLUDE_OUTSIDE;
          continue;
        }
      *data = read_candidate (pp, cands->pdata[i], len);
      if (*data)
        found = g_strdup (cands->pdata[i]);
      else if (*why == INCLUDE_MISSING)
        {
          SlReadStatus st = sl_probe_regular_file (cands->pdata[i], SL_MAX_SOURCE_BYTES);
          if (st == SL_READ_NOT_REGULAR)
            *why = INCLUDE_NOT_REGULAR;
          else if (st == SL_READ_TOO_LARGE)
            *why = INCLUDE_TOO_LARGE;
        }
    }
  for (guint i = 0; i < cands->len && !found && pp->opt->reshade; i++)
    {
      char *other = sl_pp_find_path_nocase (cands->pdata[i]);
      /* The same confinement as for the exact names. */
      if (other && !include_allowed (pp, other))
        {
          g_free (other);
          continue;
        }
      if (other && (*data = read_candidate (pp, other, len)))
        found = other;
      else
        g_free (other);
    }
  g_ptr_array_free (cands, TRUE);
  return found;
}

gboolean
sl_pp_file_exists (Pp *pp, const char *name)
{
  char *fname = g_strdup (name), *data = NULL;
  size_t len = 0;
  IncludeFailure why;
  for (char *p = fname; *p; p++)
    if (*p == '\\')
      *p = '/';
  /* A file the confinement refuses does not exist for the effect. */
  char *path = *fname ? find_include (pp, top_file (pp), fname, FALSE, &data, &len, &why) : NULL;
  g_free (data);
  g_free (fname);
  g_free (path);
  return path != NULL;
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
          error_at (pp, a, SL_DIAG_PP_MISSING_TERMINATOR,
                    "missing terminating > character");
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
      else if (is_punct (x0, "<") && is_punct (x->pdata[x->len - 1], ">")
               && x->len > 2)
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
      error_at (pp, where, SL_DIAG_PP_INCLUDE_SYNTAX,
                "#include expects \"FILENAME\" or <FILENAME>");
      return;
    }
  extra_tokens (pp, toks, next, "include");
  if (!*fname)
    {
      error_at (pp, where, SL_DIAG_PP_INCLUDE_EMPTY,
                "empty file name in #include");
      g_free (fname);
      return;
    }
  /* Shaders written on Windows often use backslashes. */
  for (char *p = fname; *p; p++)
    if (*p == '\\')
      *p = '/';

  char *data = NULL;
  size_t len = 0;
  IncludeFailure why;
  char *path = find_include (pp, f, fname, angled, &data, &len, &why);
  if (!path)
    {
      char open = angled ? '<' : '"', close = angled ? '>' : '"';
      if (why == INCLUDE_OUTSIDE)
        error_at (pp, where, SL_DIAG_PP_INCLUDE_OUTSIDE,
                  "#include file %c%s%c is outside the shader's folder and the include folders",
                  open, fname, close);
      else if (why == INCLUDE_NOT_REGULAR)
        error_at (pp, where, SL_DIAG_PP_INCLUDE_NOT_REGULAR,
                  "#include file %c%s%c is not a regular file", open, fname, close);
      else if (why == INCLUDE_TOO_LARGE)
        error_at (pp, where, SL_DIAG_PP_INCLUDE_TOO_LARGE,
                  "#include file %c%s%c is larger than %u MiB", open, fname, close,
                  SL_MAX_SOURCE_BYTES >> 20);
      else
        error_at (pp, where, SL_DIAG_PP_INCLUDE_NOT_FOUND,
                  "#include file %c%s%c not found", open, fname, close);
      g_free (fname);
      return;
    }
  g_free (fname);

  const char *key = sl_pp_canonical_key (pp, path);
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
        error_at (pp, where, SL_DIAG_PP_INCLUDE_CYCLE,
                  "#include cycle without include guards: %s",
                  chain->str);
      else
        error_at (pp, where, SL_DIAG_PP_INCLUDE_DEPTH,
                  "#include nested more than %d levels deep: %s",
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
      error_at (pp, num ? num : dir, SL_DIAG_PP_LINE_NUMBER,
                "#line expects a line number from 1 to %d%s%s%s", INT_MAX,
                num ? ", not '" : "", num ? num->text : "", num ? "'" : "");
      g_ptr_array_free (x, TRUE);
      return;
    }
  guint i = 1;
  if (i < x->len)
    {
      const Tok *name = x->pdata[i];
      if (name->kind != TK_STRING)
        {
          error_at (pp, name, SL_DIAG_PP_LINE_FILE,
                    "invalid file name '%s' in #line directive",
                    name->text);
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

void
sl_pp_update_skipping (Pp *pp)
{
  pp->skipping = pp->conds->len > 0
                 && !g_array_index (pp->conds, Cond, pp->conds->len - 1).active;
}

static Cond *
top_cond (Pp *pp, File *f, const Tok *dir)
{
  if (pp->conds->len <= f->cond_base)
    {
      error_at (pp, dir, SL_DIAG_PP_CONDITIONAL_WITHOUT_IF,
                "#%s without #if", dir->text);
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

void
sl_pp_directive (Pp *pp, File *f, GPtrArray *toks)
{
  const Tok *hash = toks->pdata[0];
  if (toks->len == 1)
    return;   /* the null directive */
  const Tok *d = toks->pdata[1];
  const char *name = d->kind == TK_IDENT ? d->text : "";

  if (!strcmp (name, "if") || !strcmp (name, "ifdef")
      || !strcmp (name, "ifndef"))
    {
      Cond c = { d->file, hash->line, hash->col, NULL, !pp->skipping,
                 FALSE, FALSE, FALSE };
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
                  error_at (pp, id ? id : d, SL_DIAG_PP_EXPECTED_MACRO_NAME,
                            "#%s expects a macro name", name);
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
      sl_pp_update_skipping (pp);
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
          error_at (pp, d, SL_DIAG_PP_CONDITIONAL_AFTER_ELSE,
                    "#%s after #else", name);
          c->active = FALSE;
          sl_pp_update_skipping (pp);
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
      sl_pp_update_skipping (pp);
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
      sl_pp_update_skipping (pp);
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
        error_at (pp, id ? id : d, SL_DIAG_PP_EXPECTED_MACRO_NAME,
                  "#undef expects a macro name");
      else
        {
          const Macro *m = g_hash_table_lookup (pp->macros, id->text);
          if (m && m->builtin)
            warning_at (pp, id, SL_DIAG_PP_UNDEF_BUILTIN,
                        "undefining builtin macro '%s'", id->text);
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
      SlDiagKind kind = name[0] == 'e' ? SL_DIAG_PP_ERROR_DIRECTIVE
                                       : SL_DIAG_PP_WARNING_DIRECTIVE;
      sl_pp_report (pp, kind, hash->file, hash->line, hash->col, "#%s%s%s",
                    name, *msg ? " " : "", msg);
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
      else if (pp->opt->reshade && p->kind == TK_IDENT && !strcmp (p->text, "reshade"))
        ;   /* ReShade's own switches (skipoptimization, showfps, …) */
      else if (pp->opt->reshade && p->kind == TK_IDENT && !strcmp (p->text, "message"))
        {
          char *msg = rest_text (toks, 3);
          sl_pp_report (pp, SL_DIAG_PP_PRAGMA_MESSAGE, hash->file, hash->line, hash->col,
                        "#pragma message %s", msg);
          g_free (msg);
        }
      else
        sl_pp_emit_line (pp, toks);
    }
  else
    error_at (pp, d, SL_DIAG_PP_UNKNOWN_DIRECTIVE,
              "unknown directive '#%s'", d->text);
}
