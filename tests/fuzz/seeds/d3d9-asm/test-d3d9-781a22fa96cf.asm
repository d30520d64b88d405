ps_2_0
def c0, 0.5, 0, 0, 1
dcl t0.xy
sub r0, t0, c0
texkill r0
mov oC0, c0
