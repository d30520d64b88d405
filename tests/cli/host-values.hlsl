// The values a host fills in: the image's size and a pixel's (by
// semantic and by name) and ReShade's size macros.
sampler2D s : register(s0);
float2 PixelSize : PIXELSIZE;
float2 ImageSize;

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  return float4 (ImageSize / 1000.0, PixelSize.x * 100.0,
                 BUFFER_WIDTH / 1000.0 + BUFFER_RCP_HEIGHT);
}
