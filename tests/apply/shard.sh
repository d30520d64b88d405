#!/bin/sh
# apply's scheduler interface without a scheduler: --shard takes disjoint
# shares that cover every input and do not depend on the order or the
# spelling of the list, --shard auto reads Slurm's and Kubernetes'
# variables, --list-inputs reads lists (files, stdin, NUL-separated),
# --manifest writes valid JSON lines, --root mirrors folders, --quiet is
# quiet, the progress line shows rate and ETA, --list lists filters, '--'
# ends options and odd names are shown escaped.
. "$(dirname "$0")/lib.sh"
PY=${PYTHON:-python3}
# The test sets the schedulers' variables itself.
unset JOB_COMPLETION_INDEX SLURM_ARRAY_TASK_ID

mkdir -p in/a/b in/c
i=0
while [ $i -lt 40 ]; do
  case $((i % 3)) in
    0) d=in ;;
    1) d=in/a/b ;;
    *) d=in/c ;;
  esac
  "$CLI" run uv.hlsl --size $((3 + i % 5))x4 -o $d/img$i.png
  i=$((i + 1))
done
find in -name '*.png' | sort > all.txt
[ "$(wc -l < all.txt)" = 40 ] || fail "fixtures missing"

# The reference: one process over everything.
run_cli 0 apply invert.hlsl --root in --list-inputs all.txt -o ref
expect_grep log "40 written, 0 skipped, 0 failed"
[ -f ref/a/b/img1.png ] && [ -f ref/c/img2.png ] && [ -f ref/img0.png ] \
  || fail "--root did not mirror the folders: $(find ref | head)"

# Four shards, each given the list in another order and spelling.
for k in 0 1 2 3; do
  case $k in
    0) cp all.txt list$k ;;
    1) sort -r all.txt > list$k ;;
    2) sed 's|^|./|' all.txt > list$k ;;
    3) awk '{ print NR % 7, $0 }' all.txt | sort -n | cut -d' ' -f2- > list$k ;;
  esac
  run_cli 0 apply invert.hlsl --root in --list-inputs list$k --shard $k/4 \
    --manifest manifest.jsonl -o sharded
  expect_grep log "shard $k/4: "
done
# Every input exactly once across the shards, every output as the
# single run made it.
"$PY" - manifest.jsonl all.txt <<'EOF'
import json, sys, collections
lines = open(sys.argv[1], encoding="utf-8", errors="surrogateescape").read().splitlines()
rows = [json.loads(l) for l in lines]
want = {l.strip().lstrip("./") for l in open(sys.argv[2])}
seen = collections.Counter(r["input"].lstrip("./") for r in rows)
assert set(seen) == want, sorted(set(seen) ^ want)
assert all(n == 1 for n in seen.values()), [k for k, n in seen.items() if n > 1]
assert {r["shard"] for r in rows} == {"0/4", "1/4", "2/4", "3/4"}
for r in rows:
    assert r["status"] == "written" and r["error"] is None, r
    assert isinstance(r["seconds"], float) and r["seconds"] >= 0, r
    assert r["output"].startswith("sharded/"), r
    assert isinstance(r["pid"], int) and r["host"], r
EOF
while read -r f; do
  o=sharded/${f#in/}
  cmp "$o" "ref/${f#in/}" || fail "$o differs from the single run"
done < all.txt
[ "$(find sharded -name '*.png' | wc -l)" = 40 ] || fail "extra or missing outputs"

# The share is the documented rule: SHA-256 of the output's path below
# the output folder, first 8 bytes big-endian, modulo N.
"$PY" - manifest.jsonl <<'EOF'
import hashlib, json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    key = r["output"][len("sharded/"):]
    k, n = map(int, r["shard"].split("/"))
    h = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")
    assert h % n == k, (key, h % n, k)
EOF

# A re-run of one shard skips what is there and redoes what is missing.
rm sharded/img0.png
run_cli 0 apply invert.hlsl --root in --list-inputs all.txt --shard 0/1 -o sharded
expect_grep log "1 written, 39 skipped, 0 failed"

# --shard auto/N from Kubernetes and from Slurm.
JOB_COMPLETION_INDEX=1 run_cli 0 apply invert.hlsl --root in --list-inputs all.txt \
  --shard auto/4 --manifest k8s.jsonl -o k8s
expect_grep log "shard 1/4: "
# A re-submitted task (--array=2) is an array of one; its index is
# still 2.
SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_MIN=2 SLURM_ARRAY_TASK_COUNT=1 \
  run_cli 0 apply invert.hlsl --root in \
  --list-inputs all.txt --shard auto/4 --manifest slurm.jsonl -o slurm
expect_grep log "shard 2/4: "
grep -h '"shard":"1/4"' manifest.jsonl | sed 's/"seconds":[^,]*,//; s/"pid":[0-9]*//; s/sharded/X/' | sort > a.txt
sed 's/"seconds":[^,]*,//; s/"pid":[0-9]*//; s/k8s/X/' k8s.jsonl | sort > b.txt
cmp a.txt b.txt || fail "--shard auto/4 with JOB_COMPLETION_INDEX=1 is not shard 1/4"
run_cli 2 apply invert.hlsl a.png --shard auto/3 -o x
expect_grep errlog "gegl-shaders: error: --shard auto: neither JOB_COMPLETION_INDEX nor SLURM_ARRAY_TASK_ID is set"
SLURM_ARRAY_TASK_ID=1 run_cli 2 apply invert.hlsl a.png --shard auto -o x
expect_grep errlog "gegl-shaders: error: --shard takes K/N (0 <= K < N) or auto/N, not 'auto'"
run_cli 2 apply invert.hlsl a.png --shard 4/4 -o x
expect_grep errlog "gegl-shaders: error: --shard: index 4 is not below the number of shards 4 (indices count from 0)"
run_cli 2 apply invert.hlsl a.png --shard 1 -o x
expect_grep errlog "gegl-shaders: error: --shard takes K/N (0 <= K < N) or auto/N, not '1'"
run_cli 2 apply invert.hlsl a.png --shard 0/0 -o x
expect_grep errlog "gegl-shaders: error: --shard 0/0: there must be at least one shard"
JOB_COMPLETION_INDEX=x run_cli 2 apply invert.hlsl a.png --shard auto/2 -o x
expect_grep errlog "gegl-shaders: error: JOB_COMPLETION_INDEX is 'x', not a number"
[ ! -e x ] || fail "output folder created for a usage error"

# Lists on stdin and NUL-separated; a name with a newline and one that is
# not UTF-8, shown escaped.
nl=$(printf 'odd\nname.png')
cp in/img0.png "$nl"
cp in/img0.png "$(printf 'bad\377.png')"
printf 'in/img3.png\nin/img6.png\n' | run_cli 0 apply invert.hlsl --list-inputs - -o stdin
expect_grep log "2 written, 0 skipped, 0 failed"
printf 'in/img3.png\0%s\0bad\377.png\0' "$nl" > nul.list
run_cli 0 apply invert.hlsl -0 --list-inputs nul.list --manifest nul.jsonl -o nul
expect_grep log "3 written, 0 skipped, 0 failed"
expect_grep log "wrote nul/odd\\x0aname.png"
expect_grep log "wrote nul/bad\\xff.png"
cmp "nul/$nl" ref/img0.png || fail "the name with a newline was not processed"
"$PY" - nul.jsonl <<'EOF'
import json, sys
names = {json.loads(l)["input"] for l in open(sys.argv[1], encoding="ascii")}
assert names == {"in/img3.png", "odd\nname.png", "bad\udcff.png"}, names
EOF
run_cli 1 apply invert.hlsl --list-inputs nul.list -o nul2
expect_grep errlog "holds a NUL byte; use --null for NUL-separated names"
run_cli 1 apply invert.hlsl --list-inputs missing.list -o nul3
expect_grep errlog "gegl-shaders: error: cannot read the input list 'missing.list': No such file or directory"

# '--' ends the options: a file may be called -j.png.
cp in/img0.png ./-j.png
run_cli 0 apply invert.hlsl -o dash -- -j.png
cmp dash/-j.png ref/img0.png || fail "'--' did not end the options"

# An input outside --root is refused, by shard 0 only.
run_cli 1 apply invert.hlsl --root in/a in/a/b/img1.png in/img0.png -o rooted
expect_grep errlog "in/img0.png: 'in/img0.png' is not below --root 'in/a'"
[ -f rooted/b/img1.png ] || fail "--root in/a did not write rooted/b/img1.png"
run_cli 0 apply invert.hlsl --root in/a in/img0.png --shard 1/2 -o rooted2
expect_grep log "0 written, 0 skipped, 0 failed"

# --quiet: the count and the failures only.
echo junk > junk.png
run_cli 1 apply invert.hlsl -q in/img0.png junk.png -o quiet
expect_file_eq log "1 written, 0 skipped, 1 failed"
expect_grep errlog "gegl-shaders: error: junk.png: cannot decode image 'junk.png'"

# On a terminal, a progress line with the count, the rate and the ETA.
# A root without /dev/pts (a bare chroot) has no terminal to give: that
# check is skipped there, with a note, and made everywhere else.
if script -qec true /dev/null >/dev/null 2>&1; then
  unset GS_NO_PROGRESS_BAR
  script -qec "'$CLI' apply slow.hlsl rounds=200 --list-inputs all.txt --root in -o tty" /dev/null > tty.log 2>&1 \
    || fail "apply on a terminal failed: $(cat tty.log)"
  GS_NO_PROGRESS_BAR=1
  grep -a -E '\] 40/40  [0-9.]+ images/s  ETA 0s' tty.log >/dev/null \
    || fail "no progress line with rate and ETA: $(tr '\r' '\n' < tty.log | tail -n 3)"
else
  echo "shard: note: no pseudo-terminal here; the progress-line check was not made"
fi

# --list: the filters a name can name, sorted, with their files.
run_cli 0 apply --list
expect_grep log "sepia-tone"
expect_grep log "/filters/sepia-tone.hlsl"
cut -d' ' -f1 log > names.txt
sort -c names.txt || fail "apply --list is not sorted"
echo "shard: all checks passed"
