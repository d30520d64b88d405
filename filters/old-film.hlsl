// title: Old Film
// description: A worn print from an old projector: faded sepia, flicker, scratches, dust and a dark vignette.
// menu: <Image>/Filters/Shaders/Film
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>How much sepia toning replaces the colours.</summary>
float sepia <string UIName = "Sepia"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.8;
/// <summary>Number of vertical scratches.</summary>
int scratches <string UIName = "Scratches"; int UIMin = 0; int UIMax = 12;> = 4;
/// <summary>Amount of dust specks.</summary>
float dust <string UIName = "Dust"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.4;
/// <summary>Strength of the dark corners.</summary>
float vignette <string UIName = "Vignette"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.6;
/// <summary>Random seed: each value gives a different frame.</summary>
int seed <string UIName = "Random seed"; int UIMin = 0; int UIMax = 1000000;> = 7;

float hash (float2 p)
{
  float3 p3 = frac (float3 (p.xyx) * 0.1031);
  p3 += dot (p3, p3.yzx + 33.33);
  return frac ((p3.x + p3.y) * p3.z);
}

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float s = fmod ((float) seed, 4096.0);
  float4 c = tex2D (input, uv);
  float y = dot (c.rgb, float3 (0.2126, 0.7152, 0.0722));
  // Faded print: lifted blacks, lowered whites, then the sepia tone.
  float3 toned = float3 (1.07, 0.95, 0.74) * (y * 0.85 + 0.08);
  float3 rgb = lerp (c.rgb, toned, sepia);
  rgb *= 0.92 + 0.16 * hash (float2 (s, 3.0));               // frame flicker
  [loop] for (int i = 0; i < scratches; i++)
    {
      float x = hash (float2 (i, s + 1.0));
      float wobble = 0.004 * sin (uv.y * 20.0 + hash (float2 (s, i)) * 6.28);
      float d = abs (uv.x - x - wobble) / px.x;
      float line_alpha = saturate (1.2 - d) * (0.4 + 0.5 * hash (float2 (i, s + 9.0)));
      // Scratches fade in and out along their length.
      line_alpha *= smoothstep (0.2, 0.6, frac (uv.y * 1.3 + hash (float2 (i, s))));
      rgb = lerp (rgb, float3 (0.95, 0.92, 0.85), line_alpha);
    }
  float2 cell = floor (uv / px / 6.0);
  float h = hash (cell + s * 7.0);
  float speck = step (1.0 - dust * 0.01, h);
  rgb = lerp (rgb, float3 (0.12, 0.1, 0.08), speck * 0.8);
  float2 d = uv * 2.0 - 1.0;
  float v = saturate (1.0 - dot (d, d) * 0.35 * vignette * 1.5);
  return float4 (saturate (rgb * v), c.a);
}
