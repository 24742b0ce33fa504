"""posenc.schemes.query_scale: the factor on a layer's queries (the numbers
against transformers' running Beam are in tests/hf/test_beam_hf.py); here
Beam's (1 + (pos + 1) / 2048)^0.1 against mpmath at 50 digits, Llama 4's
temperature by its formula, 1 on a RoPE layer, and the refusals."""
import mpmath
import numpy as np
import pytest

import posenc
import posenc.schemes as ps

needs_reader = pytest.mark.skipif(not posenc.have_config_reader(),
                                  reason="built without the config reader (apt-get install libjansson-dev)")

# 7 layers: 0-4 sliding (RoPE), 5 (every sixth) and 6 (the last) full, NoPE
BEAM = {"model_type": "beam", "hidden_size": 64, "num_attention_heads": 4,
        "num_key_value_heads": 2, "head_dim": 16, "num_hidden_layers": 7}


@needs_reader
def test_beam_power_against_mpmath():
    pos = [0, 1, 2, 100, 2047, 2048, 65535, 1 << 20]
    got = ps.query_scale(BEAM, 6, pos)
    mpmath.mp.dps = 50
    for p, g in zip(pos, got):
        want = (1 + mpmath.mpf(p + 1) / 2048) ** mpmath.mpf("0.1")
        assert abs(g - float(want)) <= 2 * np.spacing(float(want)), (p, g, want)
    # position 2047: 2^0.1 exactly as the identity says
    assert abs(ps.query_scale(BEAM, 5, [2047])[0] - 2.0 ** 0.1) <= np.spacing(2.0 ** 0.1)


@needs_reader
def test_rope_layer_is_unscaled_and_default_positions():
    assert ps.query_scale(BEAM, 0).tolist() == [1.0] * 32


@needs_reader
def test_llama4_temperature_by_formula():
    cfg = {"model_type": "llama4_text", "hidden_size": 64, "num_attention_heads": 4,
           "num_hidden_layers": 4, "floor_scale": 4, "attn_scale": 0.5}
    got = ps.query_scale(cfg, 3, [0, 2, 3, 7, 8])
    want = [1 + 0.5 * np.log1p(np.floor((p + 1) / 4)) for p in [0, 2, 3, 7, 8]]
    assert np.allclose(got, want, rtol=0, atol=1e-15)


@needs_reader
def test_refusals():
    with pytest.raises(ValueError, match="layer 7 does not exist"):
        ps.query_scale(BEAM, 7, [0])
    with pytest.raises(ValueError):
        ps.query_scale(BEAM, 6, [-1])
    with pytest.raises(TypeError, match="layer must be an integer"):
        ps.query_scale(BEAM, True, [0])
    with pytest.raises(ValueError, match="at most 16384"):
        ps.query_scale(BEAM, 6, np.zeros(16385, np.int64))
