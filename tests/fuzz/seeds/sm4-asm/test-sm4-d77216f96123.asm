ps_4_0
dcl_output o0.xyzw
  frobnicate o0.xyzw
