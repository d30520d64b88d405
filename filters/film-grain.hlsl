// title: Film Grain
// description: Photographic grain from seeded hash noise, stronger in the middle tones as on real film.
// menu: <Image>/Filters/Shaders/Noise
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Strength of the grain.</summary>
float amount <string UIName = "Amount"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.25;
/// <summary>Size of the grains, in pixels.</summary>
float grain_size <string UIName = "Grain size"; float UIMin = 0.5; float UIMax = 6.0; float UIStep = 0.1;> = 1.4;
/// <summary>Give each colour channel its own grain instead of one grey grain.</summary>
bool color_grain <string UIName = "Colour grain";> = false;
/// <summary>Random seed: each value gives a different grain pattern.</summary>
int seed <string UIName = "Random seed"; int UIMin = 0; int UIMax = 1000000;> = 1;

// A float-only hash (no sin) so the pattern is the same on every machine.
float hash (float2 p, float s)
{
  float3 p3 = frac (float3 (p.xyx) * 0.1031 + s * 0.0137);
  p3 += dot (p3, p3.yzx + 33.33);
  return frac ((p3.x + p3.y) * p3.z);
}

// Smoothly interpolated value noise at the grain scale.
float noise (float2 p, float s)
{
  float2 i = floor (p);
  float2 f = frac (p);
  f = f * f * (3.0 - 2.0 * f);
  float a = hash (i, s), b = hash (i + float2 (1, 0), s);
  float c = hash (i + float2 (0, 1), s), d = hash (i + float2 (1, 1), s);
  return lerp (lerp (a, b, f.x), lerp (c, d, f.x), f.y) - 0.5;
}

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float2 p = uv / px / max (grain_size, 0.1);
  float s = fmod ((float) seed, 4096.0);
  float4 c = tex2D (input, uv);
  float3 n = noise (p, s).xxx;
  if (color_grain)
    n = float3 (n.x, noise (p + 17.0, s), noise (p + 43.0, s));
  float y = dot (c.rgb, float3 (0.2126, 0.7152, 0.0722));
  float response = 4.0 * y * (1.0 - y) * 0.8 + 0.2;
  return float4 (saturate (c.rgb + n * amount * response), c.a);
}
