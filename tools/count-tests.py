#!/usr/bin/env python3
"""Sums up a meson test log as one line: N passed, N failed, N skipped.

Each meson test counts once; a test program that reports several checks of
its own (the conformance runner, GLib test binaries) is still one entry
here, so the line counts exactly what meson ran."""
import json
import sys

passed = failed = skipped = 0
with open(sys.argv[1], encoding="utf-8") as log:
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
