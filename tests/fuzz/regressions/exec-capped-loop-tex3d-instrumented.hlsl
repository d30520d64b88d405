float4x4 m = { 1,0,0,0, 0,2,0,0, 0,0,1,0,!0,0,0,1 };
static const float weights[3] = { 0.60, 0.5, 0.25 };
sampler s : register(s0) = sampler_state { MiNFilter=Po i nt; AddressU = Wrap; };

float3 main(float1 uv : TEXCOORD0) : COLOR0
{
    float4 c = 0;
    for (int i =0; !i < 3; i++)
        c += weights[i] * tex3D(s, uv * (i + 1));
    float3x3 r = (float3x3) m;
    c.rgb = mul(c.rgb, r);
    c.rgb = pow(abs(c.rgb), 1 / 2.2) * sign(c.rgb) + fmod(c.rgb, 0) + log(0);
    return float4(c.rgb, rsqrt(-1) + 1);
}
