ps_4_0
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
dcl_temps 2
sample r0.xyzw, v1.xyxx, t0.xyzw, s0
dp3_sat r1.x, r0.xyzx, l(0.299000, 0.587000, 0.114000, 0.000000)
add r1.y, -r0.w, l(0.250000)
mul o0.xyz, r1.xxxx, |r1.yyyy|
mov o0.w, r0.w
ret
