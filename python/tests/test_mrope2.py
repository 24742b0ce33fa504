"""posenc.MRoPE's hw-alternating rule (ERNIE 4.5 VL) from Python: the axis
table derived by hand from the header's rule, the registry's reading of
ERNIE's [h, w, t] section, mpmath for the angles, and the plain RoPE as the
identity t = h = w."""
import numpy as np
import pytest

import posenc
from conftest import mp_cos_sin, mp_inv_freq

needs_reader = pytest.mark.skipif(not posenc.have_config_reader(),
                                  reason="posenc built without the config.json reader (jansson)")


def test_hw_alternating_axis_table():
    r = posenc.RoPE(128, base=500000.0, layout="interleaved")
    m = posenc.MRoPE(r, [20, 22, 22], rule="hw-alternating")
    # H W H W .. over 44 pairs, then 20 T (posenc.h 2.8's example)
    assert m.axis.tolist() == [1, 2] * 22 + [0] * 20
    two = posenc.MRoPE(posenc.RoPE(16), [0, 4, 4], rule="hw-alternating")
    assert two.axis.tolist() == [1, 2] * 4
    with pytest.raises(ValueError, match="s_h == s_w"):
        posenc.MRoPE(r, [20, 24, 20], rule="hw-alternating")
    with pytest.raises(ValueError, match="hw-alternating"):
        posenc.MRoPE(r, [20, 22, 22], rule="alternate")


@needs_reader
def test_ernie_config_section_order_and_angles():
    d = {"model_type": "ernie4_5_vl_moe", "text_config": {
        "hidden_size": 2560, "num_attention_heads": 20, "num_hidden_layers": 2,
        "rope_parameters": {"rope_type": "default", "rope_theta": 500000.0,
                            "mrope_section": [16, 16, 32]}}}
    rope = posenc.RoPE.from_config(d)
    assert rope.mrope == ([32, 16, 16], "hw-alternating")
    m = posenc.MRoPE(rope, *rope.mrope)
    pos = np.array([[7], [3], [11]])  # t, h, w of one token
    c, s = m.cos_sin(pos, dtype=np.float64)
    for k in (0, 1, 30, 31, 32, 63):
        p = 3 if k < 32 and k % 2 == 0 else 11 if k < 32 else 7
        c_ref, s_ref = mp_cos_sin(p, mp_inv_freq(k, 128, 500000.0))
        assert abs(c[0, k] - float(c_ref)) <= 2e-16
        assert abs(s[0, k] - float(s_ref)) <= 2e-16


@needs_reader
def test_text_positions_are_plain_rope():
    rope = posenc.RoPE.from_config({"model_type": "ernie4_5_vl_moe_text"})
    assert rope.mrope == ([20, 22, 22], "hw-alternating")
    x = (np.random.default_rng(5).random((30, 2, 128), dtype=np.float32) * 2 - 1)
    p = np.arange(0, 30000, 1000)
    got = posenc.MRoPE(rope, *rope.mrope).apply(x, np.stack([p, p, p]))
    assert np.array_equal(got, rope.apply(x, positions=p, inplace=False))
