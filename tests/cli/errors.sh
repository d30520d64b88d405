#!/bin/sh
# `run` failures: compile errors, unreadable or undecodable images, probes
# outside the image, unwritable outputs.  All exit 1 with a clear message.
set -eu
. "$(dirname "$0")/lib.sh"

make_ppm in.ppm 2 2  1 2 3  4 5 6  7 8 9  10 11 12

run_cli 1 run broken.hlsl -i in.ppm -o never.png
head -n 1 err | grep -q '^broken\.hlsl:3:12: error: ' || fail "$(cat err)"
[ ! -e never.png ] || fail "output written despite a compile error"

run_cli 1 run identity.hlsl -i nothere.ppm
expect_file_eq err "gegl-shaders: error: cannot open 'nothere.ppm': No such file or directory"

echo "not an image" >fake.png
run_cli 1 run identity.hlsl -i fake.png
expect_grep err "gegl-shaders: error: cannot decode image 'fake.png'"

printf 'PF\n2 2\n-1.0\n1234' >short.pfm
run_cli 1 run identity.hlsl -i short.pfm
expect_file_eq err "gegl-shaders: error: 'short.pfm': PFM data is truncated"

run_cli 1 run identity.hlsl -i in.ppm -p 0,0 -p 2,0
expect_file_eq err "gegl-shaders: error: probe 2,0 is outside the 2×2 image"
expect_file_eq out ""
run_cli 1 run identity.hlsl -i in.ppm -p -1,1
expect_grep err "probe -1,1 is outside"

run_cli 1 run identity.hlsl -i in.ppm -o no/such/dir/out.png
expect_grep err "gegl-shaders: error: cannot write 'no/such/dir/out.png'"
run_cli 1 run identity.hlsl -i in.ppm -o no/such/dir/out.pfm
expect_grep err "gegl-shaders: error: "
echo ok
