// title: Swirl
// description: Twist the image around a centre point, strongest in the middle and fading out at the radius.
// menu: <Image>/Filters/Shaders/Distort
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Twist at the centre, in degrees; negative turns the other way.</summary>
float angle <string UIName = "Angle"; float UIMin = -720.0; float UIMax = 720.0; float UIStep = 1.0;> = 180.0;
/// <summary>Radius of the swirl as a fraction of the smaller image side.</summary>
float radius <string UIName = "Radius"; float UIMin = 0.01; float UIMax = 2.0; float UIStep = 0.01;> = 0.45;
/// <summary>Centre of the swirl.</summary>
float2 center <string UIName = "Centre"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = float2 (0.5, 0.5);

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float2 size = 1.0 / px;
  float2 d = (uv - center) * size;
  float rad = max (radius, 0.001) * min (size.x, size.y);
  float t = saturate (1.0 - length (d) / rad);
  // Smooth falloff so the twist has no visible rim.
  float a = radians (angle) * t * t;
  float cs = cos (a), sn = sin (a);
  d = float2 (cs * d.x - sn * d.y, sn * d.x + cs * d.y);
  return tex2D (input, center + d / size);
}
