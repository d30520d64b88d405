// title: Mix Two
sampler2D s0 : register(s0);
sampler2D s1 : register(s1);
float weight = 0.25;
float4 main (float2 uv : TEXCOORD0) : COLOR
{
  return lerp (tex2D (s0, uv), tex2D (s1, uv), weight);
}
