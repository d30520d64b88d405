ps_4_0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
dcl_temps 3
ftoi r0.x, v0.x
mov r1.xy, l(0,0,0,0)
loop
  ige r0.z, r1.y, r0.x
  breakc_nz r0.z
  iadd r1.x, r1.x, r1.y
  iadd r1.y, r1.y, l(1)
endloop
itof r2.x, r1.x
ishl r0.w, r0.x, l(2)
and r0.w, r0.w, l(12)
utof r2.y, r0.w
mul o0.xy, r2.xyxx, l(0.100000, 0.010000, 0, 0)
round_ni o0.z, v1.y
frc o0.w, v0.y
ret
