sampler2D s0 : register(s0);
float amount = 0.5;
int count = 4;

float4 shade(float2 uv, int n)
{
    float4 acc = 0;
    [loop] for (int i = 0; i < n; i++)
    {
        if (i == 7) break;
        acc += tex2D(s0, uv + float2(i, -i) / 64.0);
    }
    return acc / max(n, 1);
}

float4 main(float2 uv : TEXCOORD0, float2 vpos : VPOS) : COLOR
{
    float4 c = shade(uv, count);
    float z = amount / (uv.x - uv.x);          // +inf or NaN, never a trap
    int q = count / (int(uv.y) - int(uv.y));   // integer division by zero
    if (c.a < 0.01) discard;
    c.rgb = lerp(c.rgb, dot(c.rgb, float3(0.299, 0.587, 0.114)), amount);
    c.r += isnan(z) ? 0 : 0.1 * frac(vpos.x * 0.5) + q * 0;
    return saturate(c);
}
