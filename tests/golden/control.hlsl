// Divergent control flow: a branch on the pixel, a bounded loop with
// break, and a variable assigned on both sides (masked writes).
sampler2D src : register(s0);

float4 main(float2 uv : TEXCOORD0) : COLOR0
{
  float4 c = tex2D(src, uv);
  float v;
  if (c.r > 0.5)
    v = c.g;
  else
    v = c.b * 2.0;
  float acc = 0.0;
  for (int i = 0; i < 4; i++)
    {
      acc += v;
      if (acc > 1.0)
        break;
    }
  return float4(acc, v, c.b, 1.0);
}
