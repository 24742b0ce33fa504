"""make bench-python: posenc's RoPE.apply against the Hugging Face-style
PyTorch rotation, on one thread, and the accuracy of both.

Shapes of issue 15: q [T, 32, 128] and k [T, 8, 128] float32 (Llama-style
GQA), T = 1, 512, 4096, positions 0 .. T-1 (T = 1: position 4000, a decode
step), base 10000, half layout.

  posenc numpy   rope.apply(q, k, positions=pos) on NumPy arrays, in place,
                 cos/sin computed in the call (no cache)
  posenc cached  the same with rope.use_cache(8192) (built once, not timed)
  posenc torch   the same call on torch tensors (zero-copy views)
  posenc hf4d    the same on HF's [1, H, T, D] tensors (4-D path)
  hf rotate      q * cos + rotate_half(q) * sin (and k) on HF's [1, H, T, D]
                 tensors with cos/sin given: the per-layer cost in a model
  hf full        the same plus cos/sin from the float32 formula
                 (inv_freq @ position_ids, cat, cos, sin): HF's rotary module
                 and rotation together
  overhead       posenc.apply on one token, one head of 2 elements, with the
                 cache: the cost of a call from Python with nearly no work

Each number is the median of --samples samples (each a loop of calls long
enough to take ~20 ms), after a warm-up; the whole table is repeated
--repeat times (the machine's cores are shared, so the repeats show the
noise). Accuracy: max |error| of the rotated q at positions 10^3 .. 10^6
against the exact rotation (float64 rotation by cos/sin of the exact angle
in mpmath), and of the cos values alone.
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


def timeit(fn, target_s=0.02, samples=7):
    fn()
    t0 = time.perf_counter()
    n = 0
    while time.perf_counter() - t0 < 0.005:
        fn()
        n += 1
    per = (time.perf_counter() - t0) / n
    loops = max(1, int(target_s / per))
    out = []
    for _ in range(samples):
        t0 = time.perf_counter_ns()
        for _ in range(loops):
            fn()
        out.append((time.perf_counter_ns() - t0) / loops / 1e3)
    return statistics.median(out)  # microseconds


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def hf_cos_sin(inv_freq, position_ids):
    inv = inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
    freqs = (inv @ position_ids[:, None, :].float()).transpose(1, 2)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()


def hf_rotate(q, k, cos, sin):
    cos = cos.unsqueeze(1)
    sin = sin.unsqueeze(1)
    return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin


def speed(T, samples):
    rope = posenc.RoPE(D, base=BASE)
    rng = np.random.default_rng(T)
    pos = np.arange(T, dtype=np.int64) if T > 1 else np.array([4000], np.int64)
    q = rng.uniform(-1, 1, (T, H_Q, D)).astype(np.float32)
    k = rng.uniform(-1, 1, (T, H_K, D)).astype(np.float32)
    row = {"T": T}
    row["posenc numpy"] = timeit(lambda: rope.apply(q, k, positions=pos), samples=samples)
    cached = posenc.RoPE(D, base=BASE).use_cache(8192)
    row["posenc cached"] = timeit(lambda: cached.apply(q, k, positions=pos), samples=samples)
    if torch is None:
        return row
    qt, kt, pt = torch.from_numpy(q), torch.from_numpy(k), torch.from_numpy(pos)
    row["posenc torch"] = timeit(lambda: rope.apply(qt, kt, positions=pt), samples=samples)
    q4 = qt.transpose(0, 1).contiguous()[None]  # [1, H, T, D]
    k4 = kt.transpose(0, 1).contiguous()[None]
    pid = pt[None]
    row["posenc hf4d"] = timeit(lambda: rope.apply(q4, k4, positions=pid), samples=samples)
    inv_freq = 1.0 / (BASE ** (torch.arange(0, D, 2, dtype=torch.int64).float() / D))
    cos, sin = hf_cos_sin(inv_freq, pid)
    row["hf rotate"] = timeit(lambda: hf_rotate(q4, k4, cos, sin), samples=samples)
    row["hf full"] = timeit(lambda: hf_rotate(q4, k4, *hf_cos_sin(inv_freq, pid)),
                            samples=samples)
    return row


def overhead(samples):
    r = posenc.RoPE(2).use_cache(8192)
    x = np.ones((1, 1, 2), np.float32)
    p = np.array([4000], np.int64)
    return timeit(lambda: r.apply(x, positions=p), samples=samples)


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
            cos, sin = hf_cos_sin(inv_freq, torch.tensor([[p]]))
            hq, _ = hf_rotate(torch.from_numpy(q).transpose(0, 1)[None],
                              torch.from_numpy(q).transpose(0, 1)[None], cos, sin)
            row["hf q"] = np.max(np.abs(hq[0, 0, 0].double().numpy() - exact))
            row["hf cos"] = np.max(np.abs(cos[0, 0, :64].double().numpy() - ec))
        rows.append(row)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--samples", type=int, default=7)
    ap.add_argument("--sizes", default="1,512,4096")
    args = ap.parse_args()
    if torch is not None:
        torch.set_num_threads(1)
    print(f"posenc {posenc.__version__} (library {posenc.library_version}, kernels "
          f"{posenc.isa()}), NumPy {np.__version__}, "
          f"torch {torch.__version__ if torch else 'absent (apt-get install python3-torch)'}, "
          f"Python {sys.version.split()[0]}; one thread")
    print("times: median microseconds per call; speedup = hf rotate / posenc torch, "
          "hf rotate / posenc cached")
    cols = ["posenc numpy", "posenc cached", "posenc torch", "posenc hf4d", "hf rotate",
            "hf full"]
    for rep in range(args.repeat):
        print(f"-- run {rep + 1} of {args.repeat}; overhead (1 token, 1 head of 2): "
              f"{overhead(args.samples):.2f} us")
        print(f"{'T':>5} " + " ".join(f"{c:>13}" for c in cols) + "   speedup  cached")
        for T in [int(t) for t in args.sizes.split(",")]:
            r = speed(T, args.samples)
            cells = " ".join(f"{r[c]:13.1f}" if c in r else f"{'-':>13}" for c in cols)
            sp = (f"{r['hf rotate'] / r['posenc torch']:6.1f}x "
                  f"{r['hf rotate'] / r['posenc cached']:6.1f}x" if "hf rotate" in r else "")
            print(f"{T:>5} {cells}   {sp}")
    print("-- accuracy: max |error| against the exact rotation (q) and exact cos")
    acc = accuracy()
    keys = ["posenc q", "hf q", "posenc cos", "hf cos"]
    print(f"{'pos':>8} " + " ".join(f"{k:>11}" for k in keys))
    for r in acc:
        print(f"{r['pos']:>8} " + " ".join(f"{r[k]:11.2e}" if k in r else f"{'-':>11}"
                                           for k in keys))


if __name__ == "__main__":
    main()
