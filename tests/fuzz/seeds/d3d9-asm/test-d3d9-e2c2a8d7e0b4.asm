ps_3_0
dcl t0
