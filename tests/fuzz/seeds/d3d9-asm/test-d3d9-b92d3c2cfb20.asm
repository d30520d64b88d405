ps_2_0
def c0, 1, 2, 3, 4
mov oC0, c0.yzxw
