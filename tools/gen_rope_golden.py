#!/usr/bin/env python3
"""Golden vectors for the RoPE scalings (tests/data/rope_golden.txt).

An independent evaluation of the published formulas at 60 significant digits
with mpmath, written from the papers and from the definitions in Hugging Face
transformers' modeling_rope_utils.py (default, linear, dynamic, yarn,
longrope, llama3), plus static NTK-aware scaling (bloc97's base stretch) and
per-pair frequency factors. The parameters are read from the model configs in
tests/data/*.json with Hugging Face's rules (written here again, separately
from src/config.c), converted to doubles exactly as a C program reads them,
and then used exactly (mpf of the double).

For each case the file holds the parameters (as exact doubles), the
attention factor, and every pair's inverse frequency as the double-double
hi lo (hi = the value rounded to double, lo = the rest rounded to double).

    python3 tools/gen_rope_golden.py > tests/data/rope_golden.txt
"""
import json
import math
import os
import sys

import mpmath
from mpmath import mpf

mpmath.mp.dps = 60
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "tests", "data")
MAGIC = "posenc-rope-golden 1"


def d2(x):
    """A parameter as C sees it: the double nearest the decimal text."""
    return float(x)


# ---- the formulas ---------------------------------------------------------------

def f0(k, d, base):
    """Plain RoPE: base^(-2k/d)."""
    return mpf(base) ** (-mpf(2 * k) / d)


def mscale(s, a):
    """YaRN's get_mscale: 0.1 a ln(s) + 1, and 1 when s <= 1."""
    s = mpf(s)
    return mpf(1) if s <= 1 else mpf("0.1") * mpf(a) * mpmath.log(s) + 1


def freqs_and_attn(p, cur_len):
    d, base, t = p["rotary_dim"], p["base"], p["type"]
    s, L = mpf(p["factor"]), mpf(p["original"])
    n = d // 2
    attn = mpf(1)
    if t == "default":
        f = [f0(k, d, base) for k in range(n)]
    elif t == "linear":
        f = [f0(k, d, base) / s for k in range(n)]
    elif t == "ntk":
        b2 = mpf(base) * s ** (mpf(d) / (d - 2))
        f = [b2 ** (-mpf(2 * k) / d) for k in range(n)]
    elif t == "dynamic":
        Lc = max(mpf(cur_len), L)
        b2 = mpf(base) * ((s * Lc / L) - (s - 1)) ** (mpf(d) / (d - 2))
        f = [b2 ** (-mpf(2 * k) / d) for k in range(n)]
    elif t == "yarn":
        def cdim(r):
            return (d * mpmath.log(L / (mpf(r) * 2 * mpmath.pi))) / (2 * mpmath.log(mpf(base)))
        lo, hi = cdim(p["beta_fast"]), cdim(p["beta_slow"])
        if p["truncate"]:
            lo, hi = mpmath.floor(lo), mpmath.ceil(hi)
        lo, hi = max(lo, mpf(0)), min(hi, mpf(d - 1))
        if lo == hi:
            hi += mpf(0.001)  # the double 0.001, as the C code adds it
        f = []
        for k in range(n):
            ramp = min(max((k - lo) / (hi - lo), mpf(0)), mpf(1))
            extra = f0(k, d, base)
            inter = extra / s
            f.append(inter * ramp + extra * (1 - ramp))
        if p["attention_factor"]:
            attn = mpf(p["attention_factor"])
        elif p["mscale"] and p["mscale_all_dim"]:
            attn = mscale(s, p["mscale"]) / mscale(s, p["mscale_all_dim"])
        else:
            attn = mscale(s, 1)
    elif t == "llama3":
        lff, hff = mpf(p["low_freq_factor"]), mpf(p["high_freq_factor"])
        f = []
        for k in range(n):
            inv = f0(k, d, base)
            wavelen = 2 * mpmath.pi / inv
            if wavelen < L / hff:
                f.append(inv)
            elif wavelen > L / lff:
                f.append(inv / s)
            else:
                g = (L / wavelen - lff) / (hff - lff)
                f.append((1 - g) * inv / s + g * inv)
    elif t == "longrope":
        ext = p["long_factor"] if cur_len > L else p["short_factor"]
        f = [f0(k, d, base) / mpf(ext[k]) for k in range(n)]
        if p["attention_factor"]:
            attn = mpf(p["attention_factor"])
        elif s <= 1:
            attn = mpf(1)
        else:
            attn = mpmath.sqrt(1 + mpmath.log(s) / mpmath.log(L))
    else:
        raise ValueError(t)
    if p["freq_factors"]:
        f = [f[k] / mpf(p["freq_factors"][k]) for k in range(n)]
    if t not in ("yarn", "longrope") and p["attention_factor"]:
        attn = mpf(p["attention_factor"])
    return f, attn


# ---- Hugging Face config rules (independent of src/config.c) ----------------------

def params_from_config(path):
    cfg = json.load(open(path))
    rs = cfg.get("rope_scaling") or {}
    base = d2(cfg.get("rope_theta", cfg.get("rotary_emb_base", 10000)))
    if "qk_rope_head_dim" in cfg:  # DeepSeek: the rope part of each head, interleaved
        head_dim = cfg["qk_rope_head_dim"]
        layout = "interleaved"
    else:
        head_dim = cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]
        layout = "half"
    prf = d2(cfg.get("partial_rotary_factor", cfg.get("rotary_pct", 1.0)))
    rotary_dim = int(head_dim * prf)
    t = rs.get("rope_type", rs.get("type", "default"))
    maxpos = cfg.get("max_position_embeddings", 0)
    p = dict(type=t, head_dim=head_dim, rotary_dim=rotary_dim, layout=layout, base=base,
             factor=d2(rs.get("factor", 1.0)), original=0.0, beta_fast=32.0, beta_slow=1.0,
             truncate=1, mscale=0.0, mscale_all_dim=0.0,
             attention_factor=d2(rs.get("attention_factor", 0.0)),
             low_freq_factor=0.0, high_freq_factor=0.0, short_factor=[], long_factor=[],
             freq_factors=[])
    if t == "dynamic":
        p["original"] = d2(maxpos)
    elif t == "yarn":
        p["original"] = d2(rs.get("original_max_position_embeddings", maxpos))
        if "factor" not in rs:
            p["factor"] = d2(maxpos) / p["original"]
        p["beta_fast"] = d2(rs.get("beta_fast", 32))
        p["beta_slow"] = d2(rs.get("beta_slow", 1))
        p["truncate"] = 1 if rs.get("truncate", True) else 0
        p["mscale"] = d2(rs.get("mscale", 0))
        p["mscale_all_dim"] = d2(rs.get("mscale_all_dim", 0))
    elif t == "llama3":
        p["original"] = d2(rs["original_max_position_embeddings"])
        p["low_freq_factor"] = d2(rs["low_freq_factor"])
        p["high_freq_factor"] = d2(rs["high_freq_factor"])
    elif t == "longrope":
        orig = rs.get("original_max_position_embeddings",
                      cfg.get("original_max_position_embeddings", maxpos))
        p["original"] = d2(orig)
        if "factor" not in rs:
            p["factor"] = d2(maxpos) / p["original"]
        p["short_factor"] = [d2(v) for v in rs["short_factor"]]
        p["long_factor"] = [d2(v) for v in rs["long_factor"]]
    return p


def synthetic(**kw):
    p = dict(type="default", head_dim=128, rotary_dim=128, layout="half", base=10000.0,
             factor=1.0, original=0.0, beta_fast=32.0, beta_slow=1.0, truncate=1, mscale=0.0,
             mscale_all_dim=0.0, attention_factor=0.0, low_freq_factor=0.0,
             high_freq_factor=0.0, short_factor=[], long_factor=[], freq_factors=[])
    p.update(kw)
    return p


# (name, source fixture or "-", cur_len, params or None)
CASES = [
    ("llama-2-7b", "llama-2-7b.json", 0, None),
    ("codellama-7b", "codellama-7b.json", 0, None),
    ("vicuna-7b-v1.5-16k", "vicuna-7b-v1.5-16k.json", 0, None),
    ("llama-3.1-8b", "llama-3.1-8b.json", 0, None),
    ("deepseek-v2-lite", "deepseek-v2-lite.json", 0, None),
    ("gpt-oss-20b", "gpt-oss-20b.json", 0, None),
    ("phi-4-mini-short", "phi-4-mini.json", 4096, None),
    ("phi-4-mini-long", "phi-4-mini.json", 4097, None),
    ("dynamic-below", "llama-2-7b-dynamic.json", 2048, None),
    ("dynamic-at", "llama-2-7b-dynamic.json", 4096, None),
    ("dynamic-above", "llama-2-7b-dynamic.json", 8192, None),
    ("dynamic-far", "llama-2-7b-dynamic.json", 1000000, None),
    ("gpt-neox-20b", "gpt-neox-20b.json", 0, None),
    ("ntk-static", "-", 0, synthetic(type="ntk", factor=4.0)),
    ("yarn-mscale-ratio", "-", 0,
     synthetic(type="yarn", head_dim=64, rotary_dim=64, factor=40.0, original=4096.0,
               mscale=1.0, mscale_all_dim=0.707)),
    ("yarn-given-attention", "-", 0,
     synthetic(type="yarn", factor=4.0, original=32768.0, base=1000000.0,
               attention_factor=1.25, beta_fast=16.0, beta_slow=2.0)),
    ("freq-factors", "-", 0,
     synthetic(type="linear", head_dim=8, rotary_dim=8, factor=2.0,
               freq_factors=[1.0, 1.5, 3.0, 0.25])),
]


def nearest_double(x):
    """x rounded to the nearest double (mpmath's float() need not round so)."""
    hi = float(x)
    for cand in (math.nextafter(hi, math.inf), math.nextafter(hi, -math.inf)):
        if abs(mpf(cand) - x) < abs(mpf(hi) - x):
            hi = cand
    return hi


def dd(x):
    hi = nearest_double(x)
    lo = nearest_double(x - mpf(hi))
    return hi, lo


def fmt_list(v):
    return " ".join([str(len(v))] + [repr(float(x)) for x in v])


def main():
    out = sys.stdout
    out.write(MAGIC + "\n")
    out.write("# generated by tools/gen_rope_golden.py (mpmath, %d digits); do not edit\n"
              % mpmath.mp.dps)
    out.write("# per case: parameters as exact doubles, the attention factor, and for\n"
              "# each pair k the inverse frequency as a double-double: k hi lo; then\n"
              "# rot pos k a*cos(pos f_k) a*sin(pos f_k)\n")
    for name, src, cur_len, p in CASES:
        if p is None:
            p = params_from_config(os.path.join(DATA, src))
        f, attn = freqs_and_attn(p, cur_len)
        out.write("case %s\n" % name)
        out.write("source %s\n" % src)
        for key in ("type", "layout"):
            out.write("%s %s\n" % (key, p[key]))
        for key in ("head_dim", "rotary_dim", "truncate"):
            out.write("%s %d\n" % (key, p[key]))
        for key in ("base", "factor", "original", "beta_fast", "beta_slow", "mscale",
                    "mscale_all_dim", "attention_factor", "low_freq_factor",
                    "high_freq_factor"):
            out.write("%s %r\n" % (key, float(p[key])))
        for key in ("short_factor", "long_factor", "freq_factors"):
            out.write("%s %s\n" % (key, fmt_list(p[key])))
        out.write("cur_len %d\n" % cur_len)
        out.write("attn %r %r\n" % dd(attn))
        out.write("freqs %d\n" % len(f))
        for k, x in enumerate(f):
            out.write("%d %r %r\n" % ((k,) + dd(x)))
        # a * cos(pos f), a * sin(pos f) for a few pairs and positions: what a
        # rotation of the unit vector along the pair's first element gives
        for pos in (1, 1000, 131071):
            for k in sorted({0, len(f) // 2, len(f) - 1}):
                ang = pos * f[k]
                out.write("rot %d %d %r %r\n" % (pos, k, nearest_double(attn * mpmath.cos(ang)),
                                                  nearest_double(attn * mpmath.sin(ang))))
        out.write("end\n")
    out.write("total %d\n" % len(CASES))


if __name__ == "__main__":
    main()
