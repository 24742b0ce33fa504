"""Hostile arguments at every Python entry point: each is refused with a
message naming the argument (and its limit), never narrowed silently (a
layer of 2**32 + 5 read as 5, a float position truncated, a thread count
wrapped to 1); the boundary value beside it is accepted and gives the
result of an independent reference (mpmath or a float64 formula here)."""
import math

import mpmath
import numpy as np
import pytest

import posenc
from conftest import data, f32_tol, mp_cos_sin, mp_inv_freq

MAX_POS = posenc.MAX_POS
LLAMA2 = data("llama-2-7b.json")  # 32 layers, head_dim 128, base 10000, half layout
needs_config = pytest.mark.skipif(not posenc.have_config_reader(),
                                  reason="built without the config reader (libjansson-dev)")


def ones(n_tok=16, n_head=2, d=128):
    return np.ones((n_tok, n_head, d), np.float32)


def rotated_f64(x, pos, base=10000.0):
    """Plain half-split RoPE of x [n_tok, n_head, d] in float64 (not the library)."""
    d = x.shape[-1]
    inv = base ** (-np.arange(0, d, 2, dtype=np.float64) / d)
    th = np.asarray(pos, np.float64)[:, None] * inv[None, :]
    c, s = np.cos(th)[:, None, :], np.sin(th)[:, None, :]
    a, b = x[..., : d // 2].astype(np.float64), x[..., d // 2:].astype(np.float64)
    return np.concatenate([a * c - b * s, a * s + b * c], axis=-1)


# ---- posenc.check ------------------------------------------------------------


@needs_config
@pytest.mark.parametrize("layer", [2**32 + 5, 2**32, 2**70, -1])
def test_check_layer_out_of_range_is_refused_not_wrapped(layer):
    x = ones()
    with pytest.raises(posenc.Error, match=f"layer must be 0 .. 1023 .*got {layer}"):
        posenc.check(x, x, np.arange(16), LLAMA2, layer=layer)


@needs_config
def test_check_layer_past_the_model_names_its_count():
    x = ones()
    with pytest.raises(ValueError, match=r"layer 32 does not exist: the model has 32 layers "
                                         r"\(0 to 31\)"):
        posenc.check(x, x, np.arange(16), LLAMA2, layer=32)
    with pytest.raises(TypeError, match="layer must be an integer, got float"):
        posenc.check(x, x, np.arange(16), LLAMA2, layer=1.0)


@needs_config
def test_check_last_layer_and_longest_length_are_accepted():
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, (16, 2, 128)).astype(np.float32)
    pos = np.arange(16) * 1000
    y = rotated_f64(x, pos).astype(np.float32)
    r = posenc.check(x, y, pos, LLAMA2, layer=31, seq_len=MAX_POS + 1)
    assert r.match and r.seq_len == MAX_POS + 1 and r.max_ulp <= 4
    y[3, 1, 7] += 0.25  # and a wrong one is still found at that boundary
    assert not posenc.check(x, y, pos, LLAMA2, layer=31, seq_len=MAX_POS + 1).match


@needs_config
@pytest.mark.parametrize("seq_len", [-5, 0, MAX_POS + 2, 2**64 + 3])
def test_check_seq_len_out_of_range_is_refused(seq_len):
    x = ones()
    with pytest.raises(posenc.Error, match=f"seq_len must be 1 .. {MAX_POS + 1}.*got {seq_len}"):
        posenc.check(x, x, np.arange(16), LLAMA2, seq_len=seq_len)


@needs_config
@pytest.mark.parametrize("tol, exc", [(-1, posenc.Error), (0, posenc.Error),
                                      (float("nan"), posenc.Error), (float("inf"), posenc.Error),
                                      ("4", TypeError), (True, TypeError)])
def test_check_tol_must_be_a_positive_number(tol, exc):
    x = ones()
    with pytest.raises(exc, match="tol must be"):
        posenc.check(x, x, np.arange(16), LLAMA2, tol=tol)


@needs_config
@pytest.mark.parametrize("pos", [np.arange(16) + 0.9, (np.arange(16) + 0.9).tolist(),
                                 np.arange(16).astype(np.float32), np.ones(16, bool)])
def test_check_float_or_bool_positions_are_refused(pos):
    rng = np.random.default_rng(2)
    x = rng.uniform(-1, 1, (16, 2, 128)).astype(np.float32)
    y = rotated_f64(x, np.arange(16)).astype(np.float32)  # what truncation would "match"
    with pytest.raises(TypeError, match="positions must be integers, got (float|bool)"):
        posenc.check(x, y, pos, LLAMA2)


@needs_config
def test_check_positions_past_int64_are_refused_not_wrapped():
    x = ones(2)
    with pytest.raises(posenc.Error, match=f"positions: {2**63} is past MAX_POS"):
        posenc.check(x, x, np.array([0, 2**63], np.uint64), LLAMA2)


@needs_config
def test_config_reads_are_bounded():
    x = ones()
    bound = 64 * 1024 * 1024  # include/posenc_config.h POSENC_CONFIG_MAX_BYTES
    for call in (lambda: posenc.check(x, x, np.arange(16), "/dev/zero"),
                 lambda: posenc.RoPE.from_config("/dev/zero")):
        with pytest.raises(posenc.Error, match=f"POSENC_CONFIG_MAX_BYTES = {bound}"):
            call()


# ---- RoPE ----------------------------------------------------------------------


def test_rope_head_dim_names_its_real_limit():
    with pytest.raises(posenc.Error, match=r"head_dim must be 1 .. 1024 .*got 2000"):
        posenc.RoPE(2000)
    for bad in (0, -1, 2**32 + 64, 2**70):
        with pytest.raises(posenc.Error, match=f"head_dim must be 1 .. 1024 .*got {bad}"):
            posenc.RoPE(bad)
    for bad in (64.0, 64.5, True, "64", np.float32(64)):
        with pytest.raises(TypeError, match="head_dim must be an integer"):
            posenc.RoPE(bad)
    with pytest.raises(posenc.Error, match=r"rotary_dim must be 0 .. 16 \(head_dim\), got 18"):
        posenc.RoPE(16, rotary_dim=18)
    for bad in (15, 0):
        with pytest.raises(posenc.Error, match=f"rotary_dim must be even, 2 .. 16 .*got {bad}"):
            posenc.RoPE(16, rotary_dim=bad)
    with pytest.raises(TypeError, match="rotary_dim must be an integer"):
        posenc.RoPE(16, rotary_dim=8.0)


def test_rope_at_the_largest_head_dim_and_position():
    r = posenc.RoPE(1024, base=10000.0)
    c, s = r.cos_sin(np.array([MAX_POS], np.int64), dtype=np.float64)
    for k in (0, 1, 255, 511):
        ec, es = mp_cos_sin(MAX_POS, mp_inv_freq(k, 1024, 10000.0))
        assert abs(c[0, k] - float(ec)) <= 1e-15 and abs(s[0, k] - float(es)) <= 1e-15


@pytest.mark.parametrize("seq_len", [-5, MAX_POS + 2, 2**70])
def test_seq_len_out_of_range_is_refused(seq_len):
    with pytest.raises(posenc.Error, match=f"seq_len must be 0 .. {MAX_POS + 1}.*got {seq_len}"):
        posenc.RoPE(64, seq_len=seq_len)
    with pytest.raises(posenc.Error, match="seq_len must be"):
        posenc.RoPE(64).with_seq_len(seq_len)
    if posenc.have_config_reader():
        with pytest.raises(posenc.Error, match="seq_len must be"):
            posenc.RoPE.from_config(LLAMA2, seq_len=seq_len)


@needs_config
@pytest.mark.parametrize("layer", [2**32 + 5, 2**70, -1])
def test_from_config_layer_out_of_range_is_refused(layer):
    with pytest.raises(posenc.Error, match=f"layer must be 0 .. 1023 .*got {layer}"):
        posenc.RoPE.from_config(LLAMA2, layer)


@pytest.mark.parametrize("threads", [0, 65, 2**32 + 1, 2**70, -1])
def test_threads_out_of_range_is_refused_not_wrapped(threads):
    r = posenc.RoPE(16)
    with pytest.raises(posenc.Error, match=f"threads must be 1 .. 64, got {threads}"):
        r.apply(np.ones((2, 16), np.float32), threads=threads)
    with pytest.raises(posenc.Error, match=f"threads must be 1 .. 64, got {threads}"):
        r.cos_sin([1, 2], threads=threads)
    with pytest.raises(posenc.Error, match=f"threads must be 1 .. 64, got {threads}"):
        posenc.alibi_bias(2, 3, threads=threads)
    with pytest.raises(posenc.Error, match=f"threads must be 1 .. 64, got {threads}"):
        posenc.t5_bias(np.ones((32, 2), np.float32), 3, threads=threads)
    with pytest.raises(TypeError, match="threads must be an integer"):
        r.apply(np.ones((2, 16), np.float32), threads=2.0)


@pytest.mark.parametrize("pos", [2.5, True, np.float64(3.0), np.arange(3) + 0.5,
                                 [0, 1.5, 2], np.ones(3, bool), np.arange(3).astype(complex)])
def test_apply_and_cos_sin_refuse_non_integer_positions_and_write_nothing(pos):
    r = posenc.RoPE(16)
    q = np.ones((3, 2, 16), np.float32)
    with pytest.raises(TypeError, match="positions must be integers, got"):
        r.apply(q, positions=pos)
    assert np.all(q == 1)
    if not isinstance(pos, (float, bool, np.floating)):
        with pytest.raises(TypeError, match="positions must be integers, got"):
            r.cos_sin(pos)


def test_apply_first_position_range():
    r = posenc.RoPE(16)
    q = np.ones((1, 1, 16), np.float32)
    for bad in (-1, MAX_POS + 1, 2**64 + 2):
        with pytest.raises(posenc.Error, match=f"positions must be 0 .. {MAX_POS}, got {bad}"):
            r.apply(q, positions=bad)
    assert np.all(q == 1)
    # the last position: one token, checked against mpmath
    y = r.apply(q, positions=MAX_POS, inplace=False)
    for k in range(8):
        ec, es = mp_cos_sin(MAX_POS, mp_inv_freq(k, 16, 10000.0))
        want0, want1 = float(ec) - float(es), float(es) + float(ec)
        assert abs(y[0, 0, k] - want0) <= 2 * f32_tol(want0)
        assert abs(y[0, 0, k + 8] - want1) <= 2 * f32_tol(want1)
    with pytest.raises(posenc.Error, match=f"positions: {2**63} is past MAX_POS"):
        r.cos_sin(np.array([2**63], np.uint64))


def test_use_cache_past_the_memory_is_refused_before_allocating():
    r = posenc.RoPE(1024)
    with pytest.raises(MemoryError, match=r"max_pos: a cos/sin cache of 2147483648 positions "
                                          r"\(max_pos \* rotary_dim \* 4 bytes\) needs 8192.0 GiB"):
        r.use_cache(2**31)
    assert r.cache_len == 0
    assert r.use_cache(4096).cache_len == 4096  # a small one is made


@pytest.mark.parametrize("max_pos", [-1, MAX_POS + 2, 2**70])
def test_use_cache_out_of_range_is_refused(max_pos):
    with pytest.raises(posenc.Error, match=f"max_pos must be 0 .. {MAX_POS + 1}.*got {max_pos}"):
        posenc.RoPE(16).use_cache(max_pos)


# ---- tables, ALiBi, T5, M-RoPE ---------------------------------------------------


def test_sinusoid_arguments():
    for kw, name in (({"n_pos": -5, "d": 4}, "n_pos"), ({"n_pos": 2, "d": 2**32 + 4}, "d"),
                     ({"n_pos": 2, "d": 0}, "d"), ({"n_pos": 2, "d": 4, "pos0": 2**70}, "pos0"),
                     ({"n_pos": 2, "d": 4, "pos0": -1}, "pos0")):
        with pytest.raises(posenc.Error, match=f"{name} must be"):
            posenc.sinusoid(**kw)
    for kw, name in (({"n_pos": 2.5, "d": 4}, "n_pos"), ({"n_pos": 2, "d": 4.0}, "d"),
                     ({"n_pos": 2, "d": 4, "pos0": 1.5}, "pos0")):
        with pytest.raises(TypeError, match=f"{name} must be an integer"):
            posenc.sinusoid(**kw)
    t = posenc.sinusoid(1, 4, pos0=MAX_POS, dtype=np.float64)  # the last position
    for i in range(4):
        f = mpmath.mpf(10000) ** (-mpmath.mpf(2 * (i // 2)) / 4)
        want = (mpmath.sin if i % 2 == 0 else mpmath.cos)(MAX_POS * f)
        assert abs(t[0, i] - float(want)) <= 4 * np.spacing(abs(float(want)))


def test_alibi_arguments():
    for bad in (0, 2**32 + 4, -1):
        with pytest.raises(posenc.Error, match=f"n_head must be 1 .. 1048576 .*, got {bad}"):
            posenc.alibi_slopes(bad)
    with pytest.raises(TypeError, match="n_head must be an integer"):
        posenc.alibi_slopes(8.0)
    with pytest.raises(posenc.Error, match="q_offset must be 0 .. 2147483647"):
        posenc.alibi_bias(2, 2, q_offset=2**70)
    with pytest.raises(posenc.Error, match="n_query must be 1 .."):
        posenc.alibi_bias(2, -1)
    # 64 threads (the limit) give the formula's values: -m_h |i - j|, m_h = 2^(-8h/H)
    b = posenc.alibi_bias(4, 5, 6, q_offset=1, threads=64)
    h, i, j = np.meshgrid(np.arange(4), np.arange(5), np.arange(6), indexing="ij")
    want = -(2.0 ** (-8.0 * (h + 1) / 4)) * np.abs(1 + i - j)
    assert np.array_equal(b, want.astype(np.float32))


def test_t5_arguments():
    with pytest.raises(posenc.Error, match="num_buckets must be 2 .. 1048576, got 4294967328"):
        posenc.t5_bucket(0, 20, num_buckets=2**32 + 32)
    with pytest.raises(posenc.Error, match="max_distance must be 1 .."):
        posenc.t5_bucket(0, 20, max_distance=2**32 + 128)
    for q, k, name in ((0.5, 20, "query_pos"), (0, [20.0], "key_pos"), (True, 3, "query_pos")):
        with pytest.raises(TypeError, match=f"{name} must be integers"):
            posenc.t5_bucket(q, k)
    with pytest.raises(posenc.Error, match="q_offset must be 0 .."):
        posenc.t5_bias(np.ones((32, 2), np.float32), 2, q_offset=-1)
    # posenc.h's worked example, and T5's rule for a short distance (bucket = nb' + r)
    assert int(posenc.t5_bucket(0, 20)) == 26
    assert int(posenc.t5_bucket(0, 5)) == 16 + 5


def test_mrope_section_must_be_integers():
    with pytest.raises(TypeError, match="section must be an integer, got float"):
        posenc.MRoPE(posenc.RoPE(128), [16.5, 24, 24])
    with pytest.raises(posenc.Error, match="section must be 0 .."):
        posenc.MRoPE(posenc.RoPE(128), [2**32 + 16, 24, 24])
    assert posenc.MRoPE(posenc.RoPE(128), [np.int64(16), 24, 24]).section == [16, 24, 24]


# ---- torch ------------------------------------------------------------------------


def test_torch_positions_must_be_integers():
    torch = pytest.importorskip("torch")
    r = posenc.RoPE(16)
    q = torch.ones(3, 2, 16)
    for pos in (torch.arange(3) + 0.9, torch.ones(3, dtype=torch.bool),
                torch.arange(3, dtype=torch.float64)):
        with pytest.raises(TypeError, match=f"positions must be integers .int64., got {pos.dtype}"):
            r.apply(q, positions=pos)
        with pytest.raises(TypeError, match="positions must be integers"):
            r.cos_sin(pos)
    assert torch.all(q == 1)
    try:
        import posenc.torch as ptorch
    except ImportError:
        pytest.skip("posenc.torch needs torch >= 2.4")
    x = torch.ones(3, 2, 16, requires_grad=True)
    with pytest.raises(TypeError, match="positions must be integers .int64., got torch.float32"):
        ptorch.rotate(r, x, torch.arange(3) + 0.9)
    with pytest.raises(TypeError, match="positions must be integers .int64., got torch.float32"):
        r.apply(x, positions=torch.arange(3) + 0.9, inplace=False)
    y = ptorch.rotate(r, x, torch.tensor([0, 1, MAX_POS]))
    want = r.apply(np.ones((3, 2, 16), np.float32), positions=[0, 1, MAX_POS], inplace=False)
    assert np.array_equal(y.detach().numpy(), want)
    assert math.isfinite(float(y.detach().sum()))


# ---- refusals that name the argument ----------------------------------------------


@pytest.mark.parametrize("scaling, rotary_dim, words", [
    ({"rope_type": "linear", "factor": 0.5}, 16,
     r"scaling\['factor'\] = 0.5 is out of range for the linear scaling \(factor >= 1"),
    ({"rope_type": "yarn", "factor": 4, "beta_fast": -1,
      "original_max_position_embeddings": 100}, 16, r"scaling\['beta_fast'\] = -1"),
    ({"rope_type": "yarn", "factor": 4}, 16, r"scaling\['original_max_position_embeddings'\]"),
    ({"rope_type": "llama3", "factor": 4, "low_freq_factor": 5, "high_freq_factor": 4,
      "original_max_position_embeddings": 100}, 16, r"scaling\['low_freq_factor'\] = 5"),
    ({"rope_type": "ntk", "factor": 4}, 2, r"rotary_dim = 2: the ntk scaling takes an even "
                                           r"rotary_dim from 4"),
])
def test_scaling_refusals_name_the_argument(scaling, rotary_dim, words):
    with pytest.raises(posenc.Error, match=words) as e:
        posenc.RoPE(16, rotary_dim=rotary_dim, scaling=scaling)
    assert e.value.status == 6 and "argument out of range" in str(e.value)
    # the boundary beside it is accepted: linear at factor 1 is plain RoPE (mpmath)
    r = posenc.RoPE(16, scaling={"rope_type": "linear", "factor": 1.0})
    c, s = r.cos_sin([70000], dtype=np.float64)
    ec, es = mp_cos_sin(70000, mp_inv_freq(3, 16, 10000.0))
    assert abs(c[0, 3] - float(ec)) <= 1e-15 and abs(s[0, 3] - float(es)) <= 1e-15


@needs_config
def test_a_config_that_is_no_file_is_not_called_a_file():
    with pytest.raises(posenc.Error, match="RoPE.from_config: malformed config: rope_theta"):
        posenc.RoPE.from_config({"model_type": "llama", "rope_theta": "abc", "hidden_size": 64,
                                 "num_attention_heads": 4})


def test_wrong_objects_are_type_errors_that_name_the_argument():
    r = posenc.RoPE(16)
    for q in (None, "abc", [[np.float32(1)] * 16]):
        with pytest.raises(TypeError, match="q must be a NumPy array or a torch tensor to be "
                                            "rotated in place"):
            r.apply(q)
    with pytest.raises(ValueError, match=r"section \[0, 1, 2, .*\.\.\.: three sizes"):
        posenc.MRoPE(r, np.arange(100))
    with pytest.raises(TypeError, match="path must be a file name"):
        posenc.learned_table(5)


def test_torch_wrong_objects_are_type_errors():
    torch = pytest.importorskip("torch")
    try:
        import posenc.torch as ptorch
    except ImportError:
        pytest.skip("posenc.torch needs torch >= 2.4")
    r = posenc.RoPE(16)
    with pytest.raises(TypeError, match="k must be a torch tensor when q is one, got ndarray"):
        r.apply(torch.ones(2, 16), np.ones((2, 16), np.float32))
    with pytest.raises(TypeError, match="x must be a torch tensor, got ndarray"):
        ptorch.rotate(r, np.ones((2, 16), np.float32), torch.arange(2))
    # positions as a list are integers like any other
    y = ptorch.rotate(r, torch.ones(2, 16), [0, MAX_POS])
    assert torch.equal(y, ptorch.rotate(r, torch.ones(2, 16), torch.tensor([0, MAX_POS])))
