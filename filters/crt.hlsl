// title: CRT Monitor
// description: An old cathode-ray screen: curved glass, scanlines, an RGB shadow mask and glowing phosphors.
// menu: <Image>/Filters/Shaders/Film
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Height of one scanline, in pixels.</summary>
float line_height <string UIName = "Scanline height"; float UIMin = 2.0; float UIMax = 16.0; float UIStep = 0.5;> = 3.0;
/// <summary>Darkness of the gaps between scanlines.</summary>
float scanline_strength <string UIName = "Scanline strength"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.5;
/// <summary>Strength of the red, green and blue phosphor stripes.</summary>
float mask_strength <string UIName = "Shadow mask"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.35;
/// <summary>Bulge of the screen glass.</summary>
float curvature <string UIName = "Curvature"; float UIMin = 0.0; float UIMax = 0.5; float UIStep = 0.01;> = 0.12;
/// <summary>Overall brightness boost to make up for the dark mask.</summary>
float brightness <string UIName = "Brightness"; float UIMin = 0.5; float UIMax = 2.0; float UIStep = 0.01;> = 1.25;

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float2 d = uv * 2.0 - 1.0;
  d *= 1.0 + curvature * dot (d, d) * float2 (0.6, 0.8);
  float2 cuv = d * 0.5 + 0.5;
  if (any (cuv < 0.0) || any (cuv > 1.0))
    return float4 (0.0, 0.0, 0.0, 1.0);
  // Sample at the scanline's centre so each line is one flat row.
  float lh = max (line_height, 1.0);
  float row = (floor (cuv.y / px.y / lh) + 0.5) * lh * px.y;
  float4 c = tex2D (input, float2 (cuv.x, row));
  float f = frac (cuv.y / px.y / lh);
  float beam = lerp (1.0, 0.25 + 1.5 * (1.0 - abs (f - 0.5) * 2.0) * 0.5 + 0.25, scanline_strength);
  // Which of the three phosphor stripes: the column modulo 3, computed
  // with floor because fmod, as Direct3D expands it, gives 1.9999998 for 5 % 3.
  float column = floor (cuv.x / px.x);
  float stripe = column - 3.0 * floor (column / 3.0);
  float3 mask = stripe < 1.0 ? float3 (1.0, 0.3, 0.3) : stripe < 2.0 ? float3 (0.3, 1.0, 0.3) : float3 (0.3, 0.3, 1.0);
  float3 rgb = c.rgb * beam * lerp (1.0, mask * 1.6, mask_strength) * brightness;
  // Darken towards the rounded corners of the tube.
  float2 e = abs (d);
  float corner = saturate ((1.0 - max (e.x, e.y)) * 30.0);
  return float4 (saturate (rgb) * corner, 1.0);
}
