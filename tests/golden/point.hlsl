// Benchmark "point": one read of the input and a per-channel affine map.
sampler2D src : register(s0);

float4 main(float2 uv : TEXCOORD0) : COLOR0
{
  float4 c = tex2D(src, uv);
  return saturate(c * 1.2 - 0.1);
}
