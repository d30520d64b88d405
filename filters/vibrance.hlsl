// title: Vibrance
// description: Boost muted colours more than already saturated ones, sparing skin tones.
// menu: <Image>/Filters/Shaders/Colour
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Boost of the least saturated colours; negative values mute them.</summary>
float vibrance <string UIName = "Vibrance"; float UIMin = -1.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.5;
/// <summary>Uniform saturation change applied to every colour.</summary>
float saturation <string UIName = "Saturation"; float UIMin = -1.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.0;

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float4 c = tex2D (input, uv);
  float mx = max (c.r, max (c.g, c.b));
  float mn = min (c.r, min (c.g, c.b));
  float sat = mx - mn;
  float grey = dot (c.rgb, float3 (0.2126, 0.7152, 0.0722));
  // Skin is red-dominant; protecting it keeps faces from turning orange.
  float skin = saturate ((c.r - max (c.g, c.b)) * 4.0) * saturate (1.0 - sat * 2.0);
  float boost = 1.0 + saturation + vibrance * (1.0 - sat) * (1.0 - 0.6 * skin);
  return float4 (saturate (lerp (grey.xxx, c.rgb, max (boost, 0.0))), c.a);
}
