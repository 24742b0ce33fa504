"""Long-context error of a Llama-style attention block, before and after
swapping its rotary module for posenc.torch.RotaryEmbedding.

The block is written here in plain PyTorch (the shapes and the rotary code of
Hugging Face's LlamaAttention), randomly initialised: nothing is downloaded.
For 64 tokens at increasing offsets it compares the block's float32 output
with the same block computed in float64 with exact cos and sin, first with
the usual float32 rotary module (inv_freq @ position_ids, then cos and sin),
then with posenc's, installed the way one patches a real model:

    model.model.rotary_emb = posenc.torch.RotaryEmbedding(model.config)

Run:  PYTHONPATH=build/python python3 python/examples/long_context.py
(after `make python`), or with posenc installed.
"""
import math

import torch

import posenc
import posenc.torch

CONFIG = {
    "hidden_size": 512,
    "num_attention_heads": 8,
    "num_key_value_heads": 2,
    "head_dim": 64,
    "rope_theta": 10000.0,
    "max_position_embeddings": 4096,
}


class FloatRotaryEmbedding(torch.nn.Module):
    """What transformers' LlamaRotaryEmbedding computes: float32 angles."""

    def __init__(self, config):
        super().__init__()
        d, base = config["head_dim"], config["rope_theta"]
        inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.int64).float() / d))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self.attention_scaling = 1.0

    @torch.no_grad()
    def forward(self, x, position_ids):
        inv = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        freqs = (inv @ position_ids[:, None, :].float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos = emb.cos() * self.attention_scaling
        sin = emb.sin() * self.attention_scaling
        return cos.to(x.dtype), sin.to(x.dtype)


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin):
    cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
    return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin


class Attention(torch.nn.Module):
    """A Llama-style causal self-attention block with grouped-query heads."""

    def __init__(self, config):
        super().__init__()
        self.h, self.kvh, self.d = (config["num_attention_heads"],
                                    config["num_key_value_heads"], config["head_dim"])
        hid = config["hidden_size"]
        self.q_proj = torch.nn.Linear(hid, self.h * self.d, bias=False)
        self.k_proj = torch.nn.Linear(hid, self.kvh * self.d, bias=False)
        self.v_proj = torch.nn.Linear(hid, self.kvh * self.d, bias=False)
        self.o_proj = torch.nn.Linear(self.h * self.d, hid, bias=False)
        self.rotary_emb = FloatRotaryEmbedding(config)

    def forward(self, x, position_ids, cos_sin=None):
        b, s, _ = x.shape
        q = self.q_proj(x).view(b, s, self.h, self.d).transpose(1, 2)
        k = self.k_proj(x).view(b, s, self.kvh, self.d).transpose(1, 2)
        v = self.v_proj(x).view(b, s, self.kvh, self.d).transpose(1, 2)
        cos, sin = cos_sin if cos_sin is not None else self.rotary_emb(x, position_ids)
        q, k = apply_rotary_pos_emb(q, k, cos, sin)
        rep = self.h // self.kvh
        k, v = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
        scores = q @ k.transpose(2, 3) / math.sqrt(self.d)
        mask = torch.ones(s, s, dtype=torch.bool).triu(1)
        scores = scores.masked_fill(mask, float("-inf"))
        out = torch.softmax(scores, dim=-1) @ v
        return self.o_proj(out.transpose(1, 2).reshape(b, s, -1))


def exact_output(block, x, position_ids):
    """The block in float64 with cos and sin of the exact angles."""
    rope = posenc.RoPE.from_config(CONFIG)
    c, s = rope.cos_sin(position_ids.numpy(), dtype="float64")
    cos = torch.from_numpy(c).repeat(1, 1, 2)
    sin = torch.from_numpy(s).repeat(1, 1, 2)
    block64 = Attention(CONFIG).double()
    block64.load_state_dict(block.state_dict(), strict=False)
    with torch.no_grad():
        return block64(x.double(), position_ids, cos_sin=(cos, sin))


def main():
    torch.manual_seed(0)
    block = Attention(CONFIG)
    x = torch.randn(1, 64, CONFIG["hidden_size"])
    offsets = [0, 4_000, 100_000, 1_000_000]
    rows = []
    for name in ("float32 rotary (Hugging Face's formula)", "posenc.torch.RotaryEmbedding"):
        if name.startswith("posenc"):
            block.rotary_emb = posenc.torch.RotaryEmbedding(CONFIG)  # the one-line patch
        errs = []
        for off in offsets:
            pid = torch.arange(off, off + 64)[None]
            with torch.no_grad():
                out = block(x, pid)
                cos, _ = block.rotary_emb(x, pid)
            ref = exact_output(block, x, pid)
            ec, _ = posenc.RoPE.from_config(CONFIG).cos_sin(pid.numpy(), dtype="float64")
            cos_err = (cos[..., :32].double() - torch.from_numpy(ec)).abs().max().item()
            errs.append(((out.double() - ref).abs().max().item(), cos_err))
        rows.append((name, errs))
    print("max |error| of the block's output (and of cos) against float64 with exact cos/sin,")
    print("64 tokens starting at each offset:")
    print(f"{'':42}" + "".join(f"{off:>22,}" for off in offsets))
    for name, errs in rows:
        print(f"{name:42}" + "".join(f"{f'{e:.1e} ({c:.0e})':>22}" for e, c in errs))


if __name__ == "__main__":
    main()
