/* Output: expanded tokens written as text the HLSL lexer reads back.
 *
 * The emitter remembers which source line and column the end of the
 * output stands for.  Before each token it brings the output to the
 * token's line, with blank lines for a short gap or a `#line` marker when
 * the gap is long, the file changes or the numbering goes backwards, so
 * every diagnostic of the later stages points into the original files.
 * Text that was not macro-expanded keeps its source columns (its own
 * whitespace, tabs included, or padding); expanded text gets a single
 * space where the source had one, or where two tokens written together
 * would lex as a different token. */
#include "preprocess/pp_internal.h"

static void
out_check (Pp *pp)
{
  if (pp->out->len > pp->max_output && !pp->fatal)
    fatal_at (pp, pp->main_name, 0, 0, SL_DIAG_PP_OUTPUT_TOO_LARGE,
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

void
sl_pp_out_newline (Pp *pp)
{
  g_string_append_c (pp->out, '\n');
  pp->out_col = 1;
  pp->last_char = '\n';
}

void
sl_pp_append_escaped (GString *s, const char *text)
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
          sl_pp_out_newline (pp);
          pp->out_line++;
        }
      return;
    }
  if (pp->out_col > 1)
    sl_pp_out_newline (pp);
  g_string_append_printf (pp->out, "#line %d \"", line);
  sl_pp_append_escaped (pp->out, file);
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

void
sl_pp_emit_tok (Pp *pp, const Tok *t)
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
          && (t->pre[0] || neighbour
              || !paste_hazard (pp->last_char, t->text[0])))
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
void
sl_pp_emit_line (Pp *pp, GPtrArray *toks)
{
  const Tok *hash = toks->pdata[0];
  out_sync (pp, hash->file, hash->line);
  if (pp->out_col > 1)
    {
      /* Only #line games can put a directive on an occupied line. */
      sl_pp_out_newline (pp);
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
