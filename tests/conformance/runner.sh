#!/bin/sh
# Self-tests of the .shader_test runner: exact output and exit codes.
# Usage: runner.sh RUNNER SRCDIR
#
# The shaders here only return a uniform (or are not HLSL at all), so the
# expectations hold for any correct compiler; they fail until sl_compile
# handles that much.
runner=$1
cd "$2" || exit 1
status=0

# check NAME EXPECTED-EXIT EXPECTED-OUTPUT ARGS...
check ()
{
  name=$1 want_rc=$2 want_out=$3 ok=1
  shift 3
  got_out=$("$runner" "$@" 2>&1)
  got_rc=$?
  if [ "$got_rc" != "$want_rc" ]; then
    echo "FAIL $name: exit code $got_rc, expected $want_rc"
    ok=0
  fi
  if [ "$got_out" != "$want_out" ]; then
    echo "FAIL $name: output differs"
    echo "--- expected"; echo "$want_out"
    echo "--- got"; echo "$got_out"
    ok=0
  fi
  if [ "$ok" = 1 ]; then echo "ok $name"; else status=1; fi
}

check passing-probes 0 "\
pass.shader_test: 10 passed, 0 failed, 0 skipped
10 passed, 0 failed, 0 skipped" pass.shader_test

check one-failing-probe 1 "\
fail-probe.shader_test:14: sm 3.0: probe (5, 5) expected (1, 2, 3, 4.5), got (1, 2, 3, 4)
fail-probe.shader_test: 2 passed, 1 failed, 0 skipped
2 passed, 1 failed, 0 skipped" -v --models 3.0 fail-probe.shader_test

check ulp-tolerance 1 "\
ulps.shader_test:16: sm 2.0: probe (0, 0) expected (1, 1, 0, -1), got (1.00000012, 1.00000024, -0, -1.00000012) within 1 ulps
ulps.shader_test:18: sm 2.0: probe (0, 0) expected (1), got (1.00000012)
ulps.shader_test: 4 passed, 2 failed, 0 skipped
4 passed, 2 failed, 0 skipped" -v --models 2.0 ulps.shader_test

check compile-expectations 1 "\
compile.shader_test:7: skipped (sm 2.0, 3.0): the pixel shader at line 3 is expected not to compile
compile.shader_test: 3 passed, 5 failed, 2 skipped
3 passed, 5 failed, 2 skipped" compile.shader_test

check expect-error 1 "\
expect-error.shader_test:19: sm 3.0: expected an error at column 11 containing 'undeclared identifier 'nothing'' on this line; the compiler said:
expect-error.shader_test:19:12: error: undeclared identifier 'nothing'

expect-error.shader_test:25: sm 3.0: expected an error containing 'not a number' on this line; the compiler said:
expect-error.shader_test:25:12: error: undeclared identifier 'nothing'

expect-error.shader_test:29: sm 3.0: expected an error containing 'undeclared' on this line; the compiler said:
expect-error.shader_test:31:12: error: undeclared identifier 'nothing'

expect-error.shader_test: 2 passed, 3 failed, 0 skipped
2 passed, 3 failed, 0 skipped" -v --models 3.0 expect-error.shader_test

check require-skips 0 "\
require.shader_test:2: skipped (sm 2.0, 3.0): requires shader model >= 4.0
require.shader_test:13: skipped (sm 2.0): requires float64
require.shader_test:23: skipped (sm 2.0, 3.0): compute shader sections are not supported
require.shader_test:13: skipped (sm 3.0): requires shader model < 3.0, float64
require.shader_test: 2 passed, 0 failed, 8 skipped
2 passed, 0 failed, 8 skipped" require.shader_test

check malformed-lines 1 "\
malformed.shader_test:12:28: error: malformed probe near ')'
malformed.shader_test:13:1: error: malformed uniform 'uniform x float4 1 2 3 4'
malformed.shader_test:14:1: error: bad directive condition: expected a version in condition
malformed.shader_test:16:1: error: unknown section '[bogus section]'
malformed.shader_test:19:1: error: texture has 4 values, expected 8
malformed.shader_test: 2 passed, 10 failed, 0 skipped
2 passed, 10 failed, 0 skipped" malformed.shader_test

# Totals over several files, and the pass-rate guard: 12 of 14 checks pass
# (87.5%).
check totals-and-rate 0 "\
pass.shader_test: 10 passed, 0 failed, 0 skipped
fail-probe.shader_test: 4 passed, 2 failed, 0 skipped
pass rate 87.50% (minimum 85.00%)
14 passed, 2 failed, 0 skipped" --min-pass-rate 85 pass.shader_test fail-probe.shader_test
check rate-too-low 1 "\
fail-probe.shader_test: 4 passed, 2 failed, 0 skipped
pass rate 66.67% (minimum 70.00%)
4 passed, 2 failed, 0 skipped" --min-pass-rate 70 fail-probe.shader_test

check missing-file 1 "\
no-such.shader_test:0:0: error: Failed to open file “no-such.shader_test”: No such file or directory
no-such.shader_test: 0 passed, 1 failed, 0 skipped
0 passed, 1 failed, 0 skipped" no-such.shader_test

check bad-models 2 "\
gegl-shaders test: bad --models '2.x' (expected a list such as 2.0,3.0,4.0)" --models 2.x pass.shader_test

exit $status
