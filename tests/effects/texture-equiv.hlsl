// The single-pass equivalent of texture.fx, with the image bound to s1.
sampler2D Back : register(s0);
sampler2D Pattern : register(s1);
float4 main(float2 uv : TEXCOORD0) : COLOR0
{
  return float4(tex2D(Pattern, uv).bgr, 1.0) * 0.5 + tex2D(Back, uv) * 0.25;
}
