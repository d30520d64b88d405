#!/usr/bin/env python3
"""Writes the shader-assembly listings embedded as C string literals in test
sources into fuzz seed folders: usage OUTDIR SOURCE.c...

A listing is a run of adjacent string literals whose text starts with a
ps_X_Y version line; D3D9 (ps_1_x..ps_3_0) and SM4/5 (ps_4_0, ps_4_1,
ps_5_0) listings go to OUTDIR/d3d9-asm and OUTDIR/sm4-asm.  Duplicates are
written once, named by a hash of their text so reruns are stable."""
import hashlib
import os
import re
import sys

LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "0": "\0", "r": "\r"}


def unescape(s):
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(1)), s)


def runs(text):
    """Yields the concatenation of each run of literals separated only by
    whitespace (and comments-free C, which the tests are)."""
    pos = 0
    current = None
    end = 0
    for m in LITERAL.finditer(text):
        if current is not None and text[end:m.start()].strip() == "":
            current += unescape(m.group(1))
        else:
            if current is not None:
                yield current
            current = unescape(m.group(1))
        end = m.end()
    if current is not None:
        yield current


def main():
    out = sys.argv[1]
    counts = {"d3d9-asm": 0, "sm4-asm": 0}
    for path in sys.argv[2:]:
        text = open(path, encoding="utf-8", errors="replace").read()
        for listing in runs(text):
            m = re.match(r"\s*ps_(\d)_(\w+)", listing)
            if not m or "\n" not in listing:
                continue
            kind = "sm4-asm" if int(m.group(1)) >= 4 else "d3d9-asm"
            folder = os.path.join(out, kind)
            os.makedirs(folder, exist_ok=True)
            digest = hashlib.sha1(listing.encode()).hexdigest()[:12]
            name = os.path.join(folder, "%s-%s.asm" % (os.path.basename(path).split(".")[0], digest))
            if not os.path.exists(name):
                with open(name, "w") as f:
                    f.write(listing)
                counts[kind] += 1
    for kind, n in counts.items():
        print("%s: %d listings" % (kind, n), file=sys.stderr)


main()
