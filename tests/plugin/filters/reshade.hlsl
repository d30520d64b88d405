// title: ReShade Macros
sampler2D s0 : register(s0);
float4 main (float2 uv : TEXCOORD0) : COLOR
{
  return float4 (BUFFER_WIDTH / 100.0, BUFFER_HEIGHT / 100.0, BUFFER_RCP_WIDTH * 10.0, 1.0);
}
