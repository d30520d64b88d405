// ReShade.fxh as provided by gegl-shaders.
//
// Written for gegl-shaders from the documented behaviour of ReShade's
// common header, so that effects which include it compile without the
// user supplying it: the same macros (the RESHADE_DEPTH_INPUT_* settings
// with their defaults, BUFFER_SCREEN_SIZE, BUFFER_ASPECT_RATIO) and the
// same namespace.  A still image has no depth buffer: DepthBuffer holds
// zero, which GetLinearizedDepth turns into 1.0 (the far plane) with the
// default settings, as ReShade does without depth; defining
// RESHADE_FLAT_DEPTH makes the depth that value everywhere instead.

#pragma once

#ifndef RESHADE_DEPTH_INPUT_IS_UPSIDE_DOWN
  #define RESHADE_DEPTH_INPUT_IS_UPSIDE_DOWN 0
#endif
#ifndef RESHADE_DEPTH_INPUT_IS_REVERSED
  #define RESHADE_DEPTH_INPUT_IS_REVERSED 1
#endif
#ifndef RESHADE_DEPTH_INPUT_IS_LOGARITHMIC
  #define RESHADE_DEPTH_INPUT_IS_LOGARITHMIC 0
#endif
#ifndef RESHADE_DEPTH_MULTIPLIER
  #define RESHADE_DEPTH_MULTIPLIER 1
#endif
#ifndef RESHADE_DEPTH_LINEARIZATION_FAR_PLANE
  #define RESHADE_DEPTH_LINEARIZATION_FAR_PLANE 1000.0
#endif
#ifndef RESHADE_DEPTH_INPUT_Y_SCALE
  #define RESHADE_DEPTH_INPUT_Y_SCALE 1
#endif
#ifndef RESHADE_DEPTH_INPUT_X_SCALE
  #define RESHADE_DEPTH_INPUT_X_SCALE 1
#endif
#ifndef RESHADE_DEPTH_INPUT_Y_OFFSET
  #define RESHADE_DEPTH_INPUT_Y_OFFSET 0
#endif
#ifndef RESHADE_DEPTH_INPUT_X_OFFSET
  #define RESHADE_DEPTH_INPUT_X_OFFSET 0
#endif
#ifndef RESHADE_DEPTH_INPUT_Y_PIXEL_OFFSET
  #define RESHADE_DEPTH_INPUT_Y_PIXEL_OFFSET 0
#endif
#ifndef RESHADE_DEPTH_INPUT_X_PIXEL_OFFSET
  #define RESHADE_DEPTH_INPUT_X_PIXEL_OFFSET 0
#endif
#ifndef RESHADE_DEPTH_INPUT_IS_MIRRORED
  #define RESHADE_DEPTH_INPUT_IS_MIRRORED 0
#endif

#ifndef BUFFER_PIXEL_SIZE
  #define BUFFER_PIXEL_SIZE float2(BUFFER_RCP_WIDTH, BUFFER_RCP_HEIGHT)
#endif

#define BUFFER_SCREEN_SIZE float2(BUFFER_WIDTH, BUFFER_HEIGHT)
#define BUFFER_ASPECT_RATIO (BUFFER_WIDTH * BUFFER_RCP_HEIGHT)

namespace ReShade
{
  static const float AspectRatio = BUFFER_WIDTH * BUFFER_RCP_HEIGHT;
  static const float2 PixelSize = float2(BUFFER_RCP_WIDTH, BUFFER_RCP_HEIGHT);
  static const float2 ScreenSize = float2(BUFFER_WIDTH, BUFFER_HEIGHT);

  float GetAspectRatio() { return BUFFER_WIDTH * BUFFER_RCP_HEIGHT; }
  float2 GetPixelSize() { return float2(BUFFER_RCP_WIDTH, BUFFER_RCP_HEIGHT); }
  float2 GetScreenSize() { return float2(BUFFER_WIDTH, BUFFER_HEIGHT); }

  // The image being filtered, and a depth texture that holds the flat
  // depth (the effect layer binds both by their semantics).
  texture BackBufferTex : COLOR;
  texture DepthBufferTex : DEPTH;

  sampler BackBuffer { Texture = BackBufferTex; };
  sampler DepthBuffer { Texture = DepthBufferTex; };

  // Linear depth in [0, 1] from the depth buffer, adjusted by the
  // RESHADE_DEPTH_INPUT_* settings as ReShade's header documents them.
  float GetLinearizedDepth(float2 texcoord)
  {
#ifdef RESHADE_FLAT_DEPTH
    return RESHADE_FLAT_DEPTH;
#else
#if RESHADE_DEPTH_INPUT_IS_UPSIDE_DOWN
    texcoord.y = 1.0 - texcoord.y;
#endif
#if RESHADE_DEPTH_INPUT_IS_MIRRORED
    texcoord.x = 1.0 - texcoord.x;
#endif
    texcoord.x /= RESHADE_DEPTH_INPUT_X_SCALE;
    texcoord.y /= RESHADE_DEPTH_INPUT_Y_SCALE;
#if RESHADE_DEPTH_INPUT_X_OFFSET
    texcoord.x -= RESHADE_DEPTH_INPUT_X_OFFSET / 2.000000001;
#endif
#if RESHADE_DEPTH_INPUT_X_PIXEL_OFFSET
    texcoord.x -= RESHADE_DEPTH_INPUT_X_PIXEL_OFFSET * BUFFER_RCP_WIDTH;
#endif
#if RESHADE_DEPTH_INPUT_Y_OFFSET
    texcoord.y += RESHADE_DEPTH_INPUT_Y_OFFSET / 2.000000001;
#endif
#if RESHADE_DEPTH_INPUT_Y_PIXEL_OFFSET
    texcoord.y += RESHADE_DEPTH_INPUT_Y_PIXEL_OFFSET * BUFFER_RCP_HEIGHT;
#endif
    float depth = tex2Dlod(DepthBuffer, float4(texcoord, 0, 0)).x * RESHADE_DEPTH_MULTIPLIER;
#if RESHADE_DEPTH_INPUT_IS_LOGARITHMIC
    const float C = 0.01;
    depth = (exp(depth * log(C + 1.0)) - 1.0) / C;
#endif
#if RESHADE_DEPTH_INPUT_IS_REVERSED
    depth = 1 - depth;
#endif
    const float N = 1.0;
    depth /= RESHADE_DEPTH_LINEARIZATION_FAR_PLANE - depth * (RESHADE_DEPTH_LINEARIZATION_FAR_PLANE - N);
    return depth;
#endif
  }
}

// The full-screen triangle every post-processing pass draws.  gegl-shaders
// does not run vertex shaders: each pass already gets the pixel centre of
// its viewport as TEXCOORD and the pixel position as SV_Position, which is
// what this function computes.
void PostProcessVS(in uint id : SV_VertexID, out float4 position : SV_Position, out float2 texcoord : TEXCOORD)
{
  texcoord.x = (id == 2) ? 2.0 : 0.0;
  texcoord.y = (id == 1) ? 2.0 : 0.0;
  position = float4(texcoord * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}
