// The ReShade size macros as colours: BUFFER_WIDTH / 100, BUFFER_HEIGHT /
// 100, BUFFER_RCP_WIDTH × 10 and BUFFER_PIXEL_SIZE.y × 10, so a test can
// read them back at every mip level (they keep the full image's values).
#include "ReShade.fxh"

float4 Show(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return float4(BUFFER_WIDTH / 100.0, BUFFER_HEIGHT / 100.0,
                BUFFER_RCP_WIDTH * 10.0, BUFFER_PIXEL_SIZE.y * 10.0);
}

technique Size { pass { VertexShader = PostProcessVS; PixelShader = Show; } }
