#!/usr/bin/env python3
"""Throughput of `gegl-shaders apply` with 1, 2 and 4 workers on this machine.

Each worker is one `apply --shard K/N` process, as the Slurm, GNU parallel
and Kubernetes recipes of the README start them, over one list of
photograph-sized JPEGs (made here: a real JPEG with an ICC profile and
EXIF, copied under many names).  For each worker count it prints the wall
time, images per second of wall time, the CPU seconds all workers used,
and images per CPU second.  On a shared machine the wall figures depend on
the load (printed next to them); the CPU figures do not, and images per
CPU second times the number of idle cores is what an idle machine reaches
while workers <= cores.  The 1-worker run is the baseline of the table.

  throughput.py CLI [IMAGES [WIDTHxHEIGHT [FILTER]]]
"""
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time


def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main():
    cli = os.path.abspath(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 48
    size = sys.argv[3] if len(sys.argv) > 3 else "1600x1200"
    flt = sys.argv[4] if len(sys.argv) > 4 else "sepia-tone"
    here = os.path.dirname(os.path.abspath(__file__))
    work = tempfile.mkdtemp(prefix="gs-throughput-")
    try:
        src = os.path.join(work, "src.jpg")
        subprocess.run([cli, "run", os.path.join(here, "uv.hlsl"),
                        "--size", size, "-o", src], check=True,
                       stdout=subprocess.DEVNULL)
        if shutil.which("exiftool"):
            subprocess.run(["exiftool", "-q", "-overwrite_original",
                            "-Make=BenchCam", "-Copyright=(c) bench",
                            "-GPSLatitude=1", "-GPSLatitudeRef=N", src],
                           check=True)
        os.mkdir(os.path.join(work, "in"))
        names = []
        for i in range(count):
            name = os.path.join(work, "in", "photo%04d.jpg" % i)
            shutil.copyfile(src, name)
            names.append(name)
        listing = os.path.join(work, "list.txt")
        with open(listing, "w") as f:
            f.write("\n".join(names) + "\n")

        print("apply throughput: %d JPEGs of %s through %s, %d CPUs"
              % (count, size, flt, os.cpu_count()))
        print("%-8s %9s %10s %9s %12s %10s" % ("workers", "wall s", "images/s",
                                               "CPU s", "images/CPU-s",
                                               "load 1min"))
        base = None
        for workers in (1, 2, 4):
            out = os.path.join(work, "out%d" % workers)
            load = os.getloadavg()[0]
            cpu0 = cpu_of_children()
            t0 = time.monotonic()
            procs = [subprocess.Popen([cli, "apply", flt, "--list-inputs",
                                       listing, "--shard", "%d/%d" % (k, workers),
                                       "-q", "-o", out],
                                      stdout=subprocess.DEVNULL)
                     for k in range(workers)]
            if any(p.wait() != 0 for p in procs):
                sys.exit("apply failed with %d workers" % workers)
            wall = time.monotonic() - t0
            cpu = cpu_of_children() - cpu0
            row = (workers, wall, count / wall, cpu, count / cpu, load)
            base = base or row
            print("%-8d %9.2f %10.2f %9.2f %12.2f %10.2f" % row)
        print("baseline 1 worker: %.2f images/s wall, %.2f images/CPU-s"
              % (base[2], base[4]))
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
