/* Reads at the pixel's own TEXCOORD plus a constant number of whole
 * texels take the VM's direct path (sl_sample_at_pixel: the texel at that
 * distance, copied, no footprint).  That path promises the general
 * bilinear or point path's result to the bit; this test holds it to that.
 *
 * For each viewport size, each offset (n, m) texels and each way of
 * writing the constant (n / W rounded once, as a literal would be, or
 * n times a rounded 1 / W, as ReShade's BUFFER_RCP_WIDTH gives), shader A
 * reads tex2D (s, uv + k) with k a compile-time constant, which the span
 * program must mark "at pixel" (checked in its dump), and shader B reads
 * the same coordinates plus zeros fetched from a second texture, which
 * the compiler cannot know, so that B takes the general path.  Both
 * render at every instruction-set level with clamping, wrapping,
 * mirroring and border samplers, point and bilinear filters, and one
 * whose minification filter differs (so a LOD is computed); every output
 * bit must agree.  Offsets reach past the image's edges, so addressing is
 * covered too.  Half-texel constants must not be marked as whole texels'
 * worth of direct reads at run time: B's result is the reference there as
 * well. */
#include "shaderlib.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures, compared;

#define CHECK(cond, ...) do { if (!(cond)) { failures++; fprintf (stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf (stderr, __VA_ARGS__); fputc ('\n', stderr); } } while (0)

static SlProgram *
compile (const char *src)
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlCompileOptions o = { .source = src, .length = (size_t) -1, .filename = "t.hlsl",
                         .language = SL_LANGUAGE_HLSL, .profile = "ps_3_0",
                         .flags = SL_COMPILE_KEEP_DUMPS };
  SlProgram *p = sl_compile (&o, d);
  if (!p)
    {
      char *s = sl_diagnostics_format (d);
      CHECK (0, "does not compile:\n%s\n%s", s, src);
      g_free (s);
    }
  sl_diagnostics_free (d);
  return p;
}

static float *
render (SlProgram *p, const SlTexture *tex, const SlTexture *zeros,
        const SlSamplerState *ss, int w, int h)
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlBinding *b = sl_binding_new (p);
  sl_binding_set_viewport (b, w, h);
  sl_binding_set_texture (b, 0, tex);
  sl_binding_set_sampler (b, 0, ss);
  sl_binding_set_texture (b, 1, zeros);
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

/* The constant for n texels of a size-texel axis, as a float. */
static float
texel_constant (int n, int size, bool via_reciprocal)
{
  if (via_reciprocal)
    {
      volatile float rcp = 1.0f / (float) size;
      return (float) n * rcp;
    }
  return (float) ((double) n / size);
}

static void
check_case (int w, int h, float kx, float ky, bool whole, const SlTexture *tex,
            const SlTexture *zeros)
{
  char *direct_src = g_strdup_printf (
    "sampler2D s : register(s0);\n"
    "float4 main (float2 uv : TEXCOORD0) : COLOR\n"
    "{ return tex2D (s, uv + float2 (%.9g, %.9g)); }\n", kx, ky);
  char *general_src = g_strdup_printf (
    "sampler2D s : register(s0);\n"
    "sampler2D zeros : register(s1);\n"
    "float4 main (float2 uv : TEXCOORD0) : COLOR\n"
    "{ return tex2D (s, (uv + float2 (%.9g, %.9g)) + tex2D (zeros, uv).xy); }\n", kx, ky);
  SlProgram *direct = compile (direct_src), *general = compile (general_src);
  if (direct && general)
    {
      char *dump = sl_program_dump (direct, 2);
      CHECK (dump && strstr (dump, "at pixel + ("),
             "%dx%d (%.9g, %.9g): the read is not marked at pixel:\n%s", w, h, kx, ky,
             dump ? dump : "(no dump)");
      g_free (dump);
      dump = sl_program_dump (general, 2);
      CHECK (dump && strstr (dump, "at pixel + (0, 0)") && !strstr (dump, "at pixel + (0."),
             "%dx%d: the reference's read of the constant offset is marked at pixel", w, h);
      g_free (dump);

      static const SlAddressMode modes[] = { SL_ADDRESS_CLAMP, SL_ADDRESS_WRAP,
                                             SL_ADDRESS_MIRROR, SL_ADDRESS_BORDER,
                                             SL_ADDRESS_MIRROR_ONCE };
      for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
        for (int f = 0; f < 3; f++)
          {
            SlSamplerState ss;
            sl_sampler_state_init_default (&ss);
            ss.address_u = modes[m];
            ss.address_v = modes[(m + 1) % G_N_ELEMENTS (modes)];
            ss.border_color[0] = 0.25f;
            ss.border_color[1] = -2.0f;
            ss.border_color[3] = 1.0f;
            if (f == 1)
              ss.min_filter = ss.mag_filter = SL_FILTER_POINT;
            else if (f == 2)
              ss.min_filter = SL_FILTER_POINT;
            float *a = render (direct, tex, zeros, &ss, w, h);
            float *b = render (general, tex, zeros, &ss, w, h);
            if (a && b)
              {
                compared++;
                size_t n = (size_t) w * h * 4, bad = n;
                for (size_t i = 0; i < n && bad == n; i++)
                  if (memcmp (&a[i], &b[i], sizeof (float)) != 0)
                    bad = i;
                CHECK (bad == n,
                       "%dx%d offset (%.9g, %.9g)%s, address %d/%d, filter %d, level %s: "
                       "pixel (%zu, %zu) channel %zu is %.9g directly, %.9g in general",
                       w, h, kx, ky, whole ? "" : " (not whole texels)", ss.address_u,
                       ss.address_v, f, sl_vm_level_name (), (bad / 4) % w, bad / 4 / w,
                       bad % 4, a[bad], b[bad]);
              }
            g_free (a);
            g_free (b);
          }
    }
  if (direct)
    sl_program_unref (direct);
  if (general)
    sl_program_unref (general);
  g_free (direct_src);
  g_free (general_src);
}

static void
check_size (int w, int h)
{
  float *texels = g_new (float, (size_t) w * h * 4);
  float *zero_texels = g_new0 (float, (size_t) w * h * 4);
  guint32 state = 12345u + (guint32) w * 7u + (guint32) h;
  for (size_t i = 0; i < (size_t) w * h * 4; i++)
    {
      state = state * 1664525u + 1013904223u;
      texels[i] = (float) (state >> 8) / 16777216.0f * 1.5f - 0.25f;
    }
  SlTexture tex, zeros;
  sl_texture_init_2d (&tex, w, h, (size_t) w * 4, texels);
  sl_texture_init_2d (&zeros, w, h, (size_t) w * 4, zero_texels);

  /* Offsets within the image, across one edge, past both, and a large
   * one; negative and positive. */
  const int offsets[][2] = { { 1, 0 }, { 0, -1 }, { -3, 2 }, { 7, -5 }, { -16, 16 },
                             { 65, -64 }, { w - 1, 1 - h }, { w / 2 + 1, h / 3 } };
  for (guint o = 0; o < G_N_ELEMENTS (offsets); o++)
    for (int style = 0; style < 2; style++)
      {
        float kx = texel_constant (offsets[o][0], w, style);
        float ky = texel_constant (offsets[o][1], h, style);
        check_case (w, h, kx, ky, true, &tex, &zeros);
      }
  /* Half a texel and a texel and a half: bilinear blends, never direct
   * reads, whatever the span program says. */
  check_case (w, h, (float) (0.5 / w), 0.0f, false, &tex, &zeros);
  check_case (w, h, (float) (-1.5 / w), (float) (1.5 / h), false, &tex, &zeros);
  g_free (texels);
  g_free (zero_texels);
}

int
main (void)
{
  /* Widths around the span's 64 columns and powers of two, odd sizes,
   * a photograph's width, and the largest the direct path accepts. */
  static const int sizes[][2] = { { 64, 2 }, { 65, 3 }, { 127, 5 }, { 128, 4 }, { 129, 7 },
                                  { 200, 9 }, { 255, 6 }, { 256, 8 }, { 640, 10 },
                                  { 1000, 3 }, { 1023, 4 }, { 1024, 2 }, { 4095, 2 },
                                  { 6000, 4 }, { 8191, 2 }, { 65536, 2 }, { 64, 640 },
                                  { 64, 4000 } };
  static const char *const levels[] = { "0", "2", "3", "4" };
  for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
    {
      g_setenv ("SL_VM_LEVEL", levels[l], TRUE);
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        check_size (sizes[s][0], sizes[s][1]);
    }
  g_unsetenv ("SL_VM_LEVEL");
  printf ("%d renders compared, %d failures\n", compared, failures);
  return failures ? 1 : 0;
}
