"""posenc.torch: an exact drop-in for a Hugging Face model's rotary embedding.

    import posenc.torch
    model.model.rotary_emb = posenc.torch.RotaryEmbedding(model.config)

makes every cos and sin the model multiplies by exact to float32 (within 1
ulp of the exact value), at every position, without touching its attention
code. Hugging Face's own modules compute ``inv_freq @ position_ids`` in
float32 and take cos and sin of the rounded angle, which is off by about
1e-2 at position 100,000.

The values are computed on the CPU by posenc's table fill and moved to
``x.device`` in ``x.dtype``, so a model on any device gets them without a
device kernel. The tables are cached per (frequencies, device, dtype) and
grow with the sequence length.

The functions of the posenc package (RoPE.apply, sinusoid, alibi_bias, ...)
take CPU torch tensors directly; this module only adds the nn.Module.
"""


import numpy as np
import torch

from . import RoPE

__all__ = ["RotaryEmbedding"]


def _config_dict(config):
    if isinstance(config, dict):
        return dict(config)
    if hasattr(config, "to_dict"):
        return config.to_dict()
    raise TypeError("config must be a transformers PretrainedConfig or a dict of its keys")


class RotaryEmbedding(torch.nn.Module):
    """Hugging Face's rotary module, with exact cos and sin.

    RotaryEmbedding(config, device=None, *, max_table=131072)

    config: the model's config (a transformers PretrainedConfig, or a dict
    of config.json's keys), read by posenc's config reader (RoPE.from_config):
    rope_theta, head_dim, partial_rotary_factor, rope_scaling (linear,
    dynamic, yarn, llama3, longrope, ...). device: accepted for signature
    compatibility (the tables go where x is).

    forward(x, position_ids) -> (cos, sin), each [batch, seq, rotary_dim] in
    x's dtype on x's device, as Hugging Face's modules return them: the
    rotary_dim/2 values of the pairs repeated across the two halves, times
    the attention factor (attention_scaling). position_ids: [batch, seq]
    integers (any device).

    Dynamic NTK follows the sequence length exactly as transformers' module
    does (the frequencies of the longest length seen so far beyond
    max_position_embeddings, back to the original ones for a short input);
    LongRoPE uses the long factors when max(position_ids) + 1 exceeds
    original_max_position_embeddings.

    max_table: positions 0 .. n - 1 are kept as one table per device and
    dtype for n up to this; longer positions are computed for the positions
    asked only. Both give the same values bit for bit.
    """

    def __init__(self, config, device=None, *, max_table=131072):
        super().__init__()
        self.config = config
        d = _config_dict(config)
        self._rope0 = RoPE.from_config({k: v for k, v in d.items() if v is not None})
        self.rope_type = self._rope0.scaling["type"]
        self.attention_scaling = self._rope0.attention_factor
        self.max_position_embeddings = self._rope0.max_position_embeddings
        self.original_max_seq_len = self.max_position_embeddings
        self.max_seq_len_cached = self.max_position_embeddings
        self.max_table = int(max_table)
        self._rope = self._rope0
        self._tables = {}
        self._inv_freq_of = self._rope0
        self.register_buffer("inv_freq", torch.from_numpy(self._rope0.inv_freq.astype(np.float32)),
                             persistent=False)

    @property
    def rope(self):
        """The posenc.RoPE whose frequencies the last forward used."""
        return self._rope

    def _rope_for(self, seq_len):
        if self.rope_type == "dynamic":
            # transformers' dynamic_frequency_update, step for step
            if seq_len > self.max_seq_len_cached:
                self._rope = self._rope0.with_seq_len(seq_len)
                self.max_seq_len_cached = seq_len
            if seq_len < self.original_max_seq_len and \
                    self.max_seq_len_cached > self.original_max_seq_len:
                self._rope = self._rope0
                self.max_seq_len_cached = self.original_max_seq_len
        elif self.rope_type == "longrope":
            L = self._rope0.scaling["original_max_position_embeddings"]
            want_long = seq_len > L
            if (self._rope.seq_len > L) != want_long:
                self._rope = self._rope0.with_seq_len(seq_len if want_long else 0)
        if self._rope is not self._inv_freq_of:  # keep HF's attributes in step
            self._inv_freq_of = self._rope
            self.attention_scaling = self._rope.attention_factor
            self.inv_freq = torch.from_numpy(self._rope.inv_freq.astype(np.float32)).to(
                self.inv_freq.device)
        return self._rope

    @staticmethod
    def _halves(c):
        return torch.cat((c, c), dim=-1)

    def _table(self, rope, n, device, dtype):
        """Exact [n', rotary_dim] cos and sin tables (n' >= n) on device in dtype."""
        key = (rope.seq_len, rope.attention_factor, str(device), dtype)
        hit = self._tables.get(key)
        if hit is not None and hit[0] >= n:
            return hit[1], hit[2]
        size = 1 << max(11, (n - 1).bit_length())  # 2048, 4096, ...
        size = min(size, self.max_table)
        c, s = rope.cos_sin(np.arange(size, dtype=np.int64))
        ct = self._halves(torch.from_numpy(c)).to(device=device, dtype=dtype)
        st = self._halves(torch.from_numpy(s)).to(device=device, dtype=dtype)
        self._tables[key] = (size, ct, st)  # replaces a shorter one
        return ct, st

    @torch.no_grad()
    def forward(self, x, position_ids, seq_len=None):
        """(cos, sin) for position_ids [batch, seq], each [batch, seq, rotary_dim].

        seq_len is accepted for the modules of older transformers versions that
        pass it, and ignored: the length is max(position_ids) + 1, as in
        transformers' own dynamic and LongRoPE updates.
        """
        pos_cpu = position_ids.detach().to("cpu", torch.int64)
        seq_len = int(pos_cpu.max()) + 1 if pos_cpu.numel() else 0
        if pos_cpu.numel() and int(pos_cpu.min()) < 0:
            raise ValueError("position_ids must be >= 0")
        rope = self._rope_for(seq_len)
        direct = seq_len > self.max_table or (
            self.rope_type == "dynamic" and rope is not self._rope0)
        if direct:
            c, s = rope.cos_sin(pos_cpu.numpy())
            cos = self._halves(torch.from_numpy(c)).to(device=x.device, dtype=x.dtype)
            sin = self._halves(torch.from_numpy(s)).to(device=x.device, dtype=x.dtype)
            return cos, sin
        ct, st = self._table(rope, seq_len, x.device, x.dtype)
        idx = position_ids.to(device=ct.device, dtype=torch.int64)
        return ct[idx], st[idx]

    def extra_repr(self):
        return f"{self._rope!r}"
