#!/bin/sh
# Golden tests of the optimiser: `gegl-shaders dump FILE` must print
# exactly FILE.expected (IR before and after optimisation, span program).
# Usage: run-golden.sh GEGL_SHADERS DIR
# With GOLDEN_UPDATE=1 the expected files are rewritten instead; review
# the diff before committing it.
tool=$1 dir=$2
status=0
for f in "$dir"/*.hlsl "$dir"/*.asm; do
  [ -e "$f" ] || continue
  out=$(mktemp)
  if ! "$tool" dump "$f" >"$out" 2>&1; then
    echo "FAIL: $f: dump exited with an error:"; cat "$out"; status=1
  elif [ "${GOLDEN_UPDATE:-0}" = 1 ]; then
    cp "$out" "$f.expected"; echo "updated $f.expected"
  elif ! diff -u "$f.expected" "$out"; then
    echo "FAIL: $f: the optimiser's output changed (GOLDEN_UPDATE=1 to accept)"; status=1
  else
    echo "ok: $f"
  fi
  rm -f "$out"
done
exit $status
