// title: Seeded
sampler2D s0 : register(s0);
float seed : SEED = 42;
float2 size : VIEWPORTPIXELSIZE;
float4 main (float2 uv : TEXCOORD0, float2 pos : VPOS) : COLOR
{
  return float4 (frac (seed / 1000.0), size / 100.0, pos.x / 100.0);
}
