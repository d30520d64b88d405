/* HLSL lexer: preprocessed text → tokens.
 *
 * The preprocessor leaves "#line N "file"" markers, which move the
 * location, and "#pragma" lines, which become TK_PRAGMA tokens for the
 * parser (pack_matrix, parameter).  Keywords are identifiers; the parser
 * tells them apart. */
#include "base/diag.h"
#include "hlsl/hlsl.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *const puncts[] = {
  "<<=", ">>=", "...", "::",
  "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
  "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
};

Token *
sl_hlsl_tokenize (SlArena *arena, const char *text, const char *filename,
                  SlDiagnostics *diags, int *n_tokens)
{
  GArray *toks = g_array_new (FALSE, TRUE, sizeof (Token));
  const char *file = sl_arena_strdup (arena, filename ? filename : "<source>");
  int line = 1;
  const char *line_start = text;
  const char *p = text;
  bool at_line_start = true;
  int errors = 0;

  while (*p)
    {
      if (*p == '\n')
        {
          p++;
          line++;
          line_start = p;
          at_line_start = true;
          continue;
        }
      if (isspace ((unsigned char) *p))
        {
          p++;
          continue;
        }
      SlLoc loc = { file, line, (int) (p - line_start) + 1 };
      if (*p == '#' && at_line_start)
        {
          const char *q = p + 1;
          while (*q == ' ' || *q == '\t')
            q++;
          const char *eol = strchr (q, '\n');
          if (!eol)
            eol = q + strlen (q);
          if (!strncmp (q, "line", 4) && (q[4] == ' ' || q[4] == '\t'))
            {
              char *end;
              long n = strtol (q + 4, &end, 10);
              while (*end == ' ' || *end == '\t')
                end++;
              if (*end == '"')
                {
                  const char *close = memchr (end + 1, '"', eol - end - 1);
                  if (close)
                    file = sl_arena_strndup (arena, end + 1, close - end - 1);
                }
              /* The line after the marker is line n. */
              line = (int) n - 1;
            }
          else if (!strncmp (q, "pragma", 6))
            {
              Token t = { .kind = TK_PRAGMA, .loc = loc };
              const char *b = q + 6;
              while (*b == ' ' || *b == '\t')
                b++;
              t.text = sl_arena_strndup (arena, b, eol - b);
              t.len = eol - b;
              g_array_append_val (toks, t);
            }
          /* Other directives were handled by the preprocessor. */
          p = eol;
          continue;
        }
      at_line_start = false;

      Token t = { .loc = loc };
      if (isalpha ((unsigned char) *p) || *p == '_')
        {
          const char *b = p;
          while (isalnum ((unsigned char) *p) || *p == '_')
            p++;
          t.kind = TK_IDENT;
          t.text = sl_arena_strndup (arena, b, p - b);
          t.len = p - b;
        }
      else if (isdigit ((unsigned char) *p) || (*p == '.' && isdigit ((unsigned char) p[1])))
        {
          const char *b = p;
          bool is_float = false;
          if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
            {
              p += 2;
              while (isxdigit ((unsigned char) *p))
                p++;
              t.ival = strtoull (b + 2, NULL, 16);
            }
          else
            {
              while (isdigit ((unsigned char) *p))
                p++;
              if (*p == '.')
                {
                  is_float = true;
                  p++;
                  while (isdigit ((unsigned char) *p))
                    p++;
                }
              if ((*p == 'e' || *p == 'E')
                  && (isdigit ((unsigned char) p[1])
                      || ((p[1] == '+' || p[1] == '-') && isdigit ((unsigned char) p[2]))))
                {
                  is_float = true;
                  p += 2;
                  while (isdigit ((unsigned char) *p))
                    p++;
                }
              if (is_float)
                t.fval = g_ascii_strtod (b, NULL);
              else if (b[0] == '0' && p - b > 1)
                t.ival = strtoull (b, NULL, 8);
              else
                t.ival = strtoull (b, NULL, 10);
            }
          /* Suffixes: f/F/h/H/l/L for floats, u/U/l/L for integers. */
          while (*p && strchr ("fFhHlLuU", *p))
            {
              char s = (char) tolower ((unsigned char) *p);
              if (s == 'f' || s == 'h')
                {
                  if (!is_float)
                    t.fval = (double) t.ival;
                  is_float = true;
                }
              if (!t.suffix || s == 'u')
                t.suffix = s;
              p++;
            }
          if (isalnum ((unsigned char) *p) || *p == '_')
            {
              sl_diag (diags, SL_DIAG_HLSL_NUMBER_SUFFIX, loc.file, loc.line, loc.column,
                       "invalid suffix on number");
              errors++;
              while (isalnum ((unsigned char) *p) || *p == '_')
                p++;
            }
          t.kind = is_float ? TK_FLOAT : TK_INT;
          t.text = sl_arena_strndup (arena, b, p - b);
          t.len = p - b;
        }
      else if (*p == '"')
        {
          const char *b = ++p;
          while (*p && *p != '"' && *p != '\n')
            p += (*p == '\\' && p[1]) ? 2 : 1;
          if (*p != '"')
            {
              sl_diag (diags, SL_DIAG_HLSL_UNTERMINATED_STRING, loc.file, loc.line, loc.column,
                       "unterminated string literal");
              errors++;
            }
          t.kind = TK_STRING;
          t.text = sl_arena_strndup (arena, b, p - b);
          t.len = p - b;
          if (*p == '"')
            p++;
        }
      else
        {
          t.kind = TK_PUNCT;
          int len = 1;
          for (size_t k = 0; k < G_N_ELEMENTS (puncts); k++)
            if (!strncmp (p, puncts[k], strlen (puncts[k])))
              {
                len = strlen (puncts[k]);
                break;
              }
          if (len == 1 && !strchr ("+-*/%<>=!&|^~?:;,.()[]{}", *p))
            {
              if ((unsigned char) *p >= 0x80)
                sl_diag (diags, SL_DIAG_HLSL_NON_ASCII, loc.file, loc.line, loc.column,
                         "unexpected non-ASCII character");
              else
                sl_diag (diags, SL_DIAG_HLSL_UNEXPECTED_CHARACTER, loc.file, loc.line, loc.column,
                         "unexpected character '%c'", *p);
              errors++;
              p++;
              /* Skip the rest of a UTF-8 sequence. */
              while (((unsigned char) *p & 0xc0) == 0x80)
                p++;
              if (errors > 50)
                break;
              continue;
            }
          t.text = sl_arena_strndup (arena, p, len);
          t.len = len;
          p += len;
        }
      g_array_append_val (toks, t);
    }
  Token eof = { .kind = TK_EOF, .text = "", .loc = { file, line, (int) (p - line_start) + 1 } };
  g_array_append_val (toks, eof);
  *n_tokens = toks->len;
  Token *out = SL_NEW_N (arena, Token, toks->len);
  memcpy (out, toks->data, toks->len * sizeof (Token));
  g_array_free (toks, TRUE);
  return out;
}
