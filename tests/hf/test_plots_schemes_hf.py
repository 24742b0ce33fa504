"""posenc's one-call tables and buckets from a config (posenc.schemes.layer_arrays,
posenc.torch.layer_tensors / sinusoid_table / relative_buckets) and `posenc golden
--positions=LIST` against transformers 5.23's own code, at positions that are not
0..n-1 and with queries and keys apart:

- fairseq's table: M2M100SinusoidalPositionalEmbedding (modeling_m2m_100.py L83-118:
  offset 2, get_embedding's float32 steps) read at row t + padding_idx + 1 for token
  index t (create_position_ids_from_input_ids, L169-182);
- T5's buckets: T5Attention._relative_position_bucket (modeling_t5.py L216-245) of
  key - query, bidirectional in the encoder, causal in the decoder;
- MPNet's: MPNetEncoder.relative_position_bucket (modeling_mpnet.py L329-350);
- DeBERTa-v2's ids: build_relative_position (modeling_deberta_v2.py L71-100) for
  query and key lengths apart, make_log_bucket_position (L51-63) of any q - k.
"""
import json
import os
import subprocess

import numpy as np
import pytest

torch = pytest.importorskip("torch", minversion="2.4")
transformers = pytest.importorskip("transformers")
st_numpy = pytest.importorskip("safetensors.numpy")
ps = pytest.importorskip("posenc.schemes")
pt = pytest.importorskip("posenc.torch")

PROGRAM = os.environ.get("POSENC_PROGRAM", os.path.join(os.getcwd(), "build", "posenc"))

M2M = dict(model_type="m2m_100", d_model=16, encoder_layers=1, decoder_layers=1,
           encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=8,
           decoder_ffn_dim=8, vocab_size=64, max_position_embeddings=64, pad_token_id=1)
T5 = dict(model_type="t5", d_model=16, d_kv=4, d_ff=8, num_layers=1, num_decoder_layers=1,
          num_heads=2, vocab_size=64, relative_attention_num_buckets=32,
          relative_attention_max_distance=128)
MPNET = dict(model_type="mpnet", hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
             intermediate_size=8, vocab_size=64, max_position_embeddings=64)
DEBERTA = dict(model_type="deberta-v2", hidden_size=16, num_hidden_layers=1,
               num_attention_heads=2, intermediate_size=8, vocab_size=64,
               max_position_embeddings=512, relative_attention=True, position_buckets=16,
               max_relative_positions=64, pos_att_type=["p2c", "c2p"],
               position_biased_input=False)

TOKENS = [0, 5, 17, 3, 40, 1, 99]  # token indices, out of order, past the table's 64 rows


def _fairseq_rows(tokens, pad=1, dim=16):
    """transformers' fairseq rows for token indices (table grown as its forward does)."""
    from transformers.models.m2m_100.modeling_m2m_100 import M2M100SinusoidalPositionalEmbedding
    rows = torch.tensor(tokens) + pad + 1
    emb = M2M100SinusoidalPositionalEmbedding(int(rows.max()) + 1, dim, padding_idx=pad)
    return emb.weights.index_select(0, rows).float().numpy()


def _close(ours, ref, tokens):
    """within an ulp of the value plus |row| ulp(w) (torch's SLEEF expf/sinf, as
    tests/hf/test_sinusoid_families_hf.py bounds it)"""
    assert ours.shape == ref.shape, (ours.shape, ref.shape)
    ulp = np.spacing(np.abs(ref).astype(np.float32))
    tol = ulp + (np.asarray(tokens, dtype=np.float64)[:, None] + 4) * 2.0 ** -24
    assert (np.abs(ours - ref) <= tol).all(), np.abs(ours - ref).max()


def test_fairseq_table_numpy_and_torch_equal_the_module():
    ref = _fairseq_rows(TOKENS)
    g = ps.layer_arrays(M2M, 0, TOKENS)
    assert set(g) == {"positions", "pe"}
    assert g["positions"].dtype == np.int64 and g["positions"].tolist() == TOKENS
    assert g["pe"].dtype == np.float32
    _close(g["pe"], ref, np.array(TOKENS) + 2)
    t = pt.sinusoid_table(M2M, 0, torch.tensor(TOKENS))
    assert t.dtype == torch.float32 and tuple(t.shape) == (len(TOKENS), 16)
    assert (t.numpy() == g["pe"]).all()
    # the decoder's table (layer 1) is the same fairseq table
    tt = pt.layer_tensors(M2M, 1, TOKENS)
    assert tt["positions"].dtype == torch.int64 and (tt["pe"].numpy() == g["pe"]).all()


@pytest.mark.parametrize("layer,bidirectional", [(0, True), (1, False)])
def test_t5_buckets_queries_apart_from_keys(layer, bidirectional):
    from transformers.models.t5.modeling_t5 import T5Attention
    q = torch.tensor([0, 3, 50, 200, 7])
    k = torch.arange(0, 300, 7)
    ref = T5Attention._relative_position_bucket(k[None, :] - q[:, None],
                                                bidirectional=bidirectional, num_buckets=32,
                                                max_distance=128)
    got = pt.relative_buckets(T5, layer, q_pos=q, k_pos=k)
    assert got.dtype == torch.int64 and tuple(got.shape) == (5, len(k))
    assert torch.equal(got, ref)
    a = ps.layer_arrays(T5, layer, q_pos=q.tolist(), k_pos=k.tolist())
    assert a["q_pos"].tolist() == q.tolist() and a["k_pos"].tolist() == k.tolist()
    assert (a["bucket"] == ref.numpy()).all()
    # numpy's relative_buckets with q_pos/k_pos is the same matrix
    assert (ps.relative_buckets(T5, layer, q_pos=q.tolist(), k_pos=k.tolist()) ==
            ref.numpy()).all()


def test_mpnet_buckets_equal_the_encoder():
    from transformers.models.mpnet.modeling_mpnet import MPNetEncoder
    q = torch.tensor([1, 60, 130, 2])
    k = torch.arange(0, 400, 9)
    ref = MPNetEncoder.relative_position_bucket(k[None, :] - q[:, None], num_buckets=32,
                                                max_distance=128)
    got = pt.relative_buckets(MPNET, 0, q_pos=q, k_pos=k)
    assert torch.equal(got, ref)


def test_deberta_ids_queries_apart_from_keys():
    from transformers.models.deberta_v2.modeling_deberta_v2 import (build_relative_position,
                                                                    make_log_bucket_position)
    nq, nk = 37, 150
    ref = build_relative_position(torch.zeros(1, nq, 1), torch.zeros(1, nk, 1), 16, 64)[0]
    got = pt.relative_buckets(DEBERTA, 0, q_pos=range(nq), k_pos=range(nk))
    assert got.dtype == torch.int64 and torch.equal(got, ref)
    q = torch.tensor([300, 0, 77, 12])
    k = torch.arange(0, 500, 13)
    ref = make_log_bucket_position(q[:, None] - k[None, :], 16, 64).to(torch.long)
    assert torch.equal(pt.layer_tensors(DEBERTA, 0, q_pos=q, k_pos=k)["bucket"], ref)


def test_golden_positions_list_equals_the_module(tmp_path):
    if not os.path.exists(PROGRAM):
        pytest.skip("no build/posenc")
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps(M2M))
    out = tmp_path / "g.safetensors"
    r = subprocess.run([PROGRAM, "golden", "--config", str(cfg), "--layer", "0",
                        "--positions", "7,0,3,60-62,99", "-o", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    g = st_numpy.load_file(str(out))
    tokens = [7, 0, 3, 60, 61, 62, 99]
    assert g["positions"].tolist() == tokens
    _close(g["pe"], _fairseq_rows(tokens), np.array(tokens) + 2)
    # a negative token index is refused by name
    r = subprocess.run([PROGRAM, "golden", "--config", str(cfg), "--layer", "0",
                        "--positions=3,-1", "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 2 and "-1 is negative" in r.stderr and "--positions" in r.stderr
