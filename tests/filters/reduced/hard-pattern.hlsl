// A test image that is hard on a blur computed at reduced resolution:
// checks of 7×5 pixels in red, one-pixel lines every 31 columns and 29
// rows in green, a one-pixel checkerboard in blue, and on the right half
// alpha in stripes of three rows (colour weighted by alpha matters).
sampler2D input : register(s0);

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 p = floor (uv / float2 (ddx (uv.x), ddy (uv.y)));
  float c = fmod (floor (p.x / 7) + floor (p.y / 5), 2.0);
  float l = (fmod (p.x + 15, 31) == 0 || fmod (p.y + 14, 29) == 0) ? 1.0 : 0.0;
  float a = p.x < 320 ? 1.0 : (fmod (floor (p.y / 3), 2.0) == 0 ? 1.0 : 0.0);
  return float4 (c, l, fmod (p.x + p.y, 2.0), a);
}
