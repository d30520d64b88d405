#!/usr/bin/env python3
"""Copies the pixel-shader sections of vkd3d .shader_test files into a
fuzz corpus folder, one file per section: usage OUTDIR FILE..."""
import os
import sys

out = sys.argv[1]
count = 0
for path in sys.argv[2:]:
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    except OSError:
        continue
    current = None
    for line in lines + ["["]:
        if line.startswith("["):
            if current:
                name = "%s-%d.hlsl" % (os.path.basename(path), count)
                with open(os.path.join(out, name), "w") as f:
                    f.write("\n".join(current) + "\n")
                count += 1
            current = [] if line.startswith("[pixel shader") else None
        elif current is not None:
            current.append(line)
print("%d shaders extracted" % count, file=sys.stderr)
