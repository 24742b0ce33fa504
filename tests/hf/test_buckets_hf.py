"""LongT5's encoder (local and transient-global attention), CPM-Ant's segment
buckets and VITS's windowed relative rows: `posenc golden --config F --layer
N` and posenc.schemes.relative_buckets against what transformers 5.23's
running code computes, on tiny models built from configs (random weights, no
network). Each model's bias table is overwritten so that row r holds r in its
first head: the bias the code adds at (query, key) then reads back as the
bucket it looked up, exactly (integers below 2^24 in float32); where the code
masks a pair out the bias is r - 1e10, read as -1 (posenc's "not attended").

The real checkpoints' values (their config.json, position keys only):
  google/long-t5-local-base:    encoder_attention_type "local", local_radius 127,
                                global_block_size 16, relative_attention_num_buckets 32,
                                relative_attention_max_distance 128, num_layers 12
  google/long-t5-tglobal-base:  the same with encoder_attention_type "transient-global"
  openbmb/cpm-ant-10b:          position_bias_num_buckets 512,
                                position_bias_max_distance 2048, segment_types 32,
                                prompt_length 32, num_hidden_layers 48
  facebook/mms-tts-eng, kakao-enterprise/vits-ljs: window_size 4, num_hidden_layers 6
"""
import json
import os
import subprocess

import numpy as np
import pytest

torch = pytest.importorskip("torch", minversion="2.4")
transformers = pytest.importorskip("transformers")
st_numpy = pytest.importorskip("safetensors.numpy")

PROGRAM = os.environ.get("POSENC_PROGRAM", os.path.join(os.getcwd(), "build", "posenc"))
if not os.path.exists(PROGRAM):
    pytest.skip("no build/posenc", allow_module_level=True)

LONGT5_LOCAL_BASE = dict(encoder_attention_type="local", local_radius=127, global_block_size=16,
                         relative_attention_num_buckets=32, relative_attention_max_distance=128)
LONGT5_TGLOBAL_BASE = dict(LONGT5_LOCAL_BASE, encoder_attention_type="transient-global")
CPM_ANT_10B = dict(position_bias_num_buckets=512, position_bias_max_distance=2048,
                   segment_types=32, prompt_length=32)
MMS_TTS_ENG = dict(window_size=4)


def _golden(tmp_path, d, layer, positions):
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps(d))
    out = tmp_path / f"g{layer}.safetensors"
    r = subprocess.run([PROGRAM, "golden", "--config", str(cfg), "--layer", str(layer),
                        "--positions", positions, "-o", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return st_numpy.load_file(str(out)), r.stdout


def _config(model_type, d):
    return transformers.AutoConfig.for_model(
        model_type, **{k: v for k, v in d.items() if k != "model_type"})


def _rows_read_back(weight):
    """weight [rows, heads]: row r holds r in head 0 (0 elsewhere)"""
    with torch.no_grad():
        weight.zero_()
        weight[:, 0] = torch.arange(weight.shape[0], dtype=weight.dtype)


def _as_ids(bias):
    """the bias read back as the row looked up; masked pairs (r - 1e10) as -1"""
    b = bias.detach().double().numpy()
    return np.where(b < -1e5, -1, np.rint(b)).astype(np.int64)


# ---- LongT5 ---------------------------------------------------------------------------


def _longt5_model(extra):
    d = dict(model_type="longt5", d_model=16, d_kv=8, d_ff=8, num_layers=2, num_decoder_layers=1,
             num_heads=2, vocab_size=64, **extra)
    torch.manual_seed(0)
    return d, transformers.LongT5EncoderModel(_config("longt5", d)).eval()


def _longt5_truth(model, n):
    """the bias block 0's attention adds (modeling_longt5.py L666-681, L893-926),
    caught at its output (outputs[1]: (1, blocks, heads, block_len, 3 block_len
    [+ n_global])), spread back to (query, key) over the three-block window
    (L120-142: key j of block b is token (b - 1) block_len + j)"""
    block = model.encoder.block[0].layer[0]
    att = getattr(block, "LocalSelfAttention", None) or block.TransientGlobalSelfAttention
    _rows_read_back(att.relative_attention_bias.weight)
    tglobal = hasattr(att, "global_relative_attention_bias")
    if tglobal:
        _rows_read_back(att.global_relative_attention_bias.weight)
    seen = []
    h = att.register_forward_hook(lambda mod, a, o: seen.append(o[1]))
    with torch.no_grad():
        model(input_ids=torch.full((1, n), 5))
    h.remove()
    pb = _as_ids(seen[0][0, :, 0])  # (blocks, block_len, 3 block_len [+ n_global])
    bl = att.block_len
    bucket = np.full((n, n), -1, dtype=np.int64)
    for q in range(n):
        b, i = divmod(q, bl)
        for k in range(n):
            j = k - (b - 1) * bl
            if 0 <= j < 3 * bl:
                bucket[q, k] = pb[b, i, j]
    side = None
    if tglobal:
        side = np.stack([pb[q // bl, q % bl, 3 * bl:] for q in range(n)])
    return bucket, side


@pytest.mark.parametrize("extra,n", [
    (dict(local_radius=5, relative_attention_num_buckets=8, relative_attention_max_distance=6), 23),
    (dict(local_radius=2, relative_attention_num_buckets=32, relative_attention_max_distance=128), 10),
    (dict(local_radius=5, global_block_size=3, encoder_attention_type="transient-global",
          relative_attention_num_buckets=8, relative_attention_max_distance=6), 23),
    (dict(local_radius=3, global_block_size=4, encoder_attention_type="transient-global",
          relative_attention_num_buckets=16, relative_attention_max_distance=20), 50),
    (LONGT5_LOCAL_BASE, 300),
    (LONGT5_TGLOBAL_BASE, 300),
])
def test_longt5_encoder_golden_equals_the_model(extra, n, tmp_path):
    d, model = _longt5_model(extra)
    want, want_side = _longt5_truth(model, n)
    assert (want == -1).any() and (want >= 0).any()
    for layer in (0, 1):  # layer 1 reuses layer 0's bias (L1254, L1395-1399)
        g, line = _golden(tmp_path, d, layer, f"0-{n - 1}")
        assert (g["bucket"] == want).all()
        assert (g["q_pos"] == np.arange(n)).all() and (g["k_pos"] == np.arange(n)).all()
        tg = extra.get("encoder_attention_type") == "transient-global"
        assert ("side_bucket" in g) == tg
        if tg:
            assert g["side_bucket"].shape == want_side.shape
            assert (g["side_bucket"] == want_side).all()
            assert f"n_global={want_side.shape[1]}" in line
    posenc_schemes = pytest.importorskip("posenc.schemes")
    assert (posenc_schemes.relative_buckets(d, layer=0, positions=range(n)) == want).all()
    if want_side is not None:
        assert (posenc_schemes.side_buckets(d, layer=1, positions=range(n)) == want_side).all()
    else:
        with pytest.raises(ValueError, match="no transient-global side buckets"):
            posenc_schemes.side_buckets(d, layer=0, positions=range(n))


def test_longt5_decoder_is_t5s_causal_buckets(tmp_path):
    # L1072-1073: the decoder's self-attention is LongT5Attention (T5's), causal
    from transformers.models.longt5.modeling_longt5 import LongT5Attention
    d = dict(model_type="longt5", d_model=16, d_kv=8, d_ff=8, num_layers=1,
             num_decoder_layers=2, num_heads=2, vocab_size=64, local_radius=3,
             relative_attention_num_buckets=8, relative_attention_max_distance=20)
    n = 41
    rel = torch.arange(n)[None, :] - torch.arange(n)[:, None]
    want = LongT5Attention._relative_position_bucket(rel, bidirectional=False, num_buckets=8,
                                                     max_distance=20).numpy()
    for layer in (1, 2):
        g, _ = _golden(tmp_path, d, layer, f"0-{n - 1}")
        assert (g["bucket"] == want).all()


def test_longt5_side_positions_are_the_codes(tmp_path):
    # _make_side_relative_position_ids (L228-234) with the transient-global
    # bucket (L806-819), at a subset of positions of a 37-token sequence
    from transformers.models.longt5 import modeling_longt5 as mod
    d, _ = _longt5_model(dict(local_radius=3, global_block_size=5,
                              encoder_attention_type="transient-global",
                              relative_attention_num_buckets=8,
                              relative_attention_max_distance=6))
    n = 37
    side = mod._make_side_relative_position_ids(torch.ones(1, n), 5)
    want = mod.LongT5TransientGlobalAttention._relative_position_bucket(
        side, bidirectional=True, num_buckets=8, max_distance=6)[0].numpy()
    pos = [0, 4, 5, 17, 29, 34, 36]
    g, line = _golden(tmp_path, d, 0, ",".join(map(str, pos)))
    assert "n_tok=37 n_global=7" in line
    assert (g["side_bucket"] == want[pos]).all()
    posenc_schemes = pytest.importorskip("posenc.schemes")
    assert (posenc_schemes.side_buckets(d, 0, pos, n_tok=37) == want[pos]).all()


# ---- CPM-Ant --------------------------------------------------------------------------


def _cpmant(extra):
    d = dict(model_type="cpmant", hidden_size=16, num_attention_heads=2, dim_head=8, dim_ff=8,
             num_hidden_layers=2, vocab_size=64, prompt_types=3, **extra)
    torch.manual_seed(0)
    return d, transformers.CpmAntModel(_config("cpmant", d)).eval()


@pytest.mark.parametrize("extra,n_text", [
    (dict(position_bias_num_buckets=16, position_bias_max_distance=20, segment_types=4,
          prompt_length=3), 40),
    (dict(position_bias_num_buckets=32, position_bias_max_distance=128, segment_types=3,
          prompt_length=0), 20),
    (CPM_ANT_10B, 300),
])
def test_cpmant_golden_equals_the_model(extra, n_text, tmp_path):
    # the forward's segments and positions (modeling_cpmant.py L600-638) into
    # CpmAntSegmentPositionEmbedding (L413-502), caught at its output
    d, model = _cpmant(extra)
    _rows_read_back(model.position_bias.relative_attention_bias)
    seen = []
    h = model.position_bias.register_forward_hook(lambda mod, a, o: seen.append(o))
    with torch.no_grad():
        model(input_ids=torch.arange(1, n_text + 1)[None] % 60 + 1, use_cache=False)
    h.remove()
    want = _as_ids(seen[0][0, 0])
    n = want.shape[0]
    assert n == extra["prompt_length"] + n_text
    g, _ = _golden(tmp_path, d, 1, f"0-{n - 1}")
    assert (g["bucket"] == want).all()
    assert (g["segment"] == np.where(np.arange(n) < extra["prompt_length"], 0, 2)).all()
    if extra["prompt_length"]:
        assert (want >= extra["position_bias_num_buckets"]).any()  # across segments
    posenc_schemes = pytest.importorskip("posenc.schemes")
    assert (posenc_schemes.relative_buckets(d, layer=0, positions=range(n)) == want).all()
    import posenc.torch
    t = posenc.torch.relative_buckets(d, layer=1, positions=range(n))
    assert t.dtype == torch.int64 and torch.equal(t, torch.from_numpy(want))


def test_cpmant_default_golden_spans_the_prompt(tmp_path):
    d, _ = _cpmant(dict(prompt_length=5, segment_types=3))
    g, line = _golden_default(tmp_path, d)
    assert g["bucket"].shape == (21, 21) and "prompt_length=5" in line


def _golden_default(tmp_path, d):
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps(d))
    out = tmp_path / "g.safetensors"
    r = subprocess.run([PROGRAM, "golden", "--config", str(cfg), "--layer", "0", "-o",
                        str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return st_numpy.load_file(str(out)), r.stdout


# ---- VITS -----------------------------------------------------------------------------


def _vits(extra):
    d = dict(model_type="vits", hidden_size=8, num_hidden_layers=3, num_attention_heads=1,
             ffn_dim=8, vocab_size=20, flow_size=8, spectrogram_bins=9,
             upsample_initial_channel=8, upsample_rates=[2], upsample_kernel_sizes=[4],
             resblock_kernel_sizes=[3], resblock_dilation_sizes=[[1]],
             duration_predictor_filter_channels=8, depth_separable_channels=2,
             prior_encoder_num_wavenet_layers=1, posterior_encoder_num_wavenet_layers=1,
             **extra)
    torch.manual_seed(0)
    return d, transformers.VitsModel(_config("vits", d)).eval()


@pytest.mark.parametrize("extra,n", [(dict(window_size=2), 9), (dict(window_size=5), 4),
                                     (MMS_TTS_ENG, 30)])
def test_vits_window_rows_equal_the_attention(extra, n, tmp_path):
    # VitsAttention's key side (L907-911: _get_relative_embeddings, then
    # _relative_position_to_absolute_position) and value side (L943-947): the
    # table's row r holds r + 1 in its first element, a one-hot query or
    # attention reads it back at each (query, key); 0 is the zero padding
    d, model = _vits(extra)
    layers = model.text_encoder.encoder.layers
    assert len(layers) == d["num_hidden_layers"]
    w = extra["window_size"]
    for layer, blk in enumerate(layers):
        att = blk.attention
        rows = torch.zeros(1, 2 * w + 1, att.head_dim)
        rows[0, :, 0] = torch.arange(1, 2 * w + 2, dtype=rows.dtype)
        q = torch.zeros(1, n, att.head_dim)
        q[..., 0] = 1
        with torch.no_grad():
            key_side = att._relative_position_to_absolute_position(
                torch.matmul(q, att._get_relative_embeddings(rows, n).transpose(-2, -1)))[0]
        want = np.rint(key_side.numpy()).astype(np.int64) - 1
        value_side = np.full((n, n), -1, dtype=np.int64)
        for k in range(n):
            onehot = torch.zeros(1, n, n)
            onehot[0, :, k] = 1
            with torch.no_grad():
                got = torch.matmul(att._absolute_position_to_relative_position(onehot),
                                   att._get_relative_embeddings(rows, n))[0, :, 0]
            value_side[:, k] = np.rint(got.numpy()).astype(np.int64) - 1
        assert (want == value_side).all()
        g, line = _golden(tmp_path, d, layer, f"0-{n - 1}")
        assert (g["bucket"] == want).all() and f"window_size={w}" in line
    posenc_schemes = pytest.importorskip("posenc.schemes")
    assert (posenc_schemes.relative_buckets(d, layer=0, positions=range(n)) == want).all()


@pytest.mark.parametrize("w", [None, 0])
def test_vits_window_none_or_zero_refused_as_the_code_fails(w, tmp_path):
    # VitsConfig takes an int only (configuration_vits.py L117); 0 builds no
    # emb_rel_k (L865) but the attention reads it (L907)
    if w is None:
        with pytest.raises(Exception, match="window_size"):
            transformers.VitsConfig(window_size=None)
    else:
        _, model = _vits(dict(window_size=0))
        with pytest.raises(AttributeError, match="emb_rel_k"):
            with torch.no_grad():
                model(input_ids=torch.tensor([[1, 2, 3]]))
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps(dict(model_type="vits", num_hidden_layers=2, window_size=w)))
    r = subprocess.run([PROGRAM, "--config", str(cfg), "-c", "EXPLAIN MODEL"],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "window_size" in r.stderr
