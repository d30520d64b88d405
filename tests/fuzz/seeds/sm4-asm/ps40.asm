ps_4_0
dcl_constantbuffer cb0[2], immediateIndexed
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
dcl_temps 2
sample r0.xyzw, v1.xyxx, t0.xyzw, s0
mul r1.xyzw, r0.xyzw, cb0[0].xyzw
div r1.x, r1.x, l(0.000000)
loop
  breakc_nz r1.y
  add r1.y, r1.y, l(1.000000)
endloop
mov o0.xyzw, r1.xyzw
ret
