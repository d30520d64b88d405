// title: Hue Rotate
// description: Turn every hue around the colour wheel with a colour matrix, and adjust saturation.
// menu: <Image>/Filters/Shaders/Colour
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>How far to turn the hues, in degrees.</summary>
float angle <string UIName = "Angle"; float UIMin = -180.0; float UIMax = 180.0; float UIStep = 1.0;> = 90.0;
/// <summary>Colour intensity: 0 is grey, 1 unchanged, 2 doubled.</summary>
float saturation <string UIName = "Saturation"; float UIMin = 0.0; float UIMax = 2.0; float UIStep = 0.01;> = 1.0;

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float4 c = tex2D (input, uv);
  // Rotation about the grey axis (1,1,1)/sqrt(3) by Rodrigues' formula,
  // which keeps greys grey while the hues turn.
  float a = radians (angle);
  float cs = cos (a), sn = sin (a);
  float k = (1.0 - cs) / 3.0;
  float s3 = sn * 0.57735027;
  float3x3 rot = { cs + k, k - s3, k + s3,
                   k + s3, cs + k, k - s3,
                   k - s3, k + s3, cs + k };
  float3 rgb = mul (rot, c.rgb);
  float grey = dot (rgb, float3 (0.299, 0.587, 0.114));
  rgb = lerp (grey.xxx, rgb, saturation);
  return float4 (saturate (rgb), c.a);
}
