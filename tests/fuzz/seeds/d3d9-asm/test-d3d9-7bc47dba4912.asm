ps_1_0
tex t0
texbem t1, t0_bx2
