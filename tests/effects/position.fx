// SV_Position / 100 as colour: at a mip level it counts the pixels the
// op actually renders, which shows that the level is rendered at its own
// size rather than at full size and then scaled.
#include "ReShade.fxh"

float4 Show(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return float4(pos.xy / 100.0, uv);
}

technique Position { pass { VertexShader = PostProcessVS; PixelShader = Show; } }
