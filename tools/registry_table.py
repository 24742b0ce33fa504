#!/usr/bin/env python3
"""registry_table: the table of docs/MODELS.md's "The registry" section,
written from the program's own listing (`posenc --models`), so that the
document cannot drift from the registry.

    tools/registry_table.py            rewrite the table in docs/MODELS.md
    tools/registry_table.py --check    exit 1 (and say so) when it differs

A row per model type: the scheme (with "or alibi" where a key selects ALiBi,
"refused" where posenc refuses the family by name), the pair layout, and the
code the entry follows. Needs build/posenc (or POSENC_PROGRAM); the listing
needs the program's config reader (JSON=1)."""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DOC = os.path.join(ROOT, "docs", "MODELS.md")
HEADER = "| model_type | scheme | layout | source (file and lines) |"


def rows(program):
    out = subprocess.run([program, "--models"], capture_output=True, text=True,
                         check=True).stdout
    table = [HEADER, "| --- | --- | --- | --- |"]
    for line in out.splitlines():
        m = re.match(r"(\S+) (.*?) source=(.*)$", line)
        if not m:
            raise SystemExit(f"registry_table: unexpected line: {line!r}")
        f = dict(re.findall(r"(\w+)=(\S+)", m.group(2)))
        scheme = f["scheme"] + (f" or {f['or']}" if "or" in f else "")
        if f.get("supported") == "no":
            scheme += " (refused)"
        src = m.group(3).replace("|", "\\|")
        table.append(f"| `{m.group(1)}` | {scheme} | {f['layout']} | {src} |")
    return table


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    program = os.environ.get("POSENC_PROGRAM") or os.path.join(ROOT, "build", "posenc")
    with open(DOC) as f:
        lines = f.read().split("\n")
    start = lines.index(HEADER)
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    new = lines[:start] + rows(program) + lines[end:]
    if "--check" in argv:
        if new != lines:
            print("registry_table: docs/MODELS.md's registry table differs from posenc --models "
                  "(run tools/registry_table.py)")
            return 1
        print(f"registry_table: docs/MODELS.md lists the {len(rows(program)) - 2} registry "
              "entries")
        return 0
    with open(DOC, "w") as f:
        f.write("\n".join(new))
    return 0


if __name__ == "__main__":
    sys.exit(main())
