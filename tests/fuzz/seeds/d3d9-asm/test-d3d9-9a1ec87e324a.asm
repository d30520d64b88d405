ps_2_x
defi i0, 5, 0, 0, 0
def c0, 0.125, 0, 0, 0
mov r0, c1
rep i0
add r0, r0, c0
endrep
mov oC0, r0
