// Bool uniforms in every profile: a branch, a selection, a value and a
// vector component.  R: if (Flag), G: Flag ? 1 : 0.25, B: (float) Pair.y,
// A: 1 when Pair.x and Flag agree.
bool Flag = true;
bool2 Pair = bool2 (false, true);
float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float4 c = 0;
  if (Flag)
    c.r = 1;
  c.g = Flag ? 1.0 : 0.25;
  c.b = (float) Pair.y;
  c.a = Pair.x == Flag ? 1.0 : 0.5;
  return c;
}
