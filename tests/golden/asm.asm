ps_2_0
def c0, 1.2, 1.2, 1.2, 1.0
def c1, -0.1, -0.1, -0.1, 0.0
dcl t0.xy
dcl_2d s0
texld r0, t0, s0
mad_sat r0, r0, c0, c1
mov oC0, r0
