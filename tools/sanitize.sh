#!/bin/sh
# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer
# (meson's b_sanitize), in build-asan/.  Any sanitizer report fails the
# test that produced it: UBSan halts on the first error, ASan aborts.
# Then Valgrind memcheck over the in-process plugin tests (plain build).
# Ends with each failed test and its first sanitizer finding, then
# "N passed, N failed, N skipped" for each of the two ASan passes (the
# memcheck pass prints its own count before the summary).
# Tests that load GEGL (the gegl-shaders CLI's run command, the plugin)
# belong to suite 'cli', 'plugin', 'apply' or 'gegl' so that they run in
# pass 2.
#   tools/sanitize.sh [meson test arguments…]
# PASSES="1 2" (say) runs only those passes; .ci/run uses that.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-asan}
if [ ! -f "$BUILD/build.ninja" ]; then
  meson setup "$BUILD" -Db_sanitize=address,undefined -Db_lundef=false \
    -Dbuildtype=debugoptimized >/dev/null
fi
ninja -C "$BUILD" >/dev/null
ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_stack_use_after_return=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS UBSAN_OPTIONS
PASSES=${PASSES:-1 2 3}
want () { case " $PASSES " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
rm -f "$BUILD/meson-logs/asan-shaderlib.json" "$BUILD/meson-logs/asan-gegl.json"
status=0
# Pass 1, with LeakSanitizer: everything that does not load GEGL
# (shaderlib unit tests, fuzz smoke runs, the conformance runner).  GLib
# is built without frame pointers, so a leak's stack stops at g_malloc:
# re-run that test with ASAN_OPTIONS=fast_unwind_on_malloc=0 for the full
# stack (it triples the run time, hence not the default).
if want 1; then
meson test -C "$BUILD" --print-errorlogs --num-processes 2 \
  --timeout-multiplier 4 --logbase asan-shaderlib \
  --no-suite cli --no-suite plugin --no-suite apply --no-suite gegl \
  "$@" || status=$?
fi
# Pass 2, without leak checking: GEGL and babl keep process-lifetime
# allocations (and unload modules, which hides the stacks) so LSan cannot
# tell ours from theirs there; Valgrind covers the plugin instead (README).
# The uninstrumented gegl tool and python load our instrumented module, so
# the ASan runtime is preloaded.
if want 2; then
LD_PRELOAD=$(gcc -print-file-name=libasan.so) \
ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0:verify_asan_link_order=0" \
meson test -C "$BUILD" --print-errorlogs --num-processes 2 \
  --timeout-multiplier 4 --logbase asan-gegl \
  --suite cli --suite plugin --suite apply --suite gegl --no-suite corpus "$@" || status=$?
fi
# Pass 3: Valgrind memcheck over the in-process plugin tests, in the plain
# build (memcheck and ASan do not mix).  Leaks of GEGL's modules and babl
# at exit are suppressed by tools/valgrind.supp; anything else definitely
# lost, or any memory error, fails the test.
PLAIN=${PLAIN_BUILD:-build}
# meson appends the wrapper's name to the log base.
rm -f "$PLAIN/meson-logs/valgrind-valgrind.json"
if ! want 3; then
  :
elif command -v valgrind >/dev/null && [ -f "$PLAIN/build.ninja" ]; then
  ninja -C "$PLAIN" >/dev/null
  meson test -C "$PLAIN" --print-errorlogs --num-processes 2 \
    --timeout-multiplier 10 --logbase valgrind \
    --wrap="valgrind --error-exitcode=1 --leak-check=full \
--errors-for-leak-kinds=definite --show-leak-kinds=definite \
--suppressions=$(pwd)/tools/valgrind.supp --num-callers=40" \
    plugin-shader-run plugin-levels plugin-metadata || status=$?
  python3 tools/count-tests.py "$PLAIN/meson-logs/valgrind-valgrind.json"
else
  echo "valgrind or $PLAIN/ missing: memcheck pass skipped"
fi
echo
echo "=== sanitizer summary ==="
python3 tools/sanitize-report.py "pass 1, ASan+UBSan+LSan (no GEGL)" \
  "$BUILD/meson-logs/asan-shaderlib.json"
python3 tools/sanitize-report.py "pass 2, ASan+UBSan (GEGL, plugin)" \
  "$BUILD/meson-logs/asan-gegl.json"
python3 tools/count-tests.py "$BUILD/meson-logs/asan-shaderlib.json"
python3 tools/count-tests.py "$BUILD/meson-logs/asan-gegl.json"
exit $status
