// title: Box Blur
// description: Average of a square of pixels: a fast, even blur.
// menu: <Image>/Filters/Shaders/Blur
// license: LGPL-3.0-or-later
#include "ReShade.fxh"

// Separable: a pass averages each row segment into a float target, a
// second pass averages those along the columns.  Colour is weighted by
// alpha (transparent pixels do not darken edges), so the first pass
// reads single texels and stores alpha-weighted sums; the second reads
// two neighbouring rows with one bilinear tap, which is exact for equal
// weights.

/// <summary>Half the side of the averaged square, in pixels.</summary>
uniform int radius < string UIName = "Radius"; int UIMin = 0; int UIMax = 16; > = 4;

texture RowsTex { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RGBA32F; };
sampler Rows { Texture = RowsTex; MagFilter = LINEAR; MinFilter = LINEAR; AddressU = CLAMP; AddressV = CLAMP; };
// Linear, though every tap is at a texel centre: that reads the texel
// exactly, and rows of such taps take the VM's faster path.
sampler Src { Texture = ReShade::BackBufferTex; MagFilter = LINEAR; MinFilter = LINEAR; AddressU = CLAMP; AddressV = CLAMP; };

float4 premultiplied (float4 c) { return float4 (c.rgb * c.a, c.a); }

// The taps are written out under ifs on i <= r: once the radius is known
// the conditions are constants, the compiler keeps the taps taken and
// drops the rest, so a pixel does only its reads and their sum (a loop
// pays its bookkeeping in every pixel).
#define ROW_TAP(i) \
  if ((i) <= r) \
    { \
      float4 a = tex2D (Src, uv + float2 ((i) * BUFFER_RCP_WIDTH, 0)); \
      float4 b = tex2D (Src, uv - float2 ((i) * BUFFER_RCP_WIDTH, 0)); \
      sum += float4 (a.rgb * a.a + b.rgb * b.a, a.a + b.a); \
    }

float4 SumRows (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  int r = clamp (radius, 0, 16);
  float4 sum = premultiplied (tex2D (Src, uv));
  ROW_TAP (1) ROW_TAP (2) ROW_TAP (3) ROW_TAP (4) ROW_TAP (5) ROW_TAP (6) ROW_TAP (7) ROW_TAP (8)
  ROW_TAP (9) ROW_TAP (10) ROW_TAP (11) ROW_TAP (12) ROW_TAP (13) ROW_TAP (14) ROW_TAP (15) ROW_TAP (16)
  return sum / (2 * r + 1);
}

// Rows i and i + 1 at once, halfway between them; the last row alone
// when r is odd.
#define COLUMN_PAIR(i) \
  if ((i) < r) \
    { \
      float2 o = float2 (0, ((i) + 0.5) * BUFFER_RCP_HEIGHT); \
      sum += 2.0 * (tex2D (Rows, uv + o) + tex2D (Rows, uv - o)); \
    } \
  else if ((i) == r) \
    { \
      float2 o = float2 (0, (i) * BUFFER_RCP_HEIGHT); \
      sum += tex2D (Rows, uv + o) + tex2D (Rows, uv - o); \
    }

float4 SumColumns (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  int r = clamp (radius, 0, 16);
  float4 sum = tex2D (Rows, uv);
  COLUMN_PAIR (1) COLUMN_PAIR (3) COLUMN_PAIR (5) COLUMN_PAIR (7)
  COLUMN_PAIR (9) COLUMN_PAIR (11) COLUMN_PAIR (13) COLUMN_PAIR (15)
  sum /= 2 * r + 1;
  return float4 (sum.a > 0.0 ? sum.rgb / sum.a : 0.0, sum.a);
}

technique BoxBlur
{
  pass Rows { VertexShader = PostProcessVS; PixelShader = SumRows; RenderTarget = RowsTex; }
  pass Columns { VertexShader = PostProcessVS; PixelShader = SumColumns; }
}
