/* The HLSL preprocessor: the entry point, the driver loop and the
 * diagnostics every part reports through.
 *
 * Design: each source file is decoded to UTF-8, its line endings are
 * normalised and its backslash-newlines are spliced out up front, keeping
 * a table of splice offsets so positions stay physical (pp_lex.c).  The
 * loop here takes one logical line at a time: directive lines are
 * executed (pp_directive.c, with #if expressions in pp_expr.c); text
 * lines are macro-expanded with Prosser's hide-set algorithm (pp_macro.c)
 * and written straight to the output by an emitter that keeps the output
 * in step with the source lines, adding `#line` markers where it cannot
 * (pp_output.c).  Predefinitions are read as #define lines of a file of
 * their own, so they get the same checks as the source.
 *
 * All state lives in one context per call (pp_internal.h), so calls can
 * run on several threads.  Tokens live in a per-line arena that is
 * dropped once a line is done, so memory stays bounded by the largest
 * single line's expansion; macro bodies live in a second arena for the
 * whole call.  Every limit (output size, expansion nesting, memory per
 * line, include depth, error count) ends in a diagnostic rather than a
 * crash or a hang; the error limit is counted here. */
#include "preprocess/pp_internal.h"

#include <stdarg.h>

void
sl_pp_report (Pp *pp, SlDiagKind kind, const char *file, int line, int col,
              const char *format, ...)
{
  if (pp->fatal)
    return;
  va_list args;
  va_start (args, format);
  sl_diag_v (pp->diags, kind, file, line, col, format, args);
  va_end (args);
  if (sl_diag_severity (kind) == SL_SEVERITY_ERROR && ++pp->n_errors >= MAX_ERRORS)
    {
      sl_diag (pp->diags, SL_DIAG_PP_TOO_MANY_ERRORS, file, line, col,
               "too many errors; preprocessing stopped");
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
      sl_pp_report (pp, SL_DIAG_PP_UNTERMINATED_CONDITIONAL, f->name, line, col,
                    "unterminated %s (opened at line %d)", c->kind, c->line);
    }
  g_array_set_size (pp->conds, f->cond_base);
  sl_pp_update_skipping (pp);
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
          sl_pp_directive (pp, f, toks);
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
      sl_pp_report (pp, SL_DIAG_PP_PREDEFINED_MACRO, "<command-line>", 0, 0,
                    "invalid predefined macro \"%s\"", def);
      return;
    }
  char *line = eq ? g_strdup_printf ("#define %.*s %s", (int) (eq - def), def,
                                     eq + 1)
                  : g_strdup_printf ("#define %s 1", def);
  File *f = sl_pp_file_new (pp, line, strlen (line), "<command-line>", NULL,
                            NULL);
  g_free (line);
  if (!f)
    return;
  if (sl_pp_lex_line (pp, f, pp->line_a) && pp->line_a->len > 2)
    sl_pp_define (pp, pp->line_a, 2);
  else
    sl_pp_report (pp, SL_DIAG_PP_PREDEFINED_MACRO, "<command-line>", 0, 0,
                  "invalid predefined macro \"%s\"", def);
  sl_pp_file_free (f);
}

char *
sl_preprocess (const char *source, size_t length,
               const SlPreprocessOptions *options, SlDiagnostics *diags)
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
  pp.main_name = sl_pp_intern (&pp, options->filename ? options->filename
                                                      : "<source>");

  add_builtin (&pp, "__LINE__", BUILTIN_LINE);
  add_builtin (&pp, "__FILE__", BUILTIN_FILE);
  if (options->reshade)
    {
      add_builtin (&pp, "__FILE_NAME__", BUILTIN_FILE_NAME);
      add_builtin (&pp, "__FILE_STEM__", BUILTIN_FILE_STEM);
    }
  for (const char *const *d = options->defines; d && *d && !pp.fatal; d++)
    predefine (&pp, *d);

  File *main_file = pp.fatal ? NULL
                    : sl_pp_file_new (&pp, source, length, pp.main_name,
                                      options->filename, NULL);
  if (main_file)
    {
      main_file->once_key = sl_pp_canonical_key (&pp, options->filename);
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
