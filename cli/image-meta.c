/* image-meta — carrying a photograph's metadata from an input to its
 * output, with gexiv2 (the metadata library GIMP uses).
 *
 * GEGL's savers write pixels and a colour profile, nothing else, so the
 * batch command copies EXIF, XMP, IPTC and the comment of each input
 * into the finished temporary file.  gexiv2 re-reads the output before
 * writing into it, so the profile that icc-embed.c put there and, for
 * TIFF, the output's own image structure survive.  What the copy
 * changes is only what would otherwise be wrong:
 *   - the pixel dimensions (EXIF PixelX/YDimension, XMP tiff:ImageWidth
 *     and friends when present) say the output's real size;
 *   - Exif.Image.Software names this tool;
 *   - the EXIF thumbnail, a picture of the unfiltered image, is removed;
 *   - a TIFF input's structural tags (strip offsets, bits per sample…)
 *     and its profile tag are not copied into another kind of file;
 *   - after --convert-to, the colour space tags (Exif ColorSpace, the
 *     interoperability index, XMP photoshop:ICCProfile) say the new one.
 * The orientation tag is kept as it is, since apply does not rotate the
 * pixels.  Dates are not touched: a re-run must write identical files.
 * A file with no metadata is left alone, so outputs of files that had
 * none are byte for byte what the saver wrote.
 */
#include "config.h"

#include "image-meta.h"

#include <string.h>

#include <glib/gi18n.h>
#include <gexiv2/gexiv2.h>

#include "image-io.h"

/* IFD0 tags that describe how a TIFF stores its pixels, or hold blocks
 * the output carries in its own way (profile, XMP, IPTC, Photoshop
 * resources): meaningless or wrong in another file. */
static const char *const structural_tags[] =
{
  "Exif.Image.NewSubfileType", "Exif.Image.SubfileType",
  "Exif.Image.ImageWidth", "Exif.Image.ImageLength",
  "Exif.Image.BitsPerSample", "Exif.Image.Compression",
  "Exif.Image.PhotometricInterpretation", "Exif.Image.FillOrder",
  "Exif.Image.StripOffsets", "Exif.Image.SamplesPerPixel",
  "Exif.Image.RowsPerStrip", "Exif.Image.StripByteCounts",
  "Exif.Image.PlanarConfiguration", "Exif.Image.Predictor",
  "Exif.Image.ColorMap", "Exif.Image.TileWidth", "Exif.Image.TileLength",
  "Exif.Image.TileOffsets", "Exif.Image.TileByteCounts",
  "Exif.Image.SubIFDs", "Exif.Image.ExtraSamples",
  "Exif.Image.SampleFormat", "Exif.Image.JPEGTables",
  "Exif.Image.XMLPacket", "Exif.Image.IPTCNAA",
  "Exif.Image.ImageResources",
};

void
gs_meta_init (void)
{
  gexiv2_initialize ();
  /* Exiv2's warnings about odd maker notes are no concern of a user who
   * only wants them copied; errors still come back through GError. */
  gexiv2_log_set_level (GEXIV2_LOG_LEVEL_MUTE);
}

static gboolean
kind_holds_metadata (GsFileKind kind)
{
  return kind == GS_FILE_KIND_PNG || kind == GS_FILE_KIND_JPEG
         || kind == GS_FILE_KIND_TIFF || kind == GS_FILE_KIND_WEBP;
}

static void
set_string (GExiv2Metadata *m,
            const char     *tag,
            const char     *value)
{
  gexiv2_metadata_try_set_tag_string (m, tag, value, NULL);
}

static void
set_number (GExiv2Metadata *m,
            const char     *tag,
            long            value)
{
  char text[32];

  g_snprintf (text, sizeof text, "%ld", value);
  set_string (m, tag, text);
}

static gboolean
has_tag (GExiv2Metadata *m,
         const char     *tag)
{
  return gexiv2_metadata_try_has_tag (m, tag, NULL);
}

static void
update_exif (GExiv2Metadata     *m,
             const GsMetaUpdate *u,
             GsFileKind          out_kind)
{
  gexiv2_metadata_try_erase_exif_thumbnail (m, NULL);
  gexiv2_metadata_try_clear_tag (m, "Exif.Image.InterColorProfile", NULL);
  if (out_kind != GS_FILE_KIND_TIFF)
    for (gsize i = 0; i < G_N_ELEMENTS (structural_tags); i++)
      gexiv2_metadata_try_clear_tag (m, structural_tags[i], NULL);
  set_string (m, "Exif.Image.Software", u->software);
  set_number (m, "Exif.Photo.PixelXDimension", u->width);
  set_number (m, "Exif.Photo.PixelYDimension", u->height);
  if (u->converted)
    {
      /* EXIF names two colour spaces: sRGB (1) and "uncalibrated". */
      set_number (m, "Exif.Photo.ColorSpace", u->to_srgb ? 1 : 65535);
      if (has_tag (m, "Exif.Iop.InteroperabilityIndex"))
        {
          if (u->to_srgb)
            set_string (m, "Exif.Iop.InteroperabilityIndex", "R98");
          else
            gexiv2_metadata_try_clear_tag (m, "Exif.Iop.InteroperabilityIndex",
                                           NULL);
        }
    }
}

static void
update_xmp (GExiv2Metadata     *m,
            const GsMetaUpdate *u)
{
  static const struct { const char *tag; gboolean height; } sizes[] =
  {
    { "Xmp.tiff.ImageWidth", FALSE },
    { "Xmp.tiff.ImageLength", TRUE },
    { "Xmp.exif.PixelXDimension", FALSE },
    { "Xmp.exif.PixelYDimension", TRUE },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (sizes); i++)
    if (has_tag (m, sizes[i].tag))
      set_number (m, sizes[i].tag, sizes[i].height ? u->height : u->width);
  if (u->converted)
    {
      if (has_tag (m, "Xmp.exif.ColorSpace"))
        set_number (m, "Xmp.exif.ColorSpace", u->to_srgb ? 1 : 65535);
      if (has_tag (m, "Xmp.photoshop.ICCProfile"))
        {
          if (u->profile_description != NULL)
            set_string (m, "Xmp.photoshop.ICCProfile",
                        u->profile_description);
          else
            gexiv2_metadata_try_clear_tag (m, "Xmp.photoshop.ICCProfile",
                                           NULL);
        }
    }
}

gboolean
gs_meta_carry (const char         *input,
               const char         *output,
               const GsMetaUpdate *u,
               gboolean           *dropped,
               GError            **error)
{
  GExiv2Metadata *m;
  GError         *local = NULL;
  GsFileKind      out_kind;
  gboolean        has_exif, has_xmp, has_iptc, ok;
  char           *comment;

  *dropped = FALSE;
  if (! kind_holds_metadata (gs_file_kind (input)))
    return TRUE;
  m = gexiv2_metadata_new ();
  if (! gexiv2_metadata_open_path (m, input, &local))
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_DECODE,
                   _("cannot read the metadata of '%s': %s "
                     "(--strip-metadata writes the image without it)"),
                   input, local->message);
      g_error_free (local);
      g_object_unref (m);
      return FALSE;
    }
  has_exif = gexiv2_metadata_has_exif (m);
  has_xmp = gexiv2_metadata_has_xmp (m);
  has_iptc = gexiv2_metadata_has_iptc (m);
  comment = gexiv2_metadata_try_get_comment (m, NULL);
  if (! has_exif && ! has_xmp && ! has_iptc
      && (comment == NULL || *comment == '\0'))
    {
      g_free (comment);
      g_object_unref (m);
      return TRUE;
    }
  g_free (comment);

  out_kind = gs_file_kind (output);
  if (! kind_holds_metadata (out_kind))
    {
      *dropped = TRUE;
      g_object_unref (m);
      return TRUE;
    }
  if (has_exif)
    update_exif (m, u, out_kind);
  if (has_xmp)
    update_xmp (m, u);
  ok = gexiv2_metadata_save_file (m, output, &local);
  if (! ok)
    {
      g_set_error (error, GS_IMAGE_IO_ERROR, GS_IMAGE_IO_ERROR_ENCODE,
                   _("cannot write the metadata: %s"), local->message);
      g_error_free (local);
    }
  g_object_unref (m);
  return ok;
}
