// title: Levels
// description: Set the black point, white point and middle-tone gamma, then the output range.
// menu: <Image>/Filters/Shaders/Colour
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Input value that becomes black.</summary>
float in_black <string UIName = "Input black"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.06;
/// <summary>Input value that becomes white.</summary>
float in_white <string UIName = "Input white"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.94;
/// <summary>Brightness of the middle tones: above 1 lightens, below 1 darkens.</summary>
float gamma <string UIName = "Gamma"; float UIMin = 0.1; float UIMax = 5.0; float UIStep = 0.01;> = 1.15;
/// <summary>Darkest output value.</summary>
float out_black <string UIName = "Output black"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.0;
/// <summary>Brightest output value.</summary>
float out_white <string UIName = "Output white"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 1.0;

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float4 c = tex2D (input, uv);
  // Equal black and white points would divide by zero: keep a sliver apart.
  float range = max (in_white - in_black, 1e-4);
  float3 v = saturate ((c.rgb - in_black) / range);
  v = pow (v, 1.0 / max (gamma, 0.01));
  return float4 (lerp (out_black.xxx, out_white.xxx, v), c.a);
}
