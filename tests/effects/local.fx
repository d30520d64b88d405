// Local rendering (each rectangle renders the parts of the earlier
// passes it reads): targets at half, full and a third of the image's
// size, reads at SV_Position and scaled coordinates, a border sampler,
// derivatives, blending, discards and a target written twice.  The
// technique Cleared clears that target between its two writes; Beyond
// reads only past the edges (where clamping samplers read the edge
// texels); Wrapped reads through a wrapping sampler, which needs whole
// targets; Holes reads what a discarding pass left of a fresh target.
#include "ReShade.fxh"

uniform float Spread < ui_min = 0.0; ui_max = 4.0; > = 1.5;

texture HalfTex { Width = BUFFER_WIDTH / 2; Height = BUFFER_HEIGHT / 2; Format = RGBA16F; };
texture WideTex { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RGBA32F; };
texture ThirdTex { Width = BUFFER_WIDTH / 3 + 1; Height = BUFFER_HEIGHT / 3 + 1; Format = RGBA8; };
sampler Src { Texture = ReShade::BackBufferTex; };
sampler SrcPoint { Texture = ReShade::BackBufferTex; MagFilter = POINT; MinFilter = POINT; };
sampler Half { Texture = HalfTex; };
sampler Wide { Texture = WideTex; AddressU = BORDER; AddressV = BORDER; };
sampler Third { Texture = ThirdTex; MagFilter = POINT; MinFilter = POINT; };
sampler Wrapped { Texture = WideTex; AddressU = WRAP; AddressV = WRAP; };

// The mean of each 2×2 block, found from the pixel's position.
float4 Down (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float2 p = (floor (pos.xy) * 2.0 + 0.5) * BUFFER_PIXEL_SIZE;
  return 0.25 * (tex2D (SrcPoint, p) + tex2D (SrcPoint, p + float2 (BUFFER_RCP_WIDTH, 0))
                 + tex2D (SrcPoint, p + float2 (0, BUFFER_RCP_HEIGHT)) + tex2D (SrcPoint, p + BUFFER_PIXEL_SIZE));
}

float4 Up (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float2 o = Spread * BUFFER_PIXEL_SIZE;
  return 0.5 * (tex2D (Half, uv - o) + tex2D (Half, uv + float2 (o.x, -o.y) * 3.0));
}

// Into the back buffer, blended, with holes.
float4 Mix (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float4 w = tex2D (Wide, uv + float2 (2.0 * BUFFER_RCP_WIDTH, -BUFFER_RCP_HEIGHT));
  if (w.r > 0.7)
    discard;
  return float4 (w.gbr, 0.5);
}

// The centre magnified, and how fast it changes (derivatives pair the
// pixels of 2×2 quads).
float4 Edges (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float4 c = tex2D (Src, uv * 0.5 + 0.25);
  return float4 (abs (ddx (c.rgb)) + abs (ddy (c.rgb)), 1);
}

float4 Again (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  if (pos.x < 5.0)
    discard;
  return tex2D (Src, uv) * 0.5;
}

float4 Final (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float4 c = tex2D (Src, uv);
  float4 t = tex2D (Third, uv + float2 (-BUFFER_RCP_WIDTH, BUFFER_RCP_HEIGHT) * 4.0);
  if (uv.y < 0.05)
    discard;
  return float4 (lerp (c.rgb, t.rgb, 0.3), c.a);
}

float4 FinalWrapped (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return tex2D (Wrapped, uv + 0.25);
}

technique Local
{
  pass { VertexShader = PostProcessVS; PixelShader = Down; RenderTarget = HalfTex; }
  pass { VertexShader = PostProcessVS; PixelShader = Up; RenderTarget = WideTex; }
  pass { VertexShader = PostProcessVS; PixelShader = Mix; BlendEnable = true; SrcBlend = SRCALPHA; DestBlend = INVSRCALPHA; }
  pass { VertexShader = PostProcessVS; PixelShader = Edges; RenderTarget = ThirdTex; }
  pass { VertexShader = PostProcessVS; PixelShader = Again; RenderTarget = ThirdTex; }
  pass { VertexShader = PostProcessVS; PixelShader = Final; }
}

technique Cleared
{
  pass { VertexShader = PostProcessVS; PixelShader = Down; RenderTarget = HalfTex; }
  pass { VertexShader = PostProcessVS; PixelShader = Up; RenderTarget = WideTex; }
  pass { VertexShader = PostProcessVS; PixelShader = Mix; BlendEnable = true; SrcBlend = SRCALPHA; DestBlend = INVSRCALPHA; }
  pass { VertexShader = PostProcessVS; PixelShader = Edges; RenderTarget = ThirdTex; }
  pass { VertexShader = PostProcessVS; PixelShader = Again; RenderTarget = ThirdTex; ClearRenderTargets = true; }
  pass { VertexShader = PostProcessVS; PixelShader = Final; }
}

float4 Right (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return tex2D (Src, uv + float2 (2.0, 0.0));
}

float4 UpLeft (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return tex2D (Half, uv - 3.0) + tex2D (SrcPoint, uv + float2 (0.0, 1.5)) * 0.5;
}

technique Beyond
{
  pass { VertexShader = PostProcessVS; PixelShader = Right; RenderTarget = HalfTex; }
  pass { VertexShader = PostProcessVS; PixelShader = UpLeft; }
}

technique Wrapped
{
  pass { VertexShader = PostProcessVS; PixelShader = Down; RenderTarget = HalfTex; }
  pass { VertexShader = PostProcessVS; PixelShader = Up; RenderTarget = WideTex; }
  pass { VertexShader = PostProcessVS; PixelShader = FinalWrapped; }
}

// Holes: the first pass into WideTex leaves holes, which read as the
// zeros a fresh target holds (a local render starts its part of a target
// as zeros unless the first pass to write it replaces all of it).
float4 Holey (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  if (frac (pos.x / 7.0) < 0.4 || pos.y < 9.0)
    discard;
  return tex2D (Src, uv) + 0.25;
}

float4 ReadHoles (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return tex2D (Wide, uv + float2 (BUFFER_RCP_WIDTH, 0.0)) * 0.5 + tex2D (Src, uv) * 0.25;
}

technique Holes
{
  pass { VertexShader = PostProcessVS; PixelShader = Holey; RenderTarget = WideTex; }
  pass { VertexShader = PostProcessVS; PixelShader = ReadHoles; }
}

// Texels: texel offsets and texel loads (at the pixel's index, scaled
// and moved by integer constants), into a target of another size and out
// of it.
float4 Loads (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return tex2Dfetch (Src, int2 (pos.xy) * 3 + int2 (2, -1), 0) * 0.5
         + tex2Doffset (Src, uv, int2 (-3, 2)) * 0.5;
}

float4 FinalTexels (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return tex2Doffset (Third, uv, int2 (-2, 1)) * 0.5
         + tex2Dfetch (Src, int2 (pos.xy) + int2 (1, 3), 0) * 0.25
         + tex2Dlod (Src, float4 (uv, 0, 0), int2 (0, -4)) * 0.25;
}

technique Texels
{
  pass { VertexShader = PostProcessVS; PixelShader = Loads; RenderTarget = ThirdTex; }
  pass { VertexShader = PostProcessVS; PixelShader = FinalTexels; }
}
