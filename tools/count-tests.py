#!/usr/bin/env python3
"""Sums up meson test logs as one line: N passed, N failed, N skipped.

Usage: count-tests.py [--failed STEP] [--skipped STEP] TESTLOG.json ...

Each meson test in each log counts once (a log that does not exist counts
nothing: a pass that never ran had no tests); a test program that reports
several checks of its own (the conformance runner, GLib test binaries) is
still one entry, so the line counts exactly what meson ran.  --failed STEP
counts one failure for a step that failed before meson could log a test
(e.g. the packages of a fresh Debian root would not install); --skipped
STEP counts one skip for a step that could not be tried at all (its Debian
mirror was out of reach)."""
import json
import os
import sys

passed = failed = skipped = 0
args = sys.argv[1:]
while args[:1] in (["--failed"], ["--skipped"]) and len(args) >= 2:
    if args[0] == "--failed":
        print(f"failed before any test ran: {args[1]}", file=sys.stderr)
        failed += 1
    else:
        print(f"skipped, not tried: {args[1]}", file=sys.stderr)
        skipped += 1
    args = args[2:]
for path in args:
    if not os.path.exists(path):
        continue
    with open(path, encoding="utf-8") as log:
        for line in log:
            line = line.strip()
            if not line:
                continue
            result = json.loads(line).get("result", "")
            if result in ("OK", "EXPECTEDFAIL"):
                passed += 1
            elif result == "SKIP":
                skipped += 1
            else:
                failed += 1
print(f"{passed} passed, {failed} failed, {skipped} skipped")
