#!/bin/sh
# `run` probes: TEXCOORD0 at pixel centres, probe order, the default canvas,
# and 8-bit input read as exactly k/255.
set -eu
. "$(dirname "$0")/lib.sh"

run_cli 0 run uv.hlsl --size 4x2 --probe 0,0 --probe 3,1 --probe 1,0
expect_file_eq out "0 0 0.125 0.25 0 1
3 1 0.875 0.75 0 1
1 0 0.375 0.25 0 1"

# Without --input or --size the canvas is 512x512.
run_cli 0 run uv.hlsl -p 511,511 -p 0,0
expect_file_eq out "511 511 0.999023438 0.999023438 0 1
0 0 0.0009765625 0.0009765625 0 1"

# A 3x2 image holding the byte values 0..17.
make_ppm in.ppm 3 2  0 1 2  3 4 5  127 128 129  251 252 253  254 255 255  17 16 15
run_cli 0 run identity.hlsl --input in.ppm -p 0,0 -p 1,0 -p 2,0 -p 0,1 -p 1,1 -p 2,1
expect_file_eq out "0 0 $($FLOAT_REF 255 0 1 2 255)
1 0 $($FLOAT_REF 255 3 4 5 255)
2 0 $($FLOAT_REF 255 127 128 129 255)
0 1 $($FLOAT_REF 255 251 252 253 255)
1 1 $($FLOAT_REF 255 254 255 255 255)
2 1 $($FLOAT_REF 255 17 16 15 255)"
# Guard the reference helper itself against agreeing with anything.
[ "$($FLOAT_REF 255 1)" = "0.00392156886" ] || fail "float-ref is broken"

# --size overrides the input's size.
run_cli 0 run uv.hlsl --input in.ppm --size 8x8 -p 7,7
expect_file_eq out "7 7 0.9375 0.9375 0 1"
echo ok
