/* safe-file — the few file operations of the batch command, each of
 * which either succeeds completely or says so.
 *
 * The batch command writes into folders that other people may also
 * write into (a shared output folder), and runs unattended for days, so
 * it never writes through a name it did not just create itself, never
 * follows a symbolic link it did not expect, and checks every write,
 * every close and the final flush: a full disk must show up as a failed
 * image, not as a truncated file under a final name.  File names come
 * from users and from directory listings, so they are shown escaped.
 */
#include "config.h"

#include "safe-file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

static gboolean
fail_errno (GError    **error,
            int         saved,
            const char *path)
{
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
               "%s", g_strerror (saved));
  (void) path;
  return FALSE;
}

gboolean
gs_safe_write_all (int         fd,
                   const void *data,
                   gsize       length,
                   GError    **error)
{
  const guint8 *p = data;

  while (length > 0)
    {
      ssize_t n = write (fd, p, MIN (length, (gsize) 1 << 30));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return fail_errno (error, errno, NULL);
      if (n == 0)
        return fail_errno (error, ENOSPC, NULL);
      p += n;
      length -= (gsize) n;
    }
  return TRUE;
}

gboolean
gs_safe_file_create (const char *path,
                     GError    **error)
{
  int fd = g_open (path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                   0666);

  if (fd < 0)
    return fail_errno (error, errno, path);
  if (close (fd) != 0)
    {
      int saved = errno;

      g_unlink (path);
      return fail_errno (error, saved, path);
    }
  return TRUE;
}

gboolean
gs_safe_mkdir_below (const char *top,
                     const char *relative,
                     GError    **error)
{
  char   **parts = g_strsplit (relative, G_DIR_SEPARATOR_S, -1);
  GString *path = g_string_new (top);
  gboolean ok = TRUE;

  for (int i = 0; ok && parts[i] != NULL; i++)
    {
      GStatBuf st;

      if (parts[i][0] == '\0' || strcmp (parts[i], ".") == 0)
        continue;
      g_string_append (path, G_DIR_SEPARATOR_S);
      g_string_append (path, parts[i]);
      if (g_mkdir (path->str, 0777) == 0)
        continue;
      if (errno != EEXIST)
        ok = fail_errno (error, errno, path->str);
      /* lstat, not stat: a link someone planted where a folder of ours
       * belongs must not lead the outputs elsewhere. */
      else if (g_lstat (path->str, &st) != 0)
        ok = fail_errno (error, errno, path->str);
      else if (S_ISLNK (st.st_mode))
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_PERM,
                       _("'%s' is a symbolic link; outputs are never written "
                         "through one"), path->str);
          ok = FALSE;
        }
      else if (! S_ISDIR (st.st_mode))
        ok = fail_errno (error, ENOTDIR, path->str);
    }
  g_string_free (path, TRUE);
  g_strfreev (parts);
  return ok;
}

gboolean
gs_safe_file_rewrite (const char *path,
                      const void *data,
                      gsize       length,
                      GError    **error)
{
  int fd = g_open (path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0);

  if (fd < 0)
    return fail_errno (error, errno, path);
  if (! gs_safe_write_all (fd, data, length, error))
    {
      close (fd);
      return FALSE;
    }
  if (close (fd) != 0)
    return fail_errno (error, errno, path);
  return TRUE;
}

gboolean
gs_safe_file_sync (const char *path,
                   GError    **error)
{
  int fd = g_open (path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);
  int saved;

  if (fd < 0)
    return fail_errno (error, errno, path);
  if (fsync (fd) != 0 && errno != EINVAL)
    {
      saved = errno;
      close (fd);
      return fail_errno (error, saved, path);
    }
  if (close (fd) != 0)
    return fail_errno (error, errno, path);
  return TRUE;
}

char *
gs_safe_display_name (const char *text)
{
  GString    *out;
  const char *p = text;
  const char *end = text + strlen (text);
  gboolean    plain = TRUE;

  /* Printable ASCII is shown as it is; anything else goes through the
   * loop, which also catches C1 controls (U+0080…U+009F), which some
   * terminals obey as escapes. */
  for (const char *q = text; q < end; q++)
    if ((guchar) *q < 0x20 || (guchar) *q >= 0x7f)
      plain = FALSE;
  if (plain)
    return g_strdup (text);

  out = g_string_new (NULL);
  while (p < end)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2 || c < 0x20 || c == 0x7f
          || (c >= 0x80 && c < 0xa0))
        {
          gsize n = c < 0x80 || c == (gunichar) -1 || c == (gunichar) -2
                    ? 1 : (gsize) (g_utf8_next_char (p) - p);

          for (gsize i = 0; i < n; i++)
            g_string_append_printf (out, "\\x%02x", (guchar) p[i]);
          p += n;
        }
      else if (c == '\\')
        {
          g_string_append (out, "\\\\");
          p++;
        }
      else
        {
          const char *next = g_utf8_next_char (p);

          g_string_append_len (out, p, next - p);
          p = next;
        }
    }
  return g_string_free (out, FALSE);
}
