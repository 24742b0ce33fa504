"""Positions that change while apply() runs (the library's rule in posenc.h:
positions must not change during a call). The binding copies the positions
under the GIL before it releases it, so neither an array that aliases q nor
another thread writing the array can make a kernel index outside its cache.
Before the copy, both crashed the interpreter (SIGSEGV; ASan: heap read in
the rotation body). Values are checked against the same call on a private
copy of the positions."""
import threading

import numpy as np
import pytest

import posenc

HD = 8  # 4 interleaved pairs: pair k of a head is int64 k of its memory


def aliased_q(n_tok):
    """q [n_tok, 1, HD] float32 whose first tokens' memory holds positions
    5, 6, ... as int64 (a view of the same bytes)."""
    q = np.zeros((n_tok, 1, HD), np.float32)
    pos = q.reshape(-1).view(np.int64)[:n_tok]
    pos[:] = 5 + np.arange(n_tok)
    return q, pos


@pytest.mark.parametrize("cache", [0, 64])
def test_positions_that_alias_q(cache):
    r = posenc.RoPE(HD, layout="interleaved")
    if cache:
        r.use_cache(cache)
    q, pos = aliased_q(16)
    want = q.copy()
    r.apply(want, positions=pos.copy())  # the positions as they were at the call
    r.apply(q, positions=pos)  # the same array, rewritten while rotating
    assert np.array_equal(q.view(np.uint32), want.view(np.uint32))


def test_positions_that_alias_the_output():
    r = posenc.RoPE(HD, layout="interleaved").use_cache(64)
    q = np.full((16, 1, HD), 0.5, np.float32)
    out = np.zeros((16, 1, HD), np.float32)
    pos = out.reshape(-1).view(np.int64)[:16]
    pos[:] = np.arange(16) + 3
    want = r.apply(q, positions=np.arange(16) + 3, inplace=False)
    got = posenc.RoPE(HD, layout="interleaved").use_cache(64)
    got._c.apply(q, None, pos, 0, False, 1, -1, out, None)
    assert np.array_equal(out.view(np.uint32), want.view(np.uint32))


def test_another_thread_rewriting_positions():
    """apply() with the GIL released on 2 threads while a Python thread
    rewrites the positions (valid, negative and huge values): every call
    either succeeds or raises posenc.Error, and a call after the writer
    stops gives the exact values."""
    n, heads, d = 512, 4, 64
    r = posenc.RoPE(d).use_cache(64)
    pos = (np.arange(n) % 64).astype(np.int64)
    stop = threading.Event()

    def writer():
        rng = np.random.default_rng(7)
        while not stop.is_set():
            i = int(rng.integers(n))
            pos[i] = int(rng.choice([-(2**40), 2**40, int(rng.integers(64))]))

    t = threading.Thread(target=writer)
    t.start()
    ok = refused = 0
    try:
        for _ in range(200):
            q = np.ones((n, heads, d), np.float32)
            try:
                r.apply(q, positions=pos, threads=2)
                ok += 1
            except posenc.Error:
                refused += 1
    finally:
        stop.set()
        t.join()
    assert ok + refused == 200
    pos[:] = (np.arange(n) * 7) % 64
    q = np.ones((n, heads, d), np.float32)
    r.apply(q, positions=pos, threads=2)
    want = np.ones((n, heads, d), np.float32)
    posenc.RoPE(d).apply(want, positions=pos.copy())  # no cache: the same bits
    assert np.array_equal(q.view(np.uint32), want.view(np.uint32))


def test_from_config_of_an_endless_file_stops_at_the_bound():
    """/dev/zero never ends: the reader stops one byte past the bound and
    says so, at once, instead of filling memory."""
    import os
    import time

    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    t0 = time.monotonic()
    with pytest.raises(posenc.Error, match=str(64 * 1024 * 1024) + " bytes"):
        posenc.RoPE.from_config("/dev/zero")
    assert time.monotonic() - t0 < 5.0


def test_tensor_positions_that_alias_q():
    """The same with torch tensors (read by _core through DLPack): positions
    an int64 view of q's own memory are copied before the rotation."""
    torch = pytest.importorskip("torch")
    r = posenc.RoPE(HD, layout="interleaved").use_cache(64)
    qa, _ = aliased_q(16)
    q = torch.from_numpy(qa)
    pos = q.reshape(-1).view(torch.int64)[:16]
    want = r.apply(qa.copy(), positions=pos.numpy().copy())
    r.apply(q, positions=pos)
    assert np.array_equal(q.numpy().view(np.uint32), want.view(np.uint32))
