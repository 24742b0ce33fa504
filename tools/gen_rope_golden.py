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

With --mrope it writes the multimodal file instead (tests/data/mrope_golden.txt):
M-RoPE (Qwen2-VL's contiguous sections and Qwen3-VL's interleaved rule) and the
vision tower's 2D RoPE, each computed the way the Hugging Face modeling code
does it (transformers/models/qwen2_vl/modeling_qwen2_vl.py:
apply_multimodal_rotary_pos_emb, VisionRotaryEmbedding, rot_pos_emb;
qwen3_vl/modeling_qwen3_vl.py: apply_interleaved_mrope): the duplicated cos and
sin of length D are built per axis, split by mrope_section * 2 (or
interleaved), and applied with rotate_half, here at 60 digits, never through
posenc's pair-to-axis table.

    python3 tools/gen_rope_golden.py --mrope > tests/data/mrope_golden.txt
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


# ---- M-RoPE and vision 2D RoPE, the Hugging Face way (--mrope) ------------------

MROPE_MAGIC = "posenc-mrope-golden 1"


def rotate_half(x):
    h = len(x) // 2
    return [-v for v in x[h:]] + x[:h]


def hf_mrope_cos_sin(D, base, section, interleaved, pos3):
    """cos and sin of length D as Qwen2-VL / Qwen3-VL build them for one token."""
    inv = [f0(k, D, base) for k in range(D // 2)]
    freqs = [[mpf(p) * f for f in inv] for p in pos3]  # (3, D/2)
    if interleaved:
        # apply_interleaved_mrope: start from t, overwrite slice(offset, 3 s, 3)
        ft = list(freqs[0])
        for dim, offset in ((1, 1), (2, 2)):
            for i in range(offset, min(section[dim] * 3, D // 2), 3):
                ft[i] = freqs[dim][i]
        emb = ft + ft
        return [mpmath.cos(e) for e in emb], [mpmath.sin(e) for e in emb]
    # the rotary embedding duplicates (cat(freqs, freqs)) per axis, then
    # apply_multimodal_rotary_pos_emb splits by mrope_section * 2 and takes
    # chunk i from axis i % 3
    emb = [fr + fr for fr in freqs]
    chunks = section * 2
    cos, sin, start = [], [], 0
    for i, n in enumerate(chunks):
        a = i % 3
        cos += [mpmath.cos(e) for e in emb[a][start:start + n]]
        sin += [mpmath.sin(e) for e in emb[a][start:start + n]]
        start += n
    return cos, sin


def hf_vision_cos_sin(D, base, row, col):
    """VisionRotaryEmbedding(D/2) and rot_pos_emb for one patch at (row, col)."""
    dim = D // 2
    inv = [mpf(base) ** (-mpf(j) / dim) for j in range(0, dim, 2)]  # D/4 values
    rot = [mpf(row) * f for f in inv] + [mpf(col) * f for f in inv]  # D/2
    emb = rot + rot
    return [mpmath.cos(e) for e in emb], [mpmath.sin(e) for e in emb]


def apply_half(x, cos, sin, inverse):
    sgn = -1 if inverse else 1
    rh = rotate_half(x)
    return [x[i] * cos[i] + sgn * rh[i] * sin[i] for i in range(len(x))]


def to_layout(v, layout):
    """A half-layout vector in the interleaved layout: pair k at 2k, 2k + 1."""
    if layout == "half":
        return list(v)
    h = len(v) // 2
    out = [None] * len(v)
    for k in range(h):
        out[2 * k], out[2 * k + 1] = v[k], v[k + h]
    return out


def from_layout(v, layout):
    if layout == "half":
        return list(v)
    h = len(v) // 2
    return [v[2 * k] for k in range(h)] + [v[2 * k + 1] for k in range(h)]


# (name, kind, D, base, layout, rule, section, positions (t, h, w) or (row, col), inverse)
MROPE_CASES = [
    ("qwen2vl-text", "mrope", 128, 1000000.0, "half", "contiguous", [16, 24, 24], (7, 7, 7), 0),
    ("qwen2vl-image", "mrope", 128, 1000000.0, "half", "contiguous", [16, 24, 24], (5, 6, 7), 0),
    ("qwen2vl-video", "mrope", 128, 1000000.0, "half", "contiguous", [16, 24, 24],
     (1234, 40, 97), 1),
    ("qwen2vl-far", "mrope", 128, 1000000.0, "interleaved", "contiguous", [16, 24, 24],
     (2000000000, 1999999000, 1999999999), 0),
    ("small-contig", "mrope", 16, 10000.0, "half", "contiguous", [2, 3, 3], (3, 11, 19), 0),
    ("qwen3vl-image", "mrope", 128, 5000000.0, "half", "interleaved", [24, 20, 20],
     (9, 13, 21), 0),
    ("qwen3vl-inverse", "mrope", 128, 5000000.0, "interleaved", "interleaved", [24, 20, 20],
     (100000, 3, 65536), 1),
    ("small-interleaved", "mrope", 16, 10000.0, "half", "interleaved", [4, 2, 2], (2, 5, 8), 0),
    ("vision-80", "rope2d", 80, 10000.0, "half", "-", [0, 20, 20], (3, 5), 0),
    ("vision-80-inverse", "rope2d", 80, 10000.0, "half", "-", [0, 20, 20], (31, 0), 1),
    ("vision-16-interleaved", "rope2d", 16, 10000.0, "interleaved", "-", [0, 4, 4], (7, 2), 0),
    ("vision-64-far", "rope2d", 64, 10000.0, "half", "-", [0, 16, 16], (123456, 654321), 0),
]


def mrope_main():
    out = sys.stdout
    out.write(MROPE_MAGIC + "\n")
    out.write("# generated by tools/gen_rope_golden.py --mrope (mpmath, %d digits); do not edit\n"
              % mpmath.mp.dps)
    out.write("# case name kind D base layout rule s_t s_h s_w p0 p1 p2 inverse\n"
              "# x: the input (exact doubles); y: the rotated vector, nearest doubles\n")
    for name, kind, D, base, layout, rule, section, pos, inverse in MROPE_CASES:
        # inputs exactly representable: (i * 37 mod 17 - 8) / 8
        x = [mpf(((i * 37) % 17) - 8) / 8 for i in range(D)]
        if kind == "mrope":
            cos, sin = hf_mrope_cos_sin(D, base, section, rule == "interleaved", pos)
            p3 = pos
        else:
            cos, sin = hf_vision_cos_sin(D, base, pos[0], pos[1])
            p3 = (pos[0], pos[0], pos[1])
        y = to_layout(apply_half(from_layout(x, layout), cos, sin, inverse), layout)
        out.write("case %s %s %d %r %s %s %d %d %d %d %d %d %d\n"
                  % (name, kind, D, base, layout, rule, section[0], section[1], section[2],
                     p3[0], p3[1], p3[2], inverse))
        out.write("x " + " ".join(repr(float(v)) for v in x) + "\n")
        out.write("y " + " ".join(repr(nearest_double(v)) for v in y) + "\n")
    out.write("total %d\n" % len(MROPE_CASES))


if __name__ == "__main__":
    if sys.argv[1:] == ["--mrope"]:
        mrope_main()
    else:
        main()
