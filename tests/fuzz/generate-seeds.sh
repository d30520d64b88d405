#!/bin/sh
# Builds the derived fuzz seeds instead of keeping copies in the tree:
#   generate-seeds.sh STAMP OUTDIR ASSEMBLE-SEEDS EXTRACT-ASM.py SOURCE...
# OUTDIR/d3d9-asm and OUTDIR/sm4-asm get the assembly listings embedded in
# the C test sources and the .asm files given; OUTDIR/d3d9-bytecode and OUTDIR/dxbc get those listings
# assembled by the project's own encoders, so the binary loaders start from
# inputs that decode.  STAMP is touched last (meson's output).
set -eu
stamp=$1 out=$2 assemble=$3 extract=$4
shift 4
rm -rf "$out/d3d9-asm" "$out/sm4-asm" "$out/d3d9-bytecode" "$out/dxbc"
mkdir -p "$out/d3d9-asm" "$out/sm4-asm" "$out/d3d9-bytecode" "$out/dxbc"
csources=""
for f in "$@"; do
  case "$f" in
    *.c) csources="$csources $f" ;;
    *.asm)
      if grep -q '^[[:space:]]*ps_[4-9]' "$f"; then kind=sm4-asm; else kind=d3d9-asm; fi
      cp "$f" "$out/$kind/" ;;
  esac
done
# shellcheck disable=SC2086
python3 "$extract" "$out" $csources 2>/dev/null
"$assemble" "$out/d3d9-bytecode" "$out"/d3d9-asm/*.asm >/dev/null 2>&1 || true
"$assemble" "$out/dxbc" "$out"/sm4-asm/*.asm >/dev/null 2>&1 || true
touch "$stamp"
