/* safe-file — creating and writing the batch command's files so that a
 * failed write is always seen (see safe-file.c). */
#ifndef GS_SAFE_FILE_H
#define GS_SAFE_FILE_H

#include <glib.h>

G_BEGIN_DECLS

/* Writes all @length bytes to @fd, retrying short writes and EINTR. */
gboolean gs_safe_write_all      (int           fd,
                                 const void   *data,
                                 gsize         length,
                                 GError      **error);

/* Creates @path as a new empty file: never an existing file and never
 * through a symbolic link (O_EXCL | O_NOFOLLOW).  FALSE with errno kept
 * in @error's code (G_FILE_ERROR) when it cannot. */
gboolean gs_safe_file_create    (const char   *path,
                                 GError      **error);

/* Creates the folders of @relative (a path below @top, which exists)
 * one by one, refusing a component that is a symbolic link or not a
 * folder.  @top itself is the user's choice and may be a link. */
gboolean gs_safe_mkdir_below    (const char   *top,
                                 const char   *relative,
                                 GError      **error);

/* Replaces the contents of the regular file @path (not followed if it is
 * a link) with @data, checking every write and the close. */
gboolean gs_safe_file_rewrite   (const char   *path,
                                 const void   *data,
                                 gsize         length,
                                 GError      **error);

/* Flushes @path to disk; a file system that cannot (EINVAL) counts as
 * done. */
gboolean gs_safe_file_sync      (const char   *path,
                                 GError      **error);

/* @text with control characters and bytes that are not UTF-8 written as
 * \xNN escapes (and '\' as "\\" when escaping happened), for putting
 * file names on a terminal or in a log; g_free() it. */
char    *gs_safe_display_name   (const char   *text);

G_END_DECLS

#endif /* GS_SAFE_FILE_H */
