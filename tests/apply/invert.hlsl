sampler2D s0 : register(s0);
float strength = 1;
float4 main(float2 uv : TEXCOORD0) : COLOR
{
    float4 c = tex2D(s0, uv);
    return float4(lerp(c.rgb, 1 - c.rgb, strength), c.a);
}
