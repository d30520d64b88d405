// Passes that only a uniform's branch needs (test-effects.c, live
// passes): the last pass samples DetailTex, which the second pass
// writes from what the first wrote into SourceTex, only inside
// `if (UseDetail)`.  With UseDetail = 0 the read is gone once the
// uniform is specialised, so neither earlier pass is needed.  The flag is
// an int: a ReShade checkbox is a bool, but the test is about the passes.
#include "ReShade.fxh"

uniform int UseDetail < ui_type = "combo"; ui_items = "Off\0On\0"; > = 0;
// Runaway: the loop bound of a pass that must not run when unneeded.
uniform int Rounds < ui_type = "drag"; > = 1;

texture SourceTex { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RGBA32F; };
texture DetailTex { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RGBA32F; };
sampler Source { Texture = SourceTex; MagFilter = POINT; MinFilter = POINT; };
sampler Detail { Texture = DetailTex; MagFilter = POINT; MinFilter = POINT; };
sampler Image { Texture = ReShade::BackBufferTex; MagFilter = POINT; MinFilter = POINT; };

// Pass 1, into SourceTex: the texture coordinate.
float4 PS_Source(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return float4(uv, 0.25, 1);
}

// Pass 1 of Runaway: the same, after a loop that runs Rounds times.
float4 PS_SourceLoop(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float n = 0;
  for (int i = 0; i < Rounds; i++)
    n += 1;
  return float4(uv, 0.25, min(n, 1));
}

// Pass 2, into DetailTex: half of SourceTex plus a quarter of the image.
float4 PS_Detail(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return tex2D(Source, uv) * 0.5 + tex2D(Image, uv) * 0.25;
}

// The last pass: the image, or with the flag DetailTex plus an eighth of it.
float4 PS_Combine(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float4 c = tex2D(Image, uv);
  if (UseDetail)
    c = tex2D(Detail, uv) + c * 0.125;
  return c;
}

technique LivePasses
{
  pass Source { VertexShader = PostProcessVS; PixelShader = PS_Source; RenderTarget = SourceTex; }
  pass Detail { VertexShader = PostProcessVS; PixelShader = PS_Detail; RenderTarget = DetailTex; }
  pass Combine { VertexShader = PostProcessVS; PixelShader = PS_Combine; }
}

technique Runaway
{
  pass Source { VertexShader = PostProcessVS; PixelShader = PS_SourceLoop; RenderTarget = SourceTex; }
  pass Detail { VertexShader = PostProcessVS; PixelShader = PS_Detail; RenderTarget = DetailTex; }
  pass Combine { VertexShader = PostProcessVS; PixelShader = PS_Combine; }
}
