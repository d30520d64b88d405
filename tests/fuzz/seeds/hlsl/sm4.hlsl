Texture2D tex : register(t0);
SamplerState samp : register(s0);
cbuffer Params : register(b0)
{
    float4 tint;
    float2 offsets[4];
    uint mode;
};

struct PSIn { float4 pos : SV_Position; float2 uv : TEXCOORD0; };

float4 main(PSIn i) : SV_Target
{
    float4 c = tex.Sample(samp, i.uv);
    uint w, h;
    tex.GetDimensions(w, h);
    [unroll] for (int k = 0; k < 4; k++)
        c += tex.Load(int3(i.pos.xy + offsets[k] * float2(w, h), 0));
    switch (mode)
    {
    case 0: c *= tint; break;
    case 1: c = c.bgra; break;
    default: c = asfloat(asuint(c) ^ 0x80000000u); break;
    }
    return c / 5;
}
