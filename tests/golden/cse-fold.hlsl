// Constant folding, CSE of a repeated expression, a dead component and
// multiply-add fusion.
sampler2D src : register(s0);

float4 main(float2 uv : TEXCOORD0) : COLOR0
{
  float4 c = tex2D(src, uv);
  float k = 2.0 * 3.0 - 5.0;             // folds to 1
  float3 a = c.rgb * 0.5 + 0.25;         // MAD
  float3 b = c.rgb * 0.5 + 0.25;         // same as a: CSE
  float4 unused = c * 7.0;               // dead
  return float4(a + b * k, c.a);
}
