#!/bin/sh
# Runs the whole vkd3d corpus with the pass-rate floor from baseline.txt.
# Usage: corpus.sh RUNNER DIR BASELINE
runner=$1 dir=$2 baseline=$3
if [ ! -d "$dir" ]; then
  echo "conformance corpus not found at $dir (set -Dconformance-dir); skipping"
  exit 77
fi
rate=$(grep -v '^[[:space:]]*#' "$baseline" | grep -o '[0-9][0-9.]*' | head -n 1)
if [ -z "$rate" ]; then
  echo "no pass rate in $baseline" >&2
  exit 1
fi
exec "$runner" --min-pass-rate "$rate" "$dir"
