"""RoFormer (model_type roformer, the RoPE paper's model) as posenc's
registry reads it, against transformers 5.23's running code
(models/roformer/modeling_roformer.py).

For each config (tiny ones, and real checkpoints' values written here) the
model is built at test time (random weights, no network), and:
  - `posenc golden --config F` writes x and the exact rotation y of x,
    rounded once to float32 (posenc's RoPE of the config: interleaved, base
    10000, head hidden_size // num_attention_heads). transformers' own
    apply_rotary_position_embeddings (L220-245), with cos/sin taken from the
    model's RoFormerSinusoidalPositionalEmbedding (encoder.embed_positions,
    L49-80, L394-396) at the same positions, rotates the same x; the two agree
    within ROUND * |pair| (RoFormer's float32 steps: cos and sin rounded once,
    two products and a sum rounded, posenc's single rounding: at most
    5 * 2^-24 of the pair's norm; the bound allows 6). Positions reach the
    table's last row.
  - `posenc check --config F` on a dump of transformers' y says match (its
    exact engine within 4 float32 ulps of the pair's norm: RoFormer's float32
    arithmetic is within that).
  - posenc.RoPE.from_config(F).apply on x gives transformers' y within the
    same bound.
  - EXPLAIN MODEL's rotary_value is what the attention does: the running
    model passes value_layer to apply_rotary_position_embeddings exactly
    when it says 1 (L179-187).
  - A position at the table's end: the model raises an IndexError there
    (nn.Embedding, L80), and posenc golden refuses it by name.
"""
import json
import os
import re
import subprocess

import numpy as np
import pytest

torch = pytest.importorskip("torch", minversion="2.4")
transformers = pytest.importorskip("transformers")
st_numpy = pytest.importorskip("safetensors.numpy")

PROGRAM = os.environ.get("POSENC_PROGRAM", os.path.join(os.getcwd(), "build", "posenc"))
if not os.path.exists(PROGRAM):
    pytest.skip("no build/posenc", allow_module_level=True)

from transformers.models.roformer import modeling_roformer as mr  # noqa: E402

ROUND = 6 * 2.0 ** -24

#: junnyu/roformer_chinese_base's config.json (hidden 768, 12 heads, 1536
#: positions, rotary_value false)
CHINESE_BASE = {
    "architectures": ["RoFormerForMaskedLM"], "attention_probs_dropout_prob": 0.1,
    "embedding_size": 768, "hidden_act": "gelu", "hidden_dropout_prob": 0.1,
    "hidden_size": 768, "initializer_range": 0.02, "intermediate_size": 3072,
    "layer_norm_eps": 1e-12, "max_position_embeddings": 1536, "model_type": "roformer",
    "num_attention_heads": 12, "num_hidden_layers": 12, "pad_token_id": 0,
    "rotary_value": False, "type_vocab_size": 2, "vocab_size": 50000,
}
#: junnyu/roformer_chinese_sim_char_base's values (512 positions, 12 heads)
SIM_CHAR_BASE = dict(CHINESE_BASE, architectures=["RoFormerForCausalLM"],
                     max_position_embeddings=512, vocab_size=12000, is_decoder=True)

CONFIGS = {
    "chinese_base": CHINESE_BASE,
    "sim_char_base": SIM_CHAR_BASE,
    "tiny_values": dict(model_type="roformer", hidden_size=32, num_attention_heads=4,
                        num_hidden_layers=2, intermediate_size=16, vocab_size=64,
                        max_position_embeddings=64, rotary_value=True),
    # hidden_size not a multiple of the heads: the head is hidden // heads (L125, L395)
    "uneven": dict(model_type="roformer", hidden_size=50, num_attention_heads=4,
                   num_hidden_layers=1, intermediate_size=16, vocab_size=64,
                   max_position_embeddings=40, embedding_size=24),
    # names RoFormerConfig does not map (no attribute_map): its defaults apply
    "aliases": dict(model_type="roformer", n_embd=32, n_positions=10, n_head=4,
                    num_hidden_layers=1, intermediate_size=16, vocab_size=64),
    "wide_head": dict(model_type="roformer", hidden_size=256, num_attention_heads=2,
                      num_hidden_layers=1, intermediate_size=16, vocab_size=64,
                      max_position_embeddings=300, rope_theta=500000.0),
}


def _model(d):
    """transformers' model of config d (one layer and a small vocabulary
    where d is a real checkpoint's: positions do not depend on either)."""
    cfg = transformers.RoFormerConfig(**{k: v for k, v in d.items()
                                         if k not in ("architectures", "model_type",
                                                      "rope_theta")})
    cfg.num_hidden_layers = 1
    cfg.vocab_size = min(cfg.vocab_size, 128)
    torch.manual_seed(0)
    return transformers.RoFormerModel(cfg).eval()


def _explain(path):
    r = subprocess.run([PROGRAM, "--config", str(path), "-c", "EXPLAIN MODEL"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _positions(rows):
    ps = sorted({0, 1, 2, 3, 7, 8, 31, rows // 2, rows - 3, rows - 2, rows - 1})
    return [p for p in ps if p < rows]


def _hf_rotate(model, positions, x):
    """x [n, H, d] rotated by transformers' code at positions (q, k and, for
    the check below, v alike)."""
    pos = torch.tensor(positions, dtype=torch.long)
    sp = model.encoder.embed_positions((1, len(positions)), position_ids=pos)[None, None]
    q = torch.from_numpy(x).permute(1, 0, 2)[None].contiguous()  # [1, H, n, d]
    rq, rk, rv = mr.RoFormerSelfAttention.apply_rotary_position_embeddings(sp, q, q.clone(),
                                                                         q.clone())
    assert torch.equal(rq, rk) and torch.equal(rq, rv)
    return rq[0].permute(1, 0, 2).contiguous().numpy()


def _close(got, want, x):
    """|got - want| within ROUND of each interleaved pair's norm."""
    norm = np.hypot(x[..., 0::2], x[..., 1::2])
    norm = np.repeat(norm, 2, axis=-1)
    err = np.abs(got.astype(np.float64) - want.astype(np.float64))
    assert np.all(err <= ROUND * norm), float(np.max(err / np.maximum(norm, 1e-30)))


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_golden_matches_transformers(tmp_path, name):
    d = CONFIGS[name]
    path = tmp_path / "config.json"
    path.write_text(json.dumps(d))
    model = _model(d)
    hc = model.config
    rows = hc.max_position_embeddings
    head = hc.hidden_size // hc.num_attention_heads
    # the table transformers rotates with: rows x (hidden // heads)
    assert tuple(model.encoder.embed_positions.weight.shape) == (rows, head)
    assert model.encoder.layer[0].attention.self.attention_head_size == head

    text = _explain(path)
    assert f"layout=interleaved head_dim={head} rotary_dim={head} base=10000 " \
           f"positions={rows} rotary_value={int(hc.rotary_value)}" in text, text
    if "rope_theta" in d:  # the code reads no base key
        assert re.search(r"^ignored keys=.*\brope_theta\b", text, re.M), text

    positions = _positions(rows)
    out = tmp_path / "g.safetensors"
    r = subprocess.run([PROGRAM, "golden", "--config", str(path), "--heads", "3",
                        "--positions", ",".join(map(str, positions)), "-o", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    g = st_numpy.load_file(str(out))
    assert g["positions"].tolist() == positions
    x, y = g["x"], g["y"]
    assert x.shape == (len(positions), 3, head)
    hf = _hf_rotate(model, positions, x)
    _close(y, hf, x)

    # posenc check (exact engine) on transformers' rotation: a match
    dump = tmp_path / "hf.safetensors"
    st_numpy.save_file({"positions": g["positions"], "x": x, "y": hf}, str(dump))
    r = subprocess.run([PROGRAM, "check", "--config", str(path), str(dump)],
                       capture_output=True, text=True)
    assert r.returncode == 0 and "verdict=match" in r.stdout, r.stdout + r.stderr

    # the Python package, from the same config
    posenc = pytest.importorskip("posenc")
    if not posenc.have_config_reader():
        pytest.skip("posenc built without the config reader")
    rope = posenc.RoPE.from_config(d)
    assert rope.head_dim == head and rope.rotary_dim == head and rope.base == 10000.0
    assert rope.table_rows == model.encoder.embed_positions.num_embeddings == rows
    assert rope.rotary_value == model.encoder.layer[0].attention.self.rotary_value
    ours = rope.apply(x.copy(), positions=np.array(positions, dtype=np.int64))
    _close(ours, hf, x)


@pytest.mark.parametrize("values", [False, True])
def test_rotary_value_as_the_attention_does(tmp_path, values):
    d = dict(CONFIGS["tiny_values"], rotary_value=values)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(d))
    assert f"rotary_value={int(values)}" in _explain(path)
    model = _model(d)
    seen = []
    real = mr.RoFormerSelfAttention.apply_rotary_position_embeddings

    def spy(sinusoidal_pos, q, k, v=None):
        seen.append(v is not None)
        return real(sinusoidal_pos, q, k, v)

    try:
        mr.RoFormerSelfAttention.apply_rotary_position_embeddings = staticmethod(spy)
        with torch.no_grad():
            model(input_ids=torch.arange(5)[None] % 64)
    finally:
        mr.RoFormerSelfAttention.apply_rotary_position_embeddings = staticmethod(real)
    assert seen == [values]


def test_past_the_table(tmp_path):
    d = CONFIGS["tiny_values"]
    rows = d["max_position_embeddings"]
    path = tmp_path / "config.json"
    path.write_text(json.dumps(d))
    model = _model(d)
    with torch.no_grad():
        model(input_ids=torch.zeros(1, rows, dtype=torch.long))  # the last row: fine
        with pytest.raises(IndexError):
            model(input_ids=torch.zeros(1, rows + 1, dtype=torch.long))
    r = subprocess.run([PROGRAM, "golden", "--config", str(path), "--positions",
                        f"0,{rows}", "-o", str(tmp_path / "g.safetensors")],
                       capture_output=True, text=True)
    assert r.returncode != 0
    assert f"position {rows} is past layer 0's table" in r.stderr, r.stderr
    assert f"{rows} rows (max_position_embeddings)" in r.stderr
