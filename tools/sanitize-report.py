#!/usr/bin/env python3
"""Lists the failed tests of a meson test log, one line each, with the
first sanitizer finding in the test's output (the line a reader needs to
start fixing it), so that a sanitizer run ends with a readable summary
instead of a scroll of stack traces.

   tools/sanitize-report.py LABEL build-asan/meson-logs/asan-X.json

A failure whose output holds no sanitizer line (a plain assertion or a
wrong exit status) shows its last non-empty output line instead."""
import json
import os
import re
import sys

FINDING = re.compile(r"(ERROR: (Address|Leak|Thread|Memory)Sanitizer: .*"
                     r"|runtime error: .*"
                     r"|SUMMARY: \w+Sanitizer: .*"
                     r"|ASan runtime does not come first.*)")
LOCATION = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ in (\S+) (\S+)")


def first_finding(text):
    lines = text.splitlines()
    for n, line in enumerate(lines):
        m = FINDING.search(line)
        if not m:
            continue
        finding = line.strip()
        # The first frame in our sources says where to look.
        for frame in lines[n + 1:n + 40]:
            f = LOCATION.match(frame)
            if f and ("../" in f.group(2) or "/work/" in f.group(2)) \
                    and "libsanitizer" not in f.group(2):
                finding += f"  [{f.group(1)} {f.group(2)}]"
                break
        return finding
    tail = [l.strip() for l in lines if l.strip()]
    return tail[-1] if tail else "(no output)"


def main():
    label, path = sys.argv[1], sys.argv[2]
    failed = []
    if not os.path.exists(path):
        print(f"{label}: not run")
        return
    with open(path, encoding="utf-8") as log:
        for line in log:
            if not line.strip():
                continue
            test = json.loads(line)
            if test.get("result") in ("OK", "EXPECTEDFAIL", "SKIP"):
                continue
            text = (test.get("stdout") or "") + "\n" + (test.get("stderr") or "")
            failed.append((test["name"], test.get("result", "?"),
                           first_finding(text)))
    if not failed:
        print(f"{label}: no failures")
        return
    print(f"{label}: {len(failed)} failed")
    for name, result, finding in failed:
        print(f"  FAIL {name} ({result}): {finding}")


main()
