// title: Gaussian Blur
// description: Smooth, natural-looking blur computed in a single pass of looped taps.
// menu: <Image>/Filters/Shaders/Blur
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Standard deviation of the blur, in pixels.</summary>
float std_dev <string UIName = "Size"; float UIMin = 0.0; float UIMax = 20.0; float UIStep = 0.1;> = 3.0;

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float sigma = max (std_dev, 0.01);
  // Taps reach three deviations out; beyond 12 taps per side the step
  // grows and bilinear filtering fills the gaps between them.
  float reach = ceil (3.0 * sigma);
  int n = (int) min (reach, 12.0);
  float step = reach / max (n, 1);
  float4 sum = 0;
  float wsum = 0;
  [loop] for (int j = -n; j <= n; j++)
    [loop] for (int i = -n; i <= n; i++)
      {
        float2 o = float2 (i, j) * step;
        float w = exp (-dot (o, o) / (2.0 * sigma * sigma));
        float4 s = tex2D (input, uv + o * px);
        // Weight colour by alpha so transparent pixels do not darken edges.
        sum += float4 (s.rgb * s.a, s.a) * w;
        wsum += w;
      }
  float a = sum.a / wsum;
  return float4 (a > 0.0 ? sum.rgb / sum.a : 0.0, a);
}
