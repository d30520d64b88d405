/* Pins the span VM's results bit for bit.
 *
 * Renders the benchmark shaders (the .hlsl files of bench/) and a set of shaders that
 * reach the other paths of the VM (control flow, discard, integer ops,
 * derivatives, every sampler filter and address mode, textures smaller than
 * the viewport or windowed, several targets, rectangles that cut spans)
 * into targets prefilled with a pattern, at every instruction-set level the
 * CPU has, and hashes every output bit.  Each hash must equal the one
 * recorded below, taken from the VM before its speed work, and every level
 * must agree with the baseline one: a faster VM may not change a single
 * bit of any result, and the hashes of the cases also cover the pixels a
 * render must leave alone.  Every NaN hashes alike: which of two NaN
 * operands an x86 instruction passes on depends on operand order, which
 * the compiler picks differently per level, and no result depends on it.
 *
 * Each case also renders once with fusion switched off
 * (SHADERLIB_NO_FUSION), which must give the baseline level's bits.
 *
 * SL_EXACT_PRINT=1 prints the table instead of checking it (to record the
 * hashes of a deliberate change of results, which then needs its reason in
 * the commit); SL_EXACT_DUMP=DIR writes each output as raw floats to
 * DIR/CASE-LEVEL-TARGET.f32 for comparing two builds. */
#include "shaderlib.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum
{
  TEX_SMOOTH,      /* [-0.2, 1.2] pattern with hash noise */
  TEX_SPECIAL      /* the same with NaN, infinities, -0 and subnormals */
} TexKind;

typedef struct
{
  int x, y, w, h;
} Rect;

typedef struct
{
  const char *name;
  const char *file;        /* bench/ file, or NULL */
  const char *source;      /* inline HLSL when file is NULL */
  int         vw, vh;      /* viewport */
  int         tw, th;      /* texture size (0: the viewport's) */
  TexKind     tex;
  int         sampler;     /* index into samplers[], -1: the shader's own */
  bool        window;      /* hand the texture as a window with a margin */
  bool        two_levels;  /* give the texture a second mip level */
  int         n_targets;
  int         band;        /* rows per render call; 0: one call for all */
  Rect        rect;        /* w == 0: the whole viewport */
  guint64     hash;        /* recorded */
} Case;

static const char cf_src[] =
  "sampler2D s : register(s0);\n"
  "float4 main(float2 uv : TEXCOORD0) : COLOR0 {\n"
  "  float4 c = tex2D(s, uv);\n"
  "  float acc = 0;\n"
  "  for (int i = 0; i < 8; i++) { if (c.r * 8 < i) break; acc += sin(c.g * i); }\n"
  "  if (c.b > 0.5) acc = exp(acc); else acc = log(abs(acc) + 1e-3);\n"
  "  clip(c.a - 0.3);\n"
  "  return float4(acc, pow(abs(c.r), c.g * 3), frac(uv.x * 7.3), c.a);\n"
  "}\n";

static const char int_src[] =
  "sampler2D s : register(s0);\n"
  "float4 main(float2 uv : TEXCOORD0) : COLOR0 {\n"
  "  float4 c = tex2D(s, uv);\n"
  "  int2 p = int2(uv * float2(203, 67));\n"
  "  int v = (p.x * 7 + p.y * 13) % 17;\n"
  "  uint u = asuint(c.r) >> 3;\n"
  "  return float4(v / 17.0, (u & 255) / 255.0, (float) (p.x ^ p.y) / 256.0, min(c.g, c.b));\n"
  "}\n";

static const char deriv_src[] =
  "sampler2D s : register(s0);\n"
  "float4 main(float2 uv : TEXCOORD0) : COLOR0 {\n"
  "  float4 c = tex2D(s, uv);\n"
  "  return float4(ddx(c.r) * 10, ddy(c.g) * 10, fwidth(uv.x * 100), atan2(c.b - 0.5, c.a - 0.5));\n"
  "}\n";

static const char warp_src[] =
  "sampler2D s : register(s0);\n"
  "float4 main(float2 uv : TEXCOORD0) : COLOR0 {\n"
  "  float2 q = uv * 1.7 - 0.35 + 0.05 * sin(uv.yx * 31.0);\n"
  "  return tex2D(s, q) * 0.75 + tex2D(s, q.yx + 0.013) * 0.25;\n"
  "}\n";

static const char lod_src[] =
  "sampler2D s : register(s0);\n"
  "float4 main(float2 uv : TEXCOORD0) : COLOR0 {\n"
  "  return tex2Dlod(s, float4(uv * 1.3, 0, uv.x * 1.5)) + tex2D(s, uv * 3.0) * 0.5;\n"
  "}\n";

static const char mrt_src[] =
  "sampler2D s : register(s0);\n"
  "struct PS_OUT { float4 a : COLOR0; float4 b : COLOR1; };\n"
  "PS_OUT main(float2 uv : TEXCOORD0) {\n"
  "  PS_OUT o;\n"
  "  float4 c = tex2D(s, uv);\n"
  "  o.a = saturate(c.bgra * 2 - 0.5);\n"
  "  o.b = float4(sqrt(abs(c.rgb)), rsqrt(c.a + 1.5));\n"
  "  return o;\n"
  "}\n";

static const char math_src[] =
  "sampler2D s : register(s0);\n"
  "float4 main(float2 uv : TEXCOORD0) : COLOR0 {\n"
  "  float4 c = tex2D(s, uv);\n"
  "  float3 e = float3(exp2(c.r * 4 - 2), log2(abs(c.g) + 0.01), exp(c.b - 0.5));\n"
  "  float3 l = lerp(e, pow(saturate(c.rgb), 2.2), 0.3);\n"
  "  return float4(l, smoothstep(0.2, 0.8, c.a) + step(0.5, uv.x));\n"
  "}\n";

/* Reads a whole number of texels from the pixel (for a 203×67 viewport),
 * summed the ways blurs sum them: plain adds, weighted by a constant, by
 * the texel's own alpha, one component into another, one component
 * alone, reaching past the edges. */
static const char taps_src[] =
  "sampler2D s : register(s0);\n"
  "float4 main(float2 uv : TEXCOORD0) : COLOR0 {\n"
  "  float4 sum = tex2D(s, uv);\n"
  "  sum += tex2D(s, uv + float2(1.0 / 203.0, 0));\n"
  "  float4 b = tex2D(s, uv - float2(2.0 / 203.0, 1.0 / 67.0));\n"
  "  sum.rgb += b.rgb * b.a;\n"
  "  sum.a += b.a;\n"
  "  sum += tex2D(s, uv + float2(0, 3.0 / 67.0)) * 0.25;\n"
  "  float4 d = tex2D(s, uv + float2(-40.0 / 203.0, 0));\n"
  "  sum.xy += d.zw;\n"
  "  float e = tex2D(s, uv + float2(5.0 / 203.0, -70.0 / 67.0)).g;\n"
  "  float4 f = tex2D(s, uv + float2(150.0 / 203.0, 2.0 / 67.0));\n"
  "  return sum * 0.2 + e + f * f.a;\n"
  "}\n";

/* Each pair the span emitter fuses (SUB, MUL or MAD then MAD, MAD then
 * SAT, SAT then POW, in every operand form), so that the fused forms are held to the pairs'
 * bits; the hashes were recorded before the fusion existed. */
static const char pairs_src[] =
  "sampler2D s : register(s0);\n"
  "float4 main(float2 uv : TEXCOORD0) : COLOR0 {\n"
  "  float4 c = tex2D(s, uv);\n"
  "  float a = (c.r - c.g) * 1.5 + c.b;\n"
  "  float b = (c.g - 0.25) * 3.0 + c.a;\n"
  "  float d = (c.b - 0.5) * 1.25 + 0.5;\n"
  "  float e = pow(saturate(c.a - c.b), c.r * 4.0);\n"
  "  float f = pow(saturate(c.r + c.b), 2.2);\n"
  "  float g = c.b * 0.5 + (c.g * 0.25 + c.r);\n"
  "  float h = c.a * 0.7 + c.g * 0.3;\n"
  "  float m = saturate(c.r * 0.6 + c.g) + saturate(c.g * c.b + c.a) + saturate(c.a * 3.0 - 1.0);\n"
  "  return float4(a + e, b + g, d * h, f + m);\n"
  "}\n";

/* Runs of taps each summing into the sums before it, as blurs read:
 * plain, weighted by a constant per tap, weighted by each texel's alpha;
 * the VM sums such a chain in machine registers (SlVmSample.chain).  The
 * offsets reach past the edges, so edge spans take the taps one by one.
 * Its hashes were recorded again with the fix of span_fuse.c's folding
 * of a coordinate whose TEXCOORD register is overwritten: the last tap's
 * y is read more than a window after the ADD placing it, and the old
 * hashes pinned the garbage the edge spans then read.  The new ones are
 * also what the program gives with no fusion at all. */
static const char chain_src[] =
  "sampler2D s : register(s0);\n"
  "float4 premul (float4 sum, float4 c) { return float4 (c.rgb * c.a + sum.rgb, sum.a + c.a); }\n"
  "float4 main(float2 uv : TEXCOORD0) : COLOR0 {\n"
  "  float4 a = tex2D(s, uv);\n"
  "  a += tex2D(s, uv + float2(1.0 / 203.0, 0));\n"
  "  a += tex2D(s, uv - float2(1.0 / 203.0, 0));\n"
  "  a += tex2D(s, uv + float2(70.0 / 203.0, 2.0 / 67.0));\n"
  "  a += tex2D(s, uv - float2(3.0 / 203.0, 1.0 / 67.0));\n"
  "  float4 w = tex2D(s, uv) * 0.4;\n"
  "  w = mad(tex2D(s, uv + float2(0, 1.0 / 67.0)), 0.25, w);\n"
  "  w = mad(tex2D(s, uv - float2(0, 1.0 / 67.0)), 0.2, w);\n"
  "  w = mad(tex2D(s, uv + float2(0, 30.0 / 67.0)), 0.1, w);\n"
  "  float4 p = premul (0.0, tex2D(s, uv));\n"
  "  p = premul (p, tex2D(s, uv + float2(2.0 / 203.0, 0)));\n"
  "  p = premul (p, tex2D(s, uv - float2(2.0 / 203.0, 0)));\n"
  "  p = premul (p, tex2D(s, uv + float2(-100.0 / 203.0, 0)));\n"
  "  return a * 0.2 + w + p * 0.25;\n"
  "}\n";

/* Bilinear rows of consecutive texels (the VM splits them once and
 * blends them as runs) where some lanes weigh a corner zero: every other
 * column sits on a texel centre horizontally, every other row
 * vertically, so one row of a span may have fractions while the other
 * has none, and with special texels a corner weighed zero must not
 * bring its NaN, infinity or -0 into the sum. */
static const char rows_src[] =
  "sampler2D s : register(s0);\n"
  "float4 main(float2 uv : TEXCOORD0) : COLOR0 {\n"
  "  float sx = step(0.5, frac(uv.x * 101.5)) * 0.3 / 203.0;\n"
  "  float sy = step(0.5, frac(uv.y * 33.5)) * 0.4 / 67.0;\n"
  "  float4 a = tex2D(s, uv + float2(sx, sy));\n"
  "  float4 b = tex2D(s, uv + float2(0.5 / 203.0, sy));\n"
  "  float4 c = tex2D(s, uv + float2(sx, 0));\n"
  "  float4 d = tex2D(s, uv + float2(0, sy + 0.25 / 67.0));\n"
  "  float4 e = tex2D(s, uv + float2(sx - 1.5 / 203.0, sy + 2.0 / 67.0));\n"
  "  float4 f = tex2D(s, uv + float2(0, sy));\n"
  "  return float4(a.x + b.y * 0.5 + c.z * 0.25 + d.w * 0.125, e.x + a.y + c.w,\n"
  "                b.x + d.z + e.w - a.z, f.x);\n"
  "}\n";

/* Sampler states the cases may pick (sl_binding_set_sampler). */
enum { S_POINT_WRAP, S_LINEAR_MIRROR, S_LINEAR_BORDER, S_POINT_BORDER, S_LINEAR_MIP, N_SAMPLERS };

static void
make_sampler (int which, SlSamplerState *s)
{
  sl_sampler_state_init_default (s);
  switch (which)
    {
    case S_POINT_WRAP:
      s->min_filter = s->mag_filter = SL_FILTER_POINT;
      s->address_u = s->address_v = SL_ADDRESS_WRAP;
      break;
    case S_LINEAR_MIRROR:
      s->address_u = SL_ADDRESS_MIRROR;
      s->address_v = SL_ADDRESS_MIRROR_ONCE;
      break;
    case S_LINEAR_BORDER:
    case S_POINT_BORDER:
      if (which == S_POINT_BORDER)
        s->min_filter = s->mag_filter = SL_FILTER_POINT;
      s->address_u = s->address_v = SL_ADDRESS_BORDER;
      s->border_color[0] = 0.25f;
      s->border_color[1] = 0.5f;
      s->border_color[2] = 0.75f;
      s->border_color[3] = 1.0f;
      break;
    case S_LINEAR_MIP:
      s->mip_filter = SL_FILTER_LINEAR;
      break;
    }
}

#define FULL { 0, 0, 0, 0 }

/* alu, alu-special, control-flow, math, pairs and pairs-special were
 * recorded again when log2's series (scalar_ops.h) became a near-minimax
 * fit of three terms in place of five Taylor terms, for pow's speed: log2,
 * log and pow round differently for about one argument in two hundred,
 * by a unit or two in the last place (no more than 2^-21 absolute in
 * these renders), within the same error bounds (test-approx). */

static Case cases[] = {
  { "point", "point.hlsl", NULL, 203, 67, 0, 0, TEX_SMOOTH, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0x5653d8e79e68a247) },
  { "point-1024-one-call", "point.hlsl", NULL, 1024, 80, 0, 0, TEX_SMOOTH, -1, false, false, 1, 0,
    FULL, G_GUINT64_CONSTANT (0x80173baf5c6a932a) },
  { "point-special", "point.hlsl", NULL, 203, 67, 0, 0, TEX_SPECIAL, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0xffb33d0b34ba775b) },
  { "point-magnified", "point.hlsl", NULL, 203, 67, 61, 37, TEX_SMOOTH, -1, false, false, 1, 16,
    FULL, G_GUINT64_CONSTANT (0xba425f45394dab4c) },
  { "point-rect", "point.hlsl", NULL, 203, 67, 0, 0, TEX_SMOOTH, -1, false, false, 1, 0,
    { 5, 3, 77, 9 }, G_GUINT64_CONSTANT (0xcb8463bac2f7425b) },
  { "point-window", "point.hlsl", NULL, 203, 67, 0, 0, TEX_SMOOTH, -1, true, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0x1731c6027b429f40) },
  { "alu", "alu.hlsl", NULL, 203, 67, 0, 0, TEX_SMOOTH, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0x7c065d41ef12ae0c) },
  { "alu-special", "alu.hlsl", NULL, 203, 67, 0, 0, TEX_SPECIAL, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0xc5f6b1f54f6ae229) },
  { "sample", "sample.hlsl", NULL, 203, 67, 0, 0, TEX_SMOOTH, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0x3b72652a48c25f9d) },
  { "sample-256", "sample.hlsl", NULL, 256, 128, 0, 0, TEX_SMOOTH, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0x76736c6955f0f7a1) },
  { "sample-special", "sample.hlsl", NULL, 256, 64, 0, 0, TEX_SPECIAL, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0xb79d9372f4346b79) },
  { "sample-minified", "sample.hlsl", NULL, 101, 67, 203, 134, TEX_SMOOTH, -1, false, false, 1, 16,
    FULL, G_GUINT64_CONSTANT (0x83c2c61e0c087b00) },
  { "sample-window", "sample.hlsl", NULL, 203, 67, 0, 0, TEX_SMOOTH, -1, true, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0x4a3097626a949a51) },
  { "sample-rect", "sample.hlsl", NULL, 203, 67, 0, 0, TEX_SMOOTH, -1, false, false, 1, 0,
    { 31, 1, 70, 5 }, G_GUINT64_CONSTANT (0x89a661c699cccce0) },
  { "emboss", "emboss.hlsl", NULL, 203, 67, 0, 0, TEX_SMOOTH, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0xc1914422134b2247) },
  { "levels", "levels.hlsl", NULL, 203, 67, 0, 0, TEX_SMOOTH, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0x4e87f54940d086cb) },
  { "control-flow", NULL, cf_src, 203, 67, 0, 0, TEX_SMOOTH, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0x966ecad816e1ab34) },
  { "integers", NULL, int_src, 203, 67, 0, 0, TEX_SMOOTH, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0x24612f383a9c1f51) },
  { "derivatives", NULL, deriv_src, 203, 67, 0, 0, TEX_SMOOTH, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0xc3c5d763f87e6de9) },
  { "warp", NULL, warp_src, 203, 67, 0, 0, TEX_SMOOTH, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0x4c5c32eb2a49ee76) },
  { "warp-point-wrap", NULL, warp_src, 203, 67, 57, 41, TEX_SMOOTH, S_POINT_WRAP, false, false, 1,
    16, FULL, G_GUINT64_CONSTANT (0x57b0326e9e1ed676) },
  { "warp-mirror", NULL, warp_src, 203, 67, 57, 41, TEX_SMOOTH, S_LINEAR_MIRROR, false, false, 1,
    16, FULL, G_GUINT64_CONSTANT (0xc65f2c5f19e252e7) },
  { "warp-border", NULL, warp_src, 203, 67, 0, 0, TEX_SMOOTH, S_LINEAR_BORDER, false, false, 1, 16,
    FULL, G_GUINT64_CONSTANT (0x4f8dcccec951cff9) },
  { "warp-point-border", NULL, warp_src, 203, 67, 0, 0, TEX_SPECIAL, S_POINT_BORDER, false, false,
    1, 16, FULL, G_GUINT64_CONSTANT (0xe4bfbabd8e381210) },
  { "sample-border", "sample.hlsl", NULL, 203, 67, 0, 0, TEX_SMOOTH, S_LINEAR_BORDER, false, false,
    1, 16, FULL, G_GUINT64_CONSTANT (0xc88d4a442d60d527) },
  { "lod-mips", NULL, lod_src, 203, 67, 0, 0, TEX_SMOOTH, S_LINEAR_MIP, false, true, 1, 16, FULL,
    G_GUINT64_CONSTANT (0x664843a6835789fb) },
  { "two-targets", NULL, mrt_src, 203, 67, 0, 0, TEX_SPECIAL, -1, false, false, 2, 16, FULL,
    G_GUINT64_CONSTANT (0x9b14f09fc009b56c) },
  { "math", NULL, math_src, 203, 67, 0, 0, TEX_SMOOTH, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0x9a0f06a1ffa40f88) },
  { "pairs", NULL, pairs_src, 203, 67, 0, 0, TEX_SMOOTH, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0xb8c0cf7e45b75a6f) },
  { "pairs-special", NULL, pairs_src, 203, 67, 0, 0, TEX_SPECIAL, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0x23c6e7b3f0a23b38) },
  { "chain", NULL, chain_src, 203, 67, 0, 0, TEX_SMOOTH, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0xac30a583c2bdbb14) },
  { "chain-special", NULL, chain_src, 203, 67, 0, 0, TEX_SPECIAL, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0x0977dfbf84cf3f43) },
  { "chain-window", NULL, chain_src, 203, 67, 0, 0, TEX_SMOOTH, -1, true, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0x8a614ffbd63a293c) },
  { "taps", NULL, taps_src, 203, 67, 0, 0, TEX_SMOOTH, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0xdf17199abd16e2ab) },
  { "taps-special", NULL, taps_src, 203, 67, 0, 0, TEX_SPECIAL, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0x67400a849d82b79b) },
  { "taps-border", NULL, taps_src, 203, 67, 0, 0, TEX_SMOOTH, S_LINEAR_BORDER, false, false, 1,
    16, FULL, G_GUINT64_CONSTANT (0x0335d34b7b3d9309) },
  { "taps-point-wrap", NULL, taps_src, 203, 67, 0, 0, TEX_SPECIAL, S_POINT_WRAP, false, false, 1,
    16, FULL, G_GUINT64_CONSTANT (0x9e725035f0139c1f) },
  { "taps-mirror", NULL, taps_src, 203, 67, 0, 0, TEX_SMOOTH, S_LINEAR_MIRROR, false, false, 1,
    16, FULL, G_GUINT64_CONSTANT (0x84e5e5a769c58e2e) },
  { "taps-window", NULL, taps_src, 203, 67, 0, 0, TEX_SMOOTH, -1, true, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0x97c434c26fee47bb) },
  { "taps-rect", NULL, taps_src, 203, 67, 0, 0, TEX_SMOOTH, -1, false, false, 1, 0,
    { 61, 2, 140, 7 }, G_GUINT64_CONSTANT (0xde66389b668bef39) },
  { "taps-minified", NULL, taps_src, 203, 67, 211, 70, TEX_SMOOTH, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0x82543b4bc1b8cef5) },
  { "rows", NULL, rows_src, 203, 67, 0, 0, TEX_SMOOTH, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0x07a9b9b7b5fb4963) },
  { "rows-special", NULL, rows_src, 203, 67, 0, 0, TEX_SPECIAL, -1, false, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0xb774c3b0cea3bde1) },
  { "rows-window", NULL, rows_src, 203, 67, 0, 0, TEX_SPECIAL, -1, true, false, 1, 16, FULL,
    G_GUINT64_CONSTANT (0xcd13632cdef6e6c0) },
};

static float
pattern (int x, int y, int k, TexKind kind)
{
  uint32_t h = (uint32_t) (x * 73856093u) ^ (uint32_t) (y * 19349663u) ^ (uint32_t) (k * 83492791u);
  h *= 2654435761u;
  if (kind == TEX_SPECIAL && (h >> 24) < 12)
    {
      static const uint32_t specials[] = {
        0x7fc00000u, 0xffc00001u, 0x7f800000u, 0xff800000u, 0x80000000u, 0x00000001u,
        0x807fffffu, 0x00000000u, 0x3f800000u, 0x3f7fffffu, 0x7f7fffffu, 0x00800000u,
      };
      float f;
      memcpy (&f, &specials[h >> 24], 4);
      return f;
    }
  return 0.5f + 0.5f * sinf ((float) (x + 3 * k) * 0.05f) * cosf ((float) y * 0.07f)
         + 0.2f * ((float) (h >> 8) / 16777216.0f - 0.5f);
}

static guint64
fnv (guint64 h, const float *f, size_t n)
{
  for (size_t i = 0; i < n; i++)
    {
      uint32_t u;
      memcpy (&u, &f[i], 4);
      if ((u & 0x7fffffffu) > 0x7f800000u)
        u = 0x7fc00000u;          /* one NaN: see the file comment */
      for (int b = 0; b < 4; b++)
        h = (h ^ ((u >> (8 * b)) & 0xffu)) * G_GUINT64_CONSTANT (1099511628211);
    }
  return h;
}

static SlProgram *
compile (const Case *c)
{
  char *src = NULL, *path = NULL;
  gsize len;
  if (c->file)
    {
      path = g_build_filename (BENCH_DIR, c->file, NULL);
      if (!g_file_get_contents (path, &src, &len, NULL))
        g_error ("cannot read %s", path);
    }
  else
    {
      src = g_strdup (c->source);
      len = strlen (src);
    }
  SlDiagnostics *d = sl_diagnostics_new ();
  SlCompileOptions opt = { .source = src, .length = len, .filename = path ? path : c->name };
  SlProgram *p = sl_compile (&opt, d);
  if (!p)
    {
      char *s = sl_diagnostics_format (d);
      g_error ("%s: %s", c->name, s);
    }
  sl_diagnostics_free (d);
  g_free (src);
  g_free (path);
  return p;
}

/* Renders @c with the VM level the environment selects; returns the hash of
 * every target's floats (the untouched pattern around the rectangle too). */
static guint64
render (const Case *c, SlProgram *p)
{
  int tw = c->tw ? c->tw : c->vw, th = c->th ? c->th : c->vh;
  /* A window starts 7 columns and 5 rows in and leaves 9 and 4 out. */
  int wx = c->window ? 7 : 0, wy = c->window ? 5 : 0;
  int ww = c->window ? tw - 16 : tw, wh = c->window ? th - 9 : th;
  float *texels = g_new (float, (size_t) tw * th * 4);
  for (int y = 0; y < th; y++)
    for (int x = 0; x < tw; x++)
      for (int k = 0; k < 4; k++)
        texels[((size_t) y * tw + x) * 4 + k] = pattern (x, y, k, c->tex);
  int mw = (tw + 1) / 2, mh = (th + 1) / 2;
  float *mip = g_new (float, (size_t) mw * mh * 4);
  for (int y = 0; y < mh; y++)
    for (int x = 0; x < mw; x++)
      for (int k = 0; k < 4; k++)
        mip[((size_t) y * mw + x) * 4 + k] = pattern (x + 1000, y, k, c->tex);

  SlTexture tex;
  sl_texture_init_2d (&tex, tw, th, (size_t) tw * 4, texels);
  if (c->window)
    {
      tex.window_x = wx;
      tex.window_y = wy;
      tex.window_width = ww;
      tex.window_height = wh;
      tex.levels[0].texels = texels + ((size_t) wy * tw + wx) * 4;
    }
  if (c->two_levels)
    {
      tex.n_levels = 2;
      tex.levels[1] = (SlTextureLevel) { .width = mw, .height = mh, .depth = 1,
                                         .row_stride = (size_t) mw * 4,
                                         .slice_stride = (size_t) mw * mh * 4, .texels = mip };
    }

  SlDiagnostics *d = sl_diagnostics_new ();
  SlBinding *b = sl_binding_new (p);
  sl_binding_set_viewport (b, c->vw, c->vh);
  if (sl_program_find_param (p, "texel"))
    {
      float t[2] = { 1.0f / (float) c->vw, 1.0f / (float) c->vh };
      sl_binding_set_param (b, "texel", t, 2, d);
    }
  if (c->sampler >= 0)
    {
      SlSamplerState ss;
      make_sampler (c->sampler, &ss);
      sl_binding_set_sampler (b, 0, &ss);
    }
  if (!sl_binding_prepare (b, d))
    g_error ("%s: %s", c->name, sl_diagnostics_format (d));

  /* Targets two pixels wider than the viewport (a stride that is not the
   * width) and prefilled, so stray writes show in the hash. */
  size_t stride = (size_t) (c->vw + 2) * 4, n = stride * c->vh;
  float *out[2];
  for (int t = 0; t < c->n_targets; t++)
    {
      out[t] = g_new (float, n);
      for (size_t i = 0; i < n; i++)
        out[t][i] = -7.0f - (float) (i % 13);
    }
  Rect r = c->rect.w ? c->rect : (Rect) { 0, 0, c->vw, c->vh };
  SlScratch *scratch = sl_scratch_new ();
  const SlTexture *texs[SL_MAX_SLOTS] = { &tex };
  int band = c->band ? c->band : r.h;
  for (int y = r.y; y < r.y + r.h; y += band)
    {
      int rows = MIN (band, r.y + r.h - y);
      SlTarget at[2];
      for (int t = 0; t < c->n_targets; t++)
        at[t] = (SlTarget) { out[t] + (size_t) y * stride + (size_t) r.x * 4, stride };
      sl_binding_render (b, scratch, r.x, y, r.w, rows, texs, at, c->n_targets, d);
    }
  guint64 h = G_GUINT64_CONSTANT (14695981039346656037);
  for (int t = 0; t < c->n_targets; t++)
    {
      if (g_getenv ("SL_EXACT_DUMP"))
        {
          char *fn = g_strdup_printf ("%s/%s-%s-%d.f32", g_getenv ("SL_EXACT_DUMP"), c->name,
                                      g_getenv ("SL_VM_LEVEL"), t);
          g_file_set_contents (fn, (const char *) out[t], (gssize) (n * 4), NULL);
          g_free (fn);
        }
      h = fnv (h, out[t], n);
      g_free (out[t]);
    }
  sl_scratch_free (scratch);
  sl_binding_free (b);
  sl_diagnostics_free (d);
  g_free (texels);
  g_free (mip);
  return h;
}

int
main (void)
{
  bool print = g_getenv ("SL_EXACT_PRINT") != NULL;
  static const char *const levels[] = { "0", "2", "3", "4" };
  int failures = 0;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Case *c = &cases[i];
      SlProgram *p = compile (c);
      guint64 first = 0;
      for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
        {
          g_setenv ("SL_VM_LEVEL", levels[l], TRUE);
          const char *name = sl_vm_level_name ();
          guint64 h = render (c, p);
          if (l == 0)
            first = h;
          if (print)
            {
              if (l == 0)
                printf ("%-22s 0x%016" G_GINT64_MODIFIER "x\n", c->name, h);
              continue;
            }
          if (h != c->hash || h != first)
            {
              printf ("FAIL %-20s %-10s 0x%016" G_GINT64_MODIFIER "x, recorded 0x%016"
                      G_GINT64_MODIFIER "x\n", c->name, name, h, c->hash);
              failures++;
            }
          else
            printf ("ok   %-20s %s\n", c->name, name);
        }
      /* The same program with the span emitter's fused pairs and fused
       * reads switched off must give the same bits: fusion may only
       * reorder work (a coordinate folded past its register's life once
       * read garbage at the edges, and the hash pinned it). */
      g_setenv ("SL_VM_LEVEL", "0", TRUE);
      g_setenv ("SHADERLIB_NO_FUSION", "1", TRUE);
      guint64 plain = render (c, p);
      g_unsetenv ("SHADERLIB_NO_FUSION");
      if (!print && plain != first)
        {
          printf ("FAIL %-20s unfused    0x%016" G_GINT64_MODIFIER "x, fused 0x%016"
                  G_GINT64_MODIFIER "x\n", c->name, plain, first);
          failures++;
        }
      else if (!print)
        printf ("ok   %-20s unfused\n", c->name);
      sl_program_unref (p);
    }
  g_unsetenv ("SL_VM_LEVEL");
  if (!print)
    printf ("%d passed, %d failed\n", (int) G_N_ELEMENTS (cases) * 5 - failures, failures);
  return failures ? 1 : 0;
}
