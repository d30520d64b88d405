// title: Pixelate
// description: Enlarge the pixels into flat square blocks, each the average colour of its area; written in Direct3D 10 style.
// menu: <Image>/Filters/Shaders/Blur
// license: LGPL-3.0-or-later

Texture2D image : register(t0);
SamplerState point_sampler : register(s0);

/// <summary>Width and height of the blocks, in pixels.</summary>
float block_size <string UIName = "Block size"; float UIMin = 1.0; float UIMax = 64.0; float UIStep = 1.0;> = 10.0;
/// <summary>Darkens the seams between blocks, like tiles; 0 disables.</summary>
float grout <string UIName = "Grout"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01;> = 0.0;

float4 main (float2 uv : TEXCOORD0) : SV_Target
{
  float w, h;
  image.GetDimensions (w, h);
  float2 size = float2 (w, h);
  float b = max (block_size, 1.0);
  // Blocks are measured in pixels of the image, not of the output, so
  // they stay put when the result is rendered at another size.
  float2 p = uv * size;
  float2 cell = floor (p / b);
  // Average a 4x4 grid over the block rather than taking one sample, so
  // fine detail does not alias into the block colour.
  float4 sum = 0;
  [unroll] for (int j = 0; j < 4; j++)
    [unroll] for (int i = 0; i < 4; i++)
      sum += image.Sample (point_sampler, (cell * b + (float2 (i, j) + 0.5) * b / 4.0) / size);
  float4 c = sum / 16.0;
  float2 f = frac (p / b);
  float edge = min (min (f.x, 1.0 - f.x), min (f.y, 1.0 - f.y)) * b;
  float seam = grout * (1.0 - saturate (edge - 0.5));
  return float4 (c.rgb * (1.0 - seam), c.a);
}
