// An unsupported input semantic stopped the binding of the parameters
// after it, so reading one of them was an internal error ("variable 'uv'
// has no storage") after the real one.
float4 main (float4 pos : SV_PositioV_Position, float2 uv : TEXCOORD0) : SV_Target
{
  return float4 (uv, 0, 1);
}
