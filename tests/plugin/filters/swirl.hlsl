// title: Swirl
// Where it reads depends on the pixel's colour: the whole input is needed.
sampler2D s0 : register(s0);
float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float4 c = tex2D (s0, uv);
  return tex2D (s0, frac (c.gr * 3.7 + uv.yx));
}
