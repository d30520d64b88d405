// title: Bump Lighting
// description: Light the image as a relief, using a normal map (the aux input, or the image itself) and a light from the upper left; Direct3D 8 ps_1_4 assembly.
// menu: <Image>/Filters/Shaders/Light and Lens
// license: LGPL-3.0-or-later
//
// Sampler s0 is the image, s1 the normal map (R, G, B = X, Y, Z stored as
// 0..1, as Normal Map makes them); with no image bound to s1 the image's
// own colours act as normals, which gives an embossed-glass look.
ps_1_4
def c0, -0.45, 0.45, 0.77, 0.0    // light direction, unit length
def c1, 0.35, 0.35, 0.35, 0.0     // ambient light
def c2, 0.85, 0.82, 0.75, 0.0     // light colour
texld r0, t0                      // image colour
texld r1, t0                      // normal, 0..1 per component
dp3_sat r2, r1_bx2, c0            // N.L with N expanded to -1..1
mad r2.rgb, r2, c2, c1            // diffuse colour plus ambient
mul r0.rgb, r0, r2                 // flat normals (N.L = 0.77) keep the colours
