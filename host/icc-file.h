/* icc-file — the exact ICC profile an image file embeds (see icc-file.c),
 * and the little container knowledge the CLI shares to write one back. */
#ifndef GS_ICC_FILE_H
#define GS_ICC_FILE_H

#include <glib.h>

G_BEGIN_DECLS

/* No real profile comes near this; a larger one is refused as damaged. */
#define GS_ICC_MAX_BYTES ((guint64) 64 << 20)

/* TIFF's InterColorProfile tag. */
#define GS_TIFF_TAG_ICC 34675

typedef enum
{
  GS_FILE_KIND_OTHER,
  GS_FILE_KIND_PNG,
  GS_FILE_KIND_JPEG,
  GS_FILE_KIND_TIFF,
  GS_FILE_KIND_WEBP
} GsFileKind;

/* The kind of image file by its first bytes (not its name). */
GsFileKind  gs_file_kind_of_data (const guint8 *head,
                                  gsize         length);
GsFileKind  gs_file_kind         (const char   *path);

/* Sets *@profile to the embedded profile (NULL when there is none, or
 * for a kind of file that cannot hold one) and returns TRUE; returns
 * FALSE with @error when the file cannot be read or its profile is
 * damaged.  The file's messages name @path. */
gboolean    gs_icc_read_file     (const char   *path,
                                  GBytes      **profile,
                                  GError      **error);
gboolean    gs_icc_read_data     (const guint8 *data,
                                  gsize         length,
                                  GBytes      **profile,
                                  GError      **error);

/* The profile's description ("Adobe RGB (1998)"), valid UTF-8, or NULL
 * for none; g_free() it. */
char       *gs_icc_description   (GBytes       *profile);

/* Where a TIFF keeps its first directory: classic TIFF stores 4-byte
 * offsets and 12-byte entries, BigTIFF 8-byte offsets and 20-byte
 * entries. */
typedef struct
{
  gboolean little_endian;
  gboolean big;
  guint64  first_ifd;
  guint64  ifd_pointer_at;   /* where the header holds first_ifd */
} GsTiffLayout;

/* Reads the header of a TIFF (at least 16 bytes of it, 8 for classic);
 * FALSE when @head is no TIFF header. */
gboolean    gs_tiff_header       (const guint8 *head,
                                  gsize         length,
                                  GsTiffLayout *layout);
/* An unsigned integer of @size bytes in the file's byte order. */
guint64     gs_tiff_get          (const GsTiffLayout *layout,
                                  const guint8       *p,
                                  int                 size);

G_END_DECLS

#endif /* GS_ICC_FILE_H */
