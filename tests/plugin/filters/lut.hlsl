// title: Lookup Table
// An FX Composer texture with its image file beside the shader.
texture lutTex < string ResourceName = "lut.ppm"; >;
sampler2D lut = sampler_state { Texture = <lutTex>; };
sampler2D s0 : register(s0);
float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float4 c = tex2D (s0, uv);
  return float4 (tex2D (lut, float2 (c.r, 0.5)).rgb, c.a);
}
