// Runtime values a user sets: the mouse point (pixels) and the date.  The
// left half shows the point, the right half the date, scaled into 0..1
// (the back buffer is a unorm target).
uniform float2 Mouse < source = "mousepoint"; >;
uniform int4 Today < source = "date"; >;

float4 Show(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  if (uv.x < 0.5)
    return float4(Mouse.x / 1000.0, Mouse.y / 1000.0, BUFFER_WIDTH / 1000.0, 1.0);
  return float4(Today.x / 10000.0, Today.y / 100.0, Today.z / 100.0, Today.w / 100000.0);
}

technique Pointer { pass { PixelShader = Show; } }
