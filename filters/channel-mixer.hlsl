// title: Channel Mixer
// description: Rebuild each colour channel from a weighted mix of red, green and blue, or mix down to monochrome.
// menu: <Image>/Filters/Shaders/Colour
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>How much red, green and blue make up the new red channel.</summary>
float3 red_mix <string UIName = "Red channel"; float UIMin = -2.0; float UIMax = 2.0; float UIStep = 0.01;> = float3 (0.55, 0.55, -0.1);
/// <summary>How much red, green and blue make up the new green channel.</summary>
float3 green_mix <string UIName = "Green channel"; float UIMin = -2.0; float UIMax = 2.0; float UIStep = 0.01;> = float3 (0.0, 1.0, 0.0);
/// <summary>How much red, green and blue make up the new blue channel.</summary>
float3 blue_mix <string UIName = "Blue channel"; float UIMin = -2.0; float UIMax = 2.0; float UIStep = 0.01;> = float3 (0.0, 0.0, 1.0);
/// <summary>Use the red channel's mix for all three channels, giving a black and white image.</summary>
bool monochrome <string UIName = "Monochrome";> = true;
/// <summary>Scale each mix so its weights add up to one, keeping brightness.</summary>
bool preserve_luminosity <string UIName = "Preserve luminosity";> = false;

float3 normalised (float3 m)
{
  float s = m.r + m.g + m.b;
  // A mix whose weights cancel out cannot be normalised; leave it as is.
  return (preserve_luminosity && abs (s) > 1e-4) ? m / s : m;
}

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float4 c = tex2D (input, uv);
  float3x3 mixer;
  if (monochrome)
    mixer = float3x3 (normalised (red_mix), normalised (red_mix), normalised (red_mix));
  else
    mixer = float3x3 (normalised (red_mix), normalised (green_mix), normalised (blue_mix));
  return float4 (saturate (mul (mixer, c.rgb)), c.a);
}
