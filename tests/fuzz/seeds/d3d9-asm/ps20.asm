ps_2_0
dcl t0.xy
dcl_2d s0
texld r0, t0, s0
dp3 r1.x, r0, c1
mad r0.rgb, r1.x, c2, r0
mov oC0, r0
