/* The sampler never reads outside the texels a host hands it, whatever
 * the shader asks for.  Each texture here is allocated at exactly the size
 * its description implies (so the sanitizer build turns a stray read into
 * a failure) and each case checks the value the documented fallback gives:
 * a cube sample of a one-slice 2D texture reads that slice, a mip level
 * the host declared without texels falls back to level 0, a level count
 * beyond SL_MAX_MIP_LEVELS is clamped, and reads outside a window return
 * the nearest texel inside it.  Regression test for issue 8 (a
 * heap-buffer-overflow in texel() reached from the conformance runner). */
#include "shaderlib.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...) do { if (!(cond)) { failures++; fprintf (stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf (stderr, __VA_ARGS__); fputc ('\n', stderr); } } while (0)

static SlProgram *
compile (const char *src)
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlCompileOptions o = { .source = src, .length = (size_t) -1, .filename = "t.hlsl",
                         .language = SL_LANGUAGE_HLSL, .profile = "ps_3_0" };
  SlProgram *p = sl_compile (&o, d);
  if (!p)
    {
      char *s = sl_diagnostics_format (d);
      CHECK (0, "does not compile:\n%s", s);
      g_free (s);
    }
  sl_diagnostics_free (d);
  return p;
}

/* Renders a w×h viewport with @tex in slot 0 (and @ss when not NULL);
 * returns the RGBA floats (g_free) or NULL. */
static float *
render (SlProgram *p, const SlTexture *tex, const SlSamplerState *ss, int w, int h)
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlBinding *b = sl_binding_new (p);
  sl_binding_set_viewport (b, w, h);
  sl_binding_set_texture (b, 0, tex);
  if (ss)
    sl_binding_set_sampler (b, 0, ss);
  float *out = g_new0 (float, (size_t) w * h * 4);
  SlScratch *sc = sl_scratch_new ();
  SlTarget t = { out, (size_t) w * 4 };
  bool ok = sl_binding_prepare (b, d) && sl_binding_render (b, sc, 0, 0, w, h, NULL, &t, 1, d);
  if (!ok)
    {
      char *s = sl_diagnostics_format (d);
      CHECK (0, "render failed:\n%s", s);
      g_free (s);
      g_clear_pointer (&out, g_free);
    }
  sl_scratch_free (sc);
  sl_binding_free (b);
  sl_diagnostics_free (d);
  return out;
}

static bool
near (float a, float b)
{
  return fabsf (a - b) <= 1e-6f;
}

/* A 2×2 one-slice texture bound where the shader declares a cube: the
 * -z face (slice 5) does not exist, slice 0 is read instead.  Direction
 * (0, 0, -1) hits the face centre, the bilinear average of its 4 texels. */
static void
test_cube_on_2d (void)
{
  SlProgram *p = compile (
    "samplerCUBE s : register(s0);\n"
    "float4 main (float2 uv : TEXCOORD0) : COLOR\n"
    "{ return texCUBE (s, float3 (0.0, 0.0, -1.0)); }\n");
  if (!p)
    return;
  float *texels = g_new (float, 2 * 2 * 4);
  for (int i = 0; i < 16; i++)
    texels[i] = (float) (i + 1) / 16.0f;
  SlTexture tex;
  sl_texture_init_2d (&tex, 2, 2, 2 * 4, texels);
  float *out = render (p, &tex, NULL, 4, 2);
  if (out)
    for (int k = 0; k < 4; k++)
      {
        float want = (texels[k] + texels[4 + k] + texels[8 + k] + texels[12 + k]) / 4.0f;
        CHECK (near (out[k], want), "cube on 2D: channel %d = %g, want %g", k, out[k], want);
      }
  g_free (out);
  g_free (texels);
  sl_program_unref (p);
}

/* A texture that declares three levels (or more than the array holds)
 * but only gives texels for level 0: an explicit LOD of 2 (or 30) reads
 * level 0 at the same coordinates. */
static void
test_missing_levels (int n_levels, float lod)
{
  char *src = g_strdup_printf (
    "sampler2D s : register(s0);\n"
    "float4 main (float2 uv : TEXCOORD0) : COLOR\n"
    "{ return tex2Dlod (s, float4 (uv, 0.0, %g)); }\n", lod);
  SlProgram *p = compile (src);
  g_free (src);
  if (!p)
    return;
  enum { W = 4, H = 2 };
  float *texels = g_new (float, W * H * 4);
  for (int i = 0; i < W * H * 4; i++)
    texels[i] = (float) i / 32.0f;
  SlTexture tex;
  sl_texture_init_2d (&tex, W, H, W * 4, texels);
  tex.n_levels = n_levels;
  for (int l = 1; l < MIN (n_levels, SL_MAX_MIP_LEVELS); l++)
    tex.levels[l] = (SlTextureLevel) { .width = MAX (1, W >> l), .height = MAX (1, H >> l),
                                       .depth = 1, .row_stride = 4, .slice_stride = 4,
                                       .texels = NULL };
  SlSamplerState ss;
  sl_sampler_state_init_default (&ss);
  ss.min_filter = ss.mag_filter = ss.mip_filter = SL_FILTER_POINT;
  float *out = render (p, &tex, &ss, W, H);
  if (out)
    for (int i = 0; i < W * H * 4; i++)
      CHECK (out[i] == texels[i], "%d levels, lod %g: value %d = %g, want %g",
             n_levels, lod, i, out[i], texels[i]);
  g_free (out);
  g_free (texels);
  sl_program_unref (p);
}

/* An 8×8 image of which the host gives only the 2×2 window at (3, 2):
 * every pixel, whatever the address mode, reads the nearest window texel. */
static void
test_window (SlAddressMode mode)
{
  SlProgram *p = compile (
    "sampler2D s : register(s0);\n"
    "float4 main (float2 uv : TEXCOORD0) : COLOR\n"
    "{ return tex2D (s, uv * 3.0 - 1.0); }\n");
  if (!p)
    return;
  enum { N = 8 };
  float *texels = g_new (float, 2 * 2 * 4);
  for (int i = 0; i < 16; i++)
    texels[i] = (float) (i + 1);
  SlTexture tex;
  sl_texture_init_2d (&tex, N, N, 2 * 4, texels);
  tex.window_x = 3;
  tex.window_y = 2;
  tex.window_width = 2;
  tex.window_height = 2;
  SlSamplerState ss;
  sl_sampler_state_init_default (&ss);
  ss.min_filter = ss.mag_filter = SL_FILTER_POINT;
  ss.address_u = ss.address_v = mode;
  float *out = render (p, &tex, &ss, N, N);
  if (out)
    for (int y = 0; y < N; y++)
      for (int x = 0; x < N; x++)
        {
          const float *o = out + 4 * (y * N + x);
          /* The texel the image coordinates pick, by the address mode. */
          float u = ((float) x + 0.5f) / N * 3.0f - 1.0f;
          float v = ((float) y + 0.5f) / N * 3.0f - 1.0f;
          int tx = (int) floorf (u * N), ty = (int) floorf (v * N);
          if (mode == SL_ADDRESS_WRAP)
            {
              tx = ((tx % N) + N) % N;
              ty = ((ty % N) + N) % N;
            }
          else
            {
              tx = CLAMP (tx, 0, N - 1);
              ty = CLAMP (ty, 0, N - 1);
            }
          int wx = CLAMP (tx, 3, 4) - 3, wy = CLAMP (ty, 2, 3) - 2;
          const float *want = texels + 4 * (wy * 2 + wx);
          for (int k = 0; k < 4; k++)
            CHECK (o[k] == want[k], "window, mode %d: pixel (%d,%d)[%d] = %g, want %g",
                   mode, x, y, k, o[k], want[k]);
        }
  g_free (out);
  g_free (texels);
  sl_program_unref (p);
}

int
main (void)
{
  test_cube_on_2d ();
  test_missing_levels (3, 2.0f);
  test_missing_levels (40, 30.0f);
  test_window (SL_ADDRESS_CLAMP);
  test_window (SL_ADDRESS_WRAP);
  if (failures)
    fprintf (stderr, "%d failure(s)\n", failures);
  else
    printf ("ok\n");
  return failures ? 1 : 0;
}
