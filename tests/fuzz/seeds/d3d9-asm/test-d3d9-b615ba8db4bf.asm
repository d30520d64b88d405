ps_1_4
def c0, 1, 1, 1, 1
add_pp r0, c0, c0
