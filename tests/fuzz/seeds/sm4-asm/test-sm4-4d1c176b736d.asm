ps_4_0
loop
