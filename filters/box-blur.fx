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

float4 SumRows (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  int r = clamp (radius, 0, 16);
  float4 sum = premultiplied (tex2D (Src, uv));
  [loop] for (int i = 1; i <= r; i++)
    {
      float2 o = float2 (i * BUFFER_RCP_WIDTH, 0);
      sum += premultiplied (tex2D (Src, uv + o)) + premultiplied (tex2D (Src, uv - o));
    }
  return sum / (2 * r + 1);
}

float4 SumColumns (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  int r = clamp (radius, 0, 16);
  float4 sum = tex2D (Rows, uv);
  // Rows i and i + 1 at once, halfway between them.
  [loop] for (int i = 1; i < r; i += 2)
    {
      float2 o = float2 (0, (i + 0.5) * BUFFER_RCP_HEIGHT);
      sum += 2.0 * (tex2D (Rows, uv + o) + tex2D (Rows, uv - o));
    }
  if (r % 2 == 1)
    {
      float2 o = float2 (0, r * BUFFER_RCP_HEIGHT);
      sum += tex2D (Rows, uv + o) + tex2D (Rows, uv - o);
    }
  sum /= 2 * r + 1;
  return float4 (sum.a > 0.0 ? sum.rgb / sum.a : 0.0, sum.a);
}

technique BoxBlur
{
  pass Rows { VertexShader = PostProcessVS; PixelShader = SumRows; RenderTarget = RowsTex; }
  pass Columns { VertexShader = PostProcessVS; PixelShader = SumColumns; }
}
