"""Beam (model_type beam) against transformers 5.23's running code: a tiny
BeamModel built from a config (random weights, float32, eager attention),
the normed queries caught at each layer's q_norm and the queries its
attention receives caught at eager_attention_forward; posenc must say what
the one becomes of the other at each position:

- a NoPE full-attention layer: multiplied by posenc.schemes.query_scale
  (Beam's compute_attention_scaling, exp(0.1 * log1p((pos + 1) / 2048)) in
  float32, modeling_beam.py L492-495, applied L255-256), the positions the
  position_ids given (L537-540, L564);
- a sliding layer: rotated (rotate_half) by posenc.RoPE.from_config's cos
  and sin (L117-127, L252-254), unscaled.

Configs: the class defaults (layer_types and rope_parameters from
__post_init__, configuration_beam.py L113-129), given layer_types, a
full_attention set (the full layers rotate then, unscaled), a linear set on
the sliding layers."""
import json

import numpy as np
import pytest

torch = pytest.importorskip("torch", minversion="2.4")
transformers = pytest.importorskip("transformers")
posenc = pytest.importorskip("posenc")
import posenc.schemes as ps  # noqa: E402

modeling_beam = pytest.importorskip("transformers.models.beam.modeling_beam")

POSITIONS = [0, 1, 7, 2047, 2048, 5000, 100000, 3]

TINY = dict(hidden_size=32, intermediate_size=16, num_attention_heads=4, num_key_value_heads=2,
            head_dim=8, vocab_size=64, moe_intermediate_size=8, num_experts=4,
            num_experts_per_tok=2, n_group=2, topk_group=1, max_position_embeddings=4096)

CASES = {
    "defaults": dict(num_hidden_layers=7),
    "layer_types": dict(num_hidden_layers=4, layer_types=["full_attention", "sliding_attention",
                                                          "full_attention", "sliding_attention"]),
    "full_set": dict(num_hidden_layers=3, layer_types=["sliding_attention", "full_attention",
                                                       "sliding_attention"],
                     rope_parameters={"sliding_attention": {"rope_type": "default",
                                                            "rope_theta": 10000.0},
                                      "full_attention": {"rope_type": "default",
                                                         "rope_theta": 500000.0}}),
    "linear": dict(num_hidden_layers=2, layer_types=["sliding_attention", "full_attention"],
                   rope_parameters={"sliding_attention": {"rope_type": "linear", "factor": 4.0,
                                                          "rope_theta": 10000.0},
                                    "full_attention": None}),
}


def _run(cfg_kw):
    config = transformers.BeamConfig(**TINY, **cfg_kw)
    config._attn_implementation = "eager"
    torch.manual_seed(0)
    model = transformers.BeamModel(config).eval().float()
    pre, post = {}, {}
    handles = []
    for i, layer in enumerate(model.layers):
        def hook(mod, args, out, i=i):
            pre[i] = out.detach().double().numpy()[0].transpose(1, 0, 2)  # [H, T, D]
        handles.append(layer.self_attn.q_norm.register_forward_hook(hook))
    orig = modeling_beam.eager_attention_forward

    def wrap(module, query, *a, **kw):
        post[module.layer_idx] = query.detach().double().numpy()[0]  # [H, T, D]
        return orig(module, query, *a, **kw)

    modeling_beam.eager_attention_forward = wrap
    try:
        ids = torch.randint(3, 60, (1, len(POSITIONS)), generator=torch.Generator().manual_seed(1))
        with torch.no_grad():
            model(input_ids=ids, position_ids=torch.tensor([POSITIONS]), use_cache=False)
    finally:
        modeling_beam.eager_attention_forward = orig
        for h in handles:
            h.remove()
    return config, pre, post


def _config_json(config, tmp_path):
    d = json.loads(config.to_json_string(use_diff=False))
    path = tmp_path / "config.json"
    path.write_text(json.dumps(d))
    return str(path)


@pytest.mark.parametrize("case", sorted(CASES))
def test_beam_queries(case, tmp_path):
    config, pre, post = _run(CASES[case])
    path = _config_json(config, tmp_path)
    assert len(post) == config.num_hidden_layers
    n_scaled = 0
    for i in range(config.num_hidden_layers):
        a, b = pre[i], post[i]
        scale = ps.query_scale(path, i, POSITIONS)
        if config.rope_parameters[config.layer_types[i]] is None:
            n_scaled += 1
            assert scale[3] == pytest.approx(2.0 ** 0.1, rel=1e-15)
            want = a * scale[None, :, None]
            assert np.abs(b - want).max() <= 2.0 ** -21 * np.abs(want).max(), (case, i)
            continue
        assert scale.tolist() == [1.0] * len(POSITIONS)
        rope = posenc.RoPE.from_config(path, layer=i)
        assert rope.layout == "half" and rope.rotary_dim == a.shape[2]
        c, s = rope.cos_sin(np.asarray(POSITIONS, np.int64), dtype=np.float64)  # [T, D/2]
        P = a.shape[2] // 2
        x0, x1 = a[..., :P], a[..., P:]
        want = np.concatenate([x0 * c - x1 * s, x1 * c + x0 * s], axis=-1)
        # float32 angles p * f: |p f| 2^-23 of the length, plus cos/sin rounding
        tol = (np.abs(np.asarray(POSITIONS, np.float64))[:, None] * rope.inv_freq[None, :]
               * 2.0 ** -22 + 2.0 ** -21).max() * np.abs(a).max()
        assert np.abs(b - want).max() <= tol, (case, i)
    want_scaled = {"defaults": 2, "layer_types": 2, "full_set": 0, "linear": 1}[case]
    assert n_scaled == want_scaled


# ---- SAM 3 LiteText's text model: its table resampled to each sequence's length ----
#
# Sam3LiteTextTextPositionEmbedding (modeling_sam3_lite_text.py L73-88) resizes
# its [1, 1, rows, d] table with F.interpolate(mode="bilinear") to the sequence
# length; the embeddings add it to the token vectors (L328-338). posenc says
# which two rows each token mixes and the second's weight
# (posenc.schemes.resampled_rows, posenc golden --seq-len).

modeling_sam3 = pytest.importorskip("transformers.models.sam3_lite_text.modeling_sam3_lite_text")

SAM_SIZES = [(1, 1), (1, 5), (2, 5), (3, 9), (7, 31), (16, 76), (77, 5), (77, 16), (77, 76),
             (77, 77), (77, 78), (77, 200), (100, 333), (333, 100), (333, 1000)]


@pytest.mark.parametrize("rows,seq_len", SAM_SIZES)
def test_sam3_rows_and_weights_exact(rows, seq_len):
    """An identity table: token t's resampled vector holds weight0 at column
    row0 and weight1 at column row1, bit for bit (x * 1 + y * 0 is exact)."""
    module = modeling_sam3.Sam3LiteTextTextPositionEmbedding(rows, rows)
    with torch.no_grad():
        module.position_embedding.copy_(torch.eye(rows, dtype=torch.float32)[None, None])
        got = module(seq_len)[0].numpy()  # [seq_len, rows]
    cfg = {"model_type": "sam3_lite_text_text_model", "max_position_embeddings": rows,
           "hidden_size": rows, "num_hidden_layers": 1}
    r = ps.resampled_rows(cfg, 0, seq_len=seq_len)
    r0, r1, w1 = r["row0"], r["row1"], r["weight1"]
    w0 = (np.float32(1) - w1).astype(np.float32)
    want = np.zeros((seq_len, rows), np.float32)
    for t in range(seq_len):
        want[t, r0[t]] += w0[t]
        want[t, r1[t]] += w1[t]
    assert np.array_equal(got, want), (rows, seq_len, np.argwhere(got != want)[:4])


def test_sam3_model_adds_the_resampled_rows(tmp_path):
    """The whole text model: the embeddings' output minus the token vectors is
    (1 - weight1) table[row0] + weight1 table[row1] at every token, for
    sequences shorter, equal to and longer than the table; the config read
    through the sam3_lite_text wrapper's text_config."""
    config = transformers.Sam3LiteTextTextConfig(
        vocab_size=64, hidden_size=16, intermediate_size=16, projection_dim=16,
        num_hidden_layers=2, num_attention_heads=2, max_position_embeddings=12)
    torch.manual_seed(0)
    model = transformers.Sam3LiteTextTextModel(config).eval()
    table = model.embeddings.position_embedding.position_embedding.detach()[0, 0].double().numpy()
    path = tmp_path / "config.json"
    outer = {"model_type": "sam3_lite_text",
             "text_config": json.loads(config.to_json_string(use_diff=False))}
    path.write_text(json.dumps(outer))
    for T in (5, 12, 29):
        ids = torch.randint(0, 64, (1, T), generator=torch.Generator().manual_seed(T))
        with torch.no_grad():
            emb = model.embeddings(ids)[0].double().numpy()
            tok = model.embeddings.token_embedding(ids)[0].double().numpy()
        r = ps.resampled_rows(str(path), 1, seq_len=T)
        w1 = r["weight1"].astype(np.float64)[:, None]
        w0 = (np.float32(1) - r["weight1"]).astype(np.float64)[:, None]
        want = w0 * table[r["row0"]] + w1 * table[r["row1"]]
        assert np.abs((emb - tok) - want).max() <= 2.0 ** -21 * np.abs(table).max(), T


@pytest.mark.parametrize("rows,seq_len", [(77, 5), (7, 31), (16, 16)])
def test_sam3_golden_file(rows, seq_len, tmp_path):
    """posenc golden --seq-len writes the rows and weights F.interpolate mixes:
    the identity table's resampled vectors hold them bit for bit."""
    import subprocess
    import os
    st_numpy = pytest.importorskip("safetensors.numpy")
    program = os.environ.get("POSENC_PROGRAM", os.path.join(os.getcwd(), "build", "posenc"))
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps({"model_type": "sam3_lite_text_text_model",
                               "max_position_embeddings": rows, "hidden_size": rows,
                               "num_hidden_layers": 1}))
    out = tmp_path / "g.safetensors"
    r = subprocess.run([program, "golden", "--config", str(cfg), "--layer", "0", "--seq-len",
                        str(seq_len), "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    g = st_numpy.load_file(str(out))
    assert g["positions"].tolist() == list(range(seq_len))
    module = modeling_sam3.Sam3LiteTextTextPositionEmbedding(rows, rows)
    with torch.no_grad():
        module.position_embedding.copy_(torch.eye(rows, dtype=torch.float32)[None, None])
        got = module(seq_len)[0].numpy()
    t = np.arange(seq_len)
    w1 = g["weight1"]
    w0 = (np.float32(1) - w1).astype(np.float32)
    same = g["row0"] == g["row1"]
    assert np.array_equal(got[t, g["row0"]], np.where(same, w0 + w1, w0))
    assert np.array_equal(got[t, g["row1"]], np.where(same, w0 + w1, w1))
    assert np.count_nonzero(got) == np.count_nonzero(np.where(same, w0 + w1, w0)) + \
        np.count_nonzero(np.where(same, 0, w1))
