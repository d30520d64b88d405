// title: Oil Paint
// description: Kuwahara filter: smooth flat brush strokes that keep edges sharp, like an oil painting.
// menu: <Image>/Filters/Shaders/Artistic
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Size of the brush, in pixels.</summary>
int radius <string UIName = "Brush size"; int UIMin = 1; int UIMax = 10;> = 4;

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  int r = clamp (radius, 1, 10);
  float4 c = tex2D (input, uv);
  float3 best = c.rgb;
  float best_var = 1e9;
  // Four overlapping quadrants; the pixel takes the mean of the one whose
  // colours vary least, so it never averages across an edge.
  [unroll] for (int q = 0; q < 4; q++)
    {
      float2 dir = float2 ((q & 1) ? 1.0 : -1.0, (q & 2) ? 1.0 : -1.0);
      float3 m = 0, m2 = 0;
      [loop] for (int j = 0; j <= r; j++)
        [loop] for (int i = 0; i <= r; i++)
          {
            float3 s = tex2D (input, uv + float2 (i, j) * dir * px).rgb;
            m += s;
            m2 += s * s;
          }
      float n = (r + 1) * (r + 1);
      m /= n;
      float3 v = m2 / n - m * m;
      float var = v.r + v.g + v.b;
      if (var < best_var)
        {
          best_var = var;
          best = m;
        }
    }
  return float4 (best, c.a);
}
