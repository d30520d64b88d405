// title: Unsharp Mask
// description: Sharpen by adding back the difference between the image and a blurred copy of it.
// menu: <Image>/Filters/Shaders/Enhance
// license: LGPL-3.0-or-later
#include "ReShade.fxh"

// The blurred copy is a Gaussian reaching two deviations out, in two
// separable passes: rows into a float target, then columns.  Both read
// two neighbouring texels with one bilinear tap placed between them by
// their weights, which is exact for a weighted sum of colours.

/// <summary>Radius of the blur that defines what counts as detail, in pixels.</summary>
uniform float radius < string UIName = "Radius"; float UIMin = 0.5; float UIMax = 10.0; float UIStep = 0.1; > = 2.0;
/// <summary>Strength of the sharpening.</summary>
uniform float amount < string UIName = "Amount"; float UIMin = 0.0; float UIMax = 5.0; float UIStep = 0.01; > = 1.0;
/// <summary>Differences smaller than this are left alone, sparing noise and smooth areas.</summary>
uniform float threshold < string UIName = "Threshold"; float UIMin = 0.0; float UIMax = 0.5; float UIStep = 0.005; > = 0.01;

texture RowsTex { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RGBA32F; };
sampler Rows { Texture = RowsTex; MagFilter = LINEAR; MinFilter = LINEAR; AddressU = CLAMP; AddressV = CLAMP; };
// Linear, though every tap is at a texel centre: that reads the texel
// exactly, and rows of such taps take the VM's faster path.
sampler Src { Texture = ReShade::BackBufferTex; MagFilter = LINEAR; MinFilter = LINEAR; AddressU = CLAMP; AddressV = CLAMP; };

// Gaussian weights exp (-i² / 2σ²) by a multiply-only recurrence; taps
// 2k-1 and 2k as one bilinear tap, k = 1 … ceil (reach / 2).
float3 blur_rows (float2 uv)
{
  float s = max (radius, 0.1);
  int r = (int) ceil (2.0 * s);
  float ratio = exp (-0.5 / (s * s));
  float shrink = ratio * ratio;
  float w = 1.0;
  float3 sum = tex2D (Src, uv).rgb;
  float wsum = 1.0;
  [loop] for (int i = 1; i <= r; i += 2)
    {
      w *= ratio;
      ratio *= shrink;
      float w1 = w;
      w *= ratio;
      ratio *= shrink;
      float w2 = i < r ? w : 0.0;
      float pair = w1 + w2;
      float2 o = float2 ((i + w2 / pair) * BUFFER_RCP_WIDTH, 0);
      sum += (tex2D (Src, uv + o).rgb + tex2D (Src, uv - o).rgb) * pair;
      wsum += 2.0 * pair;
    }
  return sum / wsum;
}

float4 BlurRows (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return float4 (blur_rows (uv), 1.0);
}

float4 Sharpen (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float s = max (radius, 0.1);
  int r = (int) ceil (2.0 * s);
  float ratio = exp (-0.5 / (s * s));
  float shrink = ratio * ratio;
  float w = 1.0;
  float3 sum = tex2D (Rows, uv).rgb;
  float wsum = 1.0;
  [loop] for (int i = 1; i <= r; i += 2)
    {
      w *= ratio;
      ratio *= shrink;
      float w1 = w;
      w *= ratio;
      ratio *= shrink;
      float w2 = i < r ? w : 0.0;
      float pair = w1 + w2;
      float2 o = float2 (0, (i + w2 / pair) * BUFFER_RCP_HEIGHT);
      sum += (tex2D (Rows, uv + o).rgb + tex2D (Rows, uv - o).rgb) * pair;
      wsum += 2.0 * pair;
    }
  float4 c = tex2D (Src, uv);
  float3 detail = c.rgb - sum / wsum;
  // Soft threshold: detail fades in above the threshold rather than jumping.
  float3 gate = smoothstep (threshold * 0.5, threshold * 1.5 + 1e-5, abs (detail));
  return float4 (saturate (c.rgb + detail * amount * gate), c.a);
}

technique UnsharpMask
{
  pass Rows { VertexShader = PostProcessVS; PixelShader = BlurRows; RenderTarget = RowsTex; }
  pass Sharpen { VertexShader = PostProcessVS; PixelShader = Sharpen; }
}
