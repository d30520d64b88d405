#!/usr/bin/python3
"""Thread safety of the shipped filters: every filters/*.hlsl and *.asm
op rendered with one GEGL thread and large tiles, then with four threads,
16x16 tiles and an odd chunk size, must give the same float32 pixels bit
for bit.  GIMP runs an op on many GEGL worker threads at once; shared
mutable state in shaderlib or the module would show up here as a
difference or a crash.

In process through GObject introspection (one GEGL start-up for all
filters instead of one per run), so it needs a Python with python3-gi.
Usage: threads-test.py MODULE GEGL_PLUGINS_DIR FILTERS_DIR
"""

import atexit
import os
import shutil
import struct
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from gegl_modules import make_module_dir  # noqa: E402

module, sysdir, filters = sys.argv[1:4]
tmp = tempfile.mkdtemp(prefix="gs-threads-")
atexit.register(shutil.rmtree, tmp, ignore_errors=True)
mods = make_module_dir(tmp, module, sysdir)
os.makedirs(os.path.join(tmp, "data-home"))
os.makedirs(os.path.join(tmp, "data-dirs"))
os.environ.update(GEGL_PATH=mods, GEGL_SWAP="RAM",
                  GEGL_SHADERS_PATH=os.path.abspath(filters),
                  XDG_DATA_HOME=os.path.join(tmp, "data-home"),
                  XDG_DATA_DIRS=os.path.join(tmp, "data-dirs"))

import gi  # noqa: E402

gi.require_version("Gegl", "0.4")
from gi.repository import Gegl  # noqa: E402

Gegl.init(None)
config = Gegl.config()

FMT = "R'G'B'A float"
# Odd size, so tiles and chunks do not line up with spans or quads.
W, H = 157, 103
pixels = bytearray()
for y in range(H):
    for x in range(W):
        pixels += struct.pack("4f", ((x * 37 + y * 11) % 256) / 255,
                              ((x * y + 3) % 256) / 255,
                              ((x + 2 * y) % 17) / 16, 1.0 - (x % 5) / 10)
pixels = bytes(pixels)
failures = []


def check(cond, what):
    if cond:
        print("ok:", what)
    else:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def render(op, threads, tile, chunk):
    config.set_property("threads", threads)
    config.set_property("tile-width", tile)
    config.set_property("tile-height", tile)
    config.set_property("chunk-size", chunk)
    src_buf = Gegl.Buffer.new(FMT, 0, 0, W, H)
    src_buf.set(Gegl.Rectangle.new(0, 0, W, H), FMT, pixels)
    g = Gegl.Node()
    src = g.create_child("gegl:buffer-source")
    src.set_property("buffer", src_buf)
    node = g.create_child(op)
    src.link(node)
    dst = Gegl.Buffer.new(FMT, 0, 0, W, H)
    node.blit_buffer(dst, Gegl.Rectangle.new(0, 0, W, H), 0,
                     Gegl.AbyssPolicy.NONE)
    err = node.get_property("error") if node.find_property("error") else ""
    return bytes(dst.get(Gegl.Rectangle.new(0, 0, W, H), 1.0, FMT,
                         Gegl.AbyssPolicy.NONE)), err


ops = set(Gegl.list_operations())
names = sorted(os.path.splitext(n)[0] for n in os.listdir(filters)
               if n.endswith((".hlsl", ".asm")))
check(len(names) > 0, "filters found in %s" % filters)
for stem in names:
    op = "shader:" + stem
    check(op in ops, "registered " + op)
    if op not in ops:
        continue
    one, err1 = render(op, 1, 128, 1 << 20)
    many, err4 = render(op, 4, 16, 97)
    check(not err1 and not err4, "%s renders without error %r" % (op, err1 or err4))
    check(one == many, "%s: 4 threads, 16x16 tiles and odd chunks give the "
          "single-threaded pixels bit for bit" % op)
    check(one != pixels, "%s changes the image" % op)

if failures:
    print("%d failure(s)" % len(failures), file=sys.stderr)
    sys.exit(1)
