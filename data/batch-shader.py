#!/usr/bin/python3
"""Runs every image of a folder through a GEGL operation, e.g. a shader op.

    batch-shader.py IN_DIR OUT_DIR OPERATION [PROPERTY=VALUE ...]
    batch-shader.py photos/ toned/ shader:sepia-tone amount=0.6

Each readable image IN_DIR/NAME.EXT becomes OUT_DIR/NAME.png.  Property
values are converted by the property's type (numbers, true/false, enum
nicks, colours such as "rgb(1, 0.5, 0)").  Uses GEGL through GObject
introspection (Debian: python3-gi and gir1.2-gegl-0.4); run it with the
system Python.
"""

import os
import sys

import gi

gi.require_version("Gegl", "0.4")
from gi.repository import Gegl, GObject  # noqa: E402

IMAGE_EXTENSIONS = {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".ppm",
                    ".pgm", ".pnm", ".exr", ".webp", ".hdr"}


def enum_values(spec):
    """(value, nick, name) of each value of an enum property.  PyGObject
    3.42 (Debian 12) gives spec.enum_class as a Python class with
    __enum_values__; 3.50 (Debian 13) as the C GEnumClass, which
    g_enum_get_value() reads."""
    enum_class = spec.enum_class
    values = getattr(enum_class, "__enum_values__", None)
    if values is not None:
        return [(int(v), v.value_nick, v.value_name) for v in values.values()]
    found = (GObject.enum_get_value(enum_class, i)
             for i in range(enum_class.minimum, enum_class.maximum + 1))
    return [(v.value, v.value_nick, v.value_name) for v in found if v is not None]


def convert(spec, text):
    """The property value a command-line string stands for."""
    t = spec.value_type
    if t == GObject.TYPE_DOUBLE or t == GObject.TYPE_FLOAT:
        return float(text)
    if t in (GObject.TYPE_INT, GObject.TYPE_UINT, GObject.TYPE_INT64):
        return int(text)
    if t == GObject.TYPE_BOOLEAN:
        if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
            raise ValueError("expected true or false, not %r" % text)
        return text.lower() in ("true", "1", "yes")
    if t.is_a(GObject.TYPE_ENUM):
        for value, nick, name in enum_values(spec):
            if text in (nick, name, str(value)):
                return value
        raise ValueError("unknown value %r" % text)
    if t.name == "GeglColor":
        return Gegl.Color.new(text)
    return text


def main(argv):
    if len(argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    in_dir, out_dir, operation = argv[1:4]
    Gegl.init(None)
    if operation not in Gegl.list_operations():
        print("unknown operation %s" % operation, file=sys.stderr)
        return 2
    specs = {p.name: p for p in Gegl.Operation.list_properties(operation)}
    props = {}
    for arg in argv[4:]:
        name, sep, text = arg.partition("=")
        if not sep or name not in specs:
            print("%s has no property %r" % (operation, name), file=sys.stderr)
            return 2
        try:
            props[name] = convert(specs[name], text)
        except ValueError as e:
            print("%s: %s" % (name, e), file=sys.stderr)
            return 2

    os.makedirs(out_dir, exist_ok=True)
    failed = 0
    for entry in sorted(os.listdir(in_dir)):
        stem, ext = os.path.splitext(entry)
        if ext.lower() not in IMAGE_EXTENSIONS:
            continue
        graph = Gegl.Node()
        load = graph.create_child("gegl:load")
        load.set_property("path", os.path.join(in_dir, entry))
        op = graph.create_child(operation)
        for name, value in props.items():
            op.set_property(name, value)
        save = graph.create_child("gegl:png-save")
        target = os.path.join(out_dir, stem + ".png")
        save.set_property("path", target)
        load.link(op)
        op.link(save)
        save.process()
        if os.path.exists(target):
            print("%s -> %s" % (entry, target))
        else:
            print("failed: %s" % entry, file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
