#!/bin/sh
# Coverage-guided fuzzing of one harness with libFuzzer:
#   tests/fuzz/run.sh HARNESS [SECONDS] [extra libFuzzer flags…]
# HARNESS is preprocess, hlsl, d3d9-asm, sm4-asm, d3d9-bytecode, dxbc,
# exec, effect or op.  Builds build-fuzz/ with clang (ASan + UBSan + libFuzzer) once,
# assembles a corpus in build-fuzz/corpus/HARNESS from the seeds, the
# project's shaders and the pixel shaders of the vkd3d conformance files
# (effect: the project's effect files and the small effects, under 8 KB,
# of the ReShade corpus in RESHADE_CORPUS),
# then fuzzes for SECONDS (default 60).  Crashes land in
# build-fuzz/artifacts/HARNESS/; copy each into tests/fuzz/regressions/ so
# the smoke tests replay it forever after.
set -eu
cd "$(dirname "$0")/../.."
harness=${1:?usage: tests/fuzz/run.sh HARNESS [SECONDS] [libFuzzer flags]}
seconds=${2:-60}
[ $# -ge 2 ] && shift 2 || shift $#
BUILD=${BUILD:-build-fuzz}

if [ ! -f "$BUILD/build.ninja" ]; then
  CC=clang meson setup "$BUILD" -Dfuzzing=true -Db_sanitize=address,undefined \
    -Db_lundef=false -Dbuildtype=debugoptimized >/dev/null
fi
ninja -C "$BUILD" "tests/fuzz/fuzz-$harness" tests/fuzz/generated-seeds.stamp >/dev/null

corpus="$BUILD/corpus/$harness"
if [ ! -d "$corpus" ]; then
  mkdir -p "$corpus"
  case "$harness" in
    preprocess|hlsl) dirs="preprocess hlsl" ;;
    exec) dirs="hlsl d3d9-asm sm4-asm d3d9-bytecode dxbc" ;;
    effect) dirs="effect" ;;
    op) dirs="op hlsl" ;;
    *) dirs="$harness" ;;
  esac
  for d in $dirs; do
    cp tests/fuzz/seeds/"$d"/* "$corpus"/ 2>/dev/null || true
    cp "$BUILD"/tests/fuzz/generated-seeds/"$d"/* "$corpus"/ 2>/dev/null || true
  done
  cp tests/fuzz/regressions/* "$corpus"/ 2>/dev/null || true
  case "$harness" in
    op)
      find filters tests/cli -name '*.hlsl' -exec cp {} "$corpus"/ \;
      ;;
    preprocess|hlsl|exec)
      find filters tests/cli tests/shaderlib/pp -name '*.hlsl' -exec cp {} "$corpus"/ \;
      python3 tests/fuzz/extract-shaders.py "$corpus" \
        tests/conformance/*.shader_test ../shared/conformance/vkd3d/*.shader_test \
        "${CONFORMANCE_DIR:-/work/shared/conformance/vkd3d}"/*.shader_test 2>/dev/null || true
      ;;
    effect)
      find tests/effects filters -name '*.fx' -exec cp {} "$corpus"/ \;
      # Several corpus files share a name: keep each under a numbered one.
      n=0
      find "${RESHADE_CORPUS:-../shared/corpus/reshade}" -name '*.fx' -size -8k 2>/dev/null |
        sort | while read -r f; do
          n=$((n + 1)); cp "$f" "$corpus/reshade-$n-$(basename "$f")"
        done
      ;;
  esac
fi
mkdir -p "$BUILD/artifacts/$harness"
# The op harness runs GEGL, whose caches outlive an input: LeakSanitizer
# would report them after every run (Valgrind covers the module's leaks).
leaks=
[ "$harness" = op ] && leaks=-detect_leaks=0
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# -timeout=60: a shader that runs away spends one span's loop budget
# (2^22 instructions, vm.c) or hits the 65536-iteration cap before it is
# stopped.  That costs 0.04-0.2 s of CPU in a normal build but 5-26 s with
# ASan and coverage instrumentation on every lane loop (a capped loop
# around a bilinear tex2D: 26 s, tests/fuzz/regressions/exec-capped-loop-
# bilinear-instrumented.hlsl).  Anything slower is a real hang.
exec "$BUILD/tests/fuzz/fuzz-$harness" "$corpus" \
  -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 -max_len=65536 \
  -artifact_prefix="$BUILD/artifacts/$harness/" -print_final_stats=1 $leaks "$@"
