#!/bin/sh
# apply: results equal `run`, parameters, named filters, bit depth kept,
# failures reported at the end, inputs never overwritten, re-runs skip.
. "$(dirname "$0")/lib.sh"

"$CLI" run uv.hlsl --size 24x16 -o a.png
"$CLI" run uv.hlsl --size 9x7 --depth 16 -o b16.png
"$CLI" run uv.hlsl --size 5x3 -o c.pfm
mkdir sub
"$CLI" run uv.hlsl --size 6x6 -o sub/a.png
echo "not an image" > bad.png

# The result of each file is exactly what `run` makes of it.
run_cli 0 apply invert.hlsl strength=0.5 a.png b16.png c.pfm -o out
expect_grep log "3 written, 0 skipped, 0 failed"
for f in a.png c.pfm; do
  "$CLI" run invert.hlsl -i $f --set strength=0.5 -o ref-$f
  cmp out/$f ref-$f || fail "apply and run differ on $f"
done
# 16-bit input gives 16-bit output (PNG IHDR bit depth byte), 8 stays 8.
[ "$(od -An -tu1 -j24 -N1 out/b16.png | tr -d ' ')" = 16 ] || fail "b16.png lost its depth"
[ "$(od -An -tu1 -j24 -N1 out/a.png | tr -d ' ')" = 8 ] || fail "a.png changed depth"
"$CLI" run invert.hlsl -i b16.png --set strength=0.5 --depth 16 -o ref-b16.png
same_pixels out/b16.png ref-b16.png
# --depth overrides, --format changes the container.
run_cli 0 apply invert.hlsl --depth 16 a.png --format pfm -o out2
[ -f out2/a.pfm ] || fail "--format pfm did not write out2/a.pfm"
run_cli 0 apply invert.hlsl --depth 16 a.png -o out3
[ "$(od -An -tu1 -j24 -N1 out3/a.png | tr -d ' ')" = 16 ] || fail "--depth 16 ignored"

# Re-running skips complete outputs; --force redoes them; a newer input
# is redone.
run_cli 0 apply invert.hlsl strength=0.5 a.png b16.png c.pfm -o out
expect_grep log "0 written, 3 skipped, 0 failed"
expect_grep log "skipped out/a.png (up to date)"
touch -d '+2 seconds' a.png
run_cli 0 apply invert.hlsl strength=0.5 a.png b16.png c.pfm -o out
expect_grep log "1 written, 2 skipped, 0 failed"
run_cli 0 apply invert.hlsl strength=0.5 --force a.png b16.png c.pfm -o out
expect_grep log "3 written, 0 skipped, 0 failed"

# A bad file does not stop the others; every failure is listed at the end.
run_cli 1 apply invert.hlsl bad.png a.png missing.png -o out4 -j 2
expect_grep log "1 written, 0 skipped, 2 failed"
expect_grep errlog "gegl-shaders: error: bad.png: cannot decode image 'bad.png'"
expect_grep errlog "gegl-shaders: error: missing.png: cannot open 'missing.png': No such file or directory"
[ -f out4/a.png ] || fail "a.png was not written after a bad file"
[ ! -e out4/bad.png ] && [ ! -e out4/missing.png ] || fail "failed files have outputs"
no_temps out4

# Never overwrite an input: same folder, or another input's name.
cp a.png keep.png
run_cli 1 apply invert.hlsl a.png -o .
expect_grep errlog "a.png: the output './a.png' is an input; refusing to overwrite it (choose another -o DIR)"
cmp a.png keep.png || fail "an input was overwritten"
cp sub/a.png keep-sub.png
run_cli 1 apply invert.hlsl a.png sub/a.png -o sub
expect_grep errlog "error: a.png: the output 'sub/a.png' is an input"
expect_grep errlog "error: sub/a.png: the output 'sub/a.png' is an input"
expect_grep log "0 written, 0 skipped, 2 failed"
cmp sub/a.png keep-sub.png || fail "sub/a.png was overwritten"
cmp a.png keep.png || fail "a.png changed"
run_cli 1 apply invert.hlsl a.png sub/a.png -o out5
expect_grep errlog "sub/a.png: another input is also written to 'out5/a.png'"

# Shipped filters are found by name from the build tree.
run_cli 0 apply sepia-tone amount=0.25 a.png -o out6
"$CLI" run "$SRCDIR/../../filters/sepia-tone.hlsl" -i a.png --set amount=0.25 -o ref-sepia.png
cmp out6/a.png ref-sepia.png || fail "named filter differs from the file"
run_cli 1 apply no-such-filter a.png -o out7
expect_grep errlog "gegl-shaders: error: no filter, shader or effect file 'no-such-filter' (shipped filters: "
expect_grep errlog "sepia-tone"
[ ! -e out7 ] || fail "output folder created for a failed run"

# Parameter and usage errors come before any image is touched.
run_cli 1 apply invert.hlsl strenght=1 a.png -o out8
expect_grep errlog "unknown parameter 'strenght'"
[ ! -e out8 ] || fail "output folder created for bad parameters"
run_cli 2 apply invert.hlsl a.png
expect_grep errlog "gegl-shaders: error: missing -o DIR"
run_cli 2 apply invert.hlsl -o out9
expect_grep errlog "gegl-shaders: error: no input FILE given"
run_cli 2 apply invert.hlsl a.png -o out9 -j 0
expect_grep errlog "gegl-shaders: error: --jobs must be between 1 and 256"
run_cli 2 apply invert.hlsl a.png -o out9 --format gif
expect_grep errlog "gegl-shaders: error: --format must be one of png, pfm, exr, tif, jpg, ppm, webp, hdr"
run_cli 0 help apply
expect_grep log "gegl-shaders apply [OPTION…] FILTER [NAME=VALUE…] FILE…"
echo "apply: all checks passed"
