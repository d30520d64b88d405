/* probe — fixtures and measurements for the apply tests, from tools that
 * are not the code under test.
 *
 *   probe profile OUT.icc adobe|wide DESCRIPTION
 *       writes an RGB matrix/TRC profile made with Little CMS: "adobe" has
 *       the Adobe RGB (1998) primaries, D65 white and gamma 563/256 (a
 *       version 2 profile, as Adobe's own); "wide" has P3 primaries and
 *       gamma 1.8 (version 4), so a test sees a curve that is neither
 *       sRGB's nor Adobe's.
 *   probe pixel FILE X Y
 *       prints the values FILE stores at (X, Y) as integers at the file's
 *       own depth (R G B A), with no colour conversion whatever profile
 *       the file carries.
 *   probe convert FROM.icc|srgb TO.icc|srgb R G B
 *       prints R G B (0..1, encoded for FROM) converted to TO by Little
 *       CMS, relative colorimetric with black-point compensation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gegl.h>
#include <lcms2.h>

static int
make_profile (const char *path,
              const char *kind,
              const char *description)
{
  cmsCIExyY        d65 = { 0.3127, 0.3290, 1.0 };
  cmsCIExyYTRIPLE  adobe = { { 0.64, 0.33, 1 }, { 0.21, 0.71, 1 },
                             { 0.15, 0.06, 1 } };
  cmsCIExyYTRIPLE  p3 = { { 0.680, 0.320, 1 }, { 0.265, 0.690, 1 },
                          { 0.150, 0.060, 1 } };
  gboolean         is_adobe = strcmp (kind, "adobe") == 0;
  cmsToneCurve    *curve = cmsBuildGamma (NULL, is_adobe ? 563.0 / 256.0
                                                         : 1.8);
  cmsToneCurve    *curves[3] = { curve, curve, curve };
  cmsHPROFILE      h = cmsCreateRGBProfile (&d65, is_adobe ? &adobe : &p3,
                                            curves);
  cmsMLU          *mlu = cmsMLUalloc (NULL, 1);

  cmsSetProfileVersion (h, is_adobe ? 2.1 : 4.3);
  cmsMLUsetASCII (mlu, "en", "US", description);
  cmsWriteTag (h, cmsSigProfileDescriptionTag, mlu);
  if (! cmsSaveProfileToFile (h, path))
    {
      fprintf (stderr, "probe: cannot write %s\n", path);
      return 1;
    }
  cmsMLUfree (mlu);
  cmsFreeToneCurve (curve);
  cmsCloseProfile (h);
  return 0;
}

static int
print_pixel (const char *path,
             int         x,
             int         y)
{
  GeglNode     *graph = gegl_node_new ();
  GeglNode     *load = gegl_node_new_child (graph, "operation", "gegl:load",
                                            "path", path, NULL);
  GeglBuffer   *buffer = NULL;
  GeglNode     *sink = gegl_node_new_child (graph, "operation",
                                            "gegl:buffer-sink",
                                            "buffer", &buffer, NULL);
  GeglRectangle one = { x, y, 1, 1 };
  const Babl   *stored, *type, *format;
  double        v[4];

  gegl_node_link (load, sink);
  gegl_node_process (sink);
  g_object_unref (graph);
  if (buffer == NULL)
    {
      fprintf (stderr, "probe: cannot load %s\n", path);
      return 1;
    }
  stored = gegl_buffer_get_format (buffer);
  type = babl_format_get_type (stored, 0);
  /* The file's own space and depth: an exact read of what it stores. */
  if (type == babl_type ("u8"))
    {
      guint8 p[4];

      format = babl_format_with_space ("R'G'B'A u8", stored);
      gegl_buffer_get (buffer, &one, 1.0, format, p, GEGL_AUTO_ROWSTRIDE,
                       GEGL_ABYSS_NONE);
      for (int i = 0; i < 4; i++)
        v[i] = p[i];
    }
  else if (type == babl_type ("u16"))
    {
      guint16 p[4];

      format = babl_format_with_space ("R'G'B'A u16", stored);
      gegl_buffer_get (buffer, &one, 1.0, format, p, GEGL_AUTO_ROWSTRIDE,
                       GEGL_ABYSS_NONE);
      for (int i = 0; i < 4; i++)
        v[i] = p[i];
    }
  else
    {
      float p[4];

      format = babl_format_with_space ("R'G'B'A float", stored);
      gegl_buffer_get (buffer, &one, 1.0, format, p, GEGL_AUTO_ROWSTRIDE,
                       GEGL_ABYSS_NONE);
      for (int i = 0; i < 4; i++)
        v[i] = p[i];
    }
  printf ("%g %g %g %g\n", v[0], v[1], v[2], v[3]);
  g_object_unref (buffer);
  return 0;
}

static cmsHPROFILE
open_profile (const char *name)
{
  return strcmp (name, "srgb") == 0 ? cmsCreate_sRGBProfile ()
                                    : cmsOpenProfileFromFile (name, "r");
}

static int
convert (const char *from_name,
         const char *to_name,
         char      **rgb)
{
  cmsHPROFILE   from = open_profile (from_name), to = open_profile (to_name);
  cmsHTRANSFORM xform;
  float         in[3], out[3];

  if (from == NULL || to == NULL)
    {
      fprintf (stderr, "probe: cannot open the profiles\n");
      return 1;
    }
  xform = cmsCreateTransform (from, TYPE_RGB_FLT, to, TYPE_RGB_FLT,
                              INTENT_RELATIVE_COLORIMETRIC,
                              cmsFLAGS_BLACKPOINTCOMPENSATION);
  for (int i = 0; i < 3; i++)
    in[i] = (float) g_ascii_strtod (rgb[i], NULL);
  cmsDoTransform (xform, in, out, 1);
  printf ("%.6f %.6f %.6f\n", out[0], out[1], out[2]);
  cmsDeleteTransform (xform);
  cmsCloseProfile (from);
  cmsCloseProfile (to);
  return 0;
}

int
main (int    argc,
      char **argv)
{
  int status = 2;

  if (argc == 5 && strcmp (argv[1], "profile") == 0)
    return make_profile (argv[2], argv[3], argv[4]);
  if (argc == 7 && strcmp (argv[1], "convert") == 0)
    return convert (argv[2], argv[3], argv + 4);
  if (argc == 5 && strcmp (argv[1], "pixel") == 0)
    {
      gegl_init (NULL, NULL);
      status = print_pixel (argv[2], atoi (argv[3]), atoi (argv[4]));
      gegl_exit ();
      return status;
    }
  fprintf (stderr, "usage: probe profile|pixel|convert ...\n");
  return status;
}
