// title: Unsharp Mask
// description: Sharpen by adding back the difference between the image and a blurred copy of it.
// menu: <Image>/Filters/Shaders/Enhance
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Radius of the blur that defines what counts as detail, in pixels.</summary>
float radius <string UIName = "Radius"; float UIMin = 0.5; float UIMax = 10.0; float UIStep = 0.1;> = 2.0;
/// <summary>Strength of the sharpening.</summary>
float amount <string UIName = "Amount"; float UIMin = 0.0; float UIMax = 5.0; float UIStep = 0.01;> = 1.0;
/// <summary>Differences smaller than this are left alone, sparing noise and smooth areas.</summary>
float threshold <string UIName = "Threshold"; float UIMin = 0.0; float UIMax = 0.5; float UIStep = 0.005;> = 0.01;

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float4 c = tex2D (input, uv);
  float sigma = max (radius, 0.1);
  float3 sum = 0;
  float wsum = 0;
  [unroll] for (int j = -3; j <= 3; j++)
    [unroll] for (int i = -3; i <= 3; i++)
      {
        float2 o = float2 (i, j) * sigma / 1.5;
        float w = exp (-dot (o, o) / (2.0 * sigma * sigma));
        sum += tex2D (input, uv + o * px).rgb * w;
        wsum += w;
      }
  float3 detail = c.rgb - sum / wsum;
  // Soft threshold: detail fades in above the threshold rather than jumping.
  float3 gate = smoothstep (threshold * 0.5, threshold * 1.5 + 1e-5, abs (detail));
  return float4 (saturate (c.rgb + detail * amount * gate), c.a);
}
