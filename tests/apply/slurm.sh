#!/bin/sh
# apply under a real Slurm: the test starts munged, slurmctld and slurmd on
# this machine (localhost only, state and sockets in its own folder, ports
# of its own) and stops them afterwards.  A job array of 4 shards over a
# few hundred generated images writes every output exactly as a single
# process does, and every input appears exactly once across the shards'
# manifests.  Then one task of an array is killed with SIGKILL through
# scancel while it works, re-submitted alone, and the set is complete,
# with the killed task's files identical to an uninterrupted run's.
#
# Runs as root (CI does; slurmd starts jobs as their user).  No cgroups:
# proctrack/linuxproc and task/none work in containers too.
. "$(dirname "$0")/lib.sh"
PY=${PYTHON:-python3}

if [ "$(id -u)" -ne 0 ]; then
  echo "slurm: SKIP: slurmd must run as root"
  exit 77
fi
# slurmd needs a whole system under it: a terminal layer and a cgroup
# filesystem.  A bare chroot, such as the fresh Debian root made for the
# quick start, lacks one or both; there the test says which and skips.
# CI's own machine runs it (GS_REQUIRE_SLURM=1 turns the skip into a
# failure).
if [ -z "${GS_REQUIRE_SLURM:-}" ]; then
  if ! script -qec true /dev/null >/dev/null 2>&1; then
    echo "slurm: SKIP: a bare root without /dev/pts, where slurmd cannot run"
    exit 77
  fi
  if ! mountpoint -q /sys/fs/cgroup 2>/dev/null; then
    echo "slurm: SKIP: no cgroup filesystem on /sys/fs/cgroup, which slurmd needs"
    exit 77
  fi
fi
for p in munged slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
  command -v $p >/dev/null \
    || fail "$p is missing (Debian slurm-wlm and munge; tools/quickstart.sh installs them)"
done

# The sanitizer pass preloads its runtime into every program; Slurm's
# daemons and tools are not ours to check, so they run without it.
plain () { env -u LD_PRELOAD "$@"; }

SL=$WORK/slurm
mkdir -p "$SL/munge" "$SL/state" "$SL/spool" "$SL/log"
chmod 700 "$SL/munge"
HOST=$(hostname -s)
# Ports of our own, far from the standard 6817/6818, different per run.
PORT=$((20000 + ($$ % 10000) * 2))
export SLURM_CONF="$SL/slurm.conf"

stop_cluster ()
{
  if [ -f "$SL/slurmctld.pid" ] || [ -f "$SL/slurmd.pid" ]; then
    plain scontrol shutdown >/dev/null 2>&1 || true
    for f in slurmd slurmctld; do
      pid=$(cat "$SL/$f.pid" 2>/dev/null || true)
      n=0
      while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [ $n -lt 50 ]; do
        sleep 0.2
        n=$((n + 1))
      done
      [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
    done
  fi
  if [ -S "$SL/munge/sock" ]; then
    plain munged -s -S "$SL/munge/sock" >/dev/null 2>&1 || true
  fi
}
trap 'stop_cluster; rm -rf "$WORK"' EXIT
trap 'exit 1' INT TERM

plain dd if=/dev/urandom of="$SL/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$SL/munge/munge.key"
plain munged -f --key-file="$SL/munge/munge.key" --socket="$SL/munge/sock" \
  --pid-file="$SL/munge/munged.pid" --log-file="$SL/munge/munged.log" \
  --seed-file="$SL/munge/munged.seed" \
  || fail "munged did not start: $(cat "$SL/munge/munged.log")"

cat > "$SLURM_CONF" <<EOF
ClusterName=gstest$$
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
AuthType=auth/munge
AuthInfo=socket=$SL/munge/sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$SL/state
SlurmdSpoolDir=$SL/spool
SlurmctldPidFile=$SL/slurmctld.pid
SlurmdPidFile=$SL/slurmd.pid
SlurmctldLogFile=$SL/log/slurmctld.log
SlurmdLogFile=$SL/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
MinJobAge=600
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$HOST Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
EOF
plain slurmctld -f "$SLURM_CONF" -i || fail "slurmctld did not start"
plain slurmd -f "$SLURM_CONF" || fail "slurmd did not start"
n=0
until [ "$(plain sinfo -h -o %T 2>/dev/null)" = idle ]; do
  n=$((n + 1))
  [ $n -lt 300 ] || fail "the node never became idle: $(plain sinfo 2>&1; tail -n 20 "$SL/log/slurmctld.log" "$SL/log/slurmd.log")"
  sleep 0.2
done

# wait_job ID — until no task of job ID is pending or running.
wait_job ()
{
  n=0
  while [ -n "$(plain squeue -h -j "$1" 2>/dev/null)" ]; do
    n=$((n + 1))
    [ $n -lt 3000 ] || fail "job $1 did not finish: $(plain squeue -j "$1")"
    sleep 0.2
  done
}
# task_state ID_TASK — JobState and ExitCode of one array task.
task_state ()
{
  plain scontrol show job "$1" | tr ' ' '\n' | grep -E '^(JobState|ExitCode)=' | tr '\n' ' '
}

# A few hundred small images, all different (binary PPM, made by awk).
make_frames 300 16 12 7 13
[ "$(wc -l < list.txt)" = 300 ] || fail "fixtures missing"

# The reference: one process.
run_cli 0 apply invert.hlsl strength=0.75 --list-inputs list.txt --format png -o ref
expect_grep log "300 written, 0 skipped, 0 failed"

# job.sh FILTER PARAM OUT — the array's script: each task takes its share.
cat > job.sh <<EOF
#!/bin/sh
exec "$CLI" apply "\$1" "\$2" --list-inputs "$WORK/list.txt" --format png \
  --shard auto/4 -q --manifest "$WORK/\$3-\$SLURM_ARRAY_TASK_ID.jsonl" -o "$WORK/\$3"
EOF
chmod +x job.sh

job=$(plain sbatch --parsable --array=0-3 -D "$WORK" -o "$WORK/array-%a.log" \
      job.sh invert.hlsl strength=0.75 out) || fail "sbatch failed"
job=${job%%;*}
wait_job "$job"
for k in 0 1 2 3; do
  state=$(task_state "${job}_$k")
  [ "$state" = "JobState=COMPLETED ExitCode=0:0 " ] \
    || fail "task $k: $state; log: $(cat "array-$k.log")"
  expect_grep "array-$k.log" "0 failed"
done
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
dup = [k for k, n in seen.items() if n != 1]
assert not dup, dup[:5]
sizes = [sum(1 for _ in open(n)) for n in sys.argv[2:]]
assert min(sizes) > 0, sizes
EOF
while read -r f; do
  b=$(basename "$f" .ppm).png
  cmp "out/$b" "ref/$b" || fail "out/$b (Slurm) differs from the single process"
done < list.txt
[ "$(ls out | wc -l)" = 300 ] || fail "out holds $(ls out | wc -l) files"

# SIGKILL one task of a slow array while it works, re-submit that task.
job=$(plain sbatch --parsable --array=0-3 -D "$WORK" -o "$WORK/slow-%a.log" \
      job.sh slow.hlsl rounds=30000 slow) || fail "sbatch failed"
job=${job%%;*}
share3=$(wc -l < out-3.jsonl)
n=0
until [ -f slow-3.jsonl ] && [ "$(wc -l < slow-3.jsonl)" -ge 3 ]; do
  n=$((n + 1))
  [ $n -lt 3000 ] || fail "task 3 wrote nothing: $(cat slow-3.log)"
  sleep 0.1
done
plain scancel --full --signal=KILL "${job}_3"
wait_job "$job"
done3=$(wc -l < slow-3.jsonl)
[ "$done3" -lt "$share3" ] || fail "task 3 finished before it was killed; make the filter slower"
case $(task_state "${job}_3") in
  *ExitCode=0:9*|*CANCELLED*|*FAILED*) ;;
  *) fail "task 3 was not killed: $(task_state "${job}_3")" ;;
esac
for k in 0 1 2; do
  [ "$(task_state "${job}_$k")" = "JobState=COMPLETED ExitCode=0:0 " ] \
    || fail "slow task $k: $(task_state "${job}_$k"); $(cat "slow-$k.log")"
done
# Whatever a killed task left under a final name is a whole image: one
# process decodes them all.
run_cli 0 apply identity.hlsl -q slow/*.png -o decoded
again=$(plain sbatch --parsable --array=3 -D "$WORK" -o "$WORK/slow-3-again.log" \
        job.sh slow.hlsl rounds=30000 slow) || fail "sbatch failed"
again=${again%%;*}
wait_job "$again"
[ "$(task_state "${again}_3")" = "JobState=COMPLETED ExitCode=0:0 " ] \
  || fail "the re-run of task 3: $(task_state "${again}_3"); $(cat slow-3-again.log)"
expect_grep slow-3-again.log "$((share3 - done3)) written, $done3 skipped, 0 failed"
[ "$(ls slow | wc -l)" = 300 ] || fail "slow holds $(ls slow | wc -l) files after the re-run"
no_temps slow
# Task 3's files equal an uninterrupted run of its share.
run_cli 0 apply slow.hlsl rounds=30000 --list-inputs list.txt --format png \
  --shard 3/4 -q -o slow-ref
for f in slow-ref/*.png; do
  cmp "$f" "slow/$(basename "$f")" || fail "slow/$(basename "$f") differs from an uninterrupted run"
done
[ "$(ls slow-ref | wc -l)" = "$share3" ] || fail "task 3's share changed"
echo "slurm: all checks passed"
