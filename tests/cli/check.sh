#!/bin/sh
# `check`: silent success, file:line:col diagnostics, unreadable files.
set -eu
. "$(dirname "$0")/lib.sh"

run_cli 0 check identity.hlsl
expect_file_eq out ""
expect_file_eq err ""
run_cli 0 check grayscale.hlsl -DUNUSED=1 -D OTHER -I .

run_cli 1 check broken.hlsl
expect_file_eq out ""
head -n 1 err | grep -q '^broken\.hlsl:3:12: error: ' \
  || fail "first diagnostic is not at broken.hlsl:3:12: $(cat err)"
# Every line is a formatted diagnostic, nothing else leaks out.
if grep -v -E '^broken\.hlsl:[0-9]+:[0-9]+: (error|warning|note): ' err; then
  fail "unexpected stderr lines"
fi

run_cli 1 check missing.hlsl
expect_file_eq err "gegl-shaders: error: cannot read 'missing.hlsl': No such file or directory"
mkdir adir
run_cli 1 check adir
expect_grep err "cannot read 'adir'"

# Sources stop at the library's own 4 MiB limit, with the tool's message
# (it used to read up to 64 MiB for the compiler to refuse).
head -c 4194305 /dev/zero | tr '\0' ' ' > big.hlsl
run_cli 1 check big.hlsl
expect_file_eq err "gegl-shaders: error: cannot read 'big.hlsl': file is larger than 4 MiB"
echo ok
