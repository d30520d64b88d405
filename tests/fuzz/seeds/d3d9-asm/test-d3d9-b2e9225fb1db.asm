ps_1_4
def c0, 0.75, 2, -3, 0.5
add_x4 r0, c0, c0
