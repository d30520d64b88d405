ps_2_x
defb b0, true
defb b1, false
def c0, 1, 10, 100, 0
mov r0, c0.w
call l0
callnz l1, b0
callnz l1, b1
mov oC0, r0
ret
label l0
add r0, r0, c0.x
ret
label l1
add r0, r0, c0.y
if b0
ret
endif
add r0, r0, c0.z
ret
