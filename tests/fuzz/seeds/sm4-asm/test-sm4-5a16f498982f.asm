ps_4_0
dcl_output o0.xyzw
mov o0.xyzw, l(1.0, 0.5, 0.25, 1.0)
ret
