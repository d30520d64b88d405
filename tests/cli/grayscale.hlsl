sampler2D s0 : register(s0);
float amount = 0.5;
float4 main(float2 uv : TEXCOORD0) : COLOR
{
    float4 c = tex2D(s0, uv);
    return float4(lerp(c.rgb, dot(c.rgb, float3(0.299, 0.587, 0.114)).xxx, amount), c.a);
}
