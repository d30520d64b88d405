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
# `dump` of an effect: each pass of the technique under a header naming
# it, with the three stages of its program; --entry picks the technique.
cat > two.fx <<'FX'
texture HalfTex { Width = 8; Height = 8; Format = RGBA16F; };
sampler Half { Texture = HalfTex; };
float4 Fill (float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target { return float4 (uv, 0.25, 1); }
float4 Show (float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target { return tex2D (Half, uv) * 2; }
technique First { pass Make { PixelShader = Fill; RenderTarget = HalfTex; } pass { PixelShader = Show; } }
technique Second { pass Only { PixelShader = Show; } }
FX
run_cli 0 dump two.fx
expect_file_eq err ""
grep -c '^;;; ' out > count
expect_file_eq count 2
grep '^;;; ' out > headers
expect_file_eq headers ";;; technique First, pass 1 Make: pixel shader Fill
;;; technique First, pass 2: pixel shader Show"
[ "$(grep -c '^;; span program$' out)" = 2 ] || fail "not one span program a pass: $(cat out)"
grep -q 'SAMPLE' out || fail "the second pass's read is not in the dump"
run_cli 0 dump two.fx --entry Second
expect_grep out ';;; technique Second, pass 1 Only: pixel shader Show'
run_cli 1 dump two.fx --entry Third
expect_grep err "unknown technique 'Third' (techniques: First, Second)"
echo ok
