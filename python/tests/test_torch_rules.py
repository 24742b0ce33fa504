"""RoPE.apply follows torch's own in-place rules (issue 33): inside
torch.no_grad() a tensor that requires grad may be rotated in place; a
broadcast (stride-0, expand) q or k is accepted out of place (a copy is
rotated) and refused in place. (A broadcast NumPy array stays refused:
tests/test_rope.py.)"""
import pytest

import posenc

torch = pytest.importorskip("torch", minversion="2.4")
import posenc.torch  # noqa: E402,F401


def test_in_place_under_no_grad():
    r = posenc.RoPE(8)
    q = torch.randn(4, 2, 8, requires_grad=True)
    want = r.apply(q.detach().clone(), positions=torch.arange(4))
    with torch.no_grad():
        assert r.apply(q, positions=torch.arange(4)) is q
        out = r.apply(q, positions=torch.arange(4), inplace=False)
    assert torch.equal(q.detach(), want)
    assert not out.requires_grad
    with pytest.raises(ValueError, match="requires grad"):
        r.apply(q, positions=torch.arange(4))  # autograd on: refused, as torch does


def test_broadcast_out_of_place_copies():
    r = posenc.RoPE(8)
    base = torch.randn(1, 1, 8)
    b = base.expand(4, 2, 8)
    out = r.apply(b, inplace=False)
    assert torch.equal(out, r.apply(b.contiguous(), inplace=False))
    assert torch.equal(b, base.expand(4, 2, 8))  # untouched
    g = torch.randn(1, 1, 8, requires_grad=True)
    r.apply(g.expand(4, 2, 8), inplace=False).sum().backward()  # differentiable still
    assert g.grad is not None and g.grad.shape == (1, 1, 8)
    with pytest.raises(ValueError, match="stride 0"):
        r.apply(b)
