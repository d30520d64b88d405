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
#include "preprocess/preprocess.h"
#include "base/arena.h"

#include <glib.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ERRORS        100
#define MAX_LINE_TOKENS   (1 << 20)
#define MAX_MACRO_ARGS    256
#define MAX_FILE_SIZE     ((size_t) 64 * 1024 * 1024)
#define MAX_LINE_MEMORY   ((size_t) 256 * 1024 * 1024)
/* Up to this many blank lines keep the output in step with the source;
 * beyond it a #line marker is shorter. */
#define MAX_BLANK_LINES   8

typedef enum
{
  TK_IDENT,
  TK_NUMBER,
  TK_STRING,
  TK_CHAR,
  TK_PUNCT,
  TK_OTHER,
  TK_PLACEMARKER   /* stands for an empty macro argument next to ## */
} TokKind;

enum
{
  TF_WS    = 1 << 0,   /* whitespace (or a line break) precedes it */
  TF_MACRO = 1 << 1,   /* produced by an expansion: only its line is real */
  TF_BAD   = 1 << 2    /* unterminated literal, already reported */
};

typedef struct Macro Macro;

typedef struct HideSet
{
  const Macro          *macro;
  const struct HideSet *next;
} HideSet;

typedef struct
{
  const char    *text;
  const char    *pre;    /* whitespace before it on its physical line */
  const char    *file;   /* interned presumed file name */
  const HideSet *hs;
  int            line, col;
  unsigned       seq;    /* lexing order, to recognise neighbours */
  int            param;  /* in macro bodies: parameter index, else -1 */
  size_t         off;    /* offset in its file's spliced buffer */
  unsigned char  kind, flags;
} Tok;

struct Macro
{
  char       *name;
  gboolean    function_like, variadic;
  int         builtin;   /* 0, or BUILTIN_LINE / BUILTIN_FILE */
  int         n_params;
  char      **params;
  Tok        *body;
  int         n_body;
  const char *file;
  int         line, col;
};

enum { BUILTIN_LINE = 1, BUILTIN_FILE };

typedef struct
{
  char       *buf;          /* spliced UTF-8, NUL-terminated */
  size_t      len, pos;
  size_t     *splices;      /* offsets where a spliced-away line begins */
  guint       n_splices, next_splice;
  int         phys, col;    /* physical position of buf[pos] */
  int         delta;        /* presumed line = physical line + delta */
  const char *name;         /* interned presumed name */
  const char *path;         /* path for relative includes, NULL if none */
  const char *once_key;     /* interned canonical path */
  guint       cond_base;    /* conditional stack depth when entered */
  int         line_end_phys;
  size_t      line_end_off;
  int         last_nl_line, last_nl_col;
} File;

typedef struct
{
  const char *file;
  int         line, col;
  const char *kind;         /* "#if", "#ifdef" or "#ifndef" */
  gboolean    parent_active, taken, active, seen_else;
} Cond;

typedef struct
{
  GPtrArray *stack;         /* Tok *, next token last */
  gboolean   can_fetch;     /* may read further lines of the current file */
  gboolean   if_mode;       /* evaluates `defined` */
} Input;

typedef struct
{
  const SlPreprocessOptions *opt;
  SlDiagnostics *diags;
  int            n_errors;
  gboolean       fatal;
  gboolean       skipping;
  GHashTable    *names;     /* interned strings */
  GHashTable    *macros;    /* name → Macro * */
  GHashTable    *once;      /* once_keys of #pragma once files */
  SlArena       *perm, *line;
  GPtrArray     *files;     /* File *, innermost last */
  GArray        *conds;     /* Cond */
  GPtrArray     *line_a, *line_b;
  gboolean       pushback;  /* line_b holds a directive line read ahead */
  GPtrArray     *top_stack;
  GString       *pre;
  unsigned       seq;
  int            depth;
  size_t         max_output;
  const char    *main_name;
  /* emitter */
  GString       *out;
  const char    *out_file;
  int            out_line, out_col;
  unsigned       last_seq;
  gboolean       last_src;
  char           last_char;
} Pp;

/* ------------------------------------------------------------------ */
/* Diagnostics                                                         */
/* ------------------------------------------------------------------ */

static void G_GNUC_PRINTF (6, 7)
report (Pp *pp, SlSeverity sev, const char *file, int line, int col,
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

#define error_at(pp, t, ...) \
  report ((pp), SL_SEVERITY_ERROR, (t)->file, (t)->line, (t)->col, __VA_ARGS__)
#define warning_at(pp, t, ...) \
  report ((pp), SL_SEVERITY_WARNING, (t)->file, (t)->line, (t)->col, __VA_ARGS__)

/* An error after which no output is returned. */
#define fatal_at(pp, file, line, col, ...) \
  do { report ((pp), SL_SEVERITY_ERROR, (file), (line), (col), __VA_ARGS__); \
       (pp)->fatal = TRUE; } while (0)

static const char *
intern (Pp *pp, const char *s)
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

static Tok *
tok_new (Pp *pp)
{
  if (sl_arena_total (pp->line) > MAX_LINE_MEMORY && !pp->fatal)
    fatal_at (pp, pp->main_name, 0, 0,
              "macro expansion of one line needs more than %zu MiB",
              MAX_LINE_MEMORY >> 20);
  Tok *t = SL_NEW (pp->line, Tok);
  t->param = -1;
  t->pre = "";
  return t;
}

static Tok *
tok_copy (Pp *pp, const Tok *src)
{
  Tok *t = tok_new (pp);
  *t = *src;
  return t;
}

static gboolean
is_punct (const Tok *t, const char *p)
{
  return t && t->kind == TK_PUNCT && strcmp (t->text, p) == 0;
}

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

/* ------------------------------------------------------------------ */
/* Scanning                                                            */
/* ------------------------------------------------------------------ */

static const char *const punct3[] = { "...", "<<=", ">>=" };
static const char *const punct2[] = {
  "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=",
  "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", "::"
};

static gboolean
is_ident_char (unsigned char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* Length and kind of the token at @s (at most @n bytes, n ≥ 1). */
static size_t
scan_token (const char *s, size_t n, TokKind *kind, gboolean *unterminated)
{
  unsigned char c = s[0];
  size_t i = 1;
  *unterminated = FALSE;
  if (g_ascii_isalpha (c) || c == '_')
    {
      while (i < n && is_ident_char (s[i]))
        i++;
      *kind = TK_IDENT;
      return i;
    }
  if (g_ascii_isdigit (c) || (c == '.' && n > 1 && g_ascii_isdigit (s[1])))
    {
      while (i < n)
        {
          char d = s[i];
          if ((d == '+' || d == '-') && strchr ("eEpP", s[i - 1]))
            i++;
          else if (is_ident_char (d) || d == '.')
            i++;
          else
            break;
        }
      *kind = TK_NUMBER;
      return i;
    }
  if (c == '"' || c == '\'')
    {
      while (i < n && s[i] != (char) c && s[i] != '\n')
        {
          if (s[i] == '\\' && i + 1 < n && s[i + 1] != '\n')
            i++;
          i++;
        }
      if (i < n && s[i] == (char) c)
        i++;
      else
        *unterminated = TRUE;
      *kind = c == '"' ? TK_STRING : TK_CHAR;
      return i;
    }
  *kind = TK_PUNCT;
  for (guint k = 0; k < G_N_ELEMENTS (punct3); k++)
    if (n >= 3 && strncmp (s, punct3[k], 3) == 0)
      return 3;
  for (guint k = 0; k < G_N_ELEMENTS (punct2); k++)
    if (n >= 2 && strncmp (s, punct2[k], 2) == 0)
      return 2;
  if (strchr ("+-*/%<>=!&|^~?:;,.()[]{}#", c) && c)
    return 1;
  *kind = TK_OTHER;
  while (i < n && ((unsigned char) s[i] & 0xC0) == 0x80)
    i++;
  return i;
}

/* ------------------------------------------------------------------ */
/* Files                                                               */
/* ------------------------------------------------------------------ */

/* Decodes @data to UTF-8 (dropping a BOM, converting UTF-16) and splices
 * lines; returns NULL after a fatal error. */
static File *
file_new (Pp *pp, const char *data, size_t len, const char *name,
          const char *path, const Tok *where)
{
  const char *wfile = where ? where->file : name;
  int wline = where ? where->line : 0, wcol = where ? where->col : 0;
  if (len > MAX_FILE_SIZE)
    {
      fatal_at (pp, wfile, wline, wcol, "source \"%s\" is larger than %zu MiB",
                name, MAX_FILE_SIZE >> 20);
      return NULL;
    }

  char *text = NULL;
  size_t n = 0;
  const unsigned char *u = (const unsigned char *) data;
  if (len >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF)))
    {
      GError *err = NULL;
      gsize written = 0;
      text = g_convert (data + 2, len - 2, "UTF-8",
                        u[0] == 0xFF ? "UTF-16LE" : "UTF-16BE",
                        NULL, &written, &err);
      if (!text)
        {
          fatal_at (pp, wfile, wline, wcol, "cannot decode UTF-16 source \"%s\": %s",
                    name, err->message);
          g_error_free (err);
          return NULL;
        }
      n = written;
    }
  else
    {
      if (len >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF)
        data += 3, len -= 3;
      text = g_malloc (len + 1);
      memcpy (text, data, len);
      text[len] = 0;
      n = len;
    }

  gboolean had_nul = FALSE;
  for (size_t i = 0; i < n; i++)
    if (text[i] == 0)
      text[i] = ' ', had_nul = TRUE;
  if (had_nul)
    report (pp, SL_SEVERITY_WARNING, wfile, wline, wcol,
            "\"%s\" contains null characters; they were read as spaces", name);
  if (!g_utf8_validate (text, n, NULL))
    {
      char *valid = g_utf8_make_valid (text, n);
      g_free (text);
      text = valid;
      n = strlen (text);
      report (pp, SL_SEVERITY_WARNING, wfile, wline, wcol,
              "\"%s\" is not valid UTF-8; bad bytes were replaced", name);
    }

  /* Normalise CR and CRLF to LF and remove backslash-newlines (trailing
   * blanks between the two are tolerated, as most compilers do). */
  GString *o = g_string_sized_new (n + 1);
  GArray *spl = g_array_new (FALSE, FALSE, sizeof (size_t));
  for (size_t i = 0; i < n; i++)
    {
      char c = text[i];
      if (c == '\\')
        {
          size_t j = i + 1;
          while (j < n && (text[j] == ' ' || text[j] == '\t'))
            j++;
          if (j < n && (text[j] == '\n' || text[j] == '\r'))
            {
              if (text[j] == '\r' && j + 1 < n && text[j + 1] == '\n')
                j++;
              i = j;
              size_t at = o->len;
              g_array_append_val (spl, at);
              continue;
            }
        }
      if (c == '\r')
        {
          c = '\n';
          if (i + 1 < n && text[i + 1] == '\n')
            i++;
        }
      g_string_append_c (o, c);
    }
  g_free (text);

  File *f = g_new0 (File, 1);
  f->len = o->len;
  f->buf = g_string_free (o, FALSE);
  f->n_splices = spl->len;
  f->splices = (size_t *) g_array_free (spl, FALSE);
  f->phys = 1;
  f->col = 1;
  f->name = intern (pp, name);
  f->path = path ? intern (pp, path) : NULL;
  f->cond_base = pp->conds->len;
  while (f->next_splice < f->n_splices && f->splices[f->next_splice] == 0)
    f->phys++, f->next_splice++;
  f->last_nl_line = 1;
  f->last_nl_col = 1;
  return f;
}

static void
file_free (File *f)
{
  g_free (f->buf);
  g_free (f->splices);
  g_free (f);
}

static void
fadvance (File *f)
{
  unsigned char c = f->buf[f->pos++];
  if (c == '\n')
    {
      f->phys++;
      f->col = 1;
    }
  else if ((c & 0xC0) != 0x80)
    f->col++;
  while (f->next_splice < f->n_splices && f->splices[f->next_splice] == f->pos)
    {
      f->phys++;
      f->col = 1;
      f->next_splice++;
    }
}

static File *
top_file (Pp *pp)
{
  return pp->files->len ? pp->files->pdata[pp->files->len - 1] : NULL;
}

/* ------------------------------------------------------------------ */
/* Lexing one logical line                                             */
/* ------------------------------------------------------------------ */

/* Lexes the next logical line of @f into @toks; FALSE at end of file.
 * Comments become whitespace; a block comment spanning lines joins them
 * into one logical line, as in C. */
static gboolean
lex_line (Pp *pp, File *f, GPtrArray *toks)
{
  g_ptr_array_set_size (toks, 0);
  if (f->pos >= f->len)
    return FALSE;
  GString *pre = pp->pre;
  g_string_truncate (pre, 0);
  int pre_line = f->phys;
  gboolean ws = TRUE;   /* the line break before the line */
  gboolean too_long = FALSE;

  f->line_end_phys = f->phys;
  while (f->pos < f->len)
    {
      if (f->phys != pre_line)
        {
          g_string_truncate (pre, 0);
          pre_line = f->phys;
        }
      const char *s = f->buf + f->pos;
      char c = *s;
      if (c == '\n')
        {
          f->line_end_phys = f->phys;
          f->line_end_off = f->pos;
          f->last_nl_line = f->phys + f->delta;
          f->last_nl_col = f->col;
          fadvance (f);
          return TRUE;
        }
      if (c == ' ' || c == '\t' || c == '\v' || c == '\f')
        {
          g_string_append_c (pre, c);
          ws = TRUE;
          fadvance (f);
          continue;
        }
      if (c == '/' && s[1] == '/')
        {
          while (f->pos < f->len && f->buf[f->pos] != '\n')
            fadvance (f);
          ws = TRUE;
          continue;
        }
      if (c == '/' && s[1] == '*')
        {
          int line = f->phys + f->delta, col = f->col;
          fadvance (f);
          fadvance (f);
          g_string_append (pre, "  ");
          ws = TRUE;
          for (;;)
            {
              if (f->pos >= f->len)
                {
                  report (pp, SL_SEVERITY_ERROR, f->name, line, col,
                          "unterminated comment");
                  break;
                }
              if (f->phys != pre_line)
                {
                  g_string_truncate (pre, 0);
                  pre_line = f->phys;
                }
              if (f->buf[f->pos] == '*' && f->buf[f->pos + 1] == '/')
                {
                  fadvance (f);
                  fadvance (f);
                  g_string_append (pre, "  ");
                  break;
                }
              unsigned char d = f->buf[f->pos];
              fadvance (f);
              if (d != '\n' && (d & 0xC0) != 0x80)
                g_string_append_c (pre, ' ');
            }
          continue;
        }

      TokKind kind;
      gboolean unterminated;
      size_t n = scan_token (s, f->len - f->pos, &kind, &unterminated);
      if (toks->len >= MAX_LINE_TOKENS)
        {
          if (!too_long && !pp->skipping)
            report (pp, SL_SEVERITY_ERROR, f->name, f->phys + f->delta, f->col,
                    "line has more than %d tokens; the rest is ignored",
                    MAX_LINE_TOKENS);
          too_long = TRUE;
          for (size_t i = 0; i < n; i++)
            fadvance (f);
          continue;
        }
      Tok *t = tok_new (pp);
      t->kind = kind;
      t->text = sl_arena_strndup (pp->line, s, n);
      t->pre = sl_arena_strndup (pp->line, pre->str, pre->len);
      t->file = f->name;
      t->line = f->phys + f->delta;
      t->col = f->col;
      t->seq = ++pp->seq;
      t->off = f->pos;
      t->flags = ws ? TF_WS : 0;
      if (unterminated && !pp->skipping)
        {
          error_at (pp, t, "missing terminating %c character", c);
          t->flags |= TF_BAD;
        }
      for (size_t i = 0; i < n; i++)
        fadvance (f);
      g_ptr_array_add (toks, t);
      ws = FALSE;
      g_string_truncate (pre, 0);
      pre_line = f->phys;
    }
  f->line_end_phys = f->phys;
  f->line_end_off = f->pos;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

static void
out_check (Pp *pp)
{
  if (pp->out->len > pp->max_output && !pp->fatal)
    fatal_at (pp, pp->main_name, 0, 0,
              "preprocessed output is larger than %zu bytes", pp->max_output);
}

static void
out_text (Pp *pp, const char *s)
{
  if (!*s)
    return;
  g_string_append (pp->out, s);
  pp->out_col += (int) g_utf8_strlen (s, -1);
  pp->last_char = s[strlen (s) - 1];
}

static void
out_newline (Pp *pp)
{
  g_string_append_c (pp->out, '\n');
  pp->out_col = 1;
  pp->last_char = '\n';
}

static void
append_escaped (GString *s, const char *text)
{
  for (; *text; text++)
    {
      if (*text == '"' || *text == '\\')
        g_string_append_c (s, '\\');
      g_string_append_c (s, *text);
    }
}

/* Makes the current output line the one for @line of @file. */
static void
out_sync (Pp *pp, const char *file, int line)
{
  if (file == pp->out_file && line >= pp->out_line
      && line - pp->out_line <= MAX_BLANK_LINES)
    {
      while (pp->out_line < line)
        {
          out_newline (pp);
          pp->out_line++;
        }
      return;
    }
  if (pp->out_col > 1)
    out_newline (pp);
  g_string_append_printf (pp->out, "#line %d \"", line);
  append_escaped (pp->out, file);
  g_string_append (pp->out, "\"\n");
  pp->out_file = file;
  pp->out_line = line;
  pp->out_col = 1;
  pp->last_char = '\n';
}

/* Whether writing @b right after @a would lex differently from the two
 * tokens (e.g. `-` `-` becoming `--`). */
static gboolean
paste_hazard (char a, char b)
{
  static const char joiners[] = "+-*/%<>=!&|^#:.";
  if (a == 0 || a == '\n' || a == ' ' || a == '\t')
    return FALSE;
  if (is_ident_char (a) && is_ident_char (b))
    return TRUE;
  if (strchr (joiners, a) && strchr (joiners, b) && b)
    return TRUE;
  return (a == '.' && g_ascii_isdigit (b)) || (g_ascii_isdigit (a) && b == '.');
}

static void
emit_tok (Pp *pp, const Tok *t)
{
  if (t->kind == TK_PLACEMARKER || pp->fatal)
    return;
  out_sync (pp, t->file, t->line);
  if (!(t->flags & TF_MACRO))
    {
      /* Source text keeps its columns: reuse the original whitespace (tabs
       * included) when it lands on the right column, else pad. */
      gboolean neighbour = pp->last_src && pp->last_seq + 1 == t->seq;
      if (pp->out_col + (int) g_utf8_strlen (t->pre, -1) == t->col
          && (t->pre[0] || neighbour || !paste_hazard (pp->last_char, t->text[0])))
        out_text (pp, t->pre);
      else if (pp->out_col < t->col)
        {
          while (pp->out_col < t->col)
            {
              g_string_append_c (pp->out, ' ');
              pp->out_col++;
            }
          pp->last_char = ' ';
        }
      else if (t->pre[0] || (t->flags & TF_WS)
               || paste_hazard (pp->last_char, t->text[0]))
        out_text (pp, " ");
    }
  else if (pp->out_col > 1
           && ((t->flags & TF_WS) || paste_hazard (pp->last_char, t->text[0])))
    out_text (pp, " ");
  out_text (pp, t->text);
  pp->last_src = !(t->flags & TF_MACRO);
  pp->last_seq = t->seq;
  out_check (pp);
}

/* Writes a directive line (a passed-through #pragma) as it was. */
static void
emit_line (Pp *pp, GPtrArray *toks)
{
  const Tok *hash = toks->pdata[0];
  out_sync (pp, hash->file, hash->line);
  if (pp->out_col > 1)
    {
      /* Only #line games can put a directive on an occupied line. */
      out_newline (pp);
      pp->out_file = NULL;
      out_sync (pp, hash->file, hash->line);
    }
  for (guint i = 0; i < toks->len; i++)
    {
      const Tok *t = toks->pdata[i];
      if (t->pre[0])
        out_text (pp, t->pre);
      else if (i > 0 && (t->flags & TF_WS))
        out_text (pp, " ");
      out_text (pp, t->text);
    }
  pp->last_src = FALSE;
  out_check (pp);
}

/* ------------------------------------------------------------------ */
/* Macro expansion                                                     */
/* ------------------------------------------------------------------ */

static void expand_stream (Pp *pp, Input *in, GPtrArray *collect);

static gboolean
fetch_line (Pp *pp, Input *in)
{
  File *f = top_file (pp);
  if (pp->pushback || pp->fatal || !f)
    return FALSE;
  for (;;)
    {
      if (!lex_line (pp, f, pp->line_b))
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
  return in->stack->len ? g_ptr_array_steal_index (in->stack, in->stack->len - 1)
                        : NULL;
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
    emit_tok (pp, t);
}

static GPtrArray *
expand_list (Pp *pp, GPtrArray *toks, gboolean if_mode)
{
  GPtrArray *result = g_ptr_array_new ();
  Input sub = { g_ptr_array_sized_new (toks->len), FALSE, if_mode };
  for (guint i = toks->len; i-- > 0;)
    g_ptr_array_add (sub.stack, toks->pdata[i]);
  expand_stream (pp, &sub, result);
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
        append_escaped (s, t->text);
      else
        g_string_append (s, t->text);
    }
  g_string_append_c (s, '"');
  Tok *r = tok_copy (pp, at);
  r->kind = TK_STRING;
  r->text = sl_arena_strndup (pp->line, s->str, s->len);
  r->param = -1;
  g_string_free (s, TRUE);
  return r;
}

static Tok *
placemarker (Pp *pp)
{
  Tok *t = tok_new (pp);
  t->kind = TK_PLACEMARKER;
  t->text = "";
  return t;
}

/* Pastes two tokens; NULL (after an error) when the result is not one
 * valid token. */
static Tok *
paste (Pp *pp, const Tok *a, const Tok *b, const Tok *where)
{
  if (a->kind == TK_PLACEMARKER)
    return (Tok *) b;
  if (b->kind == TK_PLACEMARKER)
    return (Tok *) a;
  char *text = g_strconcat (a->text, b->text, NULL);
  size_t n = strlen (text);
  TokKind kind;
  gboolean unterminated;
  size_t used = scan_token (text, n, &kind, &unterminated);
  if (used != n || unterminated)
    {
      error_at (pp, where,
                "pasting \"%s\" and \"%s\" does not give a valid preprocessing token",
                a->text, b->text);
      g_free (text);
      return NULL;
    }
  Tok *r = tok_copy (pp, a);
  r->kind = kind;
  r->text = sl_arena_strndup (pp->line, text, n);
  r->hs = hs_union (pp, a->hs, b->hs);
  g_free (text);
  return r;
}

static void
add_arg (Pp *pp, GPtrArray *r, GPtrArray *arg, const Tok *param)
{
  for (guint i = 0; i < arg->len; i++)
    {
      Tok *t = arg->pdata[i];
      if (i == 0)
        {
          t = tok_copy (pp, t);
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
      gboolean before_paste = i + 1 < m->n_body && is_punct (&m->body[i + 1], "##");
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
              g_ptr_array_add (rtoks, stringize (pp, args[m->body[i + 1].param], rhs));
              i++;
            }
          else
            g_ptr_array_add (rtoks, (gpointer) rhs);
          const Tok *lhs = r->len ? r->pdata[r->len - 1] : placemarker (pp);
          const Tok *first = rtoks->len ? rtoks->pdata[0] : placemarker (pp);
          Tok *p = paste (pp, lhs, first, name);
          if (r->len)
            g_ptr_array_set_size (r, r->len - 1);
          if (p)
            g_ptr_array_add (r, p);
          else
            {
              g_ptr_array_add (r, (gpointer) lhs);
              g_ptr_array_add (r, (gpointer) first);
            }
          for (guint k = 1; k < rtoks->len; k++)
            g_ptr_array_add (r, rtoks->pdata[k]);
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
                expanded[b->param] = expand_list (pp, a, in->if_mode);
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
      Tok *t = tok_copy (pp, src);
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
    fatal_at (pp, name->file, name->line, name->col,
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
        error_at (pp, name, "unterminated argument list invoking macro '%s'",
                  m->name);
      free_args (args, n_list);
      return;
    }
  if (too_many)
    {
      error_at (pp, name, "too many arguments for macro '%s' (limit %d)",
                m->name, MAX_MACRO_ARGS);
      free_args (args, n_list);
      return;
    }
  int n = (int) n_list;
  if (m->n_params == 0 && n == 1 && args[0]->len == 0)
    n = 0;
  if (m->variadic ? n < m->n_params - 1 : n != m->n_params)
    {
      error_at (pp, name, "macro '%s' expects %s%d argument%s, got %d", m->name,
                m->variadic ? "at least " : "",
                m->variadic ? m->n_params - 1 : m->n_params,
                (m->variadic ? m->n_params - 1 : m->n_params) == 1 ? "" : "s", n);
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
  Tok *r = tok_copy (pp, at);
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
      error_at (pp, op, "operator 'defined' requires an identifier");
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
              error_at (pp, op, "missing ')' after 'defined'");
              if (c)
                g_ptr_array_add (in->stack, c);
            }
        }
    }
  return number_tok (pp, op, value ? "1" : "0", TK_NUMBER);
}

static void
expand_stream (Pp *pp, Input *in, GPtrArray *collect)
{
  if (++pp->depth > SL_PP_MAX_EXPANSION)
    {
      const Tok *t = in->stack->len ? in->stack->pdata[in->stack->len - 1] : NULL;
      if (!pp->fatal)
        fatal_at (pp, t ? t->file : pp->main_name, t ? t->line : 0, t ? t->col : 0,
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
              if (m->builtin == BUILTIN_FILE)
                {
                  GString *s = g_string_new ("\"");
                  append_escaped (s, t->file);
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

/* ------------------------------------------------------------------ */
/* #if expressions                                                     */
/* ------------------------------------------------------------------ */

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
} Ev;

static const Tok *
ev_peek (Ev *e)
{
  return e->i < e->t->len ? e->t->pdata[e->i] : NULL;
}

static void G_GNUC_PRINTF (3, 4)
ev_error (Ev *e, const Tok *at, const char *format, ...)
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
  error_at (e->pp, at, "%s", msg);
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
      ev_error (e, t, "invalid integer constant '%s' in #if", s);
      return FALSE;
    }
  guint64 v = 0;
  for (; i < len; i++)
    {
      int d = g_ascii_xdigit_value (s[i]);
      if (d < 0 || (unsigned) d >= base)
        {
          ev_error (e, t, "invalid integer constant '%s' in #if", s);
          return FALSE;
        }
      if (v > (G_MAXUINT64 - (guint64) d) / base)
        {
          ev_error (e, t, "integer constant '%s' is too large", s);
          return FALSE;
        }
      v = v * base + (guint64) d;
    }
  out->v = (gint64) v;
  out->u = u || v > (guint64) G_MAXINT64;
  return TRUE;
}

static Val ev_cond (Ev *e, gboolean live);

static Val
ev_unary (Ev *e, gboolean live)
{
  Val zero = { 0, FALSE };
  const Tok *t = ev_peek (e);
  if (!t)
    {
      ev_error (e, e->t->len ? e->t->pdata[e->t->len - 1] : NULL,
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
            ev_error (e, ev_peek (e) ? ev_peek (e) : t, "missing ')' in #if expression");
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
        ev_error (e, t, "invalid character constant %s in #if", t->text);
      return v;
    }
  if (t->kind == TK_IDENT)
    return zero;   /* identifiers left after expansion count as 0 */
  ev_error (e, t, "token '%s' is not valid in #if expressions", t->text);
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
            ev_error (e, op, "division by zero in #if");
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
  Val a = ev_cond (e, live && c.v != 0);
  if (!is_punct (ev_peek (e), ":"))
    {
      ev_error (e, ev_peek (e) ? ev_peek (e) : question, "expected ':' in #if expression");
      return c;
    }
  e->i++;
  Val b = ev_cond (e, live && c.v == 0);
  Val r = c.v ? a : b;
  r.u = a.u || b.u;
  return r;
}

/* Evaluates the tokens after the directive name; errors count as false. */
static gboolean
eval_if (Pp *pp, GPtrArray *toks, guint start)
{
  const Tok *dir = toks->pdata[1];
  if (start >= toks->len)
    {
      error_at (pp, dir, "#%s with no expression", dir->text);
      return FALSE;
    }
  GPtrArray *rest = g_ptr_array_new ();
  for (guint i = start; i < toks->len; i++)
    g_ptr_array_add (rest, toks->pdata[i]);
  int errors_before = pp->n_errors;
  GPtrArray *x = expand_list (pp, rest, TRUE);
  g_ptr_array_free (rest, TRUE);
  /* An error while expanding (a bad 'defined', a macro's arguments)
   * already explains the line; evaluating the rest would only add a
   * confusing second message about the tokens left behind. */
  Ev e = { pp, x, 0, pp->n_errors != errors_before, dir };
  Val v = { 0, FALSE };
  if (e.failed)
    ;
  else if (x->len == 0)
    ev_error (&e, dir, "#%s with no expression", dir->text);
  else
    {
      v = ev_cond (&e, TRUE);
      if (!e.failed && e.i < x->len)
        {
          const Tok *t = x->pdata[e.i];
          ev_error (&e, t, "missing binary operator before token '%s'", t->text);
        }
    }
  g_ptr_array_free (x, TRUE);
  return !e.failed && v.v != 0;
}

/* ------------------------------------------------------------------ */
/* Directives                                                          */
/* ------------------------------------------------------------------ */

static void
macro_free (gpointer data)
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
      || a->n_params != b->n_params || a->n_body != b->n_body || a->builtin || b->builtin)
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

static void
extra_tokens (Pp *pp, GPtrArray *toks, guint i, const char *directive)
{
  if (i < toks->len)
    warning_at (pp, (const Tok *) toks->pdata[i],
                "extra tokens at end of #%s directive", directive);
}

/* #define: toks[start] is the macro name. */
static void
do_define (Pp *pp, GPtrArray *toks, guint start)
{
  const Tok *at = toks->pdata[start - 1];
  if (start >= toks->len)
    {
      error_at (pp, at, "no macro name given in #define directive");
      return;
    }
  const Tok *n = toks->pdata[start];
  if (n->kind != TK_IDENT)
    {
      error_at (pp, n, "macro names must be identifiers, not '%s'", n->text);
      return;
    }
  if (strcmp (n->text, "defined") == 0)
    {
      error_at (pp, n, "'defined' cannot be used as a macro name");
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
              error_at (pp, n, "missing ')' in parameter list of macro '%s'", n->text);
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
                    error_at (pp, t, "duplicate macro parameter '%s'", t->text);
                    goto bad;
                  }
              if (params->len >= MAX_MACRO_ARGS)
                {
                  error_at (pp, t, "macro '%s' has too many parameters (limit %d)",
                            n->text, MAX_MACRO_ARGS);
                  goto bad;
                }
              g_ptr_array_add (params, g_strdup (t->text));
            }
          else
            {
              error_at (pp, t, "expected a parameter name, found '%s'", t->text);
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
              error_at (pp, sep, "expected ',' or ')' in parameter list, found '%s'",
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
          macro_free (m);
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
          error_at (pp, b, "'##' cannot appear at either end of a macro expansion");
          macro_free (m);
          return;
        }
      if (m->function_like && is_punct (b, "#")
          && (k + 1 >= m->n_body || m->body[k + 1].param < 0))
        {
          error_at (pp, b, "'#' is not followed by a macro parameter");
          macro_free (m);
          return;
        }
    }

  const Macro *old = g_hash_table_lookup (pp->macros, m->name);
  if (old && old->builtin)
    warning_at (pp, n, "redefining builtin macro '%s'", m->name);
  else if (old && !macro_same (old, m))
    {
      warning_at (pp, n, "'%s' redefined", m->name);
      report (pp, SL_SEVERITY_NOTE, old->file, old->line, old->col,
              "previous definition of '%s' is here", old->name);
    }
  g_hash_table_replace (pp->macros, m->name, m);
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
          const char *k = intern (pp, real);
          free (real);
          return k;
        }
    }
  return intern (pp, path);
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
      GPtrArray *x = expand_list (pp, rest, FALSE);
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
  File *nf = file_new (pp, data, len, path, path, where);
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
  GPtrArray *x = expand_list (pp, rest, FALSE);
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
      f->name = intern (pp, s);
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
            v = eval_if (pp, toks, 2);
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
          c->active = c->taken = eval_if (pp, toks, 2);
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
    do_define (pp, toks, 2);
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
      report (pp, name[0] == 'e' ? SL_SEVERITY_ERROR : SL_SEVERITY_WARNING,
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
        emit_line (pp, toks);
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
      report (pp, SL_SEVERITY_ERROR, f->name, line, col,
              "unterminated %s (opened at line %d)", c->kind, c->line);
    }
  g_array_set_size (pp->conds, f->cond_base);
  update_skipping (pp);
  g_ptr_array_remove_index (pp->files, pp->files->len - 1);
  file_free (f);
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
          if (!lex_line (pp, f, pp->line_a))
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
      expand_stream (pp, &in, NULL);
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
      report (pp, SL_SEVERITY_ERROR, "<command-line>", 0, 0,
              "invalid predefined macro \"%s\"", def);
      return;
    }
  char *line = eq ? g_strdup_printf ("#define %.*s %s", (int) (eq - def), def, eq + 1)
                  : g_strdup_printf ("#define %s 1", def);
  File *f = file_new (pp, line, strlen (line), "<command-line>", NULL, NULL);
  g_free (line);
  if (!f)
    return;
  if (lex_line (pp, f, pp->line_a) && pp->line_a->len > 2)
    do_define (pp, pp->line_a, 2);
  else
    report (pp, SL_SEVERITY_ERROR, "<command-line>", 0, 0,
            "invalid predefined macro \"%s\"", def);
  file_free (f);
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
  pp.macros = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, macro_free);
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
  pp.main_name = intern (&pp, options->filename ? options->filename : "<source>");

  add_builtin (&pp, "__LINE__", BUILTIN_LINE);
  add_builtin (&pp, "__FILE__", BUILTIN_FILE);
  for (const char *const *d = options->defines; d && *d && !pp.fatal; d++)
    predefine (&pp, *d);

  File *main_file = pp.fatal ? NULL
                    : file_new (&pp, source, length, pp.main_name, options->filename, NULL);
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
        out_newline (&pp);
      result = g_string_free (pp.out, FALSE);
    }
  else
    g_string_free (pp.out, TRUE);

  while (pp.files->len)
    {
      file_free (top_file (&pp));
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
