// title: Halftone
// description: Print-style halftone: the image becomes a screen of dots, in colour (CMY) or black.
// menu: <Image>/Filters/Shaders/Artistic
// license: LGPL-3.0-or-later

sampler2D input : register(s0);

/// <summary>Distance between dot centres, in pixels.</summary>
float cell_size <string UIName = "Dot spacing"; float UIMin = 2.0; float UIMax = 50.0; float UIStep = 0.5;> = 7.0;
/// <summary>Rotation of the screen, in degrees.</summary>
float angle <string UIName = "Angle"; float UIMin = 0.0; float UIMax = 90.0; float UIStep = 1.0;> = 15.0;
/// <summary>Screen each of cyan, magenta and yellow at its own angle instead of printing black dots.</summary>
bool color_print <string UIName = "Colour";> = true;

// Coverage of one ink screen at pixel position p for ink amount v.
float screen (float2 p, float a, float v)
{
  float cs = cos (a), sn = sin (a);
  float2 q = float2 (cs * p.x + sn * p.y, -sn * p.x + cs * p.y) / max (cell_size, 1.0);
  float2 f = frac (q) - 0.5;
  // A dot of area v in the unit cell has radius sqrt(v/pi).
  float r = sqrt (saturate (v) / 3.14159265) * 1.08;
  float aa = 0.7 / max (cell_size, 1.0);
  return 1.0 - smoothstep (r - aa, r + aa, length (f));
}

float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float2 px = float2 (ddx (uv.x), ddy (uv.y));
  float2 p = uv / px;
  float4 c = tex2D (input, uv);
  float a = radians (angle);
  float3 rgb;
  if (color_print)
    {
      float3 cmy = 1.0 - c.rgb;
      rgb = 1.0 - float3 (screen (p, a, cmy.r),
                          screen (p, a + radians (60.0), cmy.g),
                          screen (p, a + radians (30.0), cmy.b));
    }
  else
    {
      float y = dot (c.rgb, float3 (0.2126, 0.7152, 0.0722));
      rgb = (1.0 - screen (p, a, 1.0 - y)).xxx;
    }
  return float4 (rgb, c.a);
}
