ps_4_0
dcl_temps 1
iadd_sat r0.x, r0.x, r0.x
