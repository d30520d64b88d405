#!/bin/sh
# `gegl-shaders dis` on an fxc listing prints text that `run` executes to the
# same pixels, and `dis` of that text is a fixed point.
set -eu
cli=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cli" dis "$src" > "$tmp/a.asm"
"$cli" dis "$tmp/a.asm" > "$tmp/b.asm"
cmp "$tmp/a.asm" "$tmp/b.asm" || { echo "dis is not a fixed point"; exit 1; }
# uv (0.875, 0.75) scaled by the default amount 0.5
want="3 1 0.4375 0.375 0 1"
got=$("$cli" run "$src" --size 4x2 -p 3,1)
[ "$got" = "$want" ] || { echo "listing: got '$got', want '$want'"; exit 1; }
got=$("$cli" run "$tmp/a.asm" --size 4x2 -p 3,1)
[ "$got" = "$want" ] || { echo "dis output: got '$got', want '$want'"; exit 1; }
echo ok
