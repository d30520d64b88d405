// Uses what ReShade.fxh and ReShadeUI.fxh provide: the back buffer
// sampler, pixel and screen size, the aspect ratio, the flat depth,
// PostProcessVS and the UI annotation macros; plus a namespace of its own.
#include "ReShadeUI.fxh"
#include "ReShade.fxh"

uniform float Strength < __UNIFORM_SLIDER_FLOAT1 ui_min = 0.0; ui_max = 2.0; > = 0.5;

namespace Local
{
  float2 Scale() { return ReShade::ScreenSize * ReShade::PixelSize; }
  static const float Offset = 1.0;
}

float4 Main(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  // one pixel to the right (clamped at the edge) through ReShade::PixelSize
  float3 right = tex2D(ReShade::BackBuffer, uv + float2(ReShade::PixelSize.x * Local::Offset, 0)).rgb;
  float depth = ReShade::GetLinearizedDepth(uv);
  float2 one = Local::Scale();
  return float4(right * Strength * one.x * one.y, ReShade::AspectRatio * depth * 0.5);
}

technique HeaderUser < ui_label = "Header user"; >
{
  pass { VertexShader = PostProcessVS; PixelShader = Main; }
}
