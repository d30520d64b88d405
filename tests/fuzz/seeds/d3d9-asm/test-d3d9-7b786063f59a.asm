ps_2_0
def c0, 1, 1, 1, 1
add_x2 r0, c0, c0
mov oC0, r0
