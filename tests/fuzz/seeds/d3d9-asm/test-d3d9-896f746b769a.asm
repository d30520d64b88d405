ps_2_x
def c0, 1, 2, 3, 4
mov r0, c0.wzx
mov oC0, r0
