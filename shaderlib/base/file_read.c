/* Reading the files a shader names, and confining them to the folders the
 * host allows (see file_read.h for why).
 *
 * The file is opened with O_NONBLOCK so that opening a FIFO returns at
 * once, then fstat() on the open descriptor decides: the type and size
 * checked are those of the file read, not of whatever the name pointed to
 * a moment before. */
#include "base/file_read.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif

static int
open_checked (const char *path, size_t max, struct stat *st, SlReadStatus *status)
{
  int fd = g_open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      *status = errno == ENXIO || errno == EISDIR ? SL_READ_NOT_REGULAR : SL_READ_MISSING;
      return -1;
    }
  if (fstat (fd, st) != 0)
    *status = SL_READ_FAILED;
  else if (!S_ISREG (st->st_mode))
    *status = SL_READ_NOT_REGULAR;
  else if ((guint64) st->st_size > (guint64) max)
    *status = SL_READ_TOO_LARGE;
  else
    {
      *status = SL_READ_OK;
      return fd;
    }
  close (fd);
  return -1;
}

SlReadStatus
sl_probe_regular_file (const char *path, size_t max)
{
  struct stat st;
  SlReadStatus status;
  int fd = open_checked (path, max, &st, &status);
  if (fd >= 0)
    close (fd);
  return status;
}

SlReadStatus
sl_read_regular_file (const char *path, size_t max, char **data, size_t *length)
{
  struct stat st;
  SlReadStatus status;
  *data = NULL;
  *length = 0;
  int fd = open_checked (path, max, &st, &status);
  if (fd < 0)
    return status;
  /* The size is a promise only: a file that grows while it is read is
   * cut off at max + 1 bytes and refused. */
  size_t cap = (size_t) st.st_size + 1;
  if (cap > max + 1)
    cap = max + 1;
  char *buf = g_try_malloc (cap + 1);
  if (!buf)
    {
      close (fd);
      return SL_READ_TOO_LARGE;
    }
  size_t n = 0;
  while (n < cap)
    {
      ssize_t r = read (fd, buf + n, cap - n);
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        {
          close (fd);
          g_free (buf);
          return SL_READ_FAILED;
        }
      if (r == 0)
        break;
      n += (size_t) r;
    }
  close (fd);
  if (n > max)
    {
      g_free (buf);
      return SL_READ_TOO_LARGE;
    }
  buf[n] = '\0';
  *data = buf;
  *length = n;
  return SL_READ_OK;
}

static bool
inside (const char *real, const char *root)
{
  size_t n = strlen (root);
  while (n > 1 && root[n - 1] == G_DIR_SEPARATOR)
    n--;
  return strncmp (real, root, n) == 0 && (real[n] == '\0' || real[n] == G_DIR_SEPARATOR || n == 1);
}

bool
sl_path_confined (const char *path, const char *const *roots, int n_roots)
{
  char *real = realpath (path, NULL);
  if (!real)
    return true;   /* nothing on disk to read (a built-in header) */
  bool ok = false;
  for (int i = 0; i < n_roots && !ok; i++)
    {
      if (!roots[i])
        continue;
      char *root = realpath (*roots[i] ? roots[i] : ".", NULL);
      if (root)
        ok = inside (real, root);
      free (root);
    }
  free (real);
  return ok;
}
