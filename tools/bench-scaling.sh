#!/bin/sh
# Whether two threads of the VM scale as far as the machine lets them:
# bench-vm's two-thread figure beside two independent one-thread bench-vm
# processes run at the same time, one per CPU.  The processes share
# nothing, so their sum is what this machine gives two workers at that
# moment (memory bandwidth, the host's other load); a two-thread figure
# well below it would point at the engine, one near it at the machine.
#   tools/bench-scaling.sh [BUILD_DIR [SHADER [ROUNDS]]]
# SL_VM_LEVEL in the environment picks the code level, as for bench-vm.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
shader=${2:-alu}
rounds=${3:-3}
bench="$build/bench/bench-vm"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Mpix/s (wall) of the VM at THREADS threads in bench-vm's output on stdin.
vm_figure () { awk -v s="$shader" -v t="$1" '$1 == s && $2 == t { print $3 }'; }
i=0
while [ "$i" -lt "$rounds" ]; do
  "$bench" bench 4096 5 "$shader" > "$tmp/in-process"
  taskset -c 0 "$bench" bench 4096 5 "$shader" > "$tmp/a" &
  taskset -c 1 "$bench" bench 4096 5 "$shader" > "$tmp/b"
  wait
  one=$(vm_figure 1 < "$tmp/in-process")
  two=$(vm_figure 2 < "$tmp/in-process")
  a=$(vm_figure 1 < "$tmp/a")
  b=$(vm_figure 1 < "$tmp/b")
  awk -v s="$shader" -v one="$one" -v two="$two" -v a="$a" -v b="$b" 'BEGIN {
    printf "%s: one thread %.1f, two threads %.1f (%.2fx); two processes %.1f + %.1f = %.1f (%.2fx)\n",
           s, one, two, two / one, a, b, a + b, (a + b) / one }'
  i=$((i + 1))
done
