#!/bin/sh
# Uniform parameters: initializer defaults, --set overrides, bad names.
set -eu
. "$(dirname "$0")/lib.sh"

# One pure red pixel, one grey pixel.
make_ppm in.ppm 2 1  255 0 0  51 51 51

# Default amount = 0.5: red becomes halfway to its luma 0.299.
run_cli 0 run grayscale.hlsl -i in.ppm -p 0,0
set -- $(cat out)
expect_close "$3" 0.6495 1e-6
expect_close "$4" 0.1495 1e-6
expect_close "$5" 0.1495 1e-6
[ "$6" = 1 ] || fail "alpha changed: $6"
default=$(cat out)

run_cli 0 run grayscale.hlsl -i in.ppm -p 0,0 --set amount=0.5
expect_file_eq out "$default"

# amount = 0 leaves every pixel exactly as read.
run_cli 0 run grayscale.hlsl -i in.ppm -p 0,0 -p 1,0 --set amount=0
expect_file_eq out "0 0 1 0 0 1
1 0 $($FLOAT_REF 255 51 51 51 255)"

run_cli 0 run grayscale.hlsl -i in.ppm -p 0,0 --set amount=1
set -- $(cat out)
expect_close "$3" 0.299 1e-6
expect_close "$4" 0.299 1e-6
expect_close "$5" 0.299 1e-6

run_cli 1 run grayscale.hlsl -i in.ppm -p 0,0 --set amout=1
expect_file_eq err "gegl-shaders: error: unknown parameter 'amout' (known parameters: amount)"
expect_file_eq out ""
run_cli 1 run identity.hlsl -i in.ppm --set amount=1
expect_grep err "unknown parameter 'amount' (the shader has no parameters)"
run_cli 1 run grayscale.hlsl -i in.ppm --set amount=1,2
expect_grep err "parameter 'amount' has 1 component(s) but 2 values were given"
run_cli 2 run grayscale.hlsl -i in.ppm --set amount=half
expect_grep err "--set amount: invalid number in 'half'"

# Bool uniforms read the same in SM2/3 (float registers) and SM4/5
# (32-bit words that are true when not zero): defaults and --set.
for profile in ps_2_0 ps_3_0 ps_4_0 ps_5_0; do
  run_cli 0 run bools.hlsl --profile "$profile" --size 1x1 -p 0,0
  expect_file_eq out "0 0 1 1 1 0.5"
  run_cli 0 run bools.hlsl --profile "$profile" --size 1x1 -p 0,0 --set Flag=0 --set Pair=0,0
  expect_file_eq out "0 0 0 0.25 0 1"
done

# Host values (README "Host values"): the CLI fills them as the GEGL op
# does, from the size the output is rendered at; ReShade's size macros
# compile in a per-file shader; --set of one still wins.
run_cli 0 check host-values.hlsl
run_cli 0 run host-values.hlsl --size 200x50 -p 0,0 -p 199,49
expect_file_eq out "0 0 0.200000003 0.0500000007 0.5 0.219999999
199 49 0.200000003 0.0500000007 0.5 0.219999999"
run_cli 0 run host-values.hlsl -i in.ppm -p 1,0
expect_file_eq out "1 0 0.00200000009 0.00100000005 50 1.00199997"
run_cli 0 run host-values.hlsl --size 200x50 -p 0,0 --set ImageSize=500,250
expect_file_eq out "0 0 0.5 0.25 0.5 0.219999999"
# apply: each image's own size.
make_ppm wide.ppm 4 1  0 0 0  0 0 0  0 0 0  0 0 0
run_cli 0 apply host-values.hlsl in.ppm wide.ppm -o host-out -f pfm
run_cli 0 run identity.hlsl -i host-out/in.pfm -p 0,0
expect_file_eq out "0 0 0.00200000009 0.00100000005 50 1"
run_cli 0 run identity.hlsl -i host-out/wide.pfm -p 3,0
expect_file_eq out "3 0 0.00400000019 0.00100000005 25 1"

echo ok
