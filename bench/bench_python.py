"""make bench-python: posenc's RoPE.apply against Hugging Face's rotation as a
transformers model runs it, on one thread, and the accuracy of both.

Shapes: q [1, 32, T, 128] and k [1, 8, T, 128] (Hugging Face's [batch, heads,
seq, head_dim]: q_proj(x).view(1, T, H, D).transpose(1, 2), a view of
token-major memory, as in every transformers attention layer; Llama-style
grouped-query attention),
float32 and bfloat16, T = 1, 128, 512, 4096, 32768, positions 0 .. T-1 (T = 1:
position 4000, a decode step), base 10000, half layout.

  posenc         rope.apply(q, k, positions=pid, layout="bhsd"), in place, cos
                 and sin computed in the call (no cache)
  posenc cached  the same after rope.use_cache(T_max) (built once, not timed)
  hf formula     LlamaRotaryEmbedding's float32 cos/sin (inv_freq @ position_ids,
                 cat, cos, sin, cast) + apply_rotary_pos_emb (q * cos +
                 rotate_half(q) * sin, and k): the rotary module and the rotation
  hf cached      apply_rotary_pos_emb alone, cos/sin given: what each layer pays
  hf compiled    apply_rotary_pos_emb under torch.compile (inductor; compiled
                 once per shape before timing), cos/sin given
  overhead       posenc.apply on one token, one head of 2 elements, cached,
                 NumPy arrays and torch tensors: the cost of a call from Python
                 with nearly no work

The methods are timed alternately: each sample runs every method once (a loop
of calls lasting ~20 ms, or one call when a call is longer), in turn, and each
number is the median of --samples samples, so a burst of load on the shared
machine hits all methods alike. Accuracy: max |error| of the rotated q at
positions 10^3 .. 10^6 against the exact rotation (mpmath), and of cos.
"""
import argparse
import statistics
import sys
import time

import numpy as np

import posenc

try:
    import torch
except ImportError:
    torch = None

H_Q, H_K, D, BASE = 32, 8, 128, 10000.0


def loops_for(fn, target_s=0.02):
    fn()  # warm-up (and compilation)
    t0 = time.perf_counter()
    fn()
    per = time.perf_counter() - t0
    return max(1, int(target_s / max(per, 1e-9)))


def alternate(fns, samples):
    """{name: median microseconds per call}, the methods timed in turn."""
    loops = {k: loops_for(f) for k, f in fns.items()}
    times = {k: [] for k in fns}
    for _ in range(samples):
        for k, f in fns.items():
            n = loops[k]
            t0 = time.perf_counter_ns()
            for _ in range(n):
                f()
            times[k].append((time.perf_counter_ns() - t0) / n / 1e3)
    return {k: statistics.median(v) for k, v in times.items()}


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def hf_cos_sin(inv_freq, position_ids, dtype):
    # LlamaRotaryEmbedding.forward (transformers 5.23, modeling_llama.py:108-116)
    freqs = position_ids[..., None].float() * inv_freq.float()
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos().to(dtype), emb.sin().to(dtype)


def hf_apply(q, k, cos, sin):
    # apply_rotary_pos_emb (modeling_llama.py:126-150), unsqueeze_dim=1
    cos = cos.unsqueeze(1)
    sin = sin.unsqueeze(1)
    return (q * cos) + (rotate_half(q) * sin), (k * cos) + (rotate_half(k) * sin)


_compiled = None


def speed(T, dtype, samples, t_max):
    global _compiled
    rope = posenc.RoPE(D, base=BASE)
    cached = posenc.RoPE(D, base=BASE).use_cache(t_max)
    g = torch.Generator().manual_seed(T)
    # what a transformers attention layer holds: q_proj(x).view(1, T, H, D)
    # .transpose(1, 2), a [1, H, T, D] view of token-major memory
    q = (torch.rand(1, T, H_Q, D, generator=g) * 2 - 1).to(dtype).transpose(1, 2)
    k = (torch.rand(1, T, H_K, D, generator=g) * 2 - 1).to(dtype).transpose(1, 2)
    pid = torch.arange(T)[None] if T > 1 else torch.tensor([[4000]])
    inv_freq = 1.0 / (BASE ** (torch.arange(0, D, 2, dtype=torch.int64).float() / D))
    cos, sin = hf_cos_sin(inv_freq, pid, dtype)
    # one compiled graph per shape and dtype (dynamic=False), compiled afresh:
    # dynamo's recompile limit (8) would otherwise send later shapes to eager
    torch._dynamo.reset()
    _compiled = torch.compile(hf_apply, dynamic=False)
    fns = {
        "posenc": lambda: rope.apply(q, k, positions=pid, layout="bhsd"),
        "posenc cached": lambda: cached.apply(q, k, positions=pid, layout="bhsd"),
        "hf formula": lambda: hf_apply(q, k, *hf_cos_sin(inv_freq, pid, dtype)),
        "hf cached": lambda: hf_apply(q, k, cos, sin),
        "hf compiled": lambda: _compiled(q, k, cos, sin),
    }
    return alternate(fns, samples)


def where(T, dtype, samples):
    """Where the time of T tokens goes: posenc in place (uncached, cached),
    out of place (new tensors in q's memory order), a streaming floor
    (q.mul_(1), k.mul_(1): one read and one write of each in place), and
    compiled HF; alternating, medians."""
    rope = posenc.RoPE(D, base=BASE)
    cached = posenc.RoPE(D, base=BASE).use_cache(max(T, 4096))
    q = (torch.rand(1, T, H_Q, D) * 2 - 1).to(dtype).transpose(1, 2)
    k = (torch.rand(1, T, H_K, D) * 2 - 1).to(dtype).transpose(1, 2)
    pid = torch.arange(T)[None]
    inv_freq = 1.0 / (BASE ** (torch.arange(0, D, 2, dtype=torch.int64).float() / D))
    cos, sin = hf_cos_sin(inv_freq, pid, dtype)
    torch._dynamo.reset()
    comp = torch.compile(hf_apply, dynamic=False)
    return alternate({
        "posenc": lambda: rope.apply(q, k, positions=pid, layout="bhsd"),
        "posenc cached": lambda: cached.apply(q, k, positions=pid, layout="bhsd"),
        "cached, new tensors": lambda: cached.apply(q, k, positions=pid, layout="bhsd",
                                                    inplace=False),
        "floor (mul_ in place)": lambda: (q.mul_(1.0), k.mul_(1.0)),
        "hf compiled": lambda: comp(q, k, cos, sin),
    }, samples)


def overhead(samples):
    """{NumPy, torch}: one token, one head of 2, cached, alternating."""
    r = posenc.RoPE(2).use_cache(8192)
    x = np.ones((1, 1, 2), np.float32)
    p = np.array([4000], np.int64)
    xt, pt = torch.ones(1, 1, 2), torch.tensor([4000])
    return alternate({"numpy": lambda: r.apply(x, positions=p),
                      "torch": lambda: r.apply(xt, positions=pt)}, samples)


def module_rows(samples):
    """[(T, posenc us, stock us)]: the rotary module's forward, posenc.torch's
    RotaryEmbedding against transformers' LlamaRotaryEmbedding (Llama 3.1's
    llama3 scaling, head_dim 128), x float32 [1, T, 4096], position_ids [1, T]
    (T = 1: position 4000, a decode step; T = 2048: 0 .. 2047); None without
    transformers or posenc.torch."""
    try:
        import transformers
        import posenc.torch as pt
    except ImportError:
        return None
    cfg = transformers.LlamaConfig(
        hidden_size=4096, num_attention_heads=32, num_key_value_heads=8, num_hidden_layers=1,
        max_position_embeddings=131072, rope_parameters={
            "rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0,
            "low_freq_factor": 1.0, "high_freq_factor": 4.0,
            "original_max_position_embeddings": 8192})
    stock = transformers.models.llama.modeling_llama.LlamaRotaryEmbedding(cfg)
    mine = pt.RotaryEmbedding(cfg)
    rows = []
    for T in (1, 2048):
        x = torch.zeros(1, T, 4096)
        pid = torch.tensor([[4000]]) if T == 1 else torch.arange(T)[None]
        with torch.no_grad():
            r = alternate({"posenc": lambda: mine(x, pid), "stock": lambda: stock(x, pid)},
                          samples)
        rows.append((T, r["posenc"], r["stock"]))
    return rows


def accuracy():
    import mpmath

    mpmath.mp.dps = 40
    rope = posenc.RoPE(D, base=BASE)
    rng = np.random.default_rng(7)
    rows = []
    for p in (10**3, 4095, 10**4, 10**5, 10**6):
        q = rng.uniform(-1, 1, (1, 1, D)).astype(np.float32)
        f = [mpmath.mpf(BASE) ** (-mpmath.mpf(2 * j) / D) for j in range(D // 2)]
        ec = np.array([float(mpmath.cos(p * fj)) for fj in f])
        es = np.array([float(mpmath.sin(p * fj)) for fj in f])
        x = q[0, 0].astype(np.float64)
        exact = np.concatenate([x[:64] * ec - x[64:] * es, x[:64] * es + x[64:] * ec])
        got = rope.apply(q.copy(), positions=[p])[0, 0].astype(np.float64)
        pc, _ = rope.cos_sin([p])
        row = {"pos": p, "posenc q": np.max(np.abs(got - exact)),
               "posenc cos": np.max(np.abs(pc[0].astype(np.float64) - ec))}
        if torch is not None:
            inv_freq = 1.0 / (BASE ** (torch.arange(0, D, 2, dtype=torch.int64).float() / D))
            cos, sin = hf_cos_sin(inv_freq, torch.tensor([[p]]), torch.float32)
            qt = torch.from_numpy(q).transpose(0, 1)[None]
            hq, _ = hf_apply(qt, qt, cos, sin)
            row["hf q"] = np.max(np.abs(hq[0, 0, 0].double().numpy() - exact))
            row["hf cos"] = np.max(np.abs(cos[0, 0, :64].double().numpy() - ec))
        rows.append(row)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--samples", type=int, default=5)
    ap.add_argument("--sizes", default="1,128,512,4096,32768")
    ap.add_argument("--dtypes", default="float32,bfloat16")
    ap.add_argument("--where", type=int, default=0,
                    help="only the breakdown at this T (in place, out of place, floor)")
    args = ap.parse_args()
    print(f"posenc {posenc.__version__} (kernels {posenc.isa()}), NumPy {np.__version__}, "
          f"Python {sys.version.split()[0]}, "
          f"torch {torch.__version__ if torch else 'absent'}; one thread")
    if torch is None:
        print("bench-python: needs torch (make venv, then make bench-python "
              "BENCH_PYTHON=build/venv/bin/python)")
        return 1
    torch.set_num_threads(1)
    if args.where:
        for name in args.dtypes.split(","):
            r = where(args.where, getattr(torch, name), args.samples)
            print(f"T = {args.where} {name}: " + ", ".join(f"{k} {v:.0f}" for k, v in r.items())
                  + f" us; compiled / posenc {r['hf compiled'] / r['posenc']:.1f}x, / cached "
                  f"{r['hf compiled'] / r['posenc cached']:.1f}x", flush=True)
        return 0
    sizes = [int(t) for t in args.sizes.split(",")]
    cols = ["posenc", "posenc cached", "hf formula", "hf cached", "hf compiled"]
    print("times: median microseconds per call (q and k); x = hf compiled / posenc, "
          "hf compiled / posenc cached")
    o = overhead(args.samples)
    print(f"overhead (1 token, 1 head of 2, cached): NumPy {o['numpy']:.2f} us, "
          f"torch {o['torch']:.2f} us")
    rows = module_rows(args.samples)
    if rows is None:
        print("-- rotary module: skipped (needs transformers and posenc.torch)")
    else:
        print("-- rotary module forward (x float32 [1, T, 4096], Llama 3.1 llama3, head_dim "
              "128): median microseconds per call, posenc.torch.RotaryEmbedding vs "
              "transformers' LlamaRotaryEmbedding, same run")
        for T, mine, stock in rows:
            print(f"{T:>6} posenc {mine:9.1f}  stock {stock:9.1f}  posenc / stock "
                  f"{mine / stock:5.2f}x", flush=True)
    for name in args.dtypes.split(","):
        dtype = getattr(torch, name)
        print(f"-- {name}")
        print(f"{'T':>6} " + " ".join(f"{c:>13}" for c in cols) + "   vs compiled")
        for T in sizes:
            r = speed(T, dtype, args.samples, max(sizes) if max(sizes) > 4000 else 4096)
            cells = " ".join(f"{r[c]:13.1f}" for c in cols)
            print(f"{T:>6} {cells}   {r['hf compiled'] / r['posenc']:5.1f}x "
                  f"{r['hf compiled'] / r['posenc cached']:5.1f}x", flush=True)
    print("-- accuracy (float32): max |error| against the exact rotation (q) and exact cos")
    keys = ["posenc q", "hf q", "posenc cos", "hf cos"]
    print(f"{'pos':>8} " + " ".join(f"{k:>11}" for k in keys))
    for r in accuracy():
        print(f"{r['pos']:>8} " + " ".join(f"{r[k]:11.2e}" if k in r else f"{'-':>11}"
                                           for k in keys))
    return 0


if __name__ == "__main__":
    sys.exit(main())
