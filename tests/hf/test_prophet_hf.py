"""Issue 36 (h-prophet): Muse Spark's per-layer NoPE, the encoder-decoder
wrapper and ProphetNet, against transformers 5.23's running code.

Tiny models are built from configs here: no weights, no network."""
import json
import math
import os
import subprocess

import numpy as np
import pytest

torch = pytest.importorskip("torch", minversion="2.4")
transformers = pytest.importorskip("transformers")
posenc = pytest.importorskip("posenc")

POSITIONS = [0, 1, 2, 3, 17, 255, 4095, 4096, 65535, 131071, 999999, 1000000]


def _program():
    return os.environ.get("POSENC_PROGRAM", os.path.join(os.getcwd(), "build", "posenc"))


def _tol(rope):
    """Allowed |cos_hf - cos_exact|: transformers multiplies position and
    inv_freq in float32 (an angle error of about theta * 2^-24) before cos."""
    theta = np.abs(np.asarray(POSITIONS, np.float64)[:, None] * rope.inv_freq[None, :])
    return theta * (math.log(max(rope.base, 2.0)) + 8.0) * 2.0 ** -24 + 2.0 ** -20


# ---- muse_spark: muse_glimmer's NoPE rule (modular_muse_spark.py L81, L527-590) ---------

def _spark_text(thetas, rope_parameters):
    small = dict(hidden_size=64, intermediate_size=64, num_attention_heads=2,
                 num_key_value_heads=1, vocab_size=128, head_dim=32,
                 moe_intermediate_size=32, moe_hidden_size=32, num_local_experts=2,
                 num_experts_per_tok=1, num_hidden_layers=9 if thetas is None else len(thetas))
    if thetas is not None:
        small["layer_rope_theta"] = thetas
    if rope_parameters is not None:
        small["rope_parameters"] = rope_parameters
    return transformers.MuseSparkTextConfig(**small)


SPARK = [
    # the values only say NoPE (0) or not: one rotary at rope_parameters' theta
    ([0, 123.0, 500000.0, 0, 7.0], {"rope_type": "default", "rope_theta": 10000.0}),
    # no list: NoPE on every 4th layer counted back from the last (layers 0, 4, 8)
    (None, {"rope_type": "default", "rope_theta": 20000.0}),
    # neither list nor rope_parameters: the config's own 500000
    (None, None),
    # another rope_type through the same single rotary
    ([1.0, 0, 1.0], {"rope_type": "linear", "factor": 4.0, "rope_theta": 10000.0}),
]


@pytest.mark.parametrize("thetas,rope", SPARK)
@pytest.mark.parametrize("wrapped", [False, True])
def test_muse_spark_every_layer(thetas, rope, wrapped):
    """Each layer's position_embeddings as MuseSparkTextModel passes them to
    its attention (None on NoPE layers) against posenc's answer for that
    layer, from the text config alone or through muse_spark's text_config."""
    torch.manual_seed(0)
    cfg = _spark_text(thetas, rope)
    d = cfg.to_dict()
    if thetas is None:
        d.pop("layer_rope_theta")  # the class fills it in: posenc must apply the same rule
    if rope is None:
        d.pop("rope_parameters")  # likewise its 500000
        assert cfg.rope_parameters["rope_theta"] == 500000.0
    if wrapped:
        d = {"model_type": "muse_spark", "text_config": d}
    model = transformers.MuseSparkTextModel(cfg).eval()
    seen = {}

    def grab(i):
        def hook(mod, args, kwargs):
            seen[i] = kwargs.get("position_embeddings")
        return hook

    for i, layer in enumerate(model.layers):
        layer.self_attn.register_forward_pre_hook(grab(i), with_kwargs=True)
    pos = torch.tensor([POSITIONS])
    with torch.no_grad():
        model(input_ids=torch.zeros_like(pos), position_ids=pos, use_cache=False)
    assert sorted(seen) == list(range(len(model.layers)))
    n_none = 0
    for i in range(len(model.layers)):
        pe = seen[i]
        if pe is None:
            n_none += 1
            with pytest.raises(ValueError, match="NoPE"):
                posenc.RoPE.from_config(d, layer=i)
            continue
        r = posenc.RoPE.from_config(d, layer=i, seq_len=max(POSITIONS) + 1)
        hc, hs = (t[0].double().numpy() for t in pe)
        P = r.rotary_dim // 2
        assert hc.shape[-1] == 2 * P == 32 and r.layout == "half"
        c, s = r.cos_sin(POSITIONS, dtype=np.float64)
        tol = _tol(r)
        assert (np.abs(hc[:, :P] - c) <= tol).all() and (np.abs(hs[:, :P] - s) <= tol).all(), \
            (i, np.abs(hc[:, :P] - c).max())
        assert (np.abs(hc[:, P:] - c) <= tol).all()
    assert n_none == (3 if thetas is None else sum(1 for t in thetas if t == 0))
