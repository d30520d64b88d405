// title: Grade
// A ReShade-style source annotation on an SM4 texture object.
Texture2D image : register(t0);
Texture2D ramp < source = "lut.ppm"; >;
SamplerState smp : register(s0);
float4 main (float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target
{
  float4 c = image.Sample (smp, uv);
  return float4 (ramp.Sample (smp, float2 (c.g, 0.5)).rgb, c.a);
}
