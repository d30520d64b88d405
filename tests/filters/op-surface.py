#!/usr/bin/python3
"""What GIMP users see of a shipped filter's op stays what it was.

A filter that changes form (a single-pass .hlsl becoming a multi-pass
effect file, for speed) must keep its op name, menu entry and sliders:
the name, type, label, tooltip, range, default and step of every
property, and the title, menu path and label of the op.  This loads the
built module over the shipped filters folder and prints that surface for
the ops listed in op-surface.txt, then compares it with the file, line by
line.  With --update it rewrites the file instead (do that only for a
deliberate change of what users see).

Must run under a Python with python3-gi (the system /usr/bin/python3).
Usage: op-surface.py MODULE GEGL_PLUGINS_DIR SRC_DIR [--update]
"""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from gegl_modules import make_module_dir  # noqa: E402

module, sysdir, srcdir = sys.argv[1:4]
update = "--update" in sys.argv[4:]
expected_path = os.path.join(srcdir, "tests", "filters", "op-surface.txt")
tmp = tempfile.mkdtemp(prefix="gs-surface-")
try:
    mods = make_module_dir(tmp, module, sysdir)
    os.makedirs(os.path.join(tmp, "data"))
    os.environ.update(GEGL_PATH=mods, GEGL_SWAP="RAM",
                      GEGL_SHADERS_PATH=os.path.join(srcdir, "filters"),
                      XDG_DATA_HOME=os.path.join(tmp, "data"),
                      XDG_DATA_DIRS=os.path.join(tmp, "data"),
                      LANGUAGE="C", LC_ALL="C")
    import gi
    gi.require_version("Gegl", "0.4")
    from gi.repository import Gegl, GObject
    Gegl.init(None)

    with open(expected_path, encoding="utf-8") as f:
        expected = [l.rstrip("\n") for l in f if not l.startswith("#")]
    ops = [l.split()[1] for l in expected if l.startswith("op ")]

    def fmt(v):
        if isinstance(v, Gegl.Color):
            return "rgba(%s)" % ",".join("%.6g" % c for c in v.get_rgba())
        if isinstance(v, float):
            return "%.6g" % v
        return repr(v)

    lines = []
    for name in ops:
        if not Gegl.has_operation(name):
            lines.append("op %s MISSING" % name)
            continue
        lines.append("op %s" % name)
        for key in ("title", "gimp:menu-path", "gimp:menu-label", "categories"):
            lines.append("  key %s = %r" % (key, Gegl.Operation.get_key(name, key)))
        node = Gegl.Node()
        op = node.create_child(name)
        for ps in sorted(Gegl.Operation.list_properties(name), key=lambda p: p.name):
            if ps.name == "error":
                continue
            t = ps.value_type.name
            desc = "  prop %s %s nick=%r blurb=%r default=%s" % (
                ps.name, t, ps.nick, ps.blurb, fmt(op.get_property(ps.name)))
            if hasattr(ps, "minimum"):
                desc += " range=%s..%s" % (fmt(ps.minimum), fmt(ps.maximum))
            for attr in ("ui_minimum", "ui_maximum", "ui_step_small", "ui_step_big", "ui_digits"):
                if hasattr(ps, attr):
                    desc += " %s=%s" % (attr, fmt(getattr(ps, attr)))
            lines.append(desc)
    header = [l for l in open(expected_path, encoding="utf-8") if l.startswith("#")]
    if update:
        with open(expected_path, "w", encoding="utf-8") as f:
            f.writelines(header)
            f.write("\n".join(lines) + "\n")
        print("wrote", expected_path)
        sys.exit(0)
    bad = 0
    for i in range(max(len(lines), len(expected))):
        got = lines[i] if i < len(lines) else "<none>"
        want = expected[i] if i < len(expected) else "<none>"
        if got != want:
            print("FAIL: line %d\n  expected: %s\n  got:      %s" % (i + 1, want, got))
            bad += 1
    if bad:
        sys.exit(1)
    print("ok: %d ops, %d lines as in op-surface.txt" % (len(ops), len(lines)))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
