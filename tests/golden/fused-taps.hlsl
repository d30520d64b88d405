// Reads at whole-texel offsets summed as blurs sum them (test-vm-exact's
// taps case): which reads absorb their sums and coordinate offsets
// (vm/span_fuse.c), and which cannot (an accumulator rewritten before
// the sum, a TEXCOORD register reused before a read).
sampler2D s : register(s0);
float4 main(float2 uv : TEXCOORD0) : COLOR0 {
  float4 sum = tex2D(s, uv);
  sum += tex2D(s, uv + float2(1.0 / 203.0, 0));
  float4 b = tex2D(s, uv - float2(2.0 / 203.0, 1.0 / 67.0));
  sum.rgb += b.rgb * b.a;
  sum.a += b.a;
  sum += tex2D(s, uv + float2(0, 3.0 / 67.0)) * 0.25;
  float4 d = tex2D(s, uv + float2(-40.0 / 203.0, 0));
  sum.xy += d.zw;
  float e = tex2D(s, uv + float2(5.0 / 203.0, -70.0 / 67.0)).g;
  float4 f = tex2D(s, uv + float2(150.0 / 203.0, 2.0 / 67.0));
  return sum * 0.2 + e + f * f.a;
}
