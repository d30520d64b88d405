// title: Tilt-Shift
// description: Keep a horizontal band sharp and blur above and below it, so the scene looks like a miniature.
// menu: <Image>/Filters/Shaders/Light and Lens
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Vertical position of the sharp band (0 top, 1 bottom).</summary>
float focus <string UIName = "Focus position"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.62;
/// <summary>Height of the sharp band, as a fraction of the image height.</summary>
float band <string UIName = "Band height"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.15;
/// <summary>Largest blur radius, in pixels, far from the band.</summary>
float blur <string UIName = "Blur"; float UIMin = 0.0; float UIMax = 40.0; float UIStep = 0.5;> = 10.0;
/// <summary>Extra colour saturation that adds to the toy-like look.</summary>
float saturation <string UIName = "Saturation"; float UIMin = 0.0; float UIMax = 2.0; float UIStep = 0.01;> = 1.3;

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float dist = max (abs (uv.y - focus) - band * 0.5, 0.0);
  float r = blur * saturate (dist * 4.0);
  float4 sum = tex2D (input, uv);
  float wsum = 1.0;
  [loop] for (int i = 1; i < 48; i++)
    {
      float rr = sqrt (i / 48.0);
      float a = i * 2.39996323;
      float w = 1.0 - 0.5 * rr;
      sum += tex2D (input, uv + float2 (cos (a), sin (a)) * rr * r * px) * w;
      wsum += w;
    }
  float4 c = sum / wsum;
  float grey = dot (c.rgb, float3 (0.2126, 0.7152, 0.0722));
  return float4 (saturate (lerp (grey.xxx, c.rgb, saturation)), c.a);
}
