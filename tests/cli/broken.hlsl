sampler2D s0 : register(s0);
float4 main(float2 uv : TEXCOORD0) : COLOR {
    float4 = tex2D(s0, uv);
    return 0;
}
// BROKEN on purpose: line 3 declares a variable without a name, so the
// compiler must point at the '=' in column 12.
