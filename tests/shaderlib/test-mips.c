/* Lazily built mip levels (sl_binding_set_auto_mips): a shader reading
 * level 2 of a single-level 16×16 image with point filtering sees, at
 * every pixel, the average of the 4×4 block holding it; without the
 * opt-in, D3D's clamp to the given level returns the pixel itself.  Two
 * threads render halves at once with the one binding. */
#include "shaderlib.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>

#define N 16

static const char *src =
  "sampler s = sampler_state { MinFilter = POINT; MagFilter = POINT; MipFilter = POINT; };\n"
  "float4 main (float2 uv : TEXCOORD0) : COLOR { return tex2Dlod (s, float4 (uv, 0, 2)); }\n";

static float img[N * N * 4];

typedef struct { SlBinding *b; int y; float *out; } Half;

static gpointer
render_half (gpointer p)
{
  Half *h = p;
  SlScratch *scratch = sl_scratch_new ();
  SlTarget t = { h->out + (size_t) h->y * N * 4, N * 4 };
  bool ok = sl_binding_render (h->b, scratch, 0, h->y, N, N / 2, NULL, &t, 1, NULL);
  sl_scratch_free (scratch);
  return GINT_TO_POINTER (ok);
}

static int
run (bool auto_mips, float *out)
{
  SlCompileOptions o = { .source = src, .length = (size_t) -1, .filename = "mips.hlsl",
                         .language = SL_LANGUAGE_HLSL, .profile = "ps_3_0" };
  SlDiagnostics *d = sl_diagnostics_new ();
  SlProgram *p = sl_compile (&o, d);
  if (!p)
    return 0;
  SlBinding *b = sl_binding_new (p);
  SlTexture tex;
  sl_texture_init_2d (&tex, N, N, N * 4, img);
  sl_binding_set_viewport (b, N, N);
  sl_binding_set_texture (b, 0, &tex);
  sl_binding_set_auto_mips (b, auto_mips);
  sl_binding_prepare (b, d);
  Half h0 = { b, 0, out }, h1 = { b, N / 2, out };
  GThread *t0 = g_thread_new ("h0", render_half, &h0);
  GThread *t1 = g_thread_new ("h1", render_half, &h1);
  int ok = GPOINTER_TO_INT (g_thread_join (t0)) && GPOINTER_TO_INT (g_thread_join (t1));
  sl_binding_free (b);
  sl_program_unref (p);
  sl_diagnostics_free (d);
  return ok;
}

int
main (void)
{
  int fails = 0;
  for (int y = 0; y < N; y++)
    for (int x = 0; x < N; x++)
      for (int c = 0; c < 4; c++)
        img[(y * N + x) * 4 + c] = (float) ((x * 7 + y * 13 + c * 5) % 17) / 16.0f;
  static float out[N * N * 4], flat[N * N * 4];
  if (!run (true, out) || !run (false, flat))
    {
      printf ("FAIL: compile or render\n");
      return 1;
    }
  for (int y = 0; y < N; y++)
    for (int x = 0; x < N; x++)
      for (int c = 0; c < 4; c++)
        {
          double sum = 0;
          for (int j = 0; j < 4; j++)
            for (int i = 0; i < 4; i++)
              sum += img[(((y & ~3) + j) * N + (x & ~3) + i) * 4 + c];
          float want = (float) (sum / 16.0), got = out[(y * N + x) * 4 + c];
          float self = img[(y * N + x) * 4 + c], clamped = flat[(y * N + x) * 4 + c];
          if (fabsf (got - want) > 1e-6f || clamped != self)
            {
              if (fails++ < 5)
                printf ("FAIL at (%d,%d).%d: level 2 %g want %g; without mips %g want %g\n",
                        x, y, c, got, want, clamped, self);
            }
        }
  printf ("%s\n", fails ? "FAIL" : "ok: level 2 is the 4x4 box average");
  return fails ? 1 : 0;
}
