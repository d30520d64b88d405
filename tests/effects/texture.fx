// Samples an image file texture (ReShade `source` annotation) and mixes
// it with the back buffer.
#include "ReShade.fxh"

texture PatternTex < source = "pattern.png"; > { Width = 8; Height = 6; Format = RGBA8; };
sampler Pattern { Texture = PatternTex; MagFilter = POINT; MinFilter = POINT; };

float4 Mix(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return float4(tex2D(Pattern, uv).bgr, 1.0) * 0.5 + tex2D(ReShade::BackBuffer, uv) * 0.25;
}

technique ImageTexture { pass { VertexShader = PostProcessVS; PixelShader = Mix; } }
