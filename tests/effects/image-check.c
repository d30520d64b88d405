/* image-check — is a rendered image one a real render target could hold?
 *
 * Usage: image-check FILE…   For each file (a float TIFF the CLI wrote)
 * prints "ok FILE" when every component is finite and every alpha lies in
 * [0, 1], else "bad FILE: …" with the counts of NaN, infinite and
 * out-of-range alpha values, or "bad FILE: <load error>".  The corpus test
 * (corpus.sh) counts an effect as rendered only when its images pass
 * here.  Exit status 0 when all files pass, 1 otherwise. */
#include <stdio.h>
#include <math.h>

#include <gegl.h>

#include "image-io.h"

int
main (int argc, char **argv)
{
  int status = 0;

  gegl_init (&argc, &argv);
  gs_image_io_install_log_capture ();
  for (int i = 1; i < argc; i++)
    {
      GError *error = NULL;
      GsImage *im = gs_image_load (argv[i], babl_format ("R'G'B'A float"), &error);
      if (im == NULL)
        {
          printf ("bad %s: %s\n", argv[i], error->message);
          g_error_free (error);
          status = 1;
          continue;
        }
      size_t n = (size_t) im->width * im->height, nan = 0, inf = 0, alpha = 0;
      for (size_t k = 0; k < n; k++)
        {
          const float *px = im->pixels + k * 4;
          for (int c = 0; c < 4; c++)
            {
              nan += isnan (px[c]) != 0;
              inf += isinf (px[c]) != 0;
            }
          alpha += !(px[3] >= 0.0f && px[3] <= 1.0f);
        }
      if (nan || inf || alpha)
        {
          printf ("bad %s: %zu NaN, %zu infinite, %zu alpha outside [0, 1] (%d×%d)\n",
                  argv[i], nan, inf, alpha, im->width, im->height);
          status = 1;
        }
      else
        printf ("ok %s\n", argv[i]);
      gs_image_free (im);
    }
  gegl_exit ();
  return status;
}
