#!/usr/bin/env python3
"""Effect files as GEGL ops, through GObject introspection: registration
(one op per technique), parameters as properties, and results against the
same effect computed by hand (tolerance 2e-5; tiled and whole renders must
agree exactly)."""
import os
import shutil
import struct
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from gegl_modules import make_module_dir  # noqa: E402

module, sysdir, srcdir = sys.argv[1:4]
tmp = tempfile.mkdtemp(prefix="gs-fx-ops-")
mods = make_module_dir(tmp, module, sysdir)
filters = os.path.join(tmp, "filters")
os.mkdir(filters)
for name in ("blur.fx", "bloom.fx", "multi.fx", "animated.fx", "case.fx",
             "pointer.fx", "headers.fx", "texture.fx"):   # without its pattern.png: a missing texture
    shutil.copy(os.path.join(srcdir, name), filters)
with open(os.path.join(filters, "runaway.fx"), "w") as f:
    f.write('#include "ReShade.fxh"\n'
            'float4 Loop(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n'
            '{ float x = uv.x; [loop] while (x >= 0) x += 1; return x; }\n'
            'technique Runaway { pass { VertexShader = PostProcessVS; PixelShader = Loop; } }\n')
os.makedirs(os.path.join(tmp, "empty"))
os.environ.update(GEGL_PATH=mods, GEGL_SWAP="RAM", GEGL_SHADERS_PATH=filters,
                  XDG_DATA_HOME=os.path.join(tmp, "empty"),
                  XDG_DATA_DIRS=os.path.join(tmp, "empty"))

import gi  # noqa: E402
gi.require_version("Gegl", "0.4")
from gi.repository import Gegl, GLib, GObject  # noqa: E402

Gegl.init(None)
FMT = "R'G'B'A float"
W, H = 40, 30
failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what, file=sys.stderr)


def pixel_in(x, y):
    return ((x * 7 % W) / W, (y * 5 % H) / H, ((x + 2 * y) % 17) / 16.0, 1.0)


def source():
    buf = Gegl.Buffer.new(FMT, 0, 0, W, H)
    data = bytearray()
    for y in range(H):
        for x in range(W):
            data += struct.pack("4f", *pixel_in(x, y))
    buf.set(Gegl.Rectangle.new(0, 0, W, H), FMT, bytes(data))
    return buf


def run(op, props, rects):
    g = Gegl.Node()
    src = g.create_child("gegl:buffer-source")
    src.set_property("buffer", source())
    node = g.create_child(op)
    for k, v in props.items():
        node.set_property(k, v)
    src.link(node)
    out = {}
    for (x0, y0, w, h) in rects:
        dst = Gegl.Buffer.new(FMT, x0, y0, w, h)
        node.blit_buffer(dst, Gegl.Rectangle.new(x0, y0, w, h), 0, Gegl.AbyssPolicy.NONE)
        raw = dst.get(Gegl.Rectangle.new(x0, y0, w, h), 1.0, FMT, Gegl.AbyssPolicy.NONE)
        vals = struct.unpack("%df" % (w * h * 4), bytes(raw))
        for j in range(h):
            for i in range(w):
                k = (j * w + i) * 4
                out[(x0 + i, y0 + j)] = vals[k:k + 4]
    return out


def worst(got, want):
    return max(abs(a - b) for p in want for a, b in zip(got[p], want[p]))


ops = set(Gegl.list_operations())
for name in ("shader:blur", "shader:bloom", "shader:multi-Brighten", "shader:multi-Negative"):
    check(name in ops, "registered " + name)
check("shader:multi" not in ops, "no plain shader:multi for a two-technique file")
check(Gegl.Operation.get_key("shader:multi-Brighten", "title") == "Brighten", "title from ui_label")
# Only an op whose technique samples depth says that depth is flat here.
for op, reads in (("shader:headers", True), ("shader:blur", False), ("shader:texture", False)):
    desc = Gegl.Operation.get_key(op, "description") or ""
    check(("depth buffer, which is flat here" in desc) == reads,
          "%s: the description %s the flat depth: %r" % (op, "mentions" if reads else "leaves out", desc))
names = [p.name for p in Gegl.Operation.list_properties("shader:multi-Negative")]
check("gain" in names, "union of the file's parameters is on every technique: %s" % names)

# Two-pass blur, radius 2, by hand (point sampling, clamped edges).
img = {(x, y): pixel_in(x, y) for y in range(H) for x in range(W)}


def cl(x, n):
    return min(max(x, 0), n - 1)


r = 2
hp = {(x, y): tuple(sum(img[(cl(x + d, W), y)][c] for d in (-r, 0, r)) / 3 for c in range(4))
      for y in range(H) for x in range(W)}
want = {(x, y): tuple(sum(hp[(x, cl(y + d, H))][c] for d in (-r, 0, r)) / 3 for c in range(4))
        for y in range(H) for x in range(W)}
whole = run("shader:blur", {"radius": 2.0}, [(0, 0, W, H)])
check(worst(whole, want) <= 2e-5, "blur matches the hand computation (%g)" % worst(whole, want))
tiles = run("shader:blur", {"radius": 2.0}, [(0, 0, 17, 13), (17, 0, W - 17, 13), (0, 13, W, H - 13)])
check(all(tiles[p] == whole[p] for p in whole), "tiled blur equals the whole render")

# Brighten: a one-pass effect (local input region) with its default gain.
b = run("shader:multi-Brighten", {}, [(5, 5, 10, 8)])
# A ReShade back buffer is a unorm target: what exceeds 1 saturates.
check(all(abs(b[p][c] - min(img[p][c] * 2.0, 1.0)) <= 1e-6 for p in b for c in range(4)), "Brighten with gain 2")
check(any(img[p][c] * 2.0 < 1.0 for p in b for c in range(4))
      and any(img[p][c] * 2.0 > 1.0 for p in b for c in range(4)), "Brighten test covers both sides of 1")
n = run("shader:multi-Negative", {}, [(0, 0, W, H)])
check(all(abs(n[p][c] - (1 - img[p][c])) <= 1e-6 for p in n for c in range(3)), "Negative")

# Host values are properties (timer/frametime in ms, framecount), so an
# animation can be scrubbed; defaults are those of ReShade's first frame
# of effects: timer 1000 ms, 60 fps, frame 1.
names = [p.name for p in Gegl.Operation.list_properties("shader:animated")]
check({"timer", "frametime", "framecount", "gain"} <= set(names), "host-value properties: %s" % names)
check("seed" not in names, "no seed without a random uniform")
check("timer" not in [p.name for p in Gegl.Operation.list_properties("shader:blur")],
      "no timer property on an effect without one")
a = run("shader:animated", {}, [(0, 0, 4, 3)])
check(all(max(abs(x - y) for x, y in zip(a[p], (0.1, 0.01, 1000.0 / 60 / 100, 1.0))) <= 1e-6 for p in a),
      "host-value defaults: %s" % (a[(0, 0)],))
a = run("shader:animated", {"timer": 1234.5, "framecount": 7, "frametime": 20.0, "gain": 0.5},
        [(0, 0, 4, 3)])
check(all(max(abs(x - y) for x, y in zip(a[p], (0.12345, 0.07, 0.2, 0.5))) <= 1e-6 for p in a),
      "host values set as properties: %s" % (a[(0, 0)],))

# The mouse point and the date are properties only where a uniform asks
# for them: the point as GIMP's pixel-coordinate pair (axis x then y,
# adjacent, so the dialog shows one point with a picker), the date as
# four ints.
plist = list(Gegl.Operation.list_properties("shader:pointer"))
names = [p.name for p in plist]
check({"mousepoint-x", "mousepoint-y", "date-year", "date-month", "date-day", "date-seconds"}
      <= set(names), "pointer properties: %s" % names)
check("mousepoint-x" in names and names.index("mousepoint-y") == names.index("mousepoint-x") + 1,
      "mousepoint-x and -y are adjacent: %s" % names)
for axis in ("x", "y"):
    key = lambda k: Gegl.Operation.get_property_key("shader:pointer", "mousepoint-" + axis, k)
    check((key("unit"), key("axis")) == ("pixel-coordinate", axis),
          "mousepoint-%s ui-meta: %r" % (axis, (key("unit"), key("axis"))))
check({p.name: p for p in plist}["mousepoint-x"].default_value == 0.0,
      "mousepoint defaults to (0, 0), ReShade's pointer without an input device")
for op in ("shader:animated", "shader:blur"):
    other = [p.name for p in Gegl.Operation.list_properties(op)]
    check(not any(n.startswith("mousepoint") or n.startswith("date-") for n in other),
          "%s has no mousepoint or date property: %s" % (op, other))
check("timer" not in names and "seed" not in names, "pointer has no timer or seed: %s" % names)
# Left half: point / 1000 and BUFFER_WIDTH / 1000; right half: the date.
a = run("shader:pointer", {"mousepoint-x": 12.5, "mousepoint-y": 27.0, "date-year": 2024,
                           "date-month": 2, "date-day": 29, "date-seconds": 3600},
        [(0, 0, 2, 1), (38, 29, 2, 1)])
want = {(0, 0): (0.0125, 0.027, 0.04, 1.0), (1, 0): (0.0125, 0.027, 0.04, 1.0),
        (38, 29): (0.2024, 0.02, 0.29, 0.036), (39, 29): (0.2024, 0.02, 0.29, 0.036)}
check(worst(a, want) <= 1e-6, "mousepoint and date set as properties: %s" % (a,))
a = run("shader:pointer", {}, [(0, 0, 1, 1), (39, 0, 1, 1)])
check(a[(0, 0)][:2] == (0.0, 0.0), "mousepoint default (0, 0): %s" % (a[(0, 0)],))
year = GLib.DateTime.new_now_local().get_year()
check(abs(a[(39, 0)][0] * 10000 - year) < 0.01, "date defaults to this year: %s" % (a[(39, 0)],))

# Annotation names match without regard to case (UI_MIN, Ui_Max,
# UI_LABEL), as in the per-file ops.
amount = {p.name: p for p in Gegl.Operation.list_properties("shader:case")}.get("amount")
check(amount is not None and (amount.minimum, amount.maximum) == (0.25, 3.0),
      "ui_min/ui_max in any case: %s" % ((amount.minimum, amount.maximum),) if amount else "no amount")
check(Gegl.Operation.get_key("shader:case", "title") == "Case Test", "ui_label in any case")

# Every op of the module has the error property, empty while it runs.
names = [p.name for p in Gegl.Operation.list_properties("shader:blur")]
check("error" in names, "effect ops have an error property: %s" % names)
g = Gegl.Node()
src = g.create_child("gegl:buffer-source")
src.set_property("buffer", source())
node = g.create_child("shader:blur")
src.link(node)
dst = Gegl.Buffer.new(FMT, 0, 0, W, H)
node.blit_buffer(dst, Gegl.Rectangle.new(0, 0, W, H), 0, Gegl.AbyssPolicy.NONE)
check(node.get_property("error") == "", "error is empty while the effect runs: %r"
      % node.get_property("error"))

# What an open GIMP dialog sees: the error box is visible exactly while
# has-errors; a missing image texture and a run-time limit reach "error"
# through a notify from the main loop, once, never during processing.
def drain_main_loop():
    context, n = GLib.MainContext.default(), 0
    while context.iteration(False) and n < 1000:
        n += 1


check(Gegl.Operation.get_property_key("shader:blur", "error", "visible") == "has-errors"
      and Gegl.Operation.get_property_key("shader:blur", "has-errors", "visible") == "0",
      "effect ops: the error box is visible exactly while has-errors")
check(node.get_property("has-errors") is False, "a running effect has no errors")
ops = set(Gegl.list_operations())
for op, want in (("shader:texture", "texture 'PatternTex'"),
                 ("shader:runaway", "iteration cap")):
    check(op in ops, "%s registered" % op)
    if op not in ops:
        continue
    drain_main_loop()
    g = Gegl.Node()
    src = g.create_child("gegl:buffer-source")
    src.set_property("buffer", source())
    node = g.create_child(op)
    src.link(node)
    seen = []
    # GObject's connect: GEGL 0.4.62 gives Gegl.Node a connect() of its own
    # (pads to pads) that hides it.
    for prop in ("error", "has-errors"):
        GObject.Object.connect(
            node, "notify::" + prop,
            lambda n, p: seen.append((p.name, n.get_property(p.name))))
    dst = Gegl.Buffer.new(FMT, 0, 0, W, H)
    node.blit_buffer(dst, Gegl.Rectangle.new(0, 0, W, H), 0, Gegl.AbyssPolicy.NONE)
    check(seen == [], "%s: no notify from inside processing: %r" % (op, seen))
    drain_main_loop()
    shown = dict(seen)
    check(len(seen) == 2 and want in " ".join(shown.get("error", "").split())
          and shown.get("has-errors") is True,
          "%s: the error reaches the open dialog: %r" % (op, seen))
    node.blit_buffer(dst, Gegl.Rectangle.new(0, 0, W, H), 0, Gegl.AbyssPolicy.NONE)
    drain_main_loop()
    check(len(seen) == 2, "%s: an unchanged failure notifies once: %r" % (op, seen))

# A missing image file reads as zero texels and the effect renders (as in
# ReShade and the CLI), with the warning in "error"; texture.fx is
# pattern * 0.5 + input * 0.25 with alpha 1 * 0.5 + a * 0.25.
g = Gegl.Node()
src = g.create_child("gegl:buffer-source")
src.set_property("buffer", source())
node = g.create_child("shader:texture")
src.link(node)
dst = Gegl.Buffer.new(FMT, 0, 0, W, H)
node.blit_buffer(dst, Gegl.Rectangle.new(0, 0, W, H), 0, Gegl.AbyssPolicy.NONE)
raw = struct.unpack("%df" % (W * H * 4), bytes(dst.get(Gegl.Rectangle.new(0, 0, W, H), 1.0, FMT,
                                                        Gegl.AbyssPolicy.NONE)))
want = [v for y in range(H) for x in range(W)
        for v in tuple(c * 0.25 for c in pixel_in(x, y)[:3]) + (0.5 + 0.25 * pixel_in(x, y)[3],)]
err = max(abs(a - b) for a, b in zip(raw, want))
check(err <= 1e-6, "missing texture: zero texels, the effect renders (%g)" % err)
text = " ".join(node.get_property("error").split())
check("texture 'PatternTex': image 'pattern.png' not found; the texture reads as zero" in text,
      "missing texture: the warning is in error: %r" % text)

# A file that is there but does not decode stays an error: the op passes
# its input through.
with open(os.path.join(filters, "pattern.png"), "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n not really")
g = Gegl.Node()
src = g.create_child("gegl:buffer-source")
src.set_property("buffer", source())
node = g.create_child("shader:texture")
src.link(node)
dst = Gegl.Buffer.new(FMT, 0, 0, W, H)
node.blit_buffer(dst, Gegl.Rectangle.new(0, 0, W, H), 0, Gegl.AbyssPolicy.NONE)
raw = struct.unpack("%df" % (W * H * 4), bytes(dst.get(Gegl.Rectangle.new(0, 0, W, H), 1.0, FMT,
                                                        Gegl.AbyssPolicy.NONE)))
want = [v for y in range(H) for x in range(W) for v in pixel_in(x, y)]
err = max(abs(a - b) for a, b in zip(raw, want))
text = " ".join(node.get_property("error").split())
check(err <= 1e-6, "undecodable texture: the input passes through (%g)" % err)
check("texture 'PatternTex'" in text and "reads as zero" not in text,
      "undecodable texture: an error naming it: %r" % text)

shutil.rmtree(tmp, ignore_errors=True)
if failures:
    sys.exit(1)
print("effect ops: all passed")
