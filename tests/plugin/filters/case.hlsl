// title: Annotation Case
// Annotation names in unusual capitalisation: every op of the module
// looks them up without regard to case.
sampler2D s0 : register(s0);
float gain < float uimin = 0.25; float UIMAX = 3.0; string UINAME = "Case Gain"; > = 1.0;
float4 main (float2 uv : TEXCOORD0) : COLOR
{
  return float4 (tex2D (s0, uv).rgb * gain, 1.0);
}
