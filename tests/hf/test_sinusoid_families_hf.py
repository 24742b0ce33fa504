"""The fairseq-sinusoid families posenc's registry reads (Marian, Pegasus,
M2M100, NLLB-MoE, Speech2Text, XGLM, CTRL): `posenc golden --config F
--layer N` against what transformers 5.23's model adds at each token. The
model is built from a tiny config (random weights), a forward hook on its
embed_positions module (CTRL: its pos_encoding buffer, read at rows
0..T-1, modeling_ctrl.py L294-318) catches the vectors, and posenc's pe at
the token indices 0..T-1 must equal them within torch's float rounding
(tests/hf/test_schemes_hf.py's bound). Also T5's bucket golden against
compute_bias's buckets."""
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

T = 9  # tokens per sequence

#: model_type: (tiny config, the layers whose golden is compared: encoder first)
FAMILIES = {
    "marian": dict(d_model=16, encoder_layers=1, decoder_layers=1, encoder_attention_heads=2,
                   decoder_attention_heads=2, encoder_ffn_dim=8, decoder_ffn_dim=8,
                   vocab_size=64, max_position_embeddings=64, pad_token_id=5,
                   decoder_start_token_id=5),
    "pegasus": dict(d_model=18, encoder_layers=1, decoder_layers=1, encoder_attention_heads=2,
                    decoder_attention_heads=2, encoder_ffn_dim=8, decoder_ffn_dim=8,
                    vocab_size=64, max_position_embeddings=64, pad_token_id=0),
    "m2m_100": dict(d_model=16, encoder_layers=1, decoder_layers=1, encoder_attention_heads=2,
                    decoder_attention_heads=2, encoder_ffn_dim=8, decoder_ffn_dim=8,
                    vocab_size=64, max_position_embeddings=64, pad_token_id=1),
    "nllb-moe": dict(d_model=16, encoder_layers=1, decoder_layers=1, encoder_attention_heads=2,
                     decoder_attention_heads=2, encoder_ffn_dim=8, decoder_ffn_dim=8,
                     vocab_size=64, max_position_embeddings=64, pad_token_id=3, num_experts=2,
                     expert_capacity=4, encoder_sparse_step=0, decoder_sparse_step=0),
    "pegasus_x": dict(d_model=16, encoder_layers=1, decoder_layers=1, encoder_attention_heads=2,
                      decoder_attention_heads=2, encoder_ffn_dim=8, decoder_ffn_dim=8,
                      vocab_size=64, max_position_embeddings=64, pad_token_id=0,
                      block_size=4, num_global_tokens=2),
    "xglm": dict(d_model=16, num_layers=1, attention_heads=2, ffn_dim=8, vocab_size=64,
                 max_position_embeddings=64, pad_token_id=1),
    "ctrl": dict(n_embd=16, n_layer=1, n_head=2, dff=8, vocab_size=64, n_positions=64),
}


def _golden(tmp_path, d, layer, positions):
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps(d))
    out = tmp_path / f"g{layer}.safetensors"
    r = subprocess.run([PROGRAM, "golden", "--config", str(cfg), "--layer", str(layer),
                        "--positions", positions, "-o", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return st_numpy.load_file(str(out))


def _close(ours, ref, pos):
    """within an ulp of the value plus |pos| ulp(w) (torch's SLEEF expf/sinf)"""
    assert ours.shape == ref.shape, (ours.shape, ref.shape)
    ulp = np.spacing(np.abs(ref).astype(np.float32))
    tol = ulp + (np.abs(np.asarray(pos, dtype=np.float64))[:, None] + 4) * 2.0 ** -24
    assert (np.abs(ours - ref) <= tol).all(), np.abs(ours - ref).max()


def _build(model_type, d):
    cfg = transformers.AutoConfig.for_model(model_type, **{k: v for k, v in d.items() if k != "model_type"})
    torch.manual_seed(0)
    return transformers.AutoModel.from_config(cfg).eval()


def _caught(model, **inputs):
    seen = {}
    hooks = [m.register_forward_hook(lambda mod, a, o, n=name: seen.setdefault(n, o))
             for name, m in model.named_modules() if name.endswith("embed_positions")]
    try:
        with torch.no_grad():
            model(**inputs)
    finally:
        for h in hooks:
            h.remove()
    return {k: v.detach().float().reshape(-1, v.shape[-1]).numpy()[-T:] for k, v in seen.items()}


@pytest.mark.parametrize("model_type", sorted(FAMILIES))
def test_family_golden_equals_the_model(model_type, tmp_path):
    d = dict(FAMILIES[model_type], model_type=model_type)
    model = _build(model_type, d)
    ids = torch.arange(10, 10 + T).unsqueeze(0)  # no padding token
    if model_type == "ctrl":
        ref = {"0": model.pos_encoding[:T].float().numpy()}
        layers = {"0": 0}
    else:
        inputs = {"input_ids": ids}
        if model.config.is_encoder_decoder:
            inputs["decoder_input_ids"] = ids
        got = _caught(model, **inputs)
        ref = {k: v for k, v in got.items()}
        n_enc = d.get("encoder_layers", 0)
        layers = {k: (0 if "encoder" in k else n_enc) for k in ref}
    assert ref
    for name, layer in layers.items():
        g = _golden(tmp_path, d, layer, f"0-{T - 1}")
        assert (g["positions"] == np.arange(T)).all()
        _close(g["pe"], ref[name], np.arange(T) + 4)


def test_speech_to_text_golden_equals_the_model(tmp_path):
    d = dict(model_type="speech_to_text", d_model=16, encoder_layers=1, decoder_layers=1,
             encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=8,
             decoder_ffn_dim=8, vocab_size=64, max_source_positions=64,
             max_target_positions=64, pad_token_id=1, num_conv_layers=1,
             conv_channels=8, input_feat_per_channel=4, input_channels=1,
             conv_kernel_sizes=[3])
    model = _build("speech_to_text", d)
    frames = 2 * T  # one stride-2 convolution: T positions
    feats = torch.randn(1, frames, 4)
    got = _caught(model, input_features=feats, decoder_input_ids=torch.arange(10, 10 + T)[None])
    assert len(got) == 2
    for name, v in got.items():
        layer = 0 if "encoder" in name else 1
        g = _golden(tmp_path, d, layer, f"0-{v.shape[0] - 1}")
        _close(g["pe"], v, np.arange(v.shape[0]) + 2)


def test_t5_bucket_golden_equals_compute_bias(tmp_path):
    d = dict(model_type="t5", d_model=16, d_kv=8, d_ff=8, num_layers=1, num_decoder_layers=1,
             num_heads=2, vocab_size=64, relative_attention_num_buckets=8,
             relative_attention_max_distance=20)
    from transformers.models.t5.modeling_t5 import T5Attention
    cfg = transformers.T5Config(**{k: v for k, v in d.items() if k != "model_type"})
    for layer, bidir in ((0, True), (1, False)):
        g = _golden(tmp_path, d, layer, "0-40")
        q = torch.arange(41)[:, None]
        rel = torch.arange(41)[None, :] - q
        want = T5Attention._relative_position_bucket(rel, bidirectional=bidir,
                                                      num_buckets=cfg.relative_attention_num_buckets,
                                                      max_distance=cfg.relative_attention_max_distance)
        assert (g["bucket"] == want.numpy()).all()
        assert (g["q_pos"] == np.arange(41)).all() and (g["k_pos"] == np.arange(41)).all()


def test_mpnet_bucket_golden_equals_the_model(tmp_path):
    # compute_position_bias (modeling_mpnet.py L312-330): the buckets the
    # relative_attention_bias table is read at, caught at its input
    d = dict(model_type="mpnet", hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
             intermediate_size=8, vocab_size=64, max_position_embeddings=300,
             relative_attention_num_buckets=64)
    model = _build("mpnet", d)
    seen = []
    h = model.encoder.relative_attention_bias.register_forward_hook(
        lambda mod, a, o: seen.append(a[0]))
    n = 200  # past max_distance 128: the log buckets
    with torch.no_grad():
        model(input_ids=torch.full((1, n), 7))
    h.remove()
    g = _golden(tmp_path, d, 0, f"0-{n - 1}")
    assert (g["bucket"] == seen[0].reshape(n, n).numpy()).all()


@pytest.mark.parametrize("v2,extra", [
    (True, dict(position_buckets=8, max_relative_positions=32)),   # v3-style log buckets
    (True, dict(position_buckets=256, max_relative_positions=-1)),
    (True, dict()),                                                # plain q - k
    (False, dict(max_relative_positions=16)),
])
def test_deberta_relative_id_golden_equals_the_model(v2, extra, tmp_path, monkeypatch):
    mt = "deberta-v2" if v2 else "deberta"
    d = dict(model_type=mt, hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
             intermediate_size=8, vocab_size=64, max_position_embeddings=512,
             relative_attention=True, pos_att_type=["p2c", "c2p"], **extra)
    model = _build(mt, d)
    if v2:
        from transformers.models.deberta_v2 import modeling_deberta_v2 as mod
    else:
        from transformers.models.deberta import modeling_deberta as mod
    seen = []
    real = mod.build_relative_position

    def spy(*a, **kw):
        out = real(*a, **kw)
        seen.append(out)
        return out
    monkeypatch.setattr(mod, "build_relative_position", spy)
    n = 300
    with torch.no_grad():
        model(input_ids=torch.full((1, n), 7))
    assert seen
    g = _golden(tmp_path, d, 0, f"0-{n - 1}")
    assert (g["bucket"] == seen[0].reshape(n, n).numpy()).all()


@pytest.mark.parametrize("model_type", ["m2m_100", "marian", "xglm"])
def test_python_sinusoid_table_equals_the_model(model_type):
    posenc_schemes = pytest.importorskip("posenc.schemes")
    d = dict(FAMILIES[model_type], model_type=model_type)
    model = _build(model_type, d)
    ids = torch.arange(10, 10 + T).unsqueeze(0)
    inputs = {"input_ids": ids}
    if model.config.is_encoder_decoder:
        inputs["decoder_input_ids"] = ids
    got = _caught(model, **inputs)
    enc = next(v for k, v in got.items() if "decoder" not in k)
    pe = posenc_schemes.sinusoid_table(d, layer=0, positions=range(T))
    assert pe.dtype == np.float32 and pe.shape == (T, d["d_model"])
    _close(pe, enc, np.arange(T) + 4)


def test_python_relative_buckets_equal_the_model(monkeypatch):
    posenc_schemes = pytest.importorskip("posenc.schemes")
    from transformers.models.deberta_v2 import modeling_deberta_v2 as mod
    d = dict(model_type="deberta-v2", hidden_size=16, num_hidden_layers=1,
             num_attention_heads=2, intermediate_size=8, vocab_size=64,
             relative_attention=True, position_buckets=16, max_relative_positions=64,
             pos_att_type=["p2c", "c2p"], position_biased_input=False)
    model = _build("deberta-v2", d)
    seen = []
    real = mod.build_relative_position
    monkeypatch.setattr(mod, "build_relative_position",
                        lambda *a, **kw: seen.append(real(*a, **kw)) or seen[-1])
    n = 120
    with torch.no_grad():
        model(input_ids=torch.full((1, n), 7))
    b = posenc_schemes.relative_buckets(d, layer=0, positions=range(n))
    assert b.dtype == np.int64 and (b == seen[0].reshape(n, n).numpy()).all()
    with pytest.raises(ValueError, match="relative buckets, not a sinusoid"):
        posenc_schemes.sinusoid_table(d, layer=0)


@pytest.mark.parametrize("pad", [1, 4])
def test_kosmos2_text_golden_equals_the_model(pad, tmp_path):
    # Kosmos2TextSinusoidalPositionalEmbedding (modeling_kosmos2.py L555-667):
    # the wrapper's text_config, read at positions from pad_token_id + 1
    from transformers.models.kosmos2.configuration_kosmos2 import Kosmos2TextConfig
    from transformers.models.kosmos2.modeling_kosmos2 import Kosmos2TextModel
    text = dict(embed_dim=16, layers=1, attention_heads=2, ffn_dim=8, vocab_size=64,
                max_position_embeddings=64, pad_token_id=pad)
    torch.manual_seed(0)
    model = Kosmos2TextModel(Kosmos2TextConfig(**text)).eval()
    got = _caught(model, input_ids=torch.arange(10, 10 + T)[None])
    g = _golden(tmp_path, {"model_type": "kosmos-2", "text_config": text}, 0, f"0-{T - 1}")
    _close(g["pe"], next(iter(got.values())), np.arange(T) + pad + 1)


def test_kosmos2_5_text_golden_equals_the_model(tmp_path):
    from transformers.models.kosmos2_5 import modeling_kosmos2_5 as mod
    from transformers.models.kosmos2_5.configuration_kosmos2_5 import Kosmos2_5TextConfig
    text = dict(embed_dim=16, layers=1, attention_heads=2, ffn_dim=8, vocab_size=64,
                max_position_embeddings=64, pad_token_id=1)
    emb = mod.Kosmos2_5TextSinusoidalPositionalEmbedding(64, 16, padding_idx=1)
    ids = torch.arange(10, 10 + T)[None]
    with torch.no_grad():
        ref = emb(input_ids=ids).reshape(T, 16).float().numpy()
    assert Kosmos2_5TextConfig(**text).pad_token_id == 1
    g = _golden(tmp_path, {"model_type": "kosmos-2.5", "text_config": text}, 0, f"0-{T - 1}")
    _close(g["pe"], ref, np.arange(T) + 2)


def test_musicgen_decoder_golden_equals_the_model(tmp_path):
    # MusicgenSinusoidalPositionalEmbedding (modeling_musicgen.py L106-145):
    # cosines first, rows from past_key_values_length, grown past its rows
    from transformers.models.musicgen.modeling_musicgen import MusicgenSinusoidalPositionalEmbedding
    emb = MusicgenSinusoidalPositionalEmbedding(8, 16)
    n = 20  # past the 8 rows: make_weights grows the table
    with torch.no_grad():
        ref = emb(torch.zeros(1, 4, n, dtype=torch.long)).reshape(n, 16).float().numpy()
    cfg = {"model_type": "musicgen", "decoder": {"hidden_size": 16, "num_hidden_layers": 1,
                                                 "max_position_embeddings": 8}}
    g = _golden(tmp_path, cfg, 0, f"0-{n - 1}")
    _close(g["pe"], ref, np.arange(n))
