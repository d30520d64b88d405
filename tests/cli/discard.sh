#!/bin/sh
# A discarded pixel keeps the input (the target is pre-filled with it), or
# stays transparent black on a blank canvas.
set -eu
. "$(dirname "$0")/lib.sh"

make_ppm in.ppm 2 1  255 0 0  0 255 0
run_cli 0 run discard.hlsl -i in.ppm -p 0,0 -p 1,0
expect_file_eq out "0 0 0 0 1 1
1 0 0 1 0 1"
run_cli 0 run discard.hlsl --size 2x1 -p 0,0 -p 1,0
expect_file_eq out "0 0 0 0 1 1
1 0 0 0 0 0"
echo ok
