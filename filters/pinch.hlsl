// title: Pinch and Bulge
// description: Pull the image into a point or push it out into a bubble within a circle.
// menu: <Image>/Filters/Shaders/Distort
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Positive values bulge outwards, negative values pinch inwards.</summary>
float amount <string UIName = "Amount"; float UIMin = -1.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.5;
/// <summary>Radius of the affected circle as a fraction of the smaller image side.</summary>
float radius <string UIName = "Radius"; float UIMin = 0.01; float UIMax = 1.0; float UIStep = 0.01;> = 0.4;
/// <summary>Centre of the effect.</summary>
float2 center <string UIName = "Centre"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = float2 (0.5, 0.55);

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float2 size = 1.0 / px;
  float2 d = (uv - center) * size;
  float rad = max (radius, 0.001) * min (size.x, size.y);
  float r = length (d) / rad;
  if (r < 1.0)
    {
      // A power of the radius: exponent > 1 samples nearer the centre
      // (bulge), < 1 farther out (pinch); both leave the rim in place.
      float e = amount >= 0.0 ? 1.0 + amount * 1.5 : 1.0 / (1.0 - amount * 1.5);
      float f = pow (r, e - 1.0);
      float t = smoothstep (1.0, 0.8, r);
      d *= lerp (1.0, f, t);
    }
  return tex2D (input, center + d / size);
}
