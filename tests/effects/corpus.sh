#!/bin/sh
# The ReShade corpus: every effect of ../shared/corpus/reshade rendered as a
# user would run it — first technique, default uniforms — over a small
# image (37x23, smaller than many of their intermediate targets) and a
# large one (the 640x426 sample photograph), held against
# corpus-baseline.txt: each effect listed there must render, and the share
# that renders must reach its floor.  An effect renders when, at both
# sizes, the CLI exits 0, writes the image, and the image holds no NaN or
# infinity and no alpha outside [0, 1] (image-check).  Includes and
# textures are searched as ReShade searches them for a repository: the
# effect's folder, the repository's Shaders folder, its Textures folders,
# then the standard headers of crosire/reshade-shaders.
#
# Usage: corpus.sh CLI IMAGE-CHECK CORPUS-DIR BASELINE SAMPLE-IMAGE
# Skips (77) when the corpus is absent.  Prints one line per effect, then
# the figure; KEEP=DIR keeps the images and logs there; JOBS=N runs N
# effects at a time (default: the number of processors).
set -u
LC_ALL=C
export LC_ALL
if [ "${1:-}" = "--one" ]; then
  # One effect (internal): --one CLI CHECK CORPUS WORK SAMPLE REPO PATH
  CLI=$2 CHECK=$3 CORPUS=$4 WORK=$5 SAMPLE=$6 repo=$7 path=$8
  d=$CORPUS/$(echo "$repo" | tr / +)
  name=$(echo "$repo/$path" | tr / _)
  set -- -I "$d/Shaders"
  for t in $(find "$d/Textures" -type d 2>/dev/null | sort); do set -- "$@" -I "$t"; done
  set -- "$@" -I "$CORPUS/crosire+reshade-shaders/Shaders"
  TO=""
  command -v timeout >/dev/null 2>&1 && TO="timeout 300"
  why=""
  for input in "$WORK/in-small.png" "$SAMPLE"; do
    size=$(basename "$input" .png)
    out=$WORK/$name-$size.tif
    status=0
    $TO "$CLI" run "$d/$path" "$@" -i "$input" -o "$out" > "$WORK/$name-$size.log" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
      why="$size: exit $status: $(grep -m 1 'error' "$WORK/$name-$size.log" || tail -n 1 "$WORK/$name-$size.log")"
      break
    fi
    if ! verdict=$("$CHECK" "$out"); then
      why="$size: $verdict"
      break
    fi
    [ -n "${KEEP:-}" ] || rm -f "$out"
  done
  if [ -z "$why" ]; then
    echo "ok   $repo/$path"
  else
    echo "FAIL $repo/$path ($why)"
  fi
  exit 0
fi

CLI=$1 CHECK=$2 CORPUS=$3 BASELINE=$4 SAMPLE=$5
if [ ! -f "$CORPUS/MANIFEST.tsv" ]; then
  echo "ReShade corpus not found at $CORPUS; skipping"
  exit 77
fi
floor=$(sed -n 's/^floor[[:space:]]*//p' "$BASELINE" | head -n 1)
[ -n "$floor" ] || { echo "no 'floor N' line in $BASELINE" >&2; exit 1; }

if [ -n "${KEEP:-}" ]; then
  WORK=$KEEP
  mkdir -p "$WORK"
else
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/gs-fx-corpus.XXXXXX")
  trap 'rm -rf "$WORK"' EXIT INT TERM
fi

SRCDIR=$(cd "$(dirname "$0")" && pwd)
"$CLI" run "$SRCDIR/resample.hlsl" -s 37x23 -t 0="$SAMPLE" -o "$WORK/in-small.png" \
  > "$WORK/in-small.log" 2>&1 || { cat "$WORK/in-small.log" >&2; echo "cannot make the small input" >&2; exit 1; }

awk -F'\t' '$6 == "effect" { print $1 "\t" $3 }' "$CORPUS/MANIFEST.tsv" > "$WORK/effects.tsv"
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
tr '\t' '\n' < "$WORK/effects.tsv" \
  | xargs -n 2 -P "$jobs" sh "$0" --one "$CLI" "$CHECK" "$CORPUS" "$WORK" "$SAMPLE" \
  | sort -k 2 > "$WORK/results.txt"
cat "$WORK/results.txt"

total=$(wc -l < "$WORK/effects.tsv")
passed=$(grep -c '^ok ' "$WORK/results.txt")
[ "$total" -gt 0 ] || { echo "no effects in $CORPUS/MANIFEST.tsv" >&2; exit 1; }
status=0
# Every effect the baseline pins must still render; one that renders and
# is not pinned is worth adding.
for e in $(sed -n 's/^render[[:space:]]*//p' "$BASELINE"); do
  grep -qx "ok   $e" "$WORK/results.txt" || { echo "REGRESSION: $e no longer renders" >&2; status=1; }
done
for e in $(sed -n 's/^ok   //p' "$WORK/results.txt"); do
  grep -qx "render[[:space:]]*$e" "$BASELINE" || echo "note: $e renders but is not in the baseline"
done
rate=$(awk -v p="$passed" -v t="$total" 'BEGIN { printf "%.1f", 100 * p / t }')
echo "$passed of $total effects render ($rate%); the floor is $floor%"
awk -v r="$rate" -v f="$floor" 'BEGIN { exit !(r + 0 >= f + 0) }' || { echo "FAIL: below the floor" >&2; status=1; }
exit $status
