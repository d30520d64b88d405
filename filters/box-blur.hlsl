// title: Box Blur
// description: Average of a square of pixels: a fast, even blur.
// menu: <Image>/Filters/Shaders/Blur
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Half the side of the averaged square, in pixels.</summary>
int radius <string UIName = "Radius"; int UIMin = 0; int UIMax = 16;> = 4;

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  int r = clamp (radius, 0, 16);
  float4 sum = 0;
  [loop] for (int j = -r; j <= r; j++)
    [loop] for (int i = -r; i <= r; i++)
      {
        float4 s = tex2D (input, uv + float2 (i, j) * px);
        sum += float4 (s.rgb * s.a, s.a);
      }
  float n = (2 * r + 1) * (2 * r + 1);
  return float4 (sum.a > 0.0 ? sum.rgb / sum.a : 0.0, sum.a / n);
}
