"""posenc check --gguf FILE --config FILE on files written by llama.cpp's own
`gguf` Python package (PyPI gguf 0.19.0, gguf.GGUFWriter), with the calls
convert_hf_to_gguf.py makes (llama-cpp-python 0.3.36's vendor/llama.cpp,
conversion/base.py:1462-1509, conversion/llama.py:164-173 and 298-326,
conversion/phi.py:148-211): the key names and types come from the package,
not from posenc's C test writer (tests/test_gguf_convert.c), so a key
misspelled on both sides of posenc would show here. Skipped without the
package (make venv installs it) or without build/posenc."""
import json
import math
import os
import subprocess

import numpy as np
import pytest

gguf = pytest.importorskip("gguf")

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
POSENC = os.path.join(ROOT, "build", "posenc")
DATA = os.path.join(ROOT, "tests", "data")

pytestmark = pytest.mark.skipif(not os.access(POSENC, os.X_OK), reason="build/posenc not built")


def write(path, arch, keys, tensors=()):
    w = gguf.GGUFWriter(path, arch)
    for k in keys:
        k(w)
    for name, values in tensors:
        w.add_tensor(name, np.asarray(values, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def check(gguf_path, config):
    r = subprocess.run([POSENC, "check", "--gguf", gguf_path, "--config", config],
                       capture_output=True, text=True)
    if "config-json" not in subprocess.run([POSENC, "--features"], capture_output=True,
                                           text=True).stdout:
        pytest.skip("posenc built without the config reader (libjansson-dev)")
    return r.returncode, r.stdout


def llama3_freqs(base, dim, factor, low, high, old):
    """conversion/llama.py:298-326, freqs in float32 as torch forms them."""
    freqs = 1.0 / (np.float32(base) ** (np.arange(0, dim, 2, dtype=np.float32) / np.float32(dim)))
    out = []
    for freq in freqs:
        wavelen = 2 * math.pi / float(freq)
        if wavelen < old / high:
            out.append(1)
        elif wavelen > old / low:
            out.append(factor)
        else:
            smooth = (old / wavelen - low) / (high - low)
            out.append(1 / ((1 - smooth) / factor + smooth))
    return out


def common(w, ctx, emb, blocks, heads, kv):
    w.add_context_length(ctx)
    w.add_embedding_length(emb)
    w.add_block_count(blocks)
    w.add_head_count(heads)
    w.add_head_count_kv(kv)


@pytest.mark.parametrize("bug,want", [(None, None), ("freqs-missing", "rope-freqs-missing"),
                                      ("factor", "rope-freqs")])
def test_llama31(tmp_path, bug, want):
    cfg = os.path.join(DATA, "llama-3.1-8b.json")
    path = str(tmp_path / "l.gguf")
    freqs = llama3_freqs(500000.0, 128, 32.0 if bug == "factor" else 8.0, 1.0, 4.0, 8192)
    write(path, "llama",
          [lambda w: common(w, 131072, 4096, 32, 32, 8),
           lambda w: w.add_rope_freq_base(500000.0),
           lambda w: w.add_rope_dimension_count(128)],
          [] if bug == "freqs-missing" else [("rope_freqs.weight", freqs)])
    rc, out = check(path, cfg)
    if want is None:
        assert rc == 0 and out.startswith("CHECK verdict=match"), out
    else:
        assert rc == 1 and f"CAUSE name={want} key=rope_freqs.weight" in out, out


@pytest.mark.parametrize("factor,want", [(4.0, None), (2.0, "scaling-factor")])
def test_qwen25_yarn(tmp_path, factor, want):
    cfg = os.path.join(DATA, "gguf", "qwen2.5-7b-instruct-yarn.json")
    path = str(tmp_path / "q.gguf")
    write(path, "qwen2",
          [lambda w: common(w, 32768, 3584, 28, 28, 4),
           lambda w: w.add_rope_freq_base(1000000.0),
           lambda w: w.add_rope_scaling_type(gguf.RopeScalingType.YARN),
           lambda w: w.add_rope_scaling_factor(factor),
           lambda w: w.add_rope_scaling_orig_ctx_len(32768)])
    rc, out = check(path, cfg)
    if want is None:
        assert rc == 0, out
    else:
        assert rc == 1 and f"CAUSE name={want} key=qwen2.rope.scaling.factor" in out, out


@pytest.mark.parametrize("swap", [False, True])
def test_phi35_longrope(tmp_path, swap):
    cfg = os.path.join(DATA, "models", "phi3-phi-3.5-mini-instruct.json")
    with open(cfg) as f:
        rs = json.load(f)["rope_scaling"]
    long_f, short_f = rs["long_factor"], rs["short_factor"]
    if swap:
        long_f, short_f = short_f, long_f
    path = str(tmp_path / "p.gguf")
    write(path, "phi3",
          [lambda w: common(w, 131072, 3072, 32, 32, 32),
           lambda w: w.add_rope_scaling_orig_ctx_len(4096),
           lambda w: w.add_rope_dimension_count(96),
           lambda w: w.add_rope_freq_base(10000.0),
           lambda w: w.add_rope_scaling_attn_factors(math.sqrt(1 + math.log(32) / math.log(4096)))],
          [("rope_factors_long.weight", long_f), ("rope_factors_short.weight", short_f)])
    rc, out = check(path, cfg)
    if not swap:
        assert rc == 0, out
    else:
        assert rc == 1 and "CAUSE name=rope-factors-swapped key=rope_factors_long.weight" in out, out
