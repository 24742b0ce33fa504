"""posenc's Python objects pickle and copy by their parameters (rebuilt on
load): RoPE made by hand or from a config (any layer, seq_len, cache), MRoPE."""
import copy
import json
import os
import pickle

import numpy as np
import pytest

import posenc

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
POS = np.array([0, 1, 7, 1000, 70000, 1000000])


def same(a, b):
    assert type(a) is type(b) and a is not b
    assert repr(a) == repr(b)
    assert a.cache_len == b.cache_len and a.seq_len == b.seq_len
    for x, y in zip(a.cos_sin(POS), b.cos_sin(POS)):
        assert np.array_equal(x, y)


@pytest.mark.parametrize("copier", [copy.copy, copy.deepcopy,
                                    lambda r: pickle.loads(pickle.dumps(r))])
def test_rope_by_hand(copier):
    r = posenc.RoPE(64, 32, 500000.0, "interleaved",
                    {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096})
    same(r, copier(r))
    same(r.with_seq_len(9000), copier(r.with_seq_len(9000)))
    r.use_cache(64)
    same(r, copier(r))


@pytest.mark.skipif(not posenc.have_config_reader(), reason="no config reader (jansson)")
@pytest.mark.parametrize("copier", [copy.deepcopy, lambda r: pickle.loads(pickle.dumps(r))])
def test_rope_from_config(copier):
    path = os.path.join(ROOT, "tests", "data", "models", "llama-3.2-1b-instruct.json")
    if not os.path.exists(path):
        pytest.skip("no llama-3.2-1b-instruct.json")
    with open(path) as f:
        cfg = json.load(f)
    r = posenc.RoPE.from_config(cfg, 3, seq_len=200000)
    c = copier(r)
    same(r, c)
    assert c.model_type == r.model_type and list(c.inv_freq) == list(r.inv_freq)


def test_mrope():
    m = posenc.MRoPE(posenc.RoPE(32, base=1e6), [8, 4, 4], "interleaved")
    for c in (copy.deepcopy(m), pickle.loads(pickle.dumps(m))):
        assert (c.section, c.rule) == (m.section, m.rule) and c.rope is not m.rope
        assert np.array_equal(c.axis, m.axis)
