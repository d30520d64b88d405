// title: Sepia Tone
// description: Warm brown monochrome, like an aged photographic print.
// menu: <Image>/Filters/Shaders/Colour
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>How much of the sepia look replaces the original colours.</summary>
/// <minValue>0</minValue>
/// <maxValue>1</maxValue>
/// <defaultValue>1</defaultValue>
float amount <string UIName = "Amount"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 1.0;

/// <summary>Lifts the shadows towards the paper colour.</summary>
float fade <string UIName = "Fade"; float UIMin = 0.0; float UIMax = 0.5; float UIStep = 0.01;> = 0.05;

float4 main (float2 uv : TEXCOORD0) : COLOR
{
    float4 c = tex2D (input, uv);
    // The classic sepia matrix (each row gives one output channel).
    float3x3 sepia = { 0.393, 0.769, 0.189,
                       0.349, 0.686, 0.168,
                       0.272, 0.534, 0.131 };
    float3 toned = saturate (mul (sepia, c.rgb));
    toned = lerp (toned, float3 (0.94, 0.89, 0.78), fade * (1.0 - toned));
    return float4 (lerp (c.rgb, toned, amount), c.a);
}
