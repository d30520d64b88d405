/* A texture given as tiles (SlTexture.tiles, as a host hands over a
 * GeglBuffer's tiles instead of a copy) must read exactly as the same
 * texels given as one array.  Every shader below renders twice, from an
 * array and from tiles, at every instruction-set level, with each address
 * mode, point and bilinear filters and a LOD-computing sampler, for tile
 * sizes from 1×1 to larger than the image and tile grids that start
 * inside their first tile; every output bit must agree.
 *
 * The shaders cover each way the VM reads level 0: bilinear and point
 * reads at computed coordinates (a distortion), reads at the pixel and
 * at whole texels from it (which the VM serves directly from an array,
 * and sums as they land in a blur), explicit and derived LODs through a
 * mip chain built from level 0, and Load.  Tile texels outside the image
 * hold NaN, so a read that strays there shows. */
#include "shaderlib.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures, compared;

#define CHECK(cond, ...) do { if (!(cond)) { failures++; fprintf (stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf (stderr, __VA_ARGS__); fputc ('\n', stderr); } } while (0)

typedef struct
{
  const char *name;
  const char *profile;
  const char *source;
} Shader;

static const Shader shaders[] = {
  { "identity", "ps_3_0",
    "sampler2D s : register(s0);\n"
    "float4 main (float2 uv : TEXCOORD0) : COLOR { return tex2D (s, uv); }\n" },
  { "distortion", "ps_3_0",
    "sampler2D s : register(s0);\n"
    "float4 main (float2 uv : TEXCOORD0) : COLOR\n"
    "{ return tex2D (s, uv * 1.7 - 0.35 + sin (uv.yx * 9.0) * 0.05); }\n" },
  { "swirl", "ps_3_0",
    "sampler2D s : register(s0);\n"
    "float4 main (float2 uv : TEXCOORD0) : COLOR\n"
    "{ float2 d = uv - 0.5; float a = 3.0 * (0.7 - length (d));\n"
    "  float c = cos (a), n = sin (a);\n"
    "  return tex2D (s, 0.5 + float2 (d.x * c - d.y * n, d.x * n + d.y * c)); }\n" },
  { "taps", "ps_3_0",
    "sampler2D s : register(s0);\n"
    "float2 px : register(c0);\n"
    "float4 main (float2 uv : TEXCOORD0) : COLOR\n"
    "{ float4 a = tex2D (s, uv + float2 (-2.0 * px.x, 0)) + tex2D (s, uv + float2 (-px.x, 0))\n"
    "    + tex2D (s, uv) + tex2D (s, uv + float2 (px.x, 0)) + tex2D (s, uv + float2 (0, 3.0 * px.y));\n"
    "  return a * 0.2; }\n" },
  { "lod", "ps_3_0",
    "sampler2D s : register(s0);\n"
    "float4 main (float2 uv : TEXCOORD0) : COLOR\n"
    "{ return tex2Dlod (s, float4 (uv * 0.9 + 0.03, 0, 1.6)) + tex2D (s, uv * 3.0); }\n" },
  { "load", "ps_4_0",
    "Texture2D t : register(t0);\n"
    "float4 main (float4 pos : SV_Position) : SV_Target\n"
    "{ return t.Load (int3 (int2 (pos.xy) * 2 - 3, 0)); }\n" },
};

static SlProgram *
compile (const Shader *shader)
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlCompileOptions o = { .source = shader->source, .length = (size_t) -1,
                         .filename = "t.hlsl", .language = SL_LANGUAGE_HLSL,
                         .profile = shader->profile };
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

static float *
render (SlProgram *p, const SlTexture *tex, const SlSamplerState *ss, int w, int h)
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlBinding *b = sl_binding_new (p);
  float px[4] = { 1.0f / (float) w, 1.0f / (float) h, 0, 0 };
  sl_binding_set_viewport (b, w, h);
  sl_binding_set_auto_mips (b, true);
  sl_binding_set_texture (b, 0, tex);
  sl_binding_set_sampler (b, 0, ss);
  sl_binding_set_constants (b, 0, px, 4);
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

typedef struct
{
  float        *storage;
  const float **tiles;
  int           across;
} Tiles;

/* Cuts @texels (w×h) into tw×th tiles whose grid places texel (0, 0) at
 * (ox, oy); texels of the grid outside the image are NaN. */
static void
make_tiles (Tiles *t, const float *texels, int w, int h, int tw, int th, int ox, int oy)
{
  int across = (ox + w + tw - 1) / tw, down = (oy + h + th - 1) / th;
  size_t tile_floats = (size_t) tw * th * 4;
  t->storage = g_new (float, tile_floats * across * down);
  t->tiles = g_new (const float *, (size_t) across * down);
  t->across = across;
  for (int ty = 0; ty < down; ty++)
    for (int tx = 0; tx < across; tx++)
      {
        float *tile = t->storage + tile_floats * ((size_t) ty * across + tx);
        /* Tiles in reverse order in memory: no run across a tile edge may
         * happen to continue into the next one. */
        tile = t->storage + tile_floats * ((size_t) across * down - 1 - ((size_t) ty * across + tx));
        t->tiles[(size_t) ty * across + tx] = tile;
        for (int y = 0; y < th; y++)
          for (int x = 0; x < tw; x++)
            {
              int ix = tx * tw + x - ox, iy = ty * th + y - oy;
              for (int k = 0; k < 4; k++)
                tile[((size_t) y * tw + x) * 4 + k]
                  = ix >= 0 && ix < w && iy >= 0 && iy < h
                    ? texels[((size_t) iy * w + ix) * 4 + k] : NAN;
            }
      }
}

static void
check_size (int w, int h, int tw, int th, int ox, int oy, SlProgram *const *programs)
{
  float *texels = g_new (float, (size_t) w * h * 4);
  guint32 state = 777u + (guint32) w * 31u + (guint32) h;
  for (size_t i = 0; i < (size_t) w * h * 4; i++)
    {
      state = state * 1664525u + 1013904223u;
      texels[i] = (float) (state >> 8) / 16777216.0f * 1.5f - 0.25f;
    }
  SlTexture array, tiled;
  Tiles t;
  sl_texture_init_2d (&array, w, h, (size_t) w * 4, texels);
  make_tiles (&t, texels, w, h, tw, th, ox, oy);
  CHECK (sl_texture_init_tiled (&tiled, w, h, tw, th, ox, oy, t.across, t.tiles),
         "%d×%d tiles at (%d, %d) refused", tw, th, ox, oy);

  static const SlAddressMode modes[] = { SL_ADDRESS_CLAMP, SL_ADDRESS_WRAP, SL_ADDRESS_MIRROR,
                                         SL_ADDRESS_BORDER, SL_ADDRESS_MIRROR_ONCE };
  for (guint s = 0; s < G_N_ELEMENTS (shaders); s++)
    for (guint m = 0; m < G_N_ELEMENTS (modes) && programs[s]; m++)
      for (int f = 0; f < 4; f++)
        {
          SlSamplerState ss;
          sl_sampler_state_init_default (&ss);
          ss.address_u = modes[m];
          ss.address_v = modes[(m + 2) % G_N_ELEMENTS (modes)];
          ss.border_color[0] = 0.25f;
          ss.border_color[1] = -2.0f;
          ss.border_color[3] = 1.0f;
          /* Bilinear, point, a LOD picking the filter, trilinear. */
          if (f == 1)
            ss.min_filter = ss.mag_filter = SL_FILTER_POINT;
          else if (f == 2)
            ss.min_filter = SL_FILTER_POINT;
          else if (f == 3)
            ss.mip_filter = SL_FILTER_LINEAR;
          float *a = render (programs[s], &array, &ss, w, h);
          float *b = render (programs[s], &tiled, &ss, w, h);
          if (a && b)
            {
              compared++;
              size_t n = (size_t) w * h * 4, bad = n;
              for (size_t i = 0; i < n && bad == n; i++)
                if (memcmp (&a[i], &b[i], sizeof (float)) != 0)
                  bad = i;
              CHECK (bad == n,
                     "%s %dx%d, %dx%d tiles from (%d, %d), address %d/%d, filter %d, "
                     "level %s: pixel (%zu, %zu) channel %zu is %.9g from an array, "
                     "%.9g from tiles",
                     shaders[s].name, w, h, tw, th, ox, oy, ss.address_u, ss.address_v, f,
                     sl_vm_level_name (), (bad / 4) % w, bad / 4 / w, bad % 4, a[bad], b[bad]);
            }
          g_free (a);
          g_free (b);
        }
  g_free (t.storage);
  g_free (t.tiles);
  g_free (texels);
}

int
main (void)
{
  SlTexture bad;
  static const float *const one[1] = { NULL };
  CHECK (!sl_texture_init_tiled (&bad, 8, 8, 6, 8, 0, 0, 2, one), "6-wide tiles accepted");
  CHECK (!sl_texture_init_tiled (&bad, 8, 8, 8, 8, 8, 0, 1, one), "an origin past a tile accepted");
  CHECK (!sl_texture_init_tiled (&bad, 8, 8, 8, 8, -1, 0, 1, one), "a negative origin accepted");

  SlProgram *programs[G_N_ELEMENTS (shaders)];
  for (guint s = 0; s < G_N_ELEMENTS (shaders); s++)
    programs[s] = compile (&shaders[s]);

  /* Image sizes around the span's 64 columns; tiles from single texels
   * to GEGL's 128×64 and larger than the image. */
  static const int cases[][6] = {
    { 64, 2, 1, 1, 0, 0 },       { 37, 23, 4, 2, 3, 1 },     { 130, 66, 128, 64, 0, 0 },
    { 130, 66, 128, 64, 127, 63 }, { 200, 17, 16, 8, 5, 7 }, { 65, 40, 32, 32, 31, 0 },
    { 50, 30, 256, 128, 10, 20 }, { 129, 5, 8, 4, 0, 3 },
  };
  static const char *const levels[] = { "0", "2", "3", "4" };
  for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
    {
      g_setenv ("SL_VM_LEVEL", levels[l], TRUE);
      for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
        check_size (cases[c][0], cases[c][1], cases[c][2], cases[c][3], cases[c][4],
                    cases[c][5], programs);
    }
  g_unsetenv ("SL_VM_LEVEL");
  for (guint s = 0; s < G_N_ELEMENTS (shaders); s++)
    if (programs[s])
      sl_program_unref (programs[s]);
  printf ("%d renders compared, %d failures\n", compared, failures);
  return failures ? 1 : 0;
}
