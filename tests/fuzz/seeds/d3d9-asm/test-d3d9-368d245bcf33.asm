ps_1_1
def c0, 1, 1, 1, 1
mov r2, c0
