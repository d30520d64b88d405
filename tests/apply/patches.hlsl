// Four flat 16x16 patches at 32x32, so that even a JPEG holds exact colours
// at their centres.
float4 main(float2 uv : TEXCOORD0) : COLOR
{
    float2 q = step(0.5, uv);
    float4 top = lerp(float4(0.8, 0.2, 0.2, 1), float4(0.2, 0.7, 0.3, 1), q.x);
    float4 bottom = lerp(float4(0.3, 0.3, 0.9, 1), float4(0.5, 0.5, 0.5, 1), q.x);
    return lerp(top, bottom, q.y);
}
