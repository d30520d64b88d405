#!/usr/bin/env python3
"""Runs diagnostics cases: malformed shaders and the exact messages they get.

    run.py GEGL_SHADERS CASES_FILE...

A cases file holds any number of cases; text before the first case is a
comment.  A case is

    === NAME FILE [CHECK OPTIONS...]
    the shader source, written to FILE
    +++ OTHER_FILE            (optional: more files, e.g. for #include)
    its contents
    --- STATUS
    the expected output of `gegl-shaders check [OPTIONS] FILE`

Each case runs in an empty temporary folder, so the diagnostics name FILE
as written.  The output (stderr, then stdout) must equal the expected text
exactly, apart from trailing blank lines, and the exit status must be
STATUS.  Prints TAP: one line per case.
"""
import os
import shlex
import subprocess
import sys
import tempfile


def parse_cases(path):
    cases, case, section = [], None, None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f.read().split("\n"), 1):
            if line.startswith("=== "):
                words = shlex.split(line[4:])
                if len(words) < 2:
                    sys.exit(f"{path}:{number}: '=== NAME FILE [OPTIONS]' expected")
                case = {"name": words[0], "file": words[1], "args": words[2:],
                        "files": {words[1]: []}, "status": None, "expect": [],
                        "where": f"{path}:{number}"}
                section = case["files"][words[1]]
                cases.append(case)
            elif case is None:
                continue
            elif line.startswith("+++ ") and case["status"] is None:
                section = case["files"].setdefault(line[4:].strip(), [])
            elif line.startswith("--- ") and case["status"] is None:
                case["status"] = int(line[4:])
                section = case["expect"]
            else:
                section.append(line)
    for c in cases:
        if c["status"] is None:
            sys.exit(f"{c['where']}: case {c['name']} has no '--- STATUS' line")
    return cases


def trimmed(lines):
    text = "\n".join(lines)
    return text.rstrip("\n")


def run_case(cli, case):
    with tempfile.TemporaryDirectory(prefix="gs-diag-") as tmp:
        for name, lines in case["files"].items():
            path = os.path.join(tmp, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(trimmed(lines) + "\n")
        try:
            proc = subprocess.run([cli, "check", *case["args"], case["file"]], cwd=tmp,
                                  capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            return "timed out after 60 s"
    got = (proc.stderr + proc.stdout).rstrip("\n")
    want = trimmed(case["expect"])
    problems = []
    if proc.returncode != case["status"]:
        problems.append(f"exit status {proc.returncode}, expected {case['status']}")
    if got != want:
        problems.append("output differs:\n--- expected\n" + want + "\n--- got\n" + got)
    return "\n".join(problems)


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: run.py GEGL_SHADERS CASES_FILE...")
    cli = os.path.abspath(sys.argv[1])
    cases = [c for path in sys.argv[2:] for c in parse_cases(path)]
    print(f"1..{len(cases)}")
    failed = 0
    for number, case in enumerate(cases, 1):
        problem = run_case(cli, case)
        if problem:
            failed += 1
            print(f"not ok {number} - {case['name']} ({case['where']})")
            for line in problem.split("\n"):
                print("# " + line)
        else:
            print(f"ok {number} - {case['name']}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
