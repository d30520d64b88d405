/* imgtool — the image arithmetic behind the filter tests and the gallery.
 *
 * The filter tests render with the real gegl-shaders CLI and need three
 * things the CLI does not do: compare a render with a stored reference
 * within a tolerance, check a render for values no filter may produce
 * (NaN, infinities, alpha outside [0,1]), and tile several renders into one
 * picture for the eye.  Images are read through GEGL's loaders as
 * perceptual R'G'B'A float, the space the filters work in, so an 8-bit
 * reference and a float render compare directly.
 *
 *   imgtool compare RENDER REFERENCE MAX_DIFF MEAN_DIFF   (passes when at
 *       most 0.2% of the channel values differ by more than MAX_DIFF and
 *       the mean absolute difference is at most MEAN_DIFF)
 *   imgtool check RENDER...
 *   imgtool montage OUT COLUMNS IMG...
 *
 * Exit status: 0 pass, 1 failed comparison or check, 2 usage or I/O error.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gegl.h>

typedef struct
{
  int    width, height;
  float *pixels;   /* RGBA */
} Image;

static gboolean
load (const char *path,
      Image      *img)
{
  GeglNode   *graph, *loader, *sink;
  GeglBuffer *buffer = NULL;
  const GeglRectangle *extent;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      fprintf (stderr, "imgtool: %s: no such file\n", path);
      return FALSE;
    }
  graph = gegl_node_new ();
  loader = gegl_node_new_child (graph, "operation", "gegl:load",
                                "path", path, NULL);
  sink = gegl_node_new_child (graph, "operation", "gegl:buffer-sink",
                              "buffer", &buffer, NULL);
  gegl_node_link (loader, sink);
  gegl_node_process (sink);
  g_object_unref (graph);
  if (!buffer)
    {
      fprintf (stderr, "imgtool: %s: cannot load\n", path);
      return FALSE;
    }
  extent = gegl_buffer_get_extent (buffer);
  img->width = extent->width;
  img->height = extent->height;
  if (img->width <= 0 || img->height <= 0)
    {
      fprintf (stderr, "imgtool: %s: empty image\n", path);
      g_object_unref (buffer);
      return FALSE;
    }
  img->pixels = g_new (float, (gsize) img->width * img->height * 4);
  gegl_buffer_get (buffer, extent, 1.0, babl_format ("R'G'B'A float"),
                   img->pixels, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  g_object_unref (buffer);
  return TRUE;
}

static int
compare (const char *render_path,
         const char *ref_path,
         double      max_allowed,
         double      mean_allowed)
{
  Image  a, b;
  double max_diff = 0.0, sum = 0.0;
  int    worst_x = 0, worst_y = 0;
  size_t n, over = 0;

  if (!load (render_path, &a) || !load (ref_path, &b))
    return 2;
  if (a.width != b.width || a.height != b.height)
    {
      printf ("size %dx%d differs from the reference's %dx%d\n",
              a.width, a.height, b.width, b.height);
      return 1;
    }
  n = (size_t) a.width * a.height;
  for (size_t i = 0; i < n * 4; i++)
    {
      double d = fabs ((double) a.pixels[i] - b.pixels[i]);
      if (isnan (d))
        d = INFINITY;   /* a NaN never matches anything */
      sum += d;
      if (d > max_allowed)
        over++;
      if (d > max_diff)
        {
          max_diff = d;
          worst_x = (int) ((i / 4) % a.width);
          worst_y = (int) ((i / 4) / a.width);
        }
    }
  sum /= (double) (n * 4);
  printf ("max difference %.5f at %d,%d; %zu of %zu values over %.5f "
          "(allowed: 0.2%%); mean %.6f (allowed %.6f)\n", max_diff, worst_x,
          worst_y, over, n * 4, max_allowed, sum, mean_allowed);
  /* Hard thresholds (posterize, dither, halftone) may flip a few pixels
   * on the last bit of a float; a handful of outliers is tolerated, a
   * systematic difference is not. */
  return (over * 1000 <= n * 4 * 2 && sum <= mean_allowed) ? 0 : 1;
}

static int
check (const char *path)
{
  Image  img;
  size_t n, bad_values = 0, bad_alpha = 0;

  if (!load (path, &img))
    return 2;
  n = (size_t) img.width * img.height;
  for (size_t i = 0; i < n; i++)
    {
      const float *p = img.pixels + 4 * i;
      for (int c = 0; c < 4; c++)
        if (!isfinite (p[c]))
          bad_values++;
      if (!(p[3] >= 0.0f && p[3] <= 1.0f))
        bad_alpha++;
    }
  if (bad_values || bad_alpha)
    {
      printf ("%s: %zu non-finite values, %zu alpha values outside [0,1]\n",
              path, bad_values, bad_alpha);
      return 1;
    }
  return 0;
}

static int
montage (const char  *out,
         int          columns,
         char       **paths,
         int          n_paths)
{
  Image      *imgs = g_new0 (Image, n_paths);
  int         cell_w = 0, cell_h = 0, rows, width, height;
  float      *canvas;
  GeglBuffer *buffer;
  GeglNode   *graph, *src, *save;
  GeglRectangle rect;

  for (int i = 0; i < n_paths; i++)
    {
      if (!load (paths[i], &imgs[i]))
        return 2;
      cell_w = MAX (cell_w, imgs[i].width);
      cell_h = MAX (cell_h, imgs[i].height);
    }
  columns = CLAMP (columns, 1, n_paths);
  rows = (n_paths + columns - 1) / columns;
  width = columns * (cell_w + 4);
  height = rows * (cell_h + 4);
  canvas = g_new0 (float, (gsize) width * height * 4);
  for (size_t i = 0; i < (size_t) width * height; i++)
    canvas[4 * i + 3] = 1.0f;
  for (int i = 0; i < n_paths; i++)
    {
      int ox = (i % columns) * (cell_w + 4), oy = (i / columns) * (cell_h + 4);
      for (int y = 0; y < imgs[i].height; y++)
        memcpy (canvas + ((size_t) (oy + y) * width + ox) * 4,
                imgs[i].pixels + (size_t) y * imgs[i].width * 4,
                sizeof (float) * 4 * imgs[i].width);
    }
  rect = (GeglRectangle) { 0, 0, width, height };
  buffer = gegl_buffer_new (&rect, babl_format ("R'G'B'A float"));
  gegl_buffer_set (buffer, &rect, 0, babl_format ("R'G'B'A float"), canvas,
                   GEGL_AUTO_ROWSTRIDE);
  graph = gegl_node_new ();
  src = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                             "buffer", buffer, NULL);
  save = gegl_node_new_child (graph, "operation", "gegl:save",
                              "path", out, NULL);
  gegl_node_link (src, save);
  gegl_node_process (save);
  g_object_unref (graph);
  g_object_unref (buffer);
  return 0;
}

int
main (int    argc,
      char **argv)
{
  int status = 2;

  gegl_init (&argc, &argv);
  if (argc == 6 && strcmp (argv[1], "compare") == 0)
    status = compare (argv[2], argv[3], g_ascii_strtod (argv[4], NULL),
                      g_ascii_strtod (argv[5], NULL));
  else if (argc >= 3 && strcmp (argv[1], "check") == 0)
    {
      status = 0;
      for (int i = 2; i < argc; i++)
        status = MAX (status, check (argv[i]));
    }
  else if (argc >= 5 && strcmp (argv[1], "montage") == 0)
    status = montage (argv[2], atoi (argv[3]), argv + 4, argc - 4);
  else
    fprintf (stderr, "usage: imgtool compare RENDER REF MAX_DIFF MEAN_DIFF\n"
                     "       imgtool check RENDER...\n"
                     "       imgtool montage OUT COLUMNS IMG...\n");
  gegl_exit ();
  return status;
}
