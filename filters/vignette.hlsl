// title: Vignette
// description: Darken (or lighten) the corners with a soft elliptical falloff, written in Direct3D 10 style.
// menu: <Image>/Filters/Shaders/Light and Lens
// license: LGPL-3.0-or-later

Texture2D image : register(t0);
SamplerState image_sampler : register(s0);

/// <summary>Strength of the darkening at the corners; negative values lighten.</summary>
float strength <string UIName = "Strength"; float UIMin = -1.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.6;
/// <summary>Distance from the centre where the falloff starts, as a fraction of the half diagonal.</summary>
float radius <string UIName = "Radius"; float UIMin = 0.0; float UIMax = 1.5; float UIStep = 0.01;> = 0.55;
/// <summary>Width of the transition from clear to dark.</summary>
float softness <string UIName = "Softness"; float UIMin = 0.01; float UIMax = 1.5; float UIStep = 0.01;> = 0.6;
/// <summary>0 follows the image's shape, 1 makes the vignette a circle.</summary>
float roundness <string UIName = "Roundness"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.5;
/// <summary>Tint of the vignette.</summary>
float3 tint <string UIName = "Colour"; string UIWidget = "Color";> = float3 (0.0, 0.0, 0.0);

float4 main (float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target
{
  float4 c = image.Sample (image_sampler, uv);
  float w, h;
  image.GetDimensions (w, h);
  float2 d = uv * 2.0 - 1.0;
  // Roundness 1 scales the long axis so that distance is measured in
  // pixels, giving a circle; 0 measures in uv, giving an ellipse.
  float aspect = w / max (h, 1.0);
  d.x *= lerp (1.0, aspect, roundness);
  float r = length (d) / lerp (1.41421356, length (float2 (aspect, 1.0)), roundness);
  float v = smoothstep (radius, radius + max (softness, 0.001), r);
  float3 rgb = strength >= 0.0 ? lerp (c.rgb, tint, v * strength)
                               : lerp (c.rgb, 1.0 - (1.0 - c.rgb) * (1.0 - v * -strength), 1.0);
  return float4 (rgb, c.a);
}
