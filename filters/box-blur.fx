// title: Box Blur
// description: Average of a square of pixels: a fast, even blur.
// menu: <Image>/Filters/Shaders/Blur
// license: LGPL-3.0-or-later
#include "ReShade.fxh"

// Separable: a pass averages each row segment into a float target, a
// second pass averages those along the columns.  Colour is weighted by
// alpha (transparent pixels do not darken edges): a first pass stores the
// alpha-weighted colour, so that both blur passes can read two
// neighbouring texels with one bilinear tap, which is exact for equal
// weights (half the taps).

/// <summary>Half the side of the averaged square, in pixels.</summary>
uniform int radius < string UIName = "Radius"; int UIMin = 0; int UIMax = 16; > = 4;

texture WeightedTex { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RGBA32F; };
sampler Weighted { Texture = WeightedTex; MagFilter = LINEAR; MinFilter = LINEAR; AddressU = CLAMP; AddressV = CLAMP; };
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
float4 Weigh (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return premultiplied (tex2D (Src, uv));
}

// Taps i and i + 1 on both sides as one bilinear tap between them, or
// tap r alone when it is the last.
#define ROW_PAIR(i) \
  if ((i) < r) \
    { \
      float2 o = float2 (((i) + 0.5) * BUFFER_RCP_WIDTH, 0); \
      sum += 2.0 * (tex2D (Weighted, uv + o) + tex2D (Weighted, uv - o)); \
    } \
  else if ((i) == r) \
    { \
      float2 o = float2 ((i) * BUFFER_RCP_WIDTH, 0); \
      sum += tex2D (Weighted, uv + o) + tex2D (Weighted, uv - o); \
    }

float4 SumRows (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  int r = clamp (radius, 0, 16);
  float4 sum = tex2D (Weighted, uv);
  ROW_PAIR (1) ROW_PAIR (3) ROW_PAIR (5) ROW_PAIR (7)
  ROW_PAIR (9) ROW_PAIR (11) ROW_PAIR (13) ROW_PAIR (15)
  return sum / (2 * r + 1);
}

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
  pass Weigh { VertexShader = PostProcessVS; PixelShader = Weigh; RenderTarget = WeightedTex; }
  pass Rows { VertexShader = PostProcessVS; PixelShader = SumRows; RenderTarget = RowsTex; }
  pass Columns { VertexShader = PostProcessVS; PixelShader = SumColumns; }
}
