// Procedural landscape used as the bundled sample image (data/sample.png).
// Rendered by gegl-shaders itself:
//   gegl-shaders run data/make-sample.hlsl --size 640x426 -o data/sample.png
// It has what filters need to show off: smooth gradients, hard edges,
// fine texture, saturated and neutral colours.

float hash (float2 p)
{
    return frac (sin (dot (p, float2 (127.1, 311.7))) * 43758.5453);
}

float noise (float2 p)
{
    float2 i = floor (p);
    float2 f = frac (p);
    float2 u = f * f * (3.0 - 2.0 * f);
    float a = hash (i), b = hash (i + float2 (1, 0));
    float c = hash (i + float2 (0, 1)), d = hash (i + float2 (1, 1));
    return lerp (lerp (a, b, u.x), lerp (c, d, u.x), u.y);
}

float fbm (float2 p)
{
    float v = 0.0, amp = 0.5;
    for (int i = 0; i < 5; i++)
    {
        v += amp * noise (p);
        p *= 2.03;
        amp *= 0.5;
    }
    return v;
}

float ridge (float x, float seed, float height, float rough)
{
    return height + 0.06 * sin (x * 7.0 + seed) + 0.03 * sin (x * 17.0 + seed * 2.0)
           + rough * (fbm (float2 (x * 8.0, seed)) - 0.5);
}

float4 main (float2 uv : TEXCOORD0) : COLOR
{
    float x = uv.x, y = uv.y;
    float aspect = 640.0 / 426.0;

    // Sky: deep blue overhead to warm haze at the horizon, with clouds.
    float3 col = lerp (float3 (0.98, 0.72, 0.45), float3 (0.16, 0.33, 0.66), saturate (1.0 - y / 0.55));
    float clouds = smoothstep (0.55, 0.8, fbm (float2 (x * 6.0, y * 14.0)));
    col = lerp (col, float3 (1.0, 0.95, 0.9), clouds * saturate (1.0 - y / 0.45) * 0.8);

    // Sun with a soft glow.
    float2 d = float2 ((x - 0.72) * aspect, y - 0.30);
    float r = length (d);
    col += float3 (1.0, 0.8, 0.5) * 0.35 * exp (-r * 9.0);
    col = lerp (col, float3 (1.0, 0.97, 0.85), smoothstep (0.052, 0.046, r));

    // Three mountain ranges, farther ones hazier.
    float h1 = ridge (x, 1.3, 0.42, 0.10);
    float h2 = ridge (x + 0.3, 4.1, 0.50, 0.14);
    float h3 = ridge (x + 0.7, 8.7, 0.58, 0.08);
    if (y > h1) col = lerp (float3 (0.45, 0.50, 0.66), col, 0.35);
    if (y > h2) col = float3 (0.27, 0.34, 0.45) + 0.05 * fbm (float2 (x * 30.0, y * 30.0));
    if (y > h3) col = float3 (0.14, 0.26, 0.18) + 0.12 * fbm (float2 (x * 60.0, y * 60.0));

    // Lake reflecting the sky, with ripples.
    if (y > 0.70)
    {
        float ry = 0.70 - (y - 0.70) * 3.6;
        float ripple = 0.012 * sin (y * 300.0 + 20.0 * fbm (float2 (x * 20.0, y * 40.0)));
        float3 sky = lerp (float3 (0.98, 0.72, 0.45), float3 (0.16, 0.33, 0.66), saturate (1.0 - (ry + ripple) / 0.55));
        float2 ds = float2 ((x - 0.72 + ripple) * aspect, ry - 0.30);
        sky += float3 (1.0, 0.8, 0.5) * 0.5 * exp (-length (ds) * 6.0);
        col = sky * float3 (0.75, 0.85, 0.9);
    }

    // A row of houses on the shore: hard edges and saturated colours.
    for (int k = 0; k < 6; k++)
    {
        float left = 0.08 + k * 0.085;
        float w = 0.06, top = 0.62 - 0.02 * (k % 3);
        if (x > left && x < left + w && y > top && y < 0.705)
        {
            float3 walls[3] = { float3 (0.85, 0.20, 0.15), float3 (0.95, 0.85, 0.30), float3 (0.20, 0.45, 0.85) };
            col = walls[k % 3];
            // windows
            float2 q = float2 ((x - left) / w, (y - top) / (0.705 - top));
            if (frac (q.x * 3.0) > 0.35 && frac (q.x * 3.0) < 0.7 && q.y > 0.3 && q.y < 0.6)
                col = float3 (0.12, 0.12, 0.16);
        }
        // roofs
        float cx = left + w * 0.5;
        if (abs (x - cx) < (y - (top - 0.04)) * 0.9 && y <= top && y > top - 0.04)
            col = float3 (0.35, 0.18, 0.12);
    }

    // Grassy foreground with fine texture.
    float shore = 0.88 + 0.02 * sin (x * 23.0) + 0.03 * (fbm (float2 (x * 10.0, 3.0)) - 0.5);
    if (y > shore)
    {
        float g = fbm (float2 (x * 120.0, y * 40.0));
        col = lerp (float3 (0.12, 0.30, 0.08), float3 (0.45, 0.60, 0.18), g);
    }

    return float4 (saturate (col), 1.0);
}
