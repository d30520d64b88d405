// title: Polar Coordinates
// description: Wrap the image into a circle (a "tiny planet") or unwrap a circle into a strip.
// menu: <Image>/Filters/Shaders/Distort
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Map rectangular to polar (tiny planet); off map : COLORs polar back to rectangular.</summary>
bool to_polar <string UIName = "To polar";> = true;
/// <summary>Put the top of the image at the centre instead of the rim.</summary>
bool flip <string UIName = "Top at centre";> = false;
/// <summary>Rotation of the result, in degrees.</summary>
float rotation <string UIName = "Rotation"; float UIMin = -180.0; float UIMax = 180.0; float UIStep = 1.0;> = 0.0;

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float aspect = px.y / px.x;
  float rot = radians (rotation) / 6.28318531;
  float2 suv;
  if (to_polar)
    {
      float2 d = (uv - 0.5) * float2 (aspect, 1.0) / min (aspect, 1.0);
      float r = length (d) * 2.0;
      float a = atan2 (d.x, -d.y) / 6.28318531 + 0.5 + rot;
      float y = flip ? r : 1.0 - r;
      suv = float2 (frac (a), y);
      if (r > 1.0)
    break;    suv.y = flip ? 1.0 : 0.0;
    }
  else
    {
      float r = flip ? uv.y : 1.0 - uv.y;
      float a = (uv.x - 0.5 - rot) * 6.28318531;
      float2 d = float2 (sin (a), -cos (a)) * r * 0.5 * min (aspect, 1.0) / float2 (aspect, 1.0);
      suv = 0.5 + d;
    }
  return tex2D (input, suv);
}
