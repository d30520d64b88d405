# outputs.sh — every output of apply and run is complete or absent, is
# never written through a link, and is logged under an escaped name.
#
# A full disk is simulated two ways: a file-size limit (RLIMIT_FSIZE, set
# by prlimit or Python: writes past 64 KiB fail with EFBIG), which needs
# no privilege, and, where the test may mount (root with unshare), a
# 64 KiB tmpfs, where writes fail with ENOSPC as on a real full disk.
. "$(dirname "$0")/lib.sh"
PY=${PYTHON:-python3}

cat > noise.hlsl <<'EOF'
float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float3 h = frac (sin (float3 (dot (uv, float2 (12.9898, 78.233)),
                                dot (uv, float2 (39.35, 11.13)),
                                dot (uv, float2 (73.1, 27.7)))) * 43758.5453);
  return float4 (h, 1);
}
EOF
# Noise does not compress: every format's file is well over 64 KiB.
# (HDR is left out: GEGL's RGBE saver warns on every image it writes, so
# no .hdr output can be told written today.)
FORMATS="png ppm jpg tif pfm exr webp"
mkdir in
for f in $FORMATS; do
  "$CLI" run noise.hlsl --size 320x320 -o "in/n.$f" >/dev/null 2>&1 \
    || fail "cannot make in/n.$f"
done
for f in $FORMATS; do
  size=$(wc -c < "in/n.$f")
  [ "$size" -gt 70000 ] || fail "in/n.$f is only $size bytes"
done

# limited ARGS… — ARGS with files limited to 64 KiB.
limited ()
{
  "$PY" -c '
import os, resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536))
os.execv(sys.argv[1], sys.argv[1:])' "$@"
}

# run_limited EXPECTED ARGS… — run_cli under the file-size limit.
run_limited ()
{
  expected=$1
  shift
  status=0
  limited "$CLI" "$@" >log 2>errlog || status=$?
  [ "$status" -eq "$expected" ] || {
    cat log errlog >&2
    fail "gegl-shaders $* under a 64 KiB file limit exited with $status, expected $expected"
  }
}

# --- apply: each format, a failed write is a failed, absent output ---
for f in $FORMATS; do
  run_limited 1 apply invert.hlsl "in/n.$f" --manifest "full-$f.jsonl" -o full
  expect_grep log "0 written, 0 skipped, 1 failed"
  expect_grep errlog "gegl-shaders: error: in/n.$f: cannot write 'full/n.$f'"
  [ ! -e "full/n.$f" ] || fail "a failed $f output was left under its final name"
  no_temps full
  "$PY" - "full-$f.jsonl" "in/n.$f" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 1 and rows[0]["input"] == sys.argv[2], rows
assert rows[0]["status"] == "failed" and "cannot write" in rows[0]["error"], rows
EOF
done
[ -z "$(ls -A full)" ] || fail "full/ holds $(ls -A full)"
# The re-run with room redoes every one (none is taken as up to date), and
# each equals a run that never failed.
run_cli 0 apply invert.hlsl in/n.* -o full
expect_grep log "7 written, 0 skipped, 0 failed"
run_cli 0 apply invert.hlsl in/n.* -o ref
for f in $FORMATS; do
  cmp -s "full/n.$f" "ref/n.$f" || same_pixels "full/n.$f" "ref/n.$f"
done
# A batch goes on past a failed write: a small image still fits.
"$CLI" run uv.hlsl --size 8x8 -o in/small.jpg >/dev/null 2>&1
run_limited 1 apply invert.hlsl in/n.jpg in/small.jpg -o mixed
expect_grep log "1 written, 0 skipped, 1 failed"
[ -f mixed/small.jpg ] && [ ! -e mixed/n.jpg ] || fail "mixed/ holds $(ls -A mixed)"
no_temps mixed

# --- run -o: the same, and an earlier output of that name is removed ---
for f in png ppm jpg; do
  "$CLI" run uv.hlsl --size 8x8 -o "old.$f" >/dev/null 2>&1
  run_limited 1 run noise.hlsl --size 320x320 -o "old.$f"
  expect_grep errlog "gegl-shaders: error: cannot write 'old.$f'"
  [ ! -e "old.$f" ] || fail "run -o left old.$f after a failed write"
done
no_temps .

# --- a real full disk: a 64 KiB tmpfs in a private mount namespace ---
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
  mkdir disk
  cat > on-disk.sh <<EOF
set -eu
mount -t tmpfs -o size=64k tmpfs disk
for f in $FORMATS; do
  status=0
  "$CLI" apply invert.hlsl "in/n.\$f" -o disk/out >"disk-\$f.log" 2>"disk-\$f.err" || status=\$?
  echo "\$f \$status" >> disk-status
  ls -A disk/out >> disk-left
done
status=0
"$CLI" run noise.hlsl --size 320x320 -o disk/run.png >/dev/null 2>run.err || status=\$?
echo "run \$status" >> disk-status
ls -A disk >> disk-left
EOF
  unshare -m sh on-disk.sh || fail "the tmpfs run failed: $(cat disk-status 2>/dev/null)"
  expect_file_eq disk-status "png 1
ppm 1
jpg 1
tif 1
pfm 1
exr 1
webp 1
run 1"
  expect_file_eq disk-left "out"
  for f in $FORMATS; do
    expect_grep "disk-$f.log" "0 written, 0 skipped, 1 failed"
  done
  expect_grep disk-png.err "cannot write 'disk/out/n.png'"
  expect_grep disk-ppm.err "No space left on device"
  echo "tmpfs: full-disk checks run"
else
  echo "SKIP tmpfs part: needs root and unshare -m (the RLIMIT_FSIZE part ran)"
fi

# --- links planted in the output folder are replaced, never followed ---
mkdir links
echo precious > outside.png
ln -s ../outside.png links/n.png
ln -s ../created.ppm links/n.ppm
# Named as a temporary file of a dead run on this host: the link is
# removed, what it points to is not.
stale=".n.jpg.gs-tmp-$(hostname)-999999-r0.jpg"
cp in/n.jpg victim.jpg
ln -s ../victim.jpg "links/$stale"
run_cli 0 apply invert.hlsl in/n.png in/n.ppm -o links
expect_grep log "2 written, 0 skipped, 0 failed"
expect_file_eq outside.png precious
[ ! -e created.ppm ] || fail "apply wrote through a dangling link"
[ -f links/n.png ] && [ ! -L links/n.png ] || fail "links/n.png is still a link"
[ -f links/n.ppm ] && [ ! -L links/n.ppm ] || fail "links/n.ppm is still a link"
cmp links/n.png ref/n.png || same_pixels links/n.png ref/n.png
cmp links/n.ppm ref/n.ppm || fail "links/n.ppm differs from ref/n.ppm"
# A link under an output's name is not an up-to-date output.
rm links/n.png
ln -s "$WORK/ref/n.png" links/n.png
touch -d '+1 hour' ref/n.png
run_cli 0 apply invert.hlsl in/n.png -o links
expect_grep log "1 written, 0 skipped, 0 failed"
[ ! -L links/n.png ] || fail "a link was taken for an up-to-date output"
[ ! -e "links/$stale" ] && [ ! -L "links/$stale" ] || fail "the stale link was not removed"
cmp victim.jpg in/n.jpg || fail "removing a stale link touched what it points to"

# A folder planted as a link where --root needs a subfolder: refused, and
# nothing is written where it points.
mkdir -p tree/sub elsewhere rooted
cp in/n.png tree/sub/n.png
ln -s ../elsewhere rooted/sub
run_cli 1 apply invert.hlsl --root tree tree/sub/n.png -o rooted
expect_grep log "0 written, 0 skipped, 1 failed"
expect_grep errlog "cannot create 'rooted/sub': 'rooted/sub' is a symbolic link; outputs are never written through one"
[ -z "$(ls -A elsewhere)" ] || fail "apply wrote through a planted folder link: $(ls -A elsewhere)"
rm rooted/sub
run_cli 0 apply invert.hlsl --root tree tree/sub/n.png -o rooted
[ -f rooted/sub/n.png ] && [ ! -L rooted/sub ] || fail "--root did not make rooted/sub"

# --- names are escaped in every log line; '--' ends the options ---
printf 'junk\n' > "$(printf 'a\nFORGED: wrote x.png')"
cp in/n.png ./-o.png
cp in/n.png ./--
run_cli 1 apply invert.hlsl --format png -o names -- "$(printf 'a\nFORGED: wrote x.png')" -o.png -- in/n.png
expect_grep log "3 written, 0 skipped, 1 failed"
expect_grep log "FAILED a\\x0aFORGED: wrote x.png: "
expect_grep errlog "gegl-shaders: error: a\\x0aFORGED: wrote x.png: "
if grep -q '^FORGED' log errlog; then
  fail "a file name forged a line: $(cat log errlog)"
fi
[ -f names/-o.png ] && [ -f names/--.png ] && [ -f names/n.png ] \
  || fail "after '--', -o.png, -- and in/n.png are inputs; names/ holds $(ls -A names)"
run_cli 0 apply invert.hlsl in/n.png -o names2 --
expect_grep log "1 written, 0 skipped, 0 failed"

# --- runaway loops: an effect is reported like a single shader ---
cat > runaway.hlsl <<'EOF'
float4 main (float2 uv : TEXCOORD0) : COLOR
{
  float x = 0;
  for (int i = 0; i < 100000000; i++) { x += 0.5; if (x < -2) break; }
  return float4 (uv, 0.25, 1);
}
EOF
cat > runaway.fx <<'EOF'
float4 PS (float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
  float x = 0;
  for (int i = 0; i < 100000000; i++) { x += 0.5; if (x < -2) break; }
  return float4 (uv, 0.25, 1);
}
technique T { pass P { VertexShader = PostProcessVS; PixelShader = PS; } }
EOF
for shader in runaway.hlsl runaway.fx; do
  # 64 rows are four bands of the effect renderer, on two threads.
  run_cli 0 run "$shader" --size 64x64 -j 2 -p 0,0 -p 63,63 -o "$shader.png"
  expect_file_eq errlog "<render>: warning: a loop reached the iteration cap of 65536 and was stopped"
  expect_file_eq log "0 0 0.0078125 0.0078125 0.25 1
63 63 0.9921875 0.9921875 0.25 1"
  [ -f "$shader.png" ] || fail "run $shader wrote no image"
done
cmp runaway.hlsl.png runaway.fx.png || same_pixels runaway.hlsl.png runaway.fx.png
