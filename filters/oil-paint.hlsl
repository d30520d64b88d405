// title: Oil Paint
// description: Kuwahara filter: smooth flat brush strokes that keep edges sharp, like an oil painting.
// menu: <Image>/Filters/Shaders/Artistic
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Size of the brush, in pixels.</summary>
int radius <string UIName = "Brush size"; int UIMin = 1; int UIMax = 10;> = 4;

// Four overlapping (r+1)×(r+1) quadrants; the pixel takes the mean of the
// one whose colours vary least, so it never averages across an edge.
// The quadrants share their edges: each texel of the window is read once,
// the centre for all four quadrants, the arms of the cross for two, and
// the rest for one; the loops visit the four mirror images of an offset
// together.

// Offsets i·px with i clamped to the largest brush, which changes nothing
// (i <= r <= 10) but tells the compiler how far the reads go, so the op
// fetches its input band by band instead of all of it.  (Expressions, not
// variables: a variable assigned in a loop keeps nothing known.)
#define STEP(i) (clamp ((float) (i), 1.0, 10.0))
#define XL(i) (uv.x - STEP (i) * px.x)
#define XR(i) (uv.x + STEP (i) * px.x)
#define YU(j) (uv.y - STEP (j) * px.y)
#define YD(j) (uv.y + STEP (j) * px.y)

// Colour sums s and sums of squares ss over part of the window.
#define ADD_TAP(s, ss, t) { float3 v = (t); s += v; ss += v * v; }

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  int r = clamp (radius, 1, 10);
  float4 c = tex2D (input, uv);
  // Arms of the cross: left, right, up, down (centre excluded).
  float3 l = 0, l2 = 0, rt = 0, rt2 = 0, u = 0, u2 = 0, d = 0, d2 = 0;
  [loop] for (int i = 1; i <= r; i++)
    {
      ADD_TAP (l, l2, tex2D (input, float2 (XL (i), uv.y)).rgb);
      ADD_TAP (rt, rt2, tex2D (input, float2 (XR (i), uv.y)).rgb);
      ADD_TAP (u, u2, tex2D (input, float2 (uv.x, YU (i))).rgb);
      ADD_TAP (d, d2, tex2D (input, float2 (uv.x, YD (i))).rgb);
    }
  // Quadrants without their edges: up-left, up-right, down-left, down-right.
  float3 s0 = 0, s02 = 0, s1 = 0, s12 = 0, s2 = 0, s22 = 0, s3 = 0, s32 = 0;
  [loop] for (int j = 1; j <= r; j++)
    [loop] for (int i = 1; i <= r; i++)
      {
        ADD_TAP (s0, s02, tex2D (input, float2 (XL (i), YU (j))).rgb);
        ADD_TAP (s1, s12, tex2D (input, float2 (XR (i), YU (j))).rgb);
        ADD_TAP (s2, s22, tex2D (input, float2 (XL (i), YD (j))).rgb);
        ADD_TAP (s3, s32, tex2D (input, float2 (XR (i), YD (j))).rgb);
      }
  float3 cc = c.rgb * c.rgb;
  float n = (r + 1) * (r + 1);
  float3 m[4] = { (s0 + l + u + c.rgb) / n, (s1 + rt + u + c.rgb) / n,
                  (s2 + l + d + c.rgb) / n, (s3 + rt + d + c.rgb) / n };
  float3 m2[4] = { (s02 + l2 + u2 + cc) / n, (s12 + rt2 + u2 + cc) / n,
                   (s22 + l2 + d2 + cc) / n, (s32 + rt2 + d2 + cc) / n };
  float3 best = c.rgb;
  float best_var = 1e9;
  [unroll] for (int q = 0; q < 4; q++)
    {
      float3 v = m2[q] - m[q] * m[q];
      float var = v.r + v.g + v.b;
      if (var < best_var)
        {
          best_var = var;
          best = m[q];
        }
    }
  return float4 (best, c.a);
}
