/* Real-world shader constructs, each reproduced by a small shader of our
 * own: listings as fxc writes them with /Zi (#line markers, trailing
 * comments), defaults that fxc wraps over several comment lines, inputs
 * with engine-specific semantics that nothing here fills, and the vertex
 * colour that sprite-style shaders multiply by.  Where a construct exists
 * in several front ends the test runs each one and requires the same
 * pixels; every check compares rendered values, never just "it compiled". */
#include <shaderlib.h>

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...) do { if (!(cond)) { failures++; fprintf (stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf (stderr, __VA_ARGS__); fputc ('\n', stderr); } } while (0)

enum { W = 8, H = 4 };
static float input[W * H * 4];
static float strip[16 * 4];       /* a 16×1 "palette" texture */

static void
make_inputs (void)
{
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        float *p = input + 4 * (y * W + x);
        p[0] = (float) x / (W - 1);
        p[1] = (float) y / (H - 1);
        p[2] = (float) ((x * 3 + y * 5) % 7) / 6.0f;
        p[3] = 1.0f - 0.1f * (float) x;
      }
  for (int i = 0; i < 16; i++)
    {
      strip[4 * i + 0] = (float) i / 15;
      strip[4 * i + 1] = (float) ((i * 7) % 16) / 15;
      strip[4 * i + 2] = 1.0f - (float) i / 15;
      strip[4 * i + 3] = 1.0f;
    }
}

/* Compiles @src; NULL on errors.  The formatted diagnostics (warnings too)
 * go to *@diag_text when asked for. */
static SlProgram *
compile (const char *name, const char *src, size_t len, SlLanguage lang, const char *entry,
         char **diag_text)
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlCompileOptions o = { .source = src, .length = len, .filename = name, .language = lang,
                         .entry_point = entry, .flags = SL_COMPILE_VALIDATE };
  SlProgram *p = sl_compile (&o, d);
  char *s = sl_diagnostics_format (d);
  CHECK (p != NULL, "%s does not compile:\n%s", name, s);
  if (diag_text)
    *diag_text = s;
  else
    g_free (s);
  sl_diagnostics_free (d);
  return p;
}

/* Renders W×H; slot 0 (and every other slot unless @strip_slot ≥ 0 names
 * the one that gets the 16×1 strip) reads the input image. */
static bool
render (SlProgram *p, const char *params, int strip_slot, float *out)
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlBinding *b = sl_binding_new (p);
  SlTexture tex, pal;
  sl_texture_init_2d (&tex, W, H, W * 4, input);
  sl_texture_init_2d (&pal, 16, 1, 16 * 4, strip);
  sl_binding_set_viewport (b, W, H);
  for (int s = 0; s < SL_MAX_SLOTS; s++)
    sl_binding_set_texture (b, s, s == strip_slot ? &pal : &tex);
  bool ok = sl_binding_set_params_string (b, params ? params : "", d) && sl_binding_prepare (b, d);
  memcpy (out, input, sizeof input);
  SlScratch *sc = sl_scratch_new ();
  SlTarget t = { out, W * 4 };
  ok = ok && sl_binding_render (b, sc, 0, 0, W, H, NULL, &t, 1, d);
  if (!ok)
    {
      char *s = sl_diagnostics_format (d);
      fprintf (stderr, "%s", s);
      g_free (s);
    }
  sl_scratch_free (sc);
  sl_binding_free (b);
  sl_diagnostics_free (d);
  return ok;
}

static bool
close_to (float a, float b)
{
  return fabsf (a - b) <= 1e-5f * MAX (1.0f, fabsf (b));
}

/* Every pixel of @p equals @expect(x, y, rgba). */
typedef void (*Expect) (int x, int y, float rgba[4]);

static void
pixels_are (const char *name, SlProgram *p, const char *params, int strip_slot, Expect expect)
{
  float out[W * H * 4];
  if (!p)
    return;
  CHECK (render (p, params, strip_slot, out), "%s: render", name);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        float e[4];
        expect (x, y, e);
        const float *o = out + 4 * (y * W + x);
        for (int c = 0; c < 4; c++)
          if (!close_to (o[c], e[c]))
            {
              CHECK (0, "%s: pixel %d,%d is %g %g %g %g, expected %g %g %g %g", name, x, y,
                     o[0], o[1], o[2], o[3], e[0], e[1], e[2], e[3]);
              return;
            }
      }
}

static float tx (int x) { return (x + 0.5f) / W; }
static float ty (int y) { return (y + 0.5f) / H; }

/* Bilinear clamp-to-edge read of the input at (u, v), as the sampler
 * does it. */
static void
bilinear (const float *img, int w, int h, float u, float v, float out[4])
{
  float fx = u * w - 0.5f, fy = v * h - 0.5f;
  int x0 = (int) floorf (fx), y0 = (int) floorf (fy);
  float ax = fx - x0, ay = fy - y0;
  for (int c = 0; c < 4; c++)
    {
      float acc = 0;
      for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++)
          {
            int xx = CLAMP (x0 + i, 0, w - 1), yy = CLAMP (y0 + j, 0, h - 1);
            float wgt = (i ? ax : 1 - ax) * (j ? ay : 1 - ay);
            acc += wgt * img[4 * (yy * w + xx) + c];
          }
      out[c] = acc;
    }
}

/* ------------------------------------------------------------------ */

/* fxc /Zi listings carry "#line N "file"" markers between instructions
 * and "// rN.x <- name" notes after them (seen in engine shader logs). */
static const char zi_listing[] =
  "// Input signature:\n//\n"
  "// Name                 Index   Mask Register SysValue  Format   Used\n"
  "// -------------------- ----- ------ -------- -------- ------- ------\n"
  "// SV_Position              0   xyzw        0      POS   float       \n"
  "// TEXCOORD                 0   xy          1     NONE   float   xy  \n"
  "//\n"
  "ps_5_0\n"
  "dcl_globalFlags refactoringAllowed\n"
  "dcl_input_ps linear v1.xy\n"
  "dcl_output o0.xyzw\n"
  "dcl_temps 1\n"
  "#line 12 \"C:\\\\work\\\\my effect.hlsl\"\n"
  "mad r0.xy, v1.xyxx, l(2.000000, 3.000000, 0.000000, 0.000000), l(0.250000, 0.000000, 0.000000, 0.000000)  // r0.x <- k.x; r0.y <- k.y\n"
  "\n"
  "#line 14\n"
  "mov o0.xy, r0.xyxx\n"
  "mov o0.zw, l(0,0,0.500000,1.000000)\n"
  "#line 14\n"
  "ret \n"
  "// Approximately 4 instruction slots used\n";

static void
expect_zi (int x, int y, float e[4])
{
  e[0] = tx (x) * 2 + 0.25f;
  e[1] = ty (y) * 3;
  e[2] = 0.5f;
  e[3] = 1;
}

static void
test_line_markers (void)
{
  SlProgram *p = compile ("zi.asm", zi_listing, (size_t) -1, SL_LANGUAGE_AUTO, NULL, NULL);
  pixels_are ("#line markers", p, NULL, -1, expect_zi);
  if (p)
    sl_program_unref (p);

  /* "#linear" is not a marker: it stays an error with the line number. */
  char *bad = g_strdup (zi_listing);
  char *m = strstr (bad, "#line 14\nmov");
  memcpy (m, "#linx", 5);
  SlDiagnostics *d = sl_diagnostics_new ();
  SlCompileOptions o = { .source = bad, .length = (size_t) -1, .filename = "zi.asm" };
  SlProgram *q = sl_compile (&o, d);
  char *s = sl_diagnostics_format (d);
  CHECK (!q && strstr (s, "zi.asm:16:1: error"), "#lin: expected an error at 16:1, got:\n%s", s);
  g_free (s);
  g_free (bad);
  sl_diagnostics_free (d);
}

/* Defaults of arrays and matrices that fxc wraps over several comment
 * lines; the continuation lines come without "=" or with one. */
#define DEFAULTS_LISTING(SECOND_LINE) \
  "// cbuffer $Globals\n// {\n//\n" \
  "//   float4 weights[2];                 // Offset:    0 Size:    32\n" \
  "//      = 0x3f800000 0x40000000 0x40400000 0x40800000 \n" \
  SECOND_LINE \
  "//   float gain;                        // Offset:   32 Size:     4\n" \
  "//      = 0x3f000000 \n" \
  "//\n// }\n//\n" \
  "// Resource Bindings:\n//\n" \
  "// Name                                 Type  Format         Dim      HLSL Bind  Count\n" \
  "// ------------------------------ ---------- ------- ----------- -------------- ------\n" \
  "// $Globals                          cbuffer      NA          NA            cb0      1 \n" \
  "//\n" \
  "ps_4_0\n" \
  "dcl_constantbuffer cb0[3], immediateIndexed\n" \
  "dcl_output o0.xyzw\n" \
  "mul o0.xyzw, cb0[1].xyzw, cb0[2].xxxx\n" \
  "ret\n"

static void
expect_defaults (int x, int y, float e[4])
{
  (void) x, (void) y;
  for (int c = 0; c < 4; c++)
    e[c] = 0.5f * (5 + c);
}

static void
test_wrapped_defaults (void)
{
  static const char *variants[] = {
    DEFAULTS_LISTING ("//        0x40a00000 0x40c00000 0x40e00000 0x41000000 \n"),
    DEFAULTS_LISTING ("//      = 0x40a00000 0x40c00000 0x40e00000 0x41000000 \n"),
  };
  for (int v = 0; v < 2; v++)
    {
      SlProgram *p = compile ("defaults.asm", variants[v], (size_t) -1, SL_LANGUAGE_AUTO, NULL, NULL);
      if (!p)
        continue;
      pixels_are (v ? "defaults, '=' on every line" : "defaults, continuation lines", p, NULL, -1,
                  expect_defaults);
      const SlParam *w = NULL;
      for (int i = 0; i < sl_program_get_n_params (p); i++)
        if (!strcmp (sl_program_get_param (p, i)->name, "weights"))
          w = sl_program_get_param (p, i);
      CHECK (w && w->default_value, "weights has no default");
      if (w && w->default_value)
        for (int k = 0; k < 8; k++)
          CHECK (w->default_value[k] == (float) (k + 1), "weights default %d is %g", k,
                 w->default_value[k]);
      sl_program_unref (p);
    }
}

/* Engine-generated HLSL passes varyings such as POSITION_WS or NORMALWS
 * that only a vertex shader fills; here they read 0 with a warning, in
 * HLSL and in listings alike.  SV_ semantics stay errors when unknown. */
static const char varying_hlsl[] =
  "struct PS_IN {\n"
  "  float4 posWS : POSITION_WS;\n"
  "  float4 pos : SV_Position;\n"
  "  float3 n : NORMALWS;\n"
  "  float2 uv : TEXCOORD0;\n"
  "};\n"
  "float4 main (PS_IN i) : SV_Target\n"
  "{\n"
  "  return float4 (i.uv, i.n.y + 0.25, i.posWS.w + 1);\n"
  "}\n";

static const char varying_listing[] =
  "// Input signature:\n//\n"
  "// Name                 Index   Mask Register SysValue  Format   Used\n"
  "// -------------------- ----- ------ -------- -------- ------- ------\n"
  "// POSITION_WS              0   xyzw        0     NONE   float      w\n"
  "// SV_Position              0   xyzw        1      POS   float       \n"
  "// NORMALWS                 0   xyz         2     NONE   float    y  \n"
  "// TEXCOORD                 0   xy          3     NONE   float   xy  \n"
  "//\n"
  "ps_4_0\n"
  "dcl_input_ps linear v0.w\n"
  "dcl_input_ps linear v2.y\n"
  "dcl_input_ps linear v3.xy\n"
  "dcl_output o0.xyzw\n"
  "mov o0.xy, v3.xyxx\n"
  "add o0.z, v2.y, l(0.250000)\n"
  "add o0.w, v0.w, l(1.000000)\n"
  "ret\n";

static void
expect_varying (int x, int y, float e[4])
{
  e[0] = tx (x);
  e[1] = ty (y);
  e[2] = 0.25f;
  e[3] = 1;
}

static void
test_user_varyings (void)
{
  char *diag = NULL;
  SlProgram *p = compile ("varying.hlsl", varying_hlsl, (size_t) -1, SL_LANGUAGE_HLSL, NULL, &diag);
  CHECK (diag && strstr (diag, "varying.hlsl:7:") && strstr (diag, "warning: input semantic 'NORMALWS' has no source; it reads 0"),
         "HLSL varying warning missing:\n%s", diag ? diag : "");
  pixels_are ("HLSL user varyings", p, NULL, -1, expect_varying);
  g_free (diag);
  if (p)
    sl_program_unref (p);

  diag = NULL;
  p = compile ("varying.asm", varying_listing, (size_t) -1, SL_LANGUAGE_AUTO, NULL, &diag);
  CHECK (diag && strstr (diag, "warning: v2: input semantic 'NORMALWS0' has no source; it reads 0"),
         "SM4 varying warning missing:\n%s", diag ? diag : "");
  pixels_are ("SM4 user varyings", p, NULL, -1, expect_varying);
  g_free (diag);
  if (p)
    sl_program_unref (p);

  /* An SV_ value nothing provides is still refused. */
  SlDiagnostics *d = sl_diagnostics_new ();
  SlCompileOptions o = { .source = "float4 main (uint s : SV_SampleIndex) : SV_Target { return s; }",
                         .length = (size_t) -1, .filename = "sv.hlsl", .language = SL_LANGUAGE_HLSL };
  SlProgram *q = sl_compile (&o, d);
  char *s = sl_diagnostics_format (d);
  CHECK (!q && strstr (s, "unsupported input semantic 'SV_SampleIndex'"), "SV_SampleIndex: got\n%s", s);
  g_free (s);
  sl_diagnostics_free (d);
}

/* Sprite-style shaders (SDL's renderer, XNA/WPF sprite batches) multiply
 * by the vertex colour; a full-image quad has D3D's default vertex colours:
 * COLOR0 opaque white, COLOR1 zero.  The palette shader also reads a 1D
 * sampler, which ps_2_0 declares as dcl_2d. */
static const char sprite_hlsl[] =
  "sampler2D image : register(s0);\n"
  "sampler1D pal : register(s1);\n"
  "struct IN { float4 pos : SV_POSITION; float2 uv : TEXCOORD0; float4 c : COLOR0; float4 spec : COLOR1; };\n"
  "float4 main (IN i) : SV_TARGET\n"
  "{\n"
  "  float k = tex2D (image, i.uv).r;\n"
  "  return tex1D (pal, k * (15.0 / 16) + (0.5 / 16)) * i.c + i.spec;\n"
  "}\n";

static const char sprite_ps20[] =
  "ps_2_0\n"
  "def c0, 0.9375, 0.03125, 0, 0\n"
  "dcl t0.xy\n"
  "dcl v0\n"
  "dcl v1\n"
  "dcl_2d s0\n"
  "dcl_2d s1\n"
  "texld r0, t0, s0\n"
  "mad r0.xy, r0.x, c0.x, c0.y\n"
  "texld r0, r0, s1\n"
  "mad r0, r0, v0, v1\n"
  "mov oC0, r0\n";

static const char sprite_ps40[] =
  "// Input signature:\n//\n"
  "// Name                 Index   Mask Register SysValue  Format   Used\n"
  "// -------------------- ----- ------ -------- -------- ------- ------\n"
  "// SV_POSITION              0   xyzw        0      POS   float       \n"
  "// TEXCOORD                 0   xy          1     NONE   float   xy  \n"
  "// COLOR                    0   xyzw        2     NONE   float   xyzw\n"
  "// COLOR                    1   xyzw        3     NONE   float   xyzw\n"
  "//\n"
  "ps_4_0\n"
  "dcl_sampler s0, mode_default\n"
  "dcl_sampler s1, mode_default\n"
  "dcl_resource_texture2d (float,float,float,float) t0\n"
  "dcl_resource_texture1d (float,float,float,float) t1\n"
  "dcl_input_ps linear v1.xy\n"
  "dcl_input_ps linear v2.xyzw\n"
  "dcl_input_ps linear v3.xyzw\n"
  "dcl_output o0.xyzw\n"
  "dcl_temps 1\n"
  "sample r0.xyzw, v1.xyxx, t0.xyzw, s0\n"
  "mad r0.x, r0.x, l(0.937500), l(0.031250)\n"
  "sample r0.xyzw, r0.xxxx, t1.xyzw, s1\n"
  "mad o0.xyzw, r0.xyzw, v2.xyzw, v3.xyzw\n"
  "ret\n";

static void
expect_sprite (int x, int y, float e[4])
{
  float c[4];
  bilinear (input, W, H, tx (x), ty (y), c);
  float u = c[0] * (15.0f / 16) + (0.5f / 16);
  bilinear (strip, 16, 1, u, u, e);   /* one row: v does not matter */
}

static void
test_vertex_colour (void)
{
  SlProgram *ps[3] = {
    compile ("sprite.hlsl", sprite_hlsl, (size_t) -1, SL_LANGUAGE_HLSL, NULL, NULL),
    compile ("sprite20.asm", sprite_ps20, (size_t) -1, SL_LANGUAGE_AUTO, NULL, NULL),
    compile ("sprite40.asm", sprite_ps40, (size_t) -1, SL_LANGUAGE_AUTO, NULL, NULL),
  };
  static const char *names[3] = { "sprite HLSL", "sprite ps_2_0", "sprite ps_4_0" };
  for (int i = 0; i < 3; i++)
    {
      pixels_are (names[i], ps[i], NULL, 1, expect_sprite);
      if (ps[i])
        sl_program_unref (ps[i]);
    }
}

/* fxc's ps_4_0_level_9_x listings print the ps_2_0 fallback inside the
 * comment header, before the SM4 program; the SM4 program is the shader
 * (here the fallback would give a different colour). */
static const char level9_listing[] =
  "//\n// Generated by Microsoft (R) HLSL Shader Compiler 10.1\n//\n"
  "// Input signature:\n//\n"
  "// Name                 Index   Mask Register SysValue  Format   Used\n"
  "// -------------------- ----- ------ -------- -------- ------- ------\n"
  "// SV_POSITION              0   xyzw        0      POS   float       \n"
  "// TEXCOORD                 0   xy          1     NONE   float   xy  \n"
  "//\n"
  "// Level9 shader bytecode:\n"
  "//\n"
  "    ps_2_0\n"
  "    def c0, 1, 0, 0, 1\n"
  "    mov oC0, c0\n"
  "\n"
  "// approximately 1 instruction slot used\n"
  "ps_4_0\n"
  "dcl_input_ps linear v1.xy\n"
  "dcl_output o0.xyzw\n"
  "mov o0.xy, v1.yxyy\n"
  "mov o0.zw, l(0,0,0.250000,1.000000)\n"
  "ret \n"
  "// Approximately 3 instruction slots used\n";

static void
expect_level9 (int x, int y, float e[4])
{
  e[0] = ty (y);
  e[1] = tx (x);
  e[2] = 0.25f;
  e[3] = 1;
}

static void
test_level9_listing (void)
{
  SlProgram *p = compile ("level9.asm", level9_listing, (size_t) -1, SL_LANGUAGE_AUTO, NULL, NULL);
  CHECK (sl_detect_language (level9_listing, (size_t) -1) == SL_LANGUAGE_SM4_ASM,
         "a level-9 listing is not detected as SM4");
  pixels_are ("level-9 listing", p, NULL, -1, expect_level9);
  if (p)
    sl_program_unref (p);
  /* Without the marker a ps_2_0 first line is D3D9 assembly. */
  CHECK (sl_detect_language ("// x\nps_2_0\nmov oC0, c0\n", (size_t) -1) == SL_LANGUAGE_D3D9_ASM,
         "plain ps_2_0 is not D3D9");
}

int
main (void)
{
  make_inputs ();
  test_line_markers ();
  test_wrapped_defaults ();
  test_user_varyings ();
  test_vertex_colour ();
  test_level9_listing ();
  if (failures)
    fprintf (stderr, "%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
