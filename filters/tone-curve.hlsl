// title: Tone Curve
// description: A smooth S-shaped tone curve with separate control of contrast, shadows and highlights.
// menu: <Image>/Filters/Shaders/Colour
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Steepness of the curve through the middle tones.</summary>
float contrast <string UIName = "Contrast"; float UIMin = -1.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.35;
/// <summary>Lifts (positive) or crushes (negative) the shadows.</summary>
float shadows <string UIName = "Shadows"; float UIMin = -1.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.1;
/// <summary>Brightens (positive) or recovers (negative) the highlights.</summary>
float highlights <string UIName = "Highlights"; float UIMin = -1.0; float UIMax = 1.0; float UIStep = 0.01;> = -0.1;
/// <summary>Apply the curve to brightness only, keeping the colours' saturation.</summary>
bool luminance_only <string UIName = "Luminance only";> = false;

float3 curve (float3 x)
{
  x = saturate (x);
  // Blend between the identity and a smoothstep S-curve (or its inverse
  // for negative contrast) so that 0 and 1 stay fixed.
  float3 s = x * x * (3.0 - 2.0 * x);
  float3 inv = 0.5 - sin (asin (saturate (1.0 - 2.0 * x)) / 3.0);
  x = contrast >= 0.0 ? lerp (x, s, contrast) : lerp (x, inv, -contrast);
  float3 sh = (1.0 - x) * (1.0 - x) * x;   // peaks in the shadows
  float3 hi = x * x * (1.0 - x);           // peaks in the highlights
  return saturate (x + 1.5 * shadows * sh + 1.5 * highlights * hi);
}

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float4 c = tex2D (input, uv);
  float3 rgb;
  if (luminance_only)
    {
      float y = dot (c.rgb, float3 (0.2126, 0.7152, 0.0722));
      float ny = curve (y.xxx).x;
      rgb = saturate (c.rgb + (ny - y));
    }
  else
    rgb = curve (c.rgb);
  return float4 (rgb, c.a);
}
