ps_1_4
def c0, 0.75, 0.25, 0.5, 1
mov r0, c0
add r1, r0_bx2, r0
mov r0, r1
