/* manifest — the record a batch run keeps of every input, for
 * schedulers and scripts to merge.
 *
 * `apply --manifest FILE` appends one JSON object per finished input:
 *   {"input":"a.jpg","output":"out/a.jpg","status":"written",
 *    "seconds":0.412,"error":null,"shard":"3/8","host":"node7","pid":4242}
 * status is "written", "skipped" (an up-to-date output was there) or
 * "failed" (with the message in "error"); a written image whose render
 * only warned (a loop stopped at its cap) adds "warning".  Lines are appended with one
 * write() each on a descriptor opened with O_APPEND, which the kernel
 * applies atomically on a local file system: shards may share one file,
 * and a shard killed at any moment leaves whole lines behind.  (Over NFS
 * appends of several hosts can interleave; give each shard a file of its
 * own there, e.g. manifest-$SLURM_ARRAY_TASK_ID.jsonl, and cat them.)  A
 * file that a full disk left with a partial last line gets a newline
 * before our first line, so the damage stays on that one line.
 */
#include "config.h"

#include "manifest.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "safe-file.h"

struct _GsManifest
{
  int      fd;
  char    *path;
  char    *shard;
  char    *host;
  gboolean needs_newline;
};

void
gs_json_append_string (GString    *out,
                       const char *text)
{
  const char *p = text;
  const char *end = text + strlen (text);

  g_string_append_c (out, '"');
  while (p < end)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\udc%02x", (guchar) *p);
          p++;
          continue;
        }
      switch (c)
        {
        case '"':  g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (c < 0x20 || c == 0x7f)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_len (out, p, g_utf8_next_char (p) - p);
          break;
        }
      p = g_utf8_next_char (p);
    }
  g_string_append_c (out, '"');
}

GsManifest *
gs_manifest_open (const char *path,
                  const char *shard,
                  const char *host,
                  GError    **error)
{
  GsManifest *m;
  struct stat st;
  int         fd = g_open (path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
                           0666);

  if (fd < 0 || fstat (fd, &st) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("cannot open the manifest '%s': %s"), path,
                   g_strerror (saved));
      if (fd >= 0)
        close (fd);
      return NULL;
    }
  m = g_new0 (GsManifest, 1);
  m->fd = fd;
  m->path = g_strdup (path);
  m->shard = g_strdup (shard);
  m->host = g_strdup (host);
  if (S_ISREG (st.st_mode) && st.st_size > 0)
    {
      char last = '\n';

      if (pread (fd, &last, 1, st.st_size - 1) == 1 && last != '\n')
        m->needs_newline = TRUE;
    }
  return m;
}

gboolean
gs_manifest_add (GsManifest            *m,
                 const GsManifestEntry *e,
                 GError               **error)
{
  GString *line = g_string_sized_new (256);
  char     number[G_ASCII_DTOSTR_BUF_SIZE];
  GError  *local = NULL;
  gboolean ok;

  if (m->needs_newline)
    g_string_append_c (line, '\n');
  g_string_append (line, "{\"input\":");
  gs_json_append_string (line, e->input);
  g_string_append (line, ",\"output\":");
  if (e->output != NULL)
    gs_json_append_string (line, e->output);
  else
    g_string_append (line, "null");
  g_string_append (line, ",\"status\":");
  gs_json_append_string (line, e->status);
  g_ascii_formatd (number, sizeof number, "%.3f", e->seconds);
  g_string_append_printf (line, ",\"seconds\":%s,\"error\":", number);
  if (e->error != NULL)
    gs_json_append_string (line, e->error);
  else
    g_string_append (line, "null");
  if (e->warning != NULL)
    {
      g_string_append (line, ",\"warning\":");
      gs_json_append_string (line, e->warning);
    }
  if (m->shard != NULL)
    {
      g_string_append (line, ",\"shard\":");
      gs_json_append_string (line, m->shard);
    }
  g_string_append (line, ",\"host\":");
  gs_json_append_string (line, m->host);
  g_string_append_printf (line, ",\"pid\":%ld}\n", (long) getpid ());

  ok = gs_safe_write_all (m->fd, line->str, line->len, &local);
  if (ok)
    m->needs_newline = FALSE;
  else
    {
      g_set_error (error, G_FILE_ERROR, local->code,
                   _("cannot write the manifest '%s': %s"), m->path,
                   local->message);
      g_error_free (local);
    }
  g_string_free (line, TRUE);
  return ok;
}

gboolean
gs_manifest_close (GsManifest *m,
                   GError    **error)
{
  gboolean ok = TRUE;

  if (m == NULL)
    return TRUE;
  if (close (m->fd) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("cannot write the manifest '%s': %s"), m->path,
                   g_strerror (saved));
      ok = FALSE;
    }
  g_free (m->path);
  g_free (m->shard);
  g_free (m->host);
  g_free (m);
  return ok;
}
