ps_2_0
def c0, 1, 1, 1, 1
mov r0, c0
+mov r1, c0
