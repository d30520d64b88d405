#!/usr/bin/python3
"""Tests of the per-file shader ops (shader:<stem>), in process through
GObject introspection and through the real `gegl` tool.

The filter folder tests/plugin/filters holds one shader per feature,
including broken.hlsl, which does not compile, sitting beside the good
ones.  GEGL_PATH points at a temporary folder with the built module and
GEGL's own modules; XDG_DATA_HOME and XDG_DATA_DIRS point into the
temporary folder too, so nothing installed on the machine leaks in.

Must run under a Python with python3-gi (the system /usr/bin/python3).
Usage: ops-test.py GEGL_BINARY MODULE GEGL_PLUGINS_DIR FILTERS_DIR SRC_DIR
"""

import atexit
import os
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from gegl_modules import make_module_dir  # noqa: E402

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)
    else:
        print("ok:", what)


def enum_values(enum_class):
    """(value, nick) of each value of a GParamSpecEnum's enum_class.
    PyGObject 3.42 (Debian 12) gives a Python class with __enum_values__;
    3.50 (Debian 13) gives the C GEnumClass, read with g_enum_get_value()."""
    values = getattr(enum_class, "__enum_values__", None)
    if values is not None:
        return sorted((int(v), v.value_nick) for v in values.values())
    found = (GObject.enum_get_value(enum_class, i)
             for i in range(enum_class.minimum, enum_class.maximum + 1))
    return sorted((v.value, v.value_nick) for v in found if v is not None)


def close(a, b, tol=1e-5):
    return all(abs(x - y) <= tol for x, y in zip(a, b)) and len(a) == len(b)


gegl_bin, module, sysdir, filters, srcdir = sys.argv[1:6]
tmp = tempfile.mkdtemp(prefix="gs-ops-")
atexit.register(shutil.rmtree, tmp, ignore_errors=True)
mods = make_module_dir(tmp, module, sysdir)

# A user filter folder (XDG_DATA_HOME) with its own shader and one whose
# stem is also in GEGL_SHADERS_PATH: the GEGL_SHADERS_PATH one must win.
user_filters = os.path.join(tmp, "data-home", "gegl-shaders", "filters")
os.makedirs(user_filters)
with open(os.path.join(user_filters, "user-invert.hlsl"), "w") as f:
    f.write("// title: User Invert\nsampler2D s0;\n"
            "float4 main (float2 uv : TEXCOORD0) : COLOR"
            " { float4 c = tex2D (s0, uv); return float4 (1 - c.rgb, c.a); }\n")
with open(os.path.join(user_filters, "pragma.hlsl"), "w") as f:
    f.write("// title: Shadowed\nsampler2D s0;\n"
            "float4 main (float2 uv : TEXCOORD0) : COLOR { return 0; }\n")
os.makedirs(os.path.join(tmp, "data-dirs"))

os.environ.update(GEGL_PATH=mods, GEGL_SWAP="RAM",
                  GEGL_SHADERS_PATH=os.path.abspath(filters),
                  XDG_DATA_HOME=os.path.join(tmp, "data-home"),
                  XDG_DATA_DIRS=os.path.join(tmp, "data-dirs"))

import gi  # noqa: E402

gi.require_version("Gegl", "0.4")
from gi.repository import Gegl, GLib, GObject  # noqa: E402

Gegl.init(None)

FMT = "R'G'B'A float"
W, H = 48, 40


def pixel_in(x, y):
    return ((x * 7 % W) / W, (y * 5 % H) / H, ((x + 2 * y) % 17) / 16.0, 1.0)


def make_buffer(fn=pixel_in, w=W, h=H, x0=0, y0=0):
    buf = Gegl.Buffer.new(FMT, x0, y0, w, h)
    data = bytearray()
    for y in range(h):
        for x in range(w):
            data += struct.pack("4f", *fn(x, y))
    buf.set(Gegl.Rectangle.new(x0, y0, w, h), FMT, bytes(data))
    return buf


def render(node, w=W, h=H, level=0, x0=0, y0=0):
    dst = Gegl.Buffer.new(FMT, x0, y0, w, h)
    node.blit_buffer(dst, Gegl.Rectangle.new(x0, y0, w, h), level,
                     Gegl.AbyssPolicy.NONE)
    scale = 1.0 / (1 << level)
    rw, rh = int(w * scale), int(h * scale)
    raw = dst.get(Gegl.Rectangle.new(0, 0, rw, rh), scale, FMT,
                  Gegl.AbyssPolicy.NONE)
    vals = struct.unpack("%df" % (rw * rh * 4), bytes(raw))
    return [vals[i:i + 4] for i in range(0, len(vals), 4)]


def graph(op, props=None, buf=None):
    g = Gegl.Node()
    src = g.create_child("gegl:buffer-source")
    src.set_property("buffer", buf or make_buffer())
    node = g.create_child(op)
    for k, v in (props or {}).items():
        node.set_property(k, v)
    src.link(node)
    return g, node


# ---------------------------------------------------------------- ops ----
ops = set(Gegl.list_operations())
for name in ("shader:tint", "shader:shift", "shader:swirl", "shader:mix2",
             "shader:broken", "shader:pragma", "shader:reshade",
             "shader:seeded", "shader:user-invert", "shader:run",
             "shader:lut", "shader:grade"):
    check(name in ops, "registered " + name)

check(Gegl.Operation.get_key("shader:tint", "title") == "Tint Test",
      "title from the header block")
check(Gegl.Operation.get_key("shader:tint", "description")
      == "Exercises every parameter dialect.", "description key")
check(Gegl.Operation.get_key("shader:tint", "gimp:menu-path")
      == "<Image>/Filters/Shaders/Test", "menu path from the header")
check(Gegl.Operation.get_key("shader:tint", "gimp:menu-label")
      == "Tint _Test...", "menu label from the header")
check(Gegl.Operation.get_key("shader:tint", "categories") == "color",
      "GIMP's hidden category dropped")
check(Gegl.Operation.get_key("shader:tint", "shader-license") == "MIT"
      and Gegl.Operation.get_key("shader:tint", "license") is None,
      "licence from the header; GEGL's gate key only for GPL")
check(Gegl.Operation.get_key("shader:shift", "gimp:menu-path")
      == "<Image>/Filters/Shaders", "default menu path")
check(Gegl.Operation.get_key("shader:shift", "gimp:menu-label")
      == "Shift...", "default menu label")
check(Gegl.Operation.get_key("shader:pragma", "title") == "Pragma Parameters",
      "GEGL_SHADERS_PATH hides a same-stem user filter")

# ---------------------------------------------------------- properties ----
specs = {p.name: p for p in Gegl.Operation.list_properties("shader:tint")}
check(sorted(specs) == sorted(["error", "has-errors", "linear", "amount",
                               "tint-color", "mode", "invert", "center-x",
                               "center-y", "gain"]),
      "tint properties: %s" % sorted(specs))
a = specs.get("amount")
check(a is not None and a.value_type == GObject.TYPE_DOUBLE
      and (a.minimum, a.maximum, a.default_value) == (0.0, 2.0, 0.5)
      and a.blurb == "Strength of the tint.",
      "WPF doc comment: range, default, summary")
gn = specs.get("gain")
check(gn is not None and (gn.minimum, gn.maximum, gn.default_value)
      == (0.5, 4.0, 1.0) and gn.nick == "Gain",
      "FX Composer UIName/UIMin/UIMax/UIStep")
m = specs.get("mode")
check(m is not None and m.value_type.is_a(GObject.TYPE_ENUM)
      and m.nick == "Mode" and m.blurb == "How much to apply",
      "ReShade ui_items → enum with ui_label/ui_tooltip")
if m is not None:
    check(enum_values(m.enum_class)
          == [(0, "off"), (1, "half"), (2, "full")]
          and m.default_value == 2, "enum values and default")
iv = specs.get("invert")
check(iv is not None and iv.value_type == GObject.TYPE_BOOLEAN
      and iv.default_value is False, "bool → boolean")
tc = specs.get("tint-color")
check(tc is not None and tc.value_type.name == "GeglColor"
      and tc.nick == "Tint", "UIWidget Color → GeglColor")
cx = specs.get("center-x")
check(cx is not None and cx.value_type == GObject.TYPE_DOUBLE
      and cx.default_value == 0.25 and specs["center-y"].default_value == 0.75
      and Gegl.Operation.get_property_key("shader:tint", "center-x", "axis")
      == "x", "float2 → two doubles with defaults and axis")
check(Gegl.Operation.get_property_key("shader:tint", "center-y", "unit")
      == "relative-coordinate"
      and Gegl.Operation.get_property_key("shader:tint", "center-y", "axis")
      == "y", "float2 position: unit and axis keys")
check(Gegl.Operation.get_property_key("shader:tint", "error", "error")
      == "true", "error property marked for GIMP")
ps = {p.name: p for p in Gegl.Operation.list_properties("shader:pragma")}
st = ps.get("strength")
check(st is not None and (st.minimum, st.maximum, st.default_value)
      == (0.0, 2.0, 0.5) and st.nick == "Strength",
      "#pragma parameter: label, default, range")
ss = {p.name for p in Gegl.Operation.list_properties("shader:seeded")}
check(ss == {"error", "has-errors", "linear", "seed"}, "host values are not sliders, "
      "seed becomes a seed property: %s" % sorted(ss))

# ----------------------------------------------------------- rendering ----
# Tint: amount 1, mode full, tint (1, .5, .25): c * tint.
g, node = graph("shader:tint", {"amount": 1.0})
out = render(node)
ok = True
for y in range(H):
    for x in range(W):
        c = pixel_in(x, y)
        exp = (c[0] * 1.0, c[1] * 0.5, c[2] * 0.25, 1.0)
        ok = ok and close(out[y * W + x], exp)
check(ok, "tint renders c * tint_color")
node.set_property("invert", True)
node.set_property("mode", 0)
out = render(node)
check(close(out[5 * W + 7], tuple(1 - v for v in pixel_in(7, 5)[:3]) + (1.0,)),
      "bool and enum properties reach the shader")
col = Gegl.Color.new("rgb(0, 1, 0)")
node.set_property("invert", False)
node.set_property("mode", 2)
node.set_property("tint-color", col)
out = render(node)
c = pixel_in(3, 4)
check(close(out[4 * W + 3], (0.0, c[1], 0.0, 1.0)), "colour property")

g, node = graph("shader:pragma", {"strength": 2.0})
out = render(node)
c = pixel_in(10, 11)
check(close(out[11 * W + 10], (2 * c[0], 2 * c[1], 2 * c[2], 1.0)),
      "#pragma parameter value used")

g, node = graph("shader:reshade")
out = render(node)
check(close(out[0], (W / 100.0, H / 100.0, 10.0 / W, 1.0)),
      "BUFFER_WIDTH/HEIGHT/RCP macros")

seed = {p.name: p for p in Gegl.Operation.list_properties("shader:seeded")}["seed"]
check(seed.default_value == 42, "the seed property defaults to the shader's seed: %d"
      % seed.default_value)
g, node = graph("shader:seeded")
out = render(node)
check(close(out[2 * W + 9][:1], (0.042,), 1e-6), "an unset seed is the shader's: %r"
      % (out[2 * W + 9],))

g, node = graph("shader:seeded", {"seed": 1234})
out = render(node)
check(close(out[2 * W + 9], (0.234, W / 100.0, H / 100.0, 9.5 / 100.0), 1e-4),
      "seed, image size and VPOS host values")

g, node = graph("shader:user-invert")
out = render(node)
check(close(out[0], (1.0, 1.0, 1.0 - pixel_in(0, 0)[2], 1.0)),
      "op from $XDG_DATA_HOME/gegl-shaders/filters")

# Linear light: the shader sees linear values.
g, node = graph("shader:pragma", {"strength": 1.0, "linear": True})
out = render(node)
c = pixel_in(20, 3)
check(close(out[3 * W + 20], c[:3] + (1.0,), 1e-4),
      "linear round trip keeps the colours")

# Aux pad.
g = Gegl.Node()
src = g.create_child("gegl:buffer-source")
src.set_property("buffer", make_buffer())
aux = g.create_child("gegl:buffer-source")
aux.set_property("buffer", make_buffer(lambda x, y: (1.0, 0.0, 0.5, 1.0)))
mix = g.create_child("shader:mix2")
src.connect_to("output", mix, "input")
aux.connect_to("output", mix, "aux")
out = render(mix)
c = pixel_in(6, 9)
check(close(out[9 * W + 6], (c[0] * .75 + .25, c[1] * .75, c[2] * .75 + .125,
                             1.0)), "second sampler reads the aux pad")

# Textures annotated with an image file: a file-path property defaulting
# to the file beside the shader, loaded with GEGL into the sampler's slot.
# lut.ppm is red, green, blue, white; inputs at texel centres pick one each.
other_lut = os.path.join(tmp, "other-lut.ppm")
with open(other_lut, "w") as f:
    f.write("P3\n2 1\n255\n10 20 30  40 50 60\n")
LUT = [(1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1), (1, 1, 1, 1)]
for op, prop, channel in (("shader:lut", "luttex", 0),
                          ("shader:grade", "ramp", 1)):
    ts = {p.name: p for p in Gegl.Operation.list_properties(op)}
    tp = ts.get(prop)
    check(tp is not None and tp.__gtype__.name == "GeglParamFilePath"
          and tp.default_value == os.path.join(os.path.abspath(filters),
                                               "lut.ppm"),
          "%s: file-path property %s defaults to the file beside the shader"
          % (op, prop))
    check(set(ts) == {"error", "has-errors", "linear", prop},
          "%s: the image texture is no pad and no slider: %s" % (op, sorted(ts)))

    def lut_in(x, y):
        v = (x % 4 + 0.5) / 4
        return (v, v, 0.25, 1.0)

    g, node = graph(op, buf=make_buffer(lut_in))
    out = render(node)
    check(all(close(out[y * W + x], LUT[x % 4]) for y in range(H)
              for x in range(W)), "%s samples the image file" % op)
    node.set_property(prop, other_lut)
    out = render(node)
    # Bilinear over two texels: x%4 = 1 reads a quarter of the way.
    exp = tuple((v + 30 * 0.25) / 255 for v in (10, 20, 30)) + (1.0,)
    check(close(out[1], exp, 1e-4) and node.get_property("error") == "",
          "%s: another image through the property %r" % (op, out[1]))
    node.set_property(prop, os.path.join(tmp, "missing.png"))
    out = render(node)
    err = node.get_property("error")
    check("error: texture '" in err and "missing.png" in err
          and all(close(out[y * W + x], lut_in(x, y)) for y in range(H)
                  for x in range(W)),
          "%s: a missing image passes the input through with an error: %r"
          % (op, err))

# GIMP's dialog: "error" is notified from the main loop after it changed
# (never from inside processing), "has-errors" follows it, and the error
# box's ui-meta shows it only while there is something to say.
def drain_main_loop():
    context, n = GLib.MainContext.default(), 0
    while context.iteration(False) and n < 1000:
        n += 1
    return n


for op in ("shader:tint", "shader:lut", "shader:broken"):
    check(Gegl.Operation.get_property_key(op, "error", "visible") == "has-errors"
          and Gegl.Operation.get_property_key(op, "has-errors", "visible") == "0",
          "%s: the error box is visible exactly while has-errors" % op)
g, node = graph("shader:broken")
check(node.get_property("has-errors") is True, "a broken filter has errors")
drain_main_loop()
g, node = graph("shader:lut")
seen = []
# GObject's connect: GEGL 0.4.62 gives Gegl.Node a connect() of its own
# (pads to pads) that hides it.
for prop in ("error", "has-errors"):
    GObject.Object.connect(
        node, "notify::" + prop,
        lambda n, p: seen.append((p.name, n.get_property(p.name))))
render(node)
drain_main_loop()
check(seen == [] and node.get_property("has-errors") is False,
      "a working filter notifies nothing: %r" % seen)
node.set_property("luttex", os.path.join(tmp, "missing.png"))
render(node)
check(seen == [], "no notify from inside processing: %r" % seen)
drain_main_loop()
shown = dict(seen)
check(len(seen) == 2 and "error: texture 'lutTex': cannot open"
      in " ".join(shown.get("error", "").split())
      and shown["error"].startswith("lut.hlsl: error: ")
      and shown.get("has-errors") is True,
      "a missing texture reaches the open dialog: %r" % seen)
render(node)
drain_main_loop()
check(len(seen) == 2, "an unchanged failure notifies once: %r" % seen)
node.set_property("luttex", other_lut)
render(node)
drain_main_loop()
check(sorted(seen[2:]) == [("error", ""), ("has-errors", False)],
      "the fixed filter empties the box: %r" % seen)

r = subprocess.run([gegl_bin, "-x", "<gegl><gegl:color value='rgb(0.625,0.625,0.625)'/></gegl>",
                    "-o", os.path.join(tmp, "lut.ppm"), "--", "gegl:crop", "width=2",
                    "height=1", "shader:lut", "luttex=" + other_lut],
                   capture_output=True, text=True, errors="replace", timeout=60)
check(r.returncode == 0, "gegl tool with an image-file property %s" % r.stderr[-300:])
if r.returncode == 0:
    px = struct.unpack(">6H", open(os.path.join(tmp, "lut.ppm"), "rb").read()[-12:])
    # Linear 0.625 is 0.816 perceptual, past the last texel's centre.
    check(px == tuple(v * 257 for v in (40, 50, 60, 40, 50, 60)),
          "gegl tool: luttex= reaches the shader: %s" % (px,))

# Broken shader: registered, passes through, error property.
g, node = graph("shader:broken")
err = node.get_property("error")
check(err.startswith("broken.hlsl:3:") and ": error: " in err,
      "broken shader's error property: %r" % err)
out = render(node)
check(all(close(out[y * W + x], pixel_in(x, y))
          for y in range(H) for x in range(W)), "broken shader passes through")

# ------------------------------------------------------- integer inputs ----
# An 8-bit value k reaches the shader as exactly k/255 and a 16-bit one as
# k/65535 (float32 division), so user-invert gives exactly 1 - that.
def f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


for fmt, pack, top in (("R'G'B'A u8", "4B", 255), ("R'G'B'A u16", "4H", 65535)):
    ks = [i * (top // 255) for i in range(256)]
    ibuf = Gegl.Buffer.new(fmt, 0, 0, 256, 1)
    ibuf.set(Gegl.Rectangle.new(0, 0, 256, 1), fmt,
             b"".join(struct.pack(pack, k, k, k, top) for k in ks))
    g, node = graph("shader:user-invert", buf=ibuf)
    out = render(node, 256, 1)
    wrong = [k for k, px in zip(ks, out)
             if px[0] != f32(1.0 - f32(f32(k) / f32(top))) or px[3] != 1.0]
    check(not wrong, "%s input k reads as k/%d exactly (wrong for k in %s)"
          % (fmt, top, wrong[:5]))


# --------------------------------------------------- tiles and threads ----
def gegl_run(args, threads, tile):
    env = dict(os.environ, GEGL_THREADS=str(threads), GEGL_TILE_SIZE=tile,
               GEGL_CHUNK_SIZE="%d" % (97 if tile == "16x16" else 1 << 20))
    return subprocess.run([gegl_bin] + args, env=env, capture_output=True,
                          text=True, errors="replace", timeout=120)


def write_ppm(path, w, h):
    with open(path, "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (w, h))
        f.write(bytes((x * 37 + y * 11) % 256 if c == 0 else
                      (x * y + 3 * c) % 256 for y in range(h)
                      for x in range(w) for c in range(3)))


def read_pfm_like(path):
    with open(path, "rb") as f:
        return f.read()


inp = os.path.join(tmp, "in.ppm")
write_ppm(inp, 203, 157)
for op, extra in (("shader:shift", []), ("shader:swirl", []),
                  ("shader:tint", ["amount=0.7", "mode=half"])):
    results = set()
    for threads, tile in ((1, "128x128"), (4, "16x16"), (4, "64x32"),
                          (1, "16x16")):
        outp = os.path.join(tmp, "o-%s-%d-%s.ppm" % (op[7:], threads, tile))
        r = gegl_run([inp, "-o", outp, "--", op] + extra, threads, tile)
        check(r.returncode == 0, "gegl %s threads=%d tile=%s exits 0 %s"
              % (op, threads, tile, r.stderr[-300:]))
        # A bounded shader keeps no node cache, so nothing is left alive
        # at gegl_exit() (an unbounded one such as swirl needs the cache;
        # the gegl tool leaks its chain nodes, see shader-ops.c).
        if op != "shader:swirl":
            check("leaked" not in r.stderr,
                  "gegl %s leaves no GeglBuffer behind: %s"
                  % (op, r.stderr[-300:]))
        if r.returncode == 0:
            results.add(read_pfm_like(outp))
    check(len(results) == 1, "%s: identical for any tile size, chunk size "
          "and thread count" % op)

# ------------------------------------------------------------- gegl tool ----
sepia_in = os.path.join(tmp, "px.ppm")
with open(sepia_in, "wb") as f:
    f.write(b"P6\n2 1\n255\n" + bytes([200, 100, 50, 0, 255, 128]))
outp = os.path.join(tmp, "sepia.ppm")
r = subprocess.run([gegl_bin, sepia_in, "-o", outp, "--", "shader:tint",
                    "amount=1", "gain=2"], capture_output=True, text=True,
                   errors="replace", timeout=60)
check(r.returncode == 0, "gegl tool with a shader op and properties")
if r.returncode == 0:
    data = open(outp, "rb").read()
    vals = data[-12:]
    px = struct.unpack(">6H", vals)
    exp = [min(1.0, v) for v in (200 / 255 * 2, 100 / 255 * 1, 50 / 255 * .5,
                                 0, 255 / 255 * 1, 128 / 255 * .5)]
    check(all(abs(p / 65535 - e) < 1.5 / 65535 for p, e in zip(px, exp)),
          "gegl tool output values %s" % (px,))

aux_out = os.path.join(tmp, "aux.ppm")
r = subprocess.run([gegl_bin, sepia_in, "-o", aux_out, "--", "shader:mix2",
                    "weight=1", "aux=[", "gegl:color", "value=rgb(0,1,0)",
                    "]"], capture_output=True, text=True, errors="replace",
                   timeout=60)
check(r.returncode == 0, "gegl aux=[ ... ] %s" % r.stderr[-300:])
if r.returncode == 0:
    px = struct.unpack(">6H", open(aux_out, "rb").read()[-12:])
    check(px == (0, 65535, 0, 0, 65535, 0), "aux input reaches s1: %s" % (px,))

broken_out = os.path.join(tmp, "broken.ppm")
r = subprocess.run([gegl_bin, sepia_in, "-o", broken_out, "--",
                    "shader:broken"], capture_output=True, text=True,
                   errors="replace", timeout=60)
check(r.returncode == 0 and r.stderr.count("broken.hlsl:3:") == 1,
      "broken op: exit 0 and one warning %r" % r.stderr[-300:])
if r.returncode == 0:
    px = struct.unpack(">6H", open(broken_out, "rb").read()[-12:])
    check(px == tuple(v * 257 for v in (200, 100, 50, 0, 255, 128)),
          "broken op passes the image through")

# ------------------------------------------------------ batch example ----
batch_in = os.path.join(tmp, "batch-in")
batch_out = os.path.join(tmp, "batch-out")
os.mkdir(batch_in)
for i in range(3):
    write_ppm(os.path.join(batch_in, "img%d.ppm" % i), 20 + i, 10)
with open(os.path.join(batch_in, "notes.txt"), "w") as f:
    f.write("not an image\n")
r = subprocess.run([sys.executable,
                    os.path.join(srcdir, "data", "batch-shader.py"),
                    batch_in, batch_out, "shader:pragma", "strength=0.5"],
                   capture_output=True, text=True, errors="replace",
                   timeout=120)
check(r.returncode == 0, "batch script exits 0 (%d) %s %s" % (r.returncode, r.stdout[-300:], r.stderr[-500:]))
names = sorted(os.listdir(batch_out)) if os.path.isdir(batch_out) else []
check(names == ["img0.png", "img1.png", "img2.png"], "batch outputs %s" % names)
if names:
    b = Gegl.Node()
    ld = b.create_child("gegl:load")
    ld.set_property("path", os.path.join(batch_out, "img1.png"))
    bb = ld.get_bounding_box()
    raw = render(ld, bb.width, bb.height)
    # pixel (1,0): r = 37 → 0.5 * 37/255
    check(bb.width == 21 and abs(raw[1][0] - 0.5 * 37 / 255) < 1 / 255.0 + 1e-6,
          "batch output holds the shader's result")

# An enum parameter by nick, and an unknown nick refused: the script reads
# GEnum values as both PyGObject 3.42 (Debian 12) and 3.50 (13) give them.
batch_enum = os.path.join(tmp, "batch-enum")
r = subprocess.run([sys.executable,
                    os.path.join(srcdir, "data", "batch-shader.py"),
                    batch_in, batch_enum, "shader:tint", "mode=half"],
                   capture_output=True, text=True, errors="replace",
                   timeout=120)
check(r.returncode == 0 and sorted(os.listdir(batch_enum)) ==
      ["img0.png", "img1.png", "img2.png"],
      "batch script takes an enum nick (%d) %s" % (r.returncode, r.stderr[-500:]))
r = subprocess.run([sys.executable,
                    os.path.join(srcdir, "data", "batch-shader.py"),
                    batch_in, batch_enum, "shader:tint", "mode=most"],
                   capture_output=True, text=True, errors="replace",
                   timeout=120)
check(r.returncode == 2 and "mode: unknown value 'most'" in r.stderr,
      "batch script refuses an unknown enum nick (%d) %r"
      % (r.returncode, r.stderr[-300:]))

# Annotation names match without regard to case, as in the effect ops.
cg = {p.name: p for p in Gegl.Operation.list_properties("shader:case")}.get("gain")
check(cg is not None and (cg.minimum, cg.maximum) == (0.25, 3.0)
      and cg.nick == "Case Gain", "uimin/UIMAX/UINAME in any case")

print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
