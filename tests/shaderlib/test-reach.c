/* The sampling reach hosts fetch by (sl_binding_get_sample_reach): reads
 * displaced by values the shader bounds itself — clamp(), saturate(),
 * min and max with bounds — scaled by constants, are bounded by those
 * bounds; anything the compiler cannot bound (an unclamped displacement,
 * one bound only, a sine) leaves the reach data dependent.  The reach is
 * in texels of a 64×32 viewport, one texel wider on each side than the
 * displacement for the bilinear footprint.  Texel offsets move reads by
 * whole texels, and loads at the pixel's index plus constants read
 * known texels; a load of another level or at a computed texel is data
 * dependent. */
#include "shaderlib.h"

#include <glib.h>
#include <stdio.h>

static int failures;

typedef struct
{
  const char *what;
  const char *body;      /* the displacement `d`, in texels; c is the pixel's colour */
  bool        bounded;
  int         left, top, right, bottom;
} Case;

static const Case cases[] = {
  { "no displacement", "float2 d = 0;", true, 1, 1, 1, 1 },
  { "clamped and scaled", "float2 d = clamp (c.rg * 10 - 5, -1, 1) * float2 (3, 2);", true, 4, 3, 4, 3 },
  { "saturated, one way", "float2 d = float2 (saturate (c.r * 4) * 5, 0);", true, 1, 1, 6, 1 },
  { "min and max of bounds", "float2 d = float2 (max (min (c.r, 2), -3), 0);", true, 4, 1, 3, 1 },
  { "bounds added", "float2 d = float2 (saturate (c.r) + saturate (c.g) * 2 - 1, 0);", true, 2, 1, 3, 1 },
  { "clamp of a NaN", "float2 d = float2 (clamp (sqrt (c.r - 2), -1, 1), 0);", true, 2, 1, 2, 1 },
  { "unclamped", "float2 d = c.rg * 4;", false, 0, 0, 0, 0 },
  { "one bound only", "float2 d = float2 (max (c.r, -1), 0);", false, 0, 0, 0, 0 },
  { "bounded but infinite", "float2 d = float2 (saturate (c.r) * (1.0 / c.g), 0);", false, 0, 0, 0, 0 },
  { "a sine", "float2 d = float2 (sin (c.r * 9), 0);", false, 0, 0, 0, 0 },
};

/* Texel offsets and texel loads (Shader Model 4): @body is what main()
 * returns, from Texture2D t (sampler ss), the pixel's SV_Position pos
 * and TEXCOORD uv. */
static const Case texel_cases[] = {
  { "texel offset", "t.Sample (ss, uv, int2 (-3, 2))", true, 4, 1, 1, 3 },
  { "offset on an explicit level 0", "t.SampleLevel (ss, uv, 0, int2 (5, -6))", true, 1, 7, 6, 1 },
  /* Texel x + 2 (one more for the truncation, one for the footprint);
   * a load counts as its texel's centre, x + 2.5. */
  { "load at the pixel plus constants", "t.Load (int3 (int2 (pos.xy) + int2 (2, -1), 0))",
    true, 1, 3, 5, 2 },
  { "load with an offset", "t.Load (int3 (pos.xy, 0), int2 (-4, 0))", true, 6, 2, 1, 3 },
  { "load at level 1", "t.Load (int3 (pos.xy, 1))", false, 0, 0, 0, 0 },
  { "load at a computed texel", "t.Load (int3 (int2 (t.Sample (ss, uv).rg * 9), 0))",
    false, 0, 0, 0, 0 },
  /* Bounded, but at twice the pixel's position: no margin describes it. */
  { "load at the pixel times two", "t.Load (int3 (int2 (pos.xy) * 2, 0))", false, 0, 0, 0, 0 },
};

static void
check_source (const Case *c, const char *src, const char *profile)
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlCompileOptions o = { .source = src, .length = (size_t) -1, .filename = "reach.hlsl",
                         .language = SL_LANGUAGE_HLSL, .profile = profile };
  SlProgram *p = sl_compile (&o, d);
  SlBinding *b = p ? sl_binding_new (p) : NULL;
  int r[4] = { 0, 0, 0, 0 };
  bool prepared = false, bounded = false;
  if (b)
    {
      sl_binding_set_viewport (b, 64, 32);
      prepared = sl_binding_prepare (b, d);
      bounded = prepared && sl_binding_get_sample_reach (b, &r[0], &r[1], &r[2], &r[3]);
    }
  if (!prepared)
    {
      char *text = sl_diagnostics_format (d);
      fprintf (stderr, "FAIL %s: does not compile\n%s", c->what, text ? text : "");
      g_free (text);
      failures++;
    }
  else if (bounded != c->bounded
           || (bounded && (r[0] != c->left || r[1] != c->top || r[2] != c->right
                           || r[3] != c->bottom)))
    {
      fprintf (stderr, "FAIL %s: %s %d %d %d %d, expected %s %d %d %d %d\n", c->what,
               bounded ? "bounded" : "unbounded", r[0], r[1], r[2], r[3],
               c->bounded ? "bounded" : "unbounded", c->left, c->top, c->right, c->bottom);
      failures++;
    }
  else
    printf ("ok   %s\n", c->what);
  sl_binding_free (b);
  if (p)
    sl_program_unref (p);
  sl_diagnostics_free (d);
}

static void
check (const Case *c)
{
  char *src = g_strdup_printf ("sampler2D s : register(s0);\n"
                               "float4 main (float2 uv : TEXCOORD0) : COLOR\n"
                               "{\n"
                               "  float4 c = tex2D (s, uv);\n"
                               "  float2 px = float2 (ddx (uv.x), ddy (uv.y));\n"
                               "  %s\n"
                               "  return tex2D (s, uv + d * px);\n"
                               "}\n", c->body);
  check_source (c, src, "ps_3_0");
  g_free (src);
}

static void
check_texels (const Case *c)
{
  char *src = g_strdup_printf ("Texture2D t : register(t0);\n"
                               "SamplerState ss : register(s0);\n"
                               "float4 main (float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target\n"
                               "{\n"
                               "  return %s;\n"
                               "}\n", c->body);
  check_source (c, src, "ps_4_0");
  g_free (src);
}

int
main (void)
{
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    check (&cases[i]);
  for (size_t i = 0; i < G_N_ELEMENTS (texel_cases); i++)
    check_texels (&texel_cases[i]);
  printf ("%d check(s) failed\n", failures);
  return failures ? 1 : 0;
}
