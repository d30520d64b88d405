ps_4_0
break
