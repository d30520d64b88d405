ps_4_0
dcl_temps 1
if r0.x
endif
