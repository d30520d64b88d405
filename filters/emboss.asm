// title: Emboss
// description: Press the image into metal: edges become raised and sunken ridges lit from one side; ps_2_0 assembly.
// menu: <Image>/Filters/Shaders/Edge Detect
// license: LGPL-3.0-or-later
ps_2_0
def c0, 0.0016, 0.0024, 0.0, 0.0  // offset between the two taps, in uv
def c1, 0.2126, 0.7152, 0.0722, 0.0
def c2, 3.0, 0.5, 0.35, 0.0       // relief strength, mid grey, colour kept
dcl t0.xy
dcl_2d s0
add r0.xy, t0, -c0
add r1.xy, t0, c0
texld r2, r0, s0
texld r3, r1, s0
texld r4, t0, s0
add r5.rgb, r2, -r3               // difference across the edge
dp3 r5.x, r5, c1                  // as a brightness
mad r5.x, r5.x, c2.x, c2.y        // ridge height around mid grey
dp3 r6.x, r4, c1
lrp r7.rgb, c2.z, r4, r6.x        // a touch of the original colour
mul r7.rgb, r7, r5.x
add_sat r7.rgb, r7, r7            // back to full brightness, kept in 0..1
mov r7.a, r4.a
mov oC0, r7
