// title: Posterize
// description: Reduce every channel to a few flat levels, like a screen print.
// menu: <Image>/Filters/Shaders/Colour
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Number of levels per channel.</summary>
int levels <string UIName = "Levels"; int UIMin = 2; int UIMax = 32;> = 5;
/// <summary>Places the levels evenly in lightness (1) or pushes them towards the shadows or highlights.</summary>
float gamma <string UIName = "Gamma"; float UIMin = 0.25; float UIMax = 4.0; float UIStep = 0.01;> = 1.0;

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float4 c = tex2D (input, uv);
  float n = max ((float) levels, 2.0) - 1.0;
  float g = max (gamma, 0.01);
  float3 v = pow (saturate (c.rgb), 1.0 / g);
  v = floor (v * n + 0.5) / n;
  return float4 (pow (v, g), c.a);
}
