// title: Pencil Sketch
// description: A graphite drawing made by colour-dodging the image with its own blurred negative.
// menu: <Image>/Filters/Shaders/Artistic
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Width of the pencil strokes, in pixels.</summary>
float stroke <string UIName = "Stroke width"; float UIMin = 1.0; float UIMax = 12.0; float UIStep = 0.1;> = 3.0;
/// <summary>Darkness of the strokes.</summary>
float darkness <string UIName = "Darkness"; float UIMin = 0.5; float UIMax = 4.0; float UIStep = 0.01;> = 1.6;
/// <summary>Keep some of the image's colours, like a coloured-pencil drawing.</summary>
float color_amount <string UIName = "Colour"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.0;

float luma (float3 c)
{
  return dot (c, float3 (0.2126, 0.7152, 0.0722));
}

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float4 c = tex2D (input, uv);
  float y = luma (c.rgb);
  float blurred = 0;
  float wsum = 0;
  [loop] for (int i = 0; i < 24; i++)
    {
      float r = sqrt ((i + 0.5) / 24.0) * stroke;
      float a = i * 2.39996323;
      float w = exp (-r * r / (stroke * stroke));
      blurred += luma (tex2D (input, uv + float2 (cos (a), sin (a)) * r * px).rgb) * w;
      wsum += w;
    }
  blurred /= wsum;
  // Colour dodge of y by the inverted blur: flat areas go white, edges dark.
  float dodge = saturate (y / max (blurred + 0.02, 1e-3) - 0.02);
  float g = pow (dodge, darkness);
  float3 tint = lerp (g.xxx, g * saturate (c.rgb / max (y, 0.05)), color_amount);
  return float4 (saturate (tint), c.a);
}
