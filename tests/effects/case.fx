// Annotations in unusual capitalisation: the effect ops, like the
// per-file ops, look annotation names up without regard to case.
#include "ReShade.fxh"
uniform float Amount < UI_MIN = 0.25; Ui_Max = 3.0; > = 1.0;
float4 Scale(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target { return tex2D(ReShade::BackBuffer, uv) * Amount; }
technique Case < UI_LABEL = "Case Test"; > { pass { VertexShader = PostProcessVS; PixelShader = Scale; } }
