/* A render large enough to be written with streaming stores (vm.c's
 * STREAM_MIN_BYTES, 512 KiB of output) must write exactly what the same
 * render cut into small pieces writes, at every instruction-set level and
 * wherever the target's rows start: on a cache line, or 16, 32 or 48
 * bytes into one (whole-line streaming stores need the former; the
 * others must take the 16-byte path or ordinary stores).  Widths that are
 * no multiple of 16 leave tails for the narrower moves.  The identity
 * shader must also give back its input bit for bit, and every pixel of
 * the padding between rows must stay untouched. */
#include "shaderlib.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, compared;

#define CHECK(cond, ...) do { if (!(cond)) { failures++; fprintf (stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf (stderr, __VA_ARGS__); fputc ('\n', stderr); } } while (0)

typedef struct
{
  const char *name;
  const char *source;
} Shader;

static const Shader shaders[] = {
  { "identity",
    "sampler2D s : register(s0);\n"
    "float4 main (float2 uv : TEXCOORD0) : COLOR { return tex2D (s, uv); }\n" },
  { "point",
    "sampler2D s : register(s0);\n"
    "float4 main (float2 uv : TEXCOORD0) : COLOR { return saturate (tex2D (s, uv) * 1.2 - 0.1); }\n" },
  { "gradient",
    "float4 main (float2 uv : TEXCOORD0) : COLOR { return float4 (uv, uv.x * uv.y, 1 - uv.y); }\n" },
  { "discard",
    "sampler2D s : register(s0);\n"
    "float4 main (float2 uv : TEXCOORD0) : COLOR\n"
    "{ float4 c = tex2D (s, uv); clip (c.r - 0.3); return c.bgra; }\n" },
};

static SlProgram *
compile (const Shader *shader)
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlCompileOptions o = { .source = shader->source, .length = (size_t) -1,
                         .filename = "t.hlsl", .language = SL_LANGUAGE_HLSL,
                         .profile = "ps_3_0" };
  SlProgram *p = sl_compile (&o, d);
  if (!p)
    {
      char *s = sl_diagnostics_format (d);
      CHECK (0, "%s does not compile:\n%s", shader->name, s);
      g_free (s);
    }
  sl_diagnostics_free (d);
  return p;
}

/* Renders @p over w×h into @out (rows @stride floats apart) in pieces of
 * at most pw×ph pixels. */
static bool
render (SlProgram *p, const SlTexture *tex, int w, int h, float *out, size_t stride,
        int pw, int ph)
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlBinding *b = sl_binding_new (p);
  sl_binding_set_viewport (b, w, h);
  sl_binding_set_texture (b, 0, tex);
  SlScratch *sc = sl_scratch_new ();
  bool ok = sl_binding_prepare (b, d);
  for (int y = 0; ok && y < h; y += ph)
    for (int x = 0; ok && x < w; x += pw)
      {
        SlTarget t = { out + (size_t) y * stride + (size_t) x * 4, stride };
        ok = sl_binding_render (b, sc, x, y, MIN (pw, w - x), MIN (ph, h - y), NULL, &t, 1, d);
      }
  if (!ok)
    {
      char *s = sl_diagnostics_format (d);
      CHECK (0, "render failed:\n%s", s);
      g_free (s);
    }
  sl_scratch_free (sc);
  sl_binding_free (b);
  sl_diagnostics_free (d);
  return ok;
}

#define PAD 16          /* floats after each row */
#define FILL 0x7fc01234u  /* a NaN no shader here writes */

static float *
target_new (int h, size_t stride, int shift, void **block)
{
  size_t n = (size_t) h * stride + 16;
  if (posix_memalign (block, 64, n * sizeof (float)) != 0)
    abort ();
  float *t = (float *) *block + shift;
  for (size_t i = 0; i < (size_t) h * stride; i++)
    memcpy (&t[i], &(guint32) { FILL }, 4);
  return t;
}

static void
check (int w, int h, int shift, SlProgram *const *programs)
{
  float *texels = g_new (float, (size_t) w * h * 4);
  guint32 state = 99u + (guint32) w;
  for (size_t i = 0; i < (size_t) w * h * 4; i++)
    {
      state = state * 1664525u + 1013904223u;
      texels[i] = (float) (state >> 8) / 16777216.0f * 1.25f - 0.1f;
    }
  SlTexture tex;
  sl_texture_init_2d (&tex, w, h, (size_t) w * 4, texels);
  size_t stride = (size_t) w * 4 + PAD;
  for (guint s = 0; s < G_N_ELEMENTS (shaders); s++)
    {
      if (!programs[s])
        continue;
      void *wb, *pb;
      float *whole = target_new (h, stride, shift, &wb);
      float *pieces = target_new (h, stride, shift, &pb);
      if (render (programs[s], &tex, w, h, whole, stride, w, h)
          && render (programs[s], &tex, w, h, pieces, stride, 32, 16))
        {
          compared++;
          size_t n = (size_t) h * stride, bad = n;
          for (size_t i = 0; i < n && bad == n; i++)
            if (memcmp (&whole[i], &pieces[i], 4) != 0)
              bad = i;
          CHECK (bad == n, "%s %dx%d, rows %d bytes past a line, level %s: float %zu of row %zu "
                 "is %.9g in one render, %.9g in pieces", shaders[s].name, w, h, shift * 4,
                 sl_vm_level_name (), bad % stride, bad / stride, whole[bad], pieces[bad]);
          int pad_bad = 0;
          for (int y = 0; y < h; y++)
            for (int i = 0; i < PAD; i++)
              pad_bad += memcmp (&whole[(size_t) y * stride + (size_t) w * 4 + i],
                                 &(guint32) { FILL }, 4) != 0;
          CHECK (pad_bad == 0, "%s %dx%d: %d floats of row padding written", shaders[s].name,
                 w, h, pad_bad);
          if (s == 0)
            {
              int diff = 0;
              for (int y = 0; y < h; y++)
                diff += memcmp (whole + (size_t) y * stride, texels + (size_t) y * w * 4,
                                (size_t) w * 16) != 0;
              CHECK (diff == 0, "identity %dx%d at level %s: %d rows differ from the input",
                     w, h, sl_vm_level_name (), diff);
            }
        }
      free (wb);
      free (pb);
    }
  g_free (texels);
}

int
main (void)
{
  SlProgram *programs[G_N_ELEMENTS (shaders)];
  for (guint s = 0; s < G_N_ELEMENTS (shaders); s++)
    programs[s] = compile (&shaders[s]);
  /* 320×160 and 263×250 floats are 800 and 1028 KiB: both stream. */
  static const int sizes[][2] = { { 320, 160 }, { 263, 250 } };
  static const char *const levels[] = { "0", "2", "3", "4" };
  for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
    {
      g_setenv ("SL_VM_LEVEL", levels[l], TRUE);
      for (guint z = 0; z < G_N_ELEMENTS (sizes); z++)
        for (int shift = 0; shift < 16; shift += 4)
          check (sizes[z][0], sizes[z][1], shift, programs);
    }
  g_unsetenv ("SL_VM_LEVEL");
  for (guint s = 0; s < G_N_ELEMENTS (shaders); s++)
    if (programs[s])
      sl_program_unref (programs[s]);
  printf ("%d renders compared, %d failures\n", compared, failures);
  return failures ? 1 : 0;
}
