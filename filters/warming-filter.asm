// title: Warming Filter
// description: The orange 85-type photographic filter: warms the light of a cold scene; ps_1_1 assembly.
// menu: <Image>/Filters/Shaders/Colour
// license: LGPL-3.0-or-later
ps_1_1
def c0, 0.56, 0.48, 0.38, 0.6     // filter colour at half scale; alpha: density
tex t0
mul_x2 r1, t0, c0                 // through the filter, brightness kept
lrp r0.rgb, c0.a, r1, t0          // mix by the filter's density
+mov r0.a, t0.a
