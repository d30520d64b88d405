#!/usr/bin/env python3
"""GIMP starts with the hostile folder as its filter folder.

    gimp_console.py MODULE [GIMP_CONSOLE]

Builds the folder hostile.py builds (deep chains, FIFOs, a sparse 2 GB
include, 4 MiB of straight-line code, an effect of 20,000 techniques…),
installs MODULE (gegl-shaders.so) in a private GEGL plug-in folder of a
fresh profile (HOME and the XDG folders in a temporary folder, so the
user's own GIMP is untouched), points GEGL_SHADERS_PATH at the folder and
starts gimp-console headless, quitting at once from a batch command.  GIMP
registers every file of the folder at start-up; it must exit 0, without a
signal, within TIMEOUT seconds of wall time, CPU_CAP seconds of CPU and
RSS_CAP of memory, and say which effect had too many techniques (the proof
that the module did register the folder).  Prints TAP; without
gimp-console (or its script interpreter) the one case is skipped, saying
why, and so it is under the sanitizer pass (see main()).
"""
import os
import resource
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile  # noqa: E402

TIMEOUT = 300
# GIMP itself takes a few seconds of CPU to start; the folder holds about
# forty files, the 4 MiB one the dearest (about two seconds to refuse).
CPU_CAP = 60.0
RSS_CAP = 2 << 30
MEMORY = 6 << 30


def caps():
    if not hostile.SANITIZED:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def main():
    module = os.path.abspath(sys.argv[1])
    gimp = sys.argv[2] if len(sys.argv) > 2 else shutil.which("gimp-console")
    if not gimp or not os.access(gimp, os.X_OK):
        print("1..0 # SKIP gimp-console is not installed")
        return 0
    if hostile.SANITIZED:
        # The sanitizer pass preloads ASan into every process, and GIMP
        # starts its plug-ins as processes of their own: a start then takes
        # minutes.  The module's own code runs under ASan in hostile-files
        # (through `gegl`, which registers the same folder); this test runs
        # in the plain pass.
        print("1..0 # SKIP under AddressSanitizer (GIMP's plug-in processes inherit the preload)")
        return 0
    with tempfile.TemporaryDirectory(prefix="gs-gimp-console-") as tmp:
        folder = os.path.join(tmp, "filters")
        os.mkdir(folder)
        hostile.build(folder)
        home = os.path.join(tmp, "home")
        env = {k: v for k, v in os.environ.items() if k not in ("GEGL_PATH", "DISPLAY")}
        env.update(HOME=home, XDG_DATA_HOME=os.path.join(home, ".local", "share"),
                   XDG_CONFIG_HOME=os.path.join(home, ".config"),
                   XDG_CACHE_HOME=os.path.join(home, ".cache"),
                   GIMP2_DIRECTORY=os.path.join(tmp, "profile"),
                   GEGL_SHADERS_PATH=folder, LC_ALL="C.UTF-8", LANGUAGE="C")
        plugins = os.path.join(env["XDG_DATA_HOME"], "gegl-0.4", "plug-ins")
        os.makedirs(plugins)
        os.makedirs(env["GIMP2_DIRECTORY"])
        shutil.copy(module, plugins)
        problems = []
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            r = subprocess.run([gimp, "-i", "-d", "-f", "--batch-interpreter=plug-in-script-fu-eval",
                                "-b", "(gimp-quit 0)"],
                               env=env, cwd=tmp, capture_output=True, text=True, errors="replace",
                               timeout=TIMEOUT, preexec_fn=caps, stdin=subprocess.DEVNULL)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            out = r.stderr + r.stdout
            cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            print(f"# gimp-console: exit {r.returncode}, {cpu:.1f} s of CPU, "
                  f"peak {after.ru_maxrss // 1024} MiB")
            if r.returncode < 0:
                problems.append(f"killed by signal {-r.returncode}")
            elif r.returncode != 0:
                problems.append(f"exit status {r.returncode}: {out[-500:]}")
            if cpu > CPU_CAP:
                problems.append(f"took {cpu:.1f} s of CPU (cap {CPU_CAP} s)")
            if after.ru_maxrss * 1024 > RSS_CAP and not hostile.SANITIZED:
                problems.append(f"peak memory {after.ru_maxrss // 1024} MiB (cap {RSS_CAP >> 20} MiB)")
            if "techniques-20000.fx' has 20000 techniques" not in out:
                problems.append("no warning about the 20,000-technique effect (was the module loaded?): "
                                + out[-500:])
            if "SECRET_TOKEN" in out or "root:" in out:
                problems.append("a message quotes a file outside the folder")
        except subprocess.TimeoutExpired:
            problems.append(f"timed out after {TIMEOUT} s")
    print("1..1")
    print(("ok" if not problems else "not ok") + " 1 gimp-console starts with the hostile folder")
    for p in problems:
        print("# " + p.replace("\n", "\n# "))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
