// ReShade FX sampler intrinsics and leniencies, one technique each; the
// expected values are computed in C by test-effects.c (test_intrinsics).
#include "ReShade.fxh"

texture Half { Width = BUFFER_WIDTH / 2; Height = BUFFER_HEIGHT / 2; MipLevels = 2; };
sampler sHalf { Texture = Half; };
sampler sPoint { Texture = ReShade::BackBufferTex; MinFilter = POINT; MagFilter = POINT; };
sampler sWrap { Texture = ReShade::BackBufferTex; AddressU = WRAP; AddressV = WRAP; };

float4 PS_Fetch(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  int2 p = int2(pos.xy);
  // int2 form (out of range reads zero) and ReShade 4's int4 form (w = level)
  return float4(tex2Dfetch(sPoint, p + int2(1, 0)).rgb, tex2Dfetch(sPoint, int4(p, 0, 0)).r);
}

float4 PS_Size(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  int2 b = tex2Dsize(ReShade::BackBuffer);
  int2 h0 = tex2Dsize(sHalf, 0);
  int2 h1 = tex2Dsize(sHalf, 1);
  return float4(b.x, b.y, h0.x * 10 + h0.y, h1.x * 10 + h1.y) / 1000.0;
}

float4 PS_Gather(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  // half a texel on: the footprint starts at this pixel; wrap at the edges
  return tex2Dgather(sWrap, uv + 0.5 * BUFFER_PIXEL_SIZE, 1);
}

float4 PS_GatherOffset(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  // a quarter texel on, one texel right: the footprint starts at x + 1
  return tex2DgatherR(ReShade::BackBuffer, uv + 0.25 * BUFFER_PIXEL_SIZE, int2(1, 0));
}

float4 PS_Offsets(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return float4(tex2Doffset(sPoint, uv, int2(-1, 1)).r,
                tex2Dlod(sPoint, float4(uv, 0, 0), int2(2, 0)).g,
                tex2Dlodoffset(sPoint, float4(uv, 0, 0), int2(0, -1)).b,
                tex2D(sPoint, uv, int2(1, 1)).r);
}

static const float Weights[3] = { 0.25, 0.5, 0.25 };

float4 PS_Lenient(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float3 c = float3(0);            // one int filling a vector
  for (int i = 0; i < 3; i++)
    c += Weights[i] * tex2D(sPoint, uv + float2(i - 1, 0) * BUFFER_PIXEL_SIZE).rgb;
  return float4(c, 0.0) + float4(0.0, 0.0, 0.0, 0.5) * float4(2);
}

// The bit intrinsics of ReShade's reference (HLSL's, from shader model 5):
// a value per pixel, its bits' positions scaled into the unorm target.
float4 PS_Bits(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  uint x = uint(pos.x), y = uint(pos.y);
  uint u = (x * 2654435761u + y * 40503u) >> (x % 9u);
  int s = int(u ^ (y << 28));          // negative for some pixels
  return float4(firstbithigh(u) + 1u, firstbitlow(u) + 1u, firstbithigh(s) + 1,
                (reversebits(u) >> 26) + 4u * uint(firstbitlow(s) + 1 == 0)) / 64.0;
}

// 1D (and 3D) forms of the reference: tex1Dfetch (zero outside),
// tex1D/tex1Dlod/tex3D with constant and run-time offsets, tex1Dsize and
// tex3Dsize, over a one-row float target texel i = (i + 0.5) / 8.
texture Line { Width = 8; Height = 1; Format = RGBA32F; };
sampler1D sLine { Texture = Line; MinFilter = POINT; MagFilter = POINT; };
sampler3D sLine3 { Texture = Line; MinFilter = POINT; MagFilter = POINT; };

float4 PS_Line(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return float4(pos.x / 8.0, 0.0, 0.0, 1.0);
}

float4 PS_Dims(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  int x = int(pos.x) % 8, y = int(pos.y);
  float u = (x + 0.5) / 8.0;
  return float4(tex1Dfetch(sLine, x + y - 4).r,
                tex1D(sLine, u, 1).r,
                tex1Dlod(sLine, float4(u, 0, 0, 0), y % 3 - 1).r,
                (tex1Dsize(sLine) + tex3Dsize(sLine3, 0).x * 10) / 1000.0
                + 0.5 * tex3D(sLine3, float3(u, 0.5, 0.5), int3(1, 0, 0)).r);
}

// ReShade's typed samplers: a read through sampler2D<T> is a T, so a
// float scales a vector as one number (a float4 would not).
sampler2D<float> sRed { Texture = ReShade::BackBufferTex; MinFilter = POINT; MagFilter = POINT; };
namespace Typed { sampler2D<float2> sRedGreen { Texture = ReShade::BackBufferTex; MinFilter = POINT; MagFilter = POINT; }; }

float4 PS_Typed(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float3 c = float3(1.0, 0.5, 0.25) * tex2D(sRed, uv);
  float2 rg = tex2Dlod(Typed::sRedGreen, float4(uv, 0, 0));
  return float4(c, rg.y * tex2Dfetch(sRed, int2(pos.xy)).r / max(tex2D(sRed, uv).x, 1e-6));
}

technique Fetch { pass { VertexShader = PostProcessVS; PixelShader = PS_Fetch; } }
technique Size { pass { VertexShader = PostProcessVS; PixelShader = PS_Size; } }
technique Gather { pass { VertexShader = PostProcessVS; PixelShader = PS_Gather; } }
technique GatherOffset { pass { VertexShader = PostProcessVS; PixelShader = PS_GatherOffset; } }
technique Offsets { pass { VertexShader = PostProcessVS; PixelShader = PS_Offsets; } }
technique Lenient { pass { VertexShader = PostProcessVS; PixelShader = PS_Lenient; } }
technique Bits { pass { VertexShader = PostProcessVS; PixelShader = PS_Bits; } }
technique Typed { pass { VertexShader = PostProcessVS; PixelShader = PS_Typed; } }
technique Dims
{
  pass { VertexShader = PostProcessVS; PixelShader = PS_Line; RenderTarget = Line; }
  pass { VertexShader = PostProcessVS; PixelShader = PS_Dims; }
}
