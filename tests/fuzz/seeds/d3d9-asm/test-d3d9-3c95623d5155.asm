ps_2_x
def c0, 0.5, 1, 2, 0
dcl t0.xy
if_gt t0.x, c0.x
mov r0, c0.y
else
mov r0, c0.z
endif
mov oC0, r0
