ps_2_0
dcl t0
tex t0
