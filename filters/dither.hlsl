// title: Ordered Dither
// description: Reduce the image to a few colours with an 8×8 Bayer dither pattern, like early computer graphics.
// menu: <Image>/Filters/Shaders/Film
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Number of levels per channel after dithering.</summary>
int levels <string UIName = "Levels"; int UIMin = 2; int UIMax = 16;> = 2;
/// <summary>Size of one dither dot, in pixels.</summary>
int pixel_size <string UIName = "Pixel size"; int UIMin = 1; int UIMax = 8;> = 2;
/// <summary>Dither to black and white only.</summary>
bool monochrome <string UIName = "Monochrome";> = true;

// Bayer threshold for position p (0..7 on each axis), built by interleaving
// the bits of x and x^y as the recursive Bayer construction does.
float bayer (float2 p)
{
  float x = p.x, y = p.y;
  float v = 0.0;
  // The lowest bits carry the largest weight, so neighbouring pixels get
  // thresholds far apart.
  float weight = 16.0;
  [unroll] for (int i = 0; i < 3; i++)
    {
      float bx = fmod (x, 2.0), by = fmod (y, 2.0);
      v += (abs (bx - by) * 2.0 + by) * weight;
      weight /= 4.0;
      x = floor (x / 2.0);
      y = floor (y / 2.0);
    }
  return (v + 0.5) / 64.0;
}

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float ps = (float) max (pixel_size, 1);
  float2 cell = floor (uv / px / ps);
  float4 c = tex2D (input, (cell + 0.5) * ps * px);
  float n = max ((float) levels, 2.0) - 1.0;
  float t = bayer (fmod (cell, 8.0)) - 0.5;
  float3 v = monochrome ? dot (c.rgb, float3 (0.2126, 0.7152, 0.0722)).xxx : c.rgb;
  v = saturate (floor (v * n + 0.5 + t) / n);
  return float4 (v, c.a);
}
