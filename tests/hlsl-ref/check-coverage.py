#!/usr/bin/env python3
"""Checks that tests/hlsl-ref exercises every HLSL intrinsic row.

Reads shaderlib/hlsl/hlsl_intrinsics.def and every *.shader_test in
tests/hlsl-ref.  A row is covered when
- a valid form calls it: a [pixel shader] block (or one whose `fail`
  holds only under a condition, so it compiles at some model) that
  calls the function, `name (`, or the method, `.Name (`;
- an invalid form calls it: a block marked plain `fail` (refused at
  every model the file runs) with a line that calls it and carries an
  `// expect-error: TEXT` comment, so the refusal's place and message
  are pinned (the runner checks them).
Rows of KIND RESHADE are ReShade FX functions, not in the HLSL
reference; tests/effects covers them, so they are skipped here.  A row whose
SM is NOT_PS has no valid call in a pixel shader; its valid form is a
call in a function the entry point never calls (fxc type-checks it and
accepts the shader), which this check sees as any compiling block.

Prints one line per row with what it lacks and exits 1 when a row lacks
anything, so a new row without tests fails the suite.  With --list it
prints every row with the blocks (file:line) that cover it.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, '..', '..'))

ERR = re.compile(r'// expect-error(\(\d+\))?:')
ROW = re.compile(r'^SL_INTRINSIC \((\w+), "(\w+)", (\d+), (\d+), (\w+), (\w+),')


def rows(path):
    out = []
    with open(path) as f:
        for line in f:
            m = ROW.match(line)
            if m:
                out.append({'id': m.group(1), 'name': m.group(2),
                            'kind': m.group(5), 'sm': m.group(6)})
    return out


def blocks(path):
    """Yields (header line, qualifiers, body lines) of each pixel shader."""
    cur = None
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if line.startswith('['):
                if cur:
                    yield cur
                cur = None
                m = re.match(r'^\[pixel shader(.*)\]\s*$', line)
                if m:
                    cur = (n, m.group(1).strip(), [])
            elif cur is not None:
                cur[2].append(line)
    if cur:
        yield cur


def calls(body, name, method):
    code = '\n'.join(re.sub(r'//.*', '', l) for l in body)
    if method:
        return re.search(r'\.\s*' + name + r'\s*[(<]', code) is not None
    return re.search(r'(?<![\w.])' + name + r'\s*\(', code) is not None


def main():
    table = rows(os.path.join(TOP, 'shaderlib', 'hlsl', 'hlsl_intrinsics.def'))
    files = sorted(f for f in os.listdir(HERE) if f.endswith('.shader_test'))
    cover = {r['id']: {'valid': [], 'invalid': []} for r in table}
    for fn in files:
        for line, quals, body in blocks(os.path.join(HERE, fn)):
            words = re.sub(r'\([^)]*\)', '', quals).split()
            plain_fail = 'fail' in words and re.search(r'\bfail\(', quals) is None
            where = '%s:%d' % (fn, line)
            for r in table:
                if r['kind'] == 'RESHADE':
                    continue
                if not calls(body, r['name'], r['kind'] == 'METHOD'):
                    continue
                if not plain_fail:
                    cover[r['id']]['valid'].append(where)
                elif any(ERR.search(l) and calls([l], r['name'],
                                                 r['kind'] == 'METHOD')
                         for l in body):
                    cover[r['id']]['invalid'].append(where)
    missing = 0
    for r in table:
        if r['kind'] == 'RESHADE':
            continue
        c = cover[r['id']]
        if '--list' in sys.argv:
            print('%-20s valid %-3d invalid %-3d %s' % (
                r['name'], len(c['valid']), len(c['invalid']),
                ' '.join(c['valid'][:2] + c['invalid'][:2])))
        lacks = [k for k in ('valid', 'invalid') if not c[k]]
        if lacks:
            missing += 1
            print('%s (%s): no %s form in tests/hlsl-ref' % (
                r['name'], r['id'], ' and no '.join(
                    'located invalid' if k == 'invalid' else k
                    for k in lacks)))
    if missing:
        print('%d intrinsic rows lack tests' % missing)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
