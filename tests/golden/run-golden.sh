#!/bin/sh
# Golden tests of the optimiser: `gegl-shaders dump FILE` must print
# exactly DIR/NAME.expected (IR before and after optimisation, span
# program), NAME being FILE's base name.
# Usage: run-golden.sh GEGL_SHADERS DIR [SHADER...]
# Shaders are DIR's own plus the ones named (the benchmark shaders, pinned
# where they live rather than copied).  With GOLDEN_UPDATE=1 the expected
# files are rewritten instead; review the diff before committing it.
tool=$1 dir=$2
shift 2
status=0
for f in "$dir"/*.hlsl "$dir"/*.asm "$@"; do
  [ -e "$f" ] || continue
  expected="$dir/$(basename "$f").expected"
  out=$(mktemp)
  if ! "$tool" dump "$f" >"$out" 2>&1; then
    echo "FAIL: $f: dump exited with an error:"; cat "$out"; status=1
  elif [ "${GOLDEN_UPDATE:-0}" = 1 ]; then
    cp "$out" "$expected"; echo "updated $expected"
  elif ! diff -u "$expected" "$out"; then
    echo "FAIL: $f: the optimiser's output changed (GOLDEN_UPDATE=1 to accept)"; status=1
  else
    echo "ok: $f"
  fi
  rm -f "$out"
done
exit $status
