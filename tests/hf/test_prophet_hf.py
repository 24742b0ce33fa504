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


# ---- ProphetNet: a learned table in both stacks, n-stream buckets in the decoder ----------

def _prophet_config(**kw):
    d = dict(hidden_size=16, encoder_ffn_dim=16, decoder_ffn_dim=16, num_encoder_layers=2,
             num_decoder_layers=3, num_encoder_attention_heads=2, num_decoder_attention_heads=2,
             vocab_size=64, max_position_embeddings=40)
    d.update(kw)
    return transformers.ProphetNetConfig(**d)


def _run(tmp_path, d, *args):
    cfgf = tmp_path / "config.json"
    cfgf.write_text(json.dumps(d))
    sub = [a for a in args[:1] if a is not None]  # a subcommand ("golden"), or None
    return subprocess.run([_program(), *sub, "--config", str(cfgf), *args[1:]],
                          capture_output=True, text=True)


def _prophet_golden(tmp_path, d, layer, n):
    out = tmp_path / "g.safetensors"
    r = _run(tmp_path, d, "golden", "--layer", str(layer), "--positions", f"0-{n - 1}",
             "-o", str(out))
    assert r.returncode == 0, r.stderr
    from safetensors import numpy as st_numpy
    return st_numpy.load_file(str(out)), r.stdout


PROPHET = [
    dict(),                                           # the class's settings: pad 0, ngram 2, 32/128
    dict(pad_token_id=3, ngram=3, num_buckets=20, relative_max_distance=30),
    dict(num_buckets=7, relative_max_distance=9),    # odd buckets, a short log range
]


@pytest.mark.parametrize("kw", PROPHET)
def test_prophetnet_every_layer(kw, tmp_path):
    """EXPLAIN MODEL's words, and per layer golden's rows and buckets, against
    what ProphetNetModel's forward reads: the position ids its encoder's and
    decoder's ProphetNetPositionalEmbeddings return (and the decoder's
    _forward(position_ids + 1) for the predicting streams), and the main and
    predict buckets each decoder layer's n-stream self-attention is handed
    (modeling_prophetnet.py L342-382, L1144-1160, L1271-1291)."""
    cfg = _prophet_config(**kw)
    torch.manual_seed(0)
    model = transformers.ProphetNetModel(cfg).eval()
    d = json.loads(cfg.to_json_string())
    P = cfg.max_position_embeddings
    n_dec = P - cfg.pad_token_id - 2  # the longest decoder input: its predict row P - 1
    seen = {}
    enc_pe, dec_pe = model.encoder.position_embeddings, model.decoder.position_embeddings
    def keep(key, value):
        seen.setdefault(key, value)  # the first call's; the hook returns None

    h = [enc_pe.register_forward_hook(lambda mod, a, o: keep("enc", o[1].clone())),
         dec_pe.register_forward_hook(lambda mod, a, o: keep("dec", o[1].clone()))]
    plain = dec_pe._forward
    dec_pe._forward = lambda ids: (seen.setdefault("predict", ids.clone()), plain(ids))[1]
    for i, layer in enumerate(model.decoder.layers):
        h.append(layer.register_forward_pre_hook(
            lambda mod, a, kwargs, i=i: keep(("b", i), (
                kwargs["main_relative_position_buckets"].clone(),
                kwargs["predict_relative_position_buckets"].clone())), with_kwargs=True))
    n_enc = 13
    ids = torch.arange(cfg.pad_token_id + 1, cfg.pad_token_id + 1 + n_enc)[None] % 60 + 4
    dids = (torch.arange(n_dec)[None] % 50) + 5
    with torch.no_grad():
        model(input_ids=ids, decoder_input_ids=dids, use_cache=False)
    for x in h:
        x.remove()

    r = _run(tmp_path, d, None, "-c", "EXPLAIN MODEL")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    head = dict(w.split("=", 1) for w in lines[0].split()[1:])
    assert head["type"] == "prophetnet"
    assert int(head["layers"]) == cfg.num_encoder_layers + cfg.num_decoder_layers
    enc_words = dict(w.split("=", 1) for w in lines[1].split(": ", 1)[1].split()[1:])
    dec_words = dict(w.split("=", 1) for w in lines[2].split(": ", 1)[1].split()[1:])
    assert int(enc_words["positions"]) == enc_pe.num_embeddings
    assert int(enc_words["dim"]) == enc_pe.embedding_dim
    attn = model.decoder.layers[0].self_attn
    assert dec_words["ids"] == "prophetnet"
    assert int(dec_words["buckets"]) == attn.num_buckets
    assert int(dec_words["max_distance"]) == attn.relative_max_distance
    assert int(dec_words["ngram"]) == attn.ngram
    assert int(dec_words["table_positions"]) == dec_pe.num_embeddings
    # the rows: token i reads pad + 1 + i, the predicting streams pad + 2 + i
    assert int(enc_words["offset"]) == int(seen["enc"][0, 0]) == int(dec_words["table_offset"])
    assert int(dec_words["predict_table_offset"]) == int(seen["predict"][0, 0])

    L_enc = cfg.num_encoder_layers
    for L in range(L_enc):
        rows = posenc.schemes.learned_rows(d, layer=L, positions=range(n_enc))
        assert rows.tolist() == seen["enc"][0].tolist()
    for k in range(cfg.num_decoder_layers):
        L = L_enc + k
        g, out = _prophet_golden(tmp_path, d, L, n_dec)
        main, predict = seen[("b", k)]
        assert g["bucket"].tolist() == main[0].tolist(), L
        assert g["predict_bucket"].tolist() == predict[0].tolist(), L
        assert posenc.schemes.predict_buckets(d, layer=L, positions=range(n_dec)).tolist() \
            == predict[0].tolist()
        assert g["row"].tolist() == seen["dec"][0].tolist()
        assert g["predict_row"].tolist() == seen["predict"][0].tolist()
        assert posenc.schemes.relative_buckets(d, layer=L, positions=range(n_dec)).tolist() \
            == main[0].tolist()
    # one token more: its predicting streams read a row past the table; the model fails
    out = tmp_path / "g.safetensors"
    r = _run(tmp_path, d, "golden", "--layer", str(L_enc), "--positions", f"0-{n_dec}",
             "-o", str(out))
    assert r.returncode != 0 and "past layer" in r.stderr
    with pytest.raises(Exception):
        with torch.no_grad():
            model(input_ids=ids, decoder_input_ids=torch.ones(1, n_dec + 1, dtype=torch.long),
                  use_cache=False)


# (166, 1000) at distance 517 and (57, 4096) at 1734: fl32(max_exact + v) rounds up to
# the next integer, so ProphetNet's bucket is one above T5's (144 against 143, 52 against 51)
@pytest.mark.parametrize("nb,md", [(32, 128), (20, 30), (7, 9), (64, 1000), (33, 500),
                                   (128, 128 * 8), (166, 1000), (57, 4096)])
def test_prophetnet_bucket_every_distance(nb, md):
    """posenc's main-stream bucket at every distance 0..2500 (and later keys)
    against compute_relative_buckets itself (L66-90): T5's with max_exact
    added in float32 before the truncation."""
    from transformers.models.prophetnet.modeling_prophetnet import compute_relative_buckets
    d = json.loads(_prophet_config(num_buckets=nb, relative_max_distance=md,
                                   max_position_embeddings=64).to_json_string())
    D = 2500  # past every max_distance here (the package builds a square of the positions)
    mine = posenc.schemes.relative_buckets(d, layer=2, q_pos=[D], k_pos=range(D + 50))[0]
    rel = torch.arange(D + 50) - D  # key - query
    theirs = compute_relative_buckets(nb, md, rel[None], False)[0]
    assert mine.tolist() == theirs.tolist()
    if (nb, md) in ((166, 1000), (57, 4096)):  # where T5's own bucket differs
        from transformers.models.t5.modeling_t5 import T5Attention
        t5 = T5Attention._relative_position_bucket(rel, bidirectional=False, num_buckets=nb,
                                                   max_distance=md)
        assert (t5 != theirs).sum() >= 1


def test_prophetnet_all_stream_buckets_first_half():
    """compute_all_stream_relative_buckets (L93-113) on a decoder's positions:
    its main buckets and the first half of its predict buckets are the
    buffer's; its second half is bucket(q - k), one below the buffer's
    bucket(q - k - 1) that the model reads (posenc writes the model's)."""
    from transformers.models.prophetnet.modeling_prophetnet import (
        compute_all_stream_relative_buckets, compute_relative_buckets)
    cfg = _prophet_config()
    model = transformers.ProphetNetModel(cfg).eval()
    n = 30
    pid = torch.arange(1, n + 1)[None]
    main_b, pred_b = model.decoder.compute_buffered_relative_buckets(pid)
    main_a, pred_a = compute_all_stream_relative_buckets(cfg.num_buckets,
                                                         cfg.relative_max_distance, pid)
    assert torch.equal(main_a, main_b)
    assert torch.equal(pred_a[..., :n], pred_b[..., :n])
    q = torch.arange(n)[:, None]
    k = torch.arange(n)[None, :]
    assert torch.equal(pred_a[0, :, n:], compute_relative_buckets(32, 128, k - q, False))
    assert torch.equal(pred_b[0, :, n:], compute_relative_buckets(32, 128, k - q + 1, False))


def test_prophetnet_pad_null_refused(tmp_path):
    """pad_token_id null in a config.json: the model cannot count positions (it
    adds padding_idx None, L374); posenc refuses by name. (The package's dict
    reading drops None values, posenc._args.config_text: a file keeps them.)"""
    d = json.loads(_prophet_config().to_json_string())
    d["pad_token_id"] = None
    r = _run(tmp_path, d, None, "-c", "EXPLAIN MODEL")
    assert r.returncode != 0 and "pad_token_id is null" in r.stderr
    cfg = _prophet_config(pad_token_id=None)
    with pytest.raises(Exception):
        transformers.ProphetNetModel(cfg)(input_ids=torch.ones(1, 3, dtype=torch.long),
                                          decoder_input_ids=torch.ones(1, 2, dtype=torch.long))
