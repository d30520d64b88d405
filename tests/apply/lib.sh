# lib.sh — helpers for the apply tests: a private work folder, exact
# expectations, fixture images made with the CLI itself.
set -eu
LC_ALL=C
export LC_ALL
GS_NO_PROGRESS_BAR=1
export GS_NO_PROGRESS_BAR
CLI=$1
case $CLI in /*) ;; *) CLI=$(pwd)/$CLI ;; esac
SRCDIR=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gs-apply-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
cd "$WORK"
cp "$SRCDIR"/*.hlsl .

fail ()
{
  echo "FAIL: $*" >&2
  exit 1
}

# run_cli EXPECTED_STATUS ARGS… — stdout in ./log, stderr in ./errlog
run_cli ()
{
  expected=$1
  shift
  status=0
  "$CLI" "$@" >log 2>errlog || status=$?
  if [ "$status" -ne "$expected" ]; then
    echo "--- stdout:" >&2; cat log >&2
    echo "--- stderr:" >&2; cat errlog >&2
    fail "gegl-shaders $* exited with $status, expected $expected"
  fi
}

expect_grep ()
{
  grep -F -e "$2" "$1" >/dev/null || fail "$1 lacks '$2'; it holds:
$(cat "$1")"
}

expect_file_eq ()
{
  actual=$(cat "$1")
  [ "$actual" = "$2" ] || fail "$1 is:
$actual
expected:
$2"
}

# same_pixels A B — both images decode to the same float pixels.
same_pixels ()
{
  "$CLI" run identity.hlsl -i "$1" -o "$WORK/.a.pfm" >/dev/null 2>&1 \
    || fail "cannot decode $1"
  "$CLI" run identity.hlsl -i "$2" -o "$WORK/.b.pfm" >/dev/null 2>&1 \
    || fail "cannot decode $2"
  cmp -s "$WORK/.a.pfm" "$WORK/.b.pfm" || fail "$1 and $2 differ"
}

# no_temps DIR — no temporary output file is left in DIR.
no_temps ()
{
  left=$(find "$1" -name '*.gs-tmp-*' | head -n 5)
  [ -z "$left" ] || fail "temporary files left behind: $left"
}

# make_frames N W H A B: N different binary PPMs of W×H in imgs/
# (imgs/frame0000.ppm …), byte i of frame k being (i*A + k*B) mod 256,
# and their names in list.txt.
make_frames ()
{
  mkdir -p imgs
  awk -v n="$1" -v w="$2" -v h="$3" -v a="$4" -v b="$5" 'BEGIN {
    for (k = 0; k < n; k++) {
      f = sprintf("imgs/frame%04d.ppm", k)
      printf "P6\n%d %d\n255\n", w, h > f
      for (i = 0; i < w * h * 3; i++) printf "%c", (i * a + k * b) % 256 > f
      close(f)
    }
  }'
  ls imgs/*.ppm > list.txt
}
