ps_4_0
dcl_input_ps linear v0.xy
dcl_output o0.xyzw
dcl_temps 2
lt r0.x, v0.x, l(0.200000)
discard_nz r0.x
ge r0.y, v0.y, l(0.500000)
if_nz r0.y
  sincos r1.x, r1.y, v0.x
else
  mov r1.xy, l(0.250000, 0.750000, 0, 0)
endif
lt r0.z, v0.x, v0.y
movc r1.z, r0.z, l(1.000000), l(2.000000)
mov o0.xyz, r1.xyzx
mov o0.w, l(1.000000)
ret
