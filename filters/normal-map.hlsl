// title: Normal Map
// description: Turn the image's brightness into a height field and output its tangent-space normal map.
// menu: <Image>/Filters/Shaders/Map
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Steepness of the bumps.</summary>
float strength <string UIName = "Strength"; float UIMin = 0.0; float UIMax = 20.0; float UIStep = 0.1;> = 4.0;
/// <summary>Distance between the height samples, in pixels; larger values smooth fine detail.</summary>
float sample_spacing <string UIName = "Sample spacing"; float UIMin = 0.5; float UIMax = 8.0; float UIStep = 0.1;> = 1.0;
/// <summary>Flip the green channel (DirectX versus OpenGL convention).</summary>
bool invert_y <string UIName = "Invert Y";> = false;
/// <summary>Treat dark as high instead of bright as high.</summary>
bool invert_height <string UIName = "Invert height";> = false;

// One pixel of the image, filled in by the host (README "Host values").
float2 PixelSize : PIXELSIZE;

float height (float2 uv)
{
  float h = dot (tex2D (input, uv).rgb, float3 (0.2126, 0.7152, 0.0722));
  return invert_height ? 1.0 - h : h;
}

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  // A constant once the parameters are known: at a whole number of
  // pixels every tap is one texel, which the VM copies directly.
  float2 px = PixelSize * sample_spacing;
  // Sobel gradient of the height.
  float tl = height (uv + float2 (-px.x, -px.y)), t = height (uv + float2 (0, -px.y));
  float tr = height (uv + float2 ( px.x, -px.y)), l = height (uv + float2 (-px.x, 0));
  float r  = height (uv + float2 ( px.x, 0)),     bl = height (uv + float2 (-px.x, px.y));
  float b  = height (uv + float2 (0, px.y)),      br = height (uv + float2 ( px.x, px.y));
  float dx = (tr + 2.0 * r + br) - (tl + 2.0 * l + bl);
  float dy = (bl + 2.0 * b + br) - (tl + 2.0 * t + tr);
  float3 n = normalize (float3 (-dx * strength, (invert_y ? dy : -dy) * strength, 1.0));
  return float4 (n * 0.5 + 0.5, tex2D (input, uv).a);
}
