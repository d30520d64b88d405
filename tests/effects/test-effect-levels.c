/* Mip levels of the effect ops, as tests/plugin/test-levels.c checks them
 * for the per-file ops and shader:run: at level L > 0 (GIMP's zoomed-out
 * views, or gegl_node_blit() with a scale of 1/2^L and GEGL's
 * "mipmap-rendering" switched on) the output must approximate the level-0
 * output scaled down by 2^L.  On a smooth input this compares, pixel by
 * pixel, a one-pass point effect (multi-Brighten), a two-pass blur whose
 * taps are BUFFER_RCP_WIDTH and ReShade::PixelSize apart (the offsets of
 * the full image at every level, so the blur stays as wide), and checks
 * that BUFFER_WIDTH, BUFFER_HEIGHT, BUFFER_RCP_WIDTH and
 * BUFFER_PIXEL_SIZE keep the full-resolution values at levels 1 and 2,
 * while SV_Position counts the level's own pixels (the level is rendered
 * at its size, not at full size and scaled down); the mouse point stays
 * in full-resolution pixels, as BUFFER_* do.
 *
 * Environment (set by meson): GS_PLUGIN_MODULE, GS_GEGL_PLUGINS_DIR as for
 * the plugin tests; FX_DIR (compiled in) holds the effect files.
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
static gchar *filters_dir;

static void
make_module_dir (void)
{
  module_dir = gs_test_make_module_dir ("gs-fx-levels-mods-XXXXXX");
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
test_point_effect (void)
{
  /* A gain below 1: the back buffer of a ReShade effect saturates at 1,
   * and a level of a saturated image is not the saturated level. */
  Comparison r = compare_levels ("shader:multi-Brighten", "gain", 0.5, NULL);

  g_assert_cmpfloat (r.max_change, >, 0.1);
  g_assert_cmpfloat (r.max_error, <, 0.005);
}

/* Radius 3: taps three full-resolution pixels apart, 1.5 and 0.75
 * reduced pixels at levels 1 and 2. */
static void
test_two_pass_blur (void)
{
  Comparison r = compare_levels ("shader:blur", "radius", 3.0, NULL);

  g_assert_cmpfloat (r.max_change, >, 0.002);
  g_assert_cmpfloat (r.max_error, <, 0.025);
}

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
                                                "operation", "shader:size",
                                                NULL);
      gfloat     *px;

      gegl_node_link (source, node);
      px = blit (node, level);
      g_assert_cmpfloat_with_epsilon (px[0], W / 100.0, 1e-5);
      g_assert_cmpfloat_with_epsilon (px[1], H / 100.0, 1e-5);
      g_assert_cmpfloat_with_epsilon (px[2], 10.0 / W, 1e-5);
      g_assert_cmpfloat_with_epsilon (px[3], 10.0 / H, 1e-5);
      g_free (px);
      g_object_unref (graph);
      g_object_unref (input);
    }
}

/* At level L pixel (x, y) is rendered as viewport pixel (x, y) of the
 * level's image, with TEXCOORD still spanning the whole image. */
static void
test_rendered_at_level (void)
{
  for (gint level = 1; level <= 2; level++)
    {
      GeglBuffer *input  = smooth_input ();
      GeglNode   *graph  = gegl_node_new ();
      GeglNode   *source = gegl_node_new_child (graph,
                                                "operation", "gegl:buffer-source",
                                                "buffer", input, NULL);
      GeglNode   *node   = gegl_node_new_child (graph,
                                                "operation", "shader:position",
                                                NULL);
      gint        k      = 1 << level;
      gint        x      = 5, y = 3;
      gfloat     *px;
      gfloat     *p;

      gegl_node_link (source, node);
      px = blit (node, level);
      p  = px + (y * (W / k) + x) * 4;
      g_assert_cmpfloat_with_epsilon (p[0], (x + 0.5) / 100.0, 1e-5);
      g_assert_cmpfloat_with_epsilon (p[1], (y + 0.5) / 100.0, 1e-5);
      g_assert_cmpfloat_with_epsilon (p[2], (x + 0.5) / (W / k), 1e-5);
      g_assert_cmpfloat_with_epsilon (p[3], (y + 0.5) / (H / k), 1e-5);
      g_free (px);
      g_object_unref (graph);
      g_object_unref (input);
    }
}

/* The mouse point is in full-resolution pixels at every level, as the
 * BUFFER_* values are: pointer.fx shows it / 1000 in its left half. */
static void
test_mousepoint_at_level (void)
{
  for (gint level = 0; level <= 2; level++)
    {
      GeglBuffer *input  = smooth_input ();
      GeglNode   *graph  = gegl_node_new ();
      GeglNode   *source = gegl_node_new_child (graph,
                                                "operation", "gegl:buffer-source",
                                                "buffer", input, NULL);
      GeglNode   *node   = gegl_node_new_child (graph,
                                                "operation", "shader:pointer",
                                                "mousepoint-x", 40.0,
                                                "mousepoint-y", 25.0,
                                                NULL);
      gfloat     *px;

      gegl_node_link (source, node);
      px = blit (node, level);
      g_assert_cmpfloat_with_epsilon (px[0], 0.040, 1e-6);
      g_assert_cmpfloat_with_epsilon (px[1], 0.025, 1e-6);
      g_assert_cmpfloat_with_epsilon (px[2], W / 1000.0, 1e-6);
      g_free (px);
      g_object_unref (graph);
      g_object_unref (input);
    }
}

static void
copy_filter (const gchar *name)
{
  gchar  *from = g_build_filename (FX_DIR, name, NULL);
  gchar  *to   = g_build_filename (filters_dir, name, NULL);
  gchar  *text = NULL;
  gsize   length;

  g_assert_true (g_file_get_contents (from, &text, &length, NULL));
  g_assert_true (g_file_set_contents (to, text, length, NULL));
  g_free (text);
  g_free (to);
  g_free (from);
}

int
main (int    argc,
      char **argv)
{
  int result;

  g_test_init (&argc, &argv, NULL);
  make_module_dir ();
  filters_dir = g_dir_make_tmp ("gs-fx-levels-XXXXXX", NULL);
  g_assert_nonnull (filters_dir);
  copy_filter ("blur.fx");
  copy_filter ("multi.fx");
  copy_filter ("size.fx");
  copy_filter ("position.fx");
  copy_filter ("pointer.fx");
  g_setenv ("GEGL_SWAP", "RAM", TRUE);
  g_setenv ("GEGL_SHADERS_PATH", filters_dir, TRUE);
  g_setenv ("XDG_DATA_HOME", filters_dir, TRUE);
  g_setenv ("XDG_DATA_DIRS", filters_dir, TRUE);
  gegl_init (&argc, &argv);
  /* Without it GEGL renders at level 0 and scales the result. */
  g_object_set (gegl_config (), "mipmap-rendering", TRUE, NULL);

  g_test_add_func ("/effect-levels/point-effect", test_point_effect);
  g_test_add_func ("/effect-levels/two-pass-blur", test_two_pass_blur);
  g_test_add_func ("/effect-levels/size-macros", test_size_macros);
  g_test_add_func ("/effect-levels/rendered-at-level",
                   test_rendered_at_level);
  g_test_add_func ("/effect-levels/mousepoint", test_mousepoint_at_level);

  result = g_test_run ();
  gegl_exit ();
  remove_module_dir ();
  gs_test_remove_flat_dir (filters_dir);
  return result;
}
