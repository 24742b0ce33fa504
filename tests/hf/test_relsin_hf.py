"""XLNet's and Funnel's relative sinusoid (POSENC_SCHEME_RELATIVE_SINUSOID):
`posenc golden --config F --layer N --seq-len T` against what transformers
5.23's code reads in each layer's attention while a tiny model (random
weights, built from the config) runs forward on T tokens.

- XLNet: the distances are caught where relative_positional_encoding hands
  them to positional_embedding (modeling_xlnet.py L928-975), the vectors as
  relative_positional_encoding returns them to forward.
- Funnel "relative_shift": the distances are relative_pos's return values
  in get_position_embeds' order (L152-216), the vectors those each layer's
  relative_positional_attention takes, position_embeds[block][shift - 1]
  with shift = 2 when its queries and keys differ in length (L386-388).
- Funnel "factorized": phi, pi (queries) and psi, omega (keys) as each
  layer's relative_positional_attention receives them (L370-380), after the
  code's own stride_pool; the positions by the same stride_pool applied to
  0 .. T - 1.

Tolerance: posenc computes each vector in the code's float32 steps with
correctly rounded powf, sinf, cosf; torch's vectorised functions are within
an ulp of those, and an ulp of pow moves the angle p * w by at most
|p| ulp(w) <= |p| 2^-24 (w <= 1). So |ours - theirs| <= ulp(theirs) +
|p| 2^-24 per element (tests/hf/test_schemes_hf.py's bound), and most
elements are equal. The distances are compared exactly."""
import json
import os
import subprocess

import numpy as np
import pytest

torch = pytest.importorskip("torch", minversion="2.4")
transformers = pytest.importorskip("transformers")
st_numpy = pytest.importorskip("safetensors.numpy")

try:
    import posenc.schemes as ps
except ImportError:  # the package not built (make test-hf builds it)
    ps = None

PROGRAM = os.environ.get("POSENC_PROGRAM", os.path.join(os.getcwd(), "build", "posenc"))
if not os.path.exists(PROGRAM):
    pytest.skip("no build/posenc", allow_module_level=True)


def _golden(tmp_path, d, layer, seq_len=None, positions=None):
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps(d))
    out = tmp_path / f"g{layer}.safetensors"
    args = [PROGRAM, "golden", "--config", str(cfg), "--layer", str(layer), "-o", str(out)]
    if seq_len is not None:
        args += ["--seq-len", str(seq_len)]
    if positions is not None:
        args += ["--positions=" + positions]
    r = subprocess.run(args, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return st_numpy.load_file(str(out)), r.stdout


def _close(ours, ref, pos):
    assert ours.shape == ref.shape, (ours.shape, ref.shape)
    ulp = np.spacing(np.abs(ref).astype(np.float32))
    tol = ulp + np.abs(np.asarray(pos, dtype=np.float64))[:, None] * 2.0 ** -24
    assert (np.abs(ours - ref) <= tol).all(), np.abs(ours - ref).max()
    assert (ours == ref).mean() > 0.9


def _config_dict(cfg):
    d = cfg.to_dict()
    d.pop("transformers_version", None)
    return d


# ---- XLNet --------------------------------------------------------------------------------

def _xlnet_run(cfg, n):
    """transformers' distances and vectors for n tokens (no memory)"""
    torch.manual_seed(0)
    model = transformers.XLNetModel(cfg).eval()
    seen = {}
    real_pe, real_rpe = model.positional_embedding, model.relative_positional_encoding

    def pe(pos_seq, inv_freq, bsz=None):
        seen["pos"] = pos_seq.clone()
        return real_pe(pos_seq, inv_freq, bsz)

    def rpe(*a, **k):
        out = real_rpe(*a, **k)
        seen["pe"] = out.detach().clone()
        return out

    model.positional_embedding = pe
    model.relative_positional_encoding = rpe
    with torch.no_grad():
        model(input_ids=torch.arange(n)[None] % cfg.vocab_size)
    return seen["pos"].numpy().astype(np.int64), seen["pe"][:, 0, :].numpy()


@pytest.mark.parametrize("attn_type,clamp,n,d", [("bi", -1, 9, 32), ("uni", -1, 7, 32),
                                                 ("bi", 3, 12, 16), ("uni", 4, 10, 64),
                                                 ("bi", 0, 1, 8)])
def test_xlnet_golden(tmp_path, attn_type, clamp, n, d):
    cfg = transformers.XLNetConfig(vocab_size=50, d_model=d, n_layer=2, n_head=2, d_inner=16,
                                   attn_type=attn_type, clamp_len=clamp, mem_len=None)
    pos, pe = _xlnet_run(cfg, n)
    for layer in (0, 1):
        g, line = _golden(tmp_path, _config_dict(cfg), layer, seq_len=n)
        assert np.array_equal(g["positions"], pos)
        _close(g["pe"], pe, pos)
        assert f"attn_type={attn_type} clamp_len={clamp}" in line
        if ps is not None:  # the Python package gives the same numbers
            p2, pe2 = ps.relative_sinusoid(_config_dict(cfg), layer, seq_len=n)
            assert np.array_equal(p2, pos) and np.array_equal(pe2, g["pe"])


def test_xlnet_positions_list_clamped(tmp_path):
    # --positions: the distances given, clamped as L970-971 clamps pos_seq
    cfg = transformers.XLNetConfig(vocab_size=50, d_model=16, n_layer=1, n_head=2, d_inner=16,
                                   clamp_len=5)
    model = transformers.XLNetModel(cfg)
    want = np.array([-5, -5, -4, 0, 3, 5, 5])
    freq = torch.arange(0, 16, 2.0, dtype=torch.int64).float()
    inv = 1 / torch.pow(10000, freq / 16)  # L940-941
    ref = model.positional_embedding(torch.tensor(want, dtype=torch.float), inv)[:, 0].numpy()
    g, _ = _golden(tmp_path, _config_dict(cfg), 0, positions="-9,-5--4,0,3,5,40")
    assert np.array_equal(g["positions"], want)
    _close(g["pe"], ref, want)


def test_xlnet_base_cased(tmp_path):
    # xlnet-base-cased's config.json (the values that matter here): its
    # sinusoid equals a model of the same d_model, attn_type and clamp_len
    real = {"architectures": ["XLNetLMHeadModel"], "attn_type": "bi", "bi_data": False,
            "bos_token_id": 1, "clamp_len": -1, "d_head": 64, "d_inner": 3072, "d_model": 768,
            "dropout": 0.1, "end_n_top": 5, "eos_token_id": 2, "ff_activation": "gelu",
            "initializer_range": 0.02, "layer_norm_eps": 1e-12, "mem_len": None,
            "model_type": "xlnet", "n_head": 12, "n_layer": 12, "pad_token_id": 5,
            "reuse_len": None, "same_length": False, "start_n_top": 5, "summary_activation": "tanh",
            "summary_last_dropout": 0.1, "summary_type": "last", "summary_use_proj": True,
            "untie_r": True, "vocab_size": 32000}
    small = dict(real, n_layer=1, vocab_size=50, d_inner=16)
    small.pop("architectures")
    cfg = transformers.XLNetConfig(**{k: v for k, v in small.items() if k != "model_type"})
    pos, pe = _xlnet_run(cfg, 13)
    for layer in (0, 11):
        g, line = _golden(tmp_path, real, layer, seq_len=13)
        assert np.array_equal(g["positions"], pos)
        _close(g["pe"], pe, pos)
    r = subprocess.run([PROGRAM, "--config", str(tmp_path / "config.json"), "-c", "EXPLAIN MODEL"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert ("layers 0-11: relative-sinusoid family=xlnet d_model=768 base=10000 layout=half "
            "exponent=2k/dim arith=f32 attn_type=bi clamp_len=-1 mem_len=null") in r.stdout


# ---- Funnel -------------------------------------------------------------------------------

def _funnel_run(cfg, n):
    """per layer (encoder blocks, then decoder): what its attention reads"""
    torch.manual_seed(0)
    model = transformers.FunnelModel(cfg).eval()
    calls = {"enc": [], "dec": []}
    for part, mod in (("enc", model.encoder), ("dec", model.decoder)):
        real = mod.attention_structure.relative_pos

        def rp(*a, _real=real, _part=part, **k):
            out = _real(*a, **k)
            calls[_part].append(out.clone().numpy())
            return out
        mod.attention_structure.relative_pos = rp
    layers = [lay for block in model.encoder.blocks for lay in block] + list(model.decoder.layers)
    seen = []
    for lay in layers:
        att = lay.attention
        real = att.relative_positional_attention

        def rpa(position_embeds, q_head, context_len, cls_mask=None, _att=att, _real=real):
            if seen and seen[-1][0] is _att:  # a repeat of the same layer: first run only
                return _real(position_embeds, q_head, context_len, cls_mask)
            if cfg.attention_type == "factorized":
                got = tuple(t.detach().clone().numpy() for t in position_embeds)
            else:
                shift = 2 if q_head.shape[1] != context_len else 1  # L386
                got = (position_embeds[_att.block_index][shift - 1].detach().clone().numpy(),
                       shift)
            seen.append((_att, got))
            return _real(position_embeds, q_head, context_len, cls_mask)
        att.relative_positional_attention = rpa
    with torch.no_grad():
        model(input_ids=torch.arange(n)[None] % cfg.vocab_size)
    return model, calls, [g for _, g in seen]


def _rel_shift_positions(calls, cfg, layer_block, pooling, decoder):
    """relative_pos's results in get_position_embeds' order: block 0 no-pool,
    then per block b >= 1 pool, no-pool (L158-177)"""
    if decoder:
        return calls["dec"][0]
    b = layer_block
    return calls["enc"][0] if b == 0 else calls["enc"][2 * b - 1 + (0 if pooling else 1)]


FUNNELS = [
    dict(block_sizes=[2, 2, 2], attention_type="relative_shift", separate_cls=True,
         truncate_seq=True, pool_q_only=True, num_decoder_layers=1, n=16),
    dict(block_sizes=[1, 2, 1], attention_type="relative_shift", separate_cls=True,
         truncate_seq=False, pool_q_only=True, num_decoder_layers=2, n=11),
    dict(block_sizes=[2, 1], attention_type="relative_shift", separate_cls=False,
         truncate_seq=True, pool_q_only=False, num_decoder_layers=1, n=9),
    dict(block_sizes=[1, 1, 1, 1], attention_type="relative_shift", separate_cls=True,
         truncate_seq=True, pool_q_only=True, num_decoder_layers=0, n=40,
         block_repeats=[1, 2, 1, 1]),
    dict(block_sizes=[2, 2, 2], attention_type="factorized", separate_cls=True,
         truncate_seq=True, pool_q_only=True, num_decoder_layers=1, n=16),
    dict(block_sizes=[1, 2], attention_type="factorized", separate_cls=False,
         truncate_seq=False, pool_q_only=False, num_decoder_layers=1, n=13),
    dict(block_sizes=[1, 1, 2], attention_type="factorized", separate_cls=True,
         truncate_seq=False, pool_q_only=True, num_decoder_layers=1, n=10),
]


@pytest.mark.parametrize("spec", FUNNELS, ids=lambda s: "-".join(str(v) for v in s.values()))
def test_funnel_golden(tmp_path, spec):
    spec = dict(spec)
    n = spec.pop("n")
    cfg = transformers.FunnelConfig(vocab_size=50, d_model=16, n_head=2, d_head=8, d_inner=16,
                                    hidden_dropout=0.0, attention_dropout=0.0, **spec)
    model, calls, seen = _funnel_run(cfg, n)
    d = _config_dict(cfg)
    n_enc = sum(cfg.block_sizes)
    assert len(seen) == n_enc + cfg.num_decoder_layers
    layer = 0
    blocks = [(b, i) for b, size in enumerate(cfg.block_sizes) for i in range(size)]
    blocks += [(0, -1)] * cfg.num_decoder_layers
    h = cfg.d_model // 2
    for layer, (b, i) in enumerate(blocks):
        decoder = i < 0
        g, line = _golden(tmp_path, d, layer, seq_len=n)
        if cfg.attention_type == "relative_shift":
            r, shift = seen[layer]
            pooling = shift == 2
            assert f"pooling={'true' if pooling else 'false'}" in line
            want = _rel_shift_positions(calls, cfg, b, pooling, decoder)
            assert np.array_equal(g["positions"], want), (layer, g["positions"], want)
            _close(g["pe"], r, want)
            if ps is not None:
                p2, pe2 = ps.relative_sinusoid(d, layer, seq_len=n)
                assert np.array_equal(p2, want) and np.array_equal(pe2, g["pe"])
        else:
            phi, pi, psi, omega = seen[layer]
            # the queries' token positions: the code's stride_pool on 0 .. n - 1
            st = model.encoder.attention_structure
            q = torch.arange(n)[:, None]
            for _ in range(b):
                q = st.stride_pool(q, 0)
            qpos = q[:, 0].numpy()
            assert np.array_equal(g["positions"], qpos), (layer, g["positions"], qpos)
            _close(g["pe"][:, :h], phi[:, :h], qpos)   # phi = [sin | sin]
            _close(g["pe"][:, h:], pi[:, :h], qpos)    # pi = [cos | cos]
            if psi.shape[0] == phi.shape[0]:            # keys at the queries' positions
                _close(g["pe"][:, h:], psi[:, :h], qpos)     # psi = [cos | sin]
                _close(g["pe"][:, :h], psi[:, h:], qpos)
                _close(-g["pe"][:, :h], omega[:, :h], qpos)  # omega = [-sin | cos]
                _close(g["pe"][:, h:], omega[:, h:], qpos)


def test_funnel_small(tmp_path):
    # funnel-transformer/small's config.json: block_sizes [4, 4, 4], 2 decoder
    # layers, d_model 768; its sinusoid against a model of the same shape rules
    real = {"activation_dropout": 0.0, "architectures": ["FunnelModel"],
            "attention_dropout": 0.1, "attention_type": "relative_shift",
            "block_sizes": [4, 4, 4], "d_head": 64, "d_inner": 3072, "d_model": 768,
            "hidden_act": "gelu_new", "hidden_dropout": 0.1, "initializer_range": 0.1,
            "initializer_std": None, "layer_norm_eps": 1e-09, "model_type": "funnel",
            "n_head": 12, "num_decoder_layers": 2, "pool_q_only": True, "pooling_type": "mean",
            "separate_cls": True, "truncate_seq": True,
            "vocab_size": 30522}
    cfg = transformers.FunnelConfig(vocab_size=50, d_model=768, n_head=2, d_head=8, d_inner=16,
                                    block_sizes=[2, 2, 2], num_decoder_layers=1,
                                    hidden_dropout=0.0, attention_dropout=0.0)
    n = 20
    _, calls, seen = _funnel_run(cfg, n)
    # the real layer -> the tiny model's layer of the same block and place
    for layer, (b, pooling, dec, k) in {0: (0, False, False, 0), 4: (1, True, False, 2),
                                        5: (1, False, False, 3), 8: (2, True, False, 4),
                                        11: (2, False, False, 5), 13: (0, False, True, 6)}.items():
        g, _ = _golden(tmp_path, real, layer, seq_len=n)
        want = _rel_shift_positions(calls, cfg, b, pooling, dec)
        assert np.array_equal(g["positions"], want)
        r, shift = seen[k]
        assert shift == (2 if pooling else 1)
        _close(g["pe"], r, want)
    r = subprocess.run([PROGRAM, "--config", str(tmp_path / "config.json"), "-c", "EXPLAIN MODEL"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "layers 4-7: relative-sinusoid family=funnel d_model=768" in r.stdout
    assert "layers 12-13: relative-sinusoid" in r.stdout and "stack=decoder" in r.stdout


def test_funnel_base_has_no_decoder(tmp_path):
    # funnel-transformer/small-base: FunnelBaseModel runs the encoder only (L747-812)
    d = {"model_type": "funnel", "architectures": ["FunnelBaseModel"], "block_sizes": [4, 4, 4],
         "num_decoder_layers": 2, "d_model": 768}
    (tmp_path / "config.json").write_text(json.dumps(d))
    r = subprocess.run([PROGRAM, "--config", str(tmp_path / "config.json"), "-c", "EXPLAIN MODEL"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "layers=12 " in r.stdout and "ignored keys=num_decoder_layers" in r.stdout
    model = transformers.FunnelBaseModel(transformers.FunnelConfig(
        vocab_size=10, d_model=8, n_head=1, d_head=8, d_inner=8, block_sizes=[4, 4, 4]))
    assert sum(len(b) for b in model.encoder.blocks) == 12 and not hasattr(model, "decoder")
