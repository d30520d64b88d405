/* colour-convert — the batch command's explicit conversion to another
 * colour profile (`apply --convert-to PROFILE`).
 *
 * Without it an image keeps its own space: the filter sees the values
 * the file stores, and the output embeds the input's profile (see
 * apply.c).  With it, the stored values are converted from the input's
 * embedded profile (sRGB when it has none) to the target profile by
 * Little CMS, the colour engine GIMP itself converts with, with the
 * relative colorimetric intent and black-point compensation (GIMP's
 * defaults), before the filter runs; the output then embeds the target.
 * LittleCMS handles every kind of RGB profile (matrix-shaper and LUT),
 * which babl does not, and converts float values without clipping them.
 *
 * The target is an ICC file or "srgb", a built-in sRGB profile whose
 * bytes are the same on every run and machine (its creation date is
 * fixed), so that re-running a conversion writes identical files.
 * Profile handles of Little CMS are not safe to share between threads,
 * so each conversion opens its own from the bytes; that costs far less
 * than the conversion itself.
 */
#include "config.h"

#include "colour-convert.h"

#include <string.h>
#include <lcms2.h>

#include <glib/gi18n.h>

#include "icc-file.h"

struct _GsColourTarget
{
  GBytes     *profile;
  char       *description;
  const Babl *space;      /* NULL: sRGB, or a profile babl cannot read */
  gboolean    is_srgb;
};

/* The ICC header's colour space signature (bytes 16-19). */
static gboolean
profile_is_rgb (GBytes *profile)
{
  gsize         length;
  const guint8 *data = g_bytes_get_data (profile, &length);

  return length >= 128 && memcmp (data + 16, "RGB ", 4) == 0;
}

/* The built-in sRGB profile, the same bytes every time. */
static GBytes *
builtin_srgb (void)
{
  cmsHPROFILE     h = cmsCreate_sRGBProfile ();
  cmsMLU         *desc = cmsMLUalloc (NULL, 1);
  cmsUInt32Number length = 0;
  guint8         *data;
  /* 2024-01-01 00:00:00, big-endian year, month, day, h, m, s. */
  static const guint8 date[12] = { 0x07, 0xe8, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0 };

  cmsMLUsetASCII (desc, "en", "US", "sRGB (gegl-shaders built-in)");
  cmsWriteTag (h, cmsSigProfileDescriptionTag, desc);
  cmsMLUfree (desc);
  cmsSaveProfileToMem (h, NULL, &length);
  data = g_malloc (length);
  cmsSaveProfileToMem (h, data, &length);
  cmsCloseProfile (h);
  memcpy (data + 24, date, sizeof date);
  memset (data + 84, 0, 16);   /* profile ID: "not computed" */
  return g_bytes_new_take (data, length);
}

GsColourTarget *
gs_colour_target_new (const char *spec,
                      GError    **error)
{
  GsColourTarget *t = g_new0 (GsColourTarget, 1);
  cmsHPROFILE     h;
  gsize           length;
  const void     *data;

  if (g_ascii_strcasecmp (spec, "srgb") == 0)
    {
      t->profile = builtin_srgb ();
      t->is_srgb = TRUE;
    }
  else
    {
      char   *contents;
      GError *local = NULL;

      if (! g_file_get_contents (spec, &contents, &length, &local))
        {
          g_set_error (error, G_FILE_ERROR, local->code,
                       _("cannot read the colour profile '%s': %s"), spec,
                       local->message);
          g_error_free (local);
          gs_colour_target_free (t);
          return NULL;
        }
      if (length > GS_ICC_MAX_BYTES)
        length = 0;
      t->profile = g_bytes_new_take (contents, length);
    }

  data = g_bytes_get_data (t->profile, &length);
  h = length > 0 ? cmsOpenProfileFromMem (data, (cmsUInt32Number) length)
                 : NULL;
  if (h == NULL || ! profile_is_rgb (t->profile)
      || ! cmsIsIntentSupported (h, INTENT_RELATIVE_COLORIMETRIC,
                                 LCMS_USED_AS_OUTPUT))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   h == NULL ? _("'%s' is not an ICC profile")
                             : _("'%s' is not an RGB output profile"), spec);
      if (h != NULL)
        cmsCloseProfile (h);
      gs_colour_target_free (t);
      return NULL;
    }
  cmsCloseProfile (h);
  t->description = gs_icc_description (t->profile);
  if (! t->is_srgb)
    t->space = babl_space_from_icc (data, (int) length,
                                    BABL_ICC_INTENT_RELATIVE_COLORIMETRIC,
                                    NULL);
  if (t->space == babl_space ("sRGB"))
    t->space = NULL;
  return t;
}

void
gs_colour_target_free (GsColourTarget *t)
{
  if (t == NULL)
    return;
  if (t->profile != NULL)
    g_bytes_unref (t->profile);
  g_free (t->description);
  g_free (t);
}

GBytes *
gs_colour_target_profile (const GsColourTarget *t)
{
  return t->profile;
}

const char *
gs_colour_target_description (const GsColourTarget *t)
{
  return t->description;
}

const Babl *
gs_colour_target_space (const GsColourTarget *t)
{
  return t->space;
}

gboolean
gs_colour_target_is_srgb (const GsColourTarget *t)
{
  return t->is_srgb;
}

gboolean
gs_colour_profile_is_rgb (GBytes *profile)
{
  return profile == NULL || profile_is_rgb (profile);
}

gboolean
gs_colour_convert (GsImage              *image,
                   GBytes               *source,
                   const GsColourTarget *t,
                   GError              **error)
{
  cmsHPROFILE   from, to;
  cmsHTRANSFORM xform;
  gsize         length;
  const void   *data;

  if (source != NULL && g_bytes_equal (source, t->profile))
    {
      image->space = t->space;
      return TRUE;
    }
  if (source != NULL)
    {
      data = g_bytes_get_data (source, &length);
      from = cmsOpenProfileFromMem (data, (cmsUInt32Number) length);
    }
  else
    from = cmsCreate_sRGBProfile ();
  data = g_bytes_get_data (t->profile, &length);
  to = cmsOpenProfileFromMem (data, (cmsUInt32Number) length);
  xform = from != NULL && to != NULL
          ? cmsCreateTransform (from, TYPE_RGBA_FLT, to, TYPE_RGBA_FLT,
                                INTENT_RELATIVE_COLORIMETRIC,
                                cmsFLAGS_BLACKPOINTCOMPENSATION
                                | cmsFLAGS_COPY_ALPHA)
          : NULL;
  if (from != NULL)
    cmsCloseProfile (from);
  if (to != NULL)
    cmsCloseProfile (to);
  if (xform == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   from == NULL ? _("its colour profile cannot be used for "
                                    "conversion")
                                : _("no conversion from its colour profile "
                                    "to the target profile"));
      return FALSE;
    }
  /* Row by row: the pixel count of one call is a cmsUInt32Number. */
  for (int y = 0; y < image->height; y++)
    {
      float *row = image->pixels + (gsize) y * image->width * 4;

      cmsDoTransform (xform, row, row, (cmsUInt32Number) image->width);
    }
  cmsDeleteTransform (xform);
  image->space = t->space;
  return TRUE;
}
