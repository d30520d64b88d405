// Slow on purpose so the kill test can stop a run in the middle.
sampler2D s0 : register(s0);
int rounds = 400;
float4 main(float2 uv : TEXCOORD0) : COLOR
{
    float4 c = tex2D(s0, uv);
    float acc = 0;
    [loop] for (int i = 0; i < rounds; i++)
        acc += sin(c.r * i + uv.x);
    return float4(frac(acc), c.g, 1 - c.b, 1);
}
