ps_2_x
def c4, 0.5, 2, 0.25, 1
def c5, -0.1, 0.3, 0.7, 0.2
dcl t0.xy
dcl_2d s0
texld r0, t0, s0
m4x4 r1, r0, c0
dp2add r2.x, r0, c4, c4.z
nrm r3, c5
crs r4.xyz, r0, c5
frc r5, r1
sincos r6.xy, r0.x, c4, c4
add r2, r2.x, r3
add r2, r2, r4
add r2, r2, r5
add r0, r2, r6.xyxy
mov oC0, r0
