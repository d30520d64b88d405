// pow of a back buffer holding +inf and NaN: the span VM's short form of
// pow converted the unused lanes' inf exponent to int (UBSan).
#include "ReShade.fxh"
float4 Gamma (float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return pow (abs (tex2D (ReShade::BackBuffer, uv)), 2.2);
}
technique T { pass { VertexShader = PostProcessVS; PixelShader = Gamma; } }
