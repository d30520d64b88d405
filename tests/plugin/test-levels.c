/* Mip levels: GIMP's zoomed-out views render a graph at level L > 0, and
 * then every op's process() runs at that level.  gegl_node_blit() with a
 * scale of 1/2^L and GEGL's "mipmap-rendering" switched on takes the same
 * path.  The output at level L must approximate the level-0 output scaled
 * down by 2^L; this test compares the two, pixel by pixel, on a smooth
 * input (so that reading the scaled input is close to scaling the
 * result), for a point shader, a shader that reads at a pixel-sized
 * offset (PIXELSIZE must stay the full-resolution pixel), shader:run, and
 * a shader that writes the ReShade size macros; and that shader:run
 * renders the level's own pixels rather than level 0 scaled down.
 *
 * Environment (set by meson): GS_PLUGIN_MODULE, GS_GEGL_PLUGINS_DIR as for
 * test-shader-run, GS_TEST_FILTERS = tests/plugin/filters,
 * GS_SOURCE_ROOT = the project's source folder.
 */

#include <math.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <gegl.h>

#include "module-dir.h"

#define FORMAT "R'G'B'A float"
#define W 96
#define H 64

static gchar *module_dir;

static void
make_module_dir (void)
{
  module_dir = gs_test_make_module_dir ("gs-levels-XXXXXX");
}

static void
remove_module_dir (void)
{
  gs_test_remove_module_dir (module_dir);
  module_dir = NULL;
}

/* Smooth ramps and a gentle saddle, all inside (0, 1). */
static GeglBuffer *
smooth_input (void)
{
  GeglBuffer *buffer = gegl_buffer_new (GEGL_RECTANGLE (0, 0, W, H),
                                        babl_format (FORMAT));
  gfloat     *px     = g_new (gfloat, W * H * 4);

  for (gint y = 0; y < H; y++)
    for (gint x = 0; x < W; x++)
      {
        gfloat *p = px + (y * W + x) * 4;

        p[0] = 0.1f + 0.8f * x / W;
        p[1] = 0.1f + 0.8f * y / H;
        p[2] = 0.5f + 0.4f * (x - W / 2) * (y - H / 3) / (gfloat) (W * H);
        p[3] = 1.0f;
      }
  gegl_buffer_set (buffer, NULL, 0, babl_format (FORMAT), px,
                   GEGL_AUTO_ROWSTRIDE);
  g_free (px);
  return buffer;
}

typedef struct
{
  gdouble max_error;     /* against the scaled-down level-0 output */
  gdouble max_change;    /* against the scaled-down input */
} Comparison;

static gfloat *
blit (GeglNode *node,
      gint      level)
{
  gint    k  = 1 << level;
  gfloat *px = g_new0 (gfloat, (W / k) * (H / k) * 4);

  gegl_node_blit (node, 1.0 / k, GEGL_RECTANGLE (0, 0, W / k, H / k),
                  babl_format (FORMAT), px, GEGL_AUTO_ROWSTRIDE,
                  GEGL_BLIT_DEFAULT);
  return px;
}

static gdouble
box (const gfloat *full,
     gint          x,
     gint          y,
     gint          c,
     gint          k)
{
  gdouble sum = 0;

  for (gint dy = 0; dy < k; dy++)
    for (gint dx = 0; dx < k; dx++)
      sum += full[((y * k + dy) * W + x * k + dx) * 4 + c];
  return sum / (k * k);
}

/* Renders @node at level 0 and at @level on a fresh graph each time, so
 * nothing cached at one level answers the other. */
static Comparison
compare_levels (const gchar *operation,
                const gchar *first_property,
                ...)
{
  Comparison  result = { 0, 0 };
  GeglBuffer *input  = smooth_input ();
  gfloat     *in     = g_new (gfloat, W * H * 4);
  gfloat     *full   = NULL;
  gint        level;

  gegl_buffer_get (input, NULL, 1.0, babl_format (FORMAT), in,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);

  for (level = 0; level <= 2; level++)
    {
      GeglNode *graph  = gegl_node_new ();
      GeglNode *source = gegl_node_new_child (graph,
                                              "operation", "gegl:buffer-source",
                                              "buffer", input, NULL);
      GeglNode *node   = gegl_node_new_child (graph, "operation", operation,
                                              NULL);
      gint      k      = 1 << level;
      gfloat   *px;
      va_list   args;

      va_start (args, first_property);
      if (first_property)
        gegl_node_set_valist (node, first_property, args);
      va_end (args);
      gegl_node_link (source, node);

      px = blit (node, level);
      if (level == 0)
        full = px;
      else
        {
          for (gint y = 0; y < H / k; y++)
            for (gint x = 0; x < W / k; x++)
              for (gint c = 0; c < 4; c++)
                {
                  gdouble v = px[(y * (W / k) + x) * 4 + c];

                  result.max_error  = MAX (result.max_error,
                                           fabs (v - box (full, x, y, c, k)));
                  result.max_change = MAX (result.max_change,
                                           fabs (v - box (in, x, y, c, k)));
                }
          g_free (px);
        }
      g_object_unref (graph);
    }

  g_test_message ("%s: max error %.4f, max change %.4f", operation,
                  result.max_error, result.max_change);
  g_free (full);
  g_free (in);
  g_object_unref (input);
  return result;
}

static void
test_point_shader (void)
{
  Comparison r = compare_levels ("shader:tint", "amount", 1.0, NULL);

  g_assert_cmpfloat (r.max_change, >, 0.3);
  g_assert_cmpfloat (r.max_error, <, 0.005);
}

/* Reads three pixels left and two down through PIXELSIZE: at level 2 the
 * offset is 0.75 × 0.5 reduced pixels, not three whole ones. */
static void
test_pixel_offset (void)
{
  Comparison r = compare_levels ("shader:shift", NULL);

  g_assert_cmpfloat (r.max_change, >, 0.005);
  g_assert_cmpfloat (r.max_error, <, 0.025);
}

static void
test_shader_run (void)
{
  gchar      *path = g_build_filename (g_getenv ("GS_SOURCE_ROOT"), "filters",
                                       "sepia-tone.hlsl", NULL);
  Comparison  r    = compare_levels ("shader:run", "file", path, NULL);

  g_assert_cmpfloat (r.max_change, >, 0.1);
  g_assert_cmpfloat (r.max_error, <, 0.005);
  g_free (path);
}

/* shader:run renders the level itself rather than level 0 scaled down:
 * at level L output pixel (x, y) is the level's own pixel (x, y), while
 * TEXCOORD0 still spans the image. */
static void
test_shader_run_at_level (void)
{
  static const gchar source[] =
    "float4 main (float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target\n"
    "{ return float4 (pos.x / 100, pos.y / 100, uv.x, uv.y); }\n";

  for (gint level = 1; level <= 2; level++)
    {
      GeglBuffer *input  = smooth_input ();
      GeglNode   *graph  = gegl_node_new ();
      GeglNode   *src    = gegl_node_new_child (graph,
                                                "operation", "gegl:buffer-source",
                                                "buffer", input, NULL);
      GeglNode   *node   = gegl_node_new_child (graph,
                                                "operation", "shader:run",
                                                "source", source, NULL);
      gint        k      = 1 << level;
      gchar      *error  = NULL;

      gegl_node_link (src, node);
      {
        gfloat *px = blit (node, level);

        for (gint y = 0; y < H / k; y += 3)
          for (gint x = 0; x < W / k; x += 5)
            {
              gfloat *p = px + (y * (W / k) + x) * 4;

              g_assert_cmpfloat_with_epsilon (p[0], (x + 0.5) / 100.0, 1e-5);
              g_assert_cmpfloat_with_epsilon (p[1], (y + 0.5) / 100.0, 1e-5);
              g_assert_cmpfloat_with_epsilon (p[2], (x + 0.5) / (W / k), 1e-5);
              g_assert_cmpfloat_with_epsilon (p[3], (y + 0.5) / (H / k), 1e-5);
            }
        g_free (px);
      }
      gegl_node_get (node, "error", &error, NULL);
      g_assert_cmpstr (error, ==, "");
      g_free (error);
      g_object_unref (graph);
      g_object_unref (input);
    }
}

/* BUFFER_WIDTH / 100, BUFFER_HEIGHT / 100, BUFFER_RCP_WIDTH × 10: the
 * full-resolution values at every level. */
static void
test_size_macros (void)
{
  for (gint level = 1; level <= 2; level++)
    {
      GeglBuffer *input  = smooth_input ();
      GeglNode   *graph  = gegl_node_new ();
      GeglNode   *source = gegl_node_new_child (graph,
                                                "operation", "gegl:buffer-source",
                                                "buffer", input, NULL);
      GeglNode   *node   = gegl_node_new_child (graph,
                                                "operation", "shader:reshade",
                                                NULL);
      gfloat     *px;

      gegl_node_link (source, node);
      px = blit (node, level);
      g_assert_cmpfloat_with_epsilon (px[0], W / 100.0, 1e-5);
      g_assert_cmpfloat_with_epsilon (px[1], H / 100.0, 1e-5);
      g_assert_cmpfloat_with_epsilon (px[2], 10.0 / W, 1e-5);
      g_free (px);
      g_object_unref (graph);
      g_object_unref (input);
    }
}

int
main (int    argc,
      char **argv)
{
  int result;

  g_test_init (&argc, &argv, NULL);
  make_module_dir ();
  g_setenv ("GEGL_SWAP", "RAM", TRUE);
  g_setenv ("GEGL_SHADERS_PATH", g_getenv ("GS_TEST_FILTERS"), TRUE);
  gegl_init (&argc, &argv);
  /* Without it GEGL renders at level 0 and scales the result. */
  g_object_set (gegl_config (), "mipmap-rendering", TRUE, NULL);

  g_test_add_func ("/levels/point-shader", test_point_shader);
  g_test_add_func ("/levels/pixel-offset", test_pixel_offset);
  g_test_add_func ("/levels/shader-run", test_shader_run);
  g_test_add_func ("/levels/shader-run-at-level", test_shader_run_at_level);
  g_test_add_func ("/levels/size-macros", test_size_macros);

  result = g_test_run ();
  gegl_exit ();
  remove_module_dir ();
  return result;
}
