"""The checkpoints' other schemes of include/posenc.h 1.7-1.11 (sinusoid layouts,
MPNet and DeBERTa relative ids, XLNet's relative sinusoid, RoFormer's rotation)
against transformers' own code, through the C library (ctypes: the Python
package has no bindings for them yet)."""
import ctypes
import os

import numpy as np
import pytest

torch = pytest.importorskip("torch", minversion="2.4")
transformers = pytest.importorskip("transformers")

_build = os.environ.get("POSENC_BUILD", os.path.join(os.getcwd(), "build"))
_path = os.path.join(_build, "libposenc.so")
if not os.path.exists(_path):
    pytest.skip("no build/libposenc.so", allow_module_level=True)
lib = ctypes.CDLL(_path)


class Spec(ctypes.Structure):
    _fields_ = [("order", ctypes.c_int), ("freqs", ctypes.c_int), ("arith", ctypes.c_int),
                ("base", ctypes.c_double), ("offset", ctypes.c_int64)]


LESSON, MARIAN, CTRL, FAIRSEQ, MUSICGEN = range(5)
i64p = ctypes.POINTER(ctypes.c_int64)


def spec(family, offset=0):
    s = Spec()
    assert lib.posenc_sinusoid_family_spec(family, ctypes.c_int64(offset), ctypes.byref(s)) == 0
    return s


def fill(s, positions, d, f32=True):
    pos = np.ascontiguousarray(positions, dtype=np.int64)
    out = np.empty((len(pos), d), dtype=np.float32 if f32 else np.float64)
    fn = lib.posenc_sinusoid_layout_fill_f32 if f32 else lib.posenc_sinusoid_layout_fill_f64
    st = fn(ctypes.byref(s), pos.ctypes.data_as(i64p), ctypes.c_size_t(len(pos)),
            ctypes.c_uint32(d), out.ctypes.data_as(ctypes.c_void_p))
    assert st == 0
    return out


def assert_torch_floats(ours, ref, pos):
    """posenc forms torch's float angles with correctly rounded expf/powf and
    takes correctly rounded sinf/cosf; torch's vectorised (SLEEF) functions are
    within an ulp of those: sin/cos differ by an ulp in about 4% of values, and
    expf at a few frequencies (k = 24 of 32, k = 96, 126, 239, 401 of 512 on an
    AVX-512 machine), whose ulp moves the angle by up to |pos| ulp(w)."""
    assert ours.shape == ref.shape
    ulp = np.spacing(np.abs(ref).astype(np.float32))
    tol = ulp + np.abs(np.asarray(pos, dtype=np.float64))[:, None] * 2.0 ** -24
    assert (np.abs(ours - ref) <= tol).all()
    assert (ours == ref).mean() > 0.9


@pytest.mark.parametrize("d", [8, 64, 512, 7])
def test_marian_pegasus_roformer_tables(d):
    # marian L78-91 (Pegasus and RoFormer have the same create_weight)
    from transformers.models.marian.modeling_marian import MarianSinusoidalPositionalEmbedding
    m = MarianSinusoidalPositionalEmbedding(1100, d)
    ref = m.create_weight().numpy()
    ours = fill(spec(MARIAN), np.arange(1100), d)
    assert np.abs(ours - ref).max() <= 2.0 ** -24  # each a rounding of the float64 value
    assert (ours != ref).mean() < 1e-3


@pytest.mark.parametrize("d", [16, 1024, 9])
def test_fairseq_tables_with_the_padding_offset(d):
    # m2m_100 L107-118 get_embedding; positions from padding_idx + 1 (L162-165)
    from transformers.models.m2m_100.modeling_m2m_100 import M2M100SinusoidalPositionalEmbedding
    pad = 1
    ref = M2M100SinusoidalPositionalEmbedding.get_embedding(2100, d, pad).numpy()
    ours = fill(spec(FAIRSEQ, pad + 1), np.arange(2000), d)
    want = ref[pad + 1: pad + 1 + 2000]
    assert_torch_floats(ours, want, np.arange(2000) + pad + 1)
    exact = fill(spec(FAIRSEQ, pad + 1), np.arange(2000), d, f32=False)
    # beside the exact value: the roundings of w (1 ulp with torch's expf) and of
    # the angle p * w, each up to p 2^-24 at p <= 2001, and of the value
    assert np.abs(exact - want).max() <= 4 * 2001 * 2.0 ** -24


def test_musicgen_cosines_first():
    from transformers.models.musicgen.modeling_musicgen import MusicgenSinusoidalPositionalEmbedding
    ref = MusicgenSinusoidalPositionalEmbedding.get_embedding(500, 64).numpy()
    ours = fill(spec(MUSICGEN), np.arange(500), 64)
    assert_torch_floats(ours, ref, np.arange(500))


def test_ctrl_table():
    from transformers.models.ctrl.modeling_ctrl import positional_encoding
    ref = positional_encoding(1000, 128, torch.float).numpy()
    ours = fill(spec(CTRL), np.arange(1000), 128)
    assert_torch_floats(ours, ref, np.arange(1000))


@pytest.mark.parametrize("attn_type,clamp", [("bi", -1), ("uni", -1), ("bi", 3)])
def test_xlnet_relative_sinusoid(attn_type, clamp):
    cfg = transformers.XLNetConfig(d_model=32, n_layer=1, n_head=2, d_inner=64,
                                   attn_type=attn_type, clamp_len=clamp)
    model = transformers.XLNetModel(cfg)
    ref = model.relative_positional_encoding(5, 9)[:, 0, :].numpy()  # [klen + qlen or klen + 1, d]
    n = ctypes.c_size_t()
    buf = (ctypes.c_int64 * 64)()
    assert lib.posenc_xlnet_rel_positions(ctypes.c_uint32(5), ctypes.c_uint32(9),
                                          1 if attn_type == "bi" else 0, ctypes.c_int64(clamp),
                                          buf, ctypes.c_size_t(64), ctypes.byref(n)) == 0
    pos = np.array(buf[: n.value], dtype=np.int64)
    ours = fill(spec(CTRL), pos, 32)
    assert_torch_floats(ours, ref, pos)


def test_mpnet_buckets():
    from transformers.models.mpnet.modeling_mpnet import MPNetEncoder
    q = torch.arange(300)[:, None]
    k = torch.arange(300)[None, :]
    ref = MPNetEncoder.relative_position_bucket(k - q).numpy()
    b = ctypes.c_uint32()
    for i in range(0, 300, 7):
        for j in range(300):
            assert lib.posenc_mpnet_bucket(ctypes.c_int64(i), ctypes.c_int64(j), 32, 128,
                                           ctypes.byref(b)) == 0
            assert b.value == ref[i, j]


@pytest.mark.parametrize("bs,mp", [(256, 512), (32, 128), (0, 0)])
def test_deberta_relative_ids(bs, mp):
    from transformers.models.deberta_v2.modeling_deberta_v2 import build_relative_position
    nq, nk = 700, 650
    ref = build_relative_position(torch.zeros(nq, 1), torch.zeros(nk, 1), bs if bs else -1,
                                  mp if mp else -1)[0].numpy()
    out = np.empty((nq, nk), dtype=np.int64)
    assert lib.posenc_deberta_relative_ids(nq, nk, bs, mp, out.ctypes.data_as(i64p)) == 0
    assert np.array_equal(out, ref)


def test_deberta_v1_relative_ids():
    from transformers.models.deberta.modeling_deberta import build_relative_position
    ref = build_relative_position(torch.zeros(40, 1), torch.zeros(55, 1))[0].numpy()
    out = np.empty((40, 55), dtype=np.int64)
    assert lib.posenc_deberta_relative_ids(40, 55, 0, 0, out.ctypes.data_as(i64p)) == 0
    assert np.array_equal(out, ref)


def test_roformer_rotation():
    from transformers.models.roformer.modeling_roformer import (
        RoFormerSelfAttention, RoFormerSinusoidalPositionalEmbedding)
    d, n = 64, 300
    emb = RoFormerSinusoidalPositionalEmbedding(n, d)
    with torch.no_grad():
        emb.weight.copy_(emb.create_weight())
    sp = emb((1, n))[None, None]
    g = torch.Generator().manual_seed(3)
    q = torch.randn(1, 1, n, d, generator=g)
    rq, _ = RoFormerSelfAttention.apply_rotary_position_embeddings(sp, q, q.clone())
    ours = q[0, 0].numpy().copy()
    f32p = ctypes.POINTER(ctypes.c_float)
    for p in range(n):
        row = ours[p]
        assert lib.posenc_roformer_rotate_f32(ctypes.c_int64(p), ctypes.c_uint32(d),
                                              ctypes.c_double(10000.0), row.ctypes.data_as(f32p)) == 0
    assert np.array_equal(ours, rq[0, 0].numpy())


@pytest.mark.parametrize("separate_cls,truncate_seq", [(True, True), (True, False), (False, True)])
def test_funnel_relative_positions(separate_cls, truncate_seq):
    # modeling_funnel.py L152-216, the lists of get_position_embeds' loop
    from transformers.models.funnel.modeling_funnel import FunnelAttentionStructure
    for n in (1, 2, 3, 7, 16, 33, 128):
        cfg = transformers.FunnelConfig(block_sizes=[1, 1, 1, 1], d_model=8, n_head=1, d_head=8,
                                        separate_cls=separate_cls, truncate_seq=truncate_seq)
        st = FunnelAttentionStructure(cfg)
        pos = list(range(n))
        pooled_pos = pos
        for b in range(cfg.num_blocks):
            want = {}
            if b > 0:
                pooled_pos = st.stride_pool_pos(pos, b)
                want[1] = st.relative_pos(pos, 2 ** (b - 1), pooled_pos, shift=2).tolist()
            pos = pooled_pos
            want[0] = st.relative_pos(pos, 2 ** b).tolist()
            for pooling, w in want.items():
                buf = (ctypes.c_int64 * 4096)()
                cnt = ctypes.c_size_t()
                assert lib.posenc_funnel_rel_positions(n, b, pooling, int(separate_cls),
                                                       int(truncate_seq), buf, ctypes.c_size_t(4096),
                                                       ctypes.byref(cnt)) == 0
                assert list(buf[: cnt.value]) == w, (n, b, pooling)


def test_funnel_sinusoid_is_ctrls():
    from transformers.models.funnel.modeling_funnel import FunnelAttentionStructure
    cfg = transformers.FunnelConfig(d_model=64, n_head=1, d_head=64, hidden_dropout=0.0)
    st = FunnelAttentionStructure(cfg).eval()
    n = 50
    d = cfg.d_model
    freq_seq = torch.arange(0, d // 2, 1.0, dtype=torch.int64).float()
    inv_freq = 1 / (10000 ** (freq_seq / (d // 2)))  # L141-142
    rel = torch.arange(-n * 2, n * 2, 1.0, dtype=torch.int64).float()
    s = rel[:, None] * inv_freq[None]
    ref = torch.cat([torch.sin(s), torch.cos(s)], dim=-1).numpy()  # L144-149
    ours = fill(spec(CTRL), np.arange(-n * 2, n * 2), d)
    assert_torch_floats(ours, ref, np.arange(-n * 2, n * 2))


def test_cpmant_buckets():
    cfg = transformers.CpmAntConfig(hidden_size=16, num_attention_heads=1, dim_head=16,
                                    num_hidden_layers=1, dim_ff=16)
    from transformers.models.cpmant.modeling_cpmant import CpmAntSegmentPositionEmbedding
    m = CpmAntSegmentPositionEmbedding(cfg)
    n = 40
    seg = torch.tensor([[0] * 15 + [1] * 10 + [2] * 15])
    pos = torch.arange(n)[None]
    with torch.no_grad():
        m.relative_attention_bias.copy_(torch.arange(m.relative_attention_bias.numel()).float()
                                        .view_as(m.relative_attention_bias))
        bias = m(pos, pos, seg, seg)[0, 0].long().numpy()  # the table row index = the bucket
    b = ctypes.c_uint32()
    for i in range(n):
        for j in range(n):
            assert lib.posenc_cpmant_bucket(ctypes.c_int64(i), ctypes.c_int64(j),
                                            int(seg[0, i]), int(seg[0, j]),
                                            cfg.position_bias_num_buckets,
                                            cfg.position_bias_max_distance, cfg.segment_types,
                                            ctypes.byref(b)) == 0
            assert b.value == bias[i, j], (i, j)


def test_tapas_positions_reset_per_cell():
    # modeling_tapas.py L105-121: capture the ids TapasEmbeddings looks up
    cfg = transformers.TapasConfig(hidden_size=8, num_attention_heads=1, num_hidden_layers=1,
                                   intermediate_size=8, max_position_embeddings=6,
                                   reset_position_index_per_cell=True)
    from transformers.models.tapas.modeling_tapas import TapasEmbeddings
    emb = TapasEmbeddings(cfg)
    seen = {}
    real = emb.position_embeddings

    class Spy(torch.nn.Module):
        def forward(self, ids):
            seen["ids"] = ids.clone()
            return real(ids)

    emb.position_embeddings = Spy()
    col = [0, 0, 0, 0, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 0]
    row = [0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 0]
    n = len(col)
    tt = torch.zeros(1, n, 7, dtype=torch.long)
    tt[0, :, 1] = torch.tensor(col)
    tt[0, :, 2] = torch.tensor(row)
    emb(input_ids=torch.ones(1, n, dtype=torch.long), token_type_ids=tt)
    c = np.array(col, dtype=np.uint32)
    r = np.array(row, dtype=np.uint32)
    out = np.empty(n, dtype=np.int64)
    u32p = ctypes.POINTER(ctypes.c_uint32)
    assert lib.posenc_tapas_positions(c.ctypes.data_as(u32p), r.ctypes.data_as(u32p),
                                      ctypes.c_size_t(n), 6, out.ctypes.data_as(i64p)) == 0
    assert out.tolist() == seen["ids"][0].tolist()


def test_reformer_axial_rows():
    # modeling_reformer.py L213-290: first axis's row p // w, second's p % w
    from transformers.models.reformer.modeling_reformer import AxialPositionEmbeddings
    cfg = transformers.ReformerConfig(axial_pos_shape=(8, 16), axial_pos_embds_dim=(1, 1),
                                      hidden_size=2, attn_layers=["local"], local_attn_chunk_length=4)
    m = AxialPositionEmbeddings(cfg).eval()
    with torch.no_grad():
        m.weights[0].copy_(torch.arange(8).float().view(8, 1, 1))
        m.weights[1].copy_(torch.arange(16).float().view(1, 16, 1))
        out = m(torch.arange(128)[None])[0].long().numpy()
    rr, cc = ctypes.c_int64(), ctypes.c_int64()
    for p in range(128):
        assert lib.posenc_axial_ids(ctypes.c_int64(p), 8, 16, ctypes.byref(rr), ctypes.byref(cc)) == 0
        assert (rr.value, cc.value) == tuple(out[p])


@pytest.mark.parametrize("g", [16, 3, 7])
def test_longt5_side_positions(g):
    from transformers.models.longt5.modeling_longt5 import _make_side_relative_position_ids
    for n in (1, 5, 16, 17, 40, 100, 1000):
        ref = _make_side_relative_position_ids(torch.ones(1, n), g)[0].numpy()
        cnt = ctypes.c_size_t()
        assert lib.posenc_longt5_side_positions(n, g, None, ctypes.c_size_t(0), ctypes.byref(cnt)) == 0
        out = np.empty((n, cnt.value), dtype=np.int64)
        assert lib.posenc_longt5_side_positions(n, g, out.ctypes.data_as(i64p),
                                                ctypes.c_size_t(out.size), ctypes.byref(cnt)) == 0
        assert out.shape == ref.shape and np.array_equal(out, ref)


def test_longt5_local_buckets_are_t5s():
    # modeling_longt5.py L606-620: the bias of query i, key j of the window
    from transformers.models.longt5.modeling_longt5 import LongT5LocalAttention
    cfg = transformers.LongT5Config(d_model=8, d_kv=8, num_heads=1, local_radius=5,
                                    encoder_attention_type="local")
    att = LongT5LocalAttention(cfg, has_relative_attention_bias=True)
    with torch.no_grad():
        att.relative_attention_bias.weight.copy_(
            torch.arange(cfg.relative_attention_num_buckets).float()[:, None])
        bias = att.compute_bias(6)[0, 0, 0].long().numpy()  # [block_length, 3 block_length]
    b = ctypes.c_uint32()
    for i in range(6):
        for j in range(18):
            assert lib.posenc_t5_bucket(ctypes.c_int64(6 + i), ctypes.c_int64(j),
                                        cfg.relative_attention_num_buckets,
                                        cfg.relative_attention_max_distance, 1,
                                        ctypes.byref(b)) == 0
            assert b.value == bias[i, j]


@pytest.mark.parametrize("n", [3, 5, 6, 12])
def test_vits_window_rows(n):
    # modeling_vits.py L907-911, L960-982: the key side's bias of query i, key j,
    # with row r of emb_rel_k = (r + 1, 0, ...) and q = (1, 0, ...)
    from transformers.models.vits.modeling_vits import VitsAttention
    cfg = transformers.VitsConfig(hidden_size=8, num_attention_heads=1, window_size=4)
    att = VitsAttention(cfg)
    with torch.no_grad():
        att.emb_rel_k.zero_()
        att.emb_rel_k[0, :, 0] = torch.arange(1, 10).float()
    rel = att._get_relative_embeddings(att.emb_rel_k, n)
    q = torch.zeros(1, n, 8)
    q[..., 0] = 1
    bias = att._relative_position_to_absolute_position(torch.matmul(q, rel.transpose(-2, -1)))[0]
    r = ctypes.c_int64()
    for i in range(n):
        for j in range(n):
            assert lib.posenc_window_rel_index(ctypes.c_int64(i), ctypes.c_int64(j), 4,
                                               ctypes.byref(r)) == 0
            assert r.value + 1 == int(bias[i, j])


def test_pegasus_x_is_fairseq_from_zero():
    # pegasus_x L113-120: fairseq's frequencies and order, positions from 0
    from transformers.models.pegasus_x.modeling_pegasus_x import PegasusXSinusoidalPositionalEmbedding
    ref = PegasusXSinusoidalPositionalEmbedding(64)(torch.zeros(1, 700, 64))[0].numpy()
    ours = fill(spec(FAIRSEQ, 0), np.arange(700), 64)
    assert_torch_floats(ours, ref, np.arange(700))
