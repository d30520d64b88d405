/* Effect-file tests through shaderlib's API: each effect is rendered over
 * a synthetic image and compared with the same effect computed by hand in
 * C, texel by texel, within TOL (float rounding of texture coordinates and
 * bilinear weights; the effects use float targets, so nothing else
 * differs).  Also checks the effect's reflection, host values and the
 * diagnostics of malformed effects. */
#include "shaderlib.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define TOL 2e-5f

static int failures;

#define CHECK(cond, ...)                                  \
  do {                                                    \
    if (!(cond))                                          \
      {                                                   \
        fprintf (stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
        fprintf (stderr, __VA_ARGS__);                    \
        fputc ('\n', stderr);                             \
        failures++;                                       \
      }                                                   \
  } while (0)

typedef struct
{
  int    w, h;
  float *px;
} Image;

static Image
image_new (int w, int h)
{
  Image im = { w, h, g_new0 (float, (size_t) w * h * 4) };
  return im;
}

/* A deterministic, non-smooth test pattern in [0, 1]. */
static Image
pattern (int w, int h)
{
  Image im = image_new (w, h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < 4; c++)
        {
          double v = sin (x * 12.9898 + y * 78.233 + c * 37.719) * 43758.5453;
          im.px[((size_t) y * w + x) * 4 + c] = c == 3 ? 1.0f : (float) (v - floor (v));
        }
  return im;
}

static float *
at (const Image *im, int x, int y)
{
  x = CLAMP (x, 0, im->w - 1);
  y = CLAMP (y, 0, im->h - 1);
  return im->px + ((size_t) y * im->w + x) * 4;
}

static char *
load (const char *name)
{
  char *path = g_build_filename (FX_DIR, name, NULL), *text = NULL;
  if (!g_file_get_contents (path, &text, NULL, NULL))
    {
      fprintf (stderr, "cannot read %s\n", path);
      failures++;
    }
  g_free (path);
  return text;
}

static SlEffect *
compile (const char *name, const char *source, int w, int h, SlDiagnostics *diags)
{
  SlEffectOptions o = {
    .source = source, .length = (size_t) -1, .filename = name,
    .buffer_width = w, .buffer_height = h,
  };
  return sl_effect_compile (&o, diags);
}

/* Renders technique 0 of @fx over @in, in two horizontal halves so the
 * rectangle path is used too.  @params may be NULL. */
static Image
render_technique (SlEffect *fx, int technique, const Image *in, const char *params)
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlEffectRun *run = sl_effect_run_new (fx, technique);
  SlTexture tex;
  sl_texture_init_2d (&tex, in->w, in->h, (size_t) in->w * 4, in->px);
  sl_effect_run_set_input (run, &tex);
  CHECK (sl_effect_run_set_params_string (run, params, d), "params '%s'", params);
  CHECK (sl_effect_run_prepare (run, d), "prepare");
  Image out = image_new (in->w, in->h);
  SlScratch *scratch = sl_scratch_new ();
  int half = in->h / 2;
  SlTarget top = { out.px, (size_t) in->w * 4 };
  SlTarget bottom = { out.px + (size_t) half * in->w * 4, (size_t) in->w * 4 };
  CHECK (sl_effect_render (run, scratch, 0, 0, in->w, half, NULL, &top, d), "render top");
  CHECK (sl_effect_render (run, scratch, 0, half, in->w, in->h - half, NULL, &bottom, d), "render bottom");
  if (sl_diagnostics_error_count (d))
    {
      char *t = sl_diagnostics_format (d);
      fputs (t, stderr);
      g_free (t);
    }
  sl_scratch_free (scratch);
  sl_effect_run_free (run);
  sl_diagnostics_free (d);
  return out;
}

static Image
render (SlEffect *fx, const Image *in, const char *params)
{
  return render_technique (fx, 0, in, params);
}

static void
compare (const char *what, const Image *got, const Image *want)
{
  float worst = 0;
  int wx = 0, wy = 0, wc = 0;
  for (int y = 0; y < want->h; y++)
    for (int x = 0; x < want->w; x++)
      for (int c = 0; c < 4; c++)
        {
          float e = fabsf (at (got, x, y)[c] - at (want, x, y)[c]);
          if (!(e <= worst))
            {
              worst = isnan (e) ? INFINITY : e;
              wx = x, wy = y, wc = c;
            }
        }
  CHECK (worst <= TOL, "%s: pixel %d,%d channel %d is %.7g, expected %.7g", what, wx, wy, wc,
         at (got, wx, wy)[wc], at (want, wx, wy)[wc]);
  printf ("%s: largest difference %.3g\n", what, worst);
}

static void
print_diags (SlDiagnostics *d)
{
  char *t = sl_diagnostics_format (d);
  if (t)
    fputs (t, stderr);
  g_free (t);
}

/* ---- two-pass separable blur ---- */
static void
test_blur (void)
{
  char *src = load ("blur.fx");
  SlDiagnostics *d = sl_diagnostics_new ();
  Image in = pattern (37, 29);
  SlEffect *fx = compile ("blur.fx", src, in.w, in.h, d);
  print_diags (d);
  CHECK (fx != NULL, "blur.fx compiles");
  if (!fx)
    return;
  CHECK (sl_effect_get_n_techniques (fx) == 1, "one technique");
  const SlEffectTechnique *t = sl_effect_get_technique (fx, 0);
  CHECK (!strcmp (t->name, "SeparableBlur") && t->n_passes == 2, "technique SeparableBlur with 2 passes");
  CHECK (t->passes[0].n_render_targets == 1 && t->passes[1].n_render_targets == 0, "render targets");
  CHECK (t->passes[0].width == 37 && t->passes[0].height == 29, "target size follows BUFFER_WIDTH/HEIGHT");
  CHECK (sl_effect_get_n_params (fx) == 1 && !strcmp (sl_effect_get_param (fx, 0)->name, "Radius"),
         "parameter union is {Radius}");
  for (int radius = 1; radius <= 2; radius++)
    {
      Image h = image_new (in.w, in.h), want = image_new (in.w, in.h);
      for (int y = 0; y < in.h; y++)
        for (int x = 0; x < in.w; x++)
          for (int c = 0; c < 4; c++)
            at (&h, x, y)[c] = (at (&in, x - radius, y)[c] + at (&in, x, y)[c] + at (&in, x + radius, y)[c]) / 3.0f;
      for (int y = 0; y < in.h; y++)
        for (int x = 0; x < in.w; x++)
          for (int c = 0; c < 4; c++)
            at (&want, x, y)[c] = (at (&h, x, y - radius)[c] + at (&h, x, y)[c] + at (&h, x, y + radius)[c]) / 3.0f;
      char *params = g_strdup_printf ("Radius=%d", radius);
      Image got = render (fx, &in, params);
      char *what = g_strdup_printf ("blur radius %d", radius);
      compare (what, &got, &want);
      g_free (what);
      g_free (params);
      g_free (got.px);
      g_free (h.px);
      g_free (want.px);
    }
  sl_effect_unref (fx);
  g_free (in.px);
  g_free (src);
  sl_diagnostics_free (d);
}

/* ---- bloom: half-size target, additive blending ---- */
static float
bilinear (const Image *im, float u, float v, int c)
{
  float tx = u * im->w - 0.5f, ty = v * im->h - 0.5f;
  int x0 = (int) floorf (tx), y0 = (int) floorf (ty);
  float fx = tx - x0, fy = ty - y0;
  return (1 - fx) * (1 - fy) * at (im, x0, y0)[c] + fx * (1 - fy) * at (im, x0 + 1, y0)[c]
         + (1 - fx) * fy * at (im, x0, y0 + 1)[c] + fx * fy * at (im, x0 + 1, y0 + 1)[c];
}

static void
test_bloom (void)
{
  char *src = load ("bloom.fx");
  SlDiagnostics *d = sl_diagnostics_new ();
  Image in = pattern (40, 30);
  SlEffect *fx = compile ("bloom.fx", src, in.w, in.h, d);
  print_diags (d);
  CHECK (fx != NULL, "bloom.fx compiles");
  if (!fx)
    return;
  const SlEffectTechnique *t = sl_effect_get_technique (fx, 0);
  CHECK (t->passes[0].width == 20 && t->passes[0].height == 15, "half-size target is %dx%d",
         t->passes[0].width, t->passes[0].height);
  CHECK (t->passes[1].blend && t->passes[1].src_blend == SL_BLEND_ONE && t->passes[1].dest_blend == SL_BLEND_ONE,
         "additive blend states");
  int bt = -1;
  for (int i = 0; i < sl_effect_get_n_textures (fx); i++)
    if (!strcmp (sl_effect_get_texture (fx, i)->name, "BrightTex"))
      bt = i;
  CHECK (bt >= 0 && sl_effect_get_texture (fx, bt)->width == 20, "BrightTex reflected");
  float threshold = 0.4f;
  Image bright = image_new (20, 15), want = image_new (in.w, in.h);
  for (int y = 0; y < 15; y++)
    for (int x = 0; x < 20; x++)
      {
        for (int c = 0; c < 3; c++)
          {
            float avg = (at (&in, 2 * x, 2 * y)[c] + at (&in, 2 * x + 1, 2 * y)[c] + at (&in, 2 * x, 2 * y + 1)[c]
                         + at (&in, 2 * x + 1, 2 * y + 1)[c]) / 4;
            at (&bright, x, y)[c] = MAX (avg - threshold, 0.0f);
          }
        at (&bright, x, y)[3] = 0;
      }
  for (int y = 0; y < in.h; y++)
    for (int x = 0; x < in.w; x++)
      {
        float u = (x + 0.5f) / in.w, v = (y + 0.5f) / in.h;
        /* ReShade's back buffer is an 8-bit target: the sum saturates. */
        for (int c = 0; c < 3; c++)
          at (&want, x, y)[c] = MIN (at (&in, x, y)[c] + bilinear (&bright, u, v, c), 1.0f);
        at (&want, x, y)[3] = at (&in, x, y)[3];
      }
  Image got = render (fx, &in, "Threshold=0.4");
  compare ("bloom", &got, &want);
  g_free (got.px);
  g_free (want.px);
  g_free (bright.px);
  g_free (in.px);
  sl_effect_unref (fx);
  g_free (src);
  sl_diagnostics_free (d);
}

/* ---- the ReShade helper headers ---- */
static void
test_headers (void)
{
  char *src = load ("headers.fx");
  SlDiagnostics *d = sl_diagnostics_new ();
  Image in = pattern (24, 16);
  SlEffect *fx = compile ("headers.fx", src, in.w, in.h, d);
  print_diags (d);
  CHECK (fx != NULL, "headers.fx compiles");
  if (!fx)
    return;
  const SlParam *p = sl_effect_get_param (fx, 0);
  bool slider = false;
  for (int i = 0; p && i < p->n_annotations; i++)
    slider |= !strcmp (p->annotations[i].name, "ui_type") && p->annotations[i].type == SL_ANNOTATION_STRING
              && !strcmp (p->annotations[i].string_value, "slider");
  CHECK (p && !strcmp (p->name, "Strength") && slider, "__UNIFORM_SLIDER_FLOAT1 gives ui_type = \"slider\"");
  const SlEffectTechnique *t = sl_effect_get_technique (fx, 0);
  CHECK (t->n_annotations == 1 && !strcmp (t->annotations[0].string_value, "Header user"), "technique ui_label");
  CHECK (sl_effect_technique_reads_depth (fx, 0), "GetLinearizedDepth reads depth");
  CHECK (!sl_effect_technique_reads_depth (fx, 1), "no technique 1, no depth");
  {
    /* ReShade.fxh declares the depth sampler; only using it counts. */
    char *tsrc = load ("texture.fx");
    SlEffect *tfx = compile ("texture.fx", tsrc, 8, 6, d);
    CHECK (tfx && !sl_effect_technique_reads_depth (tfx, 0),
           "an effect that includes ReShade.fxh but samples no depth does not read depth");
    if (tfx)
      sl_effect_unref (tfx);
    g_free (tsrc);
  }
  Image want = image_new (in.w, in.h);
  for (int y = 0; y < in.h; y++)
    for (int x = 0; x < in.w; x++)
      {
        for (int c = 0; c < 3; c++)
          at (&want, x, y)[c] = at (&in, x + 1, y)[c] * 0.75f;
        at (&want, x, y)[3] = 24.0f / 16.0f * 1.0f * 0.5f;   /* aspect ratio × flat depth 1.0 / 2 */
      }
  Image got = render (fx, &in, "Strength=0.75");
  compare ("ReShade.fxh helpers", &got, &want);
  g_free (got.px);
  g_free (want.px);
  g_free (in.px);
  sl_effect_unref (fx);
  g_free (src);
  sl_diagnostics_free (d);
}

/* ---- D3D9 .fx: sampler_state, compile ps_2_0, blending on the back buffer ---- */
static void
test_d3d9_fx (void)
{
  const char *src =
    "texture Img;\n"
    "sampler2D S = sampler_state { Texture = <Img>; MinFilter = POINT; MagFilter = POINT; AddressU = Clamp; };\n"
    "float Gain = 2.0;\n"
    "float4 Scale(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(S, uv) * Gain; }\n"
    "float4 Half(float2 uv : TEXCOORD0) : COLOR0 { return float4(0.5, 0.5, 0.5, 0.5); }\n"
    "technique T\n{\n"
    "  pass P0 { PixelShader = compile ps_2_0 Scale(); ZEnable = false; }\n"
    "  pass P1 { PixelShader = compile ps_2_0 Half(); AlphaBlendEnable = true;\n"
    "            SrcBlend = SrcAlpha; DestBlend = InvSrcAlpha; }\n"
    "}\n";
  SlDiagnostics *d = sl_diagnostics_new ();
  Image in = pattern (9, 7);
  SlEffect *fx = compile ("d3d9.fx", src, in.w, in.h, d);
  print_diags (d);
  CHECK (fx != NULL, "D3D9 .fx compiles");
  bool noted = false;
  for (int i = 0; i < sl_diagnostics_count (d); i++)
    noted |= sl_diagnostics_get (d, i)->severity == SL_SEVERITY_NOTE
             && strstr (sl_diagnostics_get (d, i)->message, "'ZEnable' is ignored");
  CHECK (noted, "a note says ZEnable is ignored");
  if (!fx)
    return;
  Image want = image_new (in.w, in.h);
  for (int y = 0; y < in.h; y++)
    for (int x = 0; x < in.w; x++)
      for (int c = 0; c < 4; c++)
        {
          float scaled = at (&in, x, y)[c] * 2.0f;
          /* SrcAlpha/InvSrcAlpha with source alpha 0.5 (alpha blends too) */
          at (&want, x, y)[c] = 0.5f * 0.5f + scaled * 0.5f;
        }
  Image got = render (fx, &in, NULL);
  compare ("D3D9 fx, two passes on the back buffer", &got, &want);
  g_free (got.px);
  g_free (want.px);
  g_free (in.px);
  sl_effect_unref (fx);
  sl_diagnostics_free (d);
}

/* ---- ReShade.fxh depth: ReShade's formula over an empty depth buffer ---- */
static void
test_depth_settings (void)
{
  /* With no depth (raw 0) the default reversed depth is 1 / (1000 - 999)
   * = 1; not reversed it is 0 / 1000 = 0.  The pixel offsets are macros
   * an effect may use in expressions (DisplayDepth.fx does). */
  const char *src =
    "#include \"ReShade.fxh\"\n"
    "uniform int2 Offset < ui_type = \"drag\"; > = int2(RESHADE_DEPTH_INPUT_X_PIXEL_OFFSET, "
    "RESHADE_DEPTH_INPUT_Y_PIXEL_OFFSET + RESHADE_DEPTH_INPUT_IS_MIRRORED);\n"
    "float4 PS(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
    "{ return float4(ReShade::GetLinearizedDepth(uv), Offset + 0.25, 1); }\n"
    "technique T { pass { VertexShader = PostProcessVS; PixelShader = PS; } }\n";
  const char *const defines[][2] = { { NULL, NULL }, { "RESHADE_DEPTH_INPUT_IS_REVERSED=0", NULL },
                                     { "RESHADE_FLAT_DEPTH=0.5", NULL } };
  const float want[] = { 1.0f, 0.0f, 0.5f };
  for (int k = 0; k < 3; k++)
    {
      SlDiagnostics *d = sl_diagnostics_new ();
      SlEffectOptions o = {
        .source = src, .length = (size_t) -1, .filename = "depth.fx",
        .buffer_width = 4, .buffer_height = 4, .defines = defines[k][0] ? (const char *const *) defines[k] : NULL,
      };
      SlEffect *fx = sl_effect_compile (&o, d);
      print_diags (d);
      CHECK (fx != NULL, "depth.fx compiles (%s)", defines[k][0] ? defines[k][0] : "defaults");
      if (fx)
        {
          Image in = pattern (4, 4);
          Image got = render (fx, &in, NULL);
          CHECK (got.px[0] == want[k] && got.px[1] == 0.25f && got.px[2] == 0.25f,
                 "depth %s: got %g %g %g, want %g", defines[k][0] ? defines[k][0] : "defaults", got.px[0],
                 got.px[1], got.px[2], want[k]);
          g_free (got.px);
          g_free (in.px);
          sl_effect_unref (fx);
        }
      sl_diagnostics_free (d);
    }
}

/* ---- ReShade's language leniencies, from its reference ---- */
static void
test_leniencies (void)
{
  /* v4 = v3 repeats the last component (xyzz), in = and op=; a brace
   * list is a value an array can be assigned; countbits; tex3Dfetch of a
   * texture with no contents reads zero. */
  const char *src =
    "texture V { Width = 2; Height = 2; Depth = 2; };\n"
    "sampler3D SV { Texture = V; };\n"
    "float4 PS(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
    "{\n"
    "  float4 a = 0;\n"
    "  a = float3(0.25, 0.5, 0.75);\n"
    "  float4 b = 1;\n"
    "  b /= float2(2, 4);\n"
    "  float2 l[3];\n"
    "  l = { float2(0.125, 0.25), 0.375.rr, float2(0.5, 0.625) };\n"
    "  uint2 c = countbits(uint2(0xffffffffu, 0x80000101u));\n"
    "  float4 t = tex3Dfetch(SV, int3(1, 1, 1));\n"
    "  if (p.x < 1) return float4(a.w, b.y, b.z, b.w * a.x);\n"
    "  if (p.x < 2) return float4(l[0].y, l[1].x, l[2].y, 1);\n"
    "  return float4(c.x / 64.0, c.y / 64.0, countbits(7) / 64.0, t.x + t.w + 0.5);\n"
    "}\n"
    "technique T { pass { VertexShader = PostProcessVS; PixelShader = PS; } }\n";
  SlDiagnostics *d = sl_diagnostics_new ();
  SlEffect *fx = compile ("lenient.fx", src, 3, 1, d);
  print_diags (d);
  CHECK (fx != NULL, "lenient.fx compiles");
  if (fx)
    {
      Image in = pattern (3, 1);
      Image got = render (fx, &in, NULL);
      const float want[12] = { 0.75f, 0.25f, 0.25f, 0.0625f, 0.25f, 0.375f, 0.625f, 1.0f,
                               0.5f, 3 / 64.0f, 3 / 64.0f, 0.5f };
      for (int i = 0; i < 12; i++)
        CHECK (got.px[i] == want[i], "leniencies: pixel %d component %d is %g, want %g", i / 4, i % 4,
               got.px[i], want[i]);
      g_free (got.px);
      g_free (in.px);
      sl_effect_unref (fx);
    }
  sl_diagnostics_clear (d);
  /* Offsets computed at run time read what the same constant ones read;
   * tex2Dgatheroffset and tex2Dgather0…3 are ReShade's compatibility
   * macros; a function may end without a return (here in a discard) and
   * then returns zero. */
  const char *more =
    "#include \"ReShade.fxh\"\n"
    "uniform int Off < ui_type = \"drag\"; > = 1;\n"
    "float3 Half(float x) { if (x > 0.5) return 0.5; }\n"
    "float4 Never(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target { if (uv.x > 2) return 1; discard; }\n"
    "float4 PS(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
    "{\n"
    "  float4 a = tex2Doffset(ReShade::BackBuffer, uv, int2(Off, -Off));\n"
    "  float4 b = tex2Doffset(ReShade::BackBuffer, uv, int2(1, -1));\n"
    "  float4 c = tex2Dlod(ReShade::BackBuffer, float4(uv, 0, 0), int2(0, Off));\n"
    "  float4 g = tex2DgatherG(ReShade::BackBuffer, uv, int2(Off, 0)) - tex2Dgatheroffset(ReShade::BackBuffer, uv, int2(1, 0), 1);\n"
    "  float4 h = tex2Dgather0(ReShade::BackBuffer, uv) - tex2DgatherR(ReShade::BackBuffer, uv);\n"
    "  return float4(a.x - b.x + g.x + g.w + h.y, c.y, Half(uv.x).x, b.z);\n"
    "}\n"
    "technique T { pass { VertexShader = PostProcessVS; PixelShader = PS; }\n"
    "              pass { VertexShader = PostProcessVS; PixelShader = Never; } }\n";
  fx = compile ("lenient2.fx", more, 4, 4, d);
  print_diags (d);
  CHECK (fx != NULL, "lenient2.fx compiles");
  if (fx)
    {
      Image in = pattern (4, 4);
      Image got = render (fx, &in, NULL);
      for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++)
          {
            const float *px = at (&got, x, y);
            float want_b = at (&in, MIN (x + 1, 3), MAX (y - 1, 0))[2];
            float want_c = at (&in, x, MIN (y + 1, 3))[1];
            float want_half = x >= 2 ? 0.5f : 0.0f;
            CHECK (px[0] == 0 && px[1] == want_c && px[2] == want_half && px[3] == want_b,
                   "leniencies at (%d, %d): got %g %g %g %g, want 0 %g %g %g", x, y, px[0], px[1], px[2],
                   px[3], want_c, want_half, want_b);
          }
      g_free (got.px);
      g_free (in.px);
      sl_effect_unref (fx);
    }
  sl_diagnostics_free (d);
}

/* ---- host values; an unknown source keeps the initial value ---- */
static void
test_host_values (void)
{
  /* Scaled into [0, 1]: a ReShade back buffer holds no more. */
  const char *src =
    "uniform float Timer < source = \"timer\"; >;\n"
    "uniform int Frame < source = \"framecount\"; >;\n"
    "uniform int Dice < source = \"random\"; min = 1; max = 6; >;\n"
    "float4 PS(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
    "{ return float4(Timer / 10000.0, Frame / 100.0, Dice / 10.0, 1); }\n"
    "technique T { pass { PixelShader = PS; } }\n";
  SlDiagnostics *d = sl_diagnostics_new ();
  Image in = pattern (4, 4);
  SlEffect *fx = compile ("host.fx", src, 4, 4, d);
  print_diags (d);
  CHECK (fx != NULL, "host values compile");
  if (fx)
    {
      CHECK (!strcmp (sl_param_get_host_source (sl_effect_get_param (fx, 0)), "timer"), "source reflected");
      SlEffectRun *run = sl_effect_run_new (fx, 0);
      SlTexture tex;
      sl_texture_init_2d (&tex, 4, 4, 16, in.px);
      sl_effect_run_set_input (run, &tex);
      SlEffectHostValues hv;
      sl_effect_host_values_init (&hv);
      hv.timer_ms = 1234.5;
      hv.framecount = 42;
      hv.seed = 7;
      sl_effect_run_set_host_values (run, &hv);
      CHECK (sl_effect_run_prepare (run, d), "prepare");
      float px[4 * 4 * 4];
      SlTarget tg = { px, 16 };
      SlScratch *sc = sl_scratch_new ();
      CHECK (sl_effect_render (run, sc, 0, 0, 4, 4, NULL, &tg, d), "render");
      CHECK (px[0] == 1234.5f / 10000.0f && px[1] == 42.0f / 100.0f, "timer %g and framecount %g", px[0], px[1]);
      CHECK (px[2] >= 0.1f && px[2] <= 0.6f && fabsf (px[2] * 10 - roundf (px[2] * 10)) < 1e-5f,
             "random %g in [1, 6] / 10", px[2]);
      float first = px[2];
      /* Same seed, same value: renders repeat. */
      sl_effect_run_set_host_values (run, &hv);
      CHECK (sl_effect_run_prepare (run, d), "prepare again");
      CHECK (sl_effect_render (run, sc, 0, 0, 4, 4, NULL, &tg, d), "render again");
      CHECK (px[2] == first, "random repeats for one seed");
      sl_scratch_free (sc);
      sl_effect_run_free (run);
      sl_effect_unref (fx);
    }
  sl_diagnostics_clear (d);
  /* ReShade warns about a source it does not know and leaves the uniform
   * at its initializer. */
  const char *other = "uniform float2 Eye < source = \"eyetracker\"; > = float2(0.25, 0.75);\n"
                      "float4 PS(float2 uv : TEXCOORD) : SV_Target { return Eye.xyxy; }\n"
                      "technique T { pass { PixelShader = PS; } }\n";
  fx = compile ("other.fx", other, 4, 4, d);
  char *text = sl_diagnostics_format (d);
  CHECK (fx != NULL && text && strstr (text, "other.fx:1:31: warning: unknown source \"eyetracker\": the uniform "
                                             "keeps its initial value"),
         "unknown source: a warning, got: %s", text ? text : "(nothing)");
  g_free (text);
  if (fx)
    {
      Image got = render (fx, &in, NULL);
      CHECK (got.px[0] == 0.25f && got.px[1] == 0.75f && got.px[2] == 0.25f && got.px[3] == 0.75f,
             "unknown source: the initializer, got %g %g", got.px[0], got.px[1]);
      g_free (got.px);
      sl_effect_unref (fx);
    }
  g_free (in.px);
  sl_diagnostics_free (d);
}

/* ---- ReShade sampler intrinsics and leniencies (intrinsics.fx) ---- */

/* A texel with D3D Load semantics: zero outside the image. */
static float
load_texel (const Image *im, int x, int y, int c)
{
  return x >= 0 && x < im->w && y >= 0 && y < im->h ? im->px[((size_t) y * im->w + x) * 4 + c] : 0.0f;
}

static float
wrap_texel (const Image *im, int x, int y, int c)
{
  x = ((x % im->w) + im->w) % im->w;
  y = ((y % im->h) + im->h) % im->h;
  return im->px[((size_t) y * im->w + x) * 4 + c];
}

/* The bit intrinsics, one bit at a time as their reference pages define
 * them: firstbithigh the highest 1 bit (for a negative int the highest
 * 0 bit), firstbitlow the lowest 1 bit, -1 for none; reversebits moves
 * bit k to bit 31 - k. */
static int
ref_firstbithigh (uint32_t u, bool is_signed)
{
  if (is_signed && (int32_t) u < 0)
    u = ~u;
  for (int k = 31; k >= 0; k--)
    if (u >> k & 1u)
      return k;
  return -1;
}

static int
ref_firstbitlow (uint32_t u)
{
  for (int k = 0; k < 32; k++)
    if (u >> k & 1u)
      return k;
  return -1;
}

static uint32_t
ref_reversebits (uint32_t u)
{
  uint32_t r = 0;
  for (int k = 0; k < 32; k++)
    r |= (u >> k & 1u) << (31 - k);
  return r;
}

static void
test_intrinsics (void)
{
  char *src = load ("intrinsics.fx");
  SlDiagnostics *d = sl_diagnostics_new ();
  Image in = pattern (24, 16);
  SlEffect *fx = compile ("intrinsics.fx", src, in.w, in.h, d);
  print_diags (d);
  CHECK (fx != NULL, "intrinsics.fx compiles");
  if (!fx)
    return;
  const char *names[] = { "Fetch", "Size", "Gather", "GatherOffset", "Offsets", "Lenient", "Bits", "Dims", "Typed" };
  for (int ti = 0; ti < (int) G_N_ELEMENTS (names); ti++)
    {
      int t = sl_effect_find_technique (fx, names[ti]);
      CHECK (t >= 0, "technique %s", names[ti]);
      if (t < 0)
        continue;
      Image want = image_new (in.w, in.h);
      for (int y = 0; y < in.h; y++)
        for (int x = 0; x < in.w; x++)
          {
            float *o = at (&want, x, y);
            switch (ti)
              {
              case 0:
                for (int c = 0; c < 3; c++)
                  o[c] = load_texel (&in, x + 1, y, c);
                o[3] = at (&in, x, y)[0];
                break;
              case 1:   /* 24×16; Half 12×8, its level 1 6×4 */
                o[0] = 0.024f, o[1] = 0.016f, o[2] = 0.128f, o[3] = 0.064f;
                break;
              case 2:   /* D3D order: (x,y+1) (x+1,y+1) (x+1,y) (x,y), green, wrapped */
                o[0] = wrap_texel (&in, x, y + 1, 1);
                o[1] = wrap_texel (&in, x + 1, y + 1, 1);
                o[2] = wrap_texel (&in, x + 1, y, 1);
                o[3] = wrap_texel (&in, x, y, 1);
                break;
              case 3:   /* red, clamped, footprint from x + 1 */
                o[0] = at (&in, x + 1, y + 1)[0];
                o[1] = at (&in, x + 2, y + 1)[0];
                o[2] = at (&in, x + 2, y)[0];
                o[3] = at (&in, x + 1, y)[0];
                break;
              case 4:
                o[0] = at (&in, x - 1, y + 1)[0];
                o[1] = at (&in, x + 2, y)[1];
                o[2] = at (&in, x, y - 1)[2];
                o[3] = at (&in, x + 1, y + 1)[0];
                break;
              case 5:
                for (int c = 0; c < 3; c++)
                  o[c] = 0.25f * at (&in, x - 1, y)[c] + 0.5f * at (&in, x, y)[c] + 0.25f * at (&in, x + 1, y)[c];
                o[3] = 1.0f;
                break;
              case 7:   /* Line texel i = (i + 0.5) / 8; clamped reads */
                {
                  int i = x % 8, f = i + y - 4;
#define LINE_TEXEL(k) ((CLAMP ((k), 0, 7) + 0.5f) / 8.0f)
                  o[0] = f >= 0 && f < 8 ? (f + 0.5f) / 8.0f : 0.0f;
                  o[1] = LINE_TEXEL (i + 1);
                  o[2] = LINE_TEXEL (i + y % 3 - 1);
                  o[3] = 0.088f + 0.5f * LINE_TEXEL (i + 1);
#undef LINE_TEXEL
                }
                break;
              case 8:   /* a float read scales all three; rg.y is green */
                {
                  float r = at (&in, x, y)[0];
                  o[0] = r, o[1] = 0.5f * r, o[2] = 0.25f * r;
                  o[3] = at (&in, x, y)[1] * r / MAX (r, 1e-6f);
                }
                break;
              default:
                {
                  uint32_t u = ((uint32_t) x * 2654435761u + (uint32_t) y * 40503u) >> (x % 9);
                  uint32_t sv = u ^ ((uint32_t) y << 28);
                  o[0] = (ref_firstbithigh (u, false) + 1) / 64.0f;
                  o[1] = (ref_firstbitlow (u) + 1) / 64.0f;
                  o[2] = (ref_firstbithigh (sv, true) + 1) / 64.0f;
                  o[3] = ((ref_reversebits (u) >> 26) + 4 * (ref_firstbitlow (sv) == -1)) / 64.0f;
                }
                break;
              }
          }
      Image got = render_technique (fx, t, &in, NULL);
      char *what = g_strdup_printf ("ReShade intrinsics: %s", names[ti]);
      compare (what, &got, &want);
      g_free (what);
      g_free (got.px);
      g_free (want.px);
    }
  g_free (in.px);
  sl_effect_unref (fx);
  g_free (src);
  sl_diagnostics_free (d);

  /* Plain HLSL stays strict: the same constructs are errors there. */
  struct { const char *src, *want; } strict[] = {
    { "float4 main() : SV_Target { return float4(0.5); }",
      "p.hlsl:1:36: error: 'float4' constructor needs 4 components, got 1" },
    { "sampler2D s; float4 main(float4 p : SV_Position) : SV_Target { return tex2Dfetch(s, int2(p.xy)); }",
      "error: undeclared function 'tex2Dfetch'" },
    { "sampler2D s; float4 main(float2 t : TEXCOORD) : SV_Target { return tex2Dlod(s, float4(t, 0, 0), int2(1, 0)); }",
      "error: 'tex2Dlod' takes 2 arguments, not 3" },
    { "sampler1D s; float4 main(float4 p : SV_Position) : SV_Target { return tex1Dfetch(s, int(p.x)); }",
      "error: undeclared function 'tex1Dfetch'" },
    { "sampler3D s; float4 main() : SV_Target { return tex3Dsize(s).x; }",
      "error: undeclared function 'tex3Dsize'" },
    { "sampler1D s; float4 main(float2 t : TEXCOORD) : SV_Target { return tex1D(s, t.x, 1); }",
      "error: 'tex1D' takes 2 or 4 arguments" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (strict); i++)
    {
      SlDiagnostics *sd = sl_diagnostics_new ();
      SlCompileOptions co = {
        .source = strict[i].src, .length = (size_t) -1, .filename = "p.hlsl",
        .language = SL_LANGUAGE_HLSL, .profile = "ps_4_0",
      };
      SlProgram *prog = sl_compile (&co, sd);
      char *text = sl_diagnostics_format (sd);
      CHECK (prog == NULL && text && strstr (text, strict[i].want), "strict case %zu: want '%s', got: %s", i,
             strict[i].want, text ? text : "(nothing)");
      co.flags = SL_COMPILE_RESHADE_FX;
      SlProgram *lenient = sl_compile (&co, NULL);
      CHECK (lenient != NULL, "strict case %zu compiles with SL_COMPILE_RESHADE_FX", i);
      g_free (text);
      if (prog)
        sl_program_unref (prog);
      if (lenient)
        sl_program_unref (lenient);
      sl_diagnostics_free (sd);
    }
}

/* Negative texel offsets are constants in plain HLSL too. */
static void
test_negative_offset (void)
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlCompileOptions co = {
    .source = "Texture2D t; SamplerState s;\n"
              "float4 main(float2 uv : TEXCOORD) : SV_Target { return t.Sample(s, uv, int2(-1, 0)); }\n",
    .length = (size_t) -1, .filename = "o.hlsl", .language = SL_LANGUAGE_HLSL, .profile = "ps_4_0",
  };
  SlProgram *prog = sl_compile (&co, d);
  print_diags (d);
  CHECK (prog != NULL, "Sample with offset int2(-1, 0) compiles");
  if (prog)
    sl_program_unref (prog);
  sl_diagnostics_free (d);
}

/* ---- what the back buffer holds (backbuffer.fx) ---- */
static void
test_backbuffer_clamp (void)
{
  char *src = load ("backbuffer.fx");
  SlDiagnostics *d = sl_diagnostics_new ();
  /* An image may hold values past 1 (a float image in GIMP): alpha in
   * [0.5, 1.5). */
  Image in = pattern (9, 5);
  for (int y = 0; y < in.h; y++)
    for (int x = 0; x < in.w; x++)
      at (&in, x, y)[3] = 0.5f + at (&in, x, y)[0];
  SlEffect *fx = compile ("backbuffer.fx", src, in.w, in.h, d);
  print_diags (d);
  CHECK (fx != NULL, "backbuffer.fx compiles");
  if (!fx)
    {
      g_free (src);
      g_free (in.px);
      sl_diagnostics_free (d);
      return;
    }
  /* Spread(): 3c - 1 clamped to [0, 1], column 3's green NaN, so 0. */
  Image spread = image_new (in.w, in.h);
  for (int y = 0; y < in.h; y++)
    for (int x = 0; x < in.w; x++)
      for (int c = 0; c < 4; c++)
        at (&spread, x, y)[c] = x == 3 && c == 1 ? 0.0f
                                : CLAMP (at (&in, x, y)[c] * 3.0f - 1.0f, 0.0f, 1.0f);
  static const char *const names[] = { "Whole", "Blended", "Discarded", "Colour" };
  Image got[4];
  for (int k = 0; k < 4; k++)
    {
      int tech = sl_effect_find_technique (fx, names[k]);
      CHECK (tech >= 0, "technique %s", names[k]);
      got[k] = render_technique (fx, MAX (tech, 0), &in, NULL);
    }
  compare ("back buffer: whole pixels, clamped", &got[0], &spread);
  /* The combine step's clamp and the program's own give the same bits. */
  CHECK (!memcmp (got[0].px, got[1].px, sizeof (float) * 4 * in.w * in.h),
         "back buffer: the blended pass gives Whole's bits");
  Image want = image_new (in.w, in.h);
  for (int y = 0; y < in.h; y++)
    for (int x = 0; x < in.w; x++)
      for (int c = 0; c < 4; c++)
        at (&want, x, y)[c] = y < 2 ? at (&in, x, y)[c] : at (&spread, x, y)[c];
  compare ("back buffer: discarded rows keep the image", &got[2], &want);
  for (int y = 0; y < in.h; y++)
    for (int x = 0; x < in.w; x++)
      for (int c = 0; c < 4; c++)
        at (&want, x, y)[c] = c == 3 ? MIN (at (&in, x, y)[3], 1.0f) : at (&spread, x, y)[c];
  compare ("back buffer: alpha not written keeps the image's, clamped", &got[3], &want);
  for (int k = 0; k < 4; k++)
    g_free (got[k].px);
  g_free (want.px);
  g_free (spread.px);
  g_free (in.px);
  sl_effect_unref (fx);
  g_free (src);
  sl_diagnostics_free (d);
}

/* ---- passes only an untaken branch needs (live-passes.fx) ---- */

/* Sets UseDetail on @run, prepares it and renders the whole image in two
 * halves into @out; true when every call succeeded.  Diagnostics go to
 * @d. */
static bool
render_live (SlEffectRun *run, int use_detail, Image *out, SlDiagnostics *d)
{
  float v = (float) use_detail;
  bool ok = sl_effect_run_set_param (run, "UseDetail", &v, 1, d);
  ok &= sl_effect_run_prepare (run, d);
  SlScratch *scratch = sl_scratch_new ();
  int half = out->h / 2;
  SlTarget top = { out->px, (size_t) out->w * 4 };
  SlTarget bottom = { out->px + (size_t) half * out->w * 4, (size_t) out->w * 4 };
  ok = ok && sl_effect_render (run, scratch, 0, 0, out->w, half, NULL, &top, d);
  ok = ok && sl_effect_render (run, scratch, 0, half, out->w, out->h - half, NULL, &bottom, d);
  sl_scratch_free (scratch);
  return ok;
}

/* What LivePasses gives for @in: the image itself without the flag; with
 * it, pass 2's half of the coordinate (pass 1) and quarter of the image,
 * plus an eighth of the image.  The products are by powers of two, so
 * each sum rounds once, in this order, as in the shaders. */
static void
live_expected (const Image *in, int use_detail, Image *want)
{
  for (int y = 0; y < in->h; y++)
    for (int x = 0; x < in->w; x++)
      {
        const float src[4] = { (x + 0.5f) / in->w, (y + 0.5f) / in->h, 0.25f, 1.0f };
        for (int c = 0; c < 4; c++)
          {
            float image = at (in, x, y)[c];
            float detail = src[c] * 0.5f + image * 0.25f;
            at (want, x, y)[c] = use_detail ? detail + image * 0.125f : image;
          }
      }
}

static void
compare_exact (const char *what, const Image *got, const Image *want)
{
  int bad = 0;
  for (int y = 0; y < want->h; y++)
    for (int x = 0; x < want->w; x++)
      for (int c = 0; c < 4; c++)
        if (at (got, x, y)[c] != at (want, x, y)[c] && bad++ < 3)
          CHECK (false, "%s: pixel %d,%d channel %d is %.9g, expected %.9g", what, x, y, c,
                 at (got, x, y)[c], at (want, x, y)[c]);
  CHECK (bad == 0, "%s: %d components differ", what, bad);
}

static bool
has_vm_warning (const SlDiagnostics *d)
{
  for (int i = 0; i < sl_diagnostics_count (d); i++)
    if (g_str_has_prefix (sl_diagnostics_get (d, i)->code, "W-VM-"))
      return true;
  return false;
}

static void
test_live_passes (void)
{
  char *src = load ("live-passes.fx");
  SlDiagnostics *d = sl_diagnostics_new ();
  /* 8×4: the texture coordinates are exact binary fractions. */
  Image in = pattern (8, 4);
  SlEffect *fx = compile ("live-passes.fx", src, in.w, in.h, d);
  print_diags (d);
  CHECK (fx != NULL, "live-passes.fx compiles");
  if (!fx)
    {
      g_free (src);
      g_free (in.px);
      sl_diagnostics_free (d);
      return;
    }
  int tech = sl_effect_find_technique (fx, "LivePasses");
  CHECK (tech >= 0, "technique LivePasses");
  const SlEffectTechnique *t = sl_effect_get_technique (fx, tech);
  int source = -1, detail = -1;
  for (int i = 0; i < sl_effect_get_n_textures (fx); i++)
    {
      if (!strcmp (sl_effect_get_texture (fx, i)->name, "SourceTex"))
        source = i;
      if (!strcmp (sl_effect_get_texture (fx, i)->name, "DetailTex"))
        detail = i;
    }
  CHECK (t->n_passes == 3 && t->passes[0].n_render_targets == 1 && t->passes[0].render_targets[0] == source
         && t->passes[1].n_render_targets == 1 && t->passes[1].render_targets[0] == detail
         && t->passes[2].n_render_targets == 0,
         "LivePasses: SourceTex, then DetailTex, then the back buffer");

  Image want = image_new (in.w, in.h);
  SlTexture tex;
  sl_texture_init_2d (&tex, in.w, in.h, (size_t) in.w * 4, in.px);

  /* A run of its own for each value, with whole targets (where passes
   * are skipped outright) and rendering locally (where they get nothing
   * to render). */
  size_t memory[2] = { 0, 0 };
  for (int local = 0; local <= 1; local++)
    for (int flag = 0; flag <= 1; flag++)
      {
        SlEffectRun *run = sl_effect_run_new (fx, tech);
        sl_effect_run_set_input (run, &tex);
        sl_effect_run_set_local (run, local);
        Image got = image_new (in.w, in.h);
        CHECK (render_live (run, flag, &got, d), "LivePasses renders with UseDetail=%d", flag);
        CHECK (sl_effect_run_is_local (run) == local, "LivePasses renders locally: %d", !local);
        if (!local)
          memory[flag] = sl_effect_run_get_memory (run);
        live_expected (&in, flag, &want);
        compare_exact (flag ? "live passes, UseDetail=1" : "live passes, UseDetail=0", &got, &want);
        g_free (got.px);
        sl_effect_run_free (run);
      }
  /* With the flag both whole targets are rendered and read, so they are
   * in the run's memory (RGBA float texels).  Without it the passes are skipped;
   * whether their targets still count is not pinned here, only that the
   * flag adds nothing the flag-less run needs more of. */
  size_t target_bytes = (size_t) in.w * in.h * 4 * sizeof (float);
  CHECK (memory[1] >= 2 * target_bytes, "memory with UseDetail=1 is %zu, at least both targets (%zu)",
         memory[1], 2 * target_bytes);
  CHECK (memory[0] <= memory[1], "memory without the flag (%zu) is at most that with it (%zu)", memory[0],
         memory[1]);

  /* One run, the flag switched back and forth: each prepare decides again
   * which passes run, and targets skipped once are rendered when needed
   * again. */
  SlEffectRun *run = sl_effect_run_new (fx, tech);
  sl_effect_run_set_input (run, &tex);
  sl_effect_run_set_local (run, false);
  const int sequence[] = { 1, 0, 1, 0, 0, 1 };
  for (size_t k = 0; k < G_N_ELEMENTS (sequence); k++)
    {
      Image got = image_new (in.w, in.h);
      CHECK (render_live (run, sequence[k], &got, d), "render %zu of the switched run", k);
      live_expected (&in, sequence[k], &want);
      char *what = g_strdup_printf ("live passes, switched run, render %zu (UseDetail=%d)", k, sequence[k]);
      compare_exact (what, &got, &want);
      g_free (what);
      g_free (got.px);
    }
  sl_effect_run_free (run);
  CHECK (sl_diagnostics_count (d) == 0, "LivePasses renders without diagnostics");
  print_diags (d);
  sl_diagnostics_clear (d);

  /* Runaway: its first pass loops past the interpreter's limits, and feeds
   * the last pass only through DetailTex.  Without the flag no pass that
   * runs reaches the loop: no warning, and the image comes through. */
  int runaway = sl_effect_find_technique (fx, "Runaway");
  CHECK (runaway >= 0, "technique Runaway");
  for (int flag = 0; runaway >= 0 && flag <= 1; flag++)
    {
      SlEffectRun *r = sl_effect_run_new (fx, runaway);
      sl_effect_run_set_input (r, &tex);
      float rounds = 1e8f;
      CHECK (sl_effect_run_set_param (r, "Rounds", &rounds, 1, d), "Rounds");
      Image got = image_new (in.w, in.h);
      bool ok = render_live (r, flag, &got, d);
      if (flag)
        CHECK (has_vm_warning (d), "Runaway with UseDetail=1: the loop pass ran and hit a limit");
      else
        {
          CHECK (ok && sl_diagnostics_count (d) == 0,
                 "Runaway with UseDetail=0: no diagnostics (the loop pass is skipped)");
          print_diags (d);
          live_expected (&in, 0, &want);
          compare_exact ("runaway, UseDetail=0", &got, &want);
        }
      sl_diagnostics_clear (d);
      g_free (got.px);
      sl_effect_run_free (r);
    }

  g_free (want.px);
  g_free (in.px);
  sl_effect_unref (fx);
  g_free (src);
  sl_diagnostics_free (d);
}

/* ---- errors point into the file ---- */
static void
test_errors (void)
{
  struct { const char *src, *want; } cases[] = {
    { "float4 PS(float2 uv : TEXCOORD) : SV_Target { return 1; }\n"
      "technique T { pass { PixelShader = PS; RenderTarget = Nope; } }\n",
      "e.fx:2:55: error: pass render target 'Nope' is not a declared texture" },
    { "texture T { Width = BUFFER_WIDTH * 4096; Height = 4; };\n"
      "float4 PS(float2 uv : TEXCOORD) : SV_Target { return 1; }\ntechnique X { pass { PixelShader = PS; } }\n",
      "e.fx:1:13: error: texture 'T': Width 32768 is out of range (1 to 16384)" },
    { "float4 PS(float2 uv : TEXCOORD) : SV_Target { return undefined_thing; }\n"
      "technique X { pass { PixelShader = PS; } }\n",
      "e.fx:1:54: error: undeclared identifier 'undefined_thing'" },
    { "float4 PS(float2 uv : TEXCOORD) : SV_Target { return 1; }\n",
      "error: the effect has no technique" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      SlDiagnostics *d = sl_diagnostics_new ();
      SlEffect *fx = compile ("e.fx", cases[i].src, 8, 8, d);
      char *text = sl_diagnostics_format (d);
      CHECK (fx == NULL && text && strstr (text, cases[i].want), "case %zu: want '%s', got: %s", i, cases[i].want,
             text ? text : "(nothing)");
      g_free (text);
      if (fx)
        sl_effect_unref (fx);
      sl_diagnostics_free (d);
    }
}

int
main (void)
{
  test_blur ();
  test_bloom ();
  test_headers ();
  test_depth_settings ();
  test_leniencies ();
  test_d3d9_fx ();
  test_host_values ();
  test_intrinsics ();
  test_negative_offset ();
  test_live_passes ();
  test_backbuffer_clamp ();
  test_errors ();
  if (failures)
    fprintf (stderr, "%d check(s) failed\n", failures);
  return failures ? 1 : 0;
}
