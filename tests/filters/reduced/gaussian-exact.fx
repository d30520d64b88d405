// license: LGPL-3.0-or-later
// The shipped gaussian-blur.fx as it was before its reduced-resolution
// paths: the exact two-pass blur at every deviation, which
// tests/filters/reduced-test.py compares the shipped filter with.
#include "ReShade.fxh"

// Separable: a horizontal pass into a float target, then a vertical one.
// Colour is weighted by alpha (transparent pixels do not darken edges),
// so the first pass reads single texels and stores alpha-weighted sums;
// the second reads two neighbouring rows with one bilinear tap placed
// between them by their weights, which is exact.  Taps reach three
// deviations out.

/// <summary>Standard deviation of the blur, in pixels.</summary>
uniform float std_dev < string UIName = "Size"; float UIMin = 0.0; float UIMax = 20.0; float UIStep = 0.1; > = 3.0;

texture RowsTex { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RGBA32F; };
sampler Rows { Texture = RowsTex; MagFilter = LINEAR; MinFilter = LINEAR; AddressU = CLAMP; AddressV = CLAMP; };
sampler Src { Texture = ReShade::BackBufferTex; MagFilter = POINT; MinFilter = POINT; AddressU = CLAMP; AddressV = CLAMP; };

float sigma () { return max (std_dev, 0.01); }
int reach () { return (int) ceil (3.0 * sigma ()); }

// Horizontal pass: exact point taps of the alpha-weighted colour.
float4 BlurRows (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float s = sigma ();
  int r = reach ();
  // exp (-i² / 2σ²) by recurrence: each weight is the last times a ratio
  // that itself shrinks by exp (-1/σ²).
  float ratio = exp (-0.5 / (s * s));
  float shrink = ratio * ratio;
  float w = 1.0;
  float4 c = tex2D (Src, uv);
  float4 sum = float4 (c.rgb * c.a, c.a);
  float wsum = 1.0;
  [loop] for (int i = 1; i <= r; i++)
    {
      w *= ratio;
      ratio *= shrink;
      float4 a = tex2D (Src, uv + float2 (i * BUFFER_RCP_WIDTH, 0));
      float4 b = tex2D (Src, uv - float2 (i * BUFFER_RCP_WIDTH, 0));
      sum += (float4 (a.rgb * a.a, a.a) + float4 (b.rgb * b.a, b.a)) * w;
      wsum += 2.0 * w;
    }
  return sum / wsum;
}

// Vertical pass over the premultiplied rows: two neighbouring taps are
// one bilinear tap placed between them by their weights.
float4 BlurColumns (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float s = sigma ();
  int r = reach ();
  float ratio = exp (-0.5 / (s * s));
  float shrink = ratio * ratio;
  float w = 1.0;
  float4 sum = tex2D (Rows, uv);
  float wsum = 1.0;
  [loop] for (int i = 1; i <= r; i += 2)
    {
      w *= ratio;
      ratio *= shrink;
      float w1 = w;
      w *= ratio;
      ratio *= shrink;
      float w2 = i < r ? w : 0.0;
      float pair = w1 + w2;
      float2 o = float2 (0, (i + w2 / pair) * BUFFER_RCP_HEIGHT);
      sum += (tex2D (Rows, uv + o) + tex2D (Rows, uv - o)) * pair;
      wsum += 2.0 * pair;
    }
  sum /= wsum;
  return float4 (sum.a > 0.0 ? sum.rgb / sum.a : 0.0, sum.a);
}

technique GaussianBlur
{
  pass Rows { VertexShader = PostProcessVS; PixelShader = BlurRows; RenderTarget = RowsTex; }
  pass Columns { VertexShader = PostProcessVS; PixelShader = BlurColumns; }
}
