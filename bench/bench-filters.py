#!/usr/bin/env python3
"""Shipped filters against the native GEGL ops doing comparable work.

Each pair runs as its own process (one op per process, so a process's peak
resident memory is that op's), alternating shader op and native op, on an
in-memory R'G'B'A float image (gegl:plasma rendered before timing) whose
result goes into a GeglBuffer: only process() is timed.  Prints, per image
size, wall and CPU seconds (best of RUNS), the wall ratio shader/native and
the ratio of peak memory, followed by the command that reproduces the
table.  A benchmark, not a test: nothing is asserted.

    bench/bench-filters.py MODULE_DIR [--sizes 3,24] [--runs 3] [--only NAME,...]
                           [--filters DIR]

MODULE_DIR holds gegl-shaders.so (e.g. build/plugin); GEGL's own modules
are taken from pkg-config's pluginsdir, the filters from the checkout's
filters/ (GEGL_SHADERS_PATH) unless --filters names another folder (to
compare a changed filter with the shipped one).  Sizes are megapixels (3 → 2000×1500, 24 →
6000×4000).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)

# (row label, shader op and settings, native op and settings).  Settings
# are chosen to do comparable work: the same radius or standard deviation,
# the same block size, default looks otherwise.
PAIRS = [
    ('gaussian-blur σ=10', 'shader:gaussian-blur std-dev=10',
     'gegl:gaussian-blur std-dev-x=10 std-dev-y=10'),
    ('gaussian-blur σ=3', 'shader:gaussian-blur std-dev=3',
     'gegl:gaussian-blur std-dev-x=3 std-dev-y=3'),
    ('box-blur r=8', 'shader:box-blur radius=8', 'gegl:box-blur radius=8'),
    ('pixelate 16', 'shader:pixelate block-size=16', 'gegl:pixelize size-x=16 size-y=16'),
    ('glow / bloom', 'shader:glow', 'gegl:bloom'),
    ('unsharp-mask r=3', 'shader:unsharp-mask radius=3', 'gegl:unsharp-mask std-dev=3'),
    ('normal-map', 'shader:normal-map', 'gegl:normal-map'),
    ('oil-paint', 'shader:oil-paint', 'gegl:oilify'),
    ('bilateral', 'shader:bilateral', 'gegl:bilateral-filter'),
    ('median', 'shader:median', 'gegl:median-blur'),
    ('emboss', 'shader:emboss', 'gegl:emboss'),
    ('sobel-edges', 'shader:sobel-edges', 'gegl:edge-sobel'),
    ('toon / cartoon', 'shader:toon', 'gegl:cartoon'),
    ('halftone / newsprint', 'shader:halftone', 'gegl:newsprint'),
    ('dither', 'shader:dither', 'gegl:dither'),
    ('sepia-tone', 'shader:sepia-tone', 'gegl:sepia'),
    ('vignette', 'shader:vignette', 'gegl:vignette'),
    ('ripple', 'shader:ripple', 'gegl:ripple'),
    ('polar-coordinates', 'shader:polar-coordinates', 'gegl:polar-coordinates'),
    ('swirl / whirl-pinch', 'shader:swirl', 'gegl:whirl-pinch'),
    ('pinch / whirl-pinch', 'shader:pinch', 'gegl:whirl-pinch whirl=0 pinch=0.5'),
    ('kaleidoscope / mirrors', 'shader:kaleidoscope', 'gegl:mirrors'),
    ('lens-distortion', 'shader:lens-distortion', 'gegl:lens-distortion main=20'),
    ('posterize', 'shader:posterize', 'gegl:posterize'),
    ('levels', 'shader:levels', 'gegl:levels'),
    ('threshold', 'shader:threshold', 'gegl:threshold'),
    ('channel-mixer', 'shader:channel-mixer', 'gegl:channel-mixer'),
    ('hue-rotate / hue-chroma', 'shader:hue-rotate angle=60', 'gegl:hue-chroma hue=60'),
]

SIZES = {3: (2000, 1500), 24: (6000, 4000)}
# GEGL's bindings come with the system's Python (python3-gi), which may not
# be the python3 first on PATH.
PYTHON = '/usr/bin/python3' if os.path.exists('/usr/bin/python3') else sys.executable

CHILD = r'''
import sys, time, resource, gi
gi.require_version('Gegl', '0.4')
from gi.repository import Gegl
Gegl.config().set_property('application-license', 'GPL3')
Gegl.init(None)
W, H = int(sys.argv[1]), int(sys.argv[2])
spec = sys.argv[3].split()
fmt = "R'G'B'A float"
src = Gegl.Node()
p = src.create_child('gegl:plasma')
p.set_property('width', W); p.set_property('height', H); p.set_property('seed', 7)
inbuf = Gegl.Buffer.new(fmt, 0, 0, W, H)
wb = src.create_child('gegl:write-buffer'); wb.set_property('buffer', inbuf)
p.link(wb); wb.process()
g = Gegl.Node()
s = g.create_child('gegl:buffer-source'); s.set_property('buffer', inbuf)
op = g.create_child(spec[0])
if op is None or op.get_operation() is None:
    print('no operation %s' % spec[0]); sys.exit(2)
for kv in spec[1:]:
    k, v = kv.split('=', 1)
    ps = op.find_property(k)
    if ps is None:
        print('no property %s on %s' % (k, spec[0])); sys.exit(2)
    t = ps.value_type.name
    if t in ('gint', 'guint'):
        op.set_property(k, int(v))
    elif t == 'gboolean':
        op.set_property(k, v.lower() in ('1', 'true', 'yes'))
    elif t in ('gdouble', 'gfloat'):
        op.set_property(k, float(v))
    else:
        op.set_property(k, v)
outbuf = Gegl.Buffer.new(fmt, 0, 0, W, H)
w = g.create_child('gegl:write-buffer'); w.set_property('buffer', outbuf)
s.link(op); op.link(w)
def hwm():
    with open('/proc/self/status') as f:
        for l in f:
            if l.startswith('VmHWM:'):
                return int(l.split()[1]) / 1024.0
    return 0.0
# The peak of the process so far is the plasma render's; reset it, so the
# peak read after process() is the op's (with the buffers it runs on).
try:
    with open('/proc/self/clear_refs', 'w') as f:
        f.write('5')
except OSError:
    pass
c0 = resource.getrusage(resource.RUSAGE_SELF); t0 = time.perf_counter()
w.process()
t1 = time.perf_counter(); c1 = resource.getrusage(resource.RUSAGE_SELF)
cpu = (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)
print('OPTIME %.4f %.4f %.1f' % (t1 - t0, cpu, hwm()))
'''


def module_path(module_dir):
    """GEGL_PATH replaces GEGL's module path: a folder with both."""
    d = tempfile.mkdtemp(prefix='bench-filters-')
    so = os.path.join(os.path.abspath(module_dir), 'gegl-shaders.so')
    if not os.path.exists(so):
        sys.exit('no gegl-shaders.so in %s' % module_dir)
    os.symlink(so, os.path.join(d, 'gegl-shaders.so'))
    sysdir = subprocess.run(['pkg-config', '--variable=pluginsdir', 'gegl-0.4'],
                            capture_output=True, text=True, check=True).stdout.strip()
    for name in os.listdir(sysdir):
        os.symlink(os.path.join(sysdir, name), os.path.join(d, name))
    return d


def run_once(env, size, spec):
    """(wall, cpu, peak MiB) of one op in a process of its own."""
    w, h = SIZES[size]
    # In the module folder, a temporary one: GEGL 0.4.42 takes
    # GEGL_SWAP=RAM for a folder name and creates it in the working
    # directory.
    proc = subprocess.Popen([PYTHON, '-c', CHILD, str(w), str(h), spec],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, cwd=env['GEGL_PATH'])
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    line = [l for l in out.splitlines() if l.startswith('OPTIME')]
    if proc.returncode != 0 or not line:
        return None
    wall, cpu, peak = (float(x) for x in line[0].split()[1:4])
    # Without a resettable peak (not Linux), the process's own.
    return wall, cpu, peak if peak > 0 else usage.ru_maxrss / 1024.0


def best(results):
    ok = [r for r in results if r]
    if not ok:
        return None
    return (min(r[0] for r in ok), min(r[1] for r in ok), max(r[2] for r in ok))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('module_dir')
    ap.add_argument('--sizes', default='3,24')
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--only', default='')
    ap.add_argument('--filters', default=os.path.join(TOP, 'filters'),
                    help='filter folder (default: the checkout\'s filters/)')
    args = ap.parse_args()
    env = dict(os.environ)
    gp = module_path(args.module_dir)
    env['GEGL_PATH'] = gp
    env['GEGL_SHADERS_PATH'] = os.path.abspath(args.filters)
    env['GEGL_SWAP'] = 'RAM'
    only = [o for o in args.only.split(',') if o]
    pairs = [p for p in PAIRS if not only or any(o in p[0] for o in only)]
    try:
        for size in (int(s) for s in args.sizes.split(',')):
            w, h = SIZES[size]
            print('%d×%d (%d MP), best of %d, one op per process, %s' %
                  (w, h, size, args.runs, 'GEGL_THREADS=' + env.get('GEGL_THREADS', 'default')))
            print('%-26s %9s %9s %9s %9s %7s %8s %8s %6s' %
                  ('filter', 'shader s', 'cpu s', 'native s', 'cpu s', 'wall ×',
                   'MiB', 'MiB nat', 'mem ×'))
            for label, shader, native in pairs:
                rs, rn = [], []
                for _ in range(args.runs):
                    rs.append(run_once(env, size, shader))
                    rn.append(run_once(env, size, native))
                bs, bn = best(rs), best(rn)
                if not bs or not bn:
                    print('%-26s %s' % (label, 'failed: ' + (shader if not bs else native)))
                    continue
                print('%-26s %9.3f %9.3f %9.3f %9.3f %7.2f %8.0f %8.0f %6.2f' %
                      (label, bs[0], bs[1], bn[0], bn[1], bs[0] / bn[0], bs[2], bn[2],
                       bs[2] / bn[2]))
                sys.stdout.flush()
            print()
    finally:
        shutil.rmtree(gp, ignore_errors=True)
    print('reproduce: bench/bench-filters.py %s --sizes %s --runs %d%s%s' %
          (args.module_dir, args.sizes, args.runs,
           ' --only ' + args.only if args.only else '',
           ' --filters ' + args.filters if args.filters != os.path.join(TOP, 'filters') else ''))


if __name__ == '__main__':
    main()
