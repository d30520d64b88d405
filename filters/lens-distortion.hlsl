// title: Lens Distortion
// description: Barrel or pincushion distortion, from a gentle wide-angle bow to a full fisheye.
// menu: <Image>/Filters/Shaders/Light and Lens
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Positive values bulge the centre (barrel, fisheye); negative values pinch it (pincushion).</summary>
float distortion <string UIName = "Distortion"; float UIMin = -1.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.45;
/// <summary>Higher-order term that bends the corners more strongly.</summary>
float edge <string UIName = "Edge"; float UIMin = -1.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.1;
/// <summary>Magnification; above 1 crops away the empty corners.</summary>
float zoom <string UIName = "Zoom"; float UIMin = 0.5; float UIMax = 3.0; float UIStep = 0.01;> = 1.0;
/// <summary>Colour shown where the lens sees nothing of the image.</summary>
float4 background <string UIName = "Background"; string UIWidget = "Color";> = float4 (0.0, 0.0, 0.0, 0.0);

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  // Work in a frame where the half diagonal is 1 and pixels are square.
  float2 size = 1.0 / px;
  float half_diag = 0.5 * length (size);
  float2 p = (uv - 0.5) * size / half_diag;
  float r2 = dot (p, p);
  // Sampling farther out towards the edges magnifies the centre (barrel).
  float f = 1.0 + distortion * 0.5 * r2 + edge * 0.5 * r2 * r2;
  // Normalise so the corner maps to the corner at zoom 1 when possible.
  float fc = 1.0 + distortion * 0.5 + edge * 0.5;
  float2 q = p * f / (max (zoom, 0.01) * (abs (fc) > 0.05 ? fc : 1.0));
  float2 suv = q * half_diag / size + 0.5;
  if (any (suv < 0.0) || any (suv > 1.0) || f <= 0.0)
    return background;
  return tex2D (input, suv);
}
