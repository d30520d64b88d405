// Two passes through a half-size target with mips, blending and a
// namespace: the effect features a mutation most easily breaks.
#include "ReShade.fxh"
uniform float Strength < ui_type = "slider"; ui_min = 0.0; ui_max = 2.0; > = 0.5;
uniform float Timer < source = "timer"; >;
namespace fz
{
  texture HalfTex { Width = BUFFER_WIDTH / 2; Height = BUFFER_HEIGHT / 2; Format = RGBA16F; MipLevels = 2; };
  sampler HalfS { Texture = HalfTex; AddressU = WRAP; MinFilter = POINT; };
}
float4 Down (float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return tex2D (ReShade::BackBuffer, uv) * Strength + frac (Timer * 0.001);
}
float4 Up (float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float4 c = tex2Dlod (fz::HalfS, float4 (uv, 0, 1));
  [loop] for (int i = 0; i < 3; i++)
    c += tex2Doffset (fz::HalfS, uv, int2 (i, -i));
  if (c.a < 0.0) discard;
  return c / 4.0;
}
technique Fuzz
{
  pass { VertexShader = PostProcessVS; PixelShader = Down; RenderTarget = fz::HalfTex; }
  pass { VertexShader = PostProcessVS; PixelShader = Up; BlendEnable = true;
         SrcBlend = SRCALPHA; DestBlend = INVSRCALPHA; SRGBWriteEnable = true; }
}
