#!/bin/sh
# Command dispatch, help, version and usage-error exit codes.
set -eu
. "$(dirname "$0")/lib.sh"
VERSION=$3

run_cli 0 --help
expect_grep out "check FILE"
expect_grep out "run FILE"
run_cli 0 --version
expect_file_eq out "gegl-shaders $VERSION"
run_cli 0 help run
expect_grep out "--probe=X,Y"
expect_grep out "--texture=SLOT_OR_NAME=IMG"
run_cli 0 run --help
expect_grep out "--size=WxH"
# run takes effect files too, and says so.
expect_grep out "Render the pixel shader or effect FILE"
expect_grep out "Set a shader or effect parameter"
run_cli 0 help apply
expect_grep out "Apply FILTER (a shader or effect file, or the name of a shipped filter)"
run_cli 0 help check
expect_grep out "--define=NAME[=VALUE]"

run_cli 2
expect_grep err "Usage: gegl-shaders COMMAND"
run_cli 2 frobnicate
expect_file_eq err "gegl-shaders: error: unknown command 'frobnicate'
Try 'gegl-shaders --help'."
run_cli 2 help frobnicate
run_cli 2 check
expect_grep err "gegl-shaders: error: missing shader FILE"
run_cli 2 check identity.hlsl uv.hlsl
expect_grep err "unexpected argument 'uv.hlsl'"
run_cli 2 run identity.hlsl --no-such-option
run_cli 2 run uv.hlsl --size 4by2
expect_grep err "--size expects WxH"
run_cli 2 run uv.hlsl --size 0x2
run_cli 2 run uv.hlsl --size 4x2 --probe 1
expect_grep err "--probe expects X,Y, got '1'"
run_cli 2 run uv.hlsl --size 4x2 --set amount
run_cli 2 run uv.hlsl --size 4x2 --depth 12
run_cli 2 run uv.hlsl --size 4x2 -j 0 -o x.png
run_cli 2 run uv.hlsl --size 4x2 -o out.xyz
expect_grep err "cannot tell the format of 'out.xyz'"
[ ! -e out.xyz ] || fail "a usage error still wrote output"
echo ok
