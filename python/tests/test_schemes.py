"""posenc.schemes: a config's sinusoid tables and relative buckets (the
numbers against transformers are in tests/hf/test_sinusoid_families_hf.py);
here the lesson's layout against posenc.sinusoid, T5's buckets against the
bucket formula's hand values, and the refusals."""
import numpy as np
import pytest

import posenc

needs_reader = pytest.mark.skipif(not posenc.have_config_reader(),
                                  reason="built without the config reader (apt-get install libjansson-dev)")


@needs_reader
def test_distilbert_sinusoid_is_the_lessons():
    import posenc.schemes as ps
    cfg = {"model_type": "distilbert", "dim": 12, "n_layers": 2, "n_heads": 2,
           "max_position_embeddings": 40, "sinusoidal_pos_embds": True}
    pe = ps.sinusoid_table(cfg, layer=1, positions=range(40))
    want = posenc.sinusoid(40, 12, dtype=np.float64)
    assert pe.shape == (40, 12) and pe.dtype == np.float32
    assert np.abs(pe - want).max() <= 2.0 ** -23


@needs_reader
def test_fairseq_offset_and_t5_buckets():
    import posenc.schemes as ps
    m2m = {"model_type": "m2m_100", "d_model": 8, "encoder_layers": 1, "decoder_layers": 1,
           "max_position_embeddings": 32, "pad_token_id": 1}
    # fairseq's row of token 0 is position padding_idx + 1 = 2: sin(2) first
    assert ps.sinusoid_table(m2m, 0, [0])[0, 0] == np.float32(np.sin(2.0))
    t5 = {"model_type": "t5", "d_model": 8, "num_layers": 1, "num_decoder_layers": 1}
    enc = ps.relative_buckets(t5, 0, range(4))
    assert enc[0].tolist() == [0, 17, 18, 19] and enc[:, 0].tolist() == [0, 1, 2, 3]
    dec = ps.relative_buckets(t5, 1, range(4))
    assert dec[0].tolist() == [0, 0, 0, 0] and dec[3].tolist() == [3, 2, 1, 0]


@needs_reader
def test_refusals():
    import posenc.schemes as ps
    llama = {"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4,
             "num_hidden_layers": 1}
    with pytest.raises(ValueError, match="scheme is rope"):
        ps.sinusoid_table(llama)
    with pytest.raises(ValueError, match="does not exist"):
        ps.relative_buckets({"model_type": "t5", "d_model": 8, "num_layers": 1}, layer=9)
    with pytest.raises(TypeError):
        ps.sinusoid_table(llama, positions=[0.5])
