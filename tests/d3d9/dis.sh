#!/bin/sh
# gegl-shaders dis on D3D9 assembly: canonical text, a fixed point when fed
# back, the same pixels as the original, and diagnostics with exit 1.
set -u
CLI=$1
case $CLI in /*) ;; *) CLI=$(pwd)/$CLI ;; esac
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gs-d3d9-dis.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
cd "$WORK"
fail () { echo "FAIL: $*" >&2; exit 1; }

cat > in.asm <<'ASM'
// a ps_1_4 listing with comments and the colour-name forms
ps.1.4
def c0, 0.750, 0.25, 0.5, 1.0   ; constants
texld r1, t0
texcrd r2.rgb, t1_dz.xyz
phase
add_x2 r0.rgb, r1, r2_bias
+mov r0.a, r1.b
ASM
cat > want.asm <<'ASM'
ps_1_4
def c0, 0.75, 0.25, 0.5, 1
texld r1, t0
texcrd r2.xyz, t1_dz.xyz
phase
add_x2 r0.xyz, r1, r2_bias
+mov r0.w, r1.z
ASM
"$CLI" dis in.asm > out.asm 2> err || fail "dis exited $?: $(cat err)"
cmp -s out.asm want.asm || { diff want.asm out.asm >&2; fail "dis output differs"; }
"$CLI" dis out.asm > again.asm || fail "dis of its own output failed"
cmp -s out.asm again.asm || fail "dis output is not a fixed point"
"$CLI" run in.asm -s 8x8 -p 3,5 > a.txt || fail "run in.asm failed"
"$CLI" run out.asm -s 8x8 -p 3,5 > b.txt || fail "run out.asm failed"
cmp -s a.txt b.txt || fail "original and disassembly render differently: $(cat a.txt) / $(cat b.txt)"

printf 'ps_1_3\ntex t0\ntexreg2ar t1, t0_bx2\n' > bad.asm
status=0
"$CLI" dis bad.asm > out 2> err || status=$?
[ "$status" -eq 1 ] || fail "dis of a bad shader exited $status, expected 1"
grep -qx 'bad.asm:3:15: error: _bx2 is not allowed on texreg2ar in ps_1_3' err || fail "diagnostic: $(cat err)"
echo ok
