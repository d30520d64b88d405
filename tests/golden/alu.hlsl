// Benchmark "alu": sepia, vignette, contrast and gamma (three pow, one sqrt).
sampler2D src : register(s0);
float amount = 0.8;
float vignette = 0.6;
float contrast = 1.25;
float gamma = 0.8;

float4 main(float2 uv : TEXCOORD0) : COLOR0
{
  float4 c = tex2D(src, uv);
  float3 sepia = float3(dot(c.rgb, float3(0.393, 0.769, 0.189)),
                        dot(c.rgb, float3(0.349, 0.686, 0.168)),
                        dot(c.rgb, float3(0.272, 0.534, 0.131)));
  float3 col = lerp(c.rgb, sepia, amount);
  float2 d = uv - 0.5;
  float r = sqrt(dot(d, d)) * 1.4142135;
  float v = saturate(1.0 - vignette * r * r * (3.0 - 2.0 * r));
  col = col * v;
  float luma = dot(col, float3(0.2126, 0.7152, 0.0722));
  col = (col - luma) * 1.1 + luma;
  col = (col - 0.5) * contrast + 0.5;
  col = pow(saturate(col), gamma);
  return float4(col, c.a);
}
