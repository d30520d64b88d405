// title: Chromatic Aberration
// description: Lens colour fringing: red and blue are scaled apart towards the edges of the frame.
// menu: <Image>/Filters/Shaders/Light and Lens
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Separation of the colour channels at the corners, in pixels.</summary>
float strength <string UIName = "Strength"; float UIMin = -30.0; float UIMax = 30.0; float UIStep = 0.1;> = 8.0;
/// <summary>Blurs each channel along its fringe, like a real lens.</summary>
float smear <string UIName = "Smear"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.5;
/// <summary>Position of the optical centre.</summary>
float2 center <string UIName = "Centre"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = float2 (0.5, 0.5);

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float2 d = uv - center;
  // Shift grows with the square of the distance, as lateral aberration does.
  float2 dir = d * length (d) * 2.0 * strength * px;
  float4 c = tex2D (input, uv);
  float3 sum = 0;
  [unroll] for (int i = 0; i < 8; i++)
    {
      float t = 1.0 - smear * i / 8.0;
      sum.r += tex2D (input, uv - dir * t).r;
      sum.g += tex2D (input, uv - dir * (1.0 - t) * 0.3).g;
      sum.b += tex2D (input, uv + dir * t).b;
    }
  return float4 (sum / 8.0, c.a);
}
