"""NanoChat (model_type nanochat) as posenc's registry reads it, against
transformers 5.23's running code (models/nanochat/modeling_nanochat.py).

NanoChat's rotate_half is cat(x2, -x1) (L169-173), so apply_rotary_pos_emb's
q * cos + rotate_half(q) * sin (L106-129) turns each (x[k], x[k + D/2]) pair
by -theta; its cos and sin are llama's (+theta, NanoChatRotaryEmbedding,
L59-103). posenc reads the layer with sense -1 (the inverse frequencies
negated). For tiny configs built at test time (no weights, no network):
  - EXPLAIN MODEL says sense=-1 with the module's head_dim and base; the
    module's inv_freq is posenc's negated (float32 of the exact value).
  - `posenc golden --config F` writes x and y (the exact rotation rounded
    once to float32); NanoChat's own apply_rotary_pos_emb, run in float64 on
    the same x with cos and sin of the exact angles (mpmath, in the module's
    cat(f, f) form), gives y within one float32 rounding of each pair's
    length, at positions up to 2^31 - 1. The +theta rotation (llama's
    rotate_half) does not.
  - With the module's own float32 cos and sin (positions < 64), the model's
    rotation is y within the module's float32 angle error.
  - posenc.RoPE.from_config(F).apply gives the same y (6 float32 roundings).
  - posenc check and golden --format gguf refuse the layer by name, and so
    do posenc.check, posenc.torch.RotaryEmbedding and posenc.torch.patch on a
    NanoChatModel (its module's cos and sin are +theta's).
"""
import json
import os
import subprocess

import numpy as np
import pytest

torch = pytest.importorskip("torch", minversion="2.4")
transformers = pytest.importorskip("transformers")
st_numpy = pytest.importorskip("safetensors.numpy")
mpmath = pytest.importorskip("mpmath")

PROGRAM = os.environ.get("POSENC_PROGRAM", os.path.join(os.getcwd(), "build", "posenc"))
if not os.path.exists(PROGRAM):
    pytest.skip("no build/posenc", allow_module_level=True)

from transformers.models.nanochat import modeling_nanochat as mn  # noqa: E402

ONE = 2.0 ** -23     # one float32 rounding of y (half an ulp) with margin
ROUND = 6 * 2.0 ** -24

CONFIGS = {
    # the class defaults, smaller: head 16, base 10000
    "tiny": dict(model_type="nanochat", hidden_size=64, num_attention_heads=4,
                 num_hidden_layers=2, intermediate_size=32, vocab_size=64),
    # an explicit head_dim (read by getattr, L88, L184) and another base
    "head_dim": dict(model_type="nanochat", hidden_size=48, num_attention_heads=2,
                     head_dim=32, num_hidden_layers=1, intermediate_size=32, vocab_size=64,
                     rope_parameters={"rope_type": "default", "rope_theta": 500000.0}),
    # karpathy/nanochat-d32's shape: hidden 2048, 16 heads of 128
    "d32": dict(model_type="nanochat", hidden_size=2048, num_attention_heads=16,
                num_key_value_heads=16, num_hidden_layers=1, intermediate_size=64,
                vocab_size=64, max_position_embeddings=2048),
}

POSITIONS = [0, 1, 2, 3, 7, 31, 63, 1000, 2047, 2048, 65535, 1 << 20, 123456789,
             2 ** 31 - 2, 2 ** 31 - 1]


def _config(d):
    return transformers.NanoChatConfig(**{k: v for k, v in d.items() if k != "model_type"})


def _head(cfg):
    return getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads


def _base(d):
    return float((d.get("rope_parameters") or {}).get("rope_theta", 10000.0))


def _explain(path):
    r = subprocess.run([PROGRAM, "--config", str(path), "-c", "EXPLAIN MODEL"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _exact_cos_sin(positions, D, base):
    """cos and sin of pos * base^(-2k/D) (+theta) in mpmath, as float64
    [n, D] in the module's cat(f, f) form."""
    mpmath.mp.prec = 200
    P = D // 2
    c = np.empty((len(positions), P))
    s = np.empty_like(c)
    for t, p in enumerate(positions):
        for k in range(P):
            a = mpmath.mpf(p) * mpmath.power(mpmath.mpf(base), mpmath.mpf(-2 * k) / D)
            c[t, k] = float(mpmath.cos(a))
            s[t, k] = float(mpmath.sin(a))
    return np.concatenate([c, c], -1), np.concatenate([s, s], -1)


def _to_bhsd(x):
    return torch.from_numpy(np.ascontiguousarray(x.transpose(1, 0, 2)))[None]


def _from_bhsd(t):
    return t[0].permute(1, 0, 2).contiguous().numpy()


def _close(got, want, x, bound):
    """|got - want| of each half-layout pair within bound of its length."""
    P = x.shape[-1] // 2
    norm = np.hypot(x[..., :P].astype(np.float64), x[..., P:].astype(np.float64))
    err = np.hypot(got[..., :P] - want[..., :P], got[..., P:] - want[..., P:])
    worst = float(np.max(err / np.maximum(norm, 1e-30)))
    assert worst <= bound, worst
    return worst


def _golden(tmp_path, path, positions, heads=3):
    out = tmp_path / "g.safetensors"
    r = subprocess.run([PROGRAM, "golden", "--config", str(path), "--heads", str(heads),
                        "--positions", ",".join(map(str, positions)), "-o", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    g = st_numpy.load_file(str(out))
    assert g["positions"].tolist() == positions
    return g["x"], g["y"]


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_golden_is_nanochats_rotation(tmp_path, name):
    d = CONFIGS[name]
    path = tmp_path / "config.json"
    path.write_text(json.dumps(d))
    cfg = _config(d)
    D, base = _head(cfg), _base(d)
    module = mn.NanoChatRotaryEmbedding(cfg)
    assert module.attention_scaling == 1.0

    text = _explain(path)
    n = d["num_hidden_layers"]
    layers = "layers 0" if n == 1 else f"layers 0-{n - 1}"
    want = (f"{layers}: rope type=default layout=half head_dim={D} rotary_dim={D} "
            f"base={base:g} sense=-1 attn_factor=1")
    assert want in text, text

    posenc = pytest.importorskip("posenc")
    if not posenc.have_config_reader():
        pytest.skip("posenc built without the config reader")
    rope = posenc.RoPE.from_config(d)
    assert rope.sense == -1 and rope.head_dim == D and rope.layout == "half"
    # the module's inv_freq (float32 arithmetic, L92) is posenc's negated,
    # within a float32 ulp or two
    hf_f = module.inv_freq.double().numpy()
    assert np.all(np.abs(hf_f + rope.inv_freq) <= 2.0 ** -22 * hf_f), (hf_f, rope.inv_freq)

    x, y = _golden(tmp_path, path, POSITIONS)
    assert x.shape == (len(POSITIONS), 3, D)
    cos, sin = _exact_cos_sin(POSITIONS, D, base)
    q = _to_bhsd(x.astype(np.float64))
    c, s = torch.from_numpy(cos)[None], torch.from_numpy(sin)[None]
    hq, hk = mn.apply_rotary_pos_emb(q, q.clone(), c, s)
    assert torch.equal(hq, hk)
    hf = _from_bhsd(hq)
    _close(y.astype(np.float64), hf, x, ONE)

    # llama's rotate_half (+theta) is not it: the test can fail
    plus = q * c + torch.cat((-q[..., D // 2:], q[..., :D // 2]), -1) * s
    with pytest.raises(AssertionError):
        _close(y.astype(np.float64), _from_bhsd(plus), x, 1e-3)

    # the package, from the same config
    ours = rope.apply(x.copy(), positions=np.array(POSITIONS, dtype=np.int64))
    _close(ours.astype(np.float64), hf, x, ROUND)


def test_the_modules_own_cos_sin(tmp_path):
    """The model's whole float32 path (NanoChatRotaryEmbedding's cos and sin,
    apply_rotary_pos_emb) at positions 0..63 is y within the module's float32
    angle error (the angle pos * inv_freq rounded, |angle| < 64)."""
    d = CONFIGS["tiny"]
    path = tmp_path / "config.json"
    path.write_text(json.dumps(d))
    cfg = _config(d)
    positions = list(range(64))
    x, y = _golden(tmp_path, path, positions, heads=4)
    q = _to_bhsd(x)
    module = mn.NanoChatRotaryEmbedding(cfg)
    cos, sin = module(q, torch.tensor([positions]))
    hq, _ = mn.apply_rotary_pos_emb(q, q.clone(), cos, sin)
    _close(hq[0].permute(1, 0, 2).double().numpy(), y.astype(np.float64), x,
           64 * 2.0 ** -22 + ROUND)
    # posenc's cos and sin: the module's cos, its sin negated (sin(-theta))
    posenc = pytest.importorskip("posenc")
    if not posenc.have_config_reader():
        pytest.skip("posenc built without the config reader")
    pc, ps = posenc.RoPE.from_config(d).cos_sin(np.array(positions), dtype=np.float64)
    P = _head(cfg) // 2
    assert np.max(np.abs(cos[0, :, :P].double().numpy() - pc)) < 64 * 2.0 ** -22
    assert np.max(np.abs(sin[0, :, :P].double().numpy() + ps)) < 64 * 2.0 ** -22


def test_refused_where_the_sense_cannot_be_said(tmp_path):
    d = CONFIGS["tiny"]
    path = tmp_path / "config.json"
    path.write_text(json.dumps(d))
    x, y = _golden(tmp_path, path, [0, 1, 2])
    dump = tmp_path / "g.safetensors"
    r = subprocess.run([PROGRAM, "check", "--config", str(path), str(dump)],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "turns q and k by -theta (sense=-1)" in r.stderr, r.stderr
    r = subprocess.run([PROGRAM, "golden", "--config", str(path), "--format", "gguf", "-o",
                        str(tmp_path / "g.gguf")], capture_output=True, text=True)
    assert r.returncode == 2 and "ggml_rope_ext" in r.stderr, r.stderr

    posenc = pytest.importorskip("posenc")
    if not posenc.have_config_reader():
        pytest.skip("posenc built without the config reader")
    with pytest.raises(ValueError, match=r"by -theta \(sense=-1\)"):
        posenc.check(x, y, np.array([0, 1, 2]), d)
    pt = pytest.importorskip("posenc.torch")
    with pytest.raises(ValueError, match="turns q and k by -theta"):
        pt.RotaryEmbedding(d)
    torch.manual_seed(0)
    model = transformers.NanoChatModel(_config(d)).eval()
    with pytest.raises(ValueError, match="turns q and k by -theta"):
        pt.patch(model)
    # nothing was replaced: the model's own module is still there
    assert isinstance(model.rotary_emb, mn.NanoChatRotaryEmbedding)
