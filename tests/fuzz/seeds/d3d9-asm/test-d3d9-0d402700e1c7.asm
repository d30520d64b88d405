ps_1_4
def c0, 0.5, 0.5, 0.5, 0.25
mov r0, c0
add r0.rgb, r0, r0
+mov r0.a, r0.r
