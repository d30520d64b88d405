#!/usr/bin/env python3
"""The Gaussian blur's reduced-resolution paths against the exact blur.

From std_dev 6 up gaussian-blur.fx blurs at half size, from 8 up at
quarter size (see the file).  This renders the shipped filter and the
exact two-pass blur (reduced/gaussian-exact.fx, the filter as it was
before) at deviations on both sides of each switch, on the sample photo
and on a pattern made to be hard on reduced resolution (one-pixel lines
and checkerboard, alpha stripes; reduced/hard-pattern.hlsl), at an odd
size, and compares them: the README states these bounds.

    reduced-test.py CLI IMGTOOL SRCDIR
"""
import os
import subprocess
import sys
import tempfile

# (deviation, image, max difference, mean difference): at most 0.2% of
# the channel values may differ by more than the max.
CASES = [
    (5.9, "photo", "0.0001", "0.00001"),   # exact path: same pixels
    (6.0, "photo", "0.01", "0.0002"),
    (7.9, "photo", "0.01", "0.0002"),
    (8.0, "photo", "0.01", "0.0004"),
    (10.0, "photo", "0.01", "0.0004"),
    (20.0, "photo", "0.01", "0.0004"),
    (6.0, "pattern", "0.03", "0.002"),
    (8.0, "pattern", "0.03", "0.002"),
    (12.0, "pattern", "0.02", "0.002"),
]
SIZE = "641x427"


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("FAIL: %s\nexit %d\n%s%s" % (" ".join(cmd), proc.returncode,
                                             proc.stdout, proc.stderr))
    return proc.stdout


def main():
    cli, imgtool, srcdir = sys.argv[1:4]
    here = os.path.join(srcdir, "tests", "filters", "reduced")
    shipped = os.path.join(srcdir, "filters", "gaussian-blur.fx")
    exact = os.path.join(here, "gaussian-exact.fx")
    sample = os.path.join(srcdir, "data", "sample.png")
    failed = False
    with tempfile.TemporaryDirectory(prefix="gs-reduced-") as tmp:
        images = {"photo": os.path.join(tmp, "photo.tif"),
                  "pattern": os.path.join(tmp, "pattern.tif")}
        run([cli, "run", os.path.join(here, "hard-pattern.hlsl"), "--input", sample,
             "--size", SIZE, "-o", images["pattern"]])
        # The photo at the odd size: the exact blur at its smallest
        # deviation (0.01) is the resampled image itself.
        run([cli, "run", os.path.join(here, "gaussian-exact.fx"), "--input", sample,
             "--size", SIZE, "--set", "std_dev=0", "-o", images["photo"]])
        for sigma, image, max_diff, mean_diff in CASES:
            outs = []
            for name, path in (("shipped", shipped), ("exact", exact)):
                out = os.path.join(tmp, f"{name}-{image}-{sigma}.tif")
                run([cli, "run", path, "--input", images[image], "-o", out,
                     "--set", f"std_dev={sigma}"])
                outs.append(out)
            proc = subprocess.run([imgtool, "compare", outs[0], outs[1], max_diff,
                                   mean_diff], capture_output=True, text=True)
            print(f"std_dev {sigma} on the {image}: {proc.stdout.strip()}")
            if proc.returncode != 0:
                print(f"FAIL: std_dev {sigma} on the {image} is not within "
                      f"{max_diff} {mean_diff} of the exact blur\n{proc.stderr}")
                failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
