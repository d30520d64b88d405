ps_1_1
def c0, 0.75, 2, -3, 0.5
add_x2 r0, c0, c0
