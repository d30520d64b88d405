ps_1_4
def c0, 0.75, 0.25, 0.5, 1
mov r1, c0
mov r0.x, r1_bias
mov r0.y, 1-r1
mov r0.z, r1_x2
mov r0.w, -r1_bx2
