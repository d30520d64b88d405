/* Reading files a shader names (#include, effect headers), and the
 * folders it may name them in.
 *
 * A shader comes from a stranger as often as not, and what it names is
 * read while GIMP starts: a FIFO or /dev/stdin would block the start for
 * ever, /dev/zero or a sparse 2 GB file would be read into memory before
 * any size check, and /etc/passwd would come back quoted in a diagnostic.
 * So a named file is opened without blocking, must be a regular file and
 * is measured before a byte of it is read; and by default it must lie
 * inside the folders the host vouched for. */
#ifndef SL_FILE_READ_H
#define SL_FILE_READ_H

#include <stdbool.h>
#include <stddef.h>

typedef enum
{
  SL_READ_OK,
  SL_READ_MISSING,       /* no such file, or it cannot be opened */
  SL_READ_NOT_REGULAR,   /* a folder, FIFO, device, socket */
  SL_READ_TOO_LARGE,     /* larger than the caller's limit */
  SL_READ_FAILED         /* a read error */
} SlReadStatus;

/* Reads @path whole into a g_malloc'd NUL-terminated buffer if it is a
 * regular file of at most @max bytes.  Never blocks on a FIFO or device
 * and never reads more than @max + 1 bytes. */
SlReadStatus sl_read_regular_file (const char *path, size_t max, char **data, size_t *length);

/* What sl_read_regular_file() found, without reading: SL_READ_OK when it
 * would read the file. */
SlReadStatus sl_probe_regular_file (const char *path, size_t max);

/* True when @path, with symbolic links and '..' resolved, lies inside
 * one of the @n_roots folders @roots (also resolved; "" is the current
 * folder, NULL entries are skipped), or does not exist on disk at all (a
 * built-in header has no file to leak). */
bool sl_path_confined (const char *path, const char *const *roots, int n_roots);

#endif
