// Two-pass separable box blur: horizontal into a full-size target, then
// vertical into the back buffer.  ReShade FX syntax.
#include "ReShade.fxh"

uniform float Radius < ui_type = "slider"; ui_min = 0.0; ui_max = 4.0; ui_label = "Radius"; > = 1.0;

texture HorizTex { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RGBA32F; };
sampler Horiz { Texture = HorizTex; MagFilter = POINT; MinFilter = POINT; };
sampler Src { Texture = ReShade::BackBufferTex; MagFilter = POINT; MinFilter = POINT; };

float4 BlurH(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float4 sum = 0;
  [unroll] for (int i = -1; i <= 1; i++)
    sum += tex2D(Src, uv + float2(i * Radius * BUFFER_RCP_WIDTH, 0));
  return sum / 3.0;
}

float4 BlurV(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float4 sum = 0;
  [unroll] for (int i = -1; i <= 1; i++)
    sum += tex2D(Horiz, uv + float2(0, i * Radius * ReShade::PixelSize.y));
  return sum / 3.0;
}

technique SeparableBlur
{
  pass Horizontal { VertexShader = PostProcessVS; PixelShader = BlurH; RenderTarget = HorizTex; }
  pass Vertical { VertexShader = PostProcessVS; PixelShader = BlurV; }
}
