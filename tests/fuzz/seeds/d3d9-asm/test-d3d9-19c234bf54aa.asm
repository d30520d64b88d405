ps_2_0
def c1, 0.5, 2, 0.25, 1
dcl t0.xy
dcl_2d s0
texld r0, t0, s0
mul r1, r0, c0
mad r1, r1, c1.y, -c1.x
rcp r2.x, r0.x
rsq r2.y, r0.y
pow r2.z, r0.x, c1.y
exp r2.w, r0.y
add r1, r1, r2
log r3, r0.z
max r1, r1, r3
cmp r1, r1, r1, -r1
lrp r0, r0.x, r1, c1
mov oC0, r0
