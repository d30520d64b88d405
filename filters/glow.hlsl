// title: Glow
// description: Bloom: bright parts of the image bleed soft light into their surroundings.
// menu: <Image>/Filters/Shaders/Light and Lens
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Brightness above which pixels start to glow.</summary>
float threshold <string UIName = "Threshold"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.6;
/// <summary>How far the glow spreads, in pixels.</summary>
float radius <string UIName = "Radius"; float UIMin = 1.0; float UIMax = 100.0; float UIStep = 1.0;> = 24.0;
/// <summary>Brightness of the added glow.</summary>
float intensity <string UIName = "Intensity"; float UIMin = 0.0; float UIMax = 4.0; float UIStep = 0.01;> = 1.2;
/// <summary>Colour the glow is multiplied with.</summary>
float3 glow_color <string UIName = "Glow colour"; string UIWidget = "Color";> = float3 (1.0, 0.95, 0.85);

float3 bright (float3 c)
{
  float y = max (c.r, max (c.g, c.b));
  // A soft knee avoids a hard edge where the threshold cuts in.
  float k = smoothstep (threshold - 0.1, threshold + 0.1, y);
  return c * k;
}

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float4 c = tex2D (input, uv);
  float3 sum = bright (c.rgb);
  float wsum = 1.0;
  // 64 taps on a golden-angle spiral cover the disc evenly at any radius.
  [loop] for (int i = 1; i < 64; i++)
    {
      float r = sqrt (i / 64.0);
      float a = i * 2.39996323;
      float2 o = float2 (cos (a), sin (a)) * r * radius;
      float w = exp (-3.0 * r * r);
      sum += bright (tex2D (input, uv + o * px).rgb) * w;
      wsum += w;
    }
  float3 g = sum / wsum * glow_color * intensity;
  // Screen blend keeps highlights from clipping abruptly.
  float3 rgb = 1.0 - (1.0 - c.rgb) * (1.0 - saturate (g));
  return float4 (rgb, c.a);
}
