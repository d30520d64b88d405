ps_4_0
dcl_sampler s0, mode_fancy
