#!/usr/bin/env python3
"""Hostile files, one per class, through the CLI and the `gegl` tool.

    hostile.py GEGL_SHADERS [GEGL MODULE GEGL_PLUGINS_DIR]

Builds a folder of files an attacker would drop into a filter folder
(generated, since several are large or are not files at all: a FIFO, a
sparse 2 GB file), then runs each through `gegl-shaders check` or `run`,
and, when the gegl tool is given, `gegl … -- shader:run file=…` with the
whole folder as the filter folder (so GEGL's start-up registers every one
of them too).  Every run is capped: 60 s of wall time, 3 GiB of address
space (not under AddressSanitizer, whose shadow memory needs more), an
8 MiB stack.  Each must end with no signal and no timeout, in
the located error or the bounded, reported result written next to it; each
gegl run, which registers the whole folder, must also stay within
START_CPU seconds of CPU and START_RSS of memory.
The memory-budget cases (targets, textures and intermediate images over
the one budget per render, and a large image rendered band by band
within a small one, README "Hostile input") run with their own arguments
and, in `gegl`, their own input image and environment.
Prints TAP.
"""
import os
import resource
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import chains  # noqa: E402

TIMEOUT = 60
MEMORY = 3 << 30
MAIN = "float4 main(float2 uv : TEXCOORD0) : COLOR { return float4(uv, 0, 1); }\n"
TECH = "technique T { pass { PixelShader = compile ps_3_0 main(); } }\n"
TECHNIQUES = "techniques-20000.fx"
# Registering the whole folder (every gegl run below does) stays within
# these: the 4 MiB file's compile is most of it.
START_CPU = 10.0
START_RSS = 1 << 30
# 4 MiB of straight-line code: refused in about 2 s of CPU, but about 90 s
# under AddressSanitizer.  There it lies beside the folder instead of in
# it (so that the registrations below, each of which would compile it,
# stay within START_CPU) and its own two runs get SLOW_TIMEOUT.
STRAIGHT = "straight-4mib.hlsl"
SLOW_TIMEOUT = 900


# AddressSanitizer reserves terabytes of address space for its shadow
# memory, so under the sanitizer pass the address-space cap cannot be set;
# its own allocator limits then stand in for it, and the time and stack
# caps stay.
SANITIZED = "asan" in os.environ.get("LD_PRELOAD", "") or "ASAN_OPTIONS" in os.environ


def caps():
    if not SANITIZED:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_STACK, (8 << 20, 8 << 20))


def png_header_only(width, height):
    """A PNG whose header claims WIDTHxHEIGHT, with one empty row of data."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 5))
            + chunk(b"IEND", b""))


def effect_with_texture(source):
    return ('texture Tex < source = "%s"; > { Width = 4; Height = 4; };\n'
            "sampler S { Texture = Tex; };\n"
            "float4 main(float2 uv : TEXCOORD0) : COLOR { return tex2D(S, uv); }\n" % source) + TECH


def ppm(width, height):
    """A grey binary PPM of WIDTHxHEIGHT."""
    return b"P6\n%d %d\n255\n" % (width, height) + bytes([128]) * (3 * width * height)


def gradient_ppm(width, height):
    """A binary PPM of WIDTHxHEIGHT: red across, green down, blue 200."""
    rows = []
    for y in range(height):
        g = y * 255 // max(height - 1, 1)
        rows.append(b"".join(bytes([x * 255 // max(width - 1, 1), g, 200]) for x in range(width)))
    return b"P6\n%d %d\n255\n" % (width, height) + b"".join(rows)


def read_ppm(data):
    """(width, height, 8-bit samples) of a binary PPM of any depth."""
    fields, pos = [], 2
    while len(fields) < 3:
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(int(data[pos:end]))
        pos = end
    width, height, maxval = fields
    body = data[pos + 1:]
    if maxval > 255:
        samples = [int.from_bytes(body[k:k + 2], "big") for k in range(0, 6 * width * height, 2)]
    else:
        samples = list(body[:3 * width * height])
    return width, height, [round(v * 255 / maxval) for v in samples]


# Effects whose buffers the memory budget refuses.
BIG_TARGET = "texture %s { Width = 16384; Height = 16384; Format = RGBA32F; };\nsampler S%s { Texture = %s; };\n"
THREE_TARGETS = (BIG_TARGET % ("A", "A", "A") + BIG_TARGET % ("B", "B", "B") + BIG_TARGET % ("C", "C", "C")
                 + "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
                 "{ return tex2D(SA, uv) + tex2D(SB, uv) + tex2D(SC, uv); }\n" + TECH)
ONE_TARGET = (BIG_TARGET % ("Big", "Big", "Big")
              + "float4 fill(float2 uv : TEXCOORD0) : COLOR { return float4(uv, 0, 1); }\n"
              "float4 main(float2 uv : TEXCOORD0) : COLOR { return tex2D(SBig, uv); }\n"
              "technique T { pass { PixelShader = compile ps_3_0 fill(); RenderTarget = Big; }\n"
              "              pass { PixelShader = compile ps_3_0 main(); } }\n")
# A bloom: a bright pass into a half-size target, then the composite.
BLOOM = ("texture Half { Width = BUFFER_WIDTH / 2; Height = BUFFER_HEIGHT / 2; Format = RGBA32F; };\n"
         "texture Back : COLOR;\n"
         "sampler SHalf { Texture = Half; };\nsampler SBack { Texture = Back; };\n"
         "float4 bright(float2 uv : TEXCOORD0) : COLOR { return max(tex2D(SBack, uv) - 0.5, 0); }\n"
         "float4 main(float2 uv : TEXCOORD0) : COLOR\n"
         "{ return tex2D(SBack, uv) + tex2D(SHalf, uv + float2(0.01, 0)); }\n"
         "technique T { pass { PixelShader = compile ps_3_0 bright(); RenderTarget = Half; }\n"
         "              pass { PixelShader = compile ps_3_0 main(); } }\n")
# Two passes into the back buffer: the first one's result is an
# intermediate image as large as the input, which the second reads where
# its pixels say (so it cannot render band by band).
TWO_BACKBUFFER = ("texture Back : COLOR;\nsampler SBack { Texture = Back; };\n"
                  "float4 main(float2 uv : TEXCOORD0) : COLOR { return float4(uv, 0, 1); }\n"
                  "float4 again(float2 uv : TEXCOORD0) : COLOR { return tex2D(SBack, tex2D(SBack, uv).yx); }\n"
                  "technique T { pass { PixelShader = compile ps_3_0 main(); }\n"
                  "              pass { PixelShader = compile ps_3_0 again(); } }\n")
# name: CLI arguments after the file, and, for `gegl`, (input size, extra
# environment, expected text): the op holds no whole result image, so its
# sums differ from the CLI's.  An expected text of None: the op renders
# band by band within the budget, as the CLI renders it with room.  The
# targets of 16384² read by a 64×48 image: each band holds the part of
# them its pixels read, nearly all of them here.
BUDGET = {
    "budget-three-targets.fx": (["--size", "64x48", "--probe", "0,0"],
                                ((64, 48), {}, "budget-three-targets.fx:1:9: error: texture 'A' "
                                 "(16384×16384): a 64×48 part of the image needs 3950 MiB of it, which "
                                 "brings the render to 3950 MiB, over its memory budget of 2048 MiB")),
    "budget-one-target.fx": (["-i", "in-64x48.ppm", "--probe", "0,0"],
                             ((64, 48), {}, "budget-one-target.fx:1:9: error: texture 'Big' "
                              "(16384×16384): a 64×48 part of the image needs 3951 MiB of it, which "
                              "brings the render to 3951 MiB, over its memory budget of 2048 MiB")),
    # Whole, the bloom's 1024² render would take 16 MiB, and the CLI's
    # 6000×4000 input and result 366 MiB each: both render band by band.
    "budget-large-image.fx": (["--size", "6000x4000", "--memory-budget", "16M",
                               "--probe", "0,0", "--probe", "5999,3999"],
                              ((1024, 1024), {"GEGL_SHADERS_MEMORY_BUDGET": "8M"}, None)),
    "budget-backbuffer.fx": (["--size", "3000x3000", "--memory-budget", "128M", "--probe", "0,0"],
                             ((1024, 1024), {"GEGL_SHADERS_MEMORY_BUDGET": "8M"},
                              "the render's copies of the 1024×1024 image need 16 MiB, "
                              "over its memory budget of 8 MiB")),
}
# Within a budget larger than the address-space cap, the allocation
# itself fails: an error, not an abort.  Not under AddressSanitizer,
# which has no cap and would hand out the 5 GiB.
if not SANITIZED:
    BUDGET["budget-out-of-memory.fx"] = (
        ["-i", "in-64x48.ppm", "--memory-budget", "16G", "--probe", "0,0"],
        ((64, 48), {"GEGL_SHADERS_MEMORY_BUDGET": "16G"},
         "budget-out-of-memory.fx:1:9: error: out of memory for texture 'Big' (16384×16384)"))


def build(folder):
    """Writes the hostile folder; returns [(name, file, command, expected stderr text, status)]."""
    os.mkdir(os.path.join(folder, "sub"))
    os.mkfifo(os.path.join(folder, "fifo"))
    with open(os.path.join(folder, "sparse.h"), "wb") as f:
        f.truncate(2 << 30)
    with open(os.path.join(folder, "huge.png"), "wb") as f:
        f.write(png_header_only(100000, 100000))
    with open(os.path.join(folder, "words.txt"), "w") as f:
        f.write("not an image\n")
    with open(os.path.join(os.path.dirname(folder), "secret.h"), "w") as f:
        f.write("SECRET_TOKEN\n")
    os.symlink(os.path.join(os.path.dirname(folder), "secret.h"), os.path.join(folder, "link.h"))
    cases = []

    def add(name, text, command, expect, status):
        if name == STRAIGHT and SANITIZED:
            name = os.path.join(os.pardir, name)
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)
        cases.append((name, command, expect, status))

    # Deep chains, one file per recursive construct the issue names.
    for kind in ("not", "minus", "tilde", "cast", "plus", "assign", "comma", "ternary-else", "swizzle",
                 "if-paren", "fx-width"):
        fname, make, message = chains.KINDS[kind]
        ext = os.path.splitext(fname)[1]
        add("chain-" + kind + ext, make(40000), "check", message, 1)
    # Includes of what is not a regular file, too large, or outside.
    for name, target, message in (
            ("include-fifo.hlsl", "fifo", '#include file "fifo" is not a regular file'),
            ("include-stdin.hlsl", "/dev/stdin", '#include file "/dev/stdin" is outside the shader'),
            ("include-zero.hlsl", "/dev/zero", '#include file "/dev/zero" is outside the shader'),
            ("include-sparse.hlsl", "sparse.h", '#include file "sparse.h" is larger than 4 MiB'),
            ("include-passwd.hlsl", "/etc/passwd", '#include file "/etc/passwd" is outside the shader'),
            ("include-dotdot.hlsl", "../secret.h", '#include file "../secret.h" is outside the shader'),
            ("include-symlink.hlsl", "link.h", '#include file "link.h" is outside the shader'),
            ("include-folder.hlsl", "sub", '#include file "sub" is not a regular file')):
        add(name, '#include "%s"\n' % target + MAIN, "check", message, 1)
    add("include-fifo-effect.fx", '#include "fifo"\n' + MAIN + TECH, "check",
        '#include file "fifo" is not a regular file', 1)
    add("include-passwd-effect.fx", '#include "/etc/passwd"\n' + MAIN + TECH, "check",
        '#include file "/etc/passwd" is outside the shader', 1)
    # Effect textures that are no image of sane size, or lie outside.
    for name, source, message in (
            ("texture-words.fx", "words.txt", "not an image format GEGL reads"),
            ("texture-fifo.fx", "fifo", "not a regular file"),
            ("texture-huge.fx", "huge.png", "image of 100000×100000 pixels is too large"),
            ("texture-passwd.fx", "/etc/passwd", "'/etc/passwd' is outside the effect's folder"),
            ("texture-dotdot.fx", "../secret.h", "'../secret.h' is outside the effect's folder")):
        add(name, effect_with_texture(source), "run", message, 1)
    # 4 MiB of straight-line code: more instructions than a program may
    # keep (the budget cannot stop straight-line code, the size limit does).
    lines = ["float4 main(float2 uv : TEXCOORD0) : COLOR\n{\n  float x = uv.x;\n"]
    size, k = len(lines[0]), 0
    while size < (4 << 20) - 200:
        lines.append("  x = x * %d.0001 + uv.y;\n" % (k % 97))
        size, k = size + len(lines[-1]), k + 1
    add(STRAIGHT, "".join(lines) + "  return x;\n}\n", "check",
        "instructions after optimisation; the limit is 131072", 1)
    # 20,000 techniques: one shared copy of the text, at most 256 ops.
    add(TECHNIQUES, MAIN + "".join("technique T%d { pass { PixelShader = compile ps_3_0 main(); } }\n" % t
                                   for t in range(20000)), "run", "0 0 0.0625 0.0625 0 1", 0)
    # One memory budget per render: targets and the intermediate back
    # buffer are counted before anything is allocated; the CLI's input
    # and result are tiled, never whole.
    with open(os.path.join(folder, "in-64x48.ppm"), "wb") as f:
        f.write(ppm(64, 48))
    add("budget-three-targets.fx", THREE_TARGETS, "run",
        "budget-three-targets.fx:1:9: error: texture 'A' (16384×16384): a 64×48 part of the image "
        "needs 3950 MiB of it, which brings the render to 3950 MiB, over its memory budget of 2048 MiB", 1)
    add("budget-one-target.fx", ONE_TARGET, "run",
        "budget-one-target.fx:1:9: error: texture 'Big' (16384×16384): a 64×48 part of the image "
        "needs 3951 MiB of it, which brings the render to 3951 MiB, over its memory budget of 2048 MiB", 1)
    add("budget-large-image.fx", BLOOM, "run", "0 0 0 0 0 0\n5999 3999 0 0 0 0", 0)
    add("budget-backbuffer.fx", TWO_BACKBUFFER, "run",
        "budget-backbuffer.fx: error: the render's copies of the 3000×3000 image need 138 MiB, "
        "over its memory budget of 128 MiB", 1)
    if "budget-out-of-memory.fx" in BUDGET:
        add("budget-out-of-memory.fx", ONE_TARGET, "run",
            "budget-out-of-memory.fx:1:9: error: out of memory for texture 'Big' (16384×16384)", 1)
    # A loop that never ends: one warning, the image still written.
    add("runaway-loop.hlsl", "float4 main(float2 uv : TEXCOORD0) : COLOR\n{\n  float x = 0;\n"
        "  [loop] while (uv.x >= 0) x += 1;\n  return x;\n}\n", "run", "reached the iteration cap", 0)
    return cases


def ppm_top_row(path):
    """The first row of a binary PPM (8 or 16 bits) as floats, or None."""
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4 and pos < len(data):
        while pos < len(data) and data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while end < len(data) and not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if len(fields) < 4 or fields[0] != b"P6":
        return None
    width, maxval = int(fields[1]), int(fields[3])
    pos += 1
    size = 2 if maxval > 255 else 1
    row = data[pos:pos + width * 3 * size]
    return [int.from_bytes(row[k:k + size], "big") / maxval for k in range(0, len(row), size)]


def timeout_for(name):
    return SLOW_TIMEOUT if SANITIZED and name.endswith(STRAIGHT) else TIMEOUT


def run_cli(cli, folder, name, command):
    args = [cli, command, name]
    if name in BUDGET:
        args += BUDGET[name][0]
    elif command == "run":
        args += ["--size", "8x8", "--probe", "0,0"]
    return subprocess.run(args, cwd=folder, capture_output=True, text=True, errors="replace",
                          timeout=timeout_for(name), preexec_fn=caps, stdin=subprocess.DEVNULL)


def main():
    cli = os.path.abspath(sys.argv[1])
    gegl = sys.argv[2] if len(sys.argv) > 4 else None
    results = []
    with tempfile.TemporaryDirectory(prefix="gs-hostile-") as tmp:
        folder = os.path.join(tmp, "filters")
        os.mkdir(folder)
        cases = build(folder)
        for name, command, expect, status in cases:
            problems = []
            try:
                r = run_cli(cli, folder, name, command)
                out = r.stderr + r.stdout
                if r.returncode < 0:
                    problems.append(f"killed by signal {-r.returncode}")
                elif r.returncode != status:
                    problems.append(f"exit status {r.returncode}, expected {status}: {out[:300]}")
                if expect not in out:
                    problems.append(f"output lacks '{expect}': {out[:300]}")
                if "SECRET_TOKEN" in out or "root:" in out:
                    problems.append("a diagnostic quotes a file outside the folder")
            except subprocess.TimeoutExpired:
                problems.append(f"timed out after {timeout_for(name)} s")
            results.append(("cli " + name, problems))
        if gegl:
            sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "plugin"))
            from gegl_modules import make_module_dir
            mods = make_module_dir(tmp, sys.argv[3], sys.argv[4])
            env = dict(os.environ, GEGL_PATH=mods, GEGL_SHADERS_PATH=folder)
            src = os.path.join(tmp, "in.ppm")
            with open(src, "wb") as f:
                f.write(b"P6\n4 4\n255\n" + bytes(range(48)))
            plugin_texture = {"texture-passwd.fx": "is outside the effect's folder",
                              "texture-dotdot.fx": "is outside the effect's folder",
                              "texture-words.fx": "not an image format GEGL reads",
                              "texture-huge.fx": "pixels is too large"}
            for name, command, expect, status in cases:
                pixels = None
                case_env, case_src = env, src
                banded = None
                if name in BUDGET:
                    (w, h), extra, text = BUDGET[name][1]
                    case_env = dict(env, **extra)
                    case_src = os.path.join(tmp, "in-%dx%d.ppm" % (w, h))
                    with open(case_src, "wb") as f:
                        f.write(ppm(w, h) if text else gradient_ppm(w, h))
                    expect = text
                    if text is None:
                        # What the CLI renders with room to spare.
                        banded = os.path.join(tmp, "banded-ref.ppm")
                        ref = subprocess.run([cli, "run", name, "-i", case_src, "-o", banded,
                                              "--memory-budget", "1G"], cwd=folder, capture_output=True,
                                             text=True, errors="replace", timeout=TIMEOUT)
                        if ref.returncode != 0:
                            results.append(("gegl " + name, [f"the CLI's reference render failed: {ref.stderr}"]))
                            continue
                if name == TECHNIQUES:
                    # The op of a technique past the first renders the
                    # effect, compiled when it first processes: uv in the
                    # top row of a 4×4 image.
                    op = ["shader:techniques-20000-T7"]
                    expect = "has 20000 techniques; only the first 256 become operations"
                    pixels = [0.125, 0.125, 0, 0.375, 0.125, 0, 0.625, 0.125, 0, 0.875, 0.125, 0]
                elif name in plugin_texture or name in BUDGET:
                    # An effect is an op of its own: shader:<stem>.
                    op = ["shader:" + os.path.splitext(name)[0]]
                    expect = plugin_texture.get(name, expect)
                elif name.endswith(".hlsl"):
                    op = ["shader:run", "file=" + os.path.join(folder, name)]
                else:
                    continue
                problems = []
                out_path = os.path.join(tmp, "out.ppm")
                try:
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    r = subprocess.run([gegl, case_src, "-o", out_path, "--"] + op,
                                       env=case_env, capture_output=True, text=True, errors="replace",
                                       timeout=timeout_for(name), preexec_fn=caps,
                                       stdin=subprocess.DEVNULL)
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
                    # (under the sanitizer shader:run's own compile of the 4 MiB
                    # file alone takes longer)
                    if cpu > START_CPU and timeout_for(name) == TIMEOUT:
                        problems.append(f"took {cpu:.1f} s of CPU (cap {START_CPU} s)")
                    if after.ru_maxrss * 1024 > START_RSS and not SANITIZED:
                        problems.append(f"peak memory {after.ru_maxrss // 1024} MiB (cap {START_RSS >> 20} MiB)")
                    if r.returncode < 0:
                        problems.append(f"killed by signal {-r.returncode}")
                    elif r.returncode != 0:
                        problems.append(f"exit status {r.returncode}: {r.stderr[-300:]}")
                    # The op warns once with the message the CLI prints
                    # (`gegl` keeps the C locale, in which GLib writes a
                    # '×' as '?').
                    if banded is not None:
                        # (other files of the folder warn as they register)
                        if op[0] + ":" in r.stderr:
                            problems.append(f"the op warned rendering in bands: {r.stderr[-300:]}")
                    elif expect not in r.stderr and expect.replace("×", "?") not in r.stderr:
                        problems.append(f"stderr lacks '{expect}': {r.stderr[-300:]}")
                    if not os.path.exists(out_path):
                        problems.append("no output image (the op passes its input through)")
                    elif pixels is not None:
                        got = ppm_top_row(out_path)
                        if not got or any(abs(a - b) > 1 / 255 for a, b in zip(got, pixels)):
                            problems.append(f"top row {got}, expected {pixels}")
                    elif banded is not None:
                        # The effect, not the input, and the CLI's pixels
                        # (both write 8 bits from the same floats; allow a
                        # step for the rounding of two writers).
                        with open(out_path, "rb") as f:
                            got = read_ppm(f.read())
                        with open(banded, "rb") as f:
                            want = read_ppm(f.read())
                        with open(case_src, "rb") as f:
                            source = read_ppm(f.read())
                        if got[:2] != want[:2] or max(abs(a - b) for a, b in zip(got[2], want[2])) > 1:
                            problems.append("the banded render differs from the CLI's")
                        if got == source:
                            problems.append("the input was passed through")
                    elif name in BUDGET:
                        # Passed through: the grey input, pixel for pixel.
                        with open(out_path, "rb") as f:
                            if read_ppm(f.read()) != (w, h, [128] * (3 * w * h)):
                                problems.append("the output is not the input passed through")
                    if "SECRET_TOKEN" in r.stderr or "root:" in r.stderr:
                        problems.append("a diagnostic quotes a file outside the folder")
                except subprocess.TimeoutExpired:
                    problems.append(f"timed out after {timeout_for(name)} s")
                if os.path.exists(out_path):
                    os.unlink(out_path)
                results.append(("gegl " + name, problems))
    print(f"1..{len(results)}")
    for k, (name, problems) in enumerate(results, 1):
        print(("ok" if not problems else "not ok") + f" {k} {name}")
        for p in problems:
            print("# " + p.replace("\n", "\n# "))
    return 1 if any(p for _, p in results) else 0


if __name__ == "__main__":
    sys.exit(main())
