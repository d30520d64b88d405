ps_1_4
def c0, 0.75, 0.25, 0.5, 0.125
mov r1, c0
add_x2 r0.x, r1, r1
mul_d2 r0.y, r1, r1
add_x4_sat r0.z, r1, r1
mov_x8 r0.w, r1
