#!/bin/sh
# A run killed with SIGKILL in the middle leaves only complete outputs; a
# re-run removes the dead run's temporary files, skips what is done,
# finishes the rest, and every output equals an uninterrupted run's.
. "$(dirname "$0")/lib.sh"

n=24
i=0
while [ $i -lt $n ]; do
  "$CLI" run uv.hlsl --size $((40 + i))x48 -o in$i.png
  i=$((i + 1))
done

# Leftovers of dead runs: this host's are removed, another host's (a
# shared folder) and live processes' are kept.
mkdir out
host=$(hostname)
touch "out/.in0.png.gs-tmp-$host-999999999.png"
touch "out/.in1.png.gs-tmp-other-host-1.png"
sleep 100 &
live=$!
touch "out/.in2.png.gs-tmp-$host-$live.png"

"$CLI" apply slow.hlsl rounds=3000 in*.png -o out -j 2 >run1.log 2>&1 &
pid=$!
# Wait for some, but not all, outputs.
tries=0
while :; do
  done_count=$(find out -name 'in*.png' | wc -l)
  [ "$done_count" -ge 3 ] && break
  tries=$((tries + 1))
  [ $tries -lt 600 ] || fail "no output after 60 s: $(cat run1.log)"
  sleep 0.1
done
kill -9 $pid
wait $pid 2>/dev/null || true
done_count=$(find out -name 'in*.png' | wc -l)
[ "$done_count" -lt $n ] || fail "the run finished before it was killed; make slow.hlsl slower"

# What exists under a final name is a whole image.
for f in out/in*.png; do
  "$CLI" run identity.hlsl -i "$f" -p 0,0 >/dev/null 2>&1 || fail "$f is not a complete image"
done

run_cli 0 apply slow.hlsl rounds=3000 in*.png -o out -j 2
expect_grep log "$((n - done_count)) written, $done_count skipped, 0 failed"
[ ! -e "out/.in0.png.gs-tmp-$host-999999999.png" ] || fail "dead run's temp file kept"
[ -e "out/.in1.png.gs-tmp-other-host-1.png" ] || fail "another host's temp file removed"
[ -e "out/.in2.png.gs-tmp-$host-$live.png" ] || fail "a live run's temp file removed"
kill $live
rm "out/.in1.png.gs-tmp-other-host-1.png" "out/.in2.png.gs-tmp-$host-$live.png"
no_temps out

run_cli 0 apply slow.hlsl rounds=3000 in*.png -o ref -j 2
i=0
while [ $i -lt $n ]; do
  cmp out/in$i.png ref/in$i.png || fail "out/in$i.png differs from an uninterrupted run"
  i=$((i + 1))
done
[ "$(ls out | wc -l)" -eq $n ] || fail "unexpected files in out: $(ls -a out)"
echo "kill: all checks passed"
