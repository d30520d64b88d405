/* The .shader_test file format: text helpers, conditions and blocks.
 *
 * A file is read once and split into blocks, one per `[section]` header,
 * each classified by its header (require, pixel shader, other stages,
 * srv/texture, sampler, rtv, ignored resources, test); the lines stay in
 * the file so diagnostics and shader sources keep the file's line
 * numbers.  Comment lines ('%') are blanked rather than removed for the
 * same reason.  A header that cannot be classified becomes a block whose
 * error counts as a failure at every model, like any malformed line.
 *
 * The conditions of qualifiers and directive prefixes, such as
 * "(sm>=4 | glsl)", are evaluated for one shader model at a time; backend
 * tags name other implementations and are always false here. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

const char *
st_skip_ws (const char *p)
{
  while (*p == ' ' || *p == '\t')
    p++;
  return p;
}

static gboolean
is_word_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* Matches @word at @*p as a whole word (followed by a non-word char). */
gboolean
st_match_word (const char **p, const char *word)
{
  const char *s = st_skip_ws (*p);
  size_t      n = strlen (word);

  if (strncmp (s, word, n) != 0 || is_word_char (s[n]))
    return FALSE;
  *p = s + n;
  return TRUE;
}

/* Matches a sequence of words separated by any blank run. */
gboolean
st_match_words (const char **p, const char *words)
{
  const char *s = *p;
  gchar     **parts = g_strsplit (words, " ", -1);
  gboolean    ok = TRUE;

  for (int i = 0; parts[i] && ok; i++)
    if (*parts[i])
      ok = st_match_word (&s, parts[i]);
  g_strfreev (parts);
  if (ok)
    *p = s;
  return ok;
}

gboolean
st_expect_char (const char **p, char c)
{
  const char *s = st_skip_ws (*p);

  if (*s != c)
    return FALSE;
  *p = s + 1;
  return TRUE;
}

gboolean
st_at_end (const char *p)
{
  p = st_skip_ws (p);
  return *p == '\0' || *p == ';';
}

gboolean
st_parse_long (const char **p, long long *out)
{
  const char *s = st_skip_ws (*p);
  char       *end;

  errno = 0;
  *out = strtoll (s, &end, 0);
  if (end == s || errno)
    return FALSE;
  *p = end;
  return TRUE;
}

gboolean
st_parse_ulong (const char **p, unsigned long long *out)
{
  const char *s = st_skip_ws (*p);
  char       *end;

  if (*s == '-')
    {
      long long v;
      if (!st_parse_long (p, &v))
        return FALSE;
      *out = (unsigned long long) v;
      return TRUE;
    }
  errno = 0;
  *out = strtoull (s, &end, 0);
  if (end == s || errno)
    return FALSE;
  *p = end;
  return TRUE;
}

gboolean
st_parse_double (const char **p, double *out)
{
  const char *s = st_skip_ws (*p);
  char       *end;

  /* strtod rather than g_ascii_strtod: we need "inf"/"nan" and hex too,
   * and the runner never changes LC_NUMERIC. */
  *out = strtod (s, &end);
  if (end == s)
    return FALSE;
  *p = end;
  return TRUE;
}

gboolean
st_parse_int (const char **p, int *out)
{
  long long v;

  if (!st_parse_long (p, &v) || v < INT_MIN || v > INT_MAX)
    return FALSE;
  *out = (int) v;
  return TRUE;
}

gboolean
st_parse_version (const char **p, int *code)
{
  const char *s = st_skip_ws (*p);
  int         major = 0, minor = 0;

  if (!g_ascii_isdigit (*s))
    return FALSE;
  while (g_ascii_isdigit (*s))
    major = major * 10 + (*s++ - '0');
  if (*s == '.')
    {
      s++;
      if (!g_ascii_isdigit (*s))
        return FALSE;
      minor = *s++ - '0';
      /* Tag versions such as "mvk<1.2.11" carry more parts; they only
       * ever compare against tags we do not have. */
      while (g_ascii_isdigit (*s) || *s == '.')
        s++;
    }
  *code = major * 10 + minor;
  *p = s;
  return TRUE;
}

typedef struct
{
  const char *p;
  int         model;
  int         depth;
  const char *error;
} CondParser;

static gboolean cond_or (CondParser *cp);

/* An atom is "sm OP version" or a backend tag (glsl, msl, mvk, d3d12, …),
 * optionally compared with a version.  This runner is none of those
 * backends, so every tag is false. */
static gboolean
cond_atom (CondParser *cp)
{
  const char *s = st_skip_ws (cp->p);
  const char *start = s;
  gboolean    is_sm;
  int         op = 0, version = 0;

  /* Bounded so a hostile line of '(' or '!' cannot exhaust the stack. */
  if ((*s == '!' || *s == '(') && ++cp->depth > 32)
    {
      cp->error = "condition nested too deeply";
      return FALSE;
    }
  if (*s == '!')
    {
      gboolean v;
      cp->p = s + 1;
      v = !cond_atom (cp);
      cp->depth--;
      return v;
    }
  if (*s == '(')
    {
      gboolean v;
      cp->p = s + 1;
      v = cond_or (cp);
      cp->depth--;
      if (!cp->error && !st_expect_char (&cp->p, ')'))
        cp->error = "missing ')' in condition";
      return v;
    }
  while (is_word_char (*s) || *s == '-')
    s++;
  if (s == start)
    {
      cp->error = "expected a condition";
      cp->p = s;
      return FALSE;
    }
  is_sm = (s - start == 2 && strncmp (start, "sm", 2) == 0);
  s = st_skip_ws (s);
  if (s[0] == '>' && s[1] == '=')      { op = 1; s += 2; }
  else if (s[0] == '<' && s[1] == '=') { op = 2; s += 2; }
  else if (s[0] == '=' && s[1] == '=') { op = 3; s += 2; }
  else if (s[0] == '!' && s[1] == '=') { op = 4; s += 2; }
  else if (s[0] == '>')                { op = 5; s += 1; }
  else if (s[0] == '<')                { op = 6; s += 1; }
  if (op && !st_parse_version (&s, &version))
    {
      cp->error = "expected a version in condition";
      cp->p = s;
      return FALSE;
    }
  cp->p = s;
  if (!is_sm)
    return FALSE;
  if (!op)
    {
      cp->error = "'sm' needs a comparison";
      return FALSE;
    }
  switch (op)
    {
    case 1: return cp->model >= version;
    case 2: return cp->model <= version;
    case 3: return cp->model == version;
    case 4: return cp->model != version;
    case 5: return cp->model > version;
    default: return cp->model < version;
    }
}

static gboolean
cond_and (CondParser *cp)
{
  gboolean v = cond_atom (cp);

  while (!cp->error && st_expect_char (&cp->p, '&'))
    {
      gboolean r = cond_atom (cp);
      v = v && r;
    }
  return v;
}

static gboolean
cond_or (CondParser *cp)
{
  gboolean v = cond_and (cp);

  while (!cp->error && st_expect_char (&cp->p, '|'))
    {
      gboolean r = cond_and (cp);
      v = v || r;
    }
  return v;
}

/* Parses "(cond)" at @*p.  Returns FALSE with @error set on bad syntax. */
gboolean
st_parse_condition (const char **p, int model, gboolean *value,
                    const char **error)
{
  CondParser cp = { *p, model, 0, NULL };

  if (!st_expect_char (&cp.p, '('))
    {
      *error = "expected '('";
      return FALSE;
    }
  *value = cond_or (&cp);
  if (!cp.error && !st_expect_char (&cp.p, ')'))
    cp.error = "expected ')' after condition";
  if (cp.error)
    {
      *error = cp.error;
      return FALSE;
    }
  *p = cp.p;
  return TRUE;
}

static void
block_clear (gpointer data)
{
  Block *b = data;

  g_free (b->stage);
  g_free (b->qualifiers);
  g_free (b->error);
}

static gboolean
parse_slot_header (const char *inner, const char *name, int *slot)
{
  const char *p = inner;
  int         v;

  if (!st_match_words (&p, name) || !st_parse_int (&p, &v) || !st_at_end (p)
      || v < 0)
    return FALSE;
  *slot = v;
  return TRUE;
}

static void
classify_header (Block *b, const char *text)
{
  static const char *const stages[] = {
    "pixel shader", "vertex shader", "hull shader", "domain shader",
    "geometry shader", "compute shader", "effect", "preproc"
  };
  const char *close = strrchr (text, ']');
  char       *inner;
  const char *p;

  if (!close || *st_skip_ws (close + 1) != '\0')
    {
      b->kind = BLK_BAD;
      b->error = g_strdup ("section header without a closing ']'");
      return;
    }
  inner = g_strndup (text + 1, close - text - 1);
  p = inner;

  if (st_match_word (&p, "require") && st_at_end (p))
    b->kind = BLK_REQUIRE;
  else if ((p = inner, st_match_word (&p, "test")) && st_at_end (p))
    b->kind = BLK_TEST;
  else if (parse_slot_header (inner, "srv", &b->slot)
           || parse_slot_header (inner, "texture", &b->slot))
    b->kind = BLK_SRV;
  else if (parse_slot_header (inner, "sampler", &b->slot))
    b->kind = BLK_SAMPLER;
  else if (parse_slot_header (inner, "rtv", &b->slot))
    b->kind = BLK_RTV;
  else if (parse_slot_header (inner, "uav", &b->slot)
           || parse_slot_header (inner, "vb", &b->slot)
           || (p = inner, st_match_word (&p, "dsv") && st_at_end (p))
           || (p = inner, st_match_words (&p, "input layout") && st_at_end (p)))
    b->kind = BLK_IGNORED;
  else
    {
      b->kind = BLK_BAD;
      for (size_t i = 0; i < G_N_ELEMENTS (stages); i++)
        {
          p = inner;
          if (st_match_words (&p, stages[i]))
            {
              b->stage = g_strdup (stages[i]);
              b->qualifiers = g_strdup (p);
              if (i == 0)
                b->kind = BLK_PIXEL;
              else if (i <= 4)
                b->kind = BLK_PIPELINE;
              else
                b->kind = BLK_OTHER_SHADER;
              break;
            }
        }
      if (b->kind == BLK_BAD)
        b->error = g_strdup_printf ("unknown section '[%s]'", inner);
    }
  g_free (inner);
}

void
st_test_file_free (TestFile *tf)
{
  if (!tf)
    return;
  g_free (tf->path);
  g_strfreev (tf->lines);
  if (tf->blocks)
    g_array_unref (tf->blocks);
  g_free (tf);
}

TestFile *
st_test_file_load (const char *path, GError **error)
{
  TestFile *tf;
  gchar    *text;
  gsize     len;
  Block     cur = { BLK_NONE, 0, 0, 0, 0, NULL, NULL, NULL };

  if (!g_file_get_contents (path, &text, &len, error))
    return NULL;
  if (memchr (text, '\0', len))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "file contains NUL bytes");
      g_free (text);
      return NULL;
    }
  tf = g_new0 (TestFile, 1);
  tf->path = g_strdup (path);
  tf->lines = g_strsplit (text, "\n", -1);
  g_free (text);
  tf->n_lines = (int) g_strv_length (tf->lines);
  tf->blocks = g_array_new (FALSE, TRUE, sizeof (Block));
  g_array_set_clear_func (tf->blocks, block_clear);

  for (int i = 0; i < tf->n_lines; i++)
    {
      char  *line = tf->lines[i];
      size_t n = strlen (line);

      if (n && line[n - 1] == '\r')
        line[--n] = '\0';
      /* '%' starts a comment line everywhere; HLSL never starts a line
       * with '%', so blanking keeps shader line numbers intact. */
      if (st_skip_ws (line)[0] == '%')
        line[0] = '\0';
      if (line[0] == '[')
        {
          cur.end = i;
          g_array_append_val (tf->blocks, cur);
          memset (&cur, 0, sizeof cur);
          cur.header_line = i + 1;
          cur.first = i + 1;
          classify_header (&cur, line);
        }
    }
  cur.end = tf->n_lines;
  g_array_append_val (tf->blocks, cur);
  return tf;
}
