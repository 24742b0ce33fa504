#!/usr/bin/env python3
"""Golden vectors for the RoPE scalings (tests/data/rope_golden.txt).

An independent evaluation of the published formulas at 60 significant digits
with mpmath, written from the papers and from the definitions in Hugging Face
transformers' modeling_rope_utils.py (default, linear, dynamic, yarn,
longrope, llama3, proportional), plus static NTK-aware scaling (bloc97's base stretch) and
per-pair frequency factors. The parameters are read from the model configs in
tests/data/*.json with Hugging Face's rules (written here again, separately
from src/config/config.c), converted to doubles exactly as a C program reads them,
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

With --models it writes tests/data/model_golden.txt instead: every layer of
every model fixture in tests/data/models/, read by each family's rules as the
research notes found them in the modeling code (see models_main below).

    python3 tools/gen_rope_golden.py --models > tests/data/model_golden.txt
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
    elif t == "proportional":
        # Gemma 4 (modeling_rope_utils.py _compute_proportional_rope_parameters):
        # int(p * d // 2) pairs with base^(-2k/d) / factor, the exponent over
        # the whole d; the other pairs frequency 0. p * d rounded once in
        # double, as Python does.
        n_rot = int(math.floor(float(p["partial_rotary_factor"]) * d / 2))
        f = [f0(k, d, base) / s if k < n_rot else mpf(0) for k in range(n)]
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
        f = [f[k] / mpf(p["freq_factors"][k]) for k in range(n)]  # 0 stays 0
    if t not in ("yarn", "longrope") and p["attention_factor"]:
        attn = mpf(p["attention_factor"])
    return f, attn


# ---- Hugging Face config rules (independent of src/config/config.c) ----------------------

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
    # Gemma 4's full-attention layers: global_head_dim 512, p 0.25, base 1e6
    ("gemma4-proportional", "-", 0,
     synthetic(type="proportional", head_dim=512, rotary_dim=512, base=1000000.0,
               partial_rotary_factor=0.25)),
    # a factor and a p whose p d / 2 is not an integer (floor(19.2) = 19 pairs)
    ("proportional-floor", "-", 0,
     synthetic(type="proportional", head_dim=128, rotary_dim=128, factor=2.0,
               partial_rotary_factor=0.3)),
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
        if p["type"] == "proportional":
            out.write("partial_rotary_factor %r\n" % float(p["partial_rotary_factor"]))
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
            ks = {0, len(f) // 2, len(f) - 1}
            if p["type"] == "proportional":  # the last rotated pair and the first at 0
                ks |= {k for k in range(1, len(f)) if f[k] == 0 and f[k - 1] != 0}
                ks |= {k - 1 for k in range(1, len(f)) if f[k] == 0 and f[k - 1] != 0}
            for k in sorted(ks):
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



# ---- models (issue 13): every layer of a model fixture, by its family's code ------
#
# python3 tools/gen_rope_golden.py --models > tests/data/model_golden.txt
#
# The facts below are read from the research notes on each family's modeling
# code (cited per family in src/config/config_families_table.h and docs/MODELS.md), written
# here again independently of src/config/config_model.c: which layers rotate, the
# layout, the rotated part, the base and which layer type takes the scaling,
# ALiBi slopes, absolute tables, T5 buckets and the query scalings, with the
# frequencies and factors evaluated in mpmath.

MODEL_MAGIC = "posenc-model-golden 1"
MODELS_DIR = os.path.join(DATA, "models")


def _get(c, *keys, default=None):
    for k in keys:
        if c.get(k) is not None:
            return c[k]
    return default


def _rope_params(c, blk, head_dim, rotary_dim, layout, base, maxpos, top_orig, yarn_is_longrope=False):
    """One RoPE parameter set from a scaling block blk (or None), as Hugging
    Face's rope utils read it (modeling_rope_utils.py)."""
    p = synthetic(head_dim=head_dim, rotary_dim=rotary_dim, layout=layout, base=d2(base))
    if not blk:
        return p
    t = blk.get("rope_type", blk.get("type", "default"))
    if yarn_is_longrope and t in ("su", "yarn"):
        t = "longrope"
    p["type"] = t
    p["factor"] = d2(blk.get("factor", 1.0))
    if t == "proportional":  # its own p, the whole head rotated (zeros past p d / 2)
        p["partial_rotary_factor"] = d2(blk.get("partial_rotary_factor", 1.0))
    p["attention_factor"] = d2(blk.get("attention_factor", 0.0))
    orig = blk.get("original_max_position_embeddings")
    if t == "dynamic":
        p["original"] = d2(maxpos)
    elif t == "yarn":
        p["original"] = d2(orig if orig is not None else maxpos)
        if "factor" not in blk:
            p["factor"] = d2(maxpos) / p["original"]
        p["beta_fast"] = d2(blk.get("beta_fast") or 32)
        p["beta_slow"] = d2(blk.get("beta_slow") or 1)
        p["truncate"] = 1 if blk.get("truncate", True) else 0
        p["mscale"] = d2(blk.get("mscale", 0))
        p["mscale_all_dim"] = d2(blk.get("mscale_all_dim", 0))
    elif t == "llama3":
        p["original"] = d2(orig)
        p["low_freq_factor"] = d2(blk["low_freq_factor"])
        p["high_freq_factor"] = d2(blk["high_freq_factor"])
    elif t == "longrope":
        p["original"] = d2(orig if orig is not None else (top_orig if top_orig is not None else maxpos))
        if "factor" not in blk:
            p["factor"] = d2(maxpos) / p["original"]
        p["short_factor"] = [d2(v) for v in blk["short_factor"]]
        p["long_factor"] = [d2(v) for v in blk["long_factor"]]
    return p


def _llama3_step_freqs(p):
    """low_freq_factor == high_freq_factor: rope_utils L553 keeps inv where the
    wavelength is at most original / low_freq_factor and divides it by factor
    beyond; the blend (L555-558) is empty."""
    d, n = p["rotary_dim"], p["rotary_dim"] // 2
    L, lf, s = mpf(p["original"]), mpf(p["low_freq_factor"]), mpf(p["factor"])
    out = []
    for k in range(n):
        inv = f0(k, d, p["base"])
        out.append(inv / s if 2 * mpmath.pi / inv > L / lf else inv)
    return out, mpf(1)


# family: (layout, base key or None (fixed 10000), default base, rotary rule, rule for layers)
ROPE_FAMILIES = {
    "llama": ("half", "rope_theta", 10000.0), "mistral": ("half", "rope_theta", None),
    "mixtral": ("half", "rope_theta", None), "qwen2": ("half", "rope_theta", None),
    "qwen3": ("half", "rope_theta", None), "gemma2": ("half", "rope_theta", 10000.0),
    "gpt_oss": ("half", "rope_theta", None), "cohere": ("interleaved", "rope_theta", None),
    "glm4": ("interleaved", "rope_theta", None), "glm4_moe": ("half", "rope_theta", 10000.0),
    "phi": ("half", "rope_theta", None), "stablelm": ("half", "rope_theta", None),
    "falcon": ("half", "rope_theta", 10000.0), "RefinedWeb": ("half", None, 10000.0),
    "internlm2": ("half", "rope_theta", None), "deepseek_v3": ("interleaved", "rope_theta", None),
    "minicpm3": ("half", "rope_theta", None), "gptj": ("interleaved", None, 10000.0),
    "chatglm": ("interleaved", None, 10000.0), "qwen": ("half", "rotary_emb_base", None),
    "baichuan": ("half", None, 10000.0), "exaone4": ("half", "rope_theta", 10000.0),
    "olmo3": ("half", "rope_theta", 10000.0), "cohere2": ("interleaved", "rope_theta", None),
    "gemma3_text": ("half", "rope_theta", 1000000.0), "llama4_text": ("interleaved", "rope_theta", 500000.0),
    "smollm3": ("half", "rope_theta", None), "ministral3": ("half", "rope_theta", None),
    "gpt_neox": ("half", "rotary_emb_base", 10000.0), "phi3": ("half", "rope_theta", None),
    "deepseek_v2": ("interleaved", "rope_theta", None), "gemma": ("half", "rope_theta", 10000.0),
    "glm": ("interleaved", "rope_theta", None), "qwen2_moe": ("half", "rope_theta", None),
    "qwen3_moe": ("half", "rope_theta", None), "olmo": ("half", "rope_theta", None),
    "olmo2": ("half", "rope_theta", None), "granite": ("half", "rope_theta", None),
    "starcoder2": ("half", "rope_theta", None), "minicpm": ("half", "rope_theta", None),
    "RefinedWebModel": ("half", None, 10000.0), "phimoe": ("half", "rope_theta", 1000000.0),
    "phi-msft": ("half", None, 10000.0),
    # hybrids (transformers 5.23.0 config classes' default_theta, else 10000)
    "lfm2": ("half", "rope_theta", 1000000.0), "lfm2_moe": ("half", "rope_theta", 1000000.0),
    "qwen3_next": ("half", "rope_theta", 10000.0), "minimax": ("half", "rope_theta", 1000000.0),
    "bamba": ("half", "rope_theta", 10000.0), "granitemoehybrid": ("half", "rope_theta", 10000.0),
    "mllama_text_model": ("half", "rope_theta", 500000.0), "falcon_h1": ("half", "rope_theta", 10000.0),
    "olmo_hybrid": ("half", "rope_theta", 10000.0),
    # transformers 5.23.0: gemma3n (configuration_gemma3n.py default_theta L118),
    # vaultgemma and gemma4 (the mixin's default_theta 10000 where a set has no
    # rope_theta)
    "gemma3n_text": ("half", "rope_theta", 1000000.0), "vaultgemma": ("half", "rope_theta", 10000.0),
    "gemma4_text": ("half", "rope_theta", 10000.0),
    "gemma4_unified_text": ("half", "rope_theta", 10000.0),
    "bailing_hybrid": ("interleaved", "rope_theta", 6000000.0),
}
WRAPPERS = {"gemma3": ("text_config", "gemma3_text"), "llama4": ("text_config", "llama4_text"),
            "mistral3": ("text_config", "mistral"), "gemma3n": ("text_config", "gemma3n_text"),
            "gemma4": ("text_config", "gemma4_text"),
            "gemma4_unified": ("text_config", "gemma4_unified_text"),
            "mllama": ("text_config", "mllama_text_model")}
# Gemma4TextConfig.__post_init__ (configuration_gemma4.py L202-207): the sets
# when the config has no rope_parameters
GEMMA4_DEFAULT_RP = {"sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
                     "full_attention": {"rope_type": "proportional", "partial_rotary_factor": 0.25,
                                        "rope_theta": 1000000.0}}

#: Hybrid models: whether each layer's attention rotates, as each config
#: class's __post_init__ builds its layer kinds and the modeling file uses
#: them (transformers 5.23.0). Attention without rotary: Jamba, Nemotron-H,
#: Zamba, Zamba 2 (without use_mem_rope), Kimi Linear's MLA; no attention: Mamba, Mamba 2,
#: FalconMamba.
NO_ROTARY = ("mamba", "mamba2", "falcon_mamba", "jamba", "nemotron_h", "zamba", "zamba2",
             "kimi_linear")


def hybrid_rotates(t, c, n):
    """[bool] per layer, or None for a family that is not a hybrid."""
    lt = c.get("layer_types") or c.get("layers_block_type")
    if t in NO_ROTARY:
        return [False] * n
    if t == "lfm2" and lt is None:     # configuration_lfm2.py L82-88
        idx = c.get("full_attn_idxs")
        idx = list(range(n)) if idx is None else idx
        lt = ["full_attention" if i in idx else "conv" for i in range(n)]
    elif t == "qwen3_next" and lt is None:   # configuration_qwen3_next.py L130-135
        k = c.get("full_attention_interval", 4)
        lt = ["linear_attention" if (i + 1) % k else "full_attention" for i in range(n)]
    elif t == "olmo_hybrid" and lt is None:  # configuration_olmo_hybrid.py L122-130
        lt = ["full_attention" if i % 4 == 3 else "linear_attention" for i in range(n)]
        if "full_attention" not in lt:
            lt[-1] = "full_attention"
    elif t == "bailing_hybrid" and lt is None:  # configuration_bailing_hybrid.py L143-147
        k = c.get("layer_group_size", 6)
        lt = ["full_attention" if (i + 1) % k == 0 else "linear_attention" for i in range(n)]
    elif t == "minimax" and lt is None:      # configuration_minimax.py L123-126
        lt = ["full_attention" if (i + 1) % 2 else "linear_attention" for i in range(n)]
    elif t == "bamba":                       # configuration_bamba.py L96-101
        idx = c.get("attn_layer_indices")
        lt = ["full_attention" if idx and i in idx else "linear_attention" for i in range(n)]
    elif t == "granitemoehybrid":            # L116-117; modeling L1056
        if c.get("position_embedding_type") != "rope":
            return [False] * n
        lt = lt or ["linear_attention"] * n
    elif t == "mllama_text_model":           # configuration_mllama.py L144-145
        cal = c.get("cross_attention_layers") or [3, 8, 13, 18, 23, 28, 33, 38]
        return [i not in cal for i in range(n)]
    elif t not in ("lfm2", "lfm2_moe", "qwen3_next", "minimax", "olmo_hybrid", "bailing_hybrid"):
        return None
    return [k in ("full_attention", "attention") for k in lt]


def _layers_str(idx):
    out, i = [], 0
    while i < len(idx):
        j = i
        while j + 1 < len(idx) and idx[j + 1] == idx[j] + 1:
            j += 1
        out.append(str(idx[i]) if i == j else "%d-%d" % (idx[i], idx[j]))
        i = j + 1
    return ",".join(out)


def model_layers(path):
    """[(scheme, params)] per layer, and (type, part)."""
    root = json.load(open(path))
    t, part, c = root["model_type"], "-", root
    if t in WRAPPERS:
        part, inner = WRAPPERS[t]
        c = root[part]
        t = c.get("model_type", inner)
    # ---- absolute and relative schemes
    if t in ("gpt2", "opt", "bert", "roberta", "distilbert"):
        n = _get(c, "num_hidden_layers", "n_layer", "n_layers")
        pos = _get(c, "max_position_embeddings", "n_positions")
        dim = _get(c, "hidden_size", "n_embd", "dim")
        off = {"opt": 2, "roberta": _get(c, "pad_token_id", default=1) + 1}.get(t, 0)
        if t == "distilbert" and c.get("sinusoidal_pos_embds"):
            return [("sinusoid", dict(positions=pos, dim=dim, whisper=0))] * n, (t, part)
        return [("learned", dict(positions=pos, offset=off, dim=dim))] * n, (t, part)
    if t == "bart":
        e = dict(positions=c["max_position_embeddings"], offset=2, dim=c["d_model"])
        return [("learned", e)] * (c["encoder_layers"] + c["decoder_layers"]), (t, part)
    if t == "whisper":
        enc = ("sinusoid", dict(positions=c["max_source_positions"], dim=c["d_model"], whisper=1))
        dec = ("learned", dict(positions=c["max_target_positions"], offset=0, dim=c["d_model"]))
        return [enc] * c["encoder_layers"] + [dec] * c["decoder_layers"], (t, part)
    if t in ("t5", "mt5"):
        ne = c.get("num_layers", 6)
        nd = c.get("num_decoder_layers") or ne
        nb, md = c.get("relative_attention_num_buckets", 32), c.get("relative_attention_max_distance", 128)
        return ([("buckets", dict(nb=nb, md=md, bidir=1))] * ne +
                [("buckets", dict(nb=nb, md=md, bidir=0))] * nd), (t, part)
    n = _get(c, "num_hidden_layers", "n_layer", "num_layers", "n_layers")
    heads = _get(c, "num_attention_heads", "n_head", "n_heads")
    if t == "falcon" and c.get("alibi"):
        # modeling_falcon.py L194: slopes.bfloat16(); L896-903: / sqrt(head_dim)
        hd = c["hidden_size"] // heads
        return [("alibi", dict(heads=heads, bf16=1, scale=1 / mpmath.sqrt(hd)))] * n, (t, part)
    if t in ("bloom", "mpt") or (t == "baichuan" and c.get("hidden_size") != 4096):
        return [("alibi", dict(heads=heads, bf16=0, scale=mpf(1)))] * n, (t, part)
    if t in ("nemotron_h", "zamba", "zamba2"):   # the list's length is the number of layers
        n = len(c.get("layers_block_type") or c.get("hybrid_override_pattern") or "")
    if t in NO_ROTARY:
        return [("none", dict(qs=None))] * n, (t, part)
    # ---- Gemma 4 (modeling_gemma4.py Gemma4TextRotaryEmbedding, Gemma4TextAttention):
    # one set of rope_parameters per layer type; full layers have head size
    # global_head_dim (default 512), all of it in the set's RoPE; the last
    # layer is full whatever layer_types says
    if t in ("gemma4_text", "gemma4_unified_text"):
        lt = list(c.get("layer_types") or
                  ["sliding_attention" if (i + 1) % 6 else "full_attention" for i in range(n)])
        lt[-1] = "full_attention"
        rp = c.get("rope_parameters") or GEMMA4_DEFAULT_RP
        hd = {"sliding_attention": c.get("head_dim") or 256,
              "full_attention": c.get("global_head_dim") or 512}
        maxpos = c.get("max_position_embeddings", 0)
        sets = {k: _rope_params(c, rp[k], hd[k], hd[k], "half", rp[k].get("rope_theta", 10000.0),
                                maxpos, None) for k in hd}
        return [("rope", dict(p=sets[k], qs=None)) for k in lt], (t, part)
    # ---- RoPE families
    layout, bkey, bdef = ROPE_FAMILIES[t]
    hidden = _get(c, "hidden_size", "n_embd")
    if t in ("deepseek_v2", "deepseek_v3", "minicpm3", "bailing_hybrid"):
        head_dim = c["qk_rope_head_dim"]
    elif t in ("qwen", "chatglm"):
        head_dim = c.get("kv_channels") or hidden // heads
    else:
        head_dim = c.get("head_dim") or hidden // heads
    if t == "deepseek_v3" and c.get("rope_interleave") is False:
        layout = "half"
    if t in ("gptj", "phi-msft"):
        rot = c.get("rotary_dim") or head_dim
    elif t == "chatglm":
        rot = head_dim // 2
    else:
        prf = _get(c, "partial_rotary_factor", "rotary_pct",
                   default={"gpt_neox": 0.25, "glm": 0.5, "glm4": 0.5, "glm4_moe": 0.5, "phi": 0.5,
                            "stablelm": 0.25, "qwen3_next": 0.25, "bamba": 0.5}.get(t, 1.0))
        rot = int(head_dim * d2(prf))
    rp = c.get("rope_parameters")
    per_type = isinstance(rp, dict) and any(isinstance(v, dict) for v in rp.values())
    single = None if per_type else (rp or c.get("rope_scaling"))
    if bkey is None:
        base = bdef
    else:
        base = (single or {}).get("rope_theta") if rp and not per_type else None
        if base is None:
            base = c.get(bkey, bdef)
    if t == "chatglm":
        base = base * c.get("rope_ratio", 1)
    maxpos = _get(c, "max_position_embeddings", "n_positions", "seq_length", default=0)
    top_orig = c.get("original_max_position_embeddings")
    qs = None
    if t == "ministral3" and single and "llama_4_scaling_beta" in single:
        qs = dict(kind="beta", beta=d2(single["llama_4_scaling_beta"]),
                  original=d2(single["original_max_position_embeddings"]))
        single = dict(single)
        del single["llama_4_scaling_beta"]
    scaled = _rope_params(c, single, head_dim, rot, layout, base, maxpos, top_orig,
                          yarn_is_longrope=(t == "phi3"))
    plain = _rope_params(c, None, head_dim, rot, layout, base, maxpos, top_orig)
    if t == "phimoe" and single and "short_mscale" in single:
        # PhimoeRotaryEmbedding: cos, sin times short_mscale (long_mscale, equal here)
        scaled["attention_factor"] = d2(single["short_mscale"])
    if t in ("minicpm", "minicpm3") and scaled["type"] == "longrope" and maxpos > scaled["original"]:
        # MiniCPMLongRoPE builds its cache for max_position_embeddings first
        scaled["short_factor"] = list(scaled["long_factor"])
    rope_scaled = ("rope", dict(p=scaled, qs=qs))
    if t == "qwen":
        S = c.get("seq_length")
        qs = dict(kind="logn", S=S) if c.get("use_logn_attn") else None
        return [("rope", dict(p=plain, qs=qs, qwen_ntk=S if c.get("use_dynamic_ntk") else None))] * n, (t, part)
    if t in ("gemma3_text", "gemma3n_text", "olmo3", "exaone4", "cohere2"):
        lt = c.get("layer_types")
        if lt is None:
            pat = c.get("sliding_window_pattern", {"gemma3_text": 6, "gemma3n_text": 5, "olmo3": 4,
                                                   "exaone4": 4}[t])
            lt = ["sliding_attention" if (i + 1) % pat else "full_attention" for i in range(n)]
        if per_type:
            full = _rope_params(c, rp.get("full_attention"), head_dim, rot, layout,
                                rp.get("full_attention", {}).get("rope_theta", base), maxpos, top_orig)
            slid = _rope_params(c, rp.get("sliding_attention"), head_dim, rot, layout,
                                rp.get("sliding_attention", {}).get("rope_theta", c.get("rope_local_base_freq", 10000.0)),
                                maxpos, top_orig)
        elif t in ("gemma3_text", "gemma3n_text"):   # sliding: rope_local_base_freq, no scaling
            full = scaled
            slid = _rope_params(c, None, head_dim, rot, layout, c.get("rope_local_base_freq", 10000.0),
                                maxpos, top_orig)
        else:                      # olmo3: sliding plain; exaone4, cohere2: rope on sliding only
            full, slid = scaled, (plain if t == "olmo3" else scaled)
        nope_full = t == "cohere2" or (t == "exaone4" and c.get("sliding_window", 4096) is not None)
        out = []
        for kind in lt:
            if kind == "full_attention":
                out.append(("none", dict(qs=None)) if nope_full else ("rope", dict(p=full, qs=None)))
            else:
                out.append(("rope", dict(p=slid, qs=None)))
        return out, (t, part)
    if t in ("llama4_text", "smollm3"):
        nr = c.get("no_rope_layers") or [int((i + 1) % c.get("no_rope_layer_interval", 4) != 0) for i in range(n)]
        tq = None
        if t == "llama4_text" and c.get("attn_temperature_tuning", True):
            tq = dict(kind="temperature", floor=d2(c.get("floor_scale", 8192)), scale=d2(c.get("attn_scale", 0.1)))
        return [rope_scaled if nr[i] else ("none", dict(qs=tq)) for i in range(n)], (t, part)
    rot = hybrid_rotates(t, c, n)
    if rot is not None:
        return [rope_scaled if r else ("none", dict(qs=None)) for r in rot], (t, part)
    return [rope_scaled] * n, (t, part)


def _alibi_slopes(H):
    """BLOOM's build_alibi_tensor (modeling_bloom.py L72-85)."""
    c = 2 ** int(mpmath.floor(mpmath.log(H, 2)))
    base = mpf(2) ** (-(mpf(2) ** -(mpmath.log(c, 2) - 3)))
    sl = [base ** h for h in range(1, c + 1)]
    if c != H:
        eb = mpf(2) ** (-(mpf(2) ** -(mpmath.log(2 * c, 2) - 3)))
        sl += [eb ** k for k in range(1, 1 + 2 * min(c, H - c), 2)]
    return sl


def _qscale(q, pos):
    if q["kind"] == "temperature":
        return mpmath.log1p(mpmath.floor((pos + 1) / q["floor"])) * q["scale"] + 1
    if q["kind"] == "logn":
        return mpmath.log(pos + 1) / mpmath.log(q["S"]) if pos + 1 > q["S"] else mpf(1)
    return 1 + q["beta"] * mpmath.log(1 + mpmath.floor(pos / mpf(q["original"])))


#: Fixtures of nested parts and M-RoPE wrappers that this generator does not
#: read: tests/test_model_reader.c checks each with values computed apart
#: (nested_parts_and_glm4v: the part read, its RoPE, GLM-4V's rotation written
#: out as transformers computes it).
EXPLICIT = frozenset((
    "glm-image-synthetic.json", "glm4v-moe-synthetic.json", "glm4v-synthetic.json",
    "internvl-chat-synthetic.json", "kimi-k2-synthetic.json", "minicpmv-synthetic.json",
    "qwen2-audio-synthetic.json", "qwen2.5-omni-synthetic.json", "qwen3-omni-moe-synthetic.json",
    "vibevoice-decoder-config-synthetic.json", "vila-llm-cfg-synthetic.json",
    # learned tables of other widths and offsets: the CLI cases
    # model_electra_synthetic and model_blenderbot_small_synthetic check them
    "electra-synthetic.json", "blenderbot-small-synthetic.json",
    # a retrieval wrapper's vlm_config.text_config: the CLI case
    # model_colqwen2_vlm_config_synthetic checks it
    "colqwen2-vlm-config-synthetic.json",
))


def models_main():
    out = sys.stdout
    out.write(MODEL_MAGIC + "\n")
    out.write("# generated by tools/gen_rope_golden.py --models (mpmath, %d digits); do not edit\n"
              % mpmath.mp.dps)
    names = sorted(f for f in os.listdir(MODELS_DIR) if f.endswith(".json") and "refused" not in f
                   and "-vl-" not in f and not f.startswith("bad-")
                   and f not in ("architectures-only.json", "bare-rope.json")
                   and f not in EXPLICIT)
    # the scaling fixtures of tests/data are model configs too
    names += ["../llama-2-7b.json", "../llama-3.1-8b.json", "../gpt-neox-20b.json",
              "../phi-4-mini.json", "../deepseek-v2-lite.json", "../codellama-7b.json"]
    for name in names:
        layers, (t, part) = model_layers(os.path.join(MODELS_DIR, name))
        out.write("model %s\ntype %s\npart %s\nlayers %d\n" % (name, t, part, len(layers)))
        out.write("schemes %s\n" % " ".join(s for s, _ in layers))
        groups = []
        for i, (s, prm) in enumerate(layers):
            for g in groups:
                if g[0] == s and g[1] == prm:
                    g[2].append(i)
                    break
            else:
                groups.append((s, prm, [i]))
        for s, prm, idx in groups:
            ls = _layers_str(idx)
            if s == "rope":
                p = prm["p"]
                lens = [0]
                if prm.get("qwen_ntk"):
                    lens.append(5000)
                for cur in lens:
                    if prm.get("qwen_ntk") and cur > prm["qwen_ntk"]:
                        S = prm["qwen_ntk"]
                        alpha = max(2 ** int(mpmath.ceil(mpmath.log(mpf(cur) / S, 2) + 1)) - 1, 1)
                        f, attn = freqs_and_attn(dict(p, type="ntk", factor=float(alpha)), cur)
                    elif p["type"] == "llama3" and p["low_freq_factor"] == p["high_freq_factor"]:
                        f, attn = _llama3_step_freqs(p)
                    else:
                        f, attn = freqs_and_attn(p, cur)
                    out.write("rope %s %d %d %d %s %r\n" % (ls, cur, p["head_dim"], p["rotary_dim"],
                                                            p["layout"], float(p["base"])))
                    out.write("attn %r %r\n" % dd(attn))
                    for k, x in enumerate(f):
                        out.write("f %d %r %r\n" % ((k,) + dd(x)))
            elif s == "alibi":
                out.write("alibi %s %d\n" % (ls, prm["heads"]))
                for h, v in enumerate(_alibi_slopes(prm["heads"])):
                    if prm["bf16"]:
                        m, e = math.frexp(float(v))
                        v = mpf(math.ldexp(round(m * 256), e - 8))
                    out.write("slope %d %r\n" % (h, nearest_double(v * prm["scale"])))
            elif s == "learned":
                out.write("learned %s %d %d %d\n" % (ls, prm["positions"], prm["offset"], prm["dim"]))
            elif s == "sinusoid":
                out.write("sinusoid %s %d %d %d\n" % (ls, prm["positions"], prm["dim"], prm["whisper"]))
            elif s == "buckets":
                out.write("buckets %s %d %d %d\n" % (ls, prm["nb"], prm["md"], prm["bidir"]))
            q = prm.get("qs")
            if q:
                for pos in (0, 2047, 2048, 8190, 8191, 16383, 16384, 100000, 1000000):
                    out.write("qscale %s %d %r\n" % (ls, pos, nearest_double(_qscale(q, pos))))
        out.write("end\n")
    out.write("total %d\n" % len(names))


if __name__ == "__main__":
    if sys.argv[1:] == ["--mrope"]:
        mrope_main()
    elif sys.argv[1:] == ["--models"]:
        models_main()
    else:
        main()
