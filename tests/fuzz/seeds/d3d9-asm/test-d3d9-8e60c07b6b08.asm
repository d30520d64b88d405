ps_1_1
tex t0
add r0, 1-t0_bx2, t0
