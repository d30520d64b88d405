ps_2_0
def c0, 0.5, 0.5, 0, 2
dcl_2d s0
texldp r0, c0, s0
mov oC0, r0
