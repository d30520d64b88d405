#!/usr/bin/env python3
"""Fuzz one harness until it has had a given amount of CPU time.

    tests/fuzz/cpu-budget.py HARNESS CPU_SECONDS [libFuzzer flags...]

run.sh limits a run by wall-clock time, which on a shared machine says
little about how much fuzzing was done.  This runs run.sh with a generous
wall-clock limit (three times the budget), reads the fuzzer's own CPU time
from /proc every few seconds, and stops it with SIGINT (libFuzzer then
prints its final statistics) once the budget is spent.  The last line
says how much CPU time the harness had and how it ended; the exit status is
the fuzzer's (non-zero when it found a crash, leak or timeout).
"""
import os
import signal
import subprocess
import sys
import time


def cpu_seconds(pid):
    """User + system time of @pid and its finished children, in seconds."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    # Fields after the command: state is [0], utime [11], stime [12],
    # cutime [13], cstime [14] (proc(5) numbers them 14-17).
    ticks = sum(int(fields[i]) for i in (11, 12, 13, 14))
    return ticks / os.sysconf("SC_CLK_TCK")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    harness, budget = sys.argv[1], float(sys.argv[2])
    here = os.path.dirname(os.path.abspath(__file__))
    cmd = [os.path.join(here, "run.sh"), harness, str(int(budget * 3) + 60)]
    proc = subprocess.Popen(cmd + sys.argv[3:])
    used, reason = 0.0, "the fuzzer stopped"
    while proc.poll() is None:
        time.sleep(5)
        # run.sh execs the fuzzer, so the child's pid is the fuzzer's.
        now = cpu_seconds(proc.pid)
        if now is not None:
            used = now
        if used >= budget:
            reason = "CPU budget reached"
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
            break
    status = proc.wait()
    if reason == "CPU budget reached" and status in (-signal.SIGINT, 72, 130):
        status = 0   # libFuzzer's exit after a requested interrupt
    print(f"cpu-budget: {harness}: {used / 60:.1f} CPU-minutes; {reason}; exit {status}")
    sys.exit(status)


if __name__ == "__main__":
    main()
