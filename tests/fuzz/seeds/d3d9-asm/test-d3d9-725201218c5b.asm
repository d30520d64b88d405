ps_2_0
foo r0, c0
