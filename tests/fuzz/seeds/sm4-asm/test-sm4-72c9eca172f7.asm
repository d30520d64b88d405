ps_4_0
dcl_sampler s0, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
dcl_temps 1
sample_c_lz r0.x, v1.xyxx, t0.xxxx, s0, l(0.500000)
mov o0.xyzw, r0.xxxx
ret
