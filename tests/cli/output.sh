#!/bin/sh
# Writing results: exact PFM round trip, PNG that GEGL reads back, perceptual
# vs --linear interpretation, and the -j thread count not changing a bit.
set -eu
. "$(dirname "$0")/lib.sh"

probes="-p 0,0 -p 4,0 -p 2,1 -p 0,2 -p 4,2"

# PFM: 5x3 UV values such as 0.1 are not binary fractions, so only an exact
# writer and reader reproduce them.
run_cli 0 run uv.hlsl --size 5x3 $probes -o uv.pfm
cp out uv-expected
[ "$(head -c 12 uv.pfm)" = "$(printf 'PF\n5 3\n-1.0\n')" ] || fail "bad PFM header"
[ "$(wc -c <uv.pfm)" -eq $(( 12 + 5 * 3 * 12 )) ] || fail "bad PFM size"
run_cli 0 run identity.hlsl -i uv.pfm $probes
expect_file_eq out "$(cat uv-expected)"

# PNG (8-bit): an 8-bit input survives the trip exactly.
make_ppm in.ppm 2 2  0 1 2  127 128 129  253 254 255  10 200 30
run_cli 0 run identity.hlsl -i in.ppm -p 0,0 -p 1,0 -p 0,1 -p 1,1 -o out.png
cp out expected
run_cli 0 run identity.hlsl -i out.png -p 0,0 -p 1,0 -p 0,1 -p 1,1
expect_file_eq out "$(cat expected)"
# ... and GEGL's own tool reads it.
gegl out.png -o regegl.png
run_cli 0 run identity.hlsl -i regegl.png -p 0,0 -p 1,1
expect_file_eq out "$(sed -n '1p;4p' expected)"

# 16-bit PNG keeps the same 8-bit values.
run_cli 0 run identity.hlsl -i in.ppm --depth 16 -o out16.png
run_cli 0 run identity.hlsl -i out16.png -p 0,0 -p 1,1
expect_file_eq out "$(sed -n '1p;4p' expected)"

# --linear works on linear light but writes the same picture back.
run_cli 0 run identity.hlsl -i in.ppm --linear -p 1,0 -o lin.png
set -- $(cat out)
expect_close "$3" 0.212231 1e-5
expect_close "$4" 0.215861 1e-5
run_cli 0 run identity.hlsl -i lin.png -p 0,0 -p 1,0 -p 0,1 -p 1,1
expect_file_eq out "$(cat expected)"

# TIFF defaults to float samples: exact like PFM.
run_cli 0 run uv.hlsl --size 5x3 $probes -o uv.tif
run_cli 0 run identity.hlsl -i uv.tif $probes
expect_file_eq out "$(cat uv-expected)"

# Threads: the same bits whatever -j says.
run_cli 0 run grayscale.hlsl -i in.ppm --size 37x53 -j 1 -o j1.pfm
run_cli 0 run uv.hlsl --size 37x53 -j 1 -o uv1.pfm
run_cli 0 run uv.hlsl --size 37x53 -j 4 -o uv4.pfm
cmp uv1.pfm uv4.pfm || fail "-j 1 and -j 4 differ"
run_cli 0 run grayscale.hlsl -i in.ppm --size 37x53 -j 4 -o j4.pfm
cmp j1.pfm j4.pfm || fail "-j 1 and -j 4 differ over an input"
echo ok
