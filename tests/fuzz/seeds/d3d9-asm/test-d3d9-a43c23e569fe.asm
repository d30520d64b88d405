ps_2_0
def c0, 1, 1, 1, 1
rcp r0, c0
