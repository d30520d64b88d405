// GEGL benchmark: levels, the work of gegl:levels (no clamping).
sampler2D src : register(s0);
float in_low = 0.1;
float in_high = 0.9;
float out_low = 0.05;
float out_high = 0.95;

float4 main(float2 uv : TEXCOORD0) : COLOR0
{
  float4 c = tex2D(src, uv);
  float3 t = (c.rgb - in_low) / (in_high - in_low);
  return float4(t * (out_high - out_low) + out_low, c.a);
}
