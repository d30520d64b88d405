// title: Colour Balance
// description: Shift the colours of the shadows, middle tones and highlights separately.
// menu: <Image>/Filters/Shaders/Colour
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Shift of the shadows towards red, green and blue (negative values towards cyan, magenta and yellow).</summary>
float3 shadows <string UIName = "Shadows"; float UIMin = -1.0; float UIMax = 1.0; float UIStep = 0.01;> = float3 (-0.05, 0.0, 0.12);
/// <summary>Shift of the middle tones towards red, green and blue.</summary>
float3 midtones <string UIName = "Midtones"; float UIMin = -1.0; float UIMax = 1.0; float UIStep = 0.01;> = float3 (0.05, 0.0, -0.03);
/// <summary>Shift of the highlights towards red, green and blue.</summary>
float3 highlights <string UIName = "Highlights"; float UIMin = -1.0; float UIMax = 1.0; float UIStep = 0.01;> = float3 (0.10, 0.04, -0.08);
/// <summary>Restore each pixel's original brightness after the shift.</summary>
bool preserve_luminosity <string UIName = "Preserve luminosity";> = true;

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float4 c = tex2D (input, uv);
  float3 w = float3 (0.2126, 0.7152, 0.0722);
  float y = dot (c.rgb, w);
  // Overlapping tone weights, each peaking in its own range, summing to one.
  float ws = saturate (1.0 - y * 2.0);
  float wh = saturate (y * 2.0 - 1.0);
  float wm = 1.0 - ws - wh;
  float3 rgb = c.rgb + (shadows * ws + midtones * wm + highlights * wh) * 0.5;
  if (preserve_luminosity)
    rgb += y - dot (rgb, w);
  return float4 (saturate (rgb), c.a);
}
