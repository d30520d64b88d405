#!/bin/sh
# `run` renders band by band: its input and result are tiled (GEGL's tile
# cache, not one array the size of the image), and each band reads just
# the rows its pixels sample.  Checked three ways: reads that reach far
# above and beside a pixel give the input's pixel there (band edges, image
# edges), bit for bit what the whole-input path gives for the same reads;
# a shader whose reads cannot be bounded still needs its whole input, and
# a band its rows and margin, each refused over the budget with its
# figures; and a 12-megapixel image,
# whose input and result would take 366 MiB as float, renders within an
# 8 MiB budget and a 64 MiB GEGL tile cache in far less memory than that.
set -eu
. "$(dirname "$0")/lib.sh"

run_cli 0 run uv.hlsl --size 700x300 -o in.pfm

# 5 texels right, 40 up: more than a band's height of rows above.
cat > shift.hlsl <<'HLSL'
sampler2D s0;
float4 main(float2 uv : TEXCOORD0) : COLOR
{
  return tex2D(s0, uv + float2(5.0 / 700.0, -40.0 / 300.0));
}
HLSL
# The same reads through a coordinate the compiler cannot bound (k is 0:
# the input's blue), so the whole input is read.
cat > shift-whole.hlsl <<'HLSL'
sampler2D s0;
float4 main(float2 uv : TEXCOORD0) : COLOR
{
  float k = tex2D(s0, float2(0.5, 0.5)).b;
  return tex2D(s0, uv + float2(5.0 / 700.0, -40.0 / 300.0) + k);
}
HLSL

# Pixel (x, y) reads the input at (min(x+5, 699), max(y-40, 0)).
probes="0,0 3,39 3,40 699,41 694,150 10,169 10,170 10,171 350,255 695,299"
want=""
args=""
for p in $probes; do
  x=${p%,*} y=${p#*,}
  sx=$((x + 5)); [ $sx -gt 699 ] && sx=699
  sy=$((y - 40)); [ $sy -lt 0 ] && sy=0
  run_cli 0 run identity.hlsl -i in.pfm -p $sx,$sy
  want="$want$x $y $(cut -d' ' -f3- out)
"
  args="$args -p $p"
done
for j in 1 2; do
  run_cli 0 run shift.hlsl -i in.pfm -j $j $args -o banded-$j.pfm
  expect_file_eq out "$(printf %s "$want")"
done
cmp -s banded-1.pfm banded-2.pfm || fail "-j 1 and -j 2 differ"
run_cli 0 run shift-whole.hlsl -i in.pfm -o whole.pfm
cmp -s banded-1.pfm whole.pfm || fail "the banded render differs from the whole-input one"

# Unbounded reads need the whole 700×300 input (3.2 MiB as float).
run_cli 1 run shift-whole.hlsl -i in.pfm --memory-budget 1M -p 0,0
expect_file_eq err "shift-whole.hlsl: error: the shader's reads cannot be bounded, so it needs its whole 700×300 input: 4 MiB, over what the memory budget leaves, 1 MiB (--memory-budget, GEGL_SHADERS_MEMORY_BUDGET)"
[ ! -s out ] || fail "probes printed after a failed render: $(cat out)"

# A band holds its rows and the 43 its reads reach (40 above and none
# below, with the binding's slack: 41 and 2), the texel of bilinear
# filtering each side, and its rows of the result: 180 rows (four times
# that margin) of 700 pixels take 4.3 MiB.  Within 1 MiB the bands are
# cut down to 22 rows, and the pixels do not change; not even two rows
# fit in 256 KiB.
run_cli 0 run shift.hlsl -i in.pfm --memory-budget 1M -o thin.pfm
cmp -s thin.pfm banded-1.pfm || fail "bands of 22 rows give other pixels than bands of 180"
run_cli 1 run shift.hlsl -i in.pfm --memory-budget 256K -p 0,0
expect_file_eq err "shift.hlsl: error: a band of 2 rows and the 43 rows its reads reach around it need 536 KiB, over what the memory budget leaves, 256 KiB (--memory-budget, GEGL_SHADERS_MEMORY_BUDGET)"

# A large image: peak memory well under its whole float images.
cat > shift-big.hlsl <<'HLSL'
sampler2D s0;
float4 main(float2 uv : TEXCOORD0) : COLOR
{
  return tex2D(s0, uv + float2(5.0 / 4000.0, -40.0 / 3000.0));
}
HLSL
run_cli 0 run uv.hlsl --size 4000x3000 -o big.png
cat > peak.py <<'PY'
import resource, subprocess, sys
status = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
print(status, peak)
PY
# GEGL's start-up alone peaks at a few hundred MiB on some machines: the
# peak of an 8×8 render is the baseline.
GEGL_CACHE_SIZE=64 python3 peak.py "$CLI" run shift-big.hlsl --size 8x8 -o small.png > peak
read status base_mib < peak
GEGL_CACHE_SIZE=64 python3 peak.py "$CLI" run shift-big.hlsl -i big.png -j 2 \
  --memory-budget 8M -o big-out.png > peak
read status peak_mib < peak
[ "$status" = 0 ] || fail "the 4000×3000 render failed (exit $status)"
# Under AddressSanitizer freed memory waits in its quarantine (256 MiB),
# GEGL's included, so the peak says nothing there.
if [ -z "${ASAN_OPTIONS:-}" ]; then
  [ "$peak_mib" -lt $((base_mib + 100)) ] ||
    fail "the 4000×3000 render peaked at $peak_mib MiB, $base_mib MiB for 8×8; its whole images would take 366 MiB"
fi
run_cli 0 run identity.hlsl -i big.png -p 3999,0 -p 5,2959
sed 's/^3999 0 /3999 0 /; s/^5 2959 /0 2999 /' out > big-want
run_cli 0 run identity.hlsl -i big-out.png -p 3999,0 -p 0,2999
expect_file_eq out "$(cat big-want)"
echo "banded: all checks passed"
