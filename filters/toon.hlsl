// title: Cartoon
// description: Cel shading: flat bands of colour with dark ink outlines.
// menu: <Image>/Filters/Shaders/Artistic
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Number of brightness bands.</summary>
int bands <string UIName = "Bands"; int UIMin = 2; int UIMax = 12;> = 4;
/// <summary>Edge strength above which an outline is drawn.</summary>
float edge_threshold <string UIName = "Edge threshold"; float UIMin = 0.01; float UIMax = 1.0; float UIStep = 0.01;> = 0.2;
/// <summary>Width of the outlines, in pixels.</summary>
float line_width <string UIName = "Line width"; float UIMin = 0.5; float UIMax = 4.0; float UIStep = 0.1;> = 1.0;
/// <summary>Saturation boost of the flat colours.</summary>
float saturation <string UIName = "Saturation"; float UIMin = 0.0; float UIMax = 2.0; float UIStep = 0.01;> = 1.3;

float luma (float3 c)
{
  return dot (c, float3 (0.2126, 0.7152, 0.0722));
}

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y)) * line_width;
  float4 c = tex2D (input, uv);
  // A small cross-shaped average first, so texture noise does not band.
  float3 smooth = (c.rgb * 2.0
                   + tex2D (input, uv + float2 (px.x, 0)).rgb + tex2D (input, uv - float2 (px.x, 0)).rgb
                   + tex2D (input, uv + float2 (0, px.y)).rgb + tex2D (input, uv - float2 (0, px.y)).rgb) / 6.0;
  float y = luma (smooth);
  float n = max ((float) bands, 2.0);
  float qy = (floor (y * n) + 0.5) / n;
  float3 flat = smooth * (qy / max (y, 1e-3));
  flat = lerp (luma (flat).xxx, flat, saturation);
  float tl = luma (tex2D (input, uv + float2 (-px.x, -px.y)).rgb);
  float tr = luma (tex2D (input, uv + float2 ( px.x, -px.y)).rgb);
  float bl = luma (tex2D (input, uv + float2 (-px.x,  px.y)).rgb);
  float br = luma (tex2D (input, uv + float2 ( px.x,  px.y)).rgb);
  float e = length (float2 (tr + br - tl - bl, bl + br - tl - tr));
  float ink = smoothstep (edge_threshold * 0.7, edge_threshold * 1.3, e);
  return float4 (saturate (flat) * (1.0 - ink), c.a);
}
