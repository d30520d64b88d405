ps_1_4
def c0, 0.75, 0.25, 0.5, 1
texld r1, t0
texcrd r2.xyz, t1_dz.xyz
phase
add_x2 r0.xyz, r1, r2_bias
+mov r0.w, r1.z
cnd r0, r0, r1, 1-r2
