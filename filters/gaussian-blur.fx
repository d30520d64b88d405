// title: Gaussian Blur
// description: Smooth, natural-looking blur computed in two separable passes.
// menu: <Image>/Filters/Shaders/Blur
// license: LGPL-3.0-or-later
#include "ReShade.fxh"

// Separable: a horizontal pass into a float target, then a vertical one.
// Colour is weighted by alpha (transparent pixels do not darken edges),
// so the first pass reads single texels and stores alpha-weighted sums;
// the second reads two neighbouring rows with one bilinear tap placed
// between them by their weights, which is exact.  Taps reach three
// deviations out.
//
// From std_dev HALF_FROM up the blur runs at half resolution instead: a
// pass averages each 2×2 block (alpha-weighted) into a half-size target,
// the two separable passes blur that with paired bilinear taps in both
// directions, and the last pass interpolates it back bilinearly.  The
// averaging and the interpolation widen the kernel by a variance of 1 px²
// (0.25 + 0.75), which the half-size deviation subtracts, so the result is
// a close approximation of the full-resolution blur (the README gives
// the measured error).  From QUARTER_FROM up the same runs at quarter
// size, the half-size target reduced once more by bilinear taps between
// 2×2 of its texels.  Passes of the paths not taken return at once.

/// <summary>Standard deviation of the blur, in pixels.</summary>
uniform float std_dev < string UIName = "Size"; float UIMin = 0.0; float UIMax = 20.0; float UIStep = 0.1; > = 3.0;

#define HALF_FROM 6.0
#define QUARTER_FROM 8.0
// One texel of margin all round holds the image's edge pixels, so the
// half-size target clamps to what the full-size image would: its edge
// pixels repeated, not the mean of the last two rows.
#define HALF_W ((BUFFER_WIDTH + 1) / 2 + 2)
#define HALF_H ((BUFFER_HEIGHT + 1) / 2 + 2)
#define QUARTER_W ((BUFFER_WIDTH + 3) / 4 + 2)
#define QUARTER_H ((BUFFER_HEIGHT + 3) / 4 + 2)

texture RowsTex { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RGBA32F; };
sampler Rows { Texture = RowsTex; MagFilter = LINEAR; MinFilter = LINEAR; AddressU = CLAMP; AddressV = CLAMP; };
texture HalfATex { Width = HALF_W; Height = HALF_H; Format = RGBA32F; };
sampler HalfA { Texture = HalfATex; MagFilter = LINEAR; MinFilter = LINEAR; AddressU = CLAMP; AddressV = CLAMP; };
texture HalfBTex { Width = HALF_W; Height = HALF_H; Format = RGBA32F; };
sampler HalfB { Texture = HalfBTex; MagFilter = LINEAR; MinFilter = LINEAR; AddressU = CLAMP; AddressV = CLAMP; };
texture QuarterATex { Width = QUARTER_W; Height = QUARTER_H; Format = RGBA32F; };
sampler QuarterA { Texture = QuarterATex; MagFilter = LINEAR; MinFilter = LINEAR; AddressU = CLAMP; AddressV = CLAMP; };
texture QuarterBTex { Width = QUARTER_W; Height = QUARTER_H; Format = RGBA32F; };
sampler QuarterB { Texture = QuarterBTex; MagFilter = LINEAR; MinFilter = LINEAR; AddressU = CLAMP; AddressV = CLAMP; };
// Linear, though every tap is at a texel centre: that reads the texel
// exactly, and rows of such taps take the VM's faster path.
sampler Src { Texture = ReShade::BackBufferTex; MagFilter = LINEAR; MinFilter = LINEAR; AddressU = CLAMP; AddressV = CLAMP; };

float sigma () { return max (std_dev, 0.01); }
bool half_size () { return std_dev >= HALF_FROM && std_dev < QUARTER_FROM; }
bool quarter_size () { return std_dev >= QUARTER_FROM; }
bool reduced () { return std_dev >= HALF_FROM; }
// The deviation at half size that gives sigma () after the 2×2 average
// and the bilinear interpolation back, in half-size pixels.
float half_sigma () { return sqrt (sigma () * sigma () - 1.0) * 0.5; }
// The same at quarter size: 1.25 px² for the 4×4 mean and 2.75 px² on
// average for the interpolation (between 1.75 and 3.75 by the pixel's
// place in its block).
float quarter_sigma () { return sqrt (sigma () * sigma () - 4.0) * 0.25; }

float4 premultiplied (float4 c) { return float4 (c.rgb * c.a, c.a); }

// Weight of tap i of a Gaussian exp (k i²) cut off after tap r.  The taps
// are written out below with constant indices under ifs on i <= r: once
// the uniforms are known every weight, offset and condition is a
// constant, the compiler keeps the taps taken and drops the rest, and a
// pixel does only its reads and their weighted sum (a loop would
// recompute the weights in every pixel and pay the loop's bookkeeping).
#define TAP_W(i) ((i) <= r ? exp (k * ((i) * (i))) : 0.0)
#define TAP_SUM_18 (TAP_W (1) + TAP_W (2) + TAP_W (3) + TAP_W (4) + TAP_W (5) + TAP_W (6) \
                    + TAP_W (7) + TAP_W (8) + TAP_W (9) + TAP_W (10) + TAP_W (11) + TAP_W (12) \
                    + TAP_W (13) + TAP_W (14) + TAP_W (15) + TAP_W (16) + TAP_W (17) + TAP_W (18))

// Pair j (from 1) of taps 2j - 1 and 2j as one bilinear tap placed
// between them by their weights (exact), on both sides.
#define PAIR(j) \
  if (2 * (j) - 1 <= r) \
    { \
      float w1 = TAP_W (2 * (j) - 1), w2 = TAP_W (2 * (j)); \
      float2 o = (2 * (j) - 1 + w2 / max (w1 + w2, 1e-30)) * step; \
      sum += (tex2D (t, uv + o) + tex2D (t, uv - o)) * ((w1 + w2) * norm); \
    }

// A Gaussian exp (-i²/2s²) out to tap r = ceil (3s) (at most 18) along
// step from a premultiplied, linearly filtered target; r = 0 leaves the
// centre tap alone (a path not taken).
float4 paired_blur (sampler t, float2 uv, float2 step, float s, int r)
{
  float k = -0.5 / (s * s);
  float norm = 1.0 / (1.0 + 2.0 * TAP_SUM_18);
  float4 sum = tex2D (t, uv) * norm;
  PAIR (1) PAIR (2) PAIR (3) PAIR (4) PAIR (5) PAIR (6) PAIR (7) PAIR (8) PAIR (9)
  return sum;
}

int radius_of (float s) { return (int) ceil (3.0 * s); }

// Tap i of the row pass on both sides, alpha-weighted.
#define ROW_TAP(i) \
  if ((i) <= r) \
    { \
      float w = TAP_W (i) * norm; \
      float4 a = tex2D (Src, uv + float2 ((i) * BUFFER_RCP_WIDTH, 0)); \
      float4 b = tex2D (Src, uv - float2 ((i) * BUFFER_RCP_WIDTH, 0)); \
      float wa = a.a * w, wb = b.a * w; \
      sum += float4 (a.rgb * wa + b.rgb * wb, wa + wb); \
    }

// Horizontal pass: taps at texel centres of the alpha-weighted colour
// (none on the reduced paths, whose passes leave this target unread).
float4 BlurRows (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float s = sigma ();
  int r = reduced () ? 0 : radius_of (s);
  float k = -0.5 / (s * s);
  float norm = 1.0 / (1.0 + 2.0 * TAP_SUM_18);
  float4 sum = premultiplied (tex2D (Src, uv)) * norm;
  ROW_TAP (1) ROW_TAP (2) ROW_TAP (3) ROW_TAP (4) ROW_TAP (5) ROW_TAP (6)
  ROW_TAP (7) ROW_TAP (8) ROW_TAP (9) ROW_TAP (10) ROW_TAP (11) ROW_TAP (12)
  ROW_TAP (13) ROW_TAP (14) ROW_TAP (15) ROW_TAP (16) ROW_TAP (17) ROW_TAP (18)
  return sum;
}

// Half size, first pass: the alpha-weighted mean of each 2×2 block (the
// last row or column of an odd-sized image repeats into its block).
float4 Reduce (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  if (!reduced ())
    return 0;
  // Centre of the block's top-left pixel, in image texture coordinates:
  // half-size texel x (margin included) covers pixels 2x - 2 and 2x - 1.
  float2 tl = (2.0 * uv * float2 (HALF_W, HALF_H) - 2.5) * BUFFER_PIXEL_SIZE;
  float2 d = BUFFER_PIXEL_SIZE;
  return 0.25 * (premultiplied (tex2D (Src, tl)) + premultiplied (tex2D (Src, tl + float2 (d.x, 0)))
                 + premultiplied (tex2D (Src, tl + float2 (0, d.y))) + premultiplied (tex2D (Src, tl + d)));
}

// Quarter size: the mean of 2×2 half-size texels is one bilinear tap
// between them; quarter texel x (margin included) covers half-size texels
// 2x - 1 and 2x (margin included), so the margin repeats the margin.
float4 Quarter (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  if (!quarter_size ())
    return 0;
  return tex2D (HalfA, (2.0 * uv * float2 (QUARTER_W, QUARTER_H) - 1.0) / float2 (HALF_W, HALF_H));
}

float4 QuarterRows (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  if (!quarter_size ())
    return 0;
  return paired_blur (QuarterA, uv, float2 (1.0 / QUARTER_W, 0), quarter_sigma (), radius_of (quarter_sigma ()));
}

float4 QuarterColumns (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  if (!quarter_size ())
    return 0;
  return paired_blur (QuarterB, uv, float2 (0, 1.0 / QUARTER_H), quarter_sigma (), radius_of (quarter_sigma ()));
}

float4 HalfRows (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  if (!half_size ())
    return 0;
  return paired_blur (HalfA, uv, float2 (1.0 / HALF_W, 0), half_sigma (), radius_of (half_sigma ()));
}

float4 HalfColumns (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  if (!half_size ())
    return 0;
  return paired_blur (HalfB, uv, float2 (0, 1.0 / HALF_H), half_sigma (), radius_of (half_sigma ()));
}

// Last pass: the vertical blur of the rows, or the half-size result
// interpolated back to full size; then colour un-weighted by alpha.
float4 BlurColumns (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float4 sum;
  if (quarter_size ())
    // Quarter-size texel x is centred on full-size pixel edge 4x - 2.
    sum = tex2D (QuarterA, (uv * BUFFER_SCREEN_SIZE * 0.25 + 1.0) / float2 (QUARTER_W, QUARTER_H));
  else if (reduced ())
    // Half-size texel x is centred on full-size pixel edge 2x - 1.
    sum = tex2D (HalfA, (uv * BUFFER_SCREEN_SIZE * 0.5 + 1.0) / float2 (HALF_W, HALF_H));
  else
    sum = paired_blur (Rows, uv, float2 (0, BUFFER_RCP_HEIGHT), sigma (), radius_of (sigma ()));
  return float4 (sum.a > 0.0 ? sum.rgb / sum.a : 0.0, sum.a);
}

technique GaussianBlur
{
  pass Reduce { VertexShader = PostProcessVS; PixelShader = Reduce; RenderTarget = HalfATex; }
  pass Quarter { VertexShader = PostProcessVS; PixelShader = Quarter; RenderTarget = QuarterATex; }
  pass QuarterRows { VertexShader = PostProcessVS; PixelShader = QuarterRows; RenderTarget = QuarterBTex; }
  pass QuarterColumns { VertexShader = PostProcessVS; PixelShader = QuarterColumns; RenderTarget = QuarterATex; }
  pass HalfRows { VertexShader = PostProcessVS; PixelShader = HalfRows; RenderTarget = HalfBTex; }
  pass HalfColumns { VertexShader = PostProcessVS; PixelShader = HalfColumns; RenderTarget = HalfATex; }
  pass Rows { VertexShader = PostProcessVS; PixelShader = BlurRows; RenderTarget = RowsTex; }
  pass Columns { VertexShader = PostProcessVS; PixelShader = BlurColumns; }
}
