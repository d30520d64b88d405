ps_5_0
dcl_globalFlags refactoringAllowed
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
dcl_temps 3
resinfo_indexable(texture2d)(float,float,float,float)_uint r0.xy, l(0), t0.xyzw
ftoi r1.xy, v0.xyxx
iadd r1.x, r0.x, -r1.x
iadd r1.x, r1.x, l(-1)
mov r1.zw, l(0,0,0,0)
ld_indexable(texture2d)(float,float,float,float) r2.xyzw, r1.xyzw, t0.xyzw
sample_l_aoffimmi(1,0,0) r1.xyzw, v1.xyxx, t0.xyzw, s0, l(0.000000)
add o0.xyzw, r1.xyzw, r2.wzyx
ret
