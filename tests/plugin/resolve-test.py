#!/usr/bin/env python3
"""One filter name, one file: `gegl ... -- shader:NAME` (what GIMP sees
too: the module's ops) and `gegl-shaders apply NAME` must run the same
shader file for every arrangement of the search path.

Each arrangement puts files of the same stem into several folders of the
path, each painting one flat colour, and checks that both hosts paint the
colour of the file the README's order picks: GEGL_SHADERS_PATH, then
$XDG_DATA_HOME/gegl-shaders/filters, then the $XDG_DATA_DIRS folders; in
one folder the first name in byte order (.asm before .hlsl).

Usage: resolve-test.py GEGL_BINARY CLI MODULE GEGL_PLUGINS_DIR
"""

import os
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


def hlsl(r, g, b):
    return ("float4 main (float2 uv : TEXCOORD0) : COLOR"
            " { return float4 (%g, %g, %g, 1); }\n" % (r, g, b))


def asm(r, g, b):
    return "ps_2_0\ndef c0, %g, %g, %g, 1\nmov oC0, c0\n" % (r, g, b)


def first_pixel(path):
    """The first pixel of a binary PPM as 0..1 floats."""
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    pos += 1
    maxval = int(fields[3])
    if maxval < 256:
        return tuple(v / maxval for v in data[pos:pos + 3])
    return tuple((data[pos + 2 * i] << 8 | data[pos + 2 * i + 1]) / maxval
                 for i in range(3))


def main():
    gegl, cli, module, sysdir = sys.argv[1:5]
    stem = "gs-resolve-probe"
    with tempfile.TemporaryDirectory(prefix="gs-resolve-") as tmp:
        mods = make_module_dir(tmp, module, sysdir)
        src = os.path.join(tmp, "in.ppm")
        with open(src, "wb") as f:
            f.write(b"P6\n3 2\n255\n" + bytes(range(18)))

        def arrangement(name, files, env_path, want):
            root = os.path.join(tmp, name)
            env = dict(os.environ, GEGL_PATH=mods, GEGL_SWAP="RAM",
                       XDG_DATA_HOME=os.path.join(root, "home"),
                       XDG_DATA_DIRS=os.path.join(root, "sys1") + ":"
                       + os.path.join(root, "sys2"),
                       GS_NO_PROGRESS_BAR="1")
            env.pop("GEGL_SHADERS_PATH", None)
            if env_path:
                env["GEGL_SHADERS_PATH"] = os.path.join(root, env_path)
            for where, filename, text in files:
                folder = os.path.join(root, where)
                if where != env_path:
                    folder = os.path.join(folder, "gegl-shaders", "filters")
                os.makedirs(folder, exist_ok=True)
                with open(os.path.join(folder, filename), "w") as f:
                    f.write(text)

            out = os.path.join(root, "gegl.ppm")
            r = subprocess.run([gegl, src, "-o", out, "--", "shader:" + stem],
                               env=env, capture_output=True, text=True,
                               errors="replace", timeout=120)
            check(r.returncode == 0, "%s: gegl exits 0: %s" % (name, r.stderr[-300:]))
            got_gegl = first_pixel(out) if r.returncode == 0 else None

            # The tool links shaderlib itself: it needs GEGL's own codecs
            # only, not our module (whose second copy of shaderlib would
            # trip AddressSanitizer's one-definition check).
            cli_env = dict(env)
            cli_env.pop("GEGL_PATH")
            outdir = os.path.join(root, "apply")
            r = subprocess.run([cli, "apply", stem, src, "-o", outdir],
                               env=cli_env, capture_output=True, text=True,
                               errors="replace", timeout=120)
            check(r.returncode == 0, "%s: apply exits 0: %s" % (name, r.stderr[-300:]))
            got_apply = (first_pixel(os.path.join(outdir, "in.ppm"))
                         if r.returncode == 0 else None)

            check(got_gegl == want, "%s: shader:%s runs the expected file (%s)"
                  % (name, stem, got_gegl))
            check(got_apply == want, "%s: apply %s runs the expected file (%s)"
                  % (name, stem, got_apply))

        red, green, blue = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)
        # A filter dropped into the user's folder beats a system one...
        arrangement("xdg-home", [("home", stem + ".hlsl", hlsl(*red)),
                                 ("sys1", stem + ".hlsl", hlsl(*green))],
                    None, red)
        # ...the first system folder beats the second...
        arrangement("xdg-dirs", [("sys1", stem + ".hlsl", hlsl(*green)),
                                 ("sys2", stem + ".hlsl", hlsl(*blue))],
                    None, green)
        # ...GEGL_SHADERS_PATH beats them all...
        arrangement("env", [("env", stem + ".hlsl", hlsl(*blue)),
                            ("home", stem + ".hlsl", hlsl(*red))],
                    "env", blue)
        # ...and within one folder the first name in byte order wins.
        arrangement("one-folder", [("home", stem + ".hlsl", hlsl(*red)),
                                   ("home", stem + ".asm", asm(*green))],
                    None, green)

    if failures:
        print("%d failure(s)" % len(failures), file=sys.stderr)
        sys.exit(1)


main()
