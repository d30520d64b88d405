#!/usr/bin/env python3
"""Runs the real `gegl` tool with the built gegl-shaders.so.

GEGL_PATH replaces GEGL's default module path, so the test points it at a
temporary folder holding a symlink to the built module and one to every
entry of GEGL's own module folder.  Images go in and out as binary PPM,
which needs no imaging library here: the input is 8-bit with known values,
gegl writes 16-bit output (v8 * 257 for exact values).

Usage: cli-test.py GEGL_BINARY MODULE GEGL_PLUGINS_DIR
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


def check_no_leak(r, what):
    """GEGL reports buffers still alive at gegl_exit() on stderr."""
    check("leaked" not in r.stderr and "gegl_tile_cache_destroy" not in r.stderr,
          what + " leaves no GeglBuffer behind: " + r.stderr[-300:])


def write_ppm(path, width, height, rgb):
    with open(path, "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (width, height))
        f.write(bytes(rgb))


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields = []
    pos = 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    pos += 1
    assert fields[0] == b"P6", fields
    width, height, maxval = (int(v) for v in fields[1:])
    raw = data[pos:]
    if maxval < 256:
        values = list(raw)
    else:
        values = [raw[i] << 8 | raw[i + 1] for i in range(0, len(raw), 2)]
    return width, height, maxval, values


def main():
    gegl, module, sysdir = sys.argv[1:4]
    with tempfile.TemporaryDirectory(prefix="gs-cli-") as tmp:
        mods = make_module_dir(tmp, module, sysdir)
        env = dict(os.environ, GEGL_PATH=mods, GEGL_SWAP="RAM")

        def run(args, threads=None):
            e = dict(env)
            if threads is not None:
                e["GEGL_THREADS"] = str(threads)
            # --info prints a garbage operation-class field: decode leniently.
            return subprocess.run([gegl] + args, env=e, capture_output=True,
                                  text=True, errors="replace", timeout=120)

        r = run(["--list-all"])
        check(r.returncode == 0, "--list-all exits 0")
        check("shader:run" in r.stdout.split(), "--list-all lists shader:run")

        r = run(["--info", "shader:run"])
        check(r.returncode == 0, "--info exits 0")
        for prop in ("source", "file", "entry", "profile", "params", "error"):
            check(any(line.split()[:1] == [prop] for line in r.stdout.splitlines()),
                  "--info lists property " + prop)

        # A 7x5 input with every channel distinct.
        w, h = 7, 5
        rgb = [(i * 37 + 11) % 256 for i in range(w * h * 3)]
        src = os.path.join(tmp, "in.ppm")
        write_ppm(src, w, h, rgb)

        invert = ("sampler2D s0 : register(s0);\n"
                  "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
                  "{\n"
                  "    float4 c = tex2D(s0, uv);\n"
                  "    return float4(1.0 - c.rgb, c.a);\n"
                  "}\n")
        out = os.path.join(tmp, "invert.ppm")
        r = run([src, "-o", out, "--", "shader:run", "source=" + invert])
        check(r.returncode == 0, "invert run exits 0: " + r.stderr)
        check_no_leak(r, "invert run")
        if r.returncode == 0:
            ow, oh, maxval, values = read_ppm(out)
            check((ow, oh) == (w, h), "invert keeps the size")
            scale = maxval // 255
            check(values == [(255 - v) * scale for v in rgb],
                  "invert output is 255 - input")

        # Channel swap from a file, with the lerp parameter set to zero
        # through params: out = (b, r, g).
        swap_file = os.path.join(tmp, "swap.hlsl")
        with open(swap_file, "w") as f:
            f.write("sampler2D s0 : register(s0);\n"
                    "float amount = 0.5;\n"
                    "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
                    "{\n"
                    "    float4 c = tex2D(s0, uv);\n"
                    "    float3 s = float3(c.b, c.r, c.g);\n"
                    "    return float4(lerp(s, 1.0 - s, amount), c.a);\n"
                    "}\n")
        out = os.path.join(tmp, "swap.ppm")
        r = run([src, "-o", out, "--", "shader:run", "file=" + swap_file,
                 "params=amount=0"])
        check(r.returncode == 0, "swap run exits 0: " + r.stderr)
        check_no_leak(r, "swap run")
        if r.returncode == 0:
            _, _, maxval, values = read_ppm(out)
            scale = maxval // 255
            want = []
            for i in range(0, len(rgb), 3):
                want += [rgb[i + 2] * scale, rgb[i] * scale, rgb[i + 1] * scale]
            check(values == want, "file + params=amount=0 swaps channels")

        # A broken shader: exit 0, the input comes out unchanged, the
        # diagnostic names the line.
        out = os.path.join(tmp, "broken.ppm")
        r = run([src, "-o", out, "--", "shader:run",
                 "source=float4 main(float2 uv : TEXCOORD0) : COLOR\n{\n  return uv +;\n}\n"])
        check(r.returncode == 0, "broken shader run exits 0")
        check_no_leak(r, "broken shader run")
        check("shader:run:3:" in r.stderr and "error" in r.stderr,
              "broken shader warns with file:line: " + r.stderr)
        if r.returncode == 0:
            _, _, maxval, values = read_ppm(out)
            scale = maxval // 255
            check(values == [v * scale for v in rgb],
                  "broken shader passes the input through")

        # Thread count must not change a single bit, also for a shader
        # that reads neighbours across chunk borders.
        bw, bh = 401, 263
        big = [(i * 7919 + (i // 3) * 13) % 256 for i in range(bw * bh * 3)]
        bigsrc = os.path.join(tmp, "big.ppm")
        write_ppm(bigsrc, bw, bh, big)
        blur = ("sampler2D s0 : register(s0);\n"
                "float2 texel = float2(0.0, 0.0);\n"
                "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
                "{\n"
                "    return (tex2D(s0, uv - texel) + tex2D(s0, uv)\n"
                "            + tex2D(s0, uv + texel)) / 3.0;\n"
                "}\n")
        params = "params=texel=%.9g,%.9g" % (1.0 / bw, 1.0 / bh)
        outputs = []
        for threads in (1, 4):
            out = os.path.join(tmp, "blur%d.ppm" % threads)
            r = run([bigsrc, "-o", out, "--", "shader:run", "source=" + blur,
                     params], threads=threads)
            check(r.returncode == 0, "blur with %d threads exits 0" % threads)
            check("gegl-shaders" not in r.stderr and "shader:run" not in r.stderr,
                  "blur run does not warn: " + r.stderr)
            check_no_leak(r, "blur run with %d threads" % threads)
            if r.returncode == 0:
                with open(out, "rb") as f:
                    outputs.append(f.read())
        check(len(outputs) == 2 and outputs[0] == outputs[1],
              "GEGL_THREADS=1 and 4 give identical output")
        if outputs:
            _, _, maxval, values = read_ppm(os.path.join(tmp, "blur1.ppm"))
            check(values != [v * (maxval // 255) for v in big],
                  "blur changes the image")

    if failures:
        print("%d check(s) failed" % len(failures), file=sys.stderr)
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
