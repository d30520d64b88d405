#!/usr/bin/env python3
"""Checks the rules of the source layout (README, "Layout").

- folders include only folders below them (the floors listed here);
- nothing under shaderlib/vm/ includes an IR header;
- cli/, plugin/, host/ and bench/ include no shaderlib header but the
  public shaderlib.h;
- no include cycle between files;
- no source file over 2,000 lines.

Includes are resolved the way the build resolves them: the including
file's folder first, then the folders meson puts on that target's path.
Prints every violation and exits 1 when there is one.
"""
import os
import re
import sys

TOP = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                      os.path.join(os.path.dirname(__file__), '..', '..'))
MAX_LINES = 2000

# Bottom up.  A folder may include its own files and those of any folder
# on a lower floor; folders on one floor may not include each other.
FLOORS = [
    ['shaderlib/include'],
    ['shaderlib/base'],
    ['shaderlib/vm'],
    ['shaderlib/ir', 'shaderlib/preprocess'],
    ['shaderlib/hlsl', 'shaderlib/asm/d3d9', 'shaderlib/asm/sm4'],
    ['shaderlib/api'],
    ['shaderlib/fx'],
    ['host'],
    ['plugin', 'cli', 'bench'],
]
# What each top-level folder's targets have on their include path.
INCLUDE_PATH = {
    'shaderlib': ['shaderlib', 'shaderlib/include'],
    'host': ['host', 'shaderlib/include'],
    'plugin': ['plugin', 'host', 'shaderlib/include'],
    'cli': ['cli', 'cli/shader-test', 'host', 'shaderlib/include'],
    'bench': ['bench', 'shaderlib/include', 'tests', 'tests/plugin'],
}
HOSTS = ('cli', 'plugin', 'host', 'bench')


def folder_of(rel):
    parts = rel.split('/')
    if parts[0] == 'shaderlib':
        return '/'.join(parts[:3] if parts[1] == 'asm' else parts[:2])
    if parts[0] == 'cli':
        return 'cli'
    return parts[0]


def floor_of(folder):
    for i, names in enumerate(FLOORS):
        if folder in names:
            return i
    return None


def main():
    problems = []
    sources = []
    for root in INCLUDE_PATH:
        for d, _, names in os.walk(os.path.join(TOP, root)):
            for n in names:
                if n.endswith(('.c', '.h', '.def')):
                    sources.append(os.path.relpath(os.path.join(d, n), TOP))
    graph = {}
    for rel in sorted(sources):
        with open(os.path.join(TOP, rel), encoding='utf-8', errors='replace') as f:
            text = f.read()
        n_lines = text.count('\n')
        if rel.endswith('.c') or rel.endswith('.h'):
            if n_lines > MAX_LINES:
                problems.append('%s: %d lines (limit %d)' % (rel, n_lines, MAX_LINES))
        targets = []
        for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
            name = m.group(1)
            here = os.path.normpath(os.path.join(os.path.dirname(rel), name))
            cands = [here] + [os.path.normpath(os.path.join(p, name))
                              for p in INCLUDE_PATH[rel.split('/')[0]]]
            hit = next((c for c in cands if os.path.isfile(os.path.join(TOP, c))), None)
            if hit is None:
                continue   # a system or generated header
            targets.append(hit)
        graph[rel] = targets
        src_folder = folder_of(rel)
        for t in targets:
            dst_folder = folder_of(t)
            if rel.startswith(HOSTS) and t.startswith('shaderlib/') \
               and t != 'shaderlib/include/shaderlib.h':
                problems.append('%s includes %s: hosts see only shaderlib.h' % (rel, t))
            if src_folder == 'shaderlib/vm' and dst_folder == 'shaderlib/ir':
                problems.append('%s includes %s: the VM knows nothing of the IR' % (rel, t))
            if dst_folder == src_folder:
                continue
            fs, fd = floor_of(src_folder), floor_of(dst_folder)
            if fs is None or fd is None:
                continue
            if fd >= fs:
                problems.append('%s includes %s: %s may include only folders below it'
                                % (rel, t, src_folder))
    # Cycles between files.
    state = {}
    stack = []

    def visit(u):
        state[u] = 1
        stack.append(u)
        for v in graph.get(u, []):
            if state.get(v) == 1:
                problems.append('include cycle: ' + ' -> '.join(stack[stack.index(v):] + [v]))
            elif v not in state:
                visit(v)
        stack.pop()
        state[u] = 2

    for u in sorted(graph):
        if u not in state:
            visit(u)
    for p in problems:
        print(p)
    print('%d files checked, %d problems' % (len(graph), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
