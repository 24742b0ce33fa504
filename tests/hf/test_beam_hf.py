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
