// title: Tint Test
// description: Exercises every parameter dialect.
// categories: hidden:color
// menu: <Image>/Filters/Shaders/Test
// label: Tint _Test...
// license: MIT

sampler2D s0 : register(s0);

/// <summary>Strength of the tint.</summary>
/// <minValue>0</minValue>
/// <maxValue>2</maxValue>
/// <defaultValue>0.5</defaultValue>
float amount;

float4 tint_color <string UIWidget = "Color"; string UIName = "Tint";> = {1.0, 0.5, 0.25, 1.0};

int mode < ui_type = "combo"; ui_items = "Off\0Half\0Full\0"; ui_label = "Mode"; ui_tooltip = "How much to apply"; > = 2;

bool invert <string UIName = "Invert";> = false;

float2 center <string UIName = "Centre";> = {0.25, 0.75};

float gain <string UIName = "Gain"; float UIMin = 0.5; float UIMax = 4.0; float UIStep = 0.5;> = 1.0;

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float4 c = tex2D (s0, uv);
  float3 t = lerp (c.rgb, c.rgb * tint_color.rgb, amount * mode * 0.5) * gain;
  if (invert)
    t = 1.0 - t;
  float d = distance (uv, center) < 0.01 ? 1.0 : 0.0;
  return float4 (t + d * 0, c.a);
}
