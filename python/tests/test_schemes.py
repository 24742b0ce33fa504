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


# ---- LongT5, CPM-Ant, VITS (transformers' numbers: tests/hf/test_buckets_hf.py) ----------

LONGT5_TG = {"model_type": "longt5", "num_layers": 1, "local_radius": 3, "global_block_size": 3,
             "encoder_attention_type": "transient-global", "relative_attention_num_buckets": 8,
             "relative_attention_max_distance": 16}


@needs_reader
def test_longt5_cpmant_vits_ids_by_hand():
    import posenc.schemes as ps
    # LongT5's local window |k - q| < local_radius + 1 = 4, T5's buckets inside
    b = ps.relative_buckets(LONGT5_TG, 0, [5, 2, 8, 9])
    assert b[0].tolist() == [0, 2, 6, -1]
    # 10 tokens, 3 global blocks; token 9 (orphan) in block 2: sides -2, -1, 0
    s = ps.side_buckets(LONGT5_TG, 0, [0, 9])
    assert s.tolist() == [[0, 5, 6], [2, 1, 0]]
    assert ps.side_buckets(LONGT5_TG, 0, [0, 1], n_tok=2).shape == (2, 0)
    assert ps.side_buckets(LONGT5_TG, 0, []).shape == (0, 0)
    # CPM-Ant: prompt 0..2 in segment 0, the text in 2; across: 16 + 4 q_seg + k_seg
    cpm = {"model_type": "cpmant", "num_hidden_layers": 1, "position_bias_num_buckets": 16,
           "position_bias_max_distance": 32, "segment_types": 4, "prompt_length": 3}
    assert ps.relative_buckets(cpm, 0, [1, 2, 5]).tolist() == [[0, 9, 18], [1, 0, 18],
                                                               [24, 24, 0]]
    # VITS: row k - q + 2, -1 beyond the window
    vits = {"model_type": "vits", "num_hidden_layers": 1, "window_size": 2}
    assert ps.relative_buckets(vits, 0, [3, 0, 5, 6])[0].tolist() == [2, -1, 4, -1]


@needs_reader
def test_side_bucket_refusals():
    import posenc.schemes as ps
    with pytest.raises(ValueError, match="no transient-global side buckets"):
        ps.side_buckets({"model_type": "t5", "num_layers": 1}, 0)
    with pytest.raises(ValueError, match="below n_tok"):
        ps.side_buckets(LONGT5_TG, 0, [5], n_tok=3)
    with pytest.raises(ValueError, match="n_tok -1 is outside"):
        ps.side_buckets(LONGT5_TG, 0, [0], n_tok=-1)
    with pytest.raises(ValueError, match="does not exist"):
        ps.side_buckets(LONGT5_TG, 7, [0])
    with pytest.raises(ValueError, match="at most 16384"):
        ps.side_buckets(LONGT5_TG, 0, range(16385))
    with pytest.raises(TypeError, match="layer"):
        ps.side_buckets(LONGT5_TG, "0")
    with pytest.raises(TypeError, match="n_tok"):
        ps.side_buckets(LONGT5_TG, 0, [0], n_tok=2.0)
