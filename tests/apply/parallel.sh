#!/bin/sh
# apply under GNU parallel: four shards as four jobs write every output
# exactly as a single process does, each input once across the manifests.
# Then one job of a slow run is killed with SIGKILL while it works;
# parallel's --resume-failed re-runs only that job, and the set is
# complete, the killed job's files identical to an uninterrupted run's.
. "$(dirname "$0")/lib.sh"
PY=${PYTHON:-python3}
command -v parallel >/dev/null \
  || fail "GNU parallel is missing (Debian parallel; tools/quickstart.sh installs it)"

make_frames 300 12 16 5 11
run_cli 0 apply invert.hlsl strength=0.5 --list-inputs list.txt --format png -o ref
expect_grep log "300 written, 0 skipped, 0 failed"

# shards FILTER PARAM OUT [parallel options…] — the four jobs.
shards ()
{
  filter=$1 param=$2 out=$3
  shift 3
  parallel --will-cite -j 4 "$@" \
    "'$CLI'" apply "$filter" "$param" --list-inputs list.txt --format png \
    --shard {}/4 -q --manifest "$out-{}.jsonl" -o "$out" ::: 0 1 2 3
}

shards invert.hlsl strength=0.5 out --joblog jobs.log > par.log 2>&1 \
  || fail "parallel failed: $(cat par.log jobs.log)"
"$PY" - list.txt out-0.jsonl out-1.jsonl out-2.jsonl out-3.jsonl <<'EOF'
import json, sys, collections
want = {l.strip() for l in open(sys.argv[1])}
seen = collections.Counter()
for k, name in enumerate(sys.argv[2:]):
    for line in open(name):
        r = json.loads(line)
        assert r["shard"] == "%d/4" % k and r["status"] == "written", r
        seen[r["input"]] += 1
assert set(seen) == want, sorted(set(seen) ^ want)[:5]
assert all(n == 1 for n in seen.values())
EOF
while read -r f; do
  b=$(basename "$f" .ppm).png
  cmp "out/$b" "ref/$b" || fail "out/$b (parallel) differs from the single process"
done < list.txt
[ "$(ls out | wc -l)" = 300 ] || fail "out holds $(ls out | wc -l) files"

# Kill job 3 of a slow run by the PID its manifest records.
shards slow.hlsl rounds=30000 slow --joblog slow.log > slow-par.log 2>&1 &
par=$!
share3=$(wc -l < out-3.jsonl)
n=0
until [ -f slow-3.jsonl ] && [ "$(wc -l < slow-3.jsonl)" -ge 3 ]; do
  n=$((n + 1))
  [ $n -lt 3000 ] || fail "job 3 wrote nothing: $(cat slow-par.log)"
  sleep 0.1
done
pid=$(sed -n '1s/.*"pid":\([0-9]*\).*/\1/p' slow-3.jsonl)
[ -n "$pid" ] || fail "no pid in slow-3.jsonl"
kill -9 "$pid"
status=0
wait $par || status=$?
[ $status -eq 1 ] || fail "parallel should report one failed job, not $status: $(cat slow.log)"
done3=$(wc -l < slow-3.jsonl)
[ "$done3" -lt "$share3" ] || fail "job 3 finished before it was killed; make the filter slower"
# The job log records job 3's SIGKILL (fields: Seq Host Starttime
# JobRuntime Send Receive Exitval Signal Command), as the signal or, when
# a shell ran the command, as its exit status 128 + 9.
awk -F'\t' '$9 ~ /--shard 3\/4/ { print $7, $8 }' slow.log | grep -E '^(137 0|[0-9]+ 9)$' >/dev/null \
  || fail "the job log does not show job 3 killed: $(cat slow.log)"

# --resume-failed runs job 3 again, and only job 3.
shards slow.hlsl rounds=30000 slow --joblog slow.log --resume-failed > again.log 2>&1 \
  || fail "the re-run failed: $(cat again.log)"
expect_grep again.log "$((share3 - done3)) written, $done3 skipped, 0 failed"
[ "$(grep -c 'written, ' again.log)" = 1 ] || fail "more than job 3 ran again: $(cat again.log)"
[ "$(ls slow | wc -l)" = 300 ] || fail "slow holds $(ls slow | wc -l) files after the re-run"
no_temps slow
run_cli 0 apply slow.hlsl rounds=30000 --list-inputs list.txt --format png \
  --shard 3/4 -q -o slow-ref
for f in slow-ref/*.png; do
  cmp "$f" "slow/$(basename "$f")" || fail "slow/$(basename "$f") differs from an uninterrupted run"
done
echo "parallel: all checks passed"
