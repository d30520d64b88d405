// A loop that never ends on its own: the VM stops it at the HLSL
// iteration cap (SL_HLSL_LOOP_CAP) and the render reports it.
float4 main(float2 uv : TEXCOORD0) : COLOR0
{
  float x = 0;
  while (uv.x < 2.0)
    {
      x += 1.0;
      if (x < 0.0)
        break;
    }
  return float4(x / 65536.0, 0, 0, 1);
}
