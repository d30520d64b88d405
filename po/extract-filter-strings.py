#!/usr/bin/env python3
"""Extract the user-visible strings of shader files into a gettext template.

xgettext cannot read HLSL or shader assembly, so this reads what the plugin
shows from each filter -- the header block's title, description and label,
the parameters' labels (UIName, ui_label, #pragma parameter) and tooltips
(<summary>, UIHelp, ui_tooltip) -- and writes them as a POT file with
"#: file:line" references.  update-pot.sh merges it with xgettext's
template of the C sources.

    extract-filter-strings.py OUT.pot FILE...
"""
import os
import re
import sys

HEADER_KEYS = ("title", "description", "label")
ANNOTATIONS = re.compile(r'\b(UIName|UIHelp|ui_label|ui_tooltip)\s*=\s*"((?:[^"\\]|\\.)*)"')
SUMMARY = re.compile(r"<summary>(.*?)</summary>", re.S)
PRAGMA = re.compile(r'^\s*#pragma\s+parameter\s+\w+\s+"([^"]*)"')


def header_strings(lines):
    """Header keys, following the plugin's rule for continuation lines."""
    found = []
    last = None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if not line.startswith("//") or line.startswith("///"):
            break
        body = line[2:]
        if body[:2].strip() == "" and len(body) >= 2 and last is not None:
            more = body.strip()
            if more:
                found[last] = (found[last][0] + " " + more, found[last][1])
            continue
        last = None
        m = re.match(r"\s*([A-Za-z][\w-]*):(.*)$", body)
        if m and m.group(1).lower() in HEADER_KEYS and m.group(2).strip():
            found.append((m.group(2).strip(), number))
            last = len(found) - 1
    return found


def body_strings(lines):
    found = []
    doc = []
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("///"):
            doc.append((stripped[3:], number))
            continue
        if doc:
            text = " ".join(part for part, _ in doc)
            for m in SUMMARY.finditer(text):
                summary = " ".join(m.group(1).split())
                if summary:
                    found.append((summary, doc[0][1]))
            doc = []
        for m in ANNOTATIONS.finditer(line):
            if m.group(2):
                found.append((m.group(2).encode().decode("unicode_escape"), number))
        m = PRAGMA.match(line)
        if m and m.group(1):
            found.append((m.group(1), number))
    return found


def quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    out, paths = sys.argv[1], sys.argv[2:]
    entries = {}   # msgid -> list of references, in first-seen order
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        ref = os.path.relpath(path).replace(os.sep, "/")
        for text, number in header_strings(lines) + body_strings(lines):
            entries.setdefault(text, []).append(f"{ref}:{number}")
    with open(out, "w", encoding="utf-8") as f:
        f.write('msgid ""\nmsgstr ""\n'
                '"Content-Type: text/plain; charset=UTF-8\\n"\n'
                '"Content-Transfer-Encoding: 8bit\\n"\n\n')
        for text, refs in entries.items():
            f.write("#: " + " ".join(refs) + "\n")
            f.write(f"msgid {quote(text)}\nmsgstr \"\"\n\n")


if __name__ == "__main__":
    main()
