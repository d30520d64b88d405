// title: Box Blur
// description: Average of a square of pixels: a fast, even blur.
// menu: <Image>/Filters/Shaders/Blur
// license: LGPL-3.0-or-later
#include "ReShade.fxh"

// Separable: a pass sums each row segment into a float target, a second
// pass sums those along the columns.  Colour is weighted by alpha
// (transparent pixels do not darken edges): the row pass weighs each
// texel as it adds it.  Every tap is a whole number of texels from the
// pixel, written as uv plus a constant: such a read is one texel (the VM
// copies it directly, linear filtering at a texel centre changes
// nothing), cheaper than a bilinear tap between two texels.

/// <summary>Half the side of the averaged square, in pixels.</summary>
uniform int radius < string UIName = "Radius"; int UIMin = 0; int UIMax = 16; > = 4;

texture RowsTex { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RGBA32F; };
sampler Rows { Texture = RowsTex; MagFilter = LINEAR; MinFilter = LINEAR; AddressU = CLAMP; AddressV = CLAMP; };
sampler Src { Texture = ReShade::BackBufferTex; MagFilter = LINEAR; MinFilter = LINEAR; AddressU = CLAMP; AddressV = CLAMP; };

// sum + (c.rgb * c.a, c.a): each tap costs one multiply-add a channel.
float4 add_weighted (float4 sum, float4 c) { return float4 (c.rgb * c.a + sum.rgb, sum.a + c.a); }

// The taps are written out under ifs on i <= r: once the radius is known
// the conditions are constants, the compiler keeps the taps taken and
// drops the rest, so a pixel does only its reads and their sum (a loop
// pays its bookkeeping in every pixel).
#define ROW_TAPS(i) \
  if ((i) <= r) \
    { \
      float2 o = float2 ((i) * BUFFER_RCP_WIDTH, 0); \
      sum = add_weighted (add_weighted (sum, tex2D (Src, uv + o)), tex2D (Src, uv - o)); \
    }

float4 SumRows (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  int r = clamp (radius, 0, 16);
  float4 sum = add_weighted (0.0, tex2D (Src, uv));
  ROW_TAPS (1) ROW_TAPS (2) ROW_TAPS (3) ROW_TAPS (4)
  ROW_TAPS (5) ROW_TAPS (6) ROW_TAPS (7) ROW_TAPS (8)
  ROW_TAPS (9) ROW_TAPS (10) ROW_TAPS (11) ROW_TAPS (12)
  ROW_TAPS (13) ROW_TAPS (14) ROW_TAPS (15) ROW_TAPS (16)
  return sum / (2 * r + 1);
}

#define COLUMN_TAPS(i) \
  if ((i) <= r) \
    { \
      float2 o = float2 (0, (i) * BUFFER_RCP_HEIGHT); \
      sum += tex2D (Rows, uv + o); \
      sum += tex2D (Rows, uv - o); \
    }

float4 SumColumns (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  int r = clamp (radius, 0, 16);
  float4 sum = tex2D (Rows, uv);
  COLUMN_TAPS (1) COLUMN_TAPS (2) COLUMN_TAPS (3) COLUMN_TAPS (4)
  COLUMN_TAPS (5) COLUMN_TAPS (6) COLUMN_TAPS (7) COLUMN_TAPS (8)
  COLUMN_TAPS (9) COLUMN_TAPS (10) COLUMN_TAPS (11) COLUMN_TAPS (12)
  COLUMN_TAPS (13) COLUMN_TAPS (14) COLUMN_TAPS (15) COLUMN_TAPS (16)
  sum /= 2 * r + 1;
  return float4 (sum.a > 0.0 ? sum.rgb / sum.a : 0.0, sum.a);
}

technique BoxBlur
{
  pass Rows { VertexShader = PostProcessVS; PixelShader = SumRows; RenderTarget = RowsTex; }
  pass Columns { VertexShader = PostProcessVS; PixelShader = SumColumns; }
}
