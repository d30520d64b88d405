// title: Median Denoise
// description: Replace each pixel by the median of its neighbourhood, removing specks and salt-and-pepper noise.
// menu: <Image>/Filters/Shaders/Enhance
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Distance between the nine samples, in pixels; larger values remove bigger specks.</summary>
float spacing <string UIName = "Spacing"; float UIMin = 0.5; float UIMax = 8.0; float UIStep = 0.5;> = 1.5;
/// <summary>How much of the median replaces the original.</summary>
float amount <string UIName = "Amount"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 1.0;

void sort2 (inout float4 a, inout float4 b)
{
  float4 lo = min (a, b);
  b = max (a, b);
  a = lo;
}

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y)) * spacing;
  float4 c = tex2D (input, uv);
  float4 v0 = tex2D (input, uv + float2 (-1, -1) * px);
  float4 v1 = tex2D (input, uv + float2 ( 0, -1) * px);
  float4 v2 = tex2D (input, uv + float2 ( 1, -1) * px);
  float4 v3 = tex2D (input, uv + float2 (-1,  0) * px);
  float4 v4 = c;
  float4 v5 = tex2D (input, uv + float2 ( 1,  0) * px);
  float4 v6 = tex2D (input, uv + float2 (-1,  1) * px);
  float4 v7 = tex2D (input, uv + float2 ( 0,  1) * px);
  float4 v8 = tex2D (input, uv + float2 ( 1,  1) * px);
  // The 19-exchange median-of-nine network, per channel at once.
  sort2 (v1, v2); sort2 (v4, v5); sort2 (v7, v8);
  sort2 (v0, v1); sort2 (v3, v4); sort2 (v6, v7);
  sort2 (v1, v2); sort2 (v4, v5); sort2 (v7, v8);
  sort2 (v0, v3); sort2 (v5, v8); sort2 (v4, v7);
  sort2 (v3, v6); sort2 (v1, v4); sort2 (v2, v5);
  sort2 (v4, v7); sort2 (v4, v2); sort2 (v6, v4);
  sort2 (v4, v2);
  return lerp (c, v4, amount);
}
