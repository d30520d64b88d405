ps_1_1
tex t0
dp3_sat r0, t0_bx2, v0_bx2
