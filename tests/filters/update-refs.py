#!/usr/bin/env python3
"""Rewrite the stored references of the named filters (filter-test.py --update)."""
import os
import subprocess
import sys

cli, imgtool, srcdir, *stems = sys.argv[1:]
script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "filter-test.py")
for stem in stems:
    subprocess.run([sys.executable, script, cli, imgtool, srcdir, stem,
                    "--update"], check=True)
