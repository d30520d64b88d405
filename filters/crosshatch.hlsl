// title: Crosshatch
// description: Redraw the image as pen hatching: darker tones get more layers of crossing lines.
// menu: <Image>/Filters/Shaders/Artistic
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Distance between hatch lines, in pixels.</summary>
float spacing <string UIName = "Line spacing"; float UIMin = 3.0; float UIMax = 40.0; float UIStep = 0.5;> = 8.0;
/// <summary>Thickness of the lines as a fraction of the spacing.</summary>
float thickness <string UIName = "Line thickness"; float UIMin = 0.05; float UIMax = 0.8; float UIStep = 0.01;> = 0.25;
/// <summary>Colour of the ink.</summary>
float3 ink <string UIName = "Ink colour"; string UIWidget = "Color";> = float3 (0.08, 0.08, 0.2);
/// <summary>Colour of the paper.</summary>
float3 paper <string UIName = "Paper colour"; string UIWidget = "Color";> = float3 (0.98, 0.96, 0.9);
/// <summary>Tint the paper with the image's own colours.</summary>
float color_wash <string UIName = "Colour wash"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.3;

float hatch (float2 p, float2 dir)
{
  float d = frac (dot (p, dir) / max (spacing, 1.0));
  float half_w = thickness * 0.5;
  // Anti-aliased line of the given thickness centred on each period.
  float aa = 1.0 / max (spacing, 1.0);
  return 1.0 - smoothstep (half_w - aa, half_w + aa, abs (d - 0.5));
}

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float2 p = uv / px;
  float4 c = tex2D (input, uv);
  float y = dot (c.rgb, float3 (0.2126, 0.7152, 0.0722));
  float lines = 0.0;
  if (y < 0.85) lines = max (lines, hatch (p, float2 (0.7071, 0.7071)));
  if (y < 0.6)  lines = max (lines, hatch (p, float2 (0.7071, -0.7071)));
  if (y < 0.4)  lines = max (lines, hatch (p + spacing * 0.5, float2 (1.0, 0.0)));
  if (y < 0.2)  lines = max (lines, hatch (p + spacing * 0.5, float2 (0.0, 1.0)));
  float3 bg = lerp (paper, paper * saturate (c.rgb * 0.5 + 0.6), color_wash);
  return float4 (lerp (bg, ink, lines), c.a);
}
