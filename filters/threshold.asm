// title: Threshold
// description: Split the image into black and white at a brightness level, with an adjustable soft edge; Direct3D 10 (SM4) assembly.
// menu: <Image>/Filters/Shaders/Colour
// license: LGPL-3.0-or-later
//
// Written as an fxc listing: the buffer definitions below name the
// parameters and give their defaults, the signature places TEXCOORD0 in v1.
//
// Buffer Definitions:
//
// cbuffer $Globals
// {
//
//   float level;                       // Offset:    0 Size:     4
//      = 0x3f000000
//   float softness;                    // Offset:    4 Size:     4
//      = 0x3d4ccccd
//
// }
//
//
// Resource Bindings:
//
// Name                                 Type  Format         Dim      HLSL Bind  Count
// ------------------------------ ---------- ------- ----------- -------------- ------
// image_sampler                     sampler      NA          NA             s0      1
// image                             texture  float4          2d             t0      1
// $Globals                          cbuffer      NA          NA            cb0      1
//
//
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_POSITION              0   xyzw        0      POS   float
// TEXCOORD                 0   xy          1     NONE   float   xy
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_TARGET                0   xyzw        0   TARGET   float   xyzw
//
ps_4_0
dcl_constantbuffer cb0[1], immediateIndexed
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
dcl_temps 2
sample r0.xyzw, v1.xyxx, t0.xyzw, s0
dp3 r1.x, r0.xyzx, l(0.212600, 0.715200, 0.072200, 0.000000)
add r1.y, cb0[0].x, -cb0[0].y
add r1.z, cb0[0].y, cb0[0].y
max r1.z, r1.z, l(0.000100)
add r1.x, r1.x, -r1.y
div_sat r1.x, r1.x, r1.z
mad r1.y, r1.x, l(-2.000000), l(3.000000)
mul r1.x, r1.x, r1.x
mul r1.x, r1.x, r1.y
mov o0.xyz, r1.xxxx
mov o0.w, r0.w
ret
