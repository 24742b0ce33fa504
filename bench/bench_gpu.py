"""make bench-gpu: posenc.triton's fused q/k rotation on a CUDA device, against a
device copy of the same bytes and the rotations a model would otherwise run.

Shapes (Llama 3 8B's attention, grouped-query): q [1, 32, T, 128] and k
[1, 8, T, 128] as Hugging Face holds them ([batch, heads, seq, head_dim] views
of token-major memory: q_proj(x).view(1, T, H, D).transpose(1, 2)), half
layout, base 500000, T = 1, 4096, 65536, float32 and bfloat16, positions
0 .. T - 1 (T = 1: position 4000, a decode step) as a device tensor.

  copy           dst.copy_(src) of q's and k's bytes: the floor (every method
                 reads and writes q and k once at least)
  posenc         posenc.triton.apply(rope, q, k, positions=pid, layout="bhsd"):
                 one launch, cos/sin computed in the kernel, in place
  hf eager       transformers' apply_rotary_pos_emb(q, k, cos, sin) with cos
                 and sin given (what each layer pays), out of place
  hf compiled    the same under torch.compile (inductor; compiled before timing)
  flash-attn     flash_attn.layers.rotary.apply_rotary_emb (in place, cos/sin
                 [T, 64] given), where flash-attn is installed

Then one decode step (T = 1) captured in a CUDA graph and replayed: posenc's
kernel, and one eager elementwise kernel (q.mul_(1)) for scale.

Each number is the median of --samples samples; a sample times a loop of
calls with CUDA events (--iters calls, fewer for long calls). The ratio is to
the copy of the same T and dtype. Before timing, the kernel's results are
checked against the library's CPU path at positions up to 2^31 - 1.

Without a CUDA device the script says so and exits with status 2: nothing is
measured (bench/NOTES-gpu.md).
"""
import argparse
import statistics
import sys



def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--samples", type=int, default=15)
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--tokens", default="1,4096,65536")
    ap.add_argument("--no-compile", action="store_true", help="skip hf compiled")
    ap.add_argument("--dry-run", action="store_true",
                    help="run every method once on CPU tensors under TRITON_INTERPRET=1 "
                    "(small T, nothing timed): checks the script without a GPU")
    args = ap.parse_args()
    try:
        import torch
    except ImportError:
        print("bench-gpu: torch does not import: nothing measured (make venv)")
        return 2
    if args.dry_run:
        return dry_run(torch, args)
    if not torch.cuda.is_available():
        print("bench-gpu: no CUDA device here (torch.cuda.is_available() is False): nothing "
              "measured. posenc.triton is verified without one by make test-triton "
              "(Triton's interpreter); see bench/NOTES-gpu.md")
        return 2
    try:
        import posenc
        import posenc.triton as pt
    except ImportError as e:
        print(f"bench-gpu: posenc.triton does not import ({e}): install triton==3.9.0")
        return 2

    dev = torch.device("cuda")
    print(f"bench-gpu: {torch.cuda.get_device_name(dev)}, torch {torch.__version__}, "
          f"triton {__import__('triton').__version__}")
    rope = posenc.RoPE(128, base=500000.0)
    if not verify(torch, posenc, pt, rope, dev):
        return 1
    hf = hf_rotation()
    fa = flash_rotation()

    rows = []
    for dtype in (torch.float32, torch.bfloat16):
        for T in (int(t) for t in args.tokens.split(",")):
            rows += bench_one(torch, pt, rope, dev, T, dtype, hf, fa, args)
    print()
    print("| method | T | dtype | median us | x copy |")
    print("|---|---:|---|---:|---:|")
    for name, T, dt, us, ratio in rows:
        print(f"| {name} | {T} | {dt} | {us:.2f} | {ratio:.2f} |")
    print()
    decode(torch, pt, rope, dev, args)
    return 0


def verify(torch, posenc, pt, rope, dev) -> bool:
    """The device's results against the library's CPU path (float32 and bf16)."""
    torch.manual_seed(0)
    pos = torch.tensor([0, 1, 4095, 65535, 123456789, 2**31 - 2, 2**31 - 1])
    ok = True
    for dtype in (torch.float32, torch.bfloat16):
        q = torch.randn(len(pos), 4, 128).to(dtype)
        k = torch.randn(len(pos), 2, 128).to(dtype)
        qc, kc = q.clone(), k.clone()
        rope.apply(qc, kc, pos)
        qd, kd = q.to(dev), k.to(dev)
        pt.apply(rope, qd, kd, positions=pos.to(dev))
        for name, got, want in (("q", qd.cpu(), qc), ("k", kd.cpu(), kc)):
            d = (got.double() - want.double()).abs()
            scale = want.double().abs().amax(-1, keepdim=True)  # each head's scale
            tol = 4 * 2.0**-23 if dtype is torch.float32 else 2.0**-7
            worst = float((d / scale).max())
            good = worst <= tol
            ok &= good
            print(f"check {name} {str(dtype)[6:]}: max |device - cpu| / max |head| = {worst:.3g} "
                  f"({'ok' if good else 'FAILED'}, tolerance {tol:.3g})")
    return ok


def hf_rotation():
    try:
        from transformers.models.llama.modeling_llama import apply_rotary_pos_emb
        return apply_rotary_pos_emb
    except Exception as e:  # transformers missing or moved
        print(f"hf eager: skipped ({e})")
        return None


def flash_rotation():
    try:
        from flash_attn.layers.rotary import apply_rotary_emb
        return apply_rotary_emb
    except Exception:
        print("flash-attn: not installed, skipped")
        return None


def dry_run(torch, args):
    """Every method once on CPU tensors (Triton's interpreter), T = 1 and 3."""
    import os

    if os.environ.get("TRITON_INTERPRET") != "1":
        print("bench-gpu --dry-run: set TRITON_INTERPRET=1")
        return 2
    import posenc
    import posenc.triton as pt

    global timer
    timer = lambda torch, fn, iters, samples: (fn(), 1.0)[1]  # noqa: E731
    rope = posenc.RoPE(128, base=500000.0)
    args.no_compile = True
    dev = torch.device("cpu")
    if not verify(torch, posenc, pt, rope, dev):
        return 1
    for dtype in (torch.float32, torch.bfloat16):
        for T in (1, 3):
            bench_one(torch, pt, rope, dev, T, dtype, hf_rotation(), None, args)
    print("bench-gpu --dry-run: every method ran once (nothing timed)")
    return 0


def timer(torch, fn, iters, samples):
    fn()
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    fn()
    e.record()
    torch.cuda.synchronize()
    once_ms = s.elapsed_time(e)
    n = max(1, min(iters, int(20.0 / max(once_ms, 1e-3))))
    out = []
    for _ in range(samples):
        s.record()
        for _ in range(n):
            fn()
        e.record()
        torch.cuda.synchronize()
        out.append(s.elapsed_time(e) * 1000.0 / n)
    return statistics.median(out)


def bench_one(torch, pt, rope, dev, T, dtype, hf, fa, args):
    H, HK, D = 32, 8, 128
    xq = torch.randn(1, T, H, D, device=dev).to(dtype)
    xk = torch.randn(1, T, HK, D, device=dev).to(dtype)
    q, k = xq.transpose(1, 2), xk.transpose(1, 2)  # [1, H, T, D] views
    pid = (torch.arange(T, device=dev) + (4000 if T == 1 else 0)).view(1, T)
    flat = torch.cat([xq.reshape(-1), xk.reshape(-1)])
    dst = torch.empty_like(flat)
    c, s = pt.cos_sin(rope, pid)  # [1, T, 64] float32: the exact values
    cos = torch.cat([c, c], -1).to(dtype)
    sin = torch.cat([s, s], -1).to(dtype)
    dt = str(dtype)[6:]
    res = []
    base = timer(torch, lambda: dst.copy_(flat), args.iters, args.samples)
    res.append(("copy", T, dt, base, 1.0))
    t = timer(torch, lambda: pt.apply(rope, q, k, positions=pid, layout="bhsd"),
              args.iters, args.samples)
    res.append(("posenc", T, dt, t, t / base))
    if hf is not None:
        t = timer(torch, lambda: hf(q, k, cos, sin), args.iters, args.samples)
        res.append(("hf eager", T, dt, t, t / base))
        if not args.no_compile:
            comp = torch.compile(hf, dynamic=False)
            t = timer(torch, lambda: comp(q, k, cos, sin), args.iters, args.samples)
            res.append(("hf compiled", T, dt, t, t / base))
    if fa is not None:
        cf, sf = c[0].to(dtype), s[0].to(dtype)  # [T, 64]

        def run_fa():
            fa(xq, cf, sf, interleaved=False, inplace=True)
            fa(xk, cf, sf, interleaved=False, inplace=True)
        t = timer(torch, run_fa, args.iters, args.samples)
        res.append(("flash-attn", T, dt, t, t / base))
    for r in res:
        print(f"{r[0]:12s} T={T:6d} {dt:9s} {r[3]:10.2f} us  {r[4]:6.2f}x copy", flush=True)
    return res


def decode(torch, pt, rope, dev, args):
    """One decode step (T = 1, bf16) as a CUDA graph: posenc's kernel with the
    position read on the device (advanced in the graph), against one eager
    elementwise kernel."""
    q = torch.randn(1, 1, 32, 128, device=dev, dtype=torch.bfloat16)
    k = torch.randn(1, 1, 8, 128, device=dev, dtype=torch.bfloat16)
    pid = torch.full((1, 1), 4000, device=dev, dtype=torch.int64)
    pt.apply(rope, q, k, positions=pid, layout="bshd")  # the frequency cache first
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        pt.apply(rope, q, k, positions=pid, layout="bshd")
    torch.cuda.current_stream().wait_stream(stream)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        pt.apply(rope, q, k, positions=pid, layout="bshd")
        pid.add_(1)
    t_graph = timer(torch, g.replay, args.iters, args.samples)
    t_eager = timer(torch, lambda: pt.apply(rope, q, k, positions=pid, layout="bshd"),
                    args.iters, args.samples)
    t_elem = timer(torch, lambda: q.mul_(1), args.iters, args.samples)
    print(f"decode step (T = 1, bf16): posenc in a CUDA graph {t_graph:.2f} us per replay "
          f"(with the position's increment), posenc eager {t_eager:.2f} us, one eager "
          f"elementwise kernel {t_elem:.2f} us")
    print(f"position after the replays: {int(pid.item())} (advanced on the device)")


if __name__ == "__main__":
    sys.exit(main())
