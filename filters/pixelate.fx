// title: Pixelate
// description: Enlarge the pixels into flat square blocks, each the average colour of its area.
// menu: <Image>/Filters/Shaders/Blur
// license: LGPL-3.0-or-later
#include "ReShade.fxh"

// Each block's colour is the mean of a 4×4 grid of bilinear taps over
// the block rather than one sample, so fine detail does not alias into
// it.  A first pass works that mean out once per block into a small
// target (one texel per block), and the image pass reads its block's
// texel: 16 taps a block instead of 16 a pixel.  Blocks are measured in
// pixels of the image (BUFFER_*), not of the output, so they stay put
// when the result is rendered at another size.  A block is at least 4
// pixels wide there, so a quarter-size target holds them all; smaller
// blocks (16 taps cover at most 16 pixels then) are averaged in place.

/// <summary>Width and height of the blocks, in pixels.</summary>
uniform float block_size < string UIName = "Block size"; float UIMin = 1.0; float UIMax = 64.0; float UIStep = 1.0; > = 10.0;
/// <summary>Darkens the seams between blocks, like tiles; 0 disables.</summary>
uniform float grout < string UIName = "Grout"; float UIMin = 0.0; float UIMax = 1.0; float UIStep = 0.01; > = 0.0;

#define BLOCKS_FROM 4.0

texture BlocksTex { Width = (BUFFER_WIDTH + 3) / 4; Height = (BUFFER_HEIGHT + 3) / 4; Format = RGBA32F; };
sampler Blocks { Texture = BlocksTex; MagFilter = POINT; MinFilter = POINT; AddressU = CLAMP; AddressV = CLAMP; };
sampler Image { Texture = ReShade::BackBufferTex; MagFilter = LINEAR; MinFilter = LINEAR; AddressU = CLAMP; AddressV = CLAMP; };

float size () { return max (block_size, 1.0); }

// The mean of the 4×4 grid over block cell.
float4 block_mean (float2 cell, float b)
{
  float4 sum = 0;
  [unroll] for (int j = 0; j < 4; j++)
    [unroll] for (int i = 0; i < 4; i++)
      sum += tex2D (Image, (cell * b + (float2 (i, j) + 0.5) * b / 4.0) * BUFFER_PIXEL_SIZE);
  return sum / 16.0;
}

// One texel per block (the texels past the last block are not read).
float4 Average (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float b = size ();
  if (b < BLOCKS_FROM)
    return 0;
  float2 cell = floor (pos.xy);
  if (any (cell * b >= BUFFER_SCREEN_SIZE))
    return 0;
  return block_mean (cell, b);
}

float4 Draw (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float b = size ();
  float2 p = uv * BUFFER_SCREEN_SIZE;
  float2 cell = floor (p / b);
  float4 c;
  if (b < BLOCKS_FROM)
    c = block_mean (cell, b);
  else
    c = tex2Dfetch (Blocks, int2 (cell));
  float2 f = frac (p / b);
  float edge = min (min (f.x, 1.0 - f.x), min (f.y, 1.0 - f.y)) * b;
  float seam = grout * (1.0 - saturate (edge - 0.5));
  return float4 (c.rgb * (1.0 - seam), c.a);
}

technique Pixelate
{
  pass Average { VertexShader = PostProcessVS; PixelShader = Average; RenderTarget = BlocksTex; }
  pass Draw { VertexShader = PostProcessVS; PixelShader = Draw; }
}
