// title: Gradient Map
// description: Map the brightness of each pixel onto a three-colour gradient.
// menu: <Image>/Filters/Shaders/Colour
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Gradient colour for black.</summary>
float3 dark_color <string UIName = "Dark colour"; string UIWidget = "Color";> = float3 (0.08, 0.02, 0.20);
/// <summary>Gradient colour for the middle tones.</summary>
float3 mid_color <string UIName = "Middle colour"; string UIWidget = "Color";> = float3 (0.85, 0.25, 0.35);
/// <summary>Gradient colour for white.</summary>
float3 light_color <string UIName = "Light colour"; string UIWidget = "Color";> = float3 (1.00, 0.92, 0.55);
/// <summary>Brightness that maps to the middle colour.</summary>
float midpoint <string UIName = "Midpoint"; float UIMin = 0.05; float UIMax = 0.95; float UIStep = 0.01;> = 0.5;
/// <summary>How much of the gradient replaces the original colours.</summary>
float amount <string UIName = "Amount"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 1.0;

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float4 c = tex2D (input, uv);
  float y = saturate (dot (c.rgb, float3 (0.2126, 0.7152, 0.0722)));
  float m = clamp (midpoint, 0.01, 0.99);
  float3 mapped = y < m ? lerp (dark_color, mid_color, y / m)
                        : lerp (mid_color, light_color, (y - m) / (1.0 - m));
  return float4 (lerp (c.rgb, mapped, amount), c.a);
}
