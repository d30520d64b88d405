#!/bin/sh
# A non-terminating HLSL loop is stopped at the documented iteration cap
# and reported as a diagnostic (not hung on): the W-VM-LOOP warning naming
# the cap, once, and the pixels still written (x = 65536 iterations, so
# red is 1), exit status 0 as for any warning.
tool=$1 shader=$2
out=$("$tool" run "$shader" -s 4x2 -p 0,0 2>/dev/null)
rc=$?
err=$("$tool" run "$shader" -s 4x2 -p 0,0 2>&1 >/dev/null)
if [ $rc -ne 0 ]; then
  echo "FAIL: expected exit status 0, got $rc: $err"; exit 1
fi
if [ "$err" != "<render>: warning: a loop reached the iteration cap of 65536 and was stopped" ]; then
  echo "FAIL: expected the loop-cap warning once, got: $err"; exit 1
fi
if [ "$out" != "0 0 1 0 0 1" ]; then
  echo "FAIL: expected the probe '0 0 1 0 0 1', got: $out"; exit 1
fi
echo "ok: $err; $out"
