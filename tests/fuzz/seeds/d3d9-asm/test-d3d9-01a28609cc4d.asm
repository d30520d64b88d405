ps_2_0
def c1, 0.5, 0.25, 0, 1
dcl t0.xy
dcl_2d s0
dcl_cube s1
texld r0, t0, s0
texldp_pp r1, t0, s1
mul r1, r0, c0
mad_sat r0.xyz, r1, c1.x, -c1.y
mov oC0, r0
