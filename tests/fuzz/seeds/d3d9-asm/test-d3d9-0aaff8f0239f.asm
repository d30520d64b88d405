ps_2_0
defi i0, 1, 0, 0, 0
