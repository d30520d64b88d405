// title: Shift
// Reads three pixels to the left and two below: a bounded reach.
sampler2D s0 : register(s0);
float2 PixelSize : PIXELSIZE;
float4 main (float2 uv : TEXCOORD0) : COLOR
{
  return tex2D (s0, uv + float2 (-3, 2) * PixelSize) * 0.75 + tex2D (s0, uv) * 0.25;
}
