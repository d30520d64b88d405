/* icc-embed — putting an exact ICC profile into a PNG, JPEG or TIFF file.
 *
 * GEGL's savers embed the profile of the babl space they are given, and
 * babl gives one profile per set of primaries and curves (host/icc-file.c
 * says why), writes a generic "babl profile" for sRGB JPEG and TIFF, and
 * PNG's sRGB chunk otherwise.  The batch command promises each output its
 * input's own profile, byte for byte (or none, for an untagged input), so
 * after a saver has written the temporary file this rewrites the one
 * piece of the container that holds the profile:
 *   - PNG: the iCCP chunk, right after IHDR; the sRGB, gAMA and cHRM
 *     chunks go when a profile comes in, since a profile supersedes them;
 *   - JPEG: the APP2 ICC_PROFILE segments (65,519 bytes of profile each),
 *     after the JFIF and Exif segments that must lead the file;
 *   - TIFF: tag 34675 of the first directory; the profile and a new copy
 *     of that directory are appended and the header pointed at it, which
 *     leaves every other offset in the file valid.
 * The file is only touched when the profile it holds differs from the
 * one wanted, so the common case costs one read of the headers.  Every
 * other kind of file is left as the saver wrote it (WebP, EXR, HDR, PPM
 * and PFM outputs carry no profile; see the README).
 */
#include "config.h"

#include "icc-embed.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "icc-file.h"
#include "image-io.h"
#include "safe-file.h"

static void
put_be32 (GByteArray *out,
          guint32     v)
{
  guint8 b[4] = { v >> 24, v >> 16, v >> 8, v };

  g_byte_array_append (out, b, 4);
}

/* ------------------------------------------------------------------ */
/* PNG                                                                 */
/* ------------------------------------------------------------------ */

static gboolean
png_chunk_is (const guint8 *chunk,
              const char   *type)
{
  return memcmp (chunk + 4, type, 4) == 0;
}

static void
append_iccp (GByteArray *out,
             GBytes     *profile)
{
  static const char name[] = "ICC profile";
  gsize             length;
  const guint8     *data = g_bytes_get_data (profile, &length);
  uLongf            packed_len = compressBound (length);
  guint8           *packed = g_malloc (packed_len);
  guint             start;
  uLong             crc;

  compress2 (packed, &packed_len, data, length, Z_BEST_COMPRESSION);
  put_be32 (out, (guint32) (sizeof name + 1 + packed_len));
  start = out->len;
  g_byte_array_append (out, (const guint8 *) "iCCP", 4);
  g_byte_array_append (out, (const guint8 *) name, sizeof name);  /* + NUL */
  g_byte_array_append (out, (const guint8 *) "", 1);  /* method: deflate */
  g_byte_array_append (out, packed, packed_len);
  crc = crc32 (0, out->data + start, out->len - start);
  put_be32 (out, (guint32) crc);
  g_free (packed);
}

static GByteArray *
rewrite_png (const guint8 *data,
             gsize         length,
             GBytes       *profile,
             GError      **error)
{
  GByteArray *out = g_byte_array_sized_new (length + 4096);
  gsize       offset = 8;

  g_byte_array_append (out, data, 8);
  while (offset + 12 <= length)
    {
      const guint8 *chunk = data + offset;
      guint32       body = (guint32) chunk[0] << 24 | chunk[1] << 16
                           | chunk[2] << 8 | chunk[3];
      gsize         size;
      gboolean      drop;

      if (body > length - offset - 12)
        break;
      size = 12 + (gsize) body;
      drop = png_chunk_is (chunk, "iCCP")
             || (profile != NULL
                 && (png_chunk_is (chunk, "sRGB") || png_chunk_is (chunk, "gAMA")
                     || png_chunk_is (chunk, "cHRM")));
      if (! drop)
        g_byte_array_append (out, chunk, size);
      if (png_chunk_is (chunk, "IHDR") && profile != NULL)
        append_iccp (out, profile);
      offset += size;
      if (png_chunk_is (chunk, "IEND"))
        break;
    }
  if (offset != length)
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_ENCODE,
                   _("the PNG the encoder wrote is malformed"));
      g_byte_array_unref (out);
      return NULL;
    }
  return out;
}

/* ------------------------------------------------------------------ */
/* JPEG                                                                */
/* ------------------------------------------------------------------ */

#define ICC_MARK       "ICC_PROFILE"
#define ICC_MARK_LEN   12
#define ICC_CHUNK_MAX  (65533 - ICC_MARK_LEN - 2)

static gboolean
append_icc_segments (GByteArray *out,
                     GBytes     *profile)
{
  gsize         length;
  const guint8 *data = g_bytes_get_data (profile, &length);
  gsize         count = (length + ICC_CHUNK_MAX - 1) / ICC_CHUNK_MAX;

  if (count > 255)
    return FALSE;
  for (gsize i = 0; i < count; i++)
    {
      gsize  part = MIN (ICC_CHUNK_MAX, length - i * ICC_CHUNK_MAX);
      gsize  seg = 2 + ICC_MARK_LEN + 2 + part;
      guint8 head[4 + ICC_MARK_LEN + 2] = { 0xff, 0xe2, seg >> 8, seg & 0xff };

      memcpy (head + 4, ICC_MARK, ICC_MARK_LEN);
      head[4 + ICC_MARK_LEN] = (guint8) (i + 1);
      head[4 + ICC_MARK_LEN + 1] = (guint8) count;
      g_byte_array_append (out, head, sizeof head);
      g_byte_array_append (out, data + i * ICC_CHUNK_MAX, part);
    }
  return TRUE;
}

static GByteArray *
rewrite_jpeg (const guint8 *data,
              gsize         length,
              GBytes       *profile,
              GError      **error)
{
  GByteArray *out = g_byte_array_sized_new (length + 4096);
  gsize       offset = 2;
  gboolean    placed = profile == NULL;

  g_byte_array_append (out, data, 2);
  while (offset + 4 <= length && data[offset] == 0xff)
    {
      guint8 m = data[offset + 1];
      gsize  seg = (gsize) data[offset + 2] << 8 | data[offset + 3];
      gboolean icc;

      if (m == 0xda || m == 0xd9 || m == 0xff || m == 0x01
          || (m >= 0xd0 && m <= 0xd7) || seg < 2 || seg > length - offset - 2)
        break;
      /* JFIF (APP0) and Exif (APP1) lead; the profile follows them. */
      if (! placed && m != 0xe0 && m != 0xe1)
        {
          if (! append_icc_segments (out, profile))
            goto too_large;
          placed = TRUE;
        }
      icc = m == 0xe2 && seg >= 2 + ICC_MARK_LEN
            && memcmp (data + offset + 4, ICC_MARK, ICC_MARK_LEN) == 0;
      if (! icc)
        g_byte_array_append (out, data + offset, 2 + seg);
      offset += 2 + seg;
    }
  if (! placed && ! append_icc_segments (out, profile))
    goto too_large;
  g_byte_array_append (out, data + offset, length - offset);
  return out;

too_large:
  g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_ENCODE,
               _("the colour profile is too large for a JPEG file"));
  g_byte_array_unref (out);
  return NULL;
}

/* ------------------------------------------------------------------ */
/* TIFF                                                                */
/* ------------------------------------------------------------------ */

static void
put_tiff (GByteArray         *out,
          const GsTiffLayout *t,
          guint64             v,
          int                 size)
{
  guint8 b[8];

  for (int i = 0; i < size; i++)
    b[t->little_endian ? i : size - 1 - i] = (guint8) (v >> (8 * i));
  g_byte_array_append (out, b, size);
}

static void
pad_to_word (GByteArray *out)
{
  while (out->len % 2 != 0)
    g_byte_array_append (out, (const guint8 *) "", 1);
}

static GByteArray *
rewrite_tiff (const guint8 *data,
              gsize         length,
              GBytes       *profile,
              GError      **error)
{
  GsTiffLayout t;
  GByteArray  *out;
  int          count_size, entry_size, word;
  guint64      n, kept = 0, next, profile_at = 0, ifd_at;
  const guint8 *entries;
  gsize        profile_len = 0;
  gboolean     inserted = FALSE;

  if (! gs_tiff_header (data, length, &t))
    goto malformed;
  count_size = t.big ? 8 : 2;
  entry_size = t.big ? 20 : 12;
  word = t.big ? 8 : 4;
  if (t.first_ifd > length || length - t.first_ifd < (guint64) count_size)
    goto malformed;
  n = gs_tiff_get (&t, data + t.first_ifd, count_size);
  if (n > 65535
      || (length - t.first_ifd - count_size) / entry_size < n + 1)
    goto malformed;
  entries = data + t.first_ifd + count_size;
  next = gs_tiff_get (&t, entries + n * entry_size, word);

  out = g_byte_array_sized_new (length + 4096 + (profile ? g_bytes_get_size (profile) : 0));
  g_byte_array_append (out, data, length);
  pad_to_word (out);
  if (profile != NULL)
    {
      const guint8 *p = g_bytes_get_data (profile, &profile_len);

      if (! t.big && (guint64) out->len + profile_len + 65536 * 12 > G_MAXUINT32)
        {
          g_byte_array_unref (out);
          g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_ENCODE,
                       _("the TIFF file is too large to add a colour "
                         "profile to"));
          return NULL;
        }
      profile_at = out->len;
      g_byte_array_append (out, p, profile_len);
      pad_to_word (out);
    }

  /* The new directory: the old entries in tag order, without the old
   * profile, with the new one in its place. */
  ifd_at = out->len;
  for (guint64 i = 0; i < n; i++)
    if (gs_tiff_get (&t, entries + i * entry_size, 2) != GS_TIFF_TAG_ICC)
      kept++;
  put_tiff (out, &t, kept + (profile != NULL), count_size);
  for (guint64 i = 0; i <= n; i++)
    {
      const guint8 *e = entries + i * entry_size;
      guint64       tag = i < n ? gs_tiff_get (&t, e, 2) : G_MAXUINT64;

      if (profile != NULL && ! inserted && tag > GS_TIFF_TAG_ICC)
        {
          put_tiff (out, &t, GS_TIFF_TAG_ICC, 2);
          put_tiff (out, &t, 7, 2);   /* UNDEFINED */
          put_tiff (out, &t, profile_len, word);
          put_tiff (out, &t, profile_at, word);
          inserted = TRUE;
        }
      if (i < n && tag != GS_TIFF_TAG_ICC)
        g_byte_array_append (out, e, entry_size);
    }
  put_tiff (out, &t, next, word);

  /* Point the header at the new directory. */
  {
    GByteArray *head = g_byte_array_new ();

    put_tiff (head, &t, ifd_at, word);
    memcpy (out->data + t.ifd_pointer_at, head->data, word);
    g_byte_array_unref (head);
  }
  return out;

malformed:
  g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_ENCODE,
               _("the TIFF the encoder wrote is malformed"));
  return NULL;
}

/* ------------------------------------------------------------------ */

gboolean
gs_icc_embed_supported (GsFileKind kind)
{
  return kind == GS_FILE_KIND_PNG || kind == GS_FILE_KIND_JPEG
         || kind == GS_FILE_KIND_TIFF;
}

gboolean
gs_icc_embed (const char *path,
              GBytes     *profile,
              GError    **error)
{
  char       *data = NULL;
  gsize       length = 0;
  GBytes     *current = NULL;
  GByteArray *out = NULL;
  GError     *local = NULL;
  gboolean    ok = FALSE;
  GsFileKind  kind;

  if (! g_file_get_contents (path, &data, &length, &local))
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_ENCODE,
                   "%s", local->message);
      g_error_free (local);
      return FALSE;
    }
  kind = gs_file_kind_of_data ((const guint8 *) data, length);
  if (! gs_icc_embed_supported (kind))
    {
      ok = TRUE;
      goto out;
    }
  /* A saver's own profile that cannot even be read is replaced. */
  if (! gs_icc_read_data ((const guint8 *) data, length, &current, NULL))
    current = NULL;
  if ((current == NULL && profile == NULL)
      || (current != NULL && profile != NULL && g_bytes_equal (current, profile)))
    {
      ok = TRUE;
      goto out;
    }
  switch (kind)
    {
    case GS_FILE_KIND_PNG:
      out = rewrite_png ((const guint8 *) data, length, profile, error);
      break;
    case GS_FILE_KIND_JPEG:
      out = rewrite_jpeg ((const guint8 *) data, length, profile, error);
      break;
    default:
      out = rewrite_tiff ((const guint8 *) data, length, profile, error);
      break;
    }
  if (out != NULL)
    ok = gs_safe_file_rewrite (path, out->data, out->len, error);

out:
  if (out != NULL)
    g_byte_array_unref (out);
  if (current != NULL)
    g_bytes_unref (current);
  g_free (data);
  return ok;
}
