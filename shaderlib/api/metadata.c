/* File metadata: the parts of a shader file that describe it to a host
 * rather than to the compiler.
 *
 * Read from the raw text, never from a compile, so that a file which does
 * not compile still gets its title, menu and labels.  Three sources are
 * read line by line:
 *   - the header block: the leading run of "//" comment lines (and blank
 *     lines) holding "key: value" pairs; a comment line indented by two or
 *     more spaces continues the previous value;
 *   - WPF/Shazzam XML doc comments: consecutive "///" lines attach to the
 *     declaration on the next non-blank line; <summary>, <minValue>,
 *     <maxValue>, <defaultValue> are understood;
 *   - RetroArch "#pragma parameter NAME "Label" DEF MIN MAX [STEP]" lines.
 * The preprocessor ignores all three (comments, unknown pragma), so the
 * compiler needs no knowledge of them.  Docs of one name from several
 * sources are merged, later lines overriding earlier ones field by field.
 * A fourth source, textures annotated with an image file (FX Composer/SAS
 * `string ResourceName = "lut.png"`, ReShade `source = "lut.png"`) and the
 * samplers whose sampler_state names them (`Texture = <lut>`), is read
 * with regular expressions over the comment-free text, as the compiler
 * skips sampler_state blocks.
 */
#include "shaderlib.h"

#include <glib.h>
#include <string.h>

struct SlMetadata
{
  GHashTable *keys;             /* lower-case key → value, owned */
  GPtrArray  *params;           /* SlParamDoc *, strings owned */
  GHashTable *texture_files;    /* texture name → file, owned */
  GHashTable *sampler_textures; /* sampler name → texture name, owned */
};

/* The text with its comments blanked (string literals kept, "//" inside
 * one is not a comment), so that a commented-out declaration does not
 * count. */
static char *
strip_comments (const char *text)
{
  char *out = g_strdup (text);
  char *p = out;
  while (*p)
    {
      if (p[0] == '"')
        {
          for (p++; *p && *p != '"' && *p != '\n'; p++)
            ;
          if (*p == '"')
            p++;
        }
      else if (p[0] == '/' && p[1] == '/')
        while (*p && *p != '\n')
          *p++ = ' ';
      else if (p[0] == '/' && p[1] == '*')
        {
          while (*p && !(p[0] == '*' && p[1] == '/'))
            {
              if (*p != '\n')
                *p = ' ';
              p++;
            }
          if (*p)
            p[0] = p[1] = ' ', p += 2;
        }
      else
        p++;
    }
  return out;
}

static void
scan_textures (SlMetadata *md, const char *text)
{
  char *clean = strip_comments (text);
  /* texture / Texture2D / texture2D … NAME [: SEMANTIC] < annotations > */
  GRegex *decl = g_regex_new ("\\b(?:[Tt]exture(?:[123]D|CUBE|Cube)?)\\s+"
                              "([A-Za-z_]\\w*)\\s*(?::\\s*\\w+\\s*)?<([^>]*)>",
                              0, 0, NULL);
  GRegex *file = g_regex_new ("\\b(?:string\\s+)?(?:ResourceName|source)\\s*=\\s*"
                              "\"([^\"]*)\"", G_REGEX_CASELESS, 0, NULL);
  /* NAME [: register(sN)] [= sampler_state] { … } */
  GRegex *sampler = g_regex_new ("\\b([A-Za-z_]\\w*)\\s*(?::\\s*register\\s*\\([^)]*\\)\\s*)?"
                                 "(?:=\\s*sampler_state\\s*)?\\{([^}]*)\\}", 0, 0, NULL);
  GRegex *ref = g_regex_new ("\\bTexture\\s*=\\s*<?\\s*([A-Za-z_]\\w*)",
                             G_REGEX_CASELESS, 0, NULL);

  GMatchInfo *m;
  g_regex_match (decl, clean, 0, &m);
  while (g_match_info_matches (m))
    {
      char *annotations = g_match_info_fetch (m, 2);
      GMatchInfo *fm;
      if (g_regex_match (file, annotations, 0, &fm))
        g_hash_table_insert (md->texture_files, g_match_info_fetch (m, 1),
                             g_match_info_fetch (fm, 1));
      g_match_info_free (fm);
      g_free (annotations);
      g_match_info_next (m, NULL);
    }
  g_match_info_free (m);

  g_regex_match (sampler, clean, 0, &m);
  while (g_match_info_matches (m))
    {
      char *body = g_match_info_fetch (m, 2);
      GMatchInfo *rm;
      if (g_regex_match (ref, body, 0, &rm))
        g_hash_table_insert (md->sampler_textures, g_match_info_fetch (m, 1),
                             g_match_info_fetch (rm, 1));
      g_match_info_free (rm);
      g_free (body);
      g_match_info_next (m, NULL);
    }
  g_match_info_free (m);

  g_regex_unref (decl);
  g_regex_unref (file);
  g_regex_unref (sampler);
  g_regex_unref (ref);
  g_free (clean);
}

static void
param_doc_free (gpointer data)
{
  SlParamDoc *doc = data;
  g_free ((char *) doc->name);
  g_free ((char *) doc->label);
  g_free ((char *) doc->summary);
  g_free (doc);
}

static SlParamDoc *
param_doc_get (SlMetadata *md, const char *name, size_t len)
{
  for (guint i = 0; i < md->params->len; i++)
    {
      SlParamDoc *doc = g_ptr_array_index (md->params, i);
      if (strlen (doc->name) == len && !strncmp (doc->name, name, len))
        return doc;
    }
  SlParamDoc *doc = g_new0 (SlParamDoc, 1);
  doc->name = g_strndup (name, len);
  g_ptr_array_add (md->params, doc);
  return doc;
}

static bool
is_ident_start (char c)
{
  return g_ascii_isalpha (c) || c == '_';
}

static bool
is_ident_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* "#RRGGBB" / "#AARRGGBB" (the WPF colour syntax) or numbers separated by
 * commas and blanks.  Returns the number of components read. */
static int
parse_values (const char *text, double *out, int max)
{
  const char *p = text;
  int n = 0;
  while (g_ascii_isspace (*p))
    p++;
  if (*p == '#')
    {
      char *end;
      guint64 v = g_ascii_strtoull (p + 1, &end, 16);
      size_t digits = (size_t) (end - (p + 1));
      if ((digits != 6 && digits != 8) || max < 4)
        return 0;
      if (digits == 6)
        v |= G_GUINT64_CONSTANT (0xff000000);
      out[0] = ((v >> 16) & 0xff) / 255.0;
      out[1] = ((v >> 8) & 0xff) / 255.0;
      out[2] = (v & 0xff) / 255.0;
      out[3] = ((v >> 24) & 0xff) / 255.0;
      return 4;
    }

  while (*p && n < max)
    {
      while (g_ascii_isspace (*p) || *p == ',')
        p++;
      if (!*p)
        break;
      char *end;
      double v = g_ascii_strtod (p, &end);
      if (end == p)
        break;
      /* HLSL-style suffixes ("0.5f") are common in copied values. */
      while (*end == 'f' || *end == 'F' || *end == 'h' || *end == 'H')
        end++;
      out[n++] = v;
      p = end;
    }
  return n;
}

static bool
parse_one (const char *text, double *out)
{
  return parse_values (text, out, 1) == 1;
}

/* Text between <tag> and </tag> in @doc, trimmed, blanks collapsed. */
static char *
xml_element (const char *doc, const char *tag)
{
  char *open = g_strdup_printf ("<%s>", tag);
  char *close = g_strdup_printf ("</%s>", tag);
  char *result = NULL;
  const char *start = strstr (doc, open);
  if (start)
    {
      start += strlen (open);
      const char *end = strstr (start, close);
      if (end)
        {
          GString *s = g_string_new (NULL);
          bool blank = false;
          for (const char *p = start; p < end; p++)
            {
              if (g_ascii_isspace (*p))
                blank = s->len > 0;
              else
                {
                  if (blank)
                    g_string_append_c (s, ' ');
                  blank = false;
                  g_string_append_c (s, *p);
                }
            }
          result = g_string_free (s, FALSE);
        }
    }
  g_free (open);
  g_free (close);
  return result;
}

/* The name a declaration line declares: the last identifier before the
 * first ':', '<', '=', ';' or '['.  NULL for anything that looks like a
 * function or a struct. */
static const char *
declared_name (const char *line, size_t *len)
{
  const char *stop = line + strcspn (line, ":<=;[");
  if (memchr (line, '(', (size_t) (stop - line))
      || memchr (line, '{', (size_t) (stop - line)))
    return NULL;
  const char *name = NULL;
  const char *p = line;
  while (p < stop)
    {
      if (is_ident_start (*p))
        {
          const char *s = p;
          while (p < stop && is_ident_char (*p))
            p++;
          name = s;
          *len = (size_t) (p - s);
        }
      else
        p++;
    }
  if (name && (!strncmp (name, "struct", *len) || !strncmp (name, "cbuffer", *len)))
    return NULL;
  return name;
}

static void
apply_xml_doc (SlMetadata *md, const char *doc, const char *declaration)
{
  size_t len = 0;
  const char *name = declared_name (declaration, &len);
  if (!name)
    return;
  SlParamDoc *pd = param_doc_get (md, name, len);

  char *text;
  if ((text = xml_element (doc, "summary")))
    {
      g_free ((char *) pd->summary);
      pd->summary = text;
    }
  if ((text = xml_element (doc, "minValue")))
    {
      pd->has_min = parse_one (text, &pd->min) || pd->has_min;
      g_free (text);
    }
  if ((text = xml_element (doc, "maxValue")))
    {
      pd->has_max = parse_one (text, &pd->max) || pd->has_max;
      g_free (text);
    }
  if ((text = xml_element (doc, "defaultValue")))
    {
      double v[16];
      int n = parse_values (text, v, 16);
      if (n > 0)
        {
          memcpy (pd->default_value, v, sizeof (double) * (size_t) n);
          pd->n_default = n;
        }
      g_free (text);
    }
}

/* #pragma parameter NAME "Label" DEFAULT MIN MAX [STEP] */
static void
apply_pragma (SlMetadata *md, const char *p)
{
  while (*p == ' ' || *p == '\t')
    p++;
  if (!is_ident_start (*p))
    return;
  const char *name = p;
  while (is_ident_char (*p))
    p++;
  SlParamDoc *pd = param_doc_get (md, name, (size_t) (p - name));

  while (*p == ' ' || *p == '\t')
    p++;
  if (*p == '"')
    {
      const char *end = strchr (p + 1, '"');
      if (!end)
        return;
      g_free ((char *) pd->label);
      pd->label = g_strndup (p + 1, (size_t) (end - p - 1));
      p = end + 1;
    }

  double v[4];
  int n = parse_values (p, v, 4);
  if (n >= 1)
    {
      pd->default_value[0] = v[0];
      pd->n_default = 1;
    }
  if (n >= 3)
    {
      pd->min = v[1];
      pd->max = v[2];
      pd->has_min = pd->has_max = true;
    }
  if (n >= 4 && v[3] > 0)
    {
      pd->step = v[3];
      pd->has_step = true;
    }
}

/* "key: value" with an identifier-like key; false for prose. */
static bool
header_pair (const char *text, char **key, char **value)
{
  const char *p = text;
  if (!g_ascii_isalpha (*p))
    return false;
  while (g_ascii_isalnum (*p) || *p == '_' || *p == '-')
    p++;
  if (*p != ':')
    return false;
  *key = g_ascii_strdown (text, p - text);
  *value = g_strstrip (g_strdup (p + 1));
  return true;
}

SlMetadata *
sl_metadata_parse (const char *source, size_t length)
{
  SlMetadata *md = g_new0 (SlMetadata, 1);
  md->keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  md->params = g_ptr_array_new_with_free_func (param_doc_free);
  md->texture_files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  md->sampler_textures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (!source)
    return md;

  if (length == (size_t) -1)
    length = strlen (source);
  /* Bytecode is not text; a NUL ends the text part of anything else. */
  if (memchr (source, '\0', length))
    length = strlen (source);
  char *text = g_strndup (source, length);
  if (g_str_has_prefix (text, "\xef\xbb\xbf"))
    memmove (text, text + 3, strlen (text + 3) + 1);
  scan_textures (md, text);
  char **lines = g_strsplit (text, "\n", -1);
  GString *doc = g_string_new (NULL);
  bool in_header = true;
  bool in_block_comment = false;
  char *last_key = NULL;
  for (char **lp = lines; *lp; lp++)
    {
      char *line = g_strstrip (*lp);   /* also drops a '\r' */

      if (in_block_comment)
        {
          if (strstr (line, "*/"))
            in_block_comment = false;
          continue;
        }

      if (in_header)
        {
          if (line[0] == '\0')
            continue;
          if (line[0] == '/' && line[1] == '/' && line[2] != '/')
            {
              const char *body = line + 2;
              if ((body[0] == ' ' || body[0] == '\t')
                  && (body[1] == ' ' || body[1] == '\t') && last_key)
                {
                  const char *old = g_hash_table_lookup (md->keys, last_key);
                  char *more = g_strstrip (g_strdup (body));
                  if (more[0])
                    g_hash_table_insert (md->keys, g_strdup (last_key),
                                         g_strconcat (old, " ", more, NULL));
                  g_free (more);
                  continue;
                }
              while (*body == ' ' || *body == '\t')
                body++;
              g_clear_pointer (&last_key, g_free);
              char *key, *value;
              if (header_pair (body, &key, &value))
                {
                  last_key = g_strdup (key);
                  g_hash_table_insert (md->keys, key, value);
                }
              continue;
            }
          in_header = false;
        }

      if (g_str_has_prefix (line, "///"))
        {
          g_string_append (doc, line + 3);
          g_string_append_c (doc, '\n');
          continue;
        }
      if (line[0] == '\0')
        continue;

      if (line[0] == '#')
        {
          const char *p = line + 1;
          while (*p == ' ' || *p == '\t')
            p++;
          if (g_str_has_prefix (p, "pragma"))
            {
              p += 6;
              while (*p == ' ' || *p == '\t')
                p++;
              if (g_str_has_prefix (p, "parameter") && (p[9] == ' ' || p[9] == '\t'))
                apply_pragma (md, p + 9);
            }
        }
      else if (doc->len > 0 && !g_str_has_prefix (line, "//"))
        apply_xml_doc (md, doc->str, line);

      if (!g_str_has_prefix (line, "//"))
        g_string_truncate (doc, 0);
      if (strstr (line, "/*") && !strstr (strstr (line, "/*"), "*/"))
        in_block_comment = true;
    }

  g_free (last_key);
  g_strfreev (lines);
  g_free (text);
  g_string_free (doc, TRUE);
  return md;
}

void
sl_metadata_free (SlMetadata *metadata)
{
  if (!metadata)
    return;
  g_hash_table_destroy (metadata->keys);
  g_ptr_array_free (metadata->params, TRUE);
  g_hash_table_destroy (metadata->texture_files);
  g_hash_table_destroy (metadata->sampler_textures);
  g_free (metadata);
}

const char *
sl_metadata_get (const SlMetadata *metadata, const char *key)
{
  if (!metadata || !key)
    return NULL;
  char *lower = g_ascii_strdown (key, -1);
  const char *value = g_hash_table_lookup (metadata->keys, lower);
  g_free (lower);
  return value;
}

int
sl_metadata_get_n_params (const SlMetadata *metadata)
{
  return metadata ? (int) metadata->params->len : 0;
}

const SlParamDoc *
sl_metadata_get_param (const SlMetadata *metadata, int index)
{
  if (!metadata || index < 0 || (guint) index >= metadata->params->len)
    return NULL;
  return g_ptr_array_index (metadata->params, index);
}

const SlParamDoc *
sl_metadata_find_param (const SlMetadata *metadata, const char *name)
{
  if (!metadata || !name)
    return NULL;
  for (guint i = 0; i < metadata->params->len; i++)
    {
      const SlParamDoc *doc = g_ptr_array_index (metadata->params, i);
      if (!strcmp (doc->name, name))
        return doc;
    }
  return NULL;
}

const char *
sl_metadata_texture_file (const SlMetadata *metadata, const char *name, const char **texture)
{
  if (texture)
    *texture = NULL;
  if (!metadata || !name)
    return NULL;
  const char *tex = g_hash_table_lookup (metadata->sampler_textures, name);
  if (!tex)
    tex = name;
  const char *file = g_hash_table_lookup (metadata->texture_files, tex);
  if (file && texture)
    *texture = tex;
  return file;
}
