// Generates the 8×6 test image texture.fx reads.
float4 main(float2 uv : TEXCOORD0) : COLOR0
{
  return float4(uv.x, uv.y, frac(uv.x * 3.0 + uv.y * 5.0), 1.0);
}
