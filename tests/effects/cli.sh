#!/bin/sh
# Effect files through the gegl-shaders CLI: an image-file texture compared
# with the single-pass equivalent (exactly: both read the same texels),
# technique selection, check, and error messages.
set -eu
LC_ALL=C
export LC_ALL
CLI=$1
case $CLI in /*) ;; *) CLI=$(pwd)/$CLI ;; esac
SRCDIR=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gs-effects-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
cd "$WORK"
cp "$SRCDIR"/*.fx "$SRCDIR"/*.hlsl .

fail () { echo "FAIL: $*" >&2; exit 1; }

run_cli () {
  expected=$1; shift
  status=0
  "$CLI" "$@" >out 2>err || status=$?
  if [ "$status" -ne "$expected" ]; then
    echo "--- stdout:" >&2; cat out >&2; echo "--- stderr:" >&2; cat err >&2
    fail "gegl-shaders $* exited with $status, expected $expected"
  fi
}

probes=""
for y in 0 1 2 3 4 5; do for x in 0 1 2 3 4 5 6 7; do probes="$probes -p $x,$y"; done; done

# The image the texture names, and a different input image.
run_cli 0 run pattern.hlsl -s 8x6 -o pattern.png
run_cli 0 run texture-equiv.hlsl -s 8x6 -t 1=pattern.png -o input.png

# shellcheck disable=SC2086
run_cli 0 run texture.fx -i input.png $probes
mv out effect.txt
# shellcheck disable=SC2086
run_cli 0 run texture-equiv.hlsl -i input.png -t 1=pattern.png $probes
mv out equiv.txt
[ "$(wc -l < effect.txt)" -eq 48 ] || fail "expected 48 probe lines"
cmp -s effect.txt equiv.txt || { diff effect.txt equiv.txt >&2; fail "image texture differs from the single-pass equivalent"; }
# Not trivially equal to the input: the pattern's blue at 3,2 shows up.
grep -q '^3 2 ' effect.txt || fail "probe 3,2 missing"

# --texture replaces the file an image texture names.
run_cli 0 run texture-equiv.hlsl -s 8x6 -t 1=input.png -o other.png
# shellcheck disable=SC2086
run_cli 0 run texture.fx -i input.png -t PatternTex=other.png $probes
mv out effect2.txt
# shellcheck disable=SC2086
run_cli 0 run texture-equiv.hlsl -i input.png -t 1=other.png $probes
cmp -s out effect2.txt || fail "--texture NAME=IMG was not used"

# A missing image is what ReShade makes of it: a warning naming the file,
# and the texture reads as zero (the same as a black image) while the
# effect still renders.  A file that is there but does not decode is an
# error naming it (README, "Hostile input").
printf 'float4 main(float2 uv : TEXCOORD0) : COLOR { return 0; }\n' > black.hlsl
run_cli 0 run black.hlsl -s 8x6 -o black.png
# shellcheck disable=SC2086
run_cli 0 run texture-equiv.hlsl -i input.png -t 1=black.png $probes
mv out zero.txt
rm pattern.png
# shellcheck disable=SC2086
run_cli 0 run texture.fx -i input.png $probes
grep -q "^texture.fx:5:9: warning: texture 'PatternTex': image 'pattern.png' not found; the texture reads as zero" err \
  || { cat err >&2; fail "missing image message"; }
cmp -s out zero.txt || { diff zero.txt out >&2; fail "a missing image does not read as zero"; }
echo "not a PNG" > pattern.png
# shellcheck disable=SC2086
run_cli 1 run texture.fx -i input.png $probes
grep -q "error: texture 'PatternTex': cannot decode image '.*pattern.png'" err \
  || { cat err >&2; fail "undecodable image message"; }
# Windows spellings: a name that differs in case, with backslashes.
mkdir -p Sub
cp other.png Sub/Pattern.PNG
sed 's|source = "pattern.png"|source = "sub\\\\pattern.png"|' texture.fx > cased.fx
# shellcheck disable=SC2086
run_cli 0 run cased.fx -i input.png $probes
cmp -s out effect2.txt || { cat err >&2; fail "the image was not found without regard to case"; }

# check and technique selection.
run_cli 0 check blur.fx
run_cli 0 run blur.fx --entry SeparableBlur -s 4x4 -p 0,0
run_cli 1 run blur.fx --entry Nope -s 4x4
grep -q "unknown technique 'Nope' (techniques: SeparableBlur)" err || { cat err >&2; fail "unknown technique message"; }

# A compile error in a pass points into the effect file.
printf 'float4 PS(float2 uv : TEXCOORD) : SV_Target { return nothing; }\ntechnique T { pass { PixelShader = PS; } }\n' > broken.fx
run_cli 1 check broken.fx
grep -q "^broken.fx:1:54: error: undeclared identifier 'nothing'" err || { cat err >&2; fail "error location"; }
# D3D10 state objects (blend, depth-stencil, rasteriser) and the pass
# calls that set them do not change what the pixel shader computes.
cat > state.fx <<'END'
Texture2D tex; SamplerState samp;
BlendState NoBlend { AlphaToCoverageEnable = FALSE; BlendEnable[0] = FALSE; };
DepthStencilState NoDepth { DepthEnable = FALSE; DepthWriteMask = ZERO; };
RasterizerState RS { CullMode = None; };
float4 PS(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target { return tex.Sample(samp, uv).bgra; }
technique10 T { pass P {
  SetBlendState(NoBlend, float4(0, 0, 0, 0), 0xFFFFFFFF);
  SetDepthStencilState(NoDepth, 0);
  SetRasterizerState(RS);
  SetPixelShader(CompileShader(ps_4_0, PS())); } }
END
printf 'Texture2D tex; SamplerState samp;\nfloat4 main(float2 uv : TEXCOORD) : SV_Target { return tex.Sample(samp, uv).bgra; }\n' > plain.hlsl
run_cli 0 run state.fx -i input.png $probes
mv out state.out
grep -q "pass state 'SetBlendState' is ignored" err || { cat err >&2; fail "state note"; }
run_cli 0 run plain.hlsl -i input.png $probes
cmp state.out out || fail "state objects change the result"
[ "$(wc -l < out)" -eq 48 ] || fail "expected 48 probes"

# An unknown profile in a technique is reported where it is written, in
# both the D3D9 and the D3D10 spelling, and a vertex profile for a pixel
# shader names the pass.
printf 'float4 PS(float2 uv : TEXCOORD) : SV_Target { return 1; }\ntechnique T {\n  pass P { PixelShader = compile ps_9_9 PS(); }\n  pass Q { SetPixelShader(CompileShader(px_4_0, PS())); }\n  pass R { PixelShader = compile vs_3_0 PS(); }\n}\n' > profile.fx
run_cli 1 check profile.fx
cat > expected <<'END'
profile.fx:3:34: error: unknown profile 'ps_9_9' (expected ps_2_0, ps_3_0, ps_4_0, …)
profile.fx:4:41: error: unknown profile 'px_4_0' (expected ps_2_0, ps_3_0, ps_4_0, …)
profile.fx:5:41: error: pixel shader of pass 'R' is compiled for vs_3_0
END
diff expected err >&2 || fail "profile diagnostics"
# Runtime values: --source sets what source = "mousepoint" (pixels) and
# "date" (year, month, day, seconds) give; the defaults are ReShade's
# without an input device, (0, 0), and today.
run_cli 0 run pointer.fx -s 40x30 -p 0,0 -p 39,0 --source mousepoint=12.5,34 --source date=2024,2,29,3600
printf '0 0 0.0125000002 0.0340000018 0.0399999991 1\n39 0 0.202399999 0.0199999996 0.289999992 0.0359999985\n' > expected
diff expected out >&2 || fail "--source mousepoint and date"
run_cli 0 run pointer.fx -s 40x30 -p 0,0 -p 39,0
grep -q '^0 0 0 0 0.0399999991 1$' out || { cat out >&2; fail "mousepoint default (0, 0)"; }
year=$(date +%Y)
awk -v y="$year" '$1 == 39 { d = $3 * 10000 - y; exit !(d < 0.01 && d > -0.01) }' out || { cat out >&2; fail "date default is this year"; }
run_cli 0 run animated.fx -s 2x2 -p 0,0 --source timer=2500 --source framecount=9 --source frametime=25
grep -q '^0 0 0.25 0.0900000036 0.25 1$' out || { cat out >&2; fail "--source timer, framecount, frametime"; }
run_cli 2 run pointer.fx --source mousepoint=1
grep -q "error: --source expects mousepoint=X,Y, got 'mousepoint=1'" err || { cat err >&2; fail "--source count"; }
run_cli 2 run pointer.fx --source wheel=1
grep -q "error: --source expects timer, frametime, framecount, random, mousepoint or date" err || { cat err >&2; fail "--source name"; }
run_cli 2 run pattern.hlsl --source timer=1
grep -q "error: --source applies to effect files" err || { cat err >&2; fail "--source on a shader"; }
# A pass only an untaken branch needs does not run: Runaway's first pass
# loops past the iteration cap and feeds the last pass only under
# UseDetail, so without the flag nothing warns; with it the warning
# shows the pass ran.
run_cli 0 run live-passes.fx --entry Runaway --set UseDetail=0 --set Rounds=100000000 -s 8x4 -p 3,2
[ ! -s err ] || { cat err >&2; fail "a skipped pass reported something"; }
run_cli 0 run live-passes.fx --entry Runaway --set UseDetail=1 --set Rounds=100000000 -s 8x4 -p 3,2
grep -q "warning: a loop reached the iteration cap" err || { cat err >&2; fail "the needed loop pass did not run"; }
# With the flag the probe is pass 2's half of pass 1's texture
# coordinate over a blank canvas: (0.4375, 0.625, 0.25, 1) / 2.
grep -q '^3 2 0.21875 0.3125 0.125 0.5$' out || { cat out >&2; fail "Runaway with UseDetail=1"; }
echo "effects CLI: all passed"
