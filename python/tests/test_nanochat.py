"""NanoChat (model_type nanochat) through RoPE.from_config: q and k turn by
-theta (rotate_half cat(x2, -x1): transformers 5.23.0
models/nanochat/modeling_nanochat.py L106-129, L169-173), so RoPE.sense is -1
and inv_freq holds the frequencies negated; the rotation against a hand
trace of the code's formula (first half x1 cos + x2 sin, second half
x2 cos - x1 sin, theta = pos * 10000^(-2k/D)); posenc.check and
posenc.torch refuse such a layer by name. transformers' running code:
tests/hf/test_nanochat_hf.py."""
import math

import numpy as np
import pytest

import posenc

needs_reader = pytest.mark.skipif(not posenc.have_config_reader(),
                                  reason="posenc built without the config reader (jansson)")

TINY = {"model_type": "nanochat", "hidden_size": 64, "num_attention_heads": 4,
        "num_hidden_layers": 2}


def test_plain_rope_turns_by_plus_theta():
    assert posenc.RoPE(16).sense == 1


@needs_reader
def test_nanochat_by_hand():
    r = posenc.RoPE.from_config(TINY, 1)
    assert (r.head_dim, r.rotary_dim, r.base, r.layout) == (16, 16, 10000.0, "half")
    assert r.model_type == "nanochat" and r.sense == -1
    want = [-(10000.0 ** (-2 * k / 16)) for k in range(8)]
    assert np.allclose(r.inv_freq, want, rtol=1e-15, atol=0)
    # pair 2 (elements 2, 10) at position 1000: theta = 1000 * 10000^(-1/4) = 100
    x = np.zeros((1, 16), dtype=np.float32)
    x[0, 2], x[0, 10] = 0.25, 1.5
    y = r.apply(x, positions=np.array([1000]))
    c, s = math.cos(100.0), math.sin(100.0)
    assert abs(y[0, 2] - (0.25 * c + 1.5 * s)) < 1e-6
    assert abs(y[0, 10] - (1.5 * c - 0.25 * s)) < 1e-6
    cos, sin = r.cos_sin(np.array([1000]), dtype=np.float64)
    assert abs(cos[0, 2] - c) < 1e-12 and abs(sin[0, 2] + s) < 1e-12


@needs_reader
def test_check_refuses_minus_theta():
    x = np.zeros((2, 1, 16), np.float32)
    with pytest.raises(ValueError, match=r"model_type nanochat turns q and k by -theta"):
        posenc.check(x, x, np.array([0, 1]), TINY)


@needs_reader
def test_torch_refuses_minus_theta():
    pt = pytest.importorskip("posenc.torch")
    with pytest.raises(ValueError, match=r"'nanochat' turns q and k by -theta"):
        pt.RotaryEmbedding(TINY)


@needs_reader
def test_cache_and_pickle_keep_the_sense():
    import pickle

    r = posenc.RoPE.from_config(TINY)
    x = np.random.default_rng(0).standard_normal((5, 2, 16)).astype(np.float32)
    pos = np.array([0, 1, 7, 50, 99])
    want = r.apply(x.copy(), positions=pos)
    cached = posenc.RoPE.from_config(TINY).use_cache(100)
    assert np.array_equal(cached.apply(x.copy(), positions=pos), want)
    back = pickle.loads(pickle.dumps(cached))
    assert back.sense == -1 and r.with_seq_len(100).sense == -1
    assert np.array_equal(back.apply(x.copy(), positions=pos), want)
    # and it is the inverse of plain RoPE's forward turn
    plain = posenc.RoPE(16, base=10000.0, layout="half")
    assert np.array_equal(plain.apply(x.copy(), positions=pos, inverse=True), want)
