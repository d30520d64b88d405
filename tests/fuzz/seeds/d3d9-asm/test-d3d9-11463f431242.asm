ps_2_x
call l3
