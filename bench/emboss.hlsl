// GEGL benchmark: emboss, the work of gegl:emboss (a 3x3 gradient of the
// luminance lit from azimuth/elevation).
sampler2D src : register(s0);
float2 texel = float2(1.0 / 2048.0, 1.0 / 2048.0);
float azimuth = 30.0;
float elevation = 45.0;
float depth = 20.0;

float lum(float2 uv)
{
  return dot(tex2D(src, uv).rgb, float3(0.2126, 0.7152, 0.0722));
}

float4 main(float2 uv : TEXCOORD0) : COLOR0
{
  float2 d = texel;
  float tl = lum(uv + float2(-d.x, -d.y)), t = lum(uv + float2(0, -d.y)), tr = lum(uv + float2(d.x, -d.y));
  float l = lum(uv + float2(-d.x, 0)), r = lum(uv + float2(d.x, 0));
  float bl = lum(uv + float2(-d.x, d.y)), b = lum(uv + float2(0, d.y)), br = lum(uv + float2(d.x, d.y));
  float nx = (tr + 2.0 * r + br - tl - 2.0 * l - bl) * depth / 8.0;
  float ny = (bl + 2.0 * b + br - tl - 2.0 * t - tr) * depth / 8.0;
  float az = radians(azimuth), el = radians(elevation);
  float3 light = float3(cos(az) * cos(el), sin(az) * cos(el), sin(el));
  float shade = saturate(dot(float3(-nx, -ny, 1.0), light) / sqrt(nx * nx + ny * ny + 1.0));
  float a = tex2D(src, uv).a;
  return float4(shade, shade, shade, a);
}
