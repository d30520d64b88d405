ps_1_3
def c0, 1, 1, 1, 1
add_x8 r0, c0, c0
