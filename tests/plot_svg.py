#!/usr/bin/env python3
"""Reads an SVG written by `posenc plot` as XML and counts what it drew.

    plot_svg.py cells FILE        number of heatmap cells (solid-filled paths)
    plot_svg.py curves MIN FILE   points of every stroked path with >= MIN points
                                  (Cairo drops points on a straight run)
    plot_svg.py markers FILE      number of filled dots (paths made of arcs)

Glyphs (paths inside <symbol>) and gradient fills are not cells. Exits 1 if
the file is not well-formed XML."""
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def paths(root):
    # every <path> that is not a glyph outline (those live in <symbol>)
    glyphs = {id(p) for s in root.iter(NS + "symbol") for p in s.iter(NS + "path")}
    return [p for p in root.iter(NS + "path") if id(p) not in glyphs]


def main():
    mode, name = sys.argv[1], sys.argv[-1]
    try:
        root = ET.parse(name).getroot()
    except ET.ParseError as e:
        print("not XML:", e)
        return 1
    if mode == "cells":
        n = sum(1 for p in paths(root) if "fill:rgb(" in p.get("style", ""))
        print(n)
    elif mode == "markers":
        n = sum(1 for p in paths(root)
                if "fill:rgb(" in p.get("style", "") and "C" in p.get("d", ""))
        print(n)
    else:
        least = int(sys.argv[2])
        counts = []
        for p in paths(root):
            style = p.get("style", "")
            if "fill:none" not in style:
                continue
            pts = len(re.findall(r"[ML]", p.get("d", "")))
            if pts >= least:
                counts.append(pts)
        print(" ".join(str(c) for c in counts))
    return 0


sys.exit(main())
