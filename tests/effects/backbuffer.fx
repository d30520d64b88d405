// The back buffer of a ReShade effect holds values in [0, 1] (NaN gives
// 0), whichever way a pass into it is rendered: straight into the image
// when its program writes all four components (Whole, Discarded), or
// through the combine step (Blended: the same shader under a blend that
// changes nothing; Colour: alpha is not written).  test-effects.c, back
// buffer clamp.
#include "ReShade.fxh"

sampler Image { Texture = ReShade::BackBufferTex; MagFilter = POINT; MinFilter = POINT; };

// The image spread to [-1, 2); column 3's green is NaN.
float4 Spread(float2 uv)
{
  float4 c = tex2D(Image, uv) * 3.0 - 1.0;
  if (floor(uv.x * BUFFER_WIDTH) == 3)
    c.g = sqrt(c.g - 10.0);
  return c;
}

float4 PS_Whole(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return Spread(uv);
}

// Rows 0 and 1 keep the image as it is.
float4 PS_Discard(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  if (pos.y < 2)
    discard;
  return Spread(uv);
}

float3 PS_Colour(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return Spread(uv).rgb;
}

technique Whole { pass { VertexShader = PostProcessVS; PixelShader = PS_Whole; } }
technique Blended
{
  pass
  {
    VertexShader = PostProcessVS; PixelShader = PS_Whole;
    BlendEnable = true; SrcBlend = ONE; DestBlend = ZERO;
  }
}
technique Discarded { pass { VertexShader = PostProcessVS; PixelShader = PS_Discard; } }
technique Colour { pass { VertexShader = PostProcessVS; PixelShader = PS_Colour; } }
