#!/bin/sh
# Sampler slots: unbound ones sample the input, --texture binds by slot
# number or by sampler name, unknown names are reported.
set -eu
. "$(dirname "$0")/lib.sh"

# Values 0 and 255 keep the sums exact.
make_ppm red.ppm 1 1  255 0 0
make_ppm green.ppm 1 1  0 255 0

run_cli 0 run two-samplers.hlsl -i red.ppm -p 0,0
expect_file_eq out "0 0 2 0 0 2"
run_cli 0 run two-samplers.hlsl -i red.ppm --texture 1=green.ppm -p 0,0
expect_file_eq out "0 0 1 1 0 2"
run_cli 0 run two-samplers.hlsl -i red.ppm --texture s1=green.ppm -p 0,0
expect_file_eq out "0 0 1 1 0 2"
# Rebinding slot 0 replaces what the shader reads, not the pre-fill.
run_cli 0 run two-samplers.hlsl -i red.ppm -t s0=green.ppm -t s1=green.ppm -p 0,0
expect_file_eq out "0 0 0 2 0 2"

run_cli 1 run two-samplers.hlsl -i red.ppm --texture s7=green.ppm
expect_file_eq err "gegl-shaders: error: unknown sampler 's7' (known samplers: s0 (slot 0), s1 (slot 1))"
run_cli 1 run two-samplers.hlsl -i red.ppm --texture 16=green.ppm
expect_grep err "texture slot '16' is out of range (0 to 15)"
run_cli 1 run two-samplers.hlsl -i red.ppm --texture 1=nothere.png
expect_file_eq err "gegl-shaders: error: cannot open 'nothere.png': No such file or directory"
run_cli 2 run two-samplers.hlsl -i red.ppm --texture green.ppm
expect_grep err "--texture expects SLOT_OR_NAME=IMG, got 'green.ppm'"
echo ok
