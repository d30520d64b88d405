/* Tests of the HLSL front end through the public API (shaderlib.h).
 *
 * Diagnostics are compared as the exact formatted text, so wording,
 * positions and the absence of follow-on errors are all checked; pixel
 * results come from rendering one pixel through a binding.  The
 * conformance corpus covers most language rules; these cases pin down what
 * it does not: message text, several errors in one compile, warnings,
 * entry-point selection and reflection of annotations and sampler state. */
#include "shaderlib.h"

#include <glib.h>
#include <math.h>
#include <string.h>

typedef struct
{
  SlProgram *program;
  char      *diags;
} Compiled;

static Compiled
compile_with (const char *src, const char *entry, const char *profile)
{
  SlCompileOptions o = { 0 };
  o.source = src;
  o.length = (size_t) -1;
  o.filename = "t.hlsl";
  o.language = SL_LANGUAGE_HLSL;
  o.entry_point = entry;
  o.profile = profile;
  SlDiagnostics *d = sl_diagnostics_new ();
  Compiled c;
  c.program = sl_compile (&o, d);
  c.diags = sl_diagnostics_format (d);
  sl_diagnostics_free (d);
  return c;
}

static Compiled
compile (const char *src)
{
  return compile_with (src, NULL, "ps_3_0");
}

static void
compiled_clear (Compiled *c)
{
  if (c->program)
    sl_program_unref (c->program);
  g_free (c->diags);
}

/* Compiles @src, expects failure and exactly @expected as diagnostics. */
static void
expect_errors (const char *src, const char *expected)
{
  Compiled c = compile (src);
  g_assert_null (c.program);
  g_assert_cmpstr (c.diags, ==, expected);
  compiled_clear (&c);
}

/* Renders pixel (0,0) of a 1x1 viewport. */
static void
render_pixel (SlProgram *p, float out[4])
{
  SlBinding *b = sl_binding_new (p);
  sl_binding_set_viewport (b, 1, 1);
  SlDiagnostics *d = sl_diagnostics_new ();
  g_assert_true (sl_binding_prepare (b, d));
  SlScratch *s = sl_scratch_new ();
  SlTarget t = { .pixels = out, .row_stride = 4 };
  g_assert_true (sl_binding_render (b, s, 0, 0, 1, 1, NULL, &t, 1, d));
  sl_scratch_free (s);
  sl_diagnostics_free (d);
  sl_binding_free (b);
}

static void
test_error_positions (void)
{
  expect_errors ("float4 main() : COLOR\n"
                 "{\n"
                 "    float3 c = float3(1, 2);\n"
                 "    float k = undefined_thing + 1;\n"
                 "    float2 t = 0;\n"
                 "    t.xx = 1;\n"
                 "    return float4(c, k);\n"
                 "}\n",
                 "t.hlsl:3:16: error: 'float3' constructor needs 3 components, got 2\n"
                 "t.hlsl:4:15: error: undeclared identifier 'undefined_thing'\n"
                 "t.hlsl:6:7: error: swizzle used as a write mask repeats a component\n");
}

static void
test_const_and_warning (void)
{
  /* The truncation warning is kept next to the error. */
  expect_errors ("float4 main(float2 uv : TEXCOORD0) : COLOR\n"
                 "{\n"
                 "    float2 t = float3(uv, 1);\n"
                 "    const float z = 2;\n"
                 "    z = 3;\n"
                 "    return t.xyxy;\n"
                 "}\n",
                 "t.hlsl:3:16: warning: implicit truncation of vector type\n"
                 "t.hlsl:5:5: error: cannot assign to const variable 'z'\n");
}

static void
test_missing_semicolon (void)
{
  expect_errors ("float4 main() : COLOR\n{\n    return 1\n}\n",
                 "t.hlsl:4:1: error: expected ';' before '}'\n");
}

static void
test_recursion (void)
{
  expect_errors ("float f(float x) { return f(x); }\n"
                 "float4 main() : COLOR { return f(1); }\n",
                 "t.hlsl:1:27: error: recursive call to 'f': recursion is not allowed in shaders\n");
}

static void
test_rejections (void)
{
  expect_errors ("column_major float4 v;\nfloat4 main() : COLOR { return v; }\n",
                 "t.hlsl:1:1: error: column_major applies only to matrix types, not 'float4'\n");
  expect_errors ("float4 main() : COLOR\n{\n    float4 technique = 0;\n    return technique;\n}\n",
                 "t.hlsl:3:12: error: 'technique' is a reserved word\n");
  expect_errors ("uint4 v;\n"
                 "float4 main() : COLOR\n"
                 "{\n"
                 "    switch (v.x)\n"
                 "    {\n"
                 "    case 0: return 1;\n"
                 "    case 0: return 2;\n"
                 "    }\n"
                 "    return 0;\n"
                 "}\n",
                 "t.hlsl:7:5: error: duplicate case value 0\n");
  expect_errors ("float4 main() : COLOR\n"
                 "{\n"
                 "    [loop] [unroll(2)] for (int i = 0; i < 4; i++) {}\n"
                 "    return 0;\n"
                 "}\n",
                 "t.hlsl:3:13: error: [unroll] conflicts with [loop]\n");
  expect_errors ("float a : register(c0);\nfloat b : register(c0);\n"
                 "float4 main() : COLOR { return a + b; }\n",
                 "t.hlsl:2:7: error: 'a' and 'b' are both bound to c0\n");
  expect_errors ("float4 main() : COLOR\n"
                 "{\n"
                 "    float2x2 m = {1, 2, 3, 4};\n"
                 "    float3 v = (float3) m;\n"
                 "    return v.xyzz;\n"
                 "}\n",
                 "t.hlsl:4:16: error: cannot convert from 'float2x2' to 'float3' in cast\n");
}

static void
test_overloads (void)
{
  Compiled c = compile ("float f(float3 a, float3 b) { return 1; }\n"
                        "float f(float a, float b) { return 2; }\n"
                        "float4 main() : COLOR { float x = 1; float3 y = 2; return f(x, y); }\n");
  g_assert_nonnull (c.program);
  float px[4];
  render_pixel (c.program, px);
  /* Narrowing float3 to float is worse than widening three scalars. */
  g_assert_cmpfloat (px[0], ==, 1.0f);
  compiled_clear (&c);

  expect_errors ("void g(float a) {}\nvoid g(float1 a) {}\n"
                 "float4 main() : COLOR { g(1.0); return 0; }\n",
                 "t.hlsl:3:25: error: ambiguous call to overloaded function 'g'\n");
}

static void
test_entry_point (void)
{
  const char *src = "float4 red() : COLOR { return float4(1, 0, 0, 1); }\n"
                    "float4 main_fragment(float2 uv : TEXCOORD0) : COLOR { return float4(0, uv.x * 0 + 0.5, 0, 1); }\n";
  Compiled c = compile_with (src, "main_fragment", "ps_2_0");
  g_assert_nonnull (c.program);
  float px[4];
  render_pixel (c.program, px);
  g_assert_cmpfloat (px[0], ==, 0.0f);
  g_assert_cmpfloat (px[1], ==, 0.5f);
  compiled_clear (&c);

  c = compile_with (src, "red", "ps_2_0");
  g_assert_nonnull (c.program);
  render_pixel (c.program, px);
  g_assert_cmpfloat (px[0], ==, 1.0f);
  compiled_clear (&c);
}

static void
test_bool_register (void)
{
  /* A D3D9 bool register is fine for a flag used in flow control, but an
   * int outside 'c' registers is not. */
  Compiled c = compile ("bool Flag : register(b0);\n"
                        "float4 main() : COLOR { if (Flag) return 1; return 0.5; }\n");
  g_assert_nonnull (c.program);
  float px[4];
  render_pixel (c.program, px);
  g_assert_cmpfloat (px[0], ==, 0.5f);
  compiled_clear (&c);
  expect_errors ("int k : register(i0);\nfloat4 main() : COLOR { return k; }\n",
                 "t.hlsl:1:5: error: 'k' needs a 'c' register reservation\n");
}

static void
test_reflection (void)
{
  Compiled c = compile ("uniform float Amount < string UIName = \"Amount\"; float UIMin = 0; float UIMax = 2; > = 1.5;\n"
                        "texture Tex;\n"
                        "sampler2D Samp = sampler_state { Texture = <Tex>; MinFilter = POINT; MagFilter = POINT;\n"
                        "                                 AddressU = WRAP; AddressV = MIRROR; };\n"
                        "float4 main(float2 uv : TEXCOORD0) : COLOR { return tex2D(Samp, uv) * Amount; }\n");
  g_assert_nonnull (c.program);
  g_assert_cmpstr (c.diags, ==, "");
  const SlParam *amount = sl_program_find_param (c.program, "Amount");
  g_assert_nonnull (amount);
  g_assert_cmpint (amount->n_annotations, ==, 3);
  g_assert_cmpstr (amount->annotations[0].name, ==, "UIName");
  g_assert_cmpstr (amount->annotations[0].string_value, ==, "Amount");
  g_assert_cmpstr (amount->annotations[2].name, ==, "UIMax");
  g_assert_cmpfloat (amount->annotations[2].values[0], ==, 2.0);
  g_assert_cmpint (sl_program_get_n_samplers (c.program), ==, 1);
  const SlSamplerInfo *si = sl_program_get_sampler (c.program, 0);
  g_assert_cmpstr (si->name, ==, "Samp");
  g_assert_nonnull (si->declared_state);
  g_assert_cmpint (si->declared_state->min_filter, ==, SL_FILTER_POINT);
  g_assert_cmpint (si->declared_state->mag_filter, ==, SL_FILTER_POINT);
  g_assert_cmpint (si->declared_state->address_u, ==, SL_ADDRESS_WRAP);
  g_assert_cmpint (si->declared_state->address_v, ==, SL_ADDRESS_MIRROR);
  compiled_clear (&c);
}

/* Sampler state names and words are those of the effect layer: ReShade's
 * REPEAT, D3D9's other filters (linear here), MaxMipLevel as the most
 * detailed level used, and D3D10 filter names in any case. */
static void
test_sampler_state_words (void)
{
  Compiled c = compile ("sampler2D A = sampler_state { AddressU = REPEAT; AddressV = mirror_once;\n"
                        "  MinFilter = GaussianQuad; MagFilter = PyramidalQuad; MipFilter = Point;\n"
                        "  MaxMipLevel = 2; MipMapLodBias = -1.5; };\n"
                        "sampler2D B = sampler_state { Filter = min_linear_mag_mip_point; };\n"
                        "float4 main(float2 uv : TEXCOORD0) : COLOR { return tex2D(A, uv) + tex2D(B, uv); }\n");
  g_assert_nonnull (c.program);
  g_assert_cmpstr (c.diags, ==, "");
  const SlSamplerState *a = NULL, *b = NULL;
  for (int i = 0; i < sl_program_get_n_samplers (c.program); i++)
    {
      const SlSamplerInfo *si = sl_program_get_sampler (c.program, i);
      if (!strcmp (si->name, "A"))
        a = si->declared_state;
      else if (!strcmp (si->name, "B"))
        b = si->declared_state;
    }
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_cmpint (a->address_u, ==, SL_ADDRESS_WRAP);
  g_assert_cmpint (a->address_v, ==, SL_ADDRESS_MIRROR_ONCE);
  g_assert_cmpint (a->min_filter, ==, SL_FILTER_LINEAR);
  g_assert_cmpint (a->mag_filter, ==, SL_FILTER_LINEAR);
  g_assert_cmpint (a->mip_filter, ==, SL_FILTER_POINT);
  g_assert_cmpfloat (a->min_lod, ==, 2.0);
  g_assert_cmpfloat (a->lod_bias, ==, -1.5);
  g_assert_cmpint (b->min_filter, ==, SL_FILTER_LINEAR);
  g_assert_cmpint (b->mag_filter, ==, SL_FILTER_POINT);
  g_assert_cmpint (b->mip_filter, ==, SL_FILTER_POINT);
  compiled_clear (&c);
}

/* Renders @src (profile @profile, no parameters) at pixel (0,0). */
static void
render_source (const char *src, const char *profile, float out[4])
{
  Compiled c = compile_with (src, NULL, profile);
  g_assert_cmpstr (c.diags, ==, "");
  g_assert_nonnull (c.program);
  render_pixel (c.program, out);
  compiled_clear (&c);
}

static void
test_d3d9_integers (void)
{
  /* A value the shader computes at run time (TEXCOORD0 is 0.5 on a 1x1
   * viewport), so nothing folds: 16777217 is 16777216 as a float, and the
   * quotient and remainder go through float division at SM 2/3 only. */
  const char *src =
    "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
    "{\n"
    "    int a = 16777217;\n"
    "    int b = uv.x * 20;\n"
    "    int c = 16782201;\n"
    "    int d = uv.x * 1998;\n"
    "    return float4(a % b, (-a) % b, c / d, -(c / d));\n"
    "}\n";
  float px[4];
  render_source (src, "ps_3_0", px);
  g_assert_cmpfloat (px[0], ==, 6.0f);
  g_assert_cmpfloat (px[1], ==, -6.0f);
  g_assert_cmpfloat (px[2], ==, 16798.0f);
  g_assert_cmpfloat (px[3], ==, -16798.0f);
  render_source (src, "ps_4_0", px);
  g_assert_cmpfloat (px[0], ==, 7.0f);
  g_assert_cmpfloat (px[1], ==, -7.0f);
  g_assert_cmpfloat (px[2], ==, 16799.0f);
  g_assert_cmpfloat (px[3], ==, -16799.0f);

  /* Constant operands fold as exact integers even at SM 2/3. */
  render_source ("float4 main() : COLOR\n"
                 "{\n"
                 "    int a = 16777217;\n"
                 "    int b = 10;\n"
                 "    int m = -2147483648;\n"
                 "    return float4(a % b, a / b, m / -1, -m);\n"
                 "}\n", "ps_2_0", px);
  g_assert_cmpfloat (px[0], ==, 7.0f);
  g_assert_cmpfloat (px[1], ==, 1677721.0f);
  g_assert_cmpfloat (px[2], ==, 2147483648.0f);
  g_assert_cmpfloat (px[3], ==, 2147483648.0f);

  /* A divisor known to be zero is an error below SM 4, for floats too;
   * one assigned in a branch is not known. */
  expect_errors ("float4 main() : COLOR\n{\n    int x = 1, y = 0;\n    return x % y;\n}\n",
                 "t.hlsl:4:14: error: division by zero\n");
  expect_errors ("float4 main() : COLOR\n{\n    float y = 0;\n    return 1 / y;\n}\n",
                 "t.hlsl:4:14: error: division by zero\n");
  render_source ("float4 main(float2 uv : TEXCOORD0) : COLOR\n"
                 "{\n"
                 "    float y = 0;\n"
                 "    if (uv.x > 0.25) y = 4;\n"
                 "    return 1 / y;\n"
                 "}\n", "ps_3_0", px);
  g_assert_cmpfloat (px[0], ==, 0.25f);
  render_source ("float4 main() : SV_Target\n{\n    float y = 0;\n    return 1 / y;\n}\n",
                 "ps_4_0", px);
  g_assert_true (isinf (px[0]));
}

/* asin, acos, atan2 and float % follow fxc's expansions (Direct3D has no
 * instruction for them), at every profile: values computed at run time
 * from TEXCOORD0 = 0.5 on a 1x1 viewport so nothing folds. */
static void
test_fxc_expansions (void)
{
  const char *src =
    "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
    "{\n"
    "    float h = uv.x;\n"
    "    return float4(asin(h), acos(h - 0.5), atan2(-(h - 0.5), -1), (h * 10) % 3);\n"
    "}\n";
  static const char *const profiles[] = { "ps_2_0", "ps_3_0", "ps_4_0" };
  for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
    {
      float px[4];
      render_source (src, profiles[i], px);
      /* pi/2 - (cubic(0.5) * sqrt(0.5)): 0.523645043, where asin(0.5) is
       * 0.523598776; acos(0) is the cubic's constant term. */
      g_assert_cmpfloat (px[0], ==, 0x1.0c1b34p-1f);
      g_assert_cmpfloat (px[1], ==, 1.5707288f);
      /* -0 counts as +0. */
      g_assert_cmpfloat (px[2], ==, 3.14159274f);
      /* frac(5 / 3) * 3, one ulp below 2 (fmodf would give 2 exactly). */
      g_assert_cmpfloat (px[3], ==, 0x1.fffffep+0f);
    }
}

/* Renders pixel (0,0) with texture slot k holding the flat colour k, so
 * the result spells out which slot each sample read. */
static void
render_with_slot_textures (SlProgram *p, float out[4])
{
  static float texels[SL_MAX_SLOTS][4];
  SlTexture tex[SL_MAX_SLOTS];
  SlBinding *b = sl_binding_new (p);
  sl_binding_set_viewport (b, 1, 1);
  for (int k = 0; k < SL_MAX_SLOTS; k++)
    {
      texels[k][0] = texels[k][1] = texels[k][2] = (float) k;
      texels[k][3] = 1.0f;
      sl_texture_init_2d (&tex[k], 1, 1, 4, texels[k]);
      sl_binding_set_texture (b, k, &tex[k]);
    }
  SlDiagnostics *d = sl_diagnostics_new ();
  g_assert_true (sl_binding_prepare (b, d));
  SlScratch *s = sl_scratch_new ();
  SlTarget t = { .pixels = out, .row_stride = 4 };
  g_assert_true (sl_binding_render (b, s, 0, 0, 1, 1, NULL, &t, 1, d));
  sl_scratch_free (s);
  sl_diagnostics_free (d);
  sl_binding_free (b);
}

/* Below SM 4 a Texture2D sampled through a sampler is one combined D3D9
 * sampler; registers go to the largest blocks first, combinations before
 * plain samplers, then declaration order (what the native compiler does). */
static void
test_sm1_combined_samplers (void)
{
  static const struct { const char *src; float expect; } cases[] = {
    { "Texture2D tex; sampler sam;\n"
      "float4 main() : COLOR { return 10 * tex.Sample(sam, float2(0, 0)) + tex2D(sam, float2(0, 0)); }",
      1 },   /* tex+sam = s0, sam = s1 */
    { "Texture2D tex; sampler sam[2];\n"
      "float4 main() : COLOR { return 10 * tex.Sample(sam[0], float2(0, 0)) + tex2D(sam[1], float2(0, 0)); }",
      21 },  /* sam = s0..s1, tex+sam[0] = s2 */
    { "sampler samA; sampler samB; sampler samC; Texture2D tex;\n"
      "float4 main() : COLOR { return 100000 * tex2D(samB, float2(0, 0)) + 10000 * tex2D(samC, float2(0, 0))\n"
      "  + 1000 * tex2D(samA, float2(0, 0)) + 100 * tex.Sample(samA, float2(0, 0))\n"
      "  + 10 * tex.Sample(samC, float2(0, 0)) + tex.Sample(samB, float2(0, 0)); }",
      453021 },
    { "Texture2D texA; sampler samA[2]; Texture2D texB[2]; sampler samB;\n"
      "float4 main() : COLOR { return 1000 * texA.Sample(samA[0], float2(0, 0))\n"
      "  + 100 * tex2D(samA[1], float2(0, 0)) + 10 * tex2D(samB, float2(0, 0))\n"
      "  + texB[1].Sample(samB, float2(0, 0)); }",
      4351 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Compiled c = compile (cases[i].src);
      g_assert_cmpstr (c.diags, ==, "");
      g_assert_nonnull (c.program);
      float out[4];
      render_with_slot_textures (c.program, out);
      g_assert_cmpfloat (out[0], ==, cases[i].expect);
      g_assert_cmpfloat (out[2], ==, cases[i].expect);
      compiled_clear (&c);
    }
  /* Reflection: the combination is one sampler named after the texture,
   * and a texture only sampled through it takes no register of its own. */
  Compiled c = compile (cases[0].src);
  g_assert_cmpint (sl_program_get_n_samplers (c.program), ==, 2);
  const SlSamplerInfo *s0 = sl_program_get_sampler (c.program, 0);
  const SlSamplerInfo *s1 = sl_program_get_sampler (c.program, 1);
  const SlSamplerInfo *comb = s0->slot == 0 ? s0 : s1, *plain = s0->slot == 0 ? s1 : s0;
  g_assert_cmpstr (comb->name, ==, "tex");
  g_assert_true (comb->is_texture_object);
  g_assert_cmpstr (plain->name, ==, "sam");
  g_assert_cmpint (plain->slot, ==, 1);
  compiled_clear (&c);
}

/* Structs and arrays holding texture objects: the objects travel with the
 * numbers through brace initialisers, copies, calls (in, out and inout),
 * returns, casts to a struct whose components line up, and constant
 * indices.  Texture slot k holds the value k (render_with_slot_textures),
 * and texA/texB sit in t2/t5, so each result says which object arrived. */
static void
test_object_structs (void)
{
  static const char *prelude =
    "Texture2D texA : register(t2); Texture2D texB : register(t5);\n"
    "struct apple { int2 aa; Texture2D bb; float cc; };\n"
    "struct banana { float aa[2]; Texture2D bb; int cc; };\n"
    "float v(Texture2D t) { return t.Load(int3(0, 0, 0)).x; }\n";
  static const struct { const char *name, *body; float expect; } cases[] = {
    { "init-copy",
      "float4 main() : SV_Target { struct apple a = {1, 2, texB, 4}; struct apple b;\n"
      "  b = a; return 100 * b.aa.y + 10 * b.cc + v(b.bb); }", 245 },
    { "copy-keeps-source",
      "float4 main() : SV_Target { struct apple a = {1, 2, texA, 4}; struct apple b = a;\n"
      "  b.bb = texB; return 10 * v(a.bb) + v(b.bb); }", 25 },
    { "param-in",
      "float f(struct apple p) { return 10 * v(p.bb) + p.cc; }\n"
      "float4 main() : SV_Target { struct apple a = {1, 2, texA, 7}; return f(a); }", 27 },
    { "param-inout",
      "void g(inout struct apple p) { p.bb = texB; p.cc += 1; }\n"
      "float4 main() : SV_Target { struct apple a = {1, 2, texA, 7}; g(a);\n"
      "  return 10 * v(a.bb) + a.cc; }", 58 },
    { "param-out",
      "void h(out struct apple p) { struct apple q = {3, 4, texB, 9}; p = q; }\n"
      "float4 main() : SV_Target { struct apple a = {1, 2, texA, 7}; h(a);\n"
      "  return 100 * a.aa.x + 10 * v(a.bb) + a.cc; }", 359 },
    { "param-implicit-conversion",
      "struct cherry { int aa[2]; Texture2D bb; float cc; };\n"
      "float f(struct cherry c) { return 10 * v(c.bb) + c.aa[1]; }\n"
      "float4 main() : SV_Target { struct apple a = {1, 2, texB, 7}; return f(a); }", 52 },
    { "return",
      "struct apple mk(float c) { struct apple r = {0, 0, texB, c}; return r; }\n"
      "float4 main() : SV_Target { return 10 * v(mk(3).bb) + mk(3).cc; }", 53 },
    { "explicit-cast",
      "float4 main() : SV_Target { struct apple a = {1, 2, texB, 7.5};\n"
      "  struct banana b = (struct banana) a; return 100 * b.aa[1] + 10 * v(b.bb) + b.cc; }", 257 },
    { "cast-drops-trailing-object",
      "struct donut { int2 aa; Texture2D bb; float cc; float dd; Texture2D ee; };\n"
      "float4 main() : SV_Target { struct donut d = {1, 2, texA, 3, 4, texB};\n"
      "  struct apple a = (struct apple) d; return 10 * v(a.bb) + a.cc; }", 23 },
    { "array-of-structs",
      "float4 main() : SV_Target { struct apple arr[2] = {1, 2, texA, 3, 4, 5, texB, 6};\n"
      "  return 100 * v(arr[0].bb) + 10 * v(arr[1].bb) + arr[1].cc; }", 256 },
    { "nested-and-object-array",
      "struct box { float k; Texture2D t[2]; struct apple a; };\n"
      "float4 main() : SV_Target { struct box x = {1, texB, texA, 2, 3, texB, 4};\n"
      "  return 1000 * v(x.t[0]) + 100 * v(x.t[1]) + 10 * v(x.a.bb) + x.a.cc; }", 5254 },
  };
  static const char *profiles[] = { "ps_4_0", "ps_3_0" };
  for (guint pi = 0; pi < G_N_ELEMENTS (profiles); pi++)
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        char *src = g_strconcat (prelude, cases[i].body, NULL);
        Compiled c = compile_with (src, NULL, profiles[pi]);
        if (!c.program)
          g_error ("%s (%s): %s", cases[i].name, profiles[pi], c.diags);
        float out[4];
        render_with_slot_textures (c.program, out);
        if (out[0] != cases[i].expect)
          g_error ("%s (%s): got %g, expected %g", cases[i].name, profiles[pi], out[0],
                   cases[i].expect);
        compiled_clear (&c);
        g_free (src);
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/hlsl/diagnostics/positions", test_error_positions);
  g_test_add_func ("/hlsl/diagnostics/const-and-warning", test_const_and_warning);
  g_test_add_func ("/hlsl/diagnostics/missing-semicolon", test_missing_semicolon);
  g_test_add_func ("/hlsl/diagnostics/recursion", test_recursion);
  g_test_add_func ("/hlsl/diagnostics/rejections", test_rejections);
  g_test_add_func ("/hlsl/overloads", test_overloads);
  g_test_add_func ("/hlsl/entry-point", test_entry_point);
  g_test_add_func ("/hlsl/reflection", test_reflection);
  g_test_add_func ("/hlsl/sampler-state-words", test_sampler_state_words);
  g_test_add_func ("/hlsl/bool-register", test_bool_register);
  g_test_add_func ("/hlsl/d3d9-integers", test_d3d9_integers);
  g_test_add_func ("/hlsl/fxc-expansions", test_fxc_expansions);
  g_test_add_func ("/hlsl/sm1-combined-samplers", test_sm1_combined_samplers);
  g_test_add_func ("/hlsl/object-structs", test_object_structs);
  return g_test_run ();
}
