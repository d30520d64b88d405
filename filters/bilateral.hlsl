// title: Denoise (Bilateral)
// description: Smooth noise and fine texture while keeping edges crisp, by averaging only similar neighbours.
// menu: <Image>/Filters/Shaders/Enhance
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Spatial reach of the smoothing, in pixels.</summary>
float radius <string UIName = "Radius"; float UIMin = 1.0; float UIMax = 12.0; float UIStep = 0.1;> = 4.0;
/// <summary>How different a neighbour's colour may be and still be averaged in.</summary>
float edge_preservation <string UIName = "Colour tolerance"; float UIMin = 0.01; float UIMax = 1.0; float UIStep = 0.01;> = 0.12;

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float4 c = tex2D (input, uv);
  float sigma_r = max (edge_preservation, 0.001);
  float step = max (radius, 0.5) / 5.0;
  float4 sum = 0;
  float wsum = 0;
  [loop] for (int j = -5; j <= 5; j++)
    [loop] for (int i = -5; i <= 5; i++)
      {
        float2 o = float2 (i, j);
        float4 s = tex2D (input, uv + o * step * px);
        float3 d = s.rgb - c.rgb;
        float w = exp (-dot (o, o) / 12.5 - dot (d, d) / (2.0 * sigma_r * sigma_r));
        sum += s * w;
        wsum += w;
      }
  return sum / wsum;
}
