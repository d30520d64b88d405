#!/bin/sh
# apply with an effect file (.fx) as the filter: each image equals what
# `run` makes of it at its own size (the effect is compiled per size, and
# more sizes than apply keeps compiled still come out right, also with
# -j), shipped effect filters are found by name, an image texture next to
# the effect is used and a missing one reads as zero with one warning, and
# a broken effect or a bad parameter stops the batch before any image; a
# loop that runs away warns once per image and the image is written; each
# image's render is held to the memory budget.
. "$(dirname "$0")/lib.sh"
FILTERS="$SRCDIR/../../filters"

i=0
for size in 24x16 9x7 16x16 5x3 31x2 12x20; do
  i=$((i + 1))
  "$CLI" run uv.hlsl --size $size -o in$i.png
done

# A shipped separable blur, by name, on six sizes at once.
run_cli 0 apply gaussian-blur std_dev=2.5 -j 2 in1.png in2.png in3.png in4.png in5.png in6.png -o out
expect_grep log "6 written, 0 skipped, 0 failed"
for k in 1 2 3 4 5 6; do
  "$CLI" run "$FILTERS/gaussian-blur.fx" -i in$k.png --set std_dev=2.5 -o ref$k.png
  same_pixels out/in$k.png ref$k.png
done
# The blur did something: a blurred gradient is not the gradient.
if "$CLI" run identity.hlsl -i in1.png -o a.pfm >/dev/null 2>&1 &&
   "$CLI" run identity.hlsl -i out/in1.png -o b.pfm >/dev/null 2>&1 &&
   cmp -s a.pfm b.pfm; then
  fail "gaussian-blur through apply left the image unchanged"
fi

# An effect of the user's, with an image texture beside it.
"$CLI" run uv.hlsl --size 4x4 -o pattern.png
cat > tint.fx <<'FX'
#include "ReShade.fxh"
uniform float Amount < ui_min = 0.0; ui_max = 1.0; > = 0.5;
texture PatternTex < source = "pattern.png"; > { Width = 4; Height = 4; };
sampler Pattern { Texture = PatternTex; };
float4 Tint(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  return lerp(tex2D(ReShade::BackBuffer, uv), tex2D(Pattern, uv.yx), Amount);
}
technique Tint { pass { VertexShader = PostProcessVS; PixelShader = Tint; } }
FX
run_cli 0 apply tint.fx Amount=0.75 in1.png in2.png -o out2
expect_grep log "2 written, 0 skipped, 0 failed"
for k in 1 2; do
  "$CLI" run tint.fx -i in$k.png --set Amount=0.75 -o tint$k.png
  same_pixels out2/in$k.png tint$k.png
done

# A texture whose file is missing reads as zero, with one warning (as
# `run` does), and the images are written.
sed 's/pattern.png/no-such-pattern.png/' tint.fx > tint-missing.fx
run_cli 0 apply tint-missing.fx Amount=1 in1.png in2.png -o out3
expect_grep log "2 written, 0 skipped, 0 failed"
[ "$(grep -c "no-such-pattern.png" errlog)" = 1 ] || fail "the missing texture was not reported once:
$(cat errlog)"
"$CLI" run tint-missing.fx -i in1.png --set Amount=1 -o zero.png 2>/dev/null
same_pixels out3/in1.png zero.png

# A broken effect: its located error, and nothing touched.
printf 'float4 Broken(float4 p : SV_Position) : SV_Target { return 1 }\ntechnique B { pass { PixelShader = Broken; } }\n' > broken.fx
run_cli 1 apply broken.fx in1.png -o out4
expect_grep errlog "broken.fx:1:"
expect_grep errlog "error:"
[ ! -e out4 ] || fail "output folder created for a broken effect"

# A parameter the effect does not have.
run_cli 1 apply tint.fx Amuont=1 in1.png -o out5
expect_grep errlog "unknown parameter 'Amuont'"
[ ! -e out5 ] || fail "output folder created for a bad parameter"
# A loop that never ends, in a shader and in an effect: one warning per
# image, the images written, exit 0, as `run` does.
printf 'float4 main(float2 uv : TEXCOORD0) : COLOR\n{\n  float x = 0;\n  [loop] while (uv.x >= 0) x += 1;\n  return x;\n}\n' > runaway.hlsl
printf '#include "ReShade.fxh"\nfloat4 R(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target\n{\n  float x = 0;\n  [loop] while (uv.x >= 0) x += 1;\n  return x;\n}\ntechnique T { pass { VertexShader = PostProcessVS; PixelShader = R; } }\n' > runaway.fx
for f in runaway.hlsl runaway.fx; do
  run_cli 0 apply $f in1.png in2.png -o out-$f --manifest m-$f.jsonl
  expect_grep log "2 written, 0 skipped, 0 failed"
  [ "$(grep -c '"status":"written".*"warning":"<render>: warning: a loop reached the iteration cap' m-$f.jsonl)" = 2 ] ||
    fail "$f: the manifest lacks the warnings:
$(cat m-$f.jsonl)"
  [ "$(grep -c "warning: in1.png: .*iteration cap of 65536" errlog)" = 1 ] &&
  [ "$(grep -c "warning: in2.png: .*iteration cap of 65536" errlog)" = 1 ] ||
    fail "$f: expected one iteration-cap warning per image:
$(cat errlog)"
  [ -f out-$f/in1.png ] && [ -f out-$f/in2.png ] || fail "$f: the images were not written"
done
# One memory budget per image's render, as for `run`.  The input and the
# result are tiled and rendered band by band, so only a band counts: a
# shader whose reads are bounded renders within 4 KiB (in1.png is 24×16,
# 6 KiB as float, so the whole input and result would take 12 KiB), and
# gives what it gives within the default budget; not even a band of two
# rows with its margin fits in 1 KiB.  One whose reads cannot be bounded
# needs its whole input, refused with its figures over the budget and
# rendered within it; so is an effect's own target; a budget that is no
# size is a usage error, from the option or the environment.
run_cli 0 apply invert.hlsl --memory-budget 4K in1.png -o budget1
run_cli 0 apply invert.hlsl in1.png -o budget1-ref
same_pixels budget1/in1.png budget1-ref/in1.png
run_cli 1 apply invert.hlsl --memory-budget 1K in1.png -o budget1b
expect_grep errlog "in1.png: rendering failed: invert.hlsl: error: a band of 2 rows and the 2 rows its reads reach around it need 3 KiB, over what the memory budget leaves, 1 KiB (--memory-budget, GEGL_SHADERS_MEMORY_BUDGET)"
cat > lookup.hlsl <<'HLSL'
sampler2D s0;
float4 main(float2 uv : TEXCOORD0) : COLOR { return tex2D(s0, tex2D(s0, uv).gr); }
HLSL
run_cli 1 apply lookup.hlsl --memory-budget 1K in1.png -o budget2
expect_grep errlog "in1.png: rendering failed: lookup.hlsl: error: the shader's reads cannot be bounded, so it needs its whole 24×16 input: 6 KiB, over what the memory budget leaves, 1 KiB (--memory-budget, GEGL_SHADERS_MEMORY_BUDGET)"
[ ! -e budget2/in1.png ] || fail "an image over the budget was written"
run_cli 0 apply lookup.hlsl --memory-budget 6K in1.png -o budget2b
"$CLI" run lookup.hlsl -i in1.png -o lookup-ref.png
same_pixels budget2b/in1.png lookup-ref.png
cat > big.fx <<'FX'
#include "ReShade.fxh"
texture Big { Width = 4096; Height = 4096; Format = RGBA32F; };
sampler sBig { Texture = Big; };
float4 Fill(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target { return float4(uv, 0, 1); }
float4 Show(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target { return tex2D(sBig, uv); }
technique T { pass { VertexShader = PostProcessVS; PixelShader = Fill; RenderTarget = Big; }
              pass { VertexShader = PostProcessVS; PixelShader = Show; } }
FX
run_cli 1 apply big.fx --memory-budget 64M in1.png -o budget3
# The render holds only the part of Big that its pixels read (all but
# the outer texels here: 24×16 pixels spread over the whole texture).
expect_grep errlog "big.fx:2:9: error: texture 'Big' (4096×4096): a 24×16 part of the image needs 231 MiB of it, which brings the render to 231 MiB, over its memory budget of 64 MiB"
[ ! -e budget3/in1.png ] || fail "an image over the budget was written"
run_cli 0 apply big.fx --memory-budget 512M in1.png -o budget4
[ -f budget4/in1.png ] || fail "big.fx within its budget was not written"
run_cli 2 apply invert.hlsl --memory-budget lots in1.png -o budget5
expect_grep errlog "--memory-budget 'lots' is not a size such as 512M or 2G"
GEGL_SHADERS_MEMORY_BUDGET=junk run_cli 2 apply invert.hlsl in1.png -o budget6
expect_grep errlog "GEGL_SHADERS_MEMORY_BUDGET='junk' is not a size such as 512M or 2G"
echo "apply effect: all checks passed"
