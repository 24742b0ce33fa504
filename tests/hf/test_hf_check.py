"""posenc.check on Hugging Face transformers' own Llama 3.1 attention.

A one-layer Llama built from tests/data/llama-3.1-8b.json (its head_dim 128,
rope_theta 500000 and llama3 scaling, with a tiny hidden size and random
weights) runs forward at given position ids; the q and k that its attention
hands to modeling_llama.apply_rotary_pos_emb, and what that returns, are
recorded by wrapping the function. transformers forms the angles in float32
(inv_freq float32 @ position_ids float32, LlamaRotaryEmbedding.forward), so at
positions up to 10^6 its float32 output must be a mismatch whose cause is
angle-precision, with an onset; in bfloat16 the same arithmetic rounds below
the dtype's resolution at positions up to 32768, which must match (and past
some 4*10^5 it shows through bf16 too: angle-precision again)."""
import json
import os

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
import posenc  # noqa: E402
from posenc.testing import assert_rope_close  # noqa: E402
from transformers.models.llama import modeling_llama as ml  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURE = os.path.join(ROOT, "tests", "data", "llama-3.1-8b.json")

pytestmark = pytest.mark.skipif(not posenc.have_config_reader(),
                                reason="posenc.check reads configs (libjansson-dev)")


def tiny_llama31(dtype, cast=False):
    """The model built in dtype, as from_pretrained(torch_dtype=dtype) builds it
    (the rotary embedding's inv_freq stays float32); cast=True builds it in
    float32 and then casts it whole with .to(dtype), buffers included."""
    with open(FIXTURE) as f:
        d = json.load(f)
    d.update(num_hidden_layers=1, hidden_size=256, num_attention_heads=2, num_key_value_heads=2,
             head_dim=128, intermediate_size=64, vocab_size=64)
    config = transformers.LlamaConfig.from_dict(d)
    torch.manual_seed(0)
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float32 if cast else dtype)
    try:
        model = ml.LlamaForCausalLM(config).eval()
    finally:
        torch.set_default_dtype(old)
    return (model.to(dtype) if cast else model), config


def hooked_qk(model, positions):
    """q, k before and after apply_rotary_pos_emb, from a forward at positions."""
    seen = {}
    real = ml.apply_rotary_pos_emb

    def spy(q, k, cos, sin, *args, **kwargs):
        q2, k2 = real(q, k, cos, sin, *args, **kwargs)
        seen.update(q=q.detach().clone(), k=k.detach().clone(), q2=q2.detach().clone(),
                    k2=k2.detach().clone())
        return q2, k2

    ml.apply_rotary_pos_emb = spy
    try:
        ids = torch.arange(len(positions)).remainder(64)[None]
        with torch.no_grad():
            model(input_ids=ids, position_ids=torch.tensor(positions)[None])
    finally:
        ml.apply_rotary_pos_emb = real
    assert seen, "the attention never called apply_rotary_pos_emb"
    return seen


def positions_to(max_pos, n=96):
    return np.unique(np.concatenate([np.arange(16), np.geomspace(16, max_pos, n - 16)
                                     .astype(np.int64)])).tolist()


def test_float32_llama31_is_angle_precision_up_to_1e6():
    model, config = tiny_llama31(torch.float32)
    pos = positions_to(1_000_000)
    qk = hooked_qk(model, pos)
    for a, b in (("q", "q2"), ("k", "k2")):
        r = posenc.check(qk[a], qk[b], pos, config=config)
        print(r)
        assert not r.match
        assert r.cause is not None and r.cause.name == "angle-precision", str(r)
        onset = int(r.cause.params["onset"])
        assert 0 < onset <= 1_000_000
        # the error grows with the position: the last band is the worst
        assert r.bands[-1][3] == max(b[3] for b in r.bands)
    with pytest.raises(AssertionError, match="CAUSE name=angle-precision fit_ulp=.* onset="):
        assert_rope_close(qk["q"], qk["q2"], pos, config=config)


def test_bfloat16_llama31_matches_where_bf16_hides_it():
    model, config = tiny_llama31(torch.bfloat16)
    pos = positions_to(32768)
    qk = hooked_qk(model, pos)
    for a, b in (("q", "q2"), ("k", "k2")):
        r = posenc.check(qk[a], qk[b], pos, config=config)
        print(r)
        assert r.dtype == "BF16"
        assert r.match, str(r)
    assert_rope_close(qk["k"], qk["k2"], pos, config=config)
    # past that, the float32 angles show through bf16 too: the onset is past 32768
    pos = positions_to(1_000_000)
    qk = hooked_qk(model, pos)
    r = posenc.check(qk["q"], qk["q2"], pos, config=config)
    print(r)
    assert not r.match and r.cause.name == "angle-precision", str(r)
    assert 32768 < int(r.cause.params["onset"]) <= 1_000_000


def test_bfloat16_llama31_cast_whole_is_dtype_rounding_of_inv_freq():
    """model.to(torch.bfloat16) casts the rotary embedding's inv_freq buffer
    too: the angles then come from bf16 frequencies, an error that grows with
    the position (found by posenc check while writing the test above)."""
    model, config = tiny_llama31(torch.bfloat16, cast=True)
    assert model.model.rotary_emb.inv_freq.dtype == torch.bfloat16
    pos = positions_to(4096)
    qk = hooked_qk(model, pos)
    r = posenc.check(qk["q"], qk["q2"], pos, config=config)
    print(r)
    assert not r.match
    assert r.cause.name == "dtype-rounding" and r.cause.params == {"what": "inv-freq-bf16"}, str(r)
