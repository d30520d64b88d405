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

// The mean of the 4×4 grid over block cell, its taps written out row by
// row: each coordinate is then the pixel's position scaled and offset by
// constants once the block size is known, so the effect renders band by
// band (a loop counter in the coordinates would hide how far it reads).
#define MEAN_TAP(i, j) \
  sum += tex2D (Image, (cell * b + (float2 (i, j) + 0.5) * b / 4.0) * BUFFER_PIXEL_SIZE);
#define MEAN_ROW(j) MEAN_TAP (0, j) MEAN_TAP (1, j) MEAN_TAP (2, j) MEAN_TAP (3, j)
float4 block_mean (float2 cell, float b)
{
  float4 sum = 0;
  MEAN_ROW (0) MEAN_ROW (1) MEAN_ROW (2) MEAN_ROW (3)
  return sum / 16.0;
}

// One texel per block.  The texels past the last block are never read,
// so rendering band by band never renders them either (no early return
// for them: code after a return that only some pixels take could not be
// folded, and the reads would look unbounded).
float4 Average (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float b = size ();
  if (b < BLOCKS_FROM)
    return 0;
  return block_mean (floor (pos.xy), b);
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
    /* The centre of the block's texel, read without filtering (cell is
     * inside the target: cell × b lies inside the image, b ≥ 4). */
    c = tex2D (Blocks, (cell + 0.5) / float2 ((BUFFER_WIDTH + 3) / 4, (BUFFER_HEIGHT + 3) / 4));
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
