// Benchmark "sample": 3x3 sharpen from nine bilinear taps 1.5 px apart,
// clamped to the edge (the default sampler state).
sampler2D src : register(s0);
float2 texel = float2(1.0 / 4096.0, 1.0 / 4096.0);
float strength = 0.4;

float4 main(float2 uv : TEXCOORD0) : COLOR0
{
  float2 o = 1.5 * texel;
  float4 ring = tex2D(src, uv + float2(-o.x, -o.y)) + tex2D(src, uv + float2(0, -o.y))
              + tex2D(src, uv + float2(o.x, -o.y)) + tex2D(src, uv + float2(-o.x, 0))
              + tex2D(src, uv + float2(o.x, 0)) + tex2D(src, uv + float2(-o.x, o.y))
              + tex2D(src, uv + float2(0, o.y)) + tex2D(src, uv + float2(o.x, o.y));
  float4 centre = tex2D(src, uv);
  return centre * (1.0 + 8.0 * strength) - ring * strength;
}
