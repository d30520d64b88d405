ps_3_0
defi i0, 4, 1, 2, 0
defb b0, true
dcl_texcoord v0.xy
dcl_color1 v1
dcl vFace
dcl_2d s0
mov r0, c1
loop aL, i0
add r0, r0, c0[aL]
break_gt r0.x, c2.x
endloop
if b0
mov r0.z, -r0_abs.wzx
endif
setp_le p0, r0, v1
(!p0.y) texldl r1, v0, s0
call l1
mov oC0, r0
ret
label l1
dsx r1, r0
ret
