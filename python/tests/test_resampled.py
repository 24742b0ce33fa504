"""posenc.schemes.resampled_rows: SAM 3 LiteText's table resized to each
sequence's length (the numbers against F.interpolate and the running model
are in tests/hf/test_beam_hf.py); here hand-derived rows and weights and the
refusals."""
import numpy as np
import pytest

import posenc
import posenc.schemes as ps

needs_reader = pytest.mark.skipif(not posenc.have_config_reader(),
                                  reason="built without the config reader (apt-get install libjansson-dev)")

SAM = {"model_type": "sam3_lite_text_text_model", "max_position_embeddings": 4,
       "hidden_size": 8, "num_hidden_layers": 2}


@needs_reader
def test_rows_by_hand():
    # 4 rows to 2 tokens: scale 2, src = 2 (t + 0.5) - 0.5 = 0.5, 2.5
    r = ps.resampled_rows(SAM, 0, seq_len=2)
    assert r["row0"].tolist() == [0, 2] and r["row1"].tolist() == [1, 3]
    assert r["weight1"].tolist() == [0.5, 0.5]
    # 4 rows to 8 tokens: scale 0.5, src = (t + 0.5) / 2 - 0.5: -0.25 -> 0, 0.25, ..., 3.25
    r = ps.resampled_rows(SAM, 1, seq_len=8)
    assert r["row0"].tolist() == [0, 0, 0, 1, 1, 2, 2, 3]
    assert r["row1"].tolist() == [1, 1, 1, 2, 2, 3, 3, 3]
    assert r["weight1"].tolist() == [0.0, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25]
    # the table's own length: the rows as they are
    r = ps.resampled_rows(SAM, 0, seq_len=4, positions=[3, 1])
    assert r["row0"].tolist() == [3, 1] and r["row1"].tolist() == [3, 1]
    assert r["weight1"].tolist() == [0.0, 0.0]


@needs_reader
def test_refusals():
    with pytest.raises(ValueError, match="past|position|outside|tokens"):
        ps.resampled_rows(SAM, 0, seq_len=4, positions=[4])
    with pytest.raises(ValueError, match="seq_len 0"):
        ps.resampled_rows(SAM, 0, seq_len=0)
    with pytest.raises(ValueError, match="does not resample"):
        ps.resampled_rows({"model_type": "bert"}, 0)
    with pytest.raises(ValueError, match="resampled to each sequence"):
        ps.learned_rows(SAM, 0, positions=[0])
    with pytest.raises(TypeError, match="seq_len must be an integer"):
        ps.resampled_rows(SAM, 0, seq_len=2.0)
    with pytest.raises(TypeError, match="layer must be an integer"):
        ps.resampled_rows(SAM, "0")
    with pytest.raises(ValueError, match="at most 65536"):
        ps.resampled_rows(SAM, 0, seq_len=70000, positions=np.zeros(65537, np.int64))
