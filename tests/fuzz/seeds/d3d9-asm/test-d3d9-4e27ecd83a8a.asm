ps_2_x
def c0, 0.5, 1, 2, 0
dcl t0.xy
mov r0, c0.w
setp_gt p0, t0, c0.x
(p0) mov r0, c0.y
(!p0.y) add r0.z, r0.z, c0.z
mov oC0, r0
