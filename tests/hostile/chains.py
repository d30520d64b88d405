#!/usr/bin/env python3
"""Deep chains of every recursive construct, fed to the CLI.

    chains.py GEGL_SHADERS [DEPTH]         run every kind (TAP)
    chains.py --print KIND DEPTH           print one source

Each kind nests or chains one construct DEPTH times (40,000 by default,
well past every limit and, before the limits, far past what an 8 MiB
stack survived).  `gegl-shaders check` runs under `ulimit -s 8192`
(8 MiB stack) and must end with exit status 1, no signal, and a located
error (file:line:col: error: …) carrying the kind's own message.  Kinds
whose message is None are parsed in loops (annotation values): they must
compile (exit 0), again without a signal.
"""
import os
import re
import resource
import subprocess
import sys
import tempfile

MAIN = ("float4 main(float2 uv : TEXCOORD0) : COLOR\n{\n"
        "  float x = 1; int i = 1; float4 v = 1;\n  %s\n  return x;\n}\n")
TECH = "technique T { pass { PixelShader = compile ps_3_0 main(); } }\n"


def body(stmt):
    return MAIN % stmt


# kind → (file name, source maker, expected message)
KINDS = {
    "not": ("t.hlsl", lambda n: body("x = " + "!" * n + "x;"), "prefix operators stacked too deeply"),
    "minus": ("t.hlsl", lambda n: body("x = " + "- " * n + "x;"), "prefix operators stacked too deeply"),
    "tilde": ("t.hlsl", lambda n: body("i = " + "~" * n + "i;"), "prefix operators stacked too deeply"),
    "preinc": ("t.hlsl", lambda n: body("x = " + "++ " * n + "x;"), "prefix operators stacked too deeply"),
    "cast": ("t.hlsl", lambda n: body("x = " + "(float)(int)" * (n // 2) + "x;"), "casts stacked too deeply"),
    "plus": ("t.hlsl", lambda n: body("x = " + "+".join(["x"] * n) + ";"), "chain of binary operators too long"),
    "shift": ("t.hlsl", lambda n: body("i = " + "<<".join(["i"] * n) + ";"), "chain of binary operators too long"),
    "assign": ("t.hlsl", lambda n: body("x = " * n + "1;"), "chain of assignments too long"),
    "comma": ("t.hlsl", lambda n: body("x = (" + ",".join(["x"] * n) + ");"), "comma expression too long"),
    "ternary-then": ("t.hlsl", lambda n: body("x = " + "x ? " * n + "x" + " : x" * n + ";"), "'?:' nested too deeply"),
    "ternary-else": ("t.hlsl", lambda n: body("x = " + "x ? x : " * n + "x;"), "'?:' nested too deeply"),
    "swizzle": ("t.hlsl", lambda n: body("v = v" + ".xyzw" * n + ";"), "too many swizzles, members, indices or postfix operators in a row"),
    "index": ("t.hlsl", lambda n: body("x = v" + "[0].xx" * n + ".x;"), "too many swizzles, members, indices or postfix operators in a row"),
    "paren": ("t.hlsl", lambda n: body("x = " + "(" * n + "x" + ")" * n + ";"), "expression nested too deeply"),
    "call": ("t.hlsl", lambda n: body("x = " + "abs(" * n + "x" + ")" * n + ";"), "expression nested too deeply"),
    "block": ("t.hlsl", lambda n: body("{" * n + "}" * n), "statements nested too deeply"),
    "else-if": ("t.hlsl", lambda n: body("if (x) x = 1; else " * n + "x = 2;"), "nested too deeply"),
    "initializer": ("t.hlsl", lambda n: "static float a[1] = " + "{" * n + "1" + "}" * n + ";\n" + body(""),
                    "initializer braces nested too deeply"),
    "typedef-array": ("t.hlsl", lambda n: "typedef float T0[1];\n"
                      + "".join("typedef T%d T%d[1];\n" % (k, k + 1) for k in range(n // 8))
                      + "static T%d g;\n" % (n // 8) + body(""), "type nested too deeply"),
    "struct-chain": ("t.hlsl", lambda n: "struct S0 { float a; };\n"
                     + "".join("struct S%d { S%d a; };\n" % (k + 1, k) for k in range(n // 8))
                     + "S%d g;\n" % (n // 8) + body(""), "type nested too deeply"),
    "struct-nest": ("t.hlsl", lambda n: "struct A0 " + "".join("{ struct A%d " % (k + 1) for k in range(n // 8))
                    + "{ float a; }" + " b; }" * (n // 8) + ";\n" + body(""),
                    "struct definitions nested too deeply"),
    "macro-arg": ("t.hlsl", lambda n: "#define F(a) a\n" + body("x = " + "F(" * n + "1" + ")" * n + ";"),
                  "macro arguments nested too deeply"),
    "if-paren": ("t.hlsl", lambda n: "#if " + "(" * n + "1" + ")" * n + "\n#endif\n" + body(""),
                 "#if expression nested too deeply"),
    "if-not": ("t.hlsl", lambda n: "#if " + "!" * n + "1\n#endif\n" + body(""), "#if expression nested too deeply"),
    "if-minus": ("t.hlsl", lambda n: "#if " + "- " * n + "1\n#endif\n" + body(""), "#if expression nested too deeply"),
    "if-ternary": ("t.hlsl", lambda n: "#if " + "1 ? " * n + "1" + " : 1" * n + "\n#endif\n" + body(""),
                   "#if expression nested too deeply"),
    "fx-width": ("t.fx", lambda n: "texture t { Width = " + "(" * n + "1" + ")" * n + "; Height = 1; };\n"
                 + body("") + TECH, "value nested too deeply"),
    "fx-width-sign": ("t.fx", lambda n: "texture t { Width = " + "- " * n + "1; Height = 1; };\n"
                      + body("") + TECH, "value nested too deeply"),
    "fx-annotation": ("t.fx", lambda n: "float a < float ui_min = " + "(" * n + "1" + ")" * n + "; > = 1;\n"
                      + body("") + TECH, None),
    "d3d9-call": ("t.asm", lambda n: "ps_3_0\ncall l0\nmov oC0, c0\nret\n"
                  + "".join("label l%d\ncall l%d\nret\n" % (k, k + 1) for k in range(20)) + "label l20\nret\n",
                  "calls nest deeper than"),
}

LOCATED = re.compile(r"^t\.(hlsl|fx|asm):\d+:\d+: error: ", re.M)


def limit_stack():
    resource.setrlimit(resource.RLIMIT_STACK, (8 << 20, 8 << 20))


def run(cli, depth):
    cli = os.path.abspath(cli)
    names = sorted(KINDS)
    print(f"1..{len(names)}")
    failed = 0
    for k, name in enumerate(names, 1):
        fname, make, message = KINDS[name]
        with tempfile.TemporaryDirectory(prefix="gs-chains-") as tmp:
            with open(os.path.join(tmp, fname), "w") as f:
                f.write(make(depth))
            try:
                proc = subprocess.run([cli, "check", fname], cwd=tmp, capture_output=True, text=True,
                                      timeout=120, preexec_fn=limit_stack)
                out = proc.stderr + proc.stdout
                problems = []
                if proc.returncode < 0:
                    problems.append(f"killed by signal {-proc.returncode}")
                elif proc.returncode != (0 if message is None else 1):
                    problems.append(f"exit status {proc.returncode}")
                first = out.split("\n", 1)[0]
                if message is None:
                    pass
                elif not LOCATED.match(first):
                    problems.append("first line is not a located error: " + first[:200])
                elif message not in first:
                    problems.append(f"first error does not say '{message}': " + first[:200])
            except subprocess.TimeoutExpired:
                problems = ["timed out after 120 s"]
        if problems:
            failed += 1
            print(f"not ok {k} {name}")
            for p in problems:
                print("# " + p)
        else:
            print(f"ok {k} {name}")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "--print":
        sys.stdout.write(KINDS[sys.argv[2]][1](int(sys.argv[3])))
        sys.exit(0)
    sys.exit(run(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40000))
