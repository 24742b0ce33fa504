"""The call overhead of RoPE.apply on a decode step, this build against an
older one, alternating in one process (timeit medians, microseconds).

    PYTHONPATH=build/hf/lib python bench/python_overhead_ab.py OLD_LIB [N] [R] [cpu]

OLD_LIB holds the older build's package renamed posenc_old (its imports are
relative, so a copy of build/.../posenc under that name loads beside the new
one). Cases: one token, one head of 2 (NumPy and torch, cached), and a
Llama decode step: q [1, 32, 1, 128], k [1, 8, 1, 128] views of token-major
memory, positions [[4000]], float32 and bfloat16, with and without a cache.
Each of R rounds times every case N calls, old then new; with "cpu" the
timer is the thread's CPU time (time.thread_time) instead of the wall clock,
which leaves out the time the process waits for a core on a shared machine.
"""
import statistics
import sys
import time
import timeit

sys.path.append(sys.argv[1])  # after PYTHONPATH: posenc is this build
import numpy as np  # noqa: E402
import torch  # noqa: E402

import posenc  # noqa: E402
import posenc_old  # noqa: E402

assert posenc.__file__ != posenc_old.__file__.replace("posenc_old", "posenc"), "the old posenc came first"

torch.set_num_threads(1)
D = 128


def decode(dtype, cached):
    def make(mod):
        r = mod.RoPE(D)
        if cached:
            r.use_cache(8192)
        q = torch.randn(1, 1, 32, D).to(dtype).transpose(1, 2)
        k = torch.randn(1, 1, 8, D).to(dtype).transpose(1, 2)
        pid = torch.tensor([[4000]])
        return lambda: r.apply(q, k, positions=pid, layout="bhsd")
    return make


def tiny(kind):
    def make(mod):
        r = mod.RoPE(2).use_cache(8192)
        if kind == "numpy":
            x, p = np.ones((1, 1, 2), np.float32), np.array([4000], np.int64)
        else:
            x, p = torch.ones(1, 1, 2), torch.tensor([4000])
        return lambda: r.apply(x, positions=p)
    return make


CASES = {
    "tiny NumPy [1,1,2]": tiny("numpy"),
    "tiny torch [1,1,2]": tiny("torch"),
    "decode f32 cached": decode(torch.float32, True),
    "decode f32": decode(torch.float32, False),
    "decode bf16 cached": decode(torch.bfloat16, True),
    "decode bf16": decode(torch.bfloat16, False),
}


def main():
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 9
    timer = time.thread_time if sys.argv[4:5] == ["cpu"] else time.perf_counter
    fns = {c: {"old": m(posenc_old), "new": m(posenc)} for c, m in CASES.items()}
    res = {(c, w): [] for c in CASES for w in ("old", "new")}
    for _ in range(rounds):
        for c in CASES:
            for w in ("old", "new"):
                res[(c, w)].append(timeit.timeit(fns[c][w], timer=timer, number=n) / n * 1e6)
    print(f"{'case':22s} {'old us':>8} {'new us':>8}")
    for c in CASES:
        print(f"{c:22s} {statistics.median(res[(c, 'old')]):8.2f} "
              f"{statistics.median(res[(c, 'new')]):8.2f}")


if __name__ == "__main__":
    main()
