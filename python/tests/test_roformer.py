"""RoFormer (model_type roformer) through RoPE.from_config: the registry's
reading (transformers 5.23.0 models/roformer/modeling_roformer.py L49-82,
L115-247, L390-396; configuration_roformer.py L46-66), table_rows and
rotary_value, and the rotation against a hand trace of the code's formula
(interleaved pairs, theta_k = pos * 10000^(-2k/d), d = hidden_size //
num_attention_heads). transformers' running code: tests/hf/test_roformer_hf.py."""
import math

import numpy as np
import pytest

import posenc

needs_reader = pytest.mark.skipif(not posenc.have_config_reader(),
                                  reason="posenc built without the config reader (jansson)")


@needs_reader
def test_roformer_chinese_base():
    d = {"architectures": ["RoFormerForMaskedLM"], "embedding_size": 768, "hidden_size": 768,
         "max_position_embeddings": 1536, "model_type": "roformer", "num_attention_heads": 12,
         "num_hidden_layers": 12, "rotary_value": False}
    r = posenc.RoPE.from_config(d, 11)
    assert (r.head_dim, r.rotary_dim, r.base, r.layout) == (64, 64, 10000.0, "interleaved")
    assert r.model_type == "roformer" and r.table_rows == 1536 and r.rotary_value is False
    # pos 1535 (the table's last row), pair 5 (elements 10, 11):
    # out[10] = x10 cos - x11 sin, out[11] = x11 cos + x10 sin (L230-233)
    x = np.zeros((1, 64), dtype=np.float32)
    x[0, 10], x[0, 11] = 0.25, 1.5
    y = r.apply(x, positions=np.array([1535]))
    th = 1535 * 10000.0 ** (-10 / 64)
    assert y[0, 10] == pytest.approx(0.25 * math.cos(th) - 1.5 * math.sin(th), abs=5e-7)  # float32
    assert y[0, 11] == pytest.approx(1.5 * math.cos(th) + 0.25 * math.sin(th), abs=5e-7)  # float32
    assert np.count_nonzero(y[0, :10]) == 0 and np.count_nonzero(y[0, 12:]) == 0


@needs_reader
def test_roformer_values_and_ignored_keys():
    # rope_theta and rope_scaling are not read by RoFormer's code (its base is
    # written in, L62): the RoPE stays 10000, unscaled
    d = {"model_type": "roformer", "hidden_size": 50, "num_attention_heads": 4,
         "max_position_embeddings": 40, "rotary_value": True, "rope_theta": 5e5,
         "rope_scaling": {"rope_type": "linear", "factor": 4.0}}
    r = posenc.RoPE.from_config(d)
    assert (r.head_dim, r.base, r.table_rows, r.rotary_value) == (12, 10000.0, 40, True)
    assert r.inv_freq[1] == pytest.approx(10000.0 ** (-2 / 12), rel=1e-15)
    # any other RoPE: no table, no values turned
    plain = posenc.RoPE(64)
    assert plain.table_rows == 0 and plain.rotary_value is False
    with pytest.raises(posenc.Error, match="rotary_value"):
        posenc.RoPE.from_config({"model_type": "roformer", "rotary_value": 1})
