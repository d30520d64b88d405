// title: Ripple
// description: Concentric water ripples spreading from a point, with optional light glints.
// menu: <Image>/Filters/Shaders/Distort
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Height of the waves, in pixels of displacement.</summary>
float amplitude <string UIName = "Amplitude"; float UIMin = 0.0; float UIMax = 40.0; float UIStep = 0.1;> = 6.0;
/// <summary>Distance between wave crests, in pixels.</summary>
float wavelength <string UIName = "Wavelength"; float UIMin = 4.0; float UIMax = 200.0; float UIStep = 1.0;> = 36.0;
/// <summary>Shifts the waves outwards; animate it for motion.</summary>
float phase <string UIName = "Phase"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.0;
/// <summary>How quickly the waves die away from the centre.</summary>
float damping <string UIName = "Damping"; float UIMin = 0.0; float UIMax = 5.0; float UIStep = 0.01;> = 1.0;
/// <summary>Brightens the wave crests as if lit from above.</summary>
float shading <string UIName = "Shading"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.3;
/// <summary>Where the ripples start.</summary>
float2 center <string UIName = "Centre"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = float2 (0.5, 0.5);

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float2 size = 1.0 / px;
  float2 d = (uv - center) * size;
  float r = length (d);
  float k = 6.28318531 / max (wavelength, 1.0);
  float fade = exp (-damping * r / max (size.x, size.y) * 2.0);
  float w = sin (r * k - phase * 6.28318531);
  float2 dir = r > 1e-3 ? d / r : float2 (0.0, 0.0);
  // |dir · w · fade| <= 1; saying so lets the host fetch the input in
  // bands of the amplitude's margin instead of all of it.
  float4 c = tex2D (input, uv + clamp (dir * w * fade, -1.0, 1.0) * amplitude * px);
  // The slope of the wave decides how much light a point catches.
  float slope = cos (r * k - phase * 6.28318531) * fade;
  c.rgb = saturate (c.rgb + shading * slope * saturate (amplitude / 10.0) * 0.25);
  return c;
}
