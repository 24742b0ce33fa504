"""posenc.schemes.layer_arrays and relative_buckets(q_pos=, k_pos=): one call for
a config's layer, as `posenc golden --config F --layer N` writes it. Values
against mpmath (the lesson's sinusoid rounded once; fairseq's in float32 steps,
bounded by its angle's rounding), T5's hand-worked buckets (docs/SCHEMES.md),
DeBERTa's make_log_bucket_position in exact arithmetic, and the refusals by
argument name. The numbers against transformers' running code are in
tests/hf/test_plots_schemes_hf.py."""
import numpy as np
import pytest

import posenc

mpmath = pytest.importorskip("mpmath")

needs_reader = pytest.mark.skipif(not posenc.have_config_reader(),
                                  reason="built without the config reader (apt-get install libjansson-dev)")

M2M = {"model_type": "m2m_100", "d_model": 8, "encoder_layers": 1, "decoder_layers": 1,
       "max_position_embeddings": 32, "pad_token_id": 1}
DISTILBERT = {"model_type": "distilbert", "dim": 12, "n_layers": 1, "n_heads": 2,
              "max_position_embeddings": 64, "sinusoidal_pos_embds": True}
T5 = {"model_type": "t5", "d_model": 8, "num_layers": 1, "num_decoder_layers": 1}
DEBERTA = {"model_type": "deberta-v2", "hidden_size": 16, "num_hidden_layers": 1,
           "num_attention_heads": 2, "max_position_embeddings": 512,
           "relative_attention": True, "position_buckets": 16, "max_relative_positions": 64,
           "pos_att_type": "p2c|c2p",
           "position_biased_input": False}
mpmath.mp.dps = 40


def _fairseq(t, i, dim, offset):
    h = dim // 2
    k = i % h
    w = mpmath.exp(-k * mpmath.log(10000) / (h - 1))
    a = (t + offset) * w
    return float(mpmath.sin(a) if i < h else mpmath.cos(a))


def _lesson(t, i, dim):
    a = t / mpmath.power(10000, mpmath.mpf(2 * (i // 2)) / dim)
    return float(mpmath.sin(a) if i % 2 == 0 else mpmath.cos(a))


def _deberta(rel, bucket_size, max_position):
    """make_log_bucket_position (modeling_deberta_v2.py L51-63) exactly; None
    where the scaled value is within 1e-6 of a whole number (float32 may round
    it either way)."""
    mid = bucket_size // 2
    a = abs(rel)
    if a <= mid:
        return rel
    s = mpmath.log(mpmath.mpf(a) / mid) / mpmath.log(mpmath.mpf(max_position - 1) / mid) * (mid - 1)
    if abs(s - mpmath.nint(s)) < 1e-6:
        return None
    b = int(mpmath.ceil(s)) + mid
    return b if rel > 0 else -b


@needs_reader
def test_fairseq_and_lesson_tables():
    import posenc.schemes as ps
    tokens = [0, 3, 11, 40, 2]
    g = ps.layer_arrays(M2M, 0, tokens)
    assert sorted(g) == ["pe", "positions"]
    assert g["positions"].dtype == np.int64 and g["positions"].tolist() == tokens
    pe = g["pe"]
    assert pe.dtype == np.float32 and pe.shape == (5, 8)
    for r, t in enumerate(tokens):
        for i in range(8):
            # float32 angle (t + 2) w: within (t + 2 + 1) ulp(1)
            assert abs(pe[r, i] - _fairseq(t, i, 8, 2)) <= (t + 3) * 2.0 ** -23
    g = ps.layer_arrays(DISTILBERT, 0, [5, 0, 9])
    for r, t in enumerate([5, 0, 9]):
        for i in range(12):
            assert abs(g["pe"][r, i] - _lesson(t, i, 12)) <= 2.0 ** -24
    # default positions: 0..31
    assert ps.layer_arrays(M2M, 1)["positions"].tolist() == list(range(32))


@needs_reader
def test_a_table_that_ends_is_refused_past_its_rows():
    """Marian's table is an nn.Embedding of max_position_embeddings rows
    (transformers 5.23 models/marian/modeling_marian.py L72-103), DistilBERT's
    too: past them no vector, as posenc golden; M2M100's grows (make_weights,
    m2m_100 L140-145) and is given at any index."""
    import posenc.schemes as ps
    marian = {"model_type": "marian", "d_model": 8, "encoder_layers": 1, "decoder_layers": 1,
              "max_position_embeddings": 16}
    assert ps.sinusoid_table(marian, 0, [15]).shape == (1, 8)
    with pytest.raises(ValueError, match="position 16 is past layer 1's 16-row sinusoid table"):
        ps.sinusoid_table(marian, 1, [3, 16])
    with pytest.raises(ValueError, match="position 64 is past layer 0's 64-row"):
        ps.layer_arrays(DISTILBERT, 0, [64])
    assert ps.sinusoid_table(M2M, 0, [32, 1000]).shape == (2, 8)


@needs_reader
def test_t5_buckets_queries_apart_from_keys():
    import posenc.schemes as ps
    q, k = [0, 20, 159, 4, 5], [20, 0, 159, 5, 4]
    enc = ps.layer_arrays(T5, 0, q_pos=q, k_pos=k)
    assert enc["q_pos"].tolist() == q and enc["k_pos"].tolist() == k
    b = enc["bucket"]
    assert b.dtype == np.int64 and b.shape == (5, 5)
    # hand-worked (32 buckets, 128): key 20 after query 0 is 26, before it 10
    assert b[0, 0] == 26 and b[1, 1] == 10 and b[2, 1] == 15 and b[0, 2] == 31
    assert b[3, 3] == 17 and b[4, 4] == 1 and b[2, 2] == 0
    dec = ps.relative_buckets(T5, 1, q_pos=[5, 113, 112, 16, 0], k_pos=[0, 5])
    assert dec[:, 0].tolist() == [5, 31, 30, 16, 0] and dec[4, 1] == 0
    # q_pos only: the keys are positions (default 0..15)
    one = ps.relative_buckets(T5, 0, q_pos=[3])
    assert one.shape == (1, 16) and one[0, :6].tolist() == [3, 2, 1, 0, 17, 18]
    square = ps.relative_buckets(T5, 0, positions=range(40))
    assert (ps.layer_arrays(T5, 0, positions=range(40))["bucket"] == square).all()


@needs_reader
def test_deberta_ids_against_the_formula():
    import posenc.schemes as ps
    q, k = [300, 0, 77, 12], list(range(0, 500, 13))
    b = ps.layer_arrays(DEBERTA, 0, q_pos=q, k_pos=k)["bucket"]
    checked = 0
    for r, qq in enumerate(q):
        for c, kk in enumerate(k):
            want = _deberta(qq - kk, 16, 64)
            if want is not None:
                assert b[r, c] == want, (qq, kk)
                checked += 1
    assert checked >= len(q) * len(k) - 4
    # by hand: rel 12 > mid 8: ceil(ln(12/8) / ln(63/8) * 7) + 8 = ceil(1.375) + 8 = 10;
    # rel -13: -(ceil(ln(13/8) / ln(63/8) * 7) + 8) = -(ceil(1.647) + 8) = -10
    assert b[1, 0] == 0 and b[3, 0] == 10 and b[1, 1] == -10


@needs_reader
def test_refusals_name_the_argument():
    import posenc.schemes as ps
    with pytest.raises(ValueError, match=r"^positions: -1 is negative"):
        ps.layer_arrays(M2M, 0, [3, -1])
    with pytest.raises(ValueError, match=r"^k_pos: -4 is negative"):
        ps.layer_arrays(T5, 0, q_pos=[0], k_pos=[-4])
    with pytest.raises(ValueError, match=r"^q_pos, k_pos: layer 0 has a sinusoid table"):
        ps.layer_arrays(M2M, 0, q_pos=[1])
    with pytest.raises(ValueError, match=r"^q_pos, k_pos: layer 0 has a sinusoid table"):
        ps.relative_buckets(M2M, 0, k_pos=[1])
    with pytest.raises(TypeError, match=r"^k_pos must be a 1-D sequence of integers"):
        ps.layer_arrays(T5, 0, k_pos=[0.5])
    with pytest.raises(TypeError, match=r"^positions must be a 1-D sequence of integers"):
        ps.layer_arrays(T5, 0, positions=[[1]])
    with pytest.raises(ValueError, match=r"^q_pos: 20000 positions, at most 16384"):
        ps.layer_arrays(T5, 0, q_pos=range(20000))
    with pytest.raises(ValueError, match=r"^q_pos and k_pos: 20000 distinct positions together"):
        ps.layer_arrays(T5, 0, q_pos=range(10000), k_pos=range(10000, 20000))
    with pytest.raises(ValueError, match="scheme is rope"):
        ps.layer_arrays({"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4,
                         "num_hidden_layers": 1})
    with pytest.raises(TypeError, match="layer must be an integer"):
        ps.layer_arrays(T5, "0")


@needs_reader
def test_torch_tensors():
    torch = pytest.importorskip("torch")
    import posenc.schemes as ps
    import posenc.torch as pt
    g = pt.layer_tensors(M2M, 0, torch.tensor([0, 3, 11]))
    assert g["positions"].dtype == torch.int64 and g["pe"].dtype == torch.float32
    assert (g["pe"].numpy() == ps.layer_arrays(M2M, 0, [0, 3, 11])["pe"]).all()
    b = pt.relative_buckets(T5, 1, q_pos=torch.tensor([5, 113]), k_pos=[0])
    assert b.dtype == torch.int64 and b[:, 0].tolist() == [5, 31]
    with pytest.raises(TypeError, match="^q_pos must be integers"):
        pt.layer_tensors(T5, 0, q_pos=torch.tensor([0.5]))
    with pytest.raises(ValueError, match="not relative buckets: use sinusoid_table"):
        pt.relative_buckets(M2M)
    with pytest.raises(ValueError, match="not a sinusoid table: use relative_buckets"):
        pt.sinusoid_table(T5)


@needs_reader
def test_a_dict_reads_as_its_file(tmp_path):
    """None in a dict is the file's null, not an absent key: DeBERTa-v2's
    max_relative_positions null is refused (configuration_deberta_v2.py
    declares it without None and transformers 5.23 refuses the config), from
    the file and from the dict alike; absent, the class default (-1:
    max_position_embeddings) reads."""
    import json
    import posenc.schemes as ps
    d = dict(DEBERTA, max_relative_positions=None)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(d))
    for src in (str(path), d):
        with pytest.raises(ValueError, match="max_relative_positions is null"):
            ps.layer_arrays(src, 0, q_pos=[0], k_pos=[1])
    absent = {k: v for k, v in d.items() if k != "max_relative_positions"}
    assert ps.layer_arrays(absent, 0, q_pos=[0], k_pos=[1])["bucket"].shape == (1, 1)
