/* D3D9 assembly and bytecode tests.
 *
 * Shaders run over an 8×8 viewport whose slot-0 texture holds texel
 * (x, y) = ((x+.5)/8, (y+.5)/8, .25, 1), so a texld at the pixel's own
 * TEXCOORD0 returns exactly that texel and every expected value below is
 * computed from it.  Equivalent HLSL runs through the HLSL front end for
 * comparison.  Error tests assert the full diagnostic text. */
#include "asm/d3d9/d3d9.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define W 8
#define H 8

static int failures;
static float texels[W * H * 4];

#define CHECK(cond, ...) do { if (!(cond)) { failures++; fprintf (stderr, "FAIL %s:%d: ", __FILE__, __LINE__); fprintf (stderr, __VA_ARGS__); fputc ('\n', stderr); } } while (0)

static SlProgram *
compile (const char *src, size_t len, SlLanguage lang, char **errors)
{
  SlCompileOptions o = { .source = src, .length = len, .language = lang, .filename = "t.asm",
                         .flags = SL_COMPILE_VALIDATE };
  SlDiagnostics *d = sl_diagnostics_new ();
  SlProgram *p = sl_compile (&o, d);
  if (errors)
    *errors = sl_diagnostics_format (d);
  else if (!p)
    {
      char *t = sl_diagnostics_format (d);
      fprintf (stderr, "compile failed:\n%s\n", t);
      g_free (t);
    }
  sl_diagnostics_free (d);
  return p;
}

/* Renders and returns pixel (x, y). */
static bool
render (SlProgram *p, const char *params, int x, int y, float out[4])
{
  SlBinding *b = sl_binding_new (p);
  SlTexture tex;
  sl_texture_init_2d (&tex, W, H, W * 4, texels);
  sl_binding_set_viewport (b, W, H);
  for (int s = 0; s < 4; s++)
    sl_binding_set_texture (b, s, &tex);
  SlDiagnostics *d = sl_diagnostics_new ();
  bool ok = !params || sl_binding_set_params_string (b, params, d);
  ok = ok && sl_binding_prepare (b, d);
  float px[W * H * 4];
  for (int i = 0; i < W * H * 4; i++)
    px[i] = -99.0f;
  SlScratch *sc = sl_scratch_new ();
  SlTarget t = { px, W * 4 };
  ok = ok && sl_binding_render (b, sc, 0, 0, W, H, NULL, &t, 1, d);
  memcpy (out, px + (y * W + x) * 4, sizeof (float) * 4);
  if (!ok)
    {
      char *e = sl_diagnostics_format (d);
      fprintf (stderr, "render: %s\n", e);
      g_free (e);
    }
  sl_scratch_free (sc);
  sl_diagnostics_free (d);
  sl_binding_free (b);
  return ok;
}

static bool
near (const float *a, const float *b)
{
  for (int k = 0; k < 4; k++)
    if (!(fabsf (a[k] - b[k]) <= 1e-6f))
      return false;
  return true;
}

/* Runs @asm and checks pixel (x,y) against @want. */
static void
expect_pixel (const char *name, const char *asm_src, const char *params, int x, int y,
              float r, float g, float b, float a)
{
  SlProgram *p = compile (asm_src, (size_t) -1, SL_LANGUAGE_AUTO, NULL);
  CHECK (p, "%s: does not compile", name);
  if (!p)
    return;
  float got[4], want[4] = { r, g, b, a };
  CHECK (render (p, params, x, y, got), "%s: render failed", name);
  CHECK (near (got, want), "%s: pixel %d,%d is %.9g %.9g %.9g %.9g, expected %.9g %.9g %.9g %.9g", name, x, y,
         got[0], got[1], got[2], got[3], r, g, b, a);
  sl_program_unref (p);
}

/* The same pixels from assembly and from HLSL at a few positions. */
static void
expect_same_as_hlsl (const char *name, const char *asm_src, const char *hlsl, const char *params,
                     const char *hlsl_params)
{
  SlProgram *pa = compile (asm_src, (size_t) -1, SL_LANGUAGE_AUTO, NULL);
  SlProgram *ph = compile (hlsl, (size_t) -1, SL_LANGUAGE_HLSL, NULL);
  CHECK (pa && ph, "%s: does not compile", name);
  if (pa && ph)
    for (int i = 0; i < 4; i++)
      {
        int x = (i * 5 + 1) % W, y = (i * 3 + 2) % H;
        float a[4], h[4];
        render (pa, params, x, y, a);
        render (ph, hlsl_params, x, y, h);
        CHECK (near (a, h), "%s: asm %.9g %.9g %.9g %.9g vs hlsl %.9g %.9g %.9g %.9g at %d,%d", name, a[0], a[1],
               a[2], a[3], h[0], h[1], h[2], h[3], x, y);
      }
  sl_program_unref (pa);
  sl_program_unref (ph);
}

static void
expect_error (const char *src, const char *message)
{
  char *errors = NULL;
  SlProgram *p = compile (src, (size_t) -1, SL_LANGUAGE_AUTO, &errors);
  CHECK (!p, "expected an error for:\n%s", src);
  CHECK (errors && strstr (errors, message), "expected '%s', got:\n%s", message, errors ? errors : "");
  g_free (errors);
  sl_program_unref (p);
}

static float tx (int x) { return (x + 0.5f) / W; }
static float ty (int y) { return (y + 0.5f) / H; }
static float sat (float v) { return v < 0 ? 0 : v > 1 ? 1 : v; }

static void
test_arithmetic (void)
{
  /* The _bx2 reference example: v0 (COLOR0) is opaque white here, so
     v0_bx2 = 1. */
  float t0 = tx (5), t1 = ty (2);
  float d = sat (2 * (t0 - 0.5f) + 2 * (t1 - 0.5f) + 2 * (0.25f - 0.5f));
  expect_pixel ("bx2 dp3_sat", "ps_1_1\ntex t0\ndp3_sat r0, t0_bx2, v0_bx2\n", NULL, 5, 2, d, d, d, d);
  expect_same_as_hlsl ("bx2 vs hlsl", "ps_1_1\ntex t0                        ; Read a texture color.\n"
                       "dp3_sat r0, t0_bx2, v0_bx2    ; Calculate a dot product.\n",
                       "sampler2D s0 : register(s0);\n"
                       "float4 main(float2 uv : TEXCOORD0, float4 v : COLOR0) : COLOR {\n"
                       "  float4 t = tex2D(s0, uv);\n"
                       "  return saturate(dot(2*(t.rgb-0.5), 2*(v.rgb-0.5))); }\n", NULL, NULL);
  /* _bx2 on the value read, never the register: r0 keeps its value. */
  expect_pixel ("bx2 leaves the register", "ps_1_4\ndef c0, 0.75, 0.25, 0.5, 1\nmov r0, c0\n"
                "add r1, r0_bx2, r0\nmov r0, r1\n", NULL, 0, 0, 0.5f + 0.75f, -0.5f + 0.25f, 0.5f, 2.0f);
  /* Source modifiers of ps_1_x. */
  expect_pixel ("bias invert x2 neg", "ps_1_4\ndef c0, 0.75, 0.25, 0.5, 1\nmov r1, c0\n"
                "mov r0.x, r1_bias\nmov r0.y, 1-r1\nmov r0.z, r1_x2\nmov r0.w, -r1_bx2\n", NULL, 0, 0,
                0.25f, 0.75f, 1.0f, -1.0f);
  /* Instruction modifiers. */
  expect_pixel ("shift and sat", "ps_1_4\ndef c0, 0.75, 0.25, 0.5, 0.125\nmov r1, c0\n"
                "add_x2 r0.x, r1, r1\nmul_d2 r0.y, r1, r1\nadd_x4_sat r0.z, r1, r1\nmov_x8 r0.w, r1\n", NULL,
                0, 0, 3.0f, 0.03125f, 1.0f, 1.0f);
  /* Clamping rule: ps_1_1–1_3 registers hold [-1, 1], ps_1_4 [-8, 8]; c# reads clamp to [-1, 1]. */
  expect_pixel ("ps_1_1 range", "ps_1_1\ndef c0, 0.75, 2, -3, 0.5\nadd_x2 r0, c0, c0\n", NULL, 0, 0, 1, 1, -1, 1);
  expect_pixel ("ps_1_4 range", "ps_1_4\ndef c0, 0.75, 2, -3, 0.5\nadd_x4 r0, c0, c0\n", NULL, 0, 0, 6, 8, -8, 4);
  /* Swizzles: shorter swizzles repeat the last component. */
  expect_pixel ("swizzle .wzx", "ps_2_x\ndef c0, 1, 2, 3, 4\nmov r0, c0.wzx\nmov oC0, r0\n", NULL, 0, 0, 4, 3, 1, 1);
  expect_pixel ("swizzle .yzxw", "ps_2_0\ndef c0, 1, 2, 3, 4\nmov oC0, c0.yzxw\n", NULL, 0, 0, 2, 3, 1, 4);
  expect_pixel ("replicate .z", "ps_1_1\ndef c0, 0.1, 0.2, 0.3, 0.4\nmov r0.a, c0.b\n+mov r0.rgb, c0\n", NULL,
                0, 0, 0.1f, 0.2f, 0.3f, 0.3f);
  /* Co-issue: the pair reads before either writes. */
  expect_pixel ("co-issue", "ps_1_4\ndef c0, 0.5, 0.5, 0.5, 0.25\nmov r0, c0\nadd r0.rgb, r0, r0\n"
                "+mov r0.a, r0.r\n", NULL, 0, 0, 1, 1, 1, 0.5f);
  /* ps_2_0 arithmetic against HLSL. */
  expect_same_as_hlsl ("ps_2_0 math",
                       "ps_2_0\ndef c1, 0.5, 2, 0.25, 1\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\n"
                       "mul r1, r0, c0\nmad r1, r1, c1.y, -c1.x\nrcp r2.x, r0.x\nrsq r2.y, r0.y\n"
                       "pow r2.z, r0.x, c1.y\nexp r2.w, r0.y\nadd r1, r1, r2\nlog r3, r0.z\nmax r1, r1, r3\n"
                       "cmp r1, r1, r1, -r1\nlrp r0, r0.x, r1, c1\nmov oC0, r0\n",
                       "sampler2D s0 : register(s0);\nfloat4 k : register(c0);\n"
                       "float4 main(float2 uv : TEXCOORD0) : COLOR {\n"
                       "  float4 t = tex2D(s0, uv);\n  float4 a = t * k * 2 - 0.5;\n"
                       "  a += float4(1/t.x, 1/sqrt(t.y), pow(t.x, 2), exp2(t.y));\n"
                       "  a = max(a, log2(t.z));\n  a = a >= 0 ? a : -a;\n"
                       "  return lerp(float4(0.5, 2, 0.25, 1), a, t.x); }\n", "c0=0.5,1,1.5,2", "k=0.5,1,1.5,2");
  expect_same_as_hlsl ("matrix, dp2add, nrm, crs, frc, sincos",
                       "ps_2_x\ndef c4, 0.5, 2, 0.25, 1\ndef c5, -0.1, 0.3, 0.7, 0.2\ndcl t0.xy\ndcl_2d s0\n"
                       "texld r0, t0, s0\nm4x4 r1, r0, c0\ndp2add r2.x, r0, c4, c4.z\nnrm r3, c5\n"
                       "crs r4.xyz, r0, c5\nfrc r5, r1\nsincos r6.xy, r0.x, c4, c4\n"
                       "add r2, r2.x, r3\nadd r2, r2, r4\nadd r2, r2, r5\nadd r0, r2, r6.xyxy\nmov oC0, r0\n",
                       "sampler2D s0 : register(s0);\nfloat4x4 M : register(c0);\n"
                       "float4 main(float2 uv : TEXCOORD0) : COLOR {\n  float4 t = tex2D(s0, uv);\n"
                       "  float4 m = mul(M, t);\n  float d = dot(t.xy, float2(0.5, 2)) + 0.25;\n"
                       "  float4 c = float4(-0.1, 0.3, 0.7, 0.2);\n  float4 n = c * rsqrt(dot(c.xyz, c.xyz));\n"
                       "  float3 x = cross(t.xyz, c.xyz);\n  float4 f = frac(m);\n"
                       "  float2 sc = float2(cos(t.x), sin(t.x));\n"
                       "  return d + n + float4(x, 0) + f + sc.xyxy; }\n",
                       "c0=1,2,3,4; c1=0.5,0.25,0.125,1; c2=2,1,0,-1; c3=0.3,0.6,0.9,1.2",
                       "M=1,2,3,4,0.5,0.25,0.125,1,2,1,0,-1,0.3,0.6,0.9,1.2");
}

static void
test_textures (void)
{
  /* ps_1_1 texcoord saturates; ps_1_4 texcrd/texld with _dz. */
  expect_pixel ("texcoord", "ps_1_1\ntexcoord t0\nmov r0, t0\n", NULL, 3, 6, tx (3), ty (6), 0, 1);
  expect_pixel ("texld 1_4", "ps_1_4\ntexld r0, t0\n", NULL, 4, 1, tx (4), ty (1), 0.25f, 1);
  expect_pixel ("texcrd 1_4", "ps_1_4\ntexcrd r0.xyz, t0\nmov r0.a, c0\n", "c0=0,0,0,0.5", 4, 1,
                tx (4), ty (1), 0, 0.5f);
  /* texreg2ar samples at (t1.a, t1.r). */
  expect_pixel ("texreg2ar", "ps_1_1\ntex t0\ntexreg2ar t1, t0\nmov r0, t1\n", NULL, 2, 5, tx (7), ty (2), 0.25f, 1);
  /* texm3x2pad/texm3x2tex: u = tc1·t0, v = tc2·t0 with t0_bx2 allowed. */
  {
    /* Every TEXCOORDn is (u, v, 0, 1) here, so both rows give
     * u(2u-1) + v(2v-1); the bilinear lookup of the ramp returns it. */
    float u = tx (6), v = ty (3), d = u * (2 * u - 1) + v * (2 * v - 1);
    expect_pixel ("texm3x2", "ps_1_1\ntex t0\ntexm3x2pad t1, t0_bx2\ntexm3x2tex t2, t0_bx2\nmov r0, t2\n", NULL, 6, 3,
                  d, d, 0.25f, 1);
  }
  expect_pixel ("texldp", "ps_2_0\ndef c0, 0.5, 0.5, 0, 2\ndcl_2d s0\ntexldp r0, c0, s0\nmov oC0, r0\n", NULL, 0, 0,
                0.25f, 0.25f, 0.25f, 1);
  expect_pixel ("texkill", "ps_2_0\ndef c0, 0.5, 0, 0, 1\ndcl t0.xy\nsub r0, t0, c0\ntexkill r0\nmov oC0, c0\n", NULL,
                5, 6, 0.5f, 0, 0, 1);
  expect_pixel ("texkill keeps", "ps_2_0\ndef c0, 0.5, 0, 0, 1\ndcl t0.xy\nsub r0, t0, c0\ntexkill r0\nmov oC0, c0\n",
                NULL, 1, 6, -99, -99, -99, -99);
  expect_pixel ("ps_3_0 inputs", "ps_3_0\ndcl_texcoord0 v0.xy\ndcl vPos.xy\ndcl_2d s0\ntexld r0, v0, s0\n"
                "mov r0.z, vPos.y\nmov oC0, r0\n", NULL, 3, 4, tx (3), ty (4), 4.5f, 1);
}

static void
test_flow (void)
{
  expect_pixel ("rep", "ps_2_x\ndefi i0, 5, 0, 0, 0\ndef c0, 0.125, 0, 0, 0\nmov r0, c1\n"
                "rep i0\nadd r0, r0, c0\nendrep\nmov oC0, r0\n", NULL, 0, 0, 0.625f, 0, 0, 0);
  expect_pixel ("loop aL", "ps_3_0\ndefi i0, 4, 1, 2, 0\ndef c0, 0, 0, 0, 0\nmov r0, c0\n"
                "def c1, 1, 0, 0, 0\ndef c3, 10, 0, 0, 0\ndef c5, 100, 0, 0, 0\ndef c7, 1000, 0, 0, 0\n"
                "def c9, 5, 5, 5, 5\nloop aL, i0\nadd r0, r0, c0[aL]\nendloop\nmov oC0, r0\n",
                NULL, 0, 0, 1111, 0, 0, 0);
  expect_pixel ("if_gt else", "ps_2_x\ndef c0, 0.5, 1, 2, 0\ndcl t0.xy\nif_gt t0.x, c0.x\nmov r0, c0.y\nelse\n"
                "mov r0, c0.z\nendif\nmov oC0, r0\n", NULL, 6, 0, 1, 1, 1, 1);
  expect_pixel ("if_gt else (2)", "ps_2_x\ndef c0, 0.5, 1, 2, 0\ndcl t0.xy\nif_gt t0.x, c0.x\nmov r0, c0.y\nelse\n"
                "mov r0, c0.z\nendif\nmov oC0, r0\n", NULL, 1, 0, 2, 2, 2, 2);
  expect_pixel ("breakc", "ps_2_x\ndefi i0, 100, 0, 0, 0\ndef c0, 1, 3, 0, 0\nmov r0, c1\nrep i0\n"
                "add r0, r0, c0.x\nbreak_ge r0.x, c0.y\nendrep\nmov oC0, r0\n", NULL, 0, 0, 3, 3, 3, 3);
  expect_pixel ("rep limit 255", "ps_2_x\ndefi i0, 1000, 0, 0, 0\ndef c0, 1, 0, 0, 0\nmov r0, c1\nrep i0\n"
                "add r0, r0, c0\nendrep\nmov oC0, r0\n", NULL, 0, 0, 255, 0, 0, 0);
  expect_pixel ("setp predication", "ps_2_x\ndef c0, 0.5, 1, 2, 0\ndcl t0.xy\nmov r0, c0.w\n"
                "setp_gt p0, t0, c0.x\n(p0) mov r0, c0.y\n(!p0.y) add r0.z, r0.z, c0.z\nmov oC0, r0\n",
                NULL, 6, 1, 1, 0, 2, 1);
  expect_pixel ("call callnz ret", "ps_2_x\ndefb b0, true\ndefb b1, false\ndef c0, 1, 10, 100, 0\nmov r0, c0.w\n"
                "call l0\ncallnz l1, b0\ncallnz l1, b1\nmov oC0, r0\nret\nlabel l0\nadd r0, r0, c0.x\nret\n"
                "label l1\nadd r0, r0, c0.y\nif b0\nret\nendif\nadd r0, r0, c0.z\nret\n", NULL, 0, 0,
                11, 11, 11, 11);
}

/* The ps_2_x profiles: each program uses what its profile has and the
 * other lacks (validator rules and messages: tests/diagnostics). */
static void
test_profiles (void)
{
  /* ps_2_a: r21, gradients (dsx/dsy of TEXCOORD0 are 1/8 across and
     down), texldd, arbitrary swizzle, predication.  At (6, 2) the texel
     is (.8125, .3125, .25, 1); p0 = texel > .5 = (1, 0, 0, 1). */
  expect_pixel ("ps_2_a caps", "ps_2_a\ndef c0, 0.5, 8, 0, 1\ndcl t0.xy\ndcl_2d s0\ndsx r21, t0\ndsy r20, t0\n"
                "texldd r0, t0, s0, r21, r20\nmov r1, r0.yxzw\nadd r2.x, r21.x, r20.y\nmul r2.x, r2.x, c0.y\n"
                "setp_gt p0, r0, c0.x\n(p0) add r1, r1, r2.x\nmov oC0, r1\n", NULL, 6, 2,
                ty (2) + 2, tx (6), 0.25f, 3);
  /* ps_2_b: r29-r31 and the ps_2_0 swizzles.  At (1, 6) the texel is
     (.1875, .8125, .25, 1): r30 = .yzxw, plus 2·r30 + r31.wzyx. */
  expect_pixel ("ps_2_b caps", "ps_2_b\ndef c0, 0.5, 2, 0, 1\ndcl t0.xy\ndcl_2d s0\ntexld r31, t0, s0\n"
                "mov r30, r31.yzxw\nmad r29, r30, c0.y, r31.wzyx\nmov oC0, r29\n", NULL, 1, 6,
                2 * ty (6) + 1, 2 * 0.25f + 0.25f, 2 * tx (1) + ty (6), 2 + tx (1));
  /* ps_2_x alone keeps all of it: r31, dsx, static and dynamic flow
     control, arbitrary swizzle, predication. */
  expect_pixel ("ps_2_x caps", "ps_2_x\ndefi i0, 3, 0, 0, 0\ndef c0, 0.5, 8, 0, 1\ndcl t0.xy\ndsx r31, t0\n"
                "mov r0, c0.z\nrep i0\nadd r0, r0, r31.x\nendrep\nsetp_gt p0, t0.yxzw, c0.x\n"
                "(p0) mov r0.x, c0.w\nif p0.x\nadd r0.y, r0.y, c0.w\nendif\nmov oC0, r0\n", NULL, 1, 6,
                1, 1.375f, 0.375f, 0.375f);
  /* What one profile has, the other refuses. */
  expect_error ("ps_2_b\ndcl t0.xy\ndsx r21, t0\nmov oC0, r21\n",
                "t.asm:3:1: error: dsx needs gradient instructions: ps_2_a, ps_2_x or ps_3_0 (this is ps_2_b)");
  expect_error ("ps_2_a\ndcl t0.xy\ndcl_2d s0\ntexld r31, t0, s0\nmov oC0, r31\n",
                "t.asm:4:7: error: register r31 is out of range in ps_2_a (22 available)");
}

static void
test_errors (void)
{
  /* _bx2 on texture instructions, per version. */
  expect_error ("ps_1_3\ntex t0\ntexreg2ar t1, t0_bx2\n", "t.asm:3:15: error: _bx2 is not allowed on texreg2ar in ps_1_3");
  expect_error ("ps_1_3\ntex t0\ntexreg2gb t1, t0_bx2\n", "_bx2 is not allowed on texreg2gb in ps_1_3");
  expect_error ("ps_1_2\ntex t0\ntexbem t1, t0_bx2\n", "_bx2 is not allowed on texbem in ps_1_2");
  expect_error ("ps_1_3\ntex t0\ntexbeml t1, t0_bx2\n", "_bx2 is not allowed on texbeml in ps_1_3");
  expect_error ("ps_1_1\ntex t0\ntexreg2ar t1, t0_bx2\n", "_bx2 is not allowed on texreg2ar in ps_1_1");
  expect_error ("ps_1_0\ntex t0\ntexbem t1, t0_bx2\n", "_bx2 is not allowed on texbem in ps_1_0");
  expect_error ("ps_1_1\ntex t0\ntexbem t1, t0_bias\n", "_bias is not allowed on texbem in ps_1_1");
  expect_error ("ps_1_1\ntex t0\nadd r0, 1-t0_bx2, t0\n", "_bx2 cannot be combined with invert (1-x)");
  expect_error ("ps_2_0\ndcl t0\nmov oC0, t0_bx2\n", "_bx2 is only available in ps_1_x (this is ps_2_0)");
  expect_error ("ps_2_0\ndcl t0\nmov oC0, t0_abs\n", "_abs source modifier needs ps_2_x or later (this is ps_2_0)");
  expect_error ("ps_1_3\ntex t0\nmov r0, t0_x2\n", "_x2 source modifier needs ps_1_4 (this is ps_1_3)");
  expect_error ("ps_1_4\ndef c0, 1, 1, 1, 1\nmov r0, -c0\n", "source modifiers are not allowed on constants in ps_1_4");
  expect_error ("ps_1_4\ntexld r0, t0_dw.xyw\n", "_dw is only allowed on texcrd in ps_1_4");
  /* Swizzles per version. */
  expect_error ("ps_2_0\ndef c0, 1, 1, 1, 1\nmov oC0, c0.yxzw\n", "t.asm:3:10: error: swizzle .yxzw needs ps_2_x or later (this is ps_2_0)");
  expect_error ("ps_1_4\ndef c0, 1, 1, 1, 1\nmov r0, c0.yzxw\n", "swizzle .yzxw needs ps_2_0 or later (this is ps_1_4)");
  expect_error ("ps_1_3\ndef c0, 1, 1, 1, 1\nmov r0, c0.x\n", "replicate swizzle .x needs ps_1_4 or later (this is ps_1_3)");
  expect_error ("ps_1_1\ndef c0, 1, 1, 1, 1\nmov r0, c0.y\n", "replicate swizzle .y needs ps_1_4 or later (this is ps_1_1)");
  expect_error ("ps_1_2\ndef c0, 1, 1, 1, 1\nmov r0.rgb, c0.b\n", "replicate swizzle .z needs write mask .w (.a) in ps_1_2");
  expect_error ("ps_1_4\ntexld r0, t0.yx\n", "swizzle .yx is not allowed on texld in ps_1_4 (only .xyz or .xyw)");
  /* Instruction modifiers per version. */
  expect_error ("ps_2_0\ndef c0, 1, 1, 1, 1\nadd_x2 r0, c0, c0\nmov oC0, r0\n",
                "instruction modifier _x2 is only available in ps_1_x (this is ps_2_0)");
  expect_error ("ps_1_3\ndef c0, 1, 1, 1, 1\nadd_x8 r0, c0, c0\n", "instruction modifier _x8 needs ps_1_4 (this is ps_1_3)");
  expect_error ("ps_1_3\ndef c0, 1, 1, 1, 1\nadd_d4 r0, c0, c0\n", "instruction modifier _d4 needs ps_1_4 (this is ps_1_3)");
  expect_error ("ps_1_4\ndef c0, 1, 1, 1, 1\nadd_pp r0, c0, c0\n", "_pp needs ps_2_0 or later (this is ps_1_4)");
  expect_error ("ps_1_1\ndef c0, 1, 1, 1, 1\nadd r0.rg, c0, c0\n", "write mask must be .rgba, .rgb or .a in ps_1_1");
  /* Instructions and registers per version. */
  expect_error ("ps_2_0\ndefi i0, 1, 0, 0, 0\n", "defi needs ps_2_x or later (this is ps_2_0)");
  expect_error ("ps_2_0\ndcl t0\ntex t0\n", "tex is not available in ps_2_0 (only up to ps_1_3)");
  expect_error ("ps_1_1\ndef c0, 1, 1, 1, 1\nmov r2, c0\n", "register r2 is out of range in ps_1_1 (2 available)");
  expect_error ("ps_3_0\ndcl t0\n", "register t0 is not available in ps_3_0");
  expect_error ("ps_2_0\ndef c0, 1, 1, 1, 1\nmov r0, c0\n+mov r1, c0\n", "co-issue (+) needs ps_1_x (this is ps_2_0)");
  expect_error ("ps_2_0\ndef c0, 1, 1, 1, 1\n(p0) mov r0, c0\n", "predication needs ps_2_x or later (this is ps_2_0)");
  expect_error ("ps_2_x\ndefi i0, 1, 0, 0, 0\nrep i0\nmov r0, c0\n", "rep is not closed by endrep before the end of the shader");
  expect_error ("ps_2_x\ncall l3\n", "call of undefined label l3");
  expect_error ("ps_2_0\ndef c0, 1, 1, 1, 1\nrcp r0, c0\n", "rcp needs a replicate swizzle");
  expect_error ("ps_1_9\n", "unknown shader version 'ps_1_9'");
  expect_error ("ps_2_0\nfoo r0, c0\n", "t.asm:2:1: error: unknown instruction 'foo'");
}

/* Read ports: distinct registers of one type per instruction.  Each
 * version family gets an instruction at its limit that runs (value
 * checked) and one past it that fails with the rule, count and version. */
static void
test_read_ports (void)
{
  /* Pixel (1,1): every t#/texld reads texel (.1875, .1875, .25, 1). */
  float t = 0.1875f, m = t * t + t;
  /* ps_1_1: two texture registers; the register range clamps w to 1. */
  expect_pixel ("ps_1_1 two t#", "ps_1_1\ntex t0\ntex t1\nmad r0, t0, t1, t0\n", NULL, 1, 1,
                m, m, 0.3125f, 1.0f);
  expect_error ("ps_1_1\ntex t0\ntex t1\ntex t2\nmad r0, t0, t1, t2\n",
                "t.asm:5:1: error: instruction reads 3 different texture registers; ps_1_1 allows 2");
  expect_error ("ps_1_0\ntex t0\ntex t1\ntex t2\n  lrp r0, t0, t1, t2\n",
                "t.asm:5:3: error: instruction reads 3 different texture registers; ps_1_0 allows 2");
  /* ps_1_2/ps_1_3: three texture registers, two constants. */
  expect_pixel ("ps_1_3 three t#", "ps_1_3\ntex t0\ntex t1\ntex t2\nmad r0, t0, t1, t2\n", NULL, 1, 1,
                m, m, 0.3125f, 1.0f);
  expect_pixel ("ps_1_2 two c#", "ps_1_2\ndef c0, 0.5, 0.25, 0.75, 1\ndef c1, 0.125, 0.5, 0.25, 0\n"
                "mad r0, c0, c1, c0\n", NULL, 0, 0, 0.5625f, 0.375f, 0.9375f, 1.0f);
  expect_error ("ps_1_2\ndef c0, 1, 1, 1, 1\ndef c1, 1, 1, 1, 1\ndef c2, 1, 1, 1, 1\nmad r0, c0, c1, c2\n",
                "t.asm:5:1: error: instruction reads 3 different constant registers; ps_1_2 allows 2");
  /* ps_1_4: three temporaries, two constants. */
  expect_pixel ("ps_1_4 three r#", "ps_1_4\ntexld r0, t0\ntexld r1, t0\ntexld r2, t0\nmad r0, r0, r1, r2\n",
                NULL, 1, 1, m, m, 0.3125f, 2.0f);
  expect_error ("ps_1_4\ndef c0, 1, 1, 1, 1\ndef c1, 1, 1, 1, 1\ndef c2, 1, 1, 1, 1\nmad r0, c0, c1, c2\n",
                "t.asm:5:1: error: instruction reads 3 different constant registers; ps_1_4 allows 2");
  /* ps_2_0: two constants (c0 read twice is one port), one t#, one v#. */
  expect_pixel ("ps_2_0 two c#", "ps_2_0\ndef c0, 0.5, 0.25, 0.75, 1\ndef c1, 0.125, 0.5, 0.25, 0\n"
                "mad r0, c0, c0, c1\nmov oC0, r0\n", NULL, 0, 0, 0.375f, 0.5625f, 0.8125f, 1.0f);
  expect_error ("ps_2_0\ndef c0, 1, 1, 1, 1\ndef c1, 1, 1, 1, 1\ndef c2, 1, 1, 1, 1\nmad r0, c0, c1, c2\n"
                "mov oC0, r0\n",
                "t.asm:5:1: error: instruction reads 3 different constant registers; ps_2_0 allows 2");
  expect_error ("ps_2_0\ndcl t0\ndcl t1\nadd r0, t0, t1\nmov oC0, r0\n",
                "t.asm:4:1: error: instruction reads 2 different texture registers; ps_2_0 allows 1");
  /* v0 is opaque white here, v1 (specular) black: the fxc sprite shape. */
  expect_pixel ("ps_2_0 two v#", "ps_2_0\ndcl v0\ndcl v1\ndef c0, 0.5, 0.25, 0.75, 1\n"
                "mad r0, c0, v0, v1\nmov oC0, r0\n", NULL, 0, 0, 0.5f, 0.25f, 0.75f, 1.0f);
  /* ps_2_x: the same limits under the profile's own name. */
  expect_pixel ("ps_2_a two c#", "ps_2_a\ndef c0, 0.5, 0.25, 0.75, 1\ndef c1, 0.125, 0.5, 0.25, 0\n"
                "mad r0, c0, c1, c0\nmov oC0, r0\n", NULL, 0, 0, 0.5625f, 0.375f, 0.9375f, 1.0f);
  expect_error ("ps_2_a\ndcl t0\ndcl t1\nmul r0, t0, t1\nmov oC0, r0\n",
                "t.asm:4:1: error: instruction reads 2 different texture registers; ps_2_a allows 1");
  expect_error ("ps_2_x\ndef c0, 1, 1, 1, 1\ndef c1, 1, 1, 1, 1\ndef c2, 1, 1, 1, 1\ndp2add r0, c0, c1, c2\n"
                "mov oC0, r0\n",
                "t.asm:5:1: error: instruction reads 3 different constant registers; ps_2_x allows 2");
  /* ps_3_0: c# and v# are unlimited; s#, i#, b# and p0 (limit 1) appear
     at most once per instruction, so no ps_3_0 instruction can fail. */
  expect_pixel ("ps_3_0 three c#", "ps_3_0\ndef c0, 0.5, 0.25, 0.75, 1\ndef c1, 0.125, 0.5, 0.25, 0\n"
                "def c2, 0.25, 0.125, 0, 0\nmad r0, c0, c1, c2\nmov oC0, r0\n", NULL, 0, 0,
                0.3125f, 0.25f, 0.1875f, 0.0f);
}

/* ---- bytecode ---- */

static const char *const round_trip_sources[] = {
  "ps_1_1\ntex t0\ndp3_sat r0, t0_bx2, v0_bx2\n",
  "ps_1_4\ndef c0, 0.75, 0.25, 0.5, 1\ntexld r1, t0\ntexcrd r2.xyz, t1_dz.xyz\nphase\n"
  "add_x2 r0.xyz, r1, r2_bias\n+mov r0.w, r1.z\ncnd r0, r0, r1, 1-r2\n",
  "ps_2_0\ndef c1, 0.5, 0.25, 0, 1\ndcl t0.xy\ndcl_2d s0\ndcl_cube s1\ntexld r0, t0, s0\n"
  "texldp_pp r1, t0, s1\nmul r1, r0, c0\nmad_sat r0.xyz, r1, c1.x, -c1.y\nmov oC0, r0\n",
  "ps_3_0\ndefi i0, 4, 1, 2, 0\ndefb b0, true\ndcl_texcoord v0.xy\ndcl_color1 v1\ndcl vFace\ndcl_2d s0\n"
  "mov r0, c1\nloop aL, i0\nadd r0, r0, c0[aL]\nbreak_gt r0.x, c2.x\nendloop\nif b0\nmov r0.z, -r0_abs.wzx\nendif\n"
  "setp_le p0, r0, v1\n(!p0.y) texldl r1, v0, s0\ncall l1\nmov oC0, r0\nret\nlabel l1\ndsx r1, r0\nret\n",
};

static void
test_bytecode (void)
{
  for (size_t i = 0; i < G_N_ELEMENTS (round_trip_sources); i++)
    {
      const char *src = round_trip_sources[i];
      SlDiagnostics *d = sl_diagnostics_new ();
      D9Shader *a = d9_assemble (src, strlen (src), "rt", d);
      CHECK (a, "round trip %zu: does not assemble", i);
      if (!a)
        {
          char *t = sl_diagnostics_format (d);
          fprintf (stderr, "%s", t);
          g_free (t);
          sl_diagnostics_free (d);
          continue;
        }
      char *text = d9_print (a);
      /* dis prints the canonical text the assembler reads back. */
      CHECK (!strcmp (text, src), "round trip %zu: printed\n%s\nexpected\n%s", i, text, src);
      GByteArray *bc = d9_encode (a);
      CHECK (sl_detect_language ((const char *) bc->data, bc->len) == SL_LANGUAGE_D3D9_BYTECODE,
             "round trip %zu: bytecode not detected", i);
      D9Shader *b = d9_decode (bc->data, bc->len, "rt", d);
      CHECK (b, "round trip %zu: bytecode does not decode", i);
      if (b)
        {
          char *text2 = d9_print (b);
          CHECK (!strcmp (text, text2), "round trip %zu: decoded\n%s\nvs\n%s", i, text2, text);
          GByteArray *bc2 = d9_encode (b);
          CHECK (bc2->len == bc->len && !memcmp (bc2->data, bc->data, bc->len), "round trip %zu: re-encoding differs", i);
          g_byte_array_free (bc2, TRUE);
          g_free (text2);
          d9_shader_free (b);
          /* Same pixels from text and from bytecode. */
          SlProgram *pt = compile (src, (size_t) -1, SL_LANGUAGE_D3D9_ASM, NULL);
          SlProgram *pb = compile ((const char *) bc->data, bc->len, SL_LANGUAGE_AUTO, NULL);
          CHECK (pt && pb, "round trip %zu: does not compile", i);
          if (pt && pb)
            for (int k = 0; k < 3; k++)
              {
                float x[4], y[4];
                render (pt, NULL, k * 3, k * 2, x);
                render (pb, NULL, k * 3, k * 2, y);
                CHECK (near (x, y), "round trip %zu: text and bytecode render differently", i);
              }
          sl_program_unref (pt);
          sl_program_unref (pb);
        }
      g_byte_array_free (bc, TRUE);
      g_free (text);
      d9_shader_free (a);
      sl_diagnostics_free (d);
    }
}

/* A ps_2_0 effect as fxc writes it, built by hand: CTAB naming
 * "Amount" (float, c0, default 0.5) and "input" (sampler2D, s0), then
 *   dcl t0.xy; dcl_2d s0; texld r0, t0, s0; mul r0, r0, c0.x; mov oC0, r0 */
static const uint32_t wpf_effect[] = {
  0xffff0200,
  0x0025fffe,           /* comment: 37 words */
  0x42415443,           /* CTAB; offsets below count from here + 4 */
  28, 132, 0xffff0200, 2, 28, 0, 136,
  68, 2, 1, 76, 100,    /* Amount: FLOAT4 c0, 1 register, type @76, default @100 */
  92, 3, 1, 116, 0,     /* input: SAMPLER s0, 1 register, type @116 */
  0x756f6d41, 0x0000746e,                     /* @68 "Amount" */
  0x00030000, 0x00010001, 0x00000001, 0,      /* @76 scalar float, 1x1, 1 element */
  0x75706e69, 0x00000074,                     /* @92 "input" */
  0x3f000000, 0, 0, 0,                        /* @100 default 0.5 */
  0x000c0004, 0x00010001, 0x00000001, 0,      /* @116 object sampler2D */
  0x00007367,                                 /* @132 "gs" */
  0x325f7370, 0x0000305f,                     /* @136 "ps_2_0" */
  0x0200001f, 0x80000000, 0xb0030000,          /* dcl t0.xy */
  0x0200001f, 0x90000000, 0xa00f0800,          /* dcl_2d s0 */
  0x03000042, 0x800f0000, 0xb0e40000, 0xa0e40800, /* texld r0, t0, s0 */
  0x03000005, 0x800f0000, 0x80e40000, 0xa0000000, /* mul r0, r0, c0.x */
  0x02000001, 0x800f0800, 0x80e40000,          /* mov oC0, r0 */
  0x0000ffff,
};

/* A result shift outside -3 … 3 (the token has room for -8 … 7) is no
 * instruction modifier: check and dis both refuse it, with the same
 * message, instead of indexing the printer's table out of range. */
static void
test_bad_shift (void)
{
  const uint32_t words[] = {
    0xffff0104,                          /* ps_1_4 */
    0x00000001, 0x850f0000, 0x90e40000,  /* mov r0 with shift 5, v0 */
    0x0000ffff,
  };
  char *errors = NULL;
  SlProgram *p = compile ((const char *) words, sizeof words, SL_LANGUAGE_D3D9_BYTECODE, &errors);
  CHECK (!p && errors && strstr (errors, "result shift 5 names no instruction modifier"),
         "shift 5 accepted or wrong message: %s", errors ? errors : "(none)");
  g_free (errors);
  sl_program_unref (p);
  SlCompileOptions o = { .source = (const char *) words, .length = sizeof words,
                         .language = SL_LANGUAGE_D3D9_BYTECODE };
  SlDiagnostics *d = sl_diagnostics_new ();
  char *text = sl_disassemble (&o, d);
  char *msgs = sl_diagnostics_format (d);
  CHECK (!text && strstr (msgs, "result shift 5 names no instruction modifier"),
         "dis of shift 5: %s / %s", text ? text : "(none)", msgs);
  g_free (msgs);
  g_free (text);
  sl_diagnostics_free (d);
}

static void
test_ctab (void)
{
  /* Lay out the hand-made CTAB precisely: offsets are from the 'CTAB' tag's end. */
  uint32_t words[G_N_ELEMENTS (wpf_effect)];
  memcpy (words, wpf_effect, sizeof words);
  SlProgram *p = compile ((const char *) words, sizeof words, SL_LANGUAGE_AUTO, NULL);
  CHECK (p, "hand-made bytecode does not compile");
  if (!p)
    return;
  const SlParam *amount = sl_program_find_param (p, "Amount");
  CHECK (amount && amount->offset == 0 && amount->rows == 1 && amount->columns == 1, "Amount reflected wrongly");
  CHECK (amount && amount->default_value && amount->default_value[0] == 0.5f, "Amount default is not 0.5");
  CHECK (sl_program_get_n_samplers (p) == 1 && !strcmp (sl_program_get_sampler (p, 0)->name, "input"),
         "sampler 'input' not reflected");
  float got[4];
  render (p, NULL, 3, 5, got);
  float want[4] = { tx (3) * 0.5f, ty (5) * 0.5f, 0.125f, 0.5f };
  CHECK (near (got, want), "CTAB default: %g %g %g %g", got[0], got[1], got[2], got[3]);
  render (p, "Amount=2", 3, 5, got);
  float want2[4] = { tx (3) * 2, ty (5) * 2, 0.5f, 2 };
  CHECK (near (got, want2), "Amount=2: %g %g %g %g", got[0], got[1], got[2], got[3]);
  /* The disassembly names the constants and re-assembles to the same program. */
  SlCompileOptions o = { .source = (const char *) words, .length = sizeof words };
  char *text = sl_disassemble (&o, NULL);
  CHECK (text && strstr (text, "//   float Amount;\n") && strstr (text, "//   Amount c0 1\n")
         && strstr (text, "texld r0, t0, s0\nmul r0, r0, c0.x\nmov oC0, r0\n"), "dis output:\n%s", text ? text : "(none)");
  SlProgram *q = text ? compile (text, (size_t) -1, SL_LANGUAGE_AUTO, NULL) : NULL;
  CHECK (q && sl_program_find_param (q, "Amount"), "re-assembled listing lost the name 'Amount'");
  if (q)
    {
      render (q, "Amount=2", 3, 5, got);
      CHECK (near (got, want2), "re-assembled: %g %g %g %g", got[0], got[1], got[2], got[3]);
    }
  sl_program_unref (q);
  g_free (text);
  sl_program_unref (p);
  /* Truncated and corrupted bytecode give diagnostics, not crashes. */
  for (size_t n = 4; n < sizeof words; n += 4)
    {
      char *errors = NULL;
      SlProgram *t = compile ((const char *) words, n, SL_LANGUAGE_D3D9_BYTECODE, &errors);
      CHECK (!t && errors && *errors, "truncated at %zu bytes: no error", n);
      g_free (errors);
      sl_program_unref (t);
    }
  words[3] = 0xfffffff0;   /* CTAB creator offset far out of range */
  words[7] = 0x7fffffff;   /* ConstantInfo offset out of range */
  char *errors = NULL;
  SlProgram *bad = compile ((const char *) words, sizeof words, SL_LANGUAGE_AUTO, &errors);
  CHECK (!bad && errors && strstr (errors, "malformed CTAB constant table"), "bad CTAB: %s", errors);
  g_free (errors);
}

int
main (void)
{
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        float *t = texels + (y * W + x) * 4;
        t[0] = tx (x), t[1] = ty (y), t[2] = 0.25f, t[3] = 1.0f;
      }
  test_arithmetic ();
  test_textures ();
  test_flow ();
  test_profiles ();
  test_errors ();
  test_read_ports ();
  test_bytecode ();
  test_ctab ();
  test_bad_shift ();
  if (failures)
    fprintf (stderr, "%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
