// The image bound to slot 0 resampled bilinearly to the viewport: makes the
// corpus test's inputs from the sample photograph.
sampler2D image : register(s0);

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  return tex2D (image, uv);
}
