// A 300-line colour-grading shader used to measure compile time:
// helper functions, structs, loops, matrices and texture reads, in the
// style of a real post-processing filter.
sampler2D Input : register(s0);
sampler2D Lut : register(s1);
float4 Params : register(c0);      // exposure, contrast, saturation, gamma
float4 Tint : register(c1);
float3x3 ColorMatrix : register(c2);
float2 TexelSize : register(c5);

struct Grade
{
    float3 lift;
    float3 gamma;
    float3 gain;
    float  strength;
};

static const float3 LUMA = float3(0.2126, 0.7152, 0.0722);
static const float Weights[5] = { 0.227027, 0.1945946, 0.1216216, 0.054054, 0.016216 };

float3 curve0(float3 c, float k)
{
    float3 a = c * (k + 0.05);
    float3 b = a / (1.0 + a);
    float3 d = lerp(c, b, saturate(k * 0.50));
    d = pow(max(d, 0.0001), 1.0 / (1.0 + 0.00));
    if (dot(d, LUMA) > 0.50)
        d = sqrt(d);
    else
        d = d * d;
    return d;
}

float3 curve1(float3 c, float k)
{
    float3 a = c * (k + 0.15);
    float3 b = a / (1.0 + a);
    float3 d = lerp(c, b, saturate(k * 0.53));
    d = pow(max(d, 0.0001), 1.0 / (1.0 + 0.01));
    if (dot(d, LUMA) > 0.52)
        d = sqrt(d);
    else
        d = d * d;
    return d;
}

float3 curve2(float3 c, float k)
{
    float3 a = c * (k + 0.25);
    float3 b = a / (1.0 + a);
    float3 d = lerp(c, b, saturate(k * 0.56));
    d = pow(max(d, 0.0001), 1.0 / (1.0 + 0.02));
    if (dot(d, LUMA) > 0.54)
        d = sqrt(d);
    else
        d = d * d;
    return d;
}

float3 curve3(float3 c, float k)
{
    float3 a = c * (k + 0.35);
    float3 b = a / (1.0 + a);
    float3 d = lerp(c, b, saturate(k * 0.59));
    d = pow(max(d, 0.0001), 1.0 / (1.0 + 0.03));
    if (dot(d, LUMA) > 0.56)
        d = sqrt(d);
    else
        d = d * d;
    return d;
}

float3 curve4(float3 c, float k)
{
    float3 a = c * (k + 0.45);
    float3 b = a / (1.0 + a);
    float3 d = lerp(c, b, saturate(k * 0.62));
    d = pow(max(d, 0.0001), 1.0 / (1.0 + 0.04));
    if (dot(d, LUMA) > 0.58)
        d = sqrt(d);
    else
        d = d * d;
    return d;
}

float3 curve5(float3 c, float k)
{
    float3 a = c * (k + 0.55);
    float3 b = a / (1.0 + a);
    float3 d = lerp(c, b, saturate(k * 0.65));
    d = pow(max(d, 0.0001), 1.0 / (1.0 + 0.05));
    if (dot(d, LUMA) > 0.60)
        d = sqrt(d);
    else
        d = d * d;
    return d;
}

float3 curve6(float3 c, float k)
{
    float3 a = c * (k + 0.65);
    float3 b = a / (1.0 + a);
    float3 d = lerp(c, b, saturate(k * 0.68));
    d = pow(max(d, 0.0001), 1.0 / (1.0 + 0.06));
    if (dot(d, LUMA) > 0.62)
        d = sqrt(d);
    else
        d = d * d;
    return d;
}

float3 curve7(float3 c, float k)
{
    float3 a = c * (k + 0.75);
    float3 b = a / (1.0 + a);
    float3 d = lerp(c, b, saturate(k * 0.71));
    d = pow(max(d, 0.0001), 1.0 / (1.0 + 0.07));
    if (dot(d, LUMA) > 0.64)
        d = sqrt(d);
    else
        d = d * d;
    return d;
}

float3 curve8(float3 c, float k)
{
    float3 a = c * (k + 0.85);
    float3 b = a / (1.0 + a);
    float3 d = lerp(c, b, saturate(k * 0.74));
    d = pow(max(d, 0.0001), 1.0 / (1.0 + 0.08));
    if (dot(d, LUMA) > 0.66)
        d = sqrt(d);
    else
        d = d * d;
    return d;
}

float3 curve9(float3 c, float k)
{
    float3 a = c * (k + 0.95);
    float3 b = a / (1.0 + a);
    float3 d = lerp(c, b, saturate(k * 0.77));
    d = pow(max(d, 0.0001), 1.0 / (1.0 + 0.09));
    if (dot(d, LUMA) > 0.68)
        d = sqrt(d);
    else
        d = d * d;
    return d;
}

float3 curve10(float3 c, float k)
{
    float3 a = c * (k + 1.05);
    float3 b = a / (1.0 + a);
    float3 d = lerp(c, b, saturate(k * 0.80));
    d = pow(max(d, 0.0001), 1.0 / (1.0 + 0.10));
    if (dot(d, LUMA) > 0.70)
        d = sqrt(d);
    else
        d = d * d;
    return d;
}

float3 curve11(float3 c, float k)
{
    float3 a = c * (k + 1.15);
    float3 b = a / (1.0 + a);
    float3 d = lerp(c, b, saturate(k * 0.83));
    d = pow(max(d, 0.0001), 1.0 / (1.0 + 0.11));
    if (dot(d, LUMA) > 0.72)
        d = sqrt(d);
    else
        d = d * d;
    return d;
}

float3 curve12(float3 c, float k)
{
    float3 a = c * (k + 1.25);
    float3 b = a / (1.0 + a);
    float3 d = lerp(c, b, saturate(k * 0.86));
    d = pow(max(d, 0.0001), 1.0 / (1.0 + 0.12));
    if (dot(d, LUMA) > 0.74)
        d = sqrt(d);
    else
        d = d * d;
    return d;
}

float3 curve13(float3 c, float k)
{
    float3 a = c * (k + 1.35);
    float3 b = a / (1.0 + a);
    float3 d = lerp(c, b, saturate(k * 0.89));
    d = pow(max(d, 0.0001), 1.0 / (1.0 + 0.13));
    if (dot(d, LUMA) > 0.76)
        d = sqrt(d);
    else
        d = d * d;
    return d;
}

float3 curve14(float3 c, float k)
{
    float3 a = c * (k + 1.45);
    float3 b = a / (1.0 + a);
    float3 d = lerp(c, b, saturate(k * 0.92));
    d = pow(max(d, 0.0001), 1.0 / (1.0 + 0.14));
    if (dot(d, LUMA) > 0.78)
        d = sqrt(d);
    else
        d = d * d;
    return d;
}

float3 curve15(float3 c, float k)
{
    float3 a = c * (k + 1.55);
    float3 b = a / (1.0 + a);
    float3 d = lerp(c, b, saturate(k * 0.95));
    d = pow(max(d, 0.0001), 1.0 / (1.0 + 0.15));
    if (dot(d, LUMA) > 0.80)
        d = sqrt(d);
    else
        d = d * d;
    return d;
}

float3 curve16(float3 c, float k)
{
    float3 a = c * (k + 1.65);
    float3 b = a / (1.0 + a);
    float3 d = lerp(c, b, saturate(k * 0.98));
    d = pow(max(d, 0.0001), 1.0 / (1.0 + 0.16));
    if (dot(d, LUMA) > 0.82)
        d = sqrt(d);
    else
        d = d * d;
    return d;
}

float3 apply_grade(float3 c, Grade g)
{
    float3 lifted = c * (1.0 - g.lift) + g.lift;
    float3 gained = lifted * g.gain;
    float3 graded = pow(max(gained, 0.0), 1.0 / max(g.gamma, 0.01));
    return lerp(c, graded, g.strength);
}

float3 saturation(float3 c, float s)
{
    float l = dot(c, LUMA);
    return lerp(l.xxx, c, s);
}

float3 blur(float2 uv)
{
    float3 sum = tex2D(Input, uv).rgb * Weights[0];
    [unroll] for (int i = 1; i < 5; i++)
    {
        float2 o = float2(TexelSize.x * i, 0);
        sum += tex2D(Input, uv + o).rgb * Weights[i];
        sum += tex2D(Input, uv - o).rgb * Weights[i];
    }
    return sum;
}

float3 lut3d(float3 c)
{
    float blue = c.b * 15.0;
    float slice = floor(blue);
    float f = blue - slice;
    float2 uv0 = float2((slice + c.r) / 16.0, c.g);
    float2 uv1 = float2((min(slice + 1.0, 15.0) + c.r) / 16.0, c.g);
    return lerp(tex2D(Lut, uv0).rgb, tex2D(Lut, uv1).rgb, f);
}

float4 main(float2 uv : TEXCOORD0) : COLOR
{
    float4 src = tex2D(Input, uv);
    float3 c = src.rgb * exp2(Params.x);
    c = mul(ColorMatrix, c);
    Grade g;
    g.lift = Tint.rgb * 0.1;
    g.gamma = float3(1.0, 1.0, 1.0) * Params.w;
    g.gain = 1.0 + Tint.rgb * Tint.a;
    g.strength = saturate(Params.y);
    c = apply_grade(c, g);
    c = curve0(c, Params.y * 0.90);
    c = curve1(c, Params.y * 0.91);
    c = curve2(c, Params.y * 0.92);
    c = curve3(c, Params.y * 0.93);
    c = curve4(c, Params.y * 0.94);
    c = curve5(c, Params.y * 0.95);
    c = curve6(c, Params.y * 0.96);
    c = curve7(c, Params.y * 0.97);
    c = curve8(c, Params.y * 0.98);
    c = curve9(c, Params.y * 0.99);
    c = curve10(c, Params.y * 1.00);
    c = curve11(c, Params.y * 1.01);
    c = curve12(c, Params.y * 1.02);
    c = curve13(c, Params.y * 1.03);
    c = curve14(c, Params.y * 1.04);
    c = curve15(c, Params.y * 1.05);
    c = curve16(c, Params.y * 1.06);
    c = saturation(c, Params.z);
    float3 soft = blur(uv);
    float edge = length(ddx(uv)) + length(ddy(uv));
    c = lerp(c, soft, saturate(edge * 100.0));
    c = lut3d(saturate(c));
    float vign = 1.0;
    for (int k = 0; k < 3; k++)
    {
        float2 d = uv - 0.5;
        vign *= 1.0 - dot(d, d) * (0.3 + 0.1 * k);
    }
    c *= vign;
    switch ((int) Params.w)
    {
    case 0: c = c.bgr; break;
    case 1: c = 1.0 - c; break;
    default: break;
    }
    return float4(saturate(c), src.a);
}
