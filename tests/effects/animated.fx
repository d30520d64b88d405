// Host values as op properties: the output shows timer, framecount and
// frametime, so a test can scrub them.
uniform float Timer < source = "timer"; >;
uniform int Frame < source = "framecount"; >;
uniform float FrameTime < source = "frametime"; >;
uniform float Gain < ui_min = 0.0; ui_max = 4.0; > = 1.0;

float4 Show(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return float4(Timer / 10000.0, Frame / 100.0, FrameTime / 100.0, Gain);
}

technique Animated { pass { PixelShader = Show; } }
