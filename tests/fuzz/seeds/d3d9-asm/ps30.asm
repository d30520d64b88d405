ps_3_0
def c0, 0.5, 1.0, 0.0, 2.0
defi i0, 4, 0, 1, 0
dcl_texcoord0 v0.xy
dcl_2d s0
texld r0, v0, s0
mov r1, c0.z
rep i0
  add r1, r1, r0
endrep
rcp r2.x, c0.z
mul r1, r1, c0.x
if_lt r1.x, c0.y
  texkill -r0
endif
mov oC0, r1
