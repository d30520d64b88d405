/* shard — which inputs one of N copies of `apply` takes, and where the
 * inputs come from.
 *
 * Schedulers start N copies of the same command (a Slurm job array, GNU
 * parallel, a Kubernetes Indexed Job), each knowing only its index K.
 * Each copy must take a share of the inputs such that the N shares are
 * disjoint and cover everything, and a copy re-run after a failure must
 * take the same share even if the list was made again in another order
 * or with files added.  So a file's share depends on its name alone:
 * shard = (first 8 bytes of SHA-256 of the key, big-endian) mod N, where
 * the key is the path of the output below the output folder — the input's
 * base name, or its path below --root.  Outputs with one key are one
 * output, so two inputs that would collide always meet in one shard,
 * which reports the collision.  The rule is simple to repeat in any
 * language (the README shows it in Python).
 *
 * "auto/N" takes K from the scheduler's environment: JOB_COMPLETION_INDEX
 * (Kubernetes) or SLURM_ARRAY_TASK_ID (so a Slurm array is --array=0-N-1).
 * N is always given: the array's own size is no guide, since re-submitting
 * one failed task (--array=3) makes an array of one.
 *
 * Input lists (--list-inputs) hold one name per line, or NUL-separated
 * names (--null) for names with newlines; "-" reads standard input.
 */
#include "config.h"

#include "shard.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

guint64
gs_shard_hash (const char *key)
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8     digest[32];
  gsize      length = sizeof digest;
  guint64    v = 0;

  g_checksum_update (sum, (const guchar *) key, strlen (key));
  g_checksum_get_digest (sum, digest, &length);
  g_checksum_free (sum);
  for (int i = 0; i < 8; i++)
    v = v << 8 | digest[i];
  return v;
}

guint
gs_shard_of (const char *key,
             guint       count)
{
  return (guint) (gs_shard_hash (key) % count);
}

/* A decimal number from 0 to G_MAXINT, the whole string. */
static gboolean
parse_count (const char *text,
             gint64     *out)
{
  char  *end;
  gint64 v;

  if (text == NULL || ! g_ascii_isdigit (*text))
    return FALSE;
  errno = 0;
  v = g_ascii_strtoll (text, &end, 10);
  if (errno != 0 || *end != '\0' || v < 0 || v > G_MAXINT)
    return FALSE;
  *out = v;
  return TRUE;
}

static gboolean
env_count (const char *name,
           gint64     *out,
           GError    **error)
{
  const char *value = g_getenv (name);

  if (value == NULL)
    return FALSE;
  if (! parse_count (value, out))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s is '%s', not a number"), name, value);
      return FALSE;
    }
  return TRUE;
}

/* K from the scheduler's environment. */
static gboolean
shard_from_environment (gint64  *index,
                        GError **error)
{
  static const char *const names[] = { "JOB_COMPLETION_INDEX",
                                       "SLURM_ARRAY_TASK_ID" };

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      if (env_count (names[i], index, error))
        return TRUE;
      if (error != NULL && *error != NULL)
        return FALSE;
    }
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("--shard auto: neither JOB_COMPLETION_INDEX nor "
                 "SLURM_ARRAY_TASK_ID is set"));
  return FALSE;
}

gboolean
gs_shard_parse (const char *spec,
                guint      *index,
                guint      *count,
                GError    **error)
{
  const char *slash = strchr (spec, '/');
  char       *k_text = slash ? g_strndup (spec, slash - spec) : g_strdup (spec);
  gint64      k = -1, n = 0;
  gboolean    ok = TRUE;

  if (slash == NULL || ! parse_count (slash + 1, &n))
    ok = FALSE;
  else if (g_str_equal (k_text, "auto"))
    {
      if (! shard_from_environment (&k, error))
        {
          g_free (k_text);
          return FALSE;
        }
    }
  else if (! parse_count (k_text, &k))
    ok = FALSE;
  g_free (k_text);
  if (! ok)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--shard takes K/N (0 <= K < N) or auto/N, not '%s'"),
                   spec);
      return FALSE;
    }
  if (n < 1)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--shard %s: there must be at least one shard"), spec);
      return FALSE;
    }
  if (k >= n)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   /* Plain long long: a format macro inside the message
                    * would cut the msgid short for xgettext. */
                   _("--shard: index %lld is not below the number of "
                     "shards %lld (indices count from 0)"),
                   (long long) k, (long long) n);
      return FALSE;
    }
  *index = (guint) k;
  *count = (guint) n;
  return TRUE;
}

gboolean
gs_read_input_list (const char *path,
                    gboolean    nul_separated,
                    GPtrArray  *names,
                    GError    **error)
{
  FILE    *f;
  GString *name = g_string_new (NULL);
  int      sep = nul_separated ? '\0' : '\n';
  int      c;
  gboolean from_stdin = g_str_equal (path, "-");
  gboolean ok = TRUE;

  f = from_stdin ? stdin : fopen (path, "rb");
  if (f == NULL)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("cannot read the input list '%s': %s"), path,
                   g_strerror (saved));
      g_string_free (name, TRUE);
      return FALSE;
    }
  do
    {
      c = getc (f);
      if (c == sep || c == EOF)
        {
          /* A DOS line end is not part of the name; empty lines are
           * skipped. */
          if (! nul_separated && name->len > 0
              && name->str[name->len - 1] == '\r')
            g_string_truncate (name, name->len - 1);
          if (name->len > 0)
            g_ptr_array_add (names, g_strndup (name->str, name->len));
          g_string_truncate (name, 0);
        }
      else if (c == '\0')
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                       _("the input list '%s' holds a NUL byte; use --null "
                         "for NUL-separated names"), path);
          ok = FALSE;
          break;
        }
      else
        g_string_append_c (name, (char) c);
    }
  while (c != EOF);
  if (ok && ferror (f))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_IO,
                   _("cannot read the input list '%s': %s"), path,
                   g_strerror (EIO));
      ok = FALSE;
    }
  if (! from_stdin)
    fclose (f);
  g_string_free (name, TRUE);
  return ok;
}
