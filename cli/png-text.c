/* png-text — the text chunks of a PNG input, carried into its PNG output.
 *
 * PNG keeps much of its metadata in tEXt, zTXt and iTXt chunks named by a
 * keyword (Title, Author, Copyright, Creation Time…).  gexiv2 carries the
 * ones that hold EXIF, XMP or IPTC and the Description (image-meta.c);
 * the others it drops.  So after it has written the output, every text
 * chunk of the input whose keyword the output does not already have is
 * copied, unchanged and compressed as it was, before the image data,
 * except "Software", which is set to this tool, like EXIF's Software tag,
 * and those gexiv2 manages (raw EXIF/IPTC profiles, XMP, Description).
 * Chunks are only copied from PNG to PNG: another kind of file has no
 * place for them.
 */
#include "config.h"

#include "png-text.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "icc-file.h"
#include "image-io.h"
#include "safe-file.h"

/* Text chunks are small; a larger one is not metadata worth a copy. */
#define MAX_TEXT_CHUNK (16u << 20)

static guint32
be32 (const guint8 *p)
{
  return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8
         | p[3];
}

static gboolean
is_text_chunk (const guint8 *type)
{
  return memcmp (type, "tEXt", 4) == 0 || memcmp (type, "zTXt", 4) == 0
         || memcmp (type, "iTXt", 4) == 0;
}

/* The keyword of a text chunk (its bytes up to the first NUL, 1-79). */
static char *
keyword_of (const guint8 *body,
            gsize         length)
{
  gsize n = 0;

  while (n < length && n < 80 && body[n] != 0)
    n++;
  if (n == 0 || n >= 80 || n == length)
    return NULL;
  return g_strndup ((const char *) body, n);
}

/* The whole chunks (length, type, body, CRC) of @path's text, in order. */
static GPtrArray *
read_text_chunks (const char *path)
{
  GPtrArray *chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  FILE      *f = g_fopen (path, "rb");
  guint8     head[8];

  if (f == NULL)
    return chunks;
  if (fread (head, 1, 8, f) != 8)
    goto out;
  while (fread (head, 1, 8, f) == 8)
    {
      guint32 length = be32 (head);

      if (memcmp (head + 4, "IEND", 4) == 0 || length > G_MAXINT32)
        break;
      if (is_text_chunk (head + 4) && length <= MAX_TEXT_CHUNK)
        {
          guint8 *chunk = g_try_malloc ((gsize) length + 12);

          if (chunk == NULL)
            break;
          memcpy (chunk, head, 8);
          if (fread (chunk + 8, 1, (gsize) length + 4, f) != (gsize) length + 4)
            {
              g_free (chunk);
              break;
            }
          g_ptr_array_add (chunks, g_bytes_new_take (chunk, (gsize) length + 12));
        }
      else if (fseeko (f, (off_t) length + 4, SEEK_CUR) != 0)
        break;
    }
out:
  fclose (f);
  return chunks;
}

/* The keywords of the chunks gexiv2 reads and writes itself: copying
 * the input's would bring back what it updated. */
static gboolean
owned_by_exiv2 (const char *keyword)
{
  return g_str_has_prefix (keyword, "Raw profile type ")
         || g_str_equal (keyword, "XML:com.adobe.xmp")
         || g_str_equal (keyword, "Description");
}

static void
append_text (GByteArray *out,
             const char *keyword,
             const char *text)
{
  gsize  k = strlen (keyword), t = strlen (text);
  guint  start = out->len;
  guint8 len[4] = { (k + 1 + t) >> 24, (k + 1 + t) >> 16, (k + 1 + t) >> 8,
                    k + 1 + t };
  uLong  crc;
  guint8 c[4];

  g_byte_array_append (out, len, 4);
  g_byte_array_append (out, (const guint8 *) "tEXt", 4);
  g_byte_array_append (out, (const guint8 *) keyword, k + 1);
  g_byte_array_append (out, (const guint8 *) text, t);
  crc = crc32 (0, out->data + start + 4, out->len - start - 4);
  c[0] = crc >> 24; c[1] = crc >> 16; c[2] = crc >> 8; c[3] = crc;
  g_byte_array_append (out, c, 4);
}

gboolean
gs_png_text_carry (const char *input,
                   const char *output,
                   const char *software,
                   GError    **error)
{
  GPtrArray  *chunks;
  GHashTable *present;
  char       *data = NULL;
  gsize       length = 0, offset = 8;
  GByteArray *out;
  gboolean    ok = TRUE, inserted = FALSE, any = FALSE;
  GError     *local = NULL;

  if (gs_file_kind (input) != GS_FILE_KIND_PNG
      || gs_file_kind (output) != GS_FILE_KIND_PNG)
    return TRUE;
  chunks = read_text_chunks (input);
  if (chunks->len == 0)
    {
      g_ptr_array_unref (chunks);
      return TRUE;
    }
  if (! g_file_get_contents (output, &data, &length, &local))
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_ENCODE,
                   "%s", local->message);
      g_error_free (local);
      g_ptr_array_unref (chunks);
      return FALSE;
    }

  /* The keywords the output already has (gexiv2's). */
  present = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  while (offset + 12 <= length)
    {
      const guint8 *c = (const guint8 *) data + offset;
      guint32       body = be32 (c);

      if (body > length - offset - 12)
        break;
      if (is_text_chunk (c + 4))
        {
          char *k = keyword_of (c + 8, body);

          if (k != NULL)
            g_hash_table_add (present, k);
        }
      offset += 12 + (gsize) body;
    }

  out = g_byte_array_sized_new (length + 4096);
  g_byte_array_append (out, (const guint8 *) data, MIN (length, 8));
  offset = 8;
  while (offset + 12 <= length)
    {
      const guint8 *c = (const guint8 *) data + offset;
      guint32       body = be32 (c);

      if (body > length - offset - 12)
        break;
      if (! inserted && (memcmp (c + 4, "IDAT", 4) == 0
                         || memcmp (c + 4, "IEND", 4) == 0))
        {
          for (guint i = 0; i < chunks->len; i++)
            {
              gsize         n;
              const guint8 *chunk = g_bytes_get_data (chunks->pdata[i], &n);
              char         *k = keyword_of (chunk + 8, n - 12);

              if (k != NULL && ! g_hash_table_contains (present, k)
                  && ! owned_by_exiv2 (k))
                {
                  if (g_str_equal (k, "Software"))
                    append_text (out, k, software);
                  else
                    g_byte_array_append (out, chunk, n);
                  g_hash_table_add (present, k);
                  k = NULL;
                  any = TRUE;
                }
              g_free (k);
            }
          inserted = TRUE;
        }
      g_byte_array_append (out, c, 12 + (gsize) body);
      offset += 12 + (gsize) body;
    }
  g_byte_array_append (out, (const guint8 *) data + offset, length - offset);
  if (any)
    ok = gs_safe_file_rewrite (output, out->data, out->len, error);

  g_byte_array_unref (out);
  g_hash_table_destroy (present);
  g_ptr_array_unref (chunks);
  g_free (data);
  return ok;
}
