ps_1_3
tex t0
texbeml t1, t0_bx2
