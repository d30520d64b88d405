#!/bin/sh
# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer
# (meson's b_sanitize), in build-asan/.  Any sanitizer report fails the
# test that produced it: UBSan halts on the first error, ASan aborts.
# Then Valgrind memcheck over the in-process plugin tests (plain build),
# then ThreadSanitizer over the tests that render on several threads
# (build-tsan/).  Ends with each failed test and its first sanitizer
# finding, then "N passed, N failed, N skipped" for each of the ASan and
# TSan passes (the memcheck pass prints its own count before the
# summary).
# Tests that load GEGL (the gegl-shaders CLI's run command, the plugin)
# belong to suite 'cli', 'plugin', 'apply' or 'gegl' so that they run in
# pass 2.
#   tools/sanitize.sh [meson test arguments…]
# PASSES="1 2" (say) runs only those passes.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-asan}
PASSES=${PASSES:-1 2 3 4}
want () { case " $PASSES " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
if ! want 1 && ! want 2; then
  :
elif [ ! -f "$BUILD/build.ninja" ]; then
  meson setup "$BUILD" -Db_sanitize=address,undefined -Db_lundef=false \
    -Dbuildtype=debugoptimized >/dev/null
fi
if want 1 || want 2; then
  ninja -C "$BUILD" >/dev/null
fi
ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_stack_use_after_return=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS UBSAN_OPTIONS
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
# Pass 4: ThreadSanitizer, in its own build (TSan and ASan do not mix),
# over the tests that render on several threads: the module under GEGL's
# worker threads (plugin-threads: one thread against four, every filter;
# plugin-shader-run; effects-plugin-ops), the library's own band threads
# for effect passes (effects) and mip building (auto-mips), and the CLI's
# render, effect and batch threads (cli-run-basic, effects-cli,
# apply-apply), plus tsan-selftest, which proves the set-up both reports
# an unguarded race and stays quiet on GLib- and GEGL-guarded hand-offs.
# GLib's GMutex, GCond and GOnce are futexes and atomics inside an
# uninstrumented libglib, and GEGL's pool reports completion with atomics
# inside libgegl: TSan sees none of those hand-offs.  The annotation shim
# tools/tsan-glib-shim.c (preloaded) reports them to TSan as the acquires
# and releases they are; tools/tsan.supp only makes TSan ignore the libc
# calls GEGL and babl make themselves (their other accesses are invisible
# anyway).  Hosts that are not instrumented (Python, the gegl tool) get
# the TSan runtime preloaded too; shell scripts get only the shim (the
# runtime does not survive being preloaded into dash), and the CLI they
# start links the runtime itself.
TSAN_BUILD=${TSAN_BUILD:-build-tsan}
rm -f "$TSAN_BUILD/meson-logs/tsan-gegl.json" "$TSAN_BUILD/meson-logs/tsan-cli.json"
if want 4; then
  if [ ! -f "$TSAN_BUILD/build.ninja" ]; then
    meson setup "$TSAN_BUILD" -Db_sanitize=thread -Db_lundef=false \
      -Dbuildtype=debugoptimized >/dev/null
  fi
  # Only what these tests run: the whole tree would double the build.
  ninja -C "$TSAN_BUILD" plugin/gegl-shaders.so cli/gegl-shaders \
    tests/plugin/test-shader-run tests/shaderlib/test-mips \
    tests/effects/test-effects tests/cli/float-ref \
    tests/tsan/tsan-selftest >/dev/null
  shim=$(pwd)/$TSAN_BUILD/tsan-glib-shim.so
  ${CC:-cc} -shared -fPIC -O2 -fno-optimize-sibling-calls -o "$shim" \
    tools/tsan-glib-shim.c -ldl
  TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0:second_deadlock_stack=1}
  TSAN_OPTIONS="$TSAN_OPTIONS:suppressions=$(pwd)/tools/tsan.supp"
  export TSAN_OPTIONS
  LD_PRELOAD="$(${CC:-cc} -print-file-name=libtsan.so) $shim" \
  meson test -C "$TSAN_BUILD" --no-rebuild --print-errorlogs --num-processes 2 \
    --timeout-multiplier 10 --logbase tsan-gegl \
    tsan-selftest plugin-threads plugin-shader-run effects-plugin-ops \
    effects auto-mips "$@" || status=$?
  LD_PRELOAD="$shim" \
  meson test -C "$TSAN_BUILD" --no-rebuild --print-errorlogs --num-processes 2 \
    --timeout-multiplier 10 --logbase tsan-cli \
    cli-run-basic effects-cli apply-apply "$@" || status=$?
fi
echo
echo "=== sanitizer summary ==="
python3 tools/sanitize-report.py "pass 1, ASan+UBSan+LSan (no GEGL)" \
  "$BUILD/meson-logs/asan-shaderlib.json"
python3 tools/sanitize-report.py "pass 2, ASan+UBSan (GEGL, plugin)" \
  "$BUILD/meson-logs/asan-gegl.json"
python3 tools/sanitize-report.py "pass 4, TSan (threaded renders in GEGL)" \
  "$TSAN_BUILD/meson-logs/tsan-gegl.json"
python3 tools/sanitize-report.py "pass 4, TSan (CLI threads)" \
  "$TSAN_BUILD/meson-logs/tsan-cli.json"
python3 tools/count-tests.py "$BUILD/meson-logs/asan-shaderlib.json"
python3 tools/count-tests.py "$BUILD/meson-logs/asan-gegl.json"
python3 tools/count-tests.py "$TSAN_BUILD/meson-logs/tsan-gegl.json" \
  "$TSAN_BUILD/meson-logs/tsan-cli.json"
exit $status
