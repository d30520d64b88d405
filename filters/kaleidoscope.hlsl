// title: Kaleidoscope
// description: Mirror a wedge of the image around the centre into a symmetric kaleidoscope pattern.
// menu: <Image>/Filters/Shaders/Distort
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Number of mirrored wedges.</summary>
int segments <string UIName = "Segments"; int UIMin = 2; int UIMax = 24;> = 8;
/// <summary>Rotation of the source wedge, in degrees.</summary>
float angle <string UIName = "Angle"; float UIMin = -180.0; float UIMax = 180.0; float UIStep = 1.0;> = 150.0;
/// <summary>Scale of the pattern: above 1 shows a smaller part of the image.</summary>
float zoom <string UIName = "Zoom"; float UIMin = 0.2; float UIMax = 4.0; float UIStep = 0.01;> = 1.0;
/// <summary>Centre of the kaleidoscope.</summary>
float2 center <string UIName = "Centre"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = float2 (0.5, 0.5);

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float aspect = px.y / px.x;
  float2 d = (uv - center) * float2 (aspect, 1.0);
  float r = length (d) / max (zoom, 0.01);
  float wedge = 6.28318531 / max ((float) segments, 2.0);
  float a = atan2 (d.y, d.x) - radians (angle);
  a = a - wedge * floor (a / wedge);
  // Fold every other wedge back so neighbours meet as mirror images.
  a = min (a, wedge - a);
  a += radians (angle);
  float2 s = float2 (cos (a), sin (a)) * r;
  float2 suv = center + s / float2 (aspect, 1.0);
  // Mirror at the borders instead of smearing the edge pixels.
  suv = 1.0 - abs (1.0 - abs (suv) % 2.0);
  return tex2D (input, suv);
}
