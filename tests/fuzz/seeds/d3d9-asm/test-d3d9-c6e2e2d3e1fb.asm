ps_3_0
dcl_texcoord0 v0.xy
dcl vPos.xy
dcl_2d s0
texld r0, v0, s0
mov r0.z, vPos.y
mov oC0, r0
