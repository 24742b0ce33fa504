"""Issue 36 (h-prophet): Muse Spark's per-layer NoPE, the encoder-decoder
wrapper and ProphetNet, against transformers 5.23's running code.

Tiny models are built from configs here: no weights, no network."""
import json
import math
import os
import subprocess

import numpy as np
import pytest

torch = pytest.importorskip("torch", minversion="2.4")
transformers = pytest.importorskip("transformers")
posenc = pytest.importorskip("posenc")
import posenc.schemes  # noqa: E402  (learned_rows, relative_buckets)

POSITIONS = [0, 1, 2, 3, 17, 255, 4095, 4096, 65535, 131071, 999999, 1000000]


def _program():
    return os.environ.get("POSENC_PROGRAM", os.path.join(os.getcwd(), "build", "posenc"))


def _tol(rope):
    """Allowed |cos_hf - cos_exact|: transformers multiplies position and
    inv_freq in float32 (an angle error of about theta * 2^-24) before cos."""
    theta = np.abs(np.asarray(POSITIONS, np.float64)[:, None] * rope.inv_freq[None, :])
    return theta * (math.log(max(rope.base, 2.0)) + 8.0) * 2.0 ** -24 + 2.0 ** -20


# ---- muse_spark: muse_glimmer's NoPE rule (modular_muse_spark.py L81, L527-590) ---------

def _spark_text(thetas, rope_parameters):
    small = dict(hidden_size=64, intermediate_size=64, num_attention_heads=2,
                 num_key_value_heads=1, vocab_size=128, head_dim=32,
                 moe_intermediate_size=32, moe_hidden_size=32, num_local_experts=2,
                 num_experts_per_tok=1, num_hidden_layers=9 if thetas is None else len(thetas))
    if thetas is not None:
        small["layer_rope_theta"] = thetas
    if rope_parameters is not None:
        small["rope_parameters"] = rope_parameters
    return transformers.MuseSparkTextConfig(**small)


SPARK = [
    # the values only say NoPE (0) or not: one rotary at rope_parameters' theta
    ([0, 123.0, 500000.0, 0, 7.0], {"rope_type": "default", "rope_theta": 10000.0}),
    # no list: NoPE on every 4th layer counted back from the last (layers 0, 4, 8)
    (None, {"rope_type": "default", "rope_theta": 20000.0}),
    # neither list nor rope_parameters: the config's own 500000
    (None, None),
    # another rope_type through the same single rotary
    ([1.0, 0, 1.0], {"rope_type": "linear", "factor": 4.0, "rope_theta": 10000.0}),
]


@pytest.mark.parametrize("thetas,rope", SPARK)
@pytest.mark.parametrize("wrapped", [False, True])
def test_muse_spark_every_layer(thetas, rope, wrapped):
    """Each layer's position_embeddings as MuseSparkTextModel passes them to
    its attention (None on NoPE layers) against posenc's answer for that
    layer, from the text config alone or through muse_spark's text_config."""
    torch.manual_seed(0)
    cfg = _spark_text(thetas, rope)
    d = cfg.to_dict()
    if thetas is None:
        d.pop("layer_rope_theta")  # the class fills it in: posenc must apply the same rule
    if rope is None:
        d.pop("rope_parameters")  # likewise its 500000
        assert cfg.rope_parameters["rope_theta"] == 500000.0
    if wrapped:
        d = {"model_type": "muse_spark", "text_config": d}
    model = transformers.MuseSparkTextModel(cfg).eval()
    seen = {}

    def grab(i):
        def hook(mod, args, kwargs):
            seen[i] = kwargs.get("position_embeddings")
        return hook

    for i, layer in enumerate(model.layers):
        layer.self_attn.register_forward_pre_hook(grab(i), with_kwargs=True)
    pos = torch.tensor([POSITIONS])
    with torch.no_grad():
        model(input_ids=torch.zeros_like(pos), position_ids=pos, use_cache=False)
    assert sorted(seen) == list(range(len(model.layers)))
    n_none = 0
    for i in range(len(model.layers)):
        pe = seen[i]
        if pe is None:
            n_none += 1
            with pytest.raises(ValueError, match="NoPE"):
                posenc.RoPE.from_config(d, layer=i)
            continue
        r = posenc.RoPE.from_config(d, layer=i, seq_len=max(POSITIONS) + 1)
        hc, hs = (t[0].double().numpy() for t in pe)
        P = r.rotary_dim // 2
        assert hc.shape[-1] == 2 * P == 32 and r.layout == "half"
        c, s = r.cos_sin(POSITIONS, dtype=np.float64)
        tol = _tol(r)
        assert (np.abs(hc[:, :P] - c) <= tol).all() and (np.abs(hs[:, :P] - s) <= tol).all(), \
            (i, np.abs(hc[:, :P] - c).max())
        assert (np.abs(hc[:, P:] - c) <= tol).all()
    assert n_none == (3 if thetas is None else sum(1 for t in thetas if t == 0))


# ---- encoder-decoder (EncoderDecoderModel): each stack its own family ---------------------

def _tiny(kind, layers, **kw):
    d = dict(hidden_size=32, num_attention_heads=2, intermediate_size=32, vocab_size=96,
             num_hidden_layers=layers, max_position_embeddings=40)
    if kind == "gpt2":
        return transformers.GPT2Config(n_embd=32, n_head=2, n_layer=layers, n_positions=48,
                                       vocab_size=96, **kw)
    if kind == "roberta":
        d.update(max_position_embeddings=42, pad_token_id=1)
        d.update(kw)
        return transformers.RobertaConfig(**d)
    d.update(kw)
    return transformers.BertConfig(**d)


ENCDEC = {
    "bert2gpt2": (("bert", 3), ("gpt2", 2)),
    "bert2bert": (("bert", 2), ("bert", 3)),
    "roberta2roberta": (("roberta", 2), ("roberta", 2)),
}


def _encdec(name):
    (ek, en), (dk, dn) = ENCDEC[name]
    cfg = transformers.EncoderDecoderConfig.from_encoder_decoder_configs(
        _tiny(ek, en), _tiny(dk, dn))
    torch.manual_seed(0)
    return cfg, transformers.EncoderDecoderModel(cfg).eval()


def _position_ids_seen(stack):
    """The index tensor each stack's position table got in a forward call."""
    seen = []
    (emb,) = [m for n, m in stack.named_modules()
              if isinstance(m, torch.nn.Embedding) and n.endswith(("position_embeddings", "wpe"))]
    return emb, seen, emb.register_forward_hook(lambda mod, a, o: seen.append(a[0].clone()))


@pytest.mark.parametrize("name", sorted(ENCDEC))
def test_encoder_decoder_every_layer(name, tmp_path):
    """Layers numbered encoder first: each layer's table (rows, offset, width)
    and the rows posenc reads, golden's and the package's, against the
    position table each sub-model of EncoderDecoderModel reads in a forward
    call (the encoder AutoModel, the decoder AutoModelForCausalLM:
    modeling_encoder_decoder.py L113-120, L391-440)."""
    cfg, model = _encdec(name)
    d = json.loads(cfg.to_json_string())
    T_enc, T_dec = 11, 7
    e_emb, e_seen, h1 = _position_ids_seen(model.encoder)
    d_emb, d_seen, h2 = _position_ids_seen(model.decoder)
    ids = torch.arange(3, 3 + T_enc)[None]  # no pad token (RoBERTa's pad 1)
    dids = torch.arange(5, 5 + T_dec)[None]
    with torch.no_grad():
        model(input_ids=ids, decoder_input_ids=dids, use_cache=False)
    h1.remove()
    h2.remove()
    n_enc = cfg.encoder.num_hidden_layers if hasattr(cfg.encoder, "num_hidden_layers") \
        else cfg.encoder.n_layer
    n_dec = cfg.decoder.num_hidden_layers if hasattr(cfg.decoder, "num_hidden_layers") \
        else cfg.decoder.n_layer
    cfgf = tmp_path / "config.json"
    cfgf.write_text(json.dumps(d))
    r = subprocess.run([_program(), "--config", str(cfgf), "-c", "EXPLAIN MODEL"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    head = dict(w.split("=", 1) for w in r.stdout.splitlines()[0].split()[1:])
    assert head["type"] == "encoder-decoder" and int(head["layers"]) == n_enc + n_dec
    for L in range(n_enc + n_dec):
        emb, seen, T = (e_emb, e_seen, T_enc) if L < n_enc else (d_emb, d_seen, T_dec)
        want = seen[0][0].tolist()
        rows = posenc.schemes.learned_rows(d, layer=L, positions=range(T))
        assert rows.tolist() == want, (L, rows, want)
        out = tmp_path / "g.safetensors"
        g = subprocess.run([_program(), "golden", "--config", str(cfgf), "--layer", str(L),
                            "--positions", f"0-{T - 1}", "-o", str(out)],
                           capture_output=True, text=True)
        assert g.returncode == 0, g.stderr
        words = dict(w.split("=", 1) for w in g.stdout.split()[1:])
        assert int(words["positions"]) == emb.num_embeddings, (L, words)
        from safetensors import numpy as st_numpy
        assert st_numpy.load_file(str(out))["row"].tolist() == want
        # the first row past the table is refused, as the sub-model's lookup would fail
        with pytest.raises(ValueError):
            posenc.schemes.learned_rows(d, layer=L,
                                        positions=[emb.num_embeddings - int(words["offset"])])


def test_encoder_decoder_stack_without_type_is_bert(tmp_path):
    """A stack that names no model_type is BERT (EncoderDecoderConfig's
    SubConfigSpec, configuration_utils.py L252): posenc reads it as the
    config class builds it."""
    enc = _tiny("bert", 2).to_dict()
    dec = _tiny("gpt2", 1).to_dict()
    enc.pop("model_type")
    cfg = transformers.EncoderDecoderConfig(encoder=enc, decoder=dec)
    assert cfg.encoder.model_type == "bert"
    torch.manual_seed(0)
    model = transformers.EncoderDecoderModel(cfg).eval()
    d = {"model_type": "encoder-decoder", "encoder": enc, "decoder": dec}
    for L, table in ((0, model.encoder.embeddings.position_embeddings),
                     (2, model.decoder.transformer.wpe)):
        n = table.num_embeddings
        assert posenc.schemes.learned_rows(d, layer=L, positions=[n - 1]).tolist() == [n - 1]
        with pytest.raises(ValueError):
            posenc.schemes.learned_rows(d, layer=L, positions=[n])
    with pytest.raises(ValueError):
        posenc.schemes.learned_rows(d, layer=3)  # 2 + 1 layers


def test_encoder_decoder_unknown_stack_refused():
    """A stack of a type posenc does not know is refused by its key, never guessed."""
    d = {"model_type": "encoder-decoder", "encoder": _tiny("bert", 1).to_dict(),
         "decoder": dict(_tiny("gpt2", 1).to_dict(), model_type="gpt-17")}
    with pytest.raises(ValueError, match="decoder.model_type 'gpt-17' is not in posenc's"):
        posenc.schemes.learned_rows(d, layer=0)
