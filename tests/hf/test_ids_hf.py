"""Learned tables read by other ids (LayoutLM's boxes, MarkupLM's XPaths,
TAPAS's cells, Reformer's axes) and TIPSv2's text sinusoid: posenc's
registry reading (`EXPLAIN MODEL`) and `posenc golden --config F --layer N`
against transformers 5.23's own code. Each model is built from a tiny config
(random weights, nothing downloaded); forward hooks on its embedding modules
catch the ids each table is indexed by (or, for Reformer's axial table,
weights set to each row's own number reveal the rows read), and posenc's
ids must equal them exactly. The box, cell and axial ids go through the C
library (posenc_box2d_ids, posenc_tapas_positions, posenc_axial_ids) and the
Python package (posenc.schemes.learned_rows). The real checkpoints' config
values are written below (microsoft/layoutlm-base-uncased,
microsoft/markuplm-base, google/tapas-base-finetuned-wtq,
google/reformer-crime-and-punishment, google/reformer-enwik8)."""
import ctypes
import json
import os
import subprocess

import numpy as np
import pytest

torch = pytest.importorskip("torch", minversion="2.4")
transformers = pytest.importorskip("transformers")
st_numpy = pytest.importorskip("safetensors.numpy")

PROGRAM = os.environ.get("POSENC_PROGRAM", os.path.join(os.getcwd(), "build", "posenc"))
if not os.path.exists(PROGRAM):
    pytest.skip("no build/posenc", allow_module_level=True)
_lib_path = os.path.join(os.path.dirname(PROGRAM), "libposenc.so")
lib = ctypes.CDLL(_lib_path) if os.path.exists(_lib_path) else None
i64p = ctypes.POINTER(ctypes.c_int64)


def _explain(tmp_path, d):
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps(d))
    r = subprocess.run([PROGRAM, "--config", str(cfg), "-c", "EXPLAIN MODEL"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    line = next(x for x in r.stdout.splitlines() if x.startswith("layer"))
    words = dict(w.split("=", 1) for w in line.split(": ", 1)[1].split()[1:])
    head = dict(w.split("=", 1) for w in r.stdout.splitlines()[0].split()[1:])
    return head, words


def _golden(tmp_path, d, positions, layer=0, ok=True):
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps(d))
    out = tmp_path / "g.safetensors"
    r = subprocess.run([PROGRAM, "golden", "--config", str(cfg), "--layer", str(layer),
                        "--positions", positions, "-o", str(out)],
                       capture_output=True, text=True)
    if not ok:
        assert r.returncode != 0
        return r.stderr
    assert r.returncode == 0, r.stderr
    return st_numpy.load_file(str(out))


def _build(d):
    cfg = transformers.AutoConfig.for_model(d["model_type"],
                                            **{k: v for k, v in d.items() if k != "model_type"})
    torch.manual_seed(0)
    return transformers.AutoModel.from_config(cfg).eval()


def _keep(seen, key, value):
    """A forward hook's body: the first value kept, the output left alone."""
    seen.setdefault(key, value)


def _ids_read(model, names, **inputs):
    """{module name: the index tensor its forward got} for each nn.Embedding
    whose name ends with one of names."""
    seen = {}
    hooks = []
    for n, m in model.named_modules():
        if isinstance(m, torch.nn.Embedding) and any(n.endswith(s) for s in names):
            hooks.append(m.register_forward_hook(
                lambda mod, a, o, n=n: _keep(seen, n, a[0].detach().clone())))
    try:
        with torch.no_grad():
            model(**inputs)
    finally:
        for h in hooks:
            h.remove()
    return seen


def _only(seen, suffix):
    (v,) = [v for k, v in seen.items() if k.endswith(suffix)]
    return v


# ---- LayoutLM ---------------------------------------------------------------------------

# microsoft/layoutlm-base-uncased's config.json (the keys near positions)
LAYOUTLM_BASE = dict(model_type="layoutlm", hidden_size=768, num_hidden_layers=12,
                     num_attention_heads=12, intermediate_size=3072,
                     max_position_embeddings=512, max_2d_position_embeddings=1024,
                     type_vocab_size=2, vocab_size=30522, pad_token_id=0)
LAYOUTLM_TINY = dict(model_type="layoutlm", hidden_size=8, num_hidden_layers=1,
                     num_attention_heads=2, intermediate_size=8, vocab_size=64,
                     max_position_embeddings=24, max_2d_position_embeddings=40)


def test_layoutlm_reading_is_the_models_tables(tmp_path):
    head, w = _explain(tmp_path, LAYOUTLM_BASE)
    assert head["layers"] == "12" and head["scheme"] == "learned"
    d = dict(LAYOUTLM_BASE, num_hidden_layers=1, vocab_size=64)
    emb = _build(d).embeddings  # modeling_layoutlm.py L51-61
    assert int(w["positions"]) == emb.position_embeddings.num_embeddings
    assert int(w["dim"]) == emb.position_embeddings.embedding_dim
    assert w["ids"] == "box2d"
    for t in ("x", "y", "h", "w"):
        assert int(w["box_rows"]) == getattr(emb, f"{t}_position_embeddings").num_embeddings


def test_layoutlm_rows_and_boxes(tmp_path):
    model = _build(LAYOUTLM_TINY)
    T = 24
    g = torch.Generator().manual_seed(1)
    x0 = torch.randint(0, 20, (1, T), generator=g)
    y0 = torch.randint(0, 20, (1, T), generator=g)
    bbox = torch.stack([x0, y0, x0 + torch.randint(0, 20, (1, T), generator=g),
                        y0 + torch.randint(0, 20, (1, T), generator=g)], dim=-1)
    seen = _ids_read(model, ["position_embeddings"], input_ids=torch.arange(2, 2 + T)[None],
                     bbox=bbox)
    gd = _golden(tmp_path, LAYOUTLM_TINY, f"0-{T - 1}")
    assert gd["positions"].tolist() == list(range(T))
    assert gd["row"].tolist() == _only(seen, ".position_embeddings")[0].tolist()
    # the box rows: x(x0), y(y0), x(x1), y(y1), h(y1 - y0), w(x1 - x0) (L91-103),
    # every call of each table caught in order (x and y are read twice)
    calls = {t: [] for t in "xyhw"}
    emb = model.embeddings
    hooks = [getattr(emb, f"{t}_position_embeddings").register_forward_hook(
        lambda m, a, o, t=t: calls[t].append(a[0][0].tolist())) for t in "xyhw"]
    with torch.no_grad():
        model(input_ids=torch.arange(2, 2 + T)[None], bbox=bbox)
    for h in hooks:
        h.remove()
    assert [len(calls[t]) for t in "xyhw"] == [2, 2, 1, 1]
    assert lib is not None
    ids = np.empty(6, dtype=np.int64)
    for t in range(T):
        box = np.ascontiguousarray(bbox[0, t].numpy(), dtype=np.int64)
        assert lib.posenc_box2d_ids(box.ctypes.data_as(i64p), 40, ids.ctypes.data_as(i64p)) == 0
        hf = [calls["x"][0][t], calls["y"][0][t], calls["x"][1][t], calls["y"][1][t],
              calls["h"][0][t], calls["w"][0][t]]
        assert ids.tolist() == hf, (t, ids.tolist(), hf)
    # a box past the tables: transformers raises IndexError, posenc refuses it
    box = np.array([0, 0, 40, 1], dtype=np.int64)
    assert lib.posenc_box2d_ids(box.ctypes.data_as(i64p), 40, ids.ctypes.data_as(i64p)) != 0
    with pytest.raises(IndexError):
        with torch.no_grad():
            model(input_ids=torch.ones(1, 1, dtype=torch.long), bbox=torch.tensor([[[0, 0, 40, 1]]]))


# ---- MarkupLM ---------------------------------------------------------------------------

# microsoft/markuplm-base's config.json
MARKUPLM_BASE = dict(model_type="markuplm", hidden_size=768, num_hidden_layers=12,
                     num_attention_heads=12, intermediate_size=3072, max_position_embeddings=514,
                     pad_token_id=1, bos_token_id=0, eos_token_id=2, type_vocab_size=1,
                     vocab_size=50267, max_depth=50, max_xpath_tag_unit_embeddings=256,
                     max_xpath_subs_unit_embeddings=1024, tag_pad_id=216, subs_pad_id=1001,
                     xpath_unit_hidden_size=32)
MARKUPLM_TINY = dict(model_type="markuplm", hidden_size=8, num_hidden_layers=1,
                     num_attention_heads=2, intermediate_size=8, vocab_size=64,
                     max_position_embeddings=40, pad_token_id=3, max_depth=3,
                     max_xpath_tag_unit_embeddings=20, max_xpath_subs_unit_embeddings=30,
                     tag_pad_id=19, subs_pad_id=29, xpath_unit_hidden_size=4)


def test_markuplm_reading_is_the_models_tables(tmp_path):
    _, w = _explain(tmp_path, MARKUPLM_BASE)
    d = dict(MARKUPLM_BASE, num_hidden_layers=1, vocab_size=64)
    emb = _build(d).embeddings  # modeling_markuplm.py L51-73, L99-121
    assert int(w["positions"]) == emb.position_embeddings.num_embeddings
    assert int(w["offset"]) == emb.padding_idx + 1
    assert w["ids"] == "xpath"
    xp = emb.xpath_embeddings
    assert int(w["xpath_depth"]) == len(xp.xpath_tag_sub_embeddings) == xp.max_depth
    assert int(w["xpath_tags"]) == xp.xpath_tag_sub_embeddings[0].num_embeddings
    assert int(w["xpath_subs"]) == xp.xpath_subs_sub_embeddings[0].num_embeddings
    assert int(w["xpath_unit"]) == xp.xpath_subs_sub_embeddings[0].embedding_dim
    # the class default pad_token_id 0: rows from 1
    _, w0 = _explain(tmp_path, {"model_type": "markuplm"})
    assert int(w0["offset"]) == _build({"model_type": "markuplm", "num_hidden_layers": 1,
                                        "vocab_size": 64}).embeddings.padding_idx + 1


def test_markuplm_rows(tmp_path):
    model = _build(MARKUPLM_TINY)
    T = 30
    ids = torch.arange(4, 4 + T)[None]  # no padding token (3)
    seen = _ids_read(model, ["position_embeddings"], input_ids=ids)
    gd = _golden(tmp_path, MARKUPLM_TINY, f"0-{T - 1}")
    assert gd["row"].tolist() == _only(seen, "embeddings.position_embeddings")[0].tolist()
    assert gd["row"].tolist() == list(range(4, 4 + T))
    # the last row of the table is position 40 - 4 - 1 = 35; 36 is past it
    assert "past layer 0's 40-row table" in _golden(tmp_path, MARKUPLM_TINY, "36", ok=False)


# ---- TAPAS ------------------------------------------------------------------------------

# google/tapas-base-finetuned-wtq's config.json
TAPAS_WTQ = dict(model_type="tapas", hidden_size=768, num_hidden_layers=12,
                 num_attention_heads=12, intermediate_size=3072, max_position_embeddings=1024,
                 type_vocab_sizes=[3, 256, 256, 2, 256, 256, 10], vocab_size=30522,
                 reset_position_index_per_cell=True, pad_token_id=0)
TAPAS_TINY = dict(model_type="tapas", hidden_size=8, num_hidden_layers=1, num_attention_heads=2,
                  intermediate_size=8, vocab_size=64, max_position_embeddings=6,
                  type_vocab_sizes=[3, 5, 6, 2, 4, 4, 3])


def _tapas_cells():
    col = [0, 0, 0, 0, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 0, 4, 4]
    row = [0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 0, 5, 5]
    return col, row


def test_tapas_reading_is_the_models_tables(tmp_path):
    _, w = _explain(tmp_path, TAPAS_WTQ)
    d = dict(TAPAS_WTQ, num_hidden_layers=1, vocab_size=64)
    model = _build(d)
    emb = model.embeddings  # modeling_tapas.py L76-84
    assert int(w["positions"]) == emb.position_embeddings.num_embeddings
    assert w["ids"] == "cell-reset"
    assert int(w["cell_columns"]) == emb.token_type_embeddings_1.num_embeddings
    assert int(w["cell_rows"]) == emb.token_type_embeddings_2.num_embeddings
    assert model.config.reset_position_index_per_cell


def test_tapas_golden_without_cells(tmp_path):
    # TapasModel's default token_type_ids are zeros (modeling_tapas.py L613-616):
    # one cell (0, 0), positions 0.. capped at max_position_embeddings - 1
    model = _build(TAPAS_TINY)
    T = 9
    seen = _ids_read(model, ["embeddings.position_embeddings"],
                     input_ids=torch.arange(1, 1 + T)[None])
    got = _only(seen, "position_embeddings")[0].tolist()
    gd = _golden(tmp_path, TAPAS_TINY, f"0-{T - 1}")
    assert gd["row"].tolist() == got == [0, 1, 2, 3, 4, 5, 5, 5, 5]
    import posenc.schemes as ps
    assert ps.learned_rows(TAPAS_TINY, positions=range(T)).tolist() == got


@pytest.mark.parametrize("reset", [True, False])
def test_tapas_rows(tmp_path, reset):
    d = dict(TAPAS_TINY, reset_position_index_per_cell=reset)
    model = _build(d)
    col, row = _tapas_cells()
    if not reset:  # a plain table read at 0..: at most its 6 rows
        col, row = col[:6], row[:6]
    n = len(col)
    tt = torch.zeros(1, n, 7, dtype=torch.long)
    tt[0, :, 1] = torch.tensor(col)
    tt[0, :, 2] = torch.tensor(row)
    seen = _ids_read(model, ["embeddings.position_embeddings"],
                     input_ids=torch.arange(1, 1 + n)[None], token_type_ids=tt)
    got = _only(seen, "position_embeddings")[0].tolist()
    _, w = _explain(tmp_path, d)
    import posenc.schemes as ps
    if reset:
        assert w["ids"] == "cell-reset"
        assert ps.learned_rows(d, cells=(col, row)).tolist() == got
        assert lib is not None
        c = np.array(col, dtype=np.uint32)
        r = np.array(row, dtype=np.uint32)
        out = np.empty(n, dtype=np.int64)
        u32p = ctypes.POINTER(ctypes.c_uint32)
        assert lib.posenc_tapas_positions(c.ctypes.data_as(u32p), r.ctypes.data_as(u32p),
                                          ctypes.c_size_t(n), 6, out.ctypes.data_as(i64p)) == 0
        assert out.tolist() == got
    else:
        # the cells ignored: golden's rows and the package's
        assert "ids" not in w
        gd = _golden(tmp_path, d, f"0-{n - 1}")
        assert gd["row"].tolist() == got == list(range(n))
        assert ps.learned_rows(d, positions=range(n)).tolist() == got


# ---- Reformer ---------------------------------------------------------------------------

# google/reformer-crime-and-punishment's and google/reformer-enwik8's config.json
REFORMER_CRIME = dict(model_type="reformer", hidden_size=256, attention_head_size=64,
                      num_attention_heads=2,
                      attn_layers=["local", "lsh", "local", "lsh", "local", "lsh"],
                      axial_pos_embds=True, axial_pos_shape=[512, 1024],
                      axial_pos_embds_dim=[64, 192], max_position_embeddings=524288,
                      local_attn_chunk_length=64, lsh_attn_chunk_length=64,
                      num_buckets=[64, 128], num_hashes=1, vocab_size=320, is_decoder=True)
REFORMER_ENWIK8 = dict(model_type="reformer", hidden_size=1024, attention_head_size=128,
                       num_attention_heads=8, attn_layers=["lsh", "local"] * 6,
                       axial_pos_embds=True, axial_pos_shape=[128, 512],
                       axial_pos_embds_dim=[256, 768], max_position_embeddings=65536,
                       local_attn_chunk_length=128, lsh_attn_chunk_length=256,
                       num_buckets=512, num_hashes=4, vocab_size=258, is_decoder=True)
REFORMER_TINY = dict(model_type="reformer", hidden_size=8, attention_head_size=4,
                     num_attention_heads=2, attn_layers=["local", "lsh"],
                     axial_pos_shape=[4, 8], axial_pos_embds_dim=[2, 6],
                     max_position_embeddings=32, local_attn_chunk_length=4,
                     lsh_attn_chunk_length=4, num_buckets=2, feed_forward_size=8, vocab_size=64)


@pytest.mark.parametrize("d", [REFORMER_CRIME, REFORMER_ENWIK8], ids=["crime", "enwik8"])
def test_reformer_reading_is_the_models_tables(tmp_path, d):
    from transformers.models.reformer.modeling_reformer import AxialPositionEmbeddings
    head, w = _explain(tmp_path, d)
    cfg = transformers.ReformerConfig(**{k: v for k, v in d.items() if k != "model_type"})
    assert int(head["layers"]) == cfg.num_hidden_layers == len(d["attn_layers"])
    ax = AxialPositionEmbeddings(cfg)  # modeling_reformer.py L197-220
    h, wd = (int(v) for v in w["axial_shape"].split("x"))
    d0, d1 = (int(v) for v in w["axial_dim"].split("+"))
    assert [tuple(p.shape) for p in ax.weights] == [(h, 1, d0), (1, wd, d1)]
    assert int(w["positions"]) == h * wd and int(w["dim"]) == cfg.hidden_size
    # the last position the table has, and the first past it
    last = h * wd - 1
    gd = _golden(tmp_path, d, f"0,1,{wd - 1},{wd},{last}")
    assert gd["axial_row"].tolist() == [0, 0, 0, 1, h - 1]
    assert gd["axial_col"].tolist() == [0, 1, wd - 1, 0, wd - 1]
    assert "past layer 0's" in _golden(tmp_path, d, str(last + 1), ok=False)


def _reveal(emb, h, w, d0):
    """Axial weights set to each row's own number: element 0 of a vector is
    the first axis's row, element d0 the second's."""
    with torch.no_grad():
        ws = emb.position_embeddings.weights
        ws[0].zero_()
        ws[1].zero_()
        ws[0][:, 0, 0] = torch.arange(h).float()
        ws[1][0, :, 0] = torch.arange(w).float()


def test_reformer_axial_rows(tmp_path):
    model = _build(REFORMER_TINY)
    emb = model.embeddings
    _reveal(emb, 4, 8, 2)
    seen = {}
    hk = emb.position_embeddings.register_forward_hook(lambda m, a, o: _keep(seen, "pe", o))
    with torch.no_grad():
        emb(input_ids=torch.arange(1, 33)[None])  # modeling_reformer.py L318-335
        hk.remove()
    pe = seen["pe"][0]
    gd = _golden(tmp_path, REFORMER_TINY, "0-31")
    assert gd["axial_row"].tolist() == pe[:, 0].long().tolist()
    assert gd["axial_col"].tolist() == pe[:, 2].long().tolist()
    assert gd["row"].tolist() == list(range(32))
    import posenc.schemes as ps
    r = ps.learned_rows(REFORMER_TINY, positions=range(32))
    assert r["axial_row"].tolist() == gd["axial_row"].tolist()
    assert r["axial_col"].tolist() == gd["axial_col"].tolist()
    # generation's start_idx_pos_encodings: positions 20.. read the same rule
    seen.clear()
    hk = emb.position_embeddings.register_forward_hook(lambda m, a, o: _keep(seen, "pe", o))
    with torch.no_grad():
        emb(input_ids=torch.arange(1, 9)[None], start_idx_pos_encodings=20)
        hk.remove()
    gd = _golden(tmp_path, REFORMER_TINY, "20-27")
    assert gd["axial_row"].tolist() == seen["pe"][0][:, 0].long().tolist()
    assert gd["axial_col"].tolist() == seen["pe"][0][:, 2].long().tolist()


def test_reformer_plain_table(tmp_path):
    d = dict(REFORMER_TINY, axial_pos_embds=False)
    model = _build(d)
    seen = _ids_read(model, ["position_embeddings.embedding"], input_ids=torch.arange(1, 17)[None])
    _, w = _explain(tmp_path, d)
    assert "ids" not in w and int(w["positions"]) == 32
    gd = _golden(tmp_path, d, "0-15")
    assert gd["row"].tolist() == _only(seen, "embedding")[0].tolist()
    assert "axial_row" not in gd


def test_reformer_dims_must_sum(tmp_path):
    d = dict(REFORMER_TINY, axial_pos_embds_dim=[2, 5])
    with pytest.raises(ValueError, match="sum to"):
        _build(d)
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps(d))
    r = subprocess.run([PROGRAM, "--config", str(cfg), "-c", "EXPLAIN MODEL"],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "axial_pos_embds_dim" in r.stderr


# ---- TIPSv2's text model ----------------------------------------------------------------

TIPSV2_TINY = dict(model_type="tipsv2_text_model", hidden_size=16, num_hidden_layers=1,
                   num_attention_heads=2, intermediate_size=8, vocab_size=64,
                   max_position_embeddings=24)


@pytest.mark.parametrize("hidden", [16, 15])
def test_tipsv2_text_sinusoid(tmp_path, hidden):
    d = dict(TIPSV2_TINY, hidden_size=hidden, num_attention_heads=1)
    model = _build(d)
    T = 24
    seen = {}
    mod = next(m for n, m in model.named_modules() if n.endswith("position_embedding"))
    hk = mod.register_forward_hook(lambda m, a, o: _keep(seen, "pe", o))
    with torch.no_grad():
        model(input_ids=torch.arange(1, 1 + T)[None])  # modeling_tipsv2.py L636-662
    hk.remove()
    ref = seen["pe"][0].float().numpy()
    gd = _golden(tmp_path, d, f"0-{T - 1}")
    assert gd["positions"].tolist() == list(range(T))
    ulp = np.spacing(np.abs(ref).astype(np.float32))
    tol = ulp + (np.arange(T)[:, None] + 4) * 2.0 ** -24  # torch's SLEEF expf/sinf
    assert gd["pe"].shape == ref.shape
    assert (np.abs(gd["pe"] - ref) <= tol).all(), np.abs(gd["pe"] - ref).max()
    if hidden % 2:
        assert (gd["pe"][:, -1] == 0).all() and (ref[:, -1] == 0).all()
