// Two techniques in one file: each becomes its own op.
#include "ReShade.fxh"
uniform float Gain < ui_min = 0.0; ui_max = 4.0; > = 2.0;
float4 Scale(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target { return tex2D(ReShade::BackBuffer, uv) * Gain; }
float4 Invert(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target { float4 c = tex2D(ReShade::BackBuffer, uv); return float4(1 - c.rgb, c.a); }
technique Brighten < ui_label = "Brighten"; > { pass { VertexShader = PostProcessVS; PixelShader = Scale; } }
technique Negative { pass { VertexShader = PostProcessVS; PixelShader = Invert; } }
