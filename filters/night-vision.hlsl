// title: Night Vision
// description: A green image-intensifier view with amplified shadows, noise and a round scope mask.
// menu: <Image>/Filters/Shaders/Film
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Amplification of the light.</summary>
float gain <string UIName = "Gain"; float UIMin = 0.5; float UIMax = 8.0; float UIStep = 0.1;> = 2.5;
/// <summary>Strength of the sensor noise.</summary>
float noise_amount <string UIName = "Noise"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.2;
/// <summary>Darken everything outside a round eyepiece.</summary>
bool scope <string UIName = "Scope mask";> = true;
/// <summary>Random seed of the noise.</summary>
int seed <string UIName = "Random seed"; int UIMin = 0; int UIMax = 1000000;> = 3;

float hash (float2 p)
{
  float3 p3 = frac (float3 (p.xyx) * 0.1031);
  p3 += dot (p3, p3.yzx + 33.33);
  return frac ((p3.x + p3.y) * p3.z);
}

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float4 c = tex2D (input, uv);
  float y = dot (c.rgb, float3 (0.2126, 0.7152, 0.0722));
  // Amplify with a soft shoulder so the highlights bloom rather than clip.
  float v = 1.0 - exp (-y * gain);
  float2 p = floor (uv / px);
  v += (hash (p + fmod ((float) seed, 4096.0) * 13.0) - 0.5) * noise_amount;
  v *= 0.9 + 0.1 * sin (uv.y / px.y * 1.5);
  float3 rgb = float3 (0.15, 1.0, 0.25) * v + float3 (0.0, 0.04, 0.0);
  if (scope)
    {
      float aspect = px.y / px.x;
      float2 d = (uv - 0.5) * float2 (aspect, 1.0);
      float r = length (d) / (0.5 * min (aspect, 1.0) * 0.98);
      rgb *= 1.0 - smoothstep (0.85, 1.0, r);
    }
  return float4 (saturate (rgb), c.a);
}
