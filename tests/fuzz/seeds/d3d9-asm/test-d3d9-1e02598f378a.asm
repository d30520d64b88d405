ps_1_4
texcrd r0.xyz, t0
mov r0.a, c0
