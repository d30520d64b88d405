// title: Glow
// description: Bloom: bright parts of the image bleed soft light into their surroundings.
// menu: <Image>/Filters/Shaders/Light and Lens
// license: LGPL-3.0-or-later
#include "ReShade.fxh"

// The glow is the bright parts blurred by a Gaussian that falls to
// exp (-3) at the radius, where it is cut off.  Both are smooth, so they
// are computed at half resolution: a pass keeps the bright parts of each
// 2×2 block, two separable passes blur them (each reads two neighbouring
// texels with one bilinear tap placed between them by their weights,
// exact for a weighted sum), and the last pass adds the upsampled glow
// to the image with a screen blend.

/// <summary>Brightness above which pixels start to glow.</summary>
uniform float threshold < string UIName = "Threshold"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01; > = 0.6;
/// <summary>How far the glow spreads, in pixels.</summary>
uniform float radius < string UIName = "Radius"; float UIMin = 1.0; float UIMax = 100.0; float UIStep = 1.0; > = 24.0;
/// <summary>Brightness of the added glow.</summary>
uniform float intensity < string UIName = "Intensity"; float UIMin = 0.0; float UIMax = 4.0; float UIStep = 0.01; > = 1.2;
/// <summary>Colour the glow is multiplied with.</summary>
uniform float3 glow_color < string UIName = "Glow colour"; string UIWidget = "Color"; > = float3 (1.0, 0.95, 0.85);

texture BrightTex { Width = BUFFER_WIDTH / 2; Height = BUFFER_HEIGHT / 2; Format = RGBA32F; };
texture RowsTex { Width = BUFFER_WIDTH / 2; Height = BUFFER_HEIGHT / 2; Format = RGBA32F; };
texture GlowTex { Width = BUFFER_WIDTH / 2; Height = BUFFER_HEIGHT / 2; Format = RGBA32F; };
sampler Bright { Texture = BrightTex; MagFilter = LINEAR; MinFilter = LINEAR; AddressU = CLAMP; AddressV = CLAMP; };
sampler Rows { Texture = RowsTex; MagFilter = LINEAR; MinFilter = LINEAR; AddressU = CLAMP; AddressV = CLAMP; };
sampler Glow { Texture = GlowTex; MagFilter = LINEAR; MinFilter = LINEAR; AddressU = CLAMP; AddressV = CLAMP; };
sampler Src { Texture = ReShade::BackBufferTex; MagFilter = POINT; MinFilter = POINT; AddressU = CLAMP; AddressV = CLAMP; };

float3 bright (float3 c)
{
  float y = max (c.r, max (c.g, c.b));
  // A soft knee avoids a hard edge where the threshold cuts in.
  float k = smoothstep (threshold - 0.1, threshold + 0.1, y);
  return c * k;
}

float4 KeepBright (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float2 h = 0.5 * float2 (BUFFER_RCP_WIDTH, BUFFER_RCP_HEIGHT);
  float3 sum = bright (tex2D (Src, uv + float2 (-h.x, -h.y)).rgb)
             + bright (tex2D (Src, uv + float2 (h.x, -h.y)).rgb)
             + bright (tex2D (Src, uv + float2 (-h.x, h.y)).rgb)
             + bright (tex2D (Src, uv + float2 (h.x, h.y)).rgb);
  return float4 (sum * 0.25, 1.0);
}

// The Gaussian along @step (one half-resolution texel), out to tap
// r = ceil (radius / 2), at most 50 (radius 100; a larger radius would be
// cut off there): weights exp (-i² / 2σ²), σ = radius / √6 so the weight
// is exp (-3) at the radius, by a multiply-only recurrence; taps i (odd)
// and i + 1 as one bilinear tap placed between them by their weights.
//
// The pairs are written out with constant indices, each under an if on
// its first tap, as in gaussian-blur.fx: once the uniforms are known the
// compiler resolves every condition and folds the recurrence, so each
// weight is a constant and each read lies a constant away from the pixel
// (a loop made the offsets depend on its counter, which kept the effect
// from being rendered band by band).  The recurrence stays, rather than
// one exp per tap, so that the weights are the loop's to the bit: in
// float it drifts from exp by up to about 8·10⁻⁵ of a weight at the last
// taps, and one exp per tap moved pixels by up to 1.3·10⁻⁵.
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
  float s = max (radius, 1.0) * 0.5 / sqrt (6.0);
  int r = (int) ceil (max (radius, 1.0) * 0.5);
  float ratio = exp (-0.5 / (s * s));
  float shrink = ratio * ratio;
  float w = 1.0;
  float3 sum = tex2D (t, uv).rgb;
  float wsum = 1.0;
  PAIR (1) PAIR (3) PAIR (5) PAIR (7) PAIR (9) PAIR (11) PAIR (13) PAIR (15) PAIR (17)
  PAIR (19) PAIR (21) PAIR (23) PAIR (25) PAIR (27) PAIR (29) PAIR (31) PAIR (33)
  PAIR (35) PAIR (37) PAIR (39) PAIR (41) PAIR (43) PAIR (45) PAIR (47) PAIR (49)
  return sum / wsum;
}

float4 BlurRows (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return float4 (paired_blur (Bright, uv, float2 (2.0 * BUFFER_RCP_WIDTH, 0)), 1.0);
}

float4 BlurColumns (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return float4 (paired_blur (Rows, uv, float2 (0, 2.0 * BUFFER_RCP_HEIGHT)), 1.0);
}

float4 AddGlow (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float4 c = tex2D (Src, uv);
  float3 g = tex2D (Glow, uv).rgb * glow_color * intensity;
  // Screen blend keeps highlights from clipping abruptly.
  float3 rgb = 1.0 - (1.0 - c.rgb) * (1.0 - saturate (g));
  return float4 (rgb, c.a);
}

technique Glow
{
  pass Bright { VertexShader = PostProcessVS; PixelShader = KeepBright; RenderTarget = BrightTex; }
  pass Rows { VertexShader = PostProcessVS; PixelShader = BlurRows; RenderTarget = RowsTex; }
  pass Columns { VertexShader = PostProcessVS; PixelShader = BlurColumns; RenderTarget = GlowTex; }
  pass Add { VertexShader = PostProcessVS; PixelShader = AddGlow; }
}
