"""posenc.schemes for ProphetNet (h-prophet): the main stream's buckets
(relative_buckets) and the predicting streams' (predict_buckets) against
values derived by hand from compute_relative_buckets (transformers 5.23.0
models/prophetnet/modeling_prophetnet.py L66-90, L1271-1291), the table's
rows (learned_rows), and the refusals. The numbers against ProphetNetModel's
forward are in tests/hf/test_prophet_hf.py."""
import numpy as np
import pytest

import posenc

needs_reader = pytest.mark.skipif(not posenc.have_config_reader(),
                                  reason="built without the config reader (apt-get install libjansson-dev)")

CFG = {"model_type": "prophetnet", "num_encoder_layers": 1, "num_decoder_layers": 2,
       "hidden_size": 16, "max_position_embeddings": 40}


@needs_reader
def test_main_and_predict_buckets_by_hand():
    import posenc.schemes as ps
    # max_exact 16 of 32 buckets: below it the distance itself; 20 is
    # 16 + trunc(ln(20/16) / ln(128/16) * 16 = 1.717) = 17, 18 is 16 + trunc(0.906)
    # = 16; a later key 0
    b = ps.relative_buckets(CFG, layer=1, q_pos=[20, 7, 2], k_pos=[0, 2, 5])
    assert b.tolist() == [[17, 16, 15], [7, 5, 2], [2, 0, 0]]
    # predicting streams: [bucket(q - k + 1) | bucket(q - k - 1)]
    p = ps.predict_buckets(CFG, layer=2, positions=[3, 5])
    assert p.shape == (2, 4) and p.dtype == np.int64
    assert p.tolist() == [[1, 0, 0, 0], [3, 1, 1, 0]]
    assert ps.predict_buckets(CFG, layer=1, positions=[]).shape == (0, 0)


@needs_reader
def test_rows_from_pad():
    import posenc.schemes as ps
    d = dict(CFG, pad_token_id=2)
    assert ps.learned_rows(d, layer=0, positions=[0, 1, 36]).tolist() == [3, 4, 39]
    with pytest.raises(ValueError):
        ps.learned_rows(d, layer=0, positions=[37])  # row 40: past the table


@needs_reader
def test_refusals():
    import posenc.schemes as ps
    with pytest.raises(ValueError, match="no predicting streams"):
        ps.predict_buckets(CFG, layer=0)  # the encoder
    with pytest.raises(ValueError, match="does not exist"):
        ps.predict_buckets(CFG, layer=3)
    with pytest.raises(TypeError):
        ps.predict_buckets(CFG, layer=True)
    with pytest.raises(ValueError):
        ps.predict_buckets(CFG, layer=1, positions=[-1])  # the library's sentence
    with pytest.raises(ValueError, match="at most 4096"):
        ps.predict_buckets(CFG, layer=1, positions=range(4097))
    with pytest.raises(ValueError, match="ngram 0 is outside"):
        ps.predict_buckets(dict(CFG, ngram=0), layer=1)
