ps_4_0
dcl_output o0.xyzw
mov o0.xyzw, r3.xyzw
ret
