/* Reading a source: decoding, line splicing and tokens.
 *
 * A file is prepared once, when it is entered: decoded to UTF-8 (a BOM is
 * dropped, UTF-16 converted, bad bytes replaced and NULs read as spaces,
 * each with a warning), its line endings normalised to LF and its
 * backslash-newlines spliced out.  The offsets of the splices are kept, so
 * the lexer still knows the physical line and column of every byte and
 * diagnostics point at what the author sees.  The lexer then takes one
 * logical line at a time: comments become whitespace (a block comment
 * that spans lines joins them into one logical line, as in C) and each
 * token remembers its position, the whitespace before it and its order,
 * which is all the emitter needs to reproduce the source's layout. */
#include "preprocess/pp_internal.h"

Tok *
sl_pp_tok_new (Pp *pp)
{
  if (sl_arena_total (pp->line) > MAX_LINE_MEMORY && !pp->fatal)
    fatal_at (pp, pp->main_name, 0, 0, SL_DIAG_PP_LINE_MEMORY,
              "macro expansion of one line needs more than %zu MiB",
              MAX_LINE_MEMORY >> 20);
  Tok *t = SL_NEW (pp->line, Tok);
  t->param = -1;
  t->pre = "";
  return t;
}

Tok *
sl_pp_tok_copy (Pp *pp, const Tok *src)
{
  Tok *t = sl_pp_tok_new (pp);
  *t = *src;
  return t;
}

static const char *const punct3[] = { "...", "<<=", ">>=" };
static const char *const punct2[] = {
  "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=",
  "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", "::"
};

/* Length and kind of the token at @s (at most @n bytes, n ≥ 1). */
size_t
sl_pp_scan_token (const char *s, size_t n, TokKind *kind,
                  gboolean *unterminated)
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

/* Decodes @data to UTF-8 (dropping a BOM, converting UTF-16) and splices
 * lines; returns NULL after a fatal error. */
File *
sl_pp_file_new (Pp *pp, const char *data, size_t len, const char *name,
                const char *path, const Tok *where)
{
  const char *wfile = where ? where->file : name;
  int wline = where ? where->line : 0, wcol = where ? where->col : 0;
  if (len > MAX_FILE_SIZE)
    {
      fatal_at (pp, wfile, wline, wcol, SL_DIAG_PP_SOURCE_TOO_LARGE,
                "source \"%s\" is larger than %zu MiB",
                name, MAX_FILE_SIZE >> 20);
      return NULL;
    }

  char *text = NULL;
  size_t n = 0;
  const unsigned char *u = (const unsigned char *) data;
  if (len >= 2
      && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF)))
    {
      GError *err = NULL;
      gsize written = 0;
      text = g_convert (data + 2, len - 2, "UTF-8",
                        u[0] == 0xFF ? "UTF-16LE" : "UTF-16BE",
                        NULL, &written, &err);
      if (!text)
        {
          fatal_at (pp, wfile, wline, wcol, SL_DIAG_PP_UTF16,
                    "cannot decode UTF-16 source \"%s\": %s",
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
    sl_pp_report (pp, SL_DIAG_PP_NULL_CHARACTERS, wfile, wline, wcol,
                  "\"%s\" contains null characters; they were read as spaces",
                  name);
  if (!g_utf8_validate (text, n, NULL))
    {
      char *valid = g_utf8_make_valid (text, n);
      g_free (text);
      text = valid;
      n = strlen (text);
      sl_pp_report (pp, SL_DIAG_PP_INVALID_UTF8, wfile, wline, wcol,
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
  f->name = sl_pp_intern (pp, name);
  f->path = path ? sl_pp_intern (pp, path) : NULL;
  f->cond_base = pp->conds->len;
  while (f->next_splice < f->n_splices && f->splices[f->next_splice] == 0)
    f->phys++, f->next_splice++;
  f->last_nl_line = 1;
  f->last_nl_col = 1;
  return f;
}

void
sl_pp_file_free (File *f)
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

/* Lexes the next logical line of @f into @toks; FALSE at end of file.
 * Comments become whitespace; a block comment spanning lines joins them
 * into one logical line, as in C. */
gboolean
sl_pp_lex_line (Pp *pp, File *f, GPtrArray *toks)
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
                  sl_pp_report (pp, SL_DIAG_PP_UNTERMINATED_COMMENT,
                                f->name, line, col,
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
      size_t n = sl_pp_scan_token (s, f->len - f->pos, &kind, &unterminated);
      if (toks->len >= MAX_LINE_TOKENS)
        {
          if (!too_long && !pp->skipping)
            sl_pp_report (pp, SL_DIAG_PP_LINE_TOKENS, f->name,
                          f->phys + f->delta, f->col,
                          "line has more than %d tokens; the rest is ignored",
                          MAX_LINE_TOKENS);
          too_long = TRUE;
          for (size_t i = 0; i < n; i++)
            fadvance (f);
          continue;
        }
      Tok *t = sl_pp_tok_new (pp);
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
          error_at (pp, t, SL_DIAG_PP_MISSING_TERMINATOR,
                    "missing terminating %c character", c);
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
