ps_2_0
def c0, 1, 1, 1, 1
(p0) mov r0, c0
