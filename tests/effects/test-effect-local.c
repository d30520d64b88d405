/* Local rendering of effects (sl_effect_run_set_local): a technique
 * rendered rectangle by rectangle, each from only the part of the input
 * that sl_effect_run_get_input_rect() names, must give the pixels of a
 * render of whole targets bit for bit, and hold no whole targets.  Run
 * on tests/effects/local.fx (targets of three sizes, SV_Position and
 * scaled reads, a border sampler, derivatives, blending, discards, a
 * target written twice with and without a clear) and on the shipped
 * blurs at sizes that take their different paths.  Reads past the
 * edges only (technique Beyond) must still fetch the edge texels. */
#include "shaderlib.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                       \
  do {                                                         \
    if (!(cond))                                               \
      {                                                        \
        fprintf (stderr, "FAIL %s:%d: ", __FILE__, __LINE__);  \
        fprintf (stderr, __VA_ARGS__);                         \
        fputc ('\n', stderr);                                  \
        failures++;                                            \
      }                                                        \
  } while (0)

/* A deterministic pattern in [0, 1], alpha varying too. */
static float *
pattern (int w, int h)
{
  float *px = g_new (float, (size_t) w * h * 4);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < 4; c++)
        {
          double v = sin (x * 12.9898 + y * 78.233 + c * 37.719) * 43758.5453;
          px[((size_t) y * w + x) * 4 + c] = c == 3 ? 0.5f + 0.5f * (float) ((x + y) % 3) / 2 : (float) (v - floor (v));
        }
  return px;
}

static SlEffect *
compile_file (const char *dir, const char *name, int w, int h)
{
  char *path = g_build_filename (dir, name, NULL), *text = NULL;
  SlEffect *fx = NULL;
  if (g_file_get_contents (path, &text, NULL, NULL))
    {
      SlDiagnostics *d = sl_diagnostics_new ();
      SlEffectOptions o = {
        .source = text, .length = (size_t) -1, .filename = path,
        .buffer_width = w, .buffer_height = h,
      };
      fx = sl_effect_compile (&o, d);
      if (!fx)
        {
          char *t = sl_diagnostics_format (d);
          fprintf (stderr, "%s", t ? t : "");
          g_free (t);
        }
      sl_diagnostics_free (d);
    }
  CHECK (fx != NULL, "%s does not compile", path);
  g_free (text);
  g_free (path);
  return fx;
}

static SlEffectRun *
new_run (SlEffect *fx, const char *technique, const SlTexture *input, const char *params, bool local)
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlEffectRun *run = sl_effect_run_new (fx, sl_effect_find_technique (fx, technique));
  sl_effect_run_set_input (run, input);
  sl_effect_run_set_local (run, local);
  if (params)
    CHECK (sl_effect_run_set_params_string (run, params, d), "%s: params %s", technique, params);
  CHECK (sl_effect_run_prepare (run, d), "%s: prepare", technique);
  sl_diagnostics_free (d);
  return run;
}

/* The first pixel where @a and @b differ in their bits, or -1. */
static long
first_difference (const float *a, const float *b, size_t n_pixels)
{
  for (size_t i = 0; i < n_pixels; i++)
    if (memcmp (a + i * 4, b + i * 4, 4 * sizeof (float)))
      return (long) i;
  return -1;
}

/* Renders @run in @tw×@th tiles, each given only the input it asks for
 * (a windowed texture over a copy of that part of @in). */
static float *
render_tiles (SlEffectRun *run, const float *in, int w, int h, int tw, int th)
{
  float *out = g_new0 (float, (size_t) w * h * 4);
  SlScratch *scratch = sl_scratch_new ();
  SlDiagnostics *d = sl_diagnostics_new ();
  for (int y = 0; y < h; y += th)
    for (int x = 0; x < w; x += tw)
      {
        int rw = MIN (tw, w - x), rh = MIN (th, h - y), ix, iy, iw, ih;
        CHECK (sl_effect_run_get_input_rect (run, x, y, rw, rh, &ix, &iy, &iw, &ih),
               "no bounded input rectangle for tile %d,%d", x, y);
        int x0 = MAX (ix, 0), y0 = MAX (iy, 0), x1 = MIN (ix + iw, w), y1 = MIN (iy + ih, h);
        float *part = g_new (float, (size_t) (x1 - x0) * (y1 - y0) * 4);
        for (int j = y0; j < y1; j++)
          memcpy (part + (size_t) (j - y0) * (x1 - x0) * 4, in + ((size_t) j * w + x0) * 4,
                  (size_t) (x1 - x0) * 4 * sizeof (float));
        SlTexture window;
        sl_texture_init_2d (&window, w, h, (size_t) (x1 - x0) * 4, part);
        window.window_x = x0;
        window.window_y = y0;
        window.window_width = x1 - x0;
        window.window_height = y1 - y0;
        SlTarget target = { out + ((size_t) y * w + x) * 4, (size_t) w * 4 };
        CHECK (sl_effect_render (run, scratch, x, y, rw, rh, &window, &target, d), "tile %d,%d", x, y);
        g_free (part);
      }
  sl_diagnostics_free (d);
  sl_scratch_free (scratch);
  return out;
}

static float *
render_whole (SlEffectRun *run, int w, int h)
{
  float *out = g_new0 (float, (size_t) w * h * 4);
  SlScratch *scratch = sl_scratch_new ();
  SlDiagnostics *d = sl_diagnostics_new ();
  SlTarget target = { out, (size_t) w * 4 };
  CHECK (sl_effect_render (run, scratch, 0, 0, w, h, NULL, &target, d), "whole render");
  sl_diagnostics_free (d);
  sl_scratch_free (scratch);
  return out;
}

/* Whole targets against local rendering in several tilings. */
static void
check_technique (const char *dir, const char *file, const char *technique, const char *params, int w,
                 int h, bool expect_local)
{
  SlEffect *fx = compile_file (dir, file, w, h);
  if (!fx)
    return;
  float *in = pattern (w, h);
  SlTexture input;
  sl_texture_init_2d (&input, w, h, (size_t) w * 4, in);
  SlEffectRun *whole = new_run (fx, technique, &input, params, false);
  SlEffectRun *local = new_run (fx, technique, &input, params, true);
  CHECK (!sl_effect_run_is_local (whole), "%s %s: local although turned off", file, technique);
  CHECK (sl_effect_run_is_local (local) == expect_local, "%s %s%s: local is %d, expected %d", file,
         technique, params ? params : "", sl_effect_run_is_local (local), expect_local);
  float *want = render_whole (whole, w, h);
  if (expect_local)
    {
      /* No whole targets: this effect has no image textures either. */
      CHECK (sl_effect_run_get_memory (local) == 0, "%s %s: a local run holds %zu bytes", file,
             technique, sl_effect_run_get_memory (local));
      CHECK (sl_effect_run_get_memory (whole) > 0, "%s %s: whole targets take no memory", file, technique);
      static const int tiles[][2] = { { 1 << 20, 1 << 20 }, { 13, 9 }, { 64, 5 }, { 7, 64 }, { 1, 1 } };
      for (guint k = 0; k < G_N_ELEMENTS (tiles); k++)
        {
          /* Single pixels only on a small image: each repeats every pass. */
          if (tiles[k][0] == 1 && w * h > 4096)
            continue;
          float *got = render_tiles (local, in, w, h, tiles[k][0], tiles[k][1]);
          long at = first_difference (got, want, (size_t) w * h);
          CHECK (at < 0, "%s %s%s, %d×%d tiles: pixel %ld,%ld is %.9g %.9g %.9g %.9g, whole targets "
                 "give %.9g %.9g %.9g %.9g", file, technique, params ? params : "",
                 tiles[k][0], tiles[k][1], at % w, at / w, got[at * 4], got[at * 4 + 1],
                 got[at * 4 + 2], got[at * 4 + 3], want[at * 4], want[at * 4 + 1], want[at * 4 + 2],
                 want[at * 4 + 3]);
          g_free (got);
        }
      float *got = render_whole (local, w, h);
      CHECK (first_difference (got, want, (size_t) w * h) < 0, "%s %s: one local render of the "
             "whole image differs", file, technique);
      g_free (got);
    }
  else
    {
      int ix, iy, iw, ih;
      CHECK (!sl_effect_run_get_input_rect (local, 0, 0, 1, 1, &ix, &iy, &iw, &ih),
             "%s %s: a bounded input rectangle without local rendering", file, technique);
    }
  printf ("%s %s%s%s at %d×%d: %s\n", file, technique, params ? " " : "", params ? params : "", w, h,
          expect_local ? "local tiles agree with whole targets" : "renders whole targets");
  g_free (want);
  sl_effect_run_free (whole);
  sl_effect_run_free (local);
  sl_effect_unref (fx);
  g_free (in);
}

/* A tile whose parts exceed the budget fails with a located error. */
static void
check_budget (void)
{
  int w = 64, h = 48;
  SlEffect *fx = compile_file (FX_DIR, "local.fx", w, h);
  if (!fx)
    return;
  float *in = pattern (w, h);
  SlTexture input;
  sl_texture_init_2d (&input, w, h, (size_t) w * 4, in);
  SlEffectRun *run = new_run (fx, "Local", &input, NULL, true);
  /* Local: prepare holds nothing, so a small budget passes it … */
  sl_effect_run_set_memory_budget (run, 160000, 0);
  SlDiagnostics *d = sl_diagnostics_new ();
  CHECK (sl_effect_run_check_memory (run, d), "a local run's memory check fails");
  /* … and an 8×8 tile fits, a whole-image one does not: its two back
   * buffers (49152 bytes each), the blending pass's scratch (49152) and
   * HalfTex (12288) fit, WideTex (49152) tips it over at 208896. */
  float *out = g_new0 (float, (size_t) w * h * 4);
  SlScratch *scratch = sl_scratch_new ();
  SlTarget target = { out, (size_t) w * 4 };
  CHECK (sl_effect_render (run, scratch, 0, 0, 8, 8, NULL, &target, d), "an 8×8 tile is over 160000 bytes");
  CHECK (!sl_effect_render (run, scratch, 0, 0, w, h, NULL, &target, d), "a whole render fits 160000 bytes");
  const SlDiagnostic *last = sl_diagnostics_count (d) ? sl_diagnostics_get (d, sl_diagnostics_count (d) - 1) : NULL;
  /* WideTex is declared on line 14 of local.fx. */
  CHECK (last && !strcmp (last->code, "E-API-EFFECT-MEMORY-BUDGET") && last->line == 14
         && !strcmp (last->message, "texture 'WideTex' (64×48): a 64×48 part of the image needs 48 KiB "
                     "of it, which brings the render to 204 KiB, over its memory budget of 157 KiB"),
         "budget error: %s:%d: %s %s", last ? last->file : "-", last ? last->line : 0,
         last ? last->code : "-", last ? last->message : "none");
  printf ("budget: %s\n", last ? last->message : "none");
  /* Nothing rendered: the image keeps its input there. */
  CHECK (!memcmp (out, in, (size_t) w * h * 4 * sizeof (float)), "the failed render did not pass the input through");
  sl_scratch_free (scratch);
  g_free (out);
  sl_diagnostics_free (d);
  sl_effect_run_free (run);
  sl_effect_unref (fx);
  g_free (in);
}

int
main (void)
{
  check_technique (FX_DIR, "local.fx", "Local", NULL, 61, 47, true);
  check_technique (FX_DIR, "local.fx", "Local", "Spread=0", 64, 48, true);
  check_technique (FX_DIR, "local.fx", "Cleared", NULL, 61, 47, true);
  check_technique (FX_DIR, "local.fx", "Beyond", NULL, 61, 47, true);
  check_technique (FX_DIR, "local.fx", "Wrapped", NULL, 61, 47, false);
  check_technique (FX_DIR, "local.fx", "Holes", NULL, 61, 47, true);
  check_technique (FX_DIR, "local.fx", "Texels", NULL, 61, 47, true);
  check_technique (FX_DIR, "local.fx", "Texels", NULL, 64, 48, true);
  /* The shipped blurs: full size below σ 6, half and quarter size above. */
  static const char *sigmas[] = { "std_dev=0", "std_dev=3", "std_dev=7", "std_dev=14" };
  for (guint i = 0; i < G_N_ELEMENTS (sigmas); i++)
    check_technique (FILTERS_DIR, "gaussian-blur.fx", "GaussianBlur", sigmas[i], 203, 149, true);
  check_technique (FILTERS_DIR, "box-blur.fx", "BoxBlur", "radius=5", 203, 149, true);
  check_budget ();
  if (failures)
    fprintf (stderr, "%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
