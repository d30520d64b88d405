#!/bin/sh
# A non-terminating HLSL loop is stopped at the documented iteration cap
# and reported as a diagnostic (not hung on): exit status 1 and the
# W-LOOP warning naming the cap.
tool=$1 shader=$2
out=$("$tool" run "$shader" -s 4x2 -p 0,0 2>&1)
rc=$?
if [ $rc -ne 1 ]; then
  echo "FAIL: expected exit status 1, got $rc: $out"; exit 1
fi
case $out in
  *"warning: a loop reached the iteration cap of 65536 and was stopped"*) echo "ok: $out" ;;
  *) echo "FAIL: no loop-cap warning in: $out"; exit 1 ;;
esac
