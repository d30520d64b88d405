sampler2D s0 : register(s0);

float4 main(float2 uv : TEXCOORD0) : COLOR
{
    if (uv.x > 0.5)
        discard;
    return float4(0, 0, 1, 1);
}
