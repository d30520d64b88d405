ps_1_1
def c0, 1, 1, 1, 1
add r0.rg, c0, c0
