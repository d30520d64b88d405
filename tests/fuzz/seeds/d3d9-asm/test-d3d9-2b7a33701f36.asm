ps_3_0
defi i0, 4, 1, 2, 0
def c0, 0, 0, 0, 0
mov r0, c0
def c1, 1, 0, 0, 0
def c3, 10, 0, 0, 0
def c5, 100, 0, 0, 0
def c7, 1000, 0, 0, 0
def c9, 5, 5, 5, 5
loop aL, i0
add r0, r0, c0[aL]
endloop
mov oC0, r0
