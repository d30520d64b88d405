ps_2_x
defi i0, 1, 0, 0, 0
rep i0
mov r0, c0
