/* SM4/SM5 front end tests: listings in fxc's format run and give the
 * pixels of the HLSL they stand for (compiled by our HLSL front end), the
 * same listings packed into DXBC containers by our encoder run the same,
 * `dis` output reads back to the same program, and the sampler-mode,
 * declaration and container errors are reported with their text. */
#include "asm/sm4/sm4.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...) do { if (!(cond)) { failures++; fprintf (stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf (stderr, __VA_ARGS__); fputc ('\n', stderr); } } while (0)

enum { W = 8, H = 4 };
static float input[W * H * 4];

static void
make_input (void)
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
}

static SlProgram *
compile (const char *src, size_t len, SlLanguage lang, const char *profile, SlDiagnostics *d)
{
  SlCompileOptions o = { .source = src, .length = len, .filename = "t", .language = lang,
                         .profile = profile, .flags = SL_COMPILE_VALIDATE };
  return sl_compile (&o, d);
}

/* Renders W×H over the input texture (every declared slot) with @params. */
static bool
render (SlProgram *p, const char *params, float *out)
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlBinding *b = sl_binding_new (p);
  SlTexture tex;
  sl_texture_init_2d (&tex, W, H, W * 4, input);
  sl_binding_set_viewport (b, W, H);
  for (int s = 0; s < SL_MAX_SLOTS; s++)
    sl_binding_set_texture (b, s, &tex);
  bool ok = sl_binding_set_params_string (b, params, d) && sl_binding_prepare (b, d);
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

static SlProgram *
must_compile (const char *name, const char *src, size_t len, SlLanguage lang, const char *profile)
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlProgram *p = compile (src, len, lang, profile, d);
  if (!p)
    {
      char *s = sl_diagnostics_format (d);
      CHECK (0, "%s does not compile:\n%s", name, s);
      g_free (s);
    }
  sl_diagnostics_free (d);
  return p;
}

/* Bit-exact comparison of two renders. */
static void
same_pixels (const char *name, const float *a, const float *b)
{
  for (int i = 0; i < W * H * 4; i++)
    if (memcmp (&a[i], &b[i], 4))
      {
        CHECK (0, "%s: pixel (%d,%d) channel %d: %.9g vs %.9g", name, (i / 4) % W, i / 4 / W, i % 4,
               a[i], b[i]);
        return;
      }
}

/* The listing runs like the HLSL; its DXBC runs the same; dis reads back. */
static void
equivalent (const char *name, const char *asm_text, const char *hlsl, const char *params)
{
  float ra[W * H * 4], rh[W * H * 4], rd[W * H * 4];
  SlProgram *pa = must_compile (name, asm_text, (size_t) -1, SL_LANGUAGE_AUTO, NULL);
  SlProgram *ph = must_compile (name, hlsl, (size_t) -1, SL_LANGUAGE_HLSL, "ps_4_0");
  if (!pa || !ph)
    goto out;
  CHECK (render (pa, params, ra), "%s: asm render", name);
  CHECK (render (ph, params, rh), "%s: hlsl render", name);
  same_pixels (name, ra, rh);

  /* Pack into a container, run it. */
  SlDiagnostics *d = sl_diagnostics_new ();
  Sm4Shader *sh = sm4_assemble (asm_text, strlen (asm_text), name, d);
  CHECK (sh != NULL, "%s: sm4_assemble", name);
  if (sh)
    {
      size_t n;
      uint8_t *bin = sm4_dxbc_write (sh, &n);
      CHECK (sl_detect_language ((const char *) bin, n) == SL_LANGUAGE_DXBC, "%s: DXBC not detected", name);
      SlProgram *pd = must_compile (name, (const char *) bin, n, SL_LANGUAGE_AUTO, NULL);
      if (pd)
        {
          CHECK (render (pd, params, rd), "%s: dxbc render", name);
          same_pixels (name, ra, rd);
          CHECK (sl_program_get_n_params (pd) == sl_program_get_n_params (pa), "%s: params lost in DXBC", name);
          sl_program_unref (pd);
        }
      /* dis of the container assembles back to the same container. */
      char *text = sl_sm4_disassemble ((const char *) bin, n, name, d);
      CHECK (text != NULL, "%s: dis", name);
      Sm4Shader *back = text ? sm4_assemble (text, strlen (text), "dis", d) : NULL;
      CHECK (back != NULL, "%s: dis output does not assemble:\n%s", name, text ? text : "");
      if (back)
        {
          size_t n2;
          uint8_t *bin2 = sm4_dxbc_write (back, &n2);
          CHECK (n2 == n && !memcmp (bin, bin2, n), "%s: round trip changed the container:\n%s", name, text);
          g_free (bin2);
          /* and the text is a fixed point */
          char *text2 = sm4_print (back);
          CHECK (!strcmp (text, text2), "%s: dis text changed:\n%s\n---\n%s", name, text, text2);
          g_free (text2);
          sm4_shader_free (back);
        }
      g_free (text);
      g_free (bin);
      sm4_shader_free (sh);
    }
  if (sl_diagnostics_error_count (d))
    {
      char *s = sl_diagnostics_format (d);
      CHECK (0, "%s: %s", name, s);
      g_free (s);
    }
  sl_diagnostics_free (d);
out:
  if (pa)
    sl_program_unref (pa);
  if (ph)
    sl_program_unref (ph);
}

/* Compiling must fail with a diagnostic containing every @needles. */
static SlLanguage fail_lang = SL_LANGUAGE_AUTO;

static void
fails_with (const char *name, const char *src, size_t len, const char *n1, const char *n2)
{
  SlDiagnostics *d = sl_diagnostics_new ();
  SlProgram *p = compile (src, len, fail_lang, NULL, d);
  char *s = sl_diagnostics_format (d);
  CHECK (p == NULL, "%s: compiled", name);
  CHECK (strstr (s, n1) && (!n2 || strstr (s, n2)), "%s: expected '%s'%s%s, got:\n%s", name, n1,
         n2 ? " and " : "", n2 ? n2 : "", s);
  if (p)
    sl_program_unref (p);
  g_free (s);
  sl_diagnostics_free (d);
}

#define HDR_TEX \
  "// Resource Bindings:\n//\n" \
  "// Name                                 Type  Format         Dim      HLSL Bind  Count\n" \
  "// ------------------------------ ---------- ------- ----------- -------------- ------\n" \
  "// samp                              sampler      NA          NA             s0      1\n" \
  "// tex                               texture  float4          2d             t0      1\n" \
  "//\n// Input signature:\n//\n" \
  "// Name                 Index   Mask Register SysValue  Format   Used\n" \
  "// -------------------- ----- ------ -------- -------- ------- ------\n" \
  "// SV_POSITION              0   xyzw        0      POS   float       \n" \
  "// TEXCOORD                 0   xy          1     NONE   float   xy  \n" \
  "//\n"

#define HLSL_TEX \
  "Texture2D tex : register(t0);\nSamplerState samp : register(s0);\n"

int
main (void)
{
  make_input ();
  float px[W * H * 4];

  /* 1. Pixel values of an fxc listing with a named cbuffer and a default. */
  {
    const char *src =
      "//\n// Generated by Microsoft (R) HLSL Shader Compiler 10.1\n//\n"
      "// Buffer Definitions: \n//\n// cbuffer $Globals\n// {\n//\n"
      "//   float4 tint;                       // Offset:    0 Size:    16\n"
      "//   float amount;                      // Offset:   16 Size:     4\n"
      "//      = 0x3f000000 \n//\n// }\n//\n"
      "// Resource Bindings:\n//\n"
      "// Name                                 Type  Format         Dim      HLSL Bind  Count\n"
      "// ------------------------------ ---------- ------- ----------- -------------- ------\n"
      "// $Globals                          cbuffer      NA          NA            cb0      1 \n"
      "//\n// Input signature:\n//\n"
      "// Name                 Index   Mask Register SysValue  Format   Used\n"
      "// -------------------- ----- ------ -------- -------- ------- ------\n"
      "// SV_POSITION              0   xyzw        0      POS   float       \n"
      "// TEXCOORD                 0   xy          1     NONE   float   xy  \n//\n"
      "ps_4_0\n"
      "dcl_constantbuffer cb0[2], immediateIndexed\n"
      "dcl_input_ps linear v1.xy\n"
      "dcl_output o0.xyzw\n"
      "dcl_temps 1\n"
      "mul r0.xy, v1.xyxx, cb0[1].xxxx\n"
      "add o0.xy, r0.xyxx, cb0[0].xyxx\n"
      "mov o0.zw, l(0,0,0,1.000000)\n"
      "ret \n";
    SlProgram *p = must_compile ("cbuffer", src, (size_t) -1, SL_LANGUAGE_AUTO, NULL);
    if (p)
      {
        CHECK (sl_program_get_shader_model (p) == 40, "shader model %d", sl_program_get_shader_model (p));
        const SlParam *amount = sl_program_find_param (p, "amount");
        const SlParam *tint = sl_program_find_param (p, "tint");
        CHECK (amount && amount->offset == 4 && amount->default_value && amount->default_value[0] == 0.5f,
               "amount reflection");
        CHECK (tint && tint->columns == 4 && tint->offset == 0, "tint reflection");
        CHECK (render (p, NULL, px), "render");
        /* pixel (3,1): uv = (0.4375, 0.375), amount 0.5 */
        float *q = px + 4 * (1 * W + 3);
        CHECK (q[0] == 0.21875f && q[1] == 0.1875f && q[2] == 0.0f && q[3] == 1.0f,
               "cbuffer pixel %g %g %g %g", q[0], q[1], q[2], q[3]);
        CHECK (render (p, "amount=2; tint=1,0.5,0,0", px), "render params");
        q = px + 4 * (1 * W + 3);
        CHECK (q[0] == 1.875f && q[1] == 1.25f, "cbuffer params pixel %g %g", q[0], q[1]);
        sl_program_unref (p);
      }
  }

  /* 2. Equivalence with HLSL. */
  equivalent ("sample+dp3_sat+modifiers",
    HDR_TEX
    "ps_4_0\n"
    "dcl_sampler s0, mode_default\n"
    "dcl_resource_texture2d (float,float,float,float) t0\n"
    "dcl_input_ps linear v1.xy\n"
    "dcl_output o0.xyzw\n"
    "dcl_temps 2\n"
    "sample r0.xyzw, v1.xyxx, t0.xyzw, s0\n"
    "dp3_sat r1.x, r0.xyzx, l(0.299000, 0.587000, 0.114000, 0.000000)\n"
    "add r1.y, -r0.w, l(0.250000)\n"
    "mul o0.xyz, r1.xxxx, |r1.yyyy|\n"
    "mov o0.w, r0.w\n"
    "ret\n",
    HLSL_TEX
    "float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {\n"
    "  float4 c = tex.Sample(samp, uv);\n"
    "  float g = saturate(dot(c.xyz, float3(0.299, 0.587, 0.114)));\n"
    "  float k = abs(0.25 - c.w);\n"
    "  return float4(g * k, g * k, g * k, c.w);\n}\n", NULL);

  equivalent ("loop+breakc+integers",
    "ps_4_0\n"
    "dcl_input_ps_siv linear noperspective v0.xy, position\n"
    "dcl_input_ps linear v1.xy\n"
    "dcl_output o0.xyzw\n"
    "dcl_temps 3\n"
    "ftoi r0.x, v0.x\n"
    "mov r1.xy, l(0,0,0,0)\n"
    "loop\n"
    "  ige r0.z, r1.y, r0.x\n"
    "  breakc_nz r0.z\n"
    "  iadd r1.x, r1.x, r1.y\n"
    "  iadd r1.y, r1.y, l(1)\n"
    "endloop\n"
    "itof r2.x, r1.x\n"
    "ishl r0.w, r0.x, l(2)\n"
    "and r0.w, r0.w, l(12)\n"
    "utof r2.y, r0.w\n"
    "mul o0.xy, r2.xyxx, l(0.100000, 0.010000, 0, 0)\n"
    "round_ni o0.z, v1.y\n"
    "frc o0.w, v0.y\n"
    "ret\n",
    "float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {\n"
    "  int n = (int)pos.x; int s = 0;\n"
    "  for (int i = 0; ; i++) { if (i >= n) break; s += i; }\n"
    "  uint m = (uint)((n << 2) & 12);\n"
    "  return float4((float)s * 0.1, (float)m * 0.01, floor(uv.y), frac(pos.y));\n}\n", NULL);

  equivalent ("if+discard+movc+sincos",
    "ps_4_0\n"
    "dcl_input_ps linear v0.xy\n"
    "dcl_output o0.xyzw\n"
    "dcl_temps 2\n"
    "lt r0.x, v0.x, l(0.200000)\n"
    "discard_nz r0.x\n"
    "ge r0.y, v0.y, l(0.500000)\n"
    "if_nz r0.y\n"
    "  sincos r1.x, r1.y, v0.x\n"
    "else\n"
    "  mov r1.xy, l(0.250000, 0.750000, 0, 0)\n"
    "endif\n"
    "lt r0.z, v0.x, v0.y\n"
    "movc r1.z, r0.z, l(1.000000), l(2.000000)\n"
    "mov o0.xyz, r1.xyzx\n"
    "mov o0.w, l(1.000000)\n"
    "ret\n",
    "float4 main(float2 uv : TEXCOORD0) : SV_Target {\n"
    "  if (uv.x < 0.2) discard;\n"
    "  float2 r;\n"
    "  if (uv.y >= 0.5) { r = float2(sin(uv.x), cos(uv.x)); } else { r = float2(0.25, 0.75); }\n"
    "  return float4(r, uv.x < uv.y ? 1.0 : 2.0, 1);\n}\n", NULL);

  equivalent ("icb+indexable+dynamic cb",
    "// Buffer Definitions: \n//\n// cbuffer $Globals\n// {\n//\n"
    "//   float4 weights[3];                 // Offset:    0 Size:    48\n"
    "//\n// }\n//\n"
    "// Resource Bindings:\n//\n"
    "// Name                                 Type  Format         Dim      HLSL Bind  Count\n"
    "// ------------------------------ ---------- ------- ----------- -------------- ------\n"
    "// $Globals                          cbuffer      NA          NA            cb0      1 \n//\n"
    "ps_4_0\n"
    "dcl_immediateConstantBuffer { { 0.500000, 0, 0, 0},\n"
    "                              { 0.250000, 0, 0, 0},\n"
    "                              { 0.125000, 0, 0, 0} }\n"
    "dcl_constantbuffer cb0[3], dynamicIndexed\n"
    "dcl_input_ps_siv linear noperspective v0.xy, position\n"
    "dcl_output o0.xyzw\n"
    "dcl_temps 1\n"
    "dcl_indexableTemp x0[3], 4\n"
    "mov x0[0].x, l(1.000000)\n"
    "mov x0[1].x, l(2.000000)\n"
    "mov x0[2].x, l(3.000000)\n"
    "ftou r0.x, v0.x\n"
    "udiv null, r0.x, r0.x, l(3)\n"
    "mov r0.y, x0[r0.x + 0].x\n"
    "mul r0.y, r0.y, icb[r0.x + 0].x\n"
    "mov o0.xyz, cb0[r0.x + 0].xyzx\n"
    "mov o0.w, r0.y\n"
    "ret\n",
    "static const float k[3] = { 0.5, 0.25, 0.125 };\n"
    "float4 weights[3];\n"
    "float4 main(float4 pos : SV_Position) : SV_Target {\n"
    "  float a[3] = { 1, 2, 3 };\n"
    "  uint i = (uint)pos.x % 3;\n"
    "  return float4(weights[i].xyz, a[i] * k[i]);\n}\n",
    "weights=1,2,3,4,5,6,7,8,9,10,11,12");

  equivalent ("sample_l+ld+resinfo+offset (ps_5_0)",
    HDR_TEX
    "ps_5_0\n"
    "dcl_globalFlags refactoringAllowed\n"
    "dcl_sampler s0, mode_default\n"
    "dcl_resource_texture2d (float,float,float,float) t0\n"
    "dcl_input_ps_siv linear noperspective v0.xy, position\n"
    "dcl_input_ps linear v1.xy\n"
    "dcl_output o0.xyzw\n"
    "dcl_temps 3\n"
    "resinfo_indexable(texture2d)(float,float,float,float)_uint r0.xy, l(0), t0.xyzw\n"
    "ftoi r1.xy, v0.xyxx\n"
    "iadd r1.x, r0.x, -r1.x\n"
    "iadd r1.x, r1.x, l(-1)\n"
    "mov r1.zw, l(0,0,0,0)\n"
    "ld_indexable(texture2d)(float,float,float,float) r2.xyzw, r1.xyzw, t0.xyzw\n"
    "sample_l_aoffimmi(1,0,0) r1.xyzw, v1.xyxx, t0.xyzw, s0, l(0.000000)\n"
    "add o0.xyzw, r1.xyzw, r2.wzyx\n"
    "ret\n",
    HLSL_TEX
    "float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {\n"
    "  uint w, h; tex.GetDimensions(w, h);\n"
    "  int2 p = int2(pos.xy);\n"
    "  float4 a = tex.Load(int3((int)w - p.x - 1, p.y, 0));\n"
    "  float4 b = tex.SampleLevel(samp, uv, 0, int2(1, 0));\n"
    "  return b + a.wzyx;\n}\n", NULL);

  equivalent ("sample_c on a comparison sampler",
    HDR_TEX
    "ps_4_0\n"
    "dcl_sampler s0, mode_comparison\n"
    "dcl_resource_texture2d (float,float,float,float) t0\n"
    "dcl_input_ps linear v1.xy\n"
    "dcl_output o0.xyzw\n"
    "dcl_temps 1\n"
    "sample_c_lz r0.x, v1.xyxx, t0.xxxx, s0, l(0.500000)\n"
    "mov o0.xyzw, r0.xxxx\n"
    "ret\n",
    "Texture2D tex : register(t0);\nSamplerComparisonState samp : register(s0);\n"
    "float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {\n"
    "  return tex.SampleCmpLevelZero(samp, uv, 0.5).xxxx;\n}\n", NULL);

  /* The other input declarations: the reference's dcl_input_sv with the
   * mode last as one word, fxc's non-pixel-shader dcl_input_siv and
   * dcl_input, and a disassembler's dcl_input_sv with the mode first and
   * no system-value name (position, the only one interpolated without
   * perspective). */
  {
    const char *decls[][2] = {
      { "dcl_input_sv v0.xy, position, linearNoperspective", "dcl_input v1.xy, linear" },
      { "dcl_input_siv linear noperspective v0.xy, position", "dcl_input linear v1.xy" },
      { "dcl_input_sv linear noperspective v0.xy", "dcl_input_ps linear v1.xy" },
    };
    for (size_t i = 0; i < G_N_ELEMENTS (decls); i++)
      {
        char *src = g_strdup_printf (
          HDR_TEX
          "ps_4_0\n"
          "dcl_sampler s0, mode_default\n"
          "dcl_resource_texture2d (float,float,float,float) t0\n"
          "%s\n%s\n"
          "dcl_output o0.xyzw\n"
          "dcl_temps 2\n"
          "ftoi r0.xy, v0.xyxx\n"
          "mov r0.zw, l(0,0,0,0)\n"
          "ld r0.xyzw, r0.xyzw, t0.xyzw\n"
          "sample r1.xyzw, v1.xyxx, t0.xyzw, s0\n"
          "add o0.xyzw, r0.wzyx, r1.xyzw\n"
          "ret\n", decls[i][0], decls[i][1]);
        char *name = g_strdup_printf ("input declarations %s / %s", decls[i][0], decls[i][1]);
        equivalent (name, src,
          HLSL_TEX
          "float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {\n"
          "  return tex.Load(int3(pos.xy, 0)).wzyx + tex.Sample(samp, uv);\n}\n", NULL);
        g_free (name);
        g_free (src);
      }
  }

  /* 3. Sampler modes: an instruction the mode does not serve names both. */
  {
    const char *base =
      "ps_4_0\n"
      "dcl_sampler s0, %s\n"
      "dcl_resource_texture2d (float,float,float,float) t0\n"
      "dcl_input_ps linear v0.xy\n"
      "dcl_output o0.xyzw\n"
      "%s\n"
      "ret\n";
    struct { const char *mode, *insn, *n1, *n2; } cases[] = {
      { "mode_default", "sample_c o0.xyzw, v0.xyxx, t0.xyzw, s0, l(0.5)", "sample_c cannot use sampler s0", "mode_default" },
      { "default", "sample_c_lz o0.xyzw, v0.xyxx, t0.xyzw, s0, l(0.5)", "sample_c_lz cannot use sampler s0", "mode_default" },
      { "mode_comparison", "sample o0.xyzw, v0.xyxx, t0.xyzw, s0", "sample cannot use sampler s0", "mode_comparison" },
      { "comparison", "sample_l o0.xyzw, v0.xyxx, t0.xyzw, s0, l(0)", "sample_l cannot use sampler s0", "mode_comparison" },
      { "mode_mono", "sample o0.xyzw, v0.xyxx, t0.xyzw, s0", "sample cannot use sampler s0", "mode_mono" },
      { "mono", "sample_b o0.xyzw, v0.xyxx, t0.xyzw, s0, l(0)", "sample_b cannot use sampler s0", "mode_mono" },
      { "mode_mono", "sample_c o0.xyzw, v0.xyxx, t0.xyzw, s0, l(0)", "sample_c cannot use sampler s0", "mode_mono" },
    };
    for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        char *src = g_strdup_printf (base, cases[i].mode, cases[i].insn);
        fails_with (cases[i].insn, src, (size_t) -1, cases[i].n1, cases[i].n2);
        g_free (src);
      }
    /* and what each mode serves compiles */
    const char *ok[][2] = {
      { "mode_default", "sample_d o0.xyzw, v0.xyxx, t0.xyzw, s0, l(0.1,0,0,0), l(0,0.1,0,0)" },
      { "mode_default", "sample_b o0.xyzw, v0.xyxx, t0.xyzw, s0, l(0.5)" },
      { "mode_mono", "sample_l o0.xyzw, v0.xyxx, t0.xyzw, s0, l(0)" },
      { "mode_comparison", "sample_c o0.xyzw, v0.xyxx, t0.xyzw, s0, l(0.5)" },
    };
    for (size_t i = 0; i < G_N_ELEMENTS (ok); i++)
      {
        char *src = g_strdup_printf (base, ok[i][0], ok[i][1]);
        SlProgram *p = must_compile (ok[i][1], src, (size_t) -1, SL_LANGUAGE_AUTO, NULL);
        if (p)
          sl_program_unref (p);
        g_free (src);
      }
  }

  /* 4. Other errors, with positions. */
  fails_with ("undeclared temp", "ps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, r3.xyzw\nret\n", (size_t) -1,
              "t:3:14: error: r3 is not declared", NULL);
  fails_with ("unknown instruction", "ps_4_0\ndcl_output o0.xyzw\n  frobnicate o0.xyzw\n", (size_t) -1,
              "t:3:3: error: unknown instruction 'frobnicate'", NULL);
  fail_lang = SL_LANGUAGE_SM4_ASM;
  fails_with ("vertex shader", "vs_4_0\nret\n", (size_t) -1, "t:1:1: error: only pixel shaders are supported, not vs_4_0", NULL);
  fail_lang = SL_LANGUAGE_AUTO;
  fails_with ("missing test", "ps_4_0\ndcl_temps 1\nif r0.x\nendif\n", (size_t) -1, "if needs _z or _nz", NULL);
  fails_with ("unclosed loop", "ps_4_0\nloop\n", (size_t) -1, "loop is not closed", NULL);
  fails_with ("break outside", "ps_4_0\nbreak\n", (size_t) -1, "break outside a loop", NULL);
  fails_with ("bad mode", "ps_4_0\ndcl_sampler s0, mode_fancy\n", (size_t) -1, "unknown sampler mode 'fancy'", NULL);
  fails_with ("bad sat", "ps_4_0\ndcl_temps 1\niadd_sat r0.x, r0.x, r0.x\n", (size_t) -1,
              "'iadd' does not take the suffix '_sat'", NULL);

  /* 5. Broken containers fail cleanly. */
  {
    const char *src = "ps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(1.0, 0.5, 0.25, 1.0)\nret\n";
    SlDiagnostics *d = sl_diagnostics_new ();
    Sm4Shader *sh = sm4_assemble (src, strlen (src), "t", d);
    size_t n;
    uint8_t *bin = sm4_dxbc_write (sh, &n);
    SlProgram *p = must_compile ("container", (const char *) bin, n, SL_LANGUAGE_AUTO, NULL);
    if (p)
      {
        CHECK (render (p, NULL, px) && px[0] == 1.0f && px[1] == 0.5f && px[2] == 0.25f, "container pixel");
        sl_program_unref (p);
      }
    for (size_t cut = 0; cut < n; cut += 7)
      {
        SlDiagnostics *dd = sl_diagnostics_new ();
        SlProgram *q = compile ((const char *) bin, cut, SL_LANGUAGE_DXBC, NULL, dd);
        CHECK (q == NULL && sl_diagnostics_error_count (dd) > 0, "truncated container at %zu accepted", cut);
        if (q)
          sl_program_unref (q);
        sl_diagnostics_free (dd);
      }
    /* an unknown opcode is named */
    uint8_t *bad = g_memdup2 (bin, n);
    uint32_t shdr;
    memcpy (&shdr, bad + 32 + 12, 4);          /* offset of the 4th chunk */
    size_t first_insn = shdr + 8 + 8;
    bad[first_insn] = 0x7f;                    /* opcode 127 with the same length */
    bad[first_insn + 1] &= ~7;
    fails_with ("bad opcode", (const char *) bad, n, "unsupported opcode", NULL);
    g_free (bad);
    g_free (bin);
    sm4_shader_free (sh);
    sl_diagnostics_free (d);
  }

  if (failures)
    fprintf (stderr, "%d failure(s)\n", failures);
  else
    printf ("ok\n");
  return failures ? 1 : 0;
}
