# lib.sh — shared helpers for the CLI tests, sourced by each test script.
#
# Every test runs the real gegl-shaders binary in a private temporary
# directory and compares exact text: probe lines, diagnostics, exit codes.
# A failed expectation prints what was expected and what came out, then
# exits non-zero so meson reports the test as failed.

LC_ALL=C
export LC_ALL
CLI=$1
FLOAT_REF=${2:-}
case $CLI in /*) ;; *) CLI=$(pwd)/$CLI ;; esac
case $FLOAT_REF in ''|/*) ;; *) FLOAT_REF=$(pwd)/$FLOAT_REF ;; esac
SRCDIR=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gs-cli-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
cd "$WORK"
cp "$SRCDIR"/*.hlsl .

fail ()
{
  echo "FAIL: $*" >&2
  exit 1
}

# run_cli EXPECTED_STATUS ARGS... — runs the CLI with stdout in ./out and
# stderr in ./err and checks its exit status.
run_cli ()
{
  expected=$1
  shift
  status=0
  "$CLI" "$@" >out 2>err || status=$?
  if [ "$status" -ne "$expected" ]; then
    echo "--- stdout:" >&2; cat out >&2
    echo "--- stderr:" >&2; cat err >&2
    fail "gegl-shaders $* exited with $status, expected $expected"
  fi
}

# expect_file_eq FILE EXPECTED_TEXT
expect_file_eq ()
{
  actual=$(cat "$1")
  if [ "$actual" != "$2" ]; then
    fail "$1 is:
$actual
expected:
$2"
  fi
}

# expect_grep FILE FIXED_STRING
expect_grep ()
{
  grep -F -e "$2" "$1" >/dev/null || fail "$1 lacks '$2'; it holds:
$(cat "$1")"
}

# expect_close ACTUAL EXPECTED TOLERANCE
expect_close ()
{
  awk -v a="$1" -v e="$2" -v t="$3" \
    'BEGIN { d = a - e; if (d < 0) d = -d; exit !(d <= t) }' \
    || fail "value $1 is not within $3 of $2"
}

# octal BYTE... — the printf escape string for the given byte values.
octal ()
{
  for b in "$@"; do printf '\\%03o' "$b"; done
}

# make_ppm FILE WIDTH HEIGHT BYTE... — a binary 8-bit PPM (P6).
make_ppm ()
{
  file=$1 w=$2 h=$3
  shift 3
  printf 'P6\n%d %d\n255\n' "$w" "$h" >"$file"
  # shellcheck disable=SC2059
  printf "$(octal "$@")" >>"$file"
  [ "$(wc -c <"$file")" -eq $(( ${#w} + ${#h} + 9 + w * h * 3 )) ] \
    || fail "make_ppm wrote a malformed $file"
}
