// title: Denoise (Bilateral)
// description: Smooth noise and fine texture while keeping edges crisp, by averaging only similar neighbours.
// menu: <Image>/Filters/Shaders/Enhance
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Spatial reach of the smoothing, in pixels.</summary>
float radius <string UIName = "Radius"; float UIMin = 1.0; float UIMax = 12.0; float UIStep = 0.1;> = 4.0;
/// <summary>How different a neighbour's colour may be and still be averaged in.</summary>
float edge_preservation <string UIName = "Colour tolerance"; float UIMin = 0.01; float UIMax = 1.0; float UIStep = 0.01;> = 0.12;

// Taps on an 11×11 grid spanning the radius, each weighted by its distance
// (a Gaussian of deviation 2.5 grid steps) and by how far its colour is
// from the centre's.  The taps are written out rather than looped over:
// then each tap's distance term is a constant folded into its exponent,
// no loop counters are kept per pixel, and the centre tap (weight 1)
// needs no read.
#define TAP(i, j) \
  { \
    float4 s = tex2D (input, uv + float2 (i, j) * step); \
    float3 d = s.rgb - c.rgb; \
    float w = exp (dot (d, d) * k - (i * i + j * j) / 12.5); \
    sum += s * w; \
    wsum += w; \
  }
#define SIDES(j) TAP (-5, j) TAP (-4, j) TAP (-3, j) TAP (-2, j) TAP (-1, j) \
                 TAP (1, j) TAP (2, j) TAP (3, j) TAP (4, j) TAP (5, j)
#define ROW(j) SIDES (j) TAP (0, j)

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float4 c = tex2D (input, uv);
  float sigma_r = max (edge_preservation, 0.001);
  float2 step = max (radius, 0.5) / 5.0 * px;
  float k = -0.5 / (sigma_r * sigma_r);
  float4 sum = c;
  float wsum = 1.0;
  ROW (-5) ROW (-4) ROW (-3) ROW (-2) ROW (-1)
  SIDES (0)
  ROW (1) ROW (2) ROW (3) ROW (4) ROW (5)
  return sum / wsum;
}
