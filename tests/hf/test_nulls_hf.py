"""A JSON null against transformers 5.23's own reading of it, on every registry
family with a config class (hf_probe.default_config works).

posenc's config reader sees a null and an absent key alike unless the row says
otherwise (posenc_model_family.nonnull: the config class declares the field
without None, so transformers refuses the config; null_misread: the class
accepts the None but its model then does not compute the default). For each
family's class defaults and each key with a value there that posenc reads
(deleting it, or changing it, changes posenc's EXPLAIN MODEL), where posenc
reads the key set to null exactly as the key deleted (the default), transformers
must agree that the null means the default:

- its config class must accept the null (a StrictDataclass...ValidationError
  there means the row's nonnull list misses the key), and
- the model built from the null config must rotate as posenc says
  (hf_probe.probe VERIFIED), unless the class defaults themselves are not
  verifiable (listed in UNPROBED with why).

rope_theta is swept the same way on the RoPE families' defaults with
rope_parameters removed (a top-level rope_theta is what a null there replaces).

Remote-code families (no transformers config class) are not swept: their code
cannot run here."""
import json
import os
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import hf_probe  # noqa: E402

#: Families whose class defaults the probe cannot verify (so a null's model says
#: nothing about posenc's reading), with what the probe says of the defaults.
UNPROBED = {
    "fsmt": "sinusoid table off by 2 from posenc.sinusoid (probe limitation)",
    "funnel": "not buildable: the class defaults set num_hidden_layers",
    "mpnet": "no attention call reaches the probe (relative buckets)",
    "roformer": "no attention call reaches the probe",
    "muse_glimmer_text": "the defaults disagree already (not a null question)",
    "muse_spark_text": "the defaults disagree already (not a null question)",
    "neomme": "not buildable: tensor size mismatch in the forward",
    "pop2piano": "not buildable: no model class for the config",
    "reformer": "not buildable: axial_pos_embds do not sum to the shrunk hidden_size",
    "speech_to_text": "not buildable: the forward needs input features",
    "t5_gemma_module": "not buildable: no model class for the config",
    "t5gemma2_decoder": "not buildable: no model class for the config",
    "t5gemma2_text": "not buildable: no model class for the config",
    "voxtral_realtime_text": "not buildable: the forward needs audio",
    "xglm": "no nn.Embedding position table to compare",
    "dia_decoder": "not buildable: no model class for the config",
    "dia_encoder": "not buildable: no model class for the config",
    "csm": "not buildable: too large after shrinking (tests/hf/test_own_rotary_hf.py)",
    "csm_depth_decoder_model": "not buildable: no AutoModel class (test_own_rotary_hf.py)",
    "evolla": "not buildable: no AutoModel class (test_own_rotary_hf.py)",
    "kyutai_speech_to_text": "not buildable: the forward needs audio (test_own_rotary_hf.py)",
    "lxmert": "not buildable: the forward needs visual features",
    "qwen3_omni_moe_talker_code_predictor": "not buildable: no AutoModel class "
                                            "(test_own_rotary_hf.py)",
}


def _program():
    return os.environ.get("POSENC_PROGRAM") or os.path.join(ROOT, "build", "posenc")


def _families():
    out = subprocess.run([_program(), "--models"], capture_output=True, text=True,
                         check=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.strip()]


FAMILIES = _families()
_TMP = tempfile.mkdtemp(prefix="posenc-nulls-")
_BASE = {}  # posenc's reading of each family's class defaults
_LOCK = threading.Lock()


def _read(d, tag):
    """posenc's EXPLAIN MODEL of the dict d: (exit status, output or message)."""
    path = os.path.join(_TMP, tag + ".json")
    with open(path, "w") as f:
        json.dump(d, f)
    r = subprocess.run([_program(), "--config", path, "-c", "EXPLAIN MODEL"],
                       capture_output=True, text=True, timeout=60)
    return r.returncode, (r.stdout if r.returncode == 0 else r.stderr)


def _base(d, base_id):
    """posenc's reading of the config d, named base_id (once each)."""
    with _LOCK:
        if base_id not in _BASE:
            _BASE[base_id] = _read(d, base_id.replace(" ", "-") + "-base")
        return _BASE[base_id]


def _changed(v):
    """Another value of v's type (None where there is no simple one)."""
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v * 2 + 2
    if isinstance(v, float):
        return v * 2 + 0.5
    if isinstance(v, str):
        return v + "_x"
    if isinstance(v, list) and v:
        return v + v[-1:]
    return None


def _read_as_default(d, key, tag, base_id):
    """Does posenc read d[key] = null as the key deleted, and read the key at
    all? (the bug class: a null taken for the default)"""
    dn = dict(d, **{key: None})
    dd = {k: v for k, v in d.items() if k != key}
    null, gone = _read(dn, tag + "-n"), _read(dd, tag + "-d")
    if null != gone:
        return False
    base = _base(d, base_id)
    if gone != base:
        return True
    other = _changed(d[key])
    return other is not None and _read(dict(d, **{key: other}), tag + "-c") != base


def _transformers_on(dn):
    """What transformers makes of the config dict dn: None when it agrees with
    posenc's reading of the null as the default, else why not."""
    try:
        hf_probe.hf_config(dn)
    except Exception as e:  # noqa: BLE001 - the validation errors of every class
        return f"the config class refuses it: {type(e).__name__}: {str(e)[:160]}"
    if dn["model_type"] in UNPROBED:
        return None
    rep = hf_probe.probe(dn, positions=(hf_probe.SMALL_POS,))
    if rep.status in (hf_probe.VERIFIED, hf_probe.REFUSED):
        return None
    return f"the model built from it: {rep.status}: {rep.detail[:200]}"


def _defaults(model_type):
    try:
        d = hf_probe.default_config(model_type)
    except Exception:  # noqa: BLE001 - remote code: no transformers class
        return None
    return d


@pytest.mark.parametrize("model_type", FAMILIES)
def test_null_read_as_default_only_where_transformers_does(model_type):
    d = _defaults(model_type)
    if d is None:
        pytest.skip("no transformers config class (remote code)")
    wrong = []
    keys = [k for k, v in d.items()
            if v is not None and k != "model_type" and not isinstance(v, dict)]
    # posenc's readings two at a time (each is a process of its own)
    with ThreadPoolExecutor(2) as pool:
        read = list(pool.map(lambda k: _read_as_default(d, k, f"{model_type}-{k}", model_type), keys))
    for key in (k for k, r in zip(keys, read) if r):
        why = _transformers_on(dict(d, **{key: None}))
        if why:
            wrong.append(f"{key}: posenc reads a null as the default, but {why}")
    rp = d.get("rope_parameters")
    if isinstance(rp, dict) and "rope_theta" in rp:
        flat = {k: v for k, v in d.items() if k != "rope_parameters"}
        flat["rope_theta"] = rp["rope_theta"]
        if _read_as_default(flat, "rope_theta", model_type + "-theta", model_type + " flat"):
            why = _transformers_on(dict(flat, rope_theta=None))
            if why:
                wrong.append(f"rope_theta (no rope_parameters): posenc reads a null as the "
                             f"default, but {why}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("model_type", ["llama", "qwen2", "roberta", "deepseek_v3"])
def test_null_refused_by_name(model_type):
    """The refusals name the key and cite the class or the model."""
    d = _defaults(model_type)
    key = {"llama": "num_attention_heads", "qwen2": "hidden_size", "roberta": "pad_token_id",
           "deepseek_v3": "rope_interleave"}[model_type]
    rc, text = _read(dict(d, **{key: None}), model_type + "-named")
    assert rc != 0, text
    assert f"{key} is null" in text and "transformers" in text, text
    assert "(a null is not read as the default)" in text, text
