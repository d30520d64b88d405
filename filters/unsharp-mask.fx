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
// Linear: each paired tap of the row pass lies between two texels and
// reads both at once; the centre taps sit on texel centres, which read
// the texel exactly.
sampler Src { Texture = ReShade::BackBufferTex; MagFilter = LINEAR; MinFilter = LINEAR; AddressU = CLAMP; AddressV = CLAMP; };

// The Gaussian of deviation radius along @step (one texel) from @t, out
// to tap r = ceil (2 radius), at most 20 (radius 10; a larger radius
// would be cut off there): weights exp (-i² / 2σ²) by a multiply-only
// recurrence; taps i (odd) and i + 1 as one bilinear tap placed between
// them by their weights.
//
// The pairs are written out with constant indices, each under an if on
// its first tap, as in gaussian-blur.fx: once the uniforms are known the
// compiler resolves every condition and folds the recurrence, so each
// weight is a constant and each read lies a constant away from the pixel
// (a loop made the offsets depend on its counter, which kept the effect
// from being rendered band by band).  The recurrence stays, rather than
// one exp per tap, so that the weights are the loop's to the bit: in
// float it drifts from exp by up to about 1.4·10⁻⁵ of a weight at the
// last taps.
#define PAIR(i) \
  if ((i) <= r) \
    { \
      w *= ratio; \
      ratio *= shrink; \
      float w1 = w; \
      w *= ratio; \
      ratio *= shrink; \
      float w2 = (i) < r ? w : 0.0; \
      float pair = w1 + w2; \
      float2 o = ((i) + w2 / pair) * step; \
      sum += (tex2D (t, uv + o).rgb + tex2D (t, uv - o).rgb) * pair; \
      wsum += 2.0 * pair; \
    }

float3 paired_blur (sampler t, float2 uv, float2 step)
{
  float s = max (radius, 0.1);
  int r = (int) ceil (2.0 * s);
  float ratio = exp (-0.5 / (s * s));
  float shrink = ratio * ratio;
  float w = 1.0;
  float3 sum = tex2D (t, uv).rgb;
  float wsum = 1.0;
  PAIR (1) PAIR (3) PAIR (5) PAIR (7) PAIR (9) PAIR (11) PAIR (13) PAIR (15) PAIR (17) PAIR (19)
  return sum / wsum;
}

float4 BlurRows (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return float4 (paired_blur (Src, uv, float2 (BUFFER_RCP_WIDTH, 0)), 1.0);
}

float4 Sharpen (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float4 c = tex2D (Src, uv);
  float3 detail = c.rgb - paired_blur (Rows, uv, float2 (0, BUFFER_RCP_HEIGHT));
  // Soft threshold: detail fades in above the threshold rather than jumping.
  float3 gate = smoothstep (threshold * 0.5, threshold * 1.5 + 1e-5, abs (detail));
  return float4 (saturate (c.rgb + detail * amount * gate), c.a);
}

technique UnsharpMask
{
  pass Rows { VertexShader = PostProcessVS; PixelShader = BlurRows; RenderTarget = RowsTex; }
  pass Sharpen { VertexShader = PostProcessVS; PixelShader = Sharpen; }
}
