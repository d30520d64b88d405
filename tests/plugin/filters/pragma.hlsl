// title: Pragma Parameters
#pragma parameter strength "Strength" 0.5 0.0 2.0 0.05
sampler2D s0 : register(s0);
float strength;
float4 main (float2 uv : TEXCOORD0) : COLOR
{
  return float4 (tex2D (s0, uv).rgb * strength, 1.0);
}
