"""posenc.testing: assertions for an engine's test suite (pytest or unittest).

    from posenc.testing import assert_rope_close
    assert_rope_close(q_before, q_after, positions, config="config.json")

fails, when the engine's RoPE is not the model's, with the named cause:

    AssertionError: RoPE mismatch (max 3.1e+04 ulps of F32 at position 1000000):
    CAUSE name=angle-precision fit_ulp=0.71 onset=24
"""
from ._checking import check

__all__ = ["assert_rope_close"]


def assert_rope_close(x, y, positions, config, layer=0, *, seq_len=None, tol=None, dtype=None,
                      tables=False):
    """Raises AssertionError unless posenc.check(...) says match; the message has
    the largest error, the position bands and the causes that fit (or says that
    none does). Arguments as posenc.check. Returns the CheckResult."""
    r = check(x, y, positions, config, layer, seq_len=seq_len, tol=tol, dtype=dtype,
              tables=tables)
    if not r.match:
        head = (f"RoPE mismatch (max {r.max_ulp:.3g} ulps of {r.dtype} at position "
                f"{r.worst_pos}, tolerance {r.tol_ulp:g})")
        causes = "\n".join(str(c) for c in r.causes) or "CAUSE name=none (no known mistake fits)"
        raise AssertionError(head + ":\n" + causes + "\n" + str(r))
    return r
