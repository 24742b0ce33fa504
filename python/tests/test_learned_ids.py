"""posenc.schemes.learned_rows: the rows a learned table is read at (the
numbers against transformers' running code are in tests/hf/test_ids_hf.py);
here the rules by hand (offset + index, Reformer's p // w and p % w, TAPAS's
distance from the cell's first token) and every refusal."""
import numpy as np
import pytest

import posenc

needs_reader = pytest.mark.skipif(not posenc.have_config_reader(),
                                  reason="built without the config reader (apt-get install libjansson-dev)")

REFORMER = {"model_type": "reformer", "hidden_size": 8, "attn_layers": ["local", "lsh"],
            "axial_pos_shape": [3, 5], "axial_pos_embds_dim": [2, 6],
            "max_position_embeddings": 15}
TAPAS = {"model_type": "tapas", "max_position_embeddings": 4, "type_vocab_sizes": [3, 3, 4]}


@needs_reader
def test_plain_rows_are_offset_plus_index():
    import posenc.schemes as ps
    assert ps.learned_rows({"model_type": "bert"}, positions=[0, 5, 511]).tolist() == [0, 5, 511]
    # RoBERTa-like MarkupLM: rows from pad_token_id + 1; the default 0..31
    rows = ps.learned_rows({"model_type": "markuplm", "pad_token_id": 1,
                            "max_position_embeddings": 514})
    assert rows.dtype == np.int64 and rows.tolist() == list(range(2, 34))
    rows = ps.learned_rows({"model_type": "layoutlm"}, layer=11, positions=np.arange(3))
    assert rows.tolist() == [0, 1, 2]


@needs_reader
def test_reformer_axial_rows_by_hand():
    import posenc.schemes as ps
    r = ps.learned_rows(REFORMER, layer=1, positions=range(15))
    assert r["row"].tolist() == list(range(15))
    assert r["axial_row"].tolist() == [p // 5 for p in range(15)]
    assert r["axial_col"].tolist() == [p % 5 for p in range(15)]
    with pytest.raises(ValueError, match="position 15 reads row 15, outside layer 0's 15-row"):
        ps.learned_rows(REFORMER, positions=[15])
    with pytest.raises(ValueError, match="outside"):
        ps.learned_rows(REFORMER, positions=[-1])


@needs_reader
def test_tapas_cells_by_hand():
    import posenc.schemes as ps
    # question (0, 0) x3, cell (1, 1) x2, cell (2, 1) x5 (capped at row 3), (1, 1) again
    cols = [0, 0, 0, 1, 1, 2, 2, 2, 2, 2, 1]
    rows = [0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]
    got = ps.learned_rows(TAPAS, cells=(cols, rows))
    assert got.tolist() == [0, 1, 2, 0, 1, 0, 1, 2, 3, 3, 3]
    # no cells: TapasModel's zeros, one cell (0, 0), the index capped at row 3
    assert ps.learned_rows(TAPAS, positions=range(6)).tolist() == [0, 1, 2, 3, 3, 3]
    with pytest.raises(ValueError, match="column 3, row 0.* outside the 3 columns and 4 rows"):
        ps.learned_rows(TAPAS, cells=([3], [0]))
    with pytest.raises(ValueError, match="not both"):
        ps.learned_rows(TAPAS, positions=[0], cells=([0], [0]))
    with pytest.raises(ValueError, match="as many rows as columns"):
        ps.learned_rows(TAPAS, cells=([0, 0], [0]))
    with pytest.raises(ValueError, match="non-negative"):
        ps.learned_rows(TAPAS, cells=([-1], [0]))
    with pytest.raises(ValueError, match="does not read cells"):
        ps.learned_rows({"model_type": "bert"}, cells=([0], [0]))
    assert ps.learned_rows(TAPAS, cells=([], [])).tolist() == []


@needs_reader
def test_refusals():
    import posenc.schemes as ps
    with pytest.raises(ValueError, match="scheme is sinusoid: learned_rows gives"):
        ps.learned_rows({"model_type": "ctrl", "n_embd": 8, "n_layer": 1, "n_head": 2})
    with pytest.raises(ValueError, match="layer 12 does not exist"):
        ps.learned_rows({"model_type": "bert"}, layer=12)
    with pytest.raises(TypeError):
        ps.learned_rows({"model_type": "bert"}, layer=True)
    with pytest.raises(TypeError):
        ps.learned_rows({"model_type": "bert"}, positions=[0.5])
    with pytest.raises(ValueError, match="at most 65536"):
        ps.learned_rows({"model_type": "bert"}, positions=np.zeros(65537, dtype=np.int64))


def test_torch_in_torch_out():
    torch = pytest.importorskip("torch")
    if not posenc.have_config_reader():
        pytest.skip("built without the config reader")
    import posenc.schemes as ps
    r = ps.learned_rows(REFORMER, positions=torch.arange(4))
    assert isinstance(r["axial_col"], torch.Tensor) and r["axial_col"].tolist() == [0, 1, 2, 3]
    got = ps.learned_rows(TAPAS, cells=(torch.tensor([0, 1, 1]), torch.tensor([0, 2, 2])))
    assert isinstance(got, torch.Tensor) and got.tolist() == [0, 0, 1]
