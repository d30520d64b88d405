// title: Sobel Edges
// description: Find edges with the Sobel operator and draw them as glowing lines or as ink on paper.
// menu: <Image>/Filters/Shaders/Edge Detect
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Multiplier of the edge strength.</summary>
float strength <string UIName = "Strength"; float UIMin = 0.0; float UIMax = 10.0; float UIStep = 0.1;> = 2.0;
/// <summary>Keep the original colours of the edges instead of white.</summary>
bool colored <string UIName = "Coloured edges";> = true;
/// <summary>Dark lines on white instead of bright lines on black.</summary>
bool invert <string UIName = "Invert";> = false;

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float3 s00 = tex2D (input, uv + float2 (-1, -1) * px).rgb;
  float3 s10 = tex2D (input, uv + float2 ( 0, -1) * px).rgb;
  float3 s20 = tex2D (input, uv + float2 ( 1, -1) * px).rgb;
  float3 s01 = tex2D (input, uv + float2 (-1,  0) * px).rgb;
  float4 c   = tex2D (input, uv);
  float3 s21 = tex2D (input, uv + float2 ( 1,  0) * px).rgb;
  float3 s02 = tex2D (input, uv + float2 (-1,  1) * px).rgb;
  float3 s12 = tex2D (input, uv + float2 ( 0,  1) * px).rgb;
  float3 s22 = tex2D (input, uv + float2 ( 1,  1) * px).rgb;
  float3 gx = (s20 + 2.0 * s21 + s22) - (s00 + 2.0 * s01 + s02);
  float3 gy = (s02 + 2.0 * s12 + s22) - (s00 + 2.0 * s10 + s20);
  float3 g = sqrt (gx * gx + gy * gy) * strength * 0.25;
  float3 edge = colored ? saturate (g.r + g.g + g.b) * saturate (c.rgb * 1.5 + 0.1)
                        : saturate (max (g.r, max (g.g, g.b))).xxx;
  return float4 (invert ? 1.0 - edge : edge, c.a);
}
