"""Translation and decoder families added to the registry in one round (FSMT,
MusicGen Melody, LED, TrOCR): `posenc golden --config F --layer N` against
the vectors transformers 5.23's model adds at each token, caught by a
forward hook on its embed_positions module. Each family is built from a tiny
config and from a config written after its real checkpoint's config.json
(the keys its conversion script writes); nothing is downloaded."""
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

T = 9  # tokens per sequence


def _posenc(*args):
    return subprocess.run([PROGRAM, *args], capture_output=True, text=True)


def _write(tmp_path, d):
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps(d))
    return cfg


def _golden(tmp_path, d, layer, n, start=0):
    cfg = _write(tmp_path, d)
    out = tmp_path / f"g{layer}.safetensors"
    r = _posenc("golden", "--config", str(cfg), "--layer", str(layer),
                "--positions", f"{start}-{start + n - 1}", "-o", str(out))
    assert r.returncode == 0, r.stderr
    g = st_numpy.load_file(str(out))
    assert (g["positions"] == np.arange(start, start + n)).all()
    return g["pe"]


def _explain(tmp_path, d):
    r = _posenc("--config", str(_write(tmp_path, d)), "-c", "EXPLAIN MODEL")
    return r.returncode, r.stdout + r.stderr


def _close(ours, ref, rows):
    """within an ulp of the value plus |row| ulp(w) (torch's SLEEF expf/sinf),
    the bound of tests/hf/test_sinusoid_families_hf.py"""
    assert ours.shape == ref.shape, (ours.shape, ref.shape)
    ulp = np.spacing(np.abs(ref).astype(np.float32))
    tol = ulp + (np.abs(np.asarray(rows, dtype=np.float64))[:, None] + 4) * 2.0 ** -24
    assert (np.abs(ours - ref) <= tol).all(), np.abs(ours - ref).max()


def _equal(ours, ref):
    assert ours.shape == ref.shape, (ours.shape, ref.shape)
    assert np.array_equal(ours, ref), np.abs(ours - ref).max()


def _caught(model, **inputs):
    """{module name: the [T, dim] vectors each embed_positions returned}"""
    seen = {}
    hooks = [m.register_forward_hook(lambda mod, a, o, n=name: seen.setdefault(n, o))
             for name, m in model.named_modules() if name.endswith("embed_positions")]
    try:
        with torch.no_grad():
            model(**inputs)
    finally:
        for h in hooks:
            h.remove()
    return {k: v.detach().float().reshape(-1, v.shape[-1]).numpy()[-T:] for k, v in seen.items()}


def _build(d):
    cfg = transformers.AutoConfig.for_model(d["model_type"],
                                            **{k: v for k, v in d.items() if k != "model_type"})
    torch.manual_seed(0)
    return transformers.AutoModel.from_config(cfg).eval()


# ---- FSMT ---------------------------------------------------------------------------
# modeling_fsmt.py L1051-1115: M2M100's fairseq table (L1073-1091), rows
# make_positions = cumsum + padding_idx (L1093-1105), so token i reads row
# pad_token_id + 1 + i; the decoder adds the cache length (L580-582, L1114).

#: facebook/wmt19-en-de's config.json: the keys the conversion script writes
#: (convert_fsmt_original_pytorch_checkpoint_to_pytorch.py, model_conf; the
#: transformer_wmt_en_de_big arguments: d_model 1024, 6 + 6 layers, 16 heads,
#: ffn 8192, 1024 positions, 42024 + 42024 BPE codes), kept in
#: tests/cli/schemes (its EXPLAIN MODEL case); the vocabularies are shrunk to
#: 64 to build it (they do not touch positions)
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCHEMES = os.path.join(ROOT, "tests", "cli", "schemes")
with open(os.path.join(SCHEMES, "fsmt-wmt19-en-de.json")) as f:
    WMT19_EN_DE = json.load(f)

FSMT_TINY = dict(model_type="fsmt", langs=["en", "de"], src_vocab_size=64, tgt_vocab_size=64,
                 d_model=16, encoder_layers=2, decoder_layers=1, encoder_attention_heads=2,
                 decoder_attention_heads=2, encoder_ffn_dim=8, decoder_ffn_dim=8,
                 max_position_embeddings=32, pad_token_id=1)


def _fsmt_check(tmp_path, d, past=0):
    model = _build(d)
    ids = torch.arange(10, 10 + T)[None]  # no padding token
    got = _caught(model, input_ids=ids, decoder_input_ids=ids)
    assert sorted(got) == ["decoder.embed_positions", "encoder.embed_positions"]
    n_enc = model.config.encoder_layers
    pad = model.config.pad_token_id
    rows = np.arange(T) + pad + 1
    _close(_golden(tmp_path, d, 0, T), got["encoder.embed_positions"], rows)
    _close(_golden(tmp_path, d, n_enc, T), got["decoder.embed_positions"], rows)
    # the decoder after `past` cached tokens: rows pad + 1 + past + i
    if past:
        dec = model.decoder.embed_positions
        with torch.no_grad():
            ref = dec(ids, past_key_values_length=past).reshape(T, -1).float().numpy()
        _close(_golden(tmp_path, d, n_enc, T, start=past), ref, rows + past)
    return model


@pytest.mark.parametrize("pad", [1, 4])
def test_fsmt_tiny_golden_equals_the_model(pad, tmp_path):
    d = dict(FSMT_TINY, pad_token_id=pad)
    model = _fsmt_check(tmp_path, d, past=40)  # past the 32 + pad + 1 rows: the table grows
    rc, text = _explain(tmp_path, d)
    assert rc == 0, text
    assert "MODEL type=fsmt" in text and "scheme=sinusoid" in text
    assert f"offset={pad + 1} offset_from=pad_token_id+1" in text
    assert "layers 0-1:" in text and "stack=encoder" in text and "layers 2:" in text
    # the table transformers keeps: rows pad + 1 + i of get_embedding, row pad zero
    w = model.encoder.embed_positions.weight.detach().numpy()
    assert w.shape[0] == 32 + pad + 1 and not w[pad].any()


def test_fsmt_aliases_are_what_the_class_keeps(tmp_path):
    # attribute_map (configuration_fsmt.py L64-69): num_hidden_layers is
    # encoder_layers and hidden_size is d_model, whatever the other key says
    d = dict(FSMT_TINY)
    d.update(num_hidden_layers=3, hidden_size=24)
    model = _fsmt_check(tmp_path, d)
    assert model.config.encoder_layers == 3 and model.config.d_model == 24
    rc, text = _explain(tmp_path, d)
    assert rc == 0 and "layers 0-2:" in text and "dim=24" in text, text


def test_fsmt_wmt19_config(tmp_path):
    d = dict(WMT19_EN_DE, src_vocab_size=64, tgt_vocab_size=64)
    _fsmt_check(tmp_path, d)
    rc, text = _explain(tmp_path, WMT19_EN_DE)
    assert rc == 0, text
    assert "layers 0-5: sinusoid positions=1024 dim=1024" in text
    assert "layers 6-11: sinusoid positions=1024 dim=1024" in text


# ---- MusicGen Melody --------------------------------------------------------------
# modeling_musicgen_melody.py L112-154: MusicGen's table (cosines first), rows
# past.. of the sequence the decoder embeds, which is the conditioning
# (encoder_hidden_states) followed by the audio tokens (L488-510).

with open(os.path.join(SCHEMES, "musicgen-melody.json")) as f:
    #: facebook/musicgen-melody's config.json, its decoder as the conversion
    #: script builds it (convert_musicgen_melody_transformers.py
    #: decoder_config_from_checkpoint: hidden 1536, ffn 6144, 48 layers, 24
    #: heads, 4 codebooks; the class's 2048 positions), the text and audio
    #: encoders abbreviated (t5-base, encodec_32khz: posenc reads neither)
    MUSICGEN_MELODY = json.load(f)

MELODY_TINY = dict(hidden_size=16, num_hidden_layers=2, num_attention_heads=2, ffn_dim=8,
                   vocab_size=64, max_position_embeddings=32, num_codebooks=2, pad_token_id=64,
                   bos_token_id=64)


def _melody_rows(dec, cond=5, past=0):
    """the [cond + T, dim] vectors MusicgenMelodyModel adds: conditioning of
    cond rows prepended to T audio tokens, after past cached tokens"""
    from transformers.models.musicgen_melody.modeling_musicgen_melody import (
        MusicgenMelodyDecoderConfig, MusicgenMelodyModel)
    cfg = MusicgenMelodyDecoderConfig(**{k: v for k, v in dec.items() if k != "model_type"})
    torch.manual_seed(0)
    model = MusicgenMelodyModel(cfg).eval()
    seen = []
    h = model.decoder.embed_positions.register_forward_hook(lambda m, a, o: seen.append(o))
    ids = torch.arange(T).repeat(cfg.num_codebooks, 1)  # (codebooks, T)
    enc = torch.randn(1, cond, cfg.hidden_size)
    try:
        with torch.no_grad():
            model(input_ids=ids, encoder_hidden_states=enc)
    finally:
        h.remove()
    assert len(seen) == 1
    out = seen[0].float().numpy()
    assert out.shape == (cond + T, cfg.hidden_size)
    if past:  # the module at a cache length: rows past.., grown past its table
        with torch.no_grad():
            out = model.decoder.embed_positions(torch.zeros(1, cond + T, cfg.hidden_size),
                                                past).float().numpy()
    return model, out


@pytest.mark.parametrize("wrapped", [True, False])
@pytest.mark.parametrize("past", [0, 40])
def test_musicgen_melody_tiny_golden_equals_the_model(wrapped, past, tmp_path):
    dec = dict(MELODY_TINY, model_type="musicgen_melody_decoder")
    _, ref = _melody_rows(dec, past=past)
    d = {"model_type": "musicgen_melody", "decoder": dec} if wrapped else dec
    n = ref.shape[0]
    for layer in (0, 1):
        _close(_golden(tmp_path, d, layer, n, start=past), ref, np.arange(n) + past)
    rc, text = _explain(tmp_path, d)
    assert rc == 0, text
    assert text.startswith("MODEL type=musicgen_melody_decoder")
    assert "layout=half_cos_first" in text and "positions=32 dim=16" in text


def test_musicgen_melody_part_without_its_type(tmp_path):
    # a decoder part naming no model_type is read as the class's decoder
    # (sub_configs_defaults: MusicgenMelodyDecoderConfig)
    _, ref = _melody_rows(dict(MELODY_TINY))
    d = {"model_type": "musicgen_melody", "decoder": dict(MELODY_TINY)}
    _close(_golden(tmp_path, d, 0, ref.shape[0]), ref, np.arange(ref.shape[0]))


def test_musicgen_melody_checkpoint_config(tmp_path):
    # the checkpoint's decoder, built with 1 of its 48 layers (the table does
    # not depend on the layer count; posenc reads all 48 alike)
    dec = dict(MUSICGEN_MELODY["decoder"], num_hidden_layers=1)
    model, ref = _melody_rows(dec, cond=7)
    assert model.decoder.embed_positions.weights.shape == (2048, 1536)
    n = ref.shape[0]
    for layer in (0, 47):
        _close(_golden(tmp_path, MUSICGEN_MELODY, layer, n), ref, np.arange(n))
    full = transformers.AutoConfig.for_model(**MUSICGEN_MELODY)
    assert full.decoder.num_hidden_layers == 48 and full.decoder.hidden_size == 1536


# ---- LED ---------------------------------------------------------------------------
# modeling_led.py L72-86: LEDLearnedPositionalEmbedding reads rows
# past..past + T - 1 (no offset), max_encoder_position_embeddings rows in the
# encoder (whose input is padded at its end to a multiple of
# attention_window, L1305-1330), max_decoder_position_embeddings in the
# decoder (L1667: the cache length).

with open(os.path.join(SCHEMES, "led-base-16384.json")) as f:
    #: allenai/led-base-16384's config.json (BART-base sizes: d_model 768, 6 + 6
    #: layers, 12 heads; 16384 encoder and 1024 decoder rows)
    LED_BASE = json.load(f)

LED_TINY = dict(model_type="led", vocab_size=64, d_model=16, encoder_layers=2, decoder_layers=1,
                encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=8,
                decoder_ffn_dim=8, max_encoder_position_embeddings=40,
                max_decoder_position_embeddings=24, attention_window=4)


def _rows(tmp_path, d, layer, start, n):
    """posenc golden's rows of a learned layer for positions start.."""
    cfg = _write(tmp_path, d)
    out = tmp_path / f"r{layer}.safetensors"
    r = _posenc("golden", "--config", str(cfg), "--layer", str(layer),
                "--positions", f"{start}-{start + n - 1}", "-o", str(out))
    assert r.returncode == 0, r.stderr
    g = st_numpy.load_file(str(out))
    assert (g["positions"] == np.arange(start, start + n)).all()
    return g["row"]


def _led_check(tmp_path, d, past=5):
    model = _build(d)
    ids = torch.arange(10, 10 + T)[None]
    seen = {}
    hooks = [m.register_forward_hook(lambda mod, a, o, n=name: seen.setdefault(n, o))
             for name, m in model.named_modules() if name.endswith("embed_positions")]
    try:
        with torch.no_grad():
            model(input_ids=ids, decoder_input_ids=ids)
    finally:
        for h in hooks:
            h.remove()
    n_enc = model.config.encoder_layers
    for name, layer in (("encoder.embed_positions", 0), ("decoder.embed_positions", n_enc)):
        vec = seen[name].float().numpy().reshape(-1, model.config.d_model)
        w = dict(model.named_modules())[name].weight.detach().float().numpy()
        # the encoder pads to a multiple of attention_window: its padded
        # tokens read rows too, T.. (posenc: position p reads row p)
        rows = _rows(tmp_path, d, layer, 0, vec.shape[0])
        _equal(w[rows], vec)
    # the decoder after past cached tokens, and a row past its table refused
    dec = model.decoder.embed_positions
    with torch.no_grad():
        vec = dec((1, T), past).float().numpy()
    _equal(dec.weight.detach().float().numpy()[_rows(tmp_path, d, n_enc, past, T)], vec)
    top = dec.weight.shape[0]
    with pytest.raises(IndexError):
        with torch.no_grad():
            dec((1, 1), top)
    r = _posenc("golden", "--config", str(_write(tmp_path, d)), "--layer", str(n_enc),
                "--positions", str(top), "-o", str(tmp_path / "x.safetensors"))
    assert r.returncode != 0 and f"past layer {n_enc}'s {top}-row table" in r.stderr, r.stderr
    return model


def test_led_tiny_golden_equals_the_model(tmp_path):
    model = _led_check(tmp_path, LED_TINY)
    assert model.encoder.embed_positions.weight.shape[0] == 40
    rc, text = _explain(tmp_path, LED_TINY)
    assert rc == 0, text
    assert "layers 0-1: learned positions=40 offset=0 dim=16 stack=encoder" in text
    assert "layers 2: learned positions=24 offset=0 dim=16 stack=decoder" in text


def test_led_aliases_are_what_the_class_keeps(tmp_path):
    d = dict(LED_TINY, num_hidden_layers=3, hidden_size=24, max_position_embeddings=7)
    model = _led_check(tmp_path, d)
    assert model.config.encoder_layers == 3 and model.config.d_model == 24
    rc, text = _explain(tmp_path, d)
    assert rc == 0 and "layers 0-2: learned positions=40 offset=0 dim=24" in text, text
    assert "max_position_embeddings" in text  # listed as ignored: LEDConfig has no such field


def test_led_base_config(tmp_path):
    d = dict(LED_BASE, vocab_size=64)  # the vocabulary does not touch positions
    model = _led_check(tmp_path, d, past=1000)
    assert model.encoder.embed_positions.weight.shape == (16384, 768)
    rc, text = _explain(tmp_path, LED_BASE)
    assert rc == 0, text
    assert "layers 0-5: learned positions=16384 offset=0 dim=768 stack=encoder" in text
    assert "layers 6-11: learned positions=1024 offset=0 dim=768 stack=decoder" in text


# ---- TrOCR -------------------------------------------------------------------------
# modeling_trocr.py L405-425: use_learned_position_embeddings (default true)
# picks TrOCRLearnedPositionalEmbedding (BART's rows past + i + 2, L37-65) or
# TrOCRSinusoidalPositionalEmbedding (fairseq's table read at
# pad_token_id + 1 + past + i, L78-135).


def _trocr_json(name):
    #: microsoft/trocr-base-handwritten (learned) and trocr-large-printed
    #: (sinusoid, 1024 positions, no layernorm_embedding): the decoders
    #: convert_trocr_unilm_to_pytorch.py builds (TrOCRConfig's defaults; the
    #: large-printed and stage1 checkpoints' sinusoid settings), the vit
    #: encoders abbreviated (posenc reads the decoder)
    with open(os.path.join(SCHEMES, name)) as f:
        return json.load(f)


TROCR_TINY = dict(model_type="trocr", vocab_size=64, d_model=16, decoder_layers=2,
                  decoder_attention_heads=2, decoder_ffn_dim=8, max_position_embeddings=32,
                  pad_token_id=1)


def _trocr(dec):
    from transformers import TrOCRConfig, TrOCRForCausalLM
    cfg = TrOCRConfig(**{k: v for k, v in dec.items() if k != "model_type"})
    torch.manual_seed(0)
    model = TrOCRForCausalLM(cfg).eval()
    ids = torch.arange(10, 10 + T)[None]  # no padding token
    seen = []
    emb = model.model.decoder.embed_positions
    h = emb.register_forward_hook(lambda m, a, o: seen.append(o))
    try:
        with torch.no_grad():
            model(input_ids=ids)
    finally:
        h.remove()
    return model, emb, ids, seen[0].float().numpy().reshape(T, -1)


def _trocr_check(tmp_path, d, dec, layers, past=5):
    """golden of the wrapper or bare config d against TrOCRForCausalLM built
    from its decoder part dec"""
    model, emb, ids, vec = _trocr(dec)
    cfg = model.config
    if cfg.use_learned_position_embeddings:
        w = emb.weight.detach().float().numpy()
        for layer in layers:
            _equal(w[_rows(tmp_path, d, layer, 0, T)], vec)
            with torch.no_grad():
                v = emb(ids, past_key_values_length=past).float().numpy().reshape(T, -1)
            _equal(w[_rows(tmp_path, d, layer, past, T)], v)
    else:
        rows = np.arange(T) + cfg.pad_token_id + 1
        for layer in layers:
            _close(_golden(tmp_path, d, layer, T), vec, rows)
            with torch.no_grad():
                v = emb(ids, past_key_values_length=past).float().numpy().reshape(T, -1)
            _close(_golden(tmp_path, d, layer, T, start=past), v, rows + past)
    return model, emb


@pytest.mark.parametrize("learned,pad", [(True, 1), (False, 1), (False, 4)])
def test_trocr_tiny_golden_equals_the_model(learned, pad, tmp_path):
    d = dict(TROCR_TINY, use_learned_position_embeddings=learned, pad_token_id=pad)
    model, emb = _trocr_check(tmp_path, d, d, (0, 1))
    rc, text = _explain(tmp_path, d)
    assert rc == 0, text
    if learned:
        assert type(emb).__name__ == "TrOCRLearnedPositionalEmbedding"
        assert "layers 0-1: learned positions=32 offset=2 dim=16" in text
        assert emb.weight.shape[0] == 32 + 2
    else:
        assert type(emb).__name__ == "TrOCRSinusoidalPositionalEmbedding"
        assert "layers 0-1: sinusoid positions=32 dim=16" in text
        assert f"offset={pad + 1} offset_from=pad_token_id+1" in text


def test_trocr_key_absent_is_learned_and_aliases_win(tmp_path):
    # TrOCRConfig: use_learned_position_embeddings defaults to true;
    # attribute_map (configuration_trocr.py L48-52): num_hidden_layers is
    # decoder_layers and hidden_size is d_model, whatever the other key says
    d = dict(TROCR_TINY, num_hidden_layers=3, hidden_size=24)
    model, _ = _trocr_check(tmp_path, d, d, (0, 2))
    assert model.config.decoder_layers == 3 and model.config.d_model == 24
    rc, text = _explain(tmp_path, d)
    assert rc == 0 and "layers 0-2: learned positions=32 offset=2 dim=24" in text, text
    bad = dict(TROCR_TINY, use_learned_position_embeddings="yes")
    rc, text = _explain(tmp_path, bad)
    assert rc != 0 and "use_learned_position_embeddings" in text, text


def test_trocr_sinusoid_cache_past_its_table(tmp_path):
    # the sinusoid grows to padding_idx + 1 + seq_len rows, not with the cache
    # (L115-119): a cached step past the table raises in transformers; in one
    # long pass the grown table has the rows posenc gives
    d = dict(TROCR_TINY, use_learned_position_embeddings=False)
    _, emb, ids, _ = _trocr(d)
    with pytest.raises((IndexError, RuntimeError)):
        with torch.no_grad():
            emb(ids, past_key_values_length=40)
    n = 50
    with torch.no_grad():
        long = emb(torch.arange(10, 10 + n)[None]).float().numpy().reshape(n, -1)
    _close(_golden(tmp_path, d, 0, n), long, np.arange(n) + 2)


@pytest.mark.parametrize("name,learned", [("trocr-base-handwritten.json", True),
                                          ("trocr-large-printed.json", False)])
def test_trocr_checkpoint_configs(name, learned, tmp_path):
    d = _trocr_json(name)
    # one of its 12 layers and a 64-token vocabulary to build it (neither
    # touches positions; posenc reads all 12 alike)
    dec = dict(d["decoder"], decoder_layers=1, vocab_size=64)
    model, _ = _trocr_check(tmp_path, d, dec, (0, 11), past=500)
    assert model.config.use_learned_position_embeddings is learned
    rc, text = _explain(tmp_path, d)
    assert rc == 0 and text.startswith("MODEL type=trocr part=decoder layers=12"), text
    pos = 512 if learned else 1024
    assert f"{'learned' if learned else 'sinusoid'} positions={pos} " in text
    full = transformers.AutoConfig.for_model(**d)
    assert full.decoder.decoder_layers == 12


# ---- the BART-style config classes' aliases ------------------------------------------


@pytest.mark.parametrize("model_type", ["bart", "m2m_100", "marian", "pegasus", "mbart"])
def test_encoder_decoder_aliases(model_type, tmp_path):
    # attribute_map: num_hidden_layers is encoder_layers and hidden_size is
    # d_model, and the alias wins whatever the order of the keys
    d = dict(model_type=model_type, d_model=16, hidden_size=24, encoder_layers=1,
             num_hidden_layers=3, decoder_layers=2, max_position_embeddings=64, pad_token_id=1,
             vocab_size=64)
    cfg = transformers.AutoConfig.for_model(**d)
    ne, dm = cfg.encoder_layers, cfg.d_model
    assert (ne, dm) == (3, 24)
    rc, text = _explain(tmp_path, d)
    assert rc == 0, text
    assert f"layers 0-{ne - 1}: " in text and f"layers {ne}-{ne + 1}: " in text, text
    assert f"dim={dm}" in text and "dim=16" not in text, text
