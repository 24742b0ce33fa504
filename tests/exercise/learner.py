#!/usr/bin/env python3
"""A learner's solution of the lesson's exercise in Python, standing for the
solutions in other languages that `posenc grade` must grade like the C one:
it reads PE, ROPE, DOT and ADD commands on standard input and prints one line
of numbers per command with 4 decimals, DOT built on its own rotation.

    python3 learner.py                     the right solution
    python3 learner.py --plant NAME[,NAME]  with mistakes of the lesson's list:
        element-index, exponent-k-over-d, rotation-sign, sin-cos-swapped,
        model-dim, odd-d, base, layout, position-offset
(tests/exercise_test.sh grades it both ways.)"""
import math
import sys

PLANT = set()
if len(sys.argv) == 3 and sys.argv[1] == "--plant":
    PLANT = set(sys.argv[2].split(","))
elif len(sys.argv) != 1:
    sys.exit("usage: learner.py [--plant NAME[,NAME...]]")

BASE = 100000.0 if "base" in PLANT else 10000.0


def angle(pos, k, d):
    """theta = pos / base^(2k / D)"""
    if "position-offset" in PLANT:
        pos += 1  # positions counted from 1
    if "model-dim" in PLANT:
        d = 768  # the model's width, not the vector's length
    e = k if "exponent-k-over-d" in PLANT else 2 * k
    return pos / BASE ** (e / d)


def sinusoid(pos, d):
    out = []
    for i in range(d):
        # the element index where the pair index belongs
        k = i if "element-index" in PLANT else i // 2
        t = angle(pos, k, d)
        even = i % 2 == 0
        if "sin-cos-swapped" in PLANT:
            even = not even
        out.append(math.sin(t) if even else math.cos(t))
    if "odd-d" in PLANT and d % 2:
        out.pop()  # the lone sine dropped
    return out


def rotate(pos, x):
    d = len(x)
    x = list(x)
    for k in range(d // 2):
        t = angle(pos, 2 * k if "element-index" in PLANT else k, d)
        if "rotation-sign" in PLANT:
            t = -t
        i, j = (k, k + d // 2) if "layout" in PLANT else (2 * k, 2 * k + 1)
        a, b = x[i], x[j]
        x[i] = a * math.cos(t) - b * math.sin(t)
        x[j] = a * math.sin(t) + b * math.cos(t)
    return x


def show(v):
    return " ".join("0.0000" if f"{f:.4f}" == "-0.0000" else f"{f:.4f}" for f in v)


for line in sys.stdin:
    w = line.split("#")[0].replace(",", " ").replace("[", " [ ").replace("]", " ] ").split()
    if not w:
        continue
    cmd = w[0].upper()
    if cmd == "PE":
        print(show(sinusoid(int(w[1]), int(w[2]))))
    elif cmd in ("ROPE", "ADD"):
        pos, x = int(w[1]), [float(v) for v in w[2:]]
        if cmd == "ROPE":
            print(show(rotate(pos, x)))
        else:
            print(show([a + b for a, b in zip(x, sinusoid(pos, len(x)))]))
    elif cmd == "DOT":
        m, n, rest = int(w[1]), int(w[2]), w[3:]
        if rest[0] == "[":
            close = rest.index("]")
            q, k = rest[1:close], rest[close + 2:-1]
        else:
            q, k = rest[: len(rest) // 2], rest[len(rest) // 2:]
        rq, rk = rotate(m, [float(v) for v in q]), rotate(n, [float(v) for v in k])
        print(show([sum(a * b for a, b in zip(rq, rk))]))
    else:
        print(f"learner.py: unknown command {w[0]}", file=sys.stderr)
