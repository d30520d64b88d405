#!/usr/bin/env python3
"""Render tests of the shipped filters.

For one filter (a line of cases.txt) this renders the bundled sample image
through the real gegl-shaders CLI at a reduced size, at the filter's default
parameters and at one other setting, and compares both with the references
stored in tests/filters/ref/ (8-bit PNGs, small on purpose).  Then it sweeps
the annotated parameters to the ends of their UI ranges (booleans to both
values) in four renders: all at the low end, all at the high end, and the
two alternating patterns (even-numbered parameters low and odd ones high,
then the reverse), so every end of every parameter is met next to both ends
of its neighbours.  Each render is checked for NaN, infinities and alpha
outside [0,1]; a crash or non-zero exit fails too.

Reduced-size renders sample the full-size input through the shader's own
texture coordinates, so they exercise the real filter, only on fewer pixels.

    filter-test.py CLI IMGTOOL SRCDIR STEM            run the test
    filter-test.py CLI IMGTOOL SRCDIR STEM --update   rewrite its references
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

REF_SIZE = "96x64"
SWEEP_SIZE = "48x32"
DEFAULT_TOL = ("0.02", "0.002")


def read_cases(path):
    cases = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            stem, other, tol = (part.strip() for part in line.split("|"))
            cases[stem] = (shlex.split(other), tuple(tol.split()) or DEFAULT_TOL)
    return cases


def find_filter(srcdir, stem):
    folder = os.path.join(srcdir, "filters")
    for name in sorted(os.listdir(folder)):
        if os.path.splitext(name)[0] == stem:
            return os.path.join(folder, name)
    sys.exit(f"FAIL: no filter named {stem} in {folder}")


def sweep_ranges(path):
    """(name, low, high) for every annotated parameter."""
    text = open(path, encoding="utf-8").read()
    settings = []
    # Effect files (.fx) declare theirs "uniform".
    decl = re.compile(r"^\s*(?:uniform\s+)?(float[234]?|int|bool)\s+(\w+)\s*<([^>]*)>",
                      re.M)
    for m in decl.finditer(text):
        kind, name, notes = m.groups()
        if kind == "bool":
            settings.append((name, "0", "1"))
            continue
        lo = re.search(r"UIMin\s*=\s*(-?[\d.]+)", notes)
        hi = re.search(r"UIMax\s*=\s*(-?[\d.]+)", notes)
        if lo and hi:
            settings.append((name, lo.group(1), hi.group(1)))
    return settings


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("FAIL: %s\nexit %d\n%s%s" % (" ".join(cmd), proc.returncode,
                                             proc.stdout, proc.stderr))
    return proc.stdout


def main():
    cli, imgtool, srcdir, stem = sys.argv[1:5]
    update = "--update" in sys.argv[5:]
    here = os.path.join(srcdir, "tests", "filters")
    cases = read_cases(os.path.join(here, "cases.txt"))
    if stem not in cases:
        sys.exit(f"FAIL: {stem} is not listed in cases.txt")
    other, (max_diff, mean_diff) = cases[stem]
    shader = find_filter(srcdir, stem)
    sample = os.path.join(srcdir, "data", "sample.png")

    with tempfile.TemporaryDirectory(prefix="gs-filter-") as tmp:
        # "@STEM" in a --texture argument names another filter's full-size
        # render of the sample, e.g. a normal map for a lighting filter.
        resolved = []
        for arg in other:
            m = re.match(r"(\w+)=@([\w-]+)$", arg)
            if m:
                aux = os.path.join(tmp, m.group(2) + ".png")
                run([cli, "run", find_filter(srcdir, m.group(2)),
                     "--input", sample, "-o", aux])
                arg = f"{m.group(1)}={aux}"
            resolved.append(arg)

        renders = [("default", []), ("other", resolved)]
        for label, args in renders:
            out = os.path.join(tmp, f"{label}.png" if update else f"{label}.tif")
            run([cli, "run", shader, "--input", sample, "--size", REF_SIZE,
                 "-j", "1", "-o", out] + args)
            ref = os.path.join(here, "ref", f"{stem}-{label}.png")
            if update:
                os.makedirs(os.path.dirname(ref), exist_ok=True)
                os.replace(out, ref)
                print(f"wrote {ref}")
                continue
            proc = subprocess.run([imgtool, "compare", out, ref, max_diff,
                                   mean_diff], capture_output=True, text=True)
            print(f"{stem} {label}: {proc.stdout.strip()}")
            if proc.returncode != 0:
                sys.exit(f"FAIL: {stem} at {label} settings differs from {ref}"
                         f"\n{proc.stderr}")
        if update:
            return

        ranges = sweep_ranges(shader)
        patterns = [lambda i: 0, lambda i: 1, lambda i: i % 2,
                    lambda i: 1 - i % 2]
        for k, pick in enumerate(patterns if ranges else []):
            sets = [f"{name}={(lo, hi)[pick (i)]}"
                    for i, (name, lo, hi) in enumerate(ranges)]
            out = os.path.join(tmp, f"sweep-{k}.tif")
            args = [a for s in sets for a in ("--set", s)]
            run([cli, "run", shader, "--input", sample, "--size", SWEEP_SIZE,
                 "-o", out] + args)
            proc = subprocess.run([imgtool, "check", out], capture_output=True,
                                  text=True)
            if proc.returncode != 0:
                sys.exit(f"FAIL: {stem} with {' '.join(sets)}: "
                         f"{proc.stdout}{proc.stderr}")
            print(f"{stem} {' '.join(sets)}: finite, alpha in range")
        if not ranges:
            print(f"{stem}: no annotated parameters to sweep")


if __name__ == "__main__":
    main()
