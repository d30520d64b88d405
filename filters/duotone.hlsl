// title: Duotone
// description: Print the image in two inks: shadows take one colour, highlights another.
// menu: <Image>/Filters/Shaders/Colour
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Ink used for the darkest tones.</summary>
float3 shadow_color <string UIName = "Shadow colour"; string UIWidget = "Color";> = float3 (0.10, 0.12, 0.35);
/// <summary>Ink used for the brightest tones.</summary>
float3 highlight_color <string UIName = "Highlight colour"; string UIWidget = "Color";> = float3 (1.00, 0.85, 0.55);
/// <summary>Steepens the transition between the two inks.</summary>
float contrast <string UIName = "Contrast"; float UIMin = 0.2; float UIMax = 3.0; float UIStep = 0.01;> = 1.2;
/// <summary>How much of the duotone replaces the original colours.</summary>
float amount <string UIName = "Amount"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 1.0;

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float4 c = tex2D (input, uv);
  float y = dot (c.rgb, float3 (0.2126, 0.7152, 0.0722));
  y = saturate ((y - 0.5) * contrast + 0.5);
  // Smoothstep gives the inks a soft shoulder instead of a linear ramp.
  float3 toned = lerp (shadow_color, highlight_color, smoothstep (0.0, 1.0, y));
  return float4 (lerp (c.rgb, toned, amount), c.a);
}
