ps_1_1
def c0, 0.1, 0.2, 0.3, 0.4
mov r0.a, c0.b
+mov r0.rgb, c0
