ps_2_x
defi i0, 100, 0, 0, 0
def c0, 1, 3, 0, 0
mov r0, c1
rep i0
add r0, r0, c0.x
break_ge r0.x, c0.y
endrep
mov oC0, r0
