// Bloom: a bright pass into a half-size target (its bilinear read of the
// back buffer averages each 2×2 block), then a pass that adds the
// upsampled bright parts onto the image with additive blending.
#include "ReShade.fxh"

uniform float Threshold < ui_min = 0.0; ui_max = 1.0; > = 0.5;

texture BrightTex { Width = BUFFER_WIDTH / 2; Height = BUFFER_HEIGHT / 2; Format = RGBA32F; };
sampler Bright { Texture = BrightTex; };

float4 BrightPass(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float3 c = tex2D(ReShade::BackBuffer, uv).rgb;
  return float4(max(c - Threshold, 0.0), 0.0);
}

float4 Composite(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return tex2D(Bright, uv);
}

technique Bloom
{
  pass BrightPass
  {
    VertexShader = PostProcessVS;
    PixelShader = BrightPass;
    RenderTarget = BrightTex;
    ClearRenderTargets = true;
  }
  pass Composite
  {
    VertexShader = PostProcessVS;
    PixelShader = Composite;
    BlendEnable = true;
    SrcBlend = ONE;
    DestBlend = ONE;
    BlendOp = ADD;
    SrcBlendAlpha = ZERO;
    DestBlendAlpha = ONE;
  }
}
