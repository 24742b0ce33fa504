"""posenc.schemes.relative_sinusoid: XLNet's and Funnel's distances against
the formulas of their code worked by hand (modeling_xlnet.py L943-971;
modeling_funnel.py L186-216), the vectors against NumPy's float32 steps of
[sin | cos](p / 10000^(2k/d)), and the refusals (the numbers against
transformers' running code are in tests/hf/test_relsin_hf.py)."""
import numpy as np
import pytest

import posenc

needs_reader = pytest.mark.skipif(not posenc.have_config_reader(),
                                  reason="built without the config reader (apt-get install libjansson-dev)")

XLNET = {"model_type": "xlnet", "d_model": 8, "n_layer": 2, "n_head": 2}
FUNNEL = {"model_type": "funnel", "block_sizes": [1, 2], "num_decoder_layers": 1, "d_model": 8}


def _vectors(p, d):
    # float32 steps: e = (2k) / d, w = 1 / 10000^e, a = p * w (sin and cos of a
    # in double, rounded once: within an ulp of the correctly rounded sinf)
    e = (np.arange(0, d, 2, dtype=np.float32) / np.float32(d)).astype(np.float32)
    w = (np.float32(1) / np.power(np.float32(10000), e, dtype=np.float32)).astype(np.float32)
    a = (np.asarray(p, dtype=np.float32)[:, None] * w[None]).astype(np.float32)
    return np.concatenate([np.sin(a.astype(np.float64)), np.cos(a.astype(np.float64))], axis=1)


@needs_reader
def test_xlnet_distances_and_vectors():
    import posenc.schemes as ps
    pos, pe = ps.relative_sinusoid(XLNET, 0, seq_len=4)
    assert pos.tolist() == [4, 3, 2, 1, 0, -1, -2, -3]  # arange(klen, -qlen, -1)
    assert pe.dtype == np.float32 and pe.shape == (8, 8)
    assert np.abs(pe - _vectors(pos, 8)).max() <= 2.0 ** -22
    uni = dict(XLNET, attn_type="uni", clamp_len=2)
    pos, _ = ps.relative_sinusoid(uni, 1, seq_len=4)
    assert pos.tolist() == [2, 2, 2, 1, 0]  # arange(klen, -1, -1), clamped to 2
    pos, pe = ps.relative_sinusoid(uni, 1, distances=[-9, -1, 7])
    assert pos.tolist() == [-2, -1, 2]
    assert pe[0, 0] == -ps.relative_sinusoid(uni, 1, distances=[2])[1][0, 0]  # sin is odd


@needs_reader
def test_funnel_blocks():
    import posenc.schemes as ps
    # block 0: relative_pos(0..5, stride 1): max 0 + 1 * 6, min 0 - 5
    pos, _ = ps.relative_sinusoid(FUNNEL, 0, seq_len=6)
    assert pos.tolist() == [6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5]
    # block 1, first layer (pool_q_only): pooled [-1, 1, 3] (separate_cls, truncate_seq)
    # against 0..5 at stride 1, shift 2: max -1 + 2 * 3, min -1 - 5
    pos, _ = ps.relative_sinusoid(FUNNEL, 1, seq_len=6)
    assert pos.tolist() == list(range(5, -7, -1))
    # block 1, second layer: [-1, 1, 3] against itself, stride 2: ref_point 0,
    # max 0 + 1 * 3 * 2, min -1 - 3
    pos, _ = ps.relative_sinusoid(FUNNEL, 2, seq_len=6)
    assert pos.tolist() == [6, 4, 2, 0, -2, -4]
    # the decoder (layer 3) reads block 0 at the full length
    assert ps.relative_sinusoid(FUNNEL, 3, seq_len=6)[0].tolist()[:2] == [6, 5]
    fac = dict(FUNNEL, attention_type="factorized")
    # stride_pool of 0..5: ([0] + [0..5])[:-1:2] = [0, 1, 3]
    assert ps.relative_sinusoid(fac, 2, seq_len=6)[0].tolist() == [0, 1, 3]


@needs_reader
def test_torch_and_refusals():
    import posenc.schemes as ps
    torch = pytest.importorskip("torch", minversion="2.4")
    import posenc.torch as pt
    p, pe = pt.relative_sinusoid(XLNET, 0, seq_len=3)
    assert p.dtype == torch.int64 and pe.dtype == torch.float32 and tuple(pe.shape) == (6, 8)
    with pytest.raises(ValueError, match="Funnel"):
        ps.relative_sinusoid(FUNNEL, 1, seq_len=2)  # no pooling at 2 tokens
    with pytest.raises(ValueError, match="scheme is rope"):
        ps.relative_sinusoid({"model_type": "llama"}, 0)
    with pytest.raises(ValueError, match="seq_len 0"):
        ps.relative_sinusoid(XLNET, 0, seq_len=0)
    with pytest.raises(ValueError, match="relative-sinusoid"):
        ps.sinusoid_table(XLNET, 0)
    with pytest.raises(ValueError, match="65537 distances"):
        ps.relative_sinusoid(XLNET, 0, distances=range(65537))
    with pytest.raises(TypeError):
        ps.relative_sinusoid(XLNET, "0")
    with pytest.raises(TypeError):
        ps.relative_sinusoid(XLNET, 0, seq_len=True)
    with pytest.raises(ValueError, match="attn_type"):
        ps.relative_sinusoid(dict(XLNET, attn_type="both"), 0)
