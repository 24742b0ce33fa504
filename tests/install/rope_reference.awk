# rope_reference.awk - an independent reference for examples/rope_from_config.c
# on a Llama 3.x config (llama3 scaling, half-split pairs), written from
# transformers' formulas (modeling_rope_utils.py _compute_llama3_parameters,
# modeling_llama.py rotate_half) in awk's doubles, nothing of posenc:
#   inv(k) = base^(-2k/d); wavelen = 2 pi / inv(k); kept when wavelen <
#   orig / high; divided by factor when wavelen > orig / low; between,
#   (1 - s) inv / factor + s inv with s = (orig / wavelen - low) / (high - low);
#   y_k = x_k cos - x_{k+d/2} sin, y_{k+d/2} = x_k sin + x_{k+d/2} cos.
# Reads the example's output; -v base= factor= low= high= orig= d=; prints
# "reference: N values, max |error| E" and exits 1 when E > 1e-6 or the
# output is not as described.
function fill(i, mod) { return ((i % mod) - int(mod / 2)) / 4 }
NR == 1 { next }
{
    if (NF != d + 2 || ($1 != "q" && $1 != "k")) { print "bad line " NR; bad = 1; exit 1 }
    mod = $1 == "q" ? 7 : 5
    pos = $2
    h = d / 2
    pi = atan2(0, -1)
    for (k = 0; k < h; k++) {
        inv = exp(-2 * k / d * log(base))
        wl = 2 * pi / inv
        if (wl < orig / high) f = inv
        else if (wl > orig / low) f = inv / factor
        else { s = (orig / wl - low) / (high - low); f = (1 - s) * inv / factor + s * inv }
        a = pos * f
        x0 = fill(k, mod); x1 = fill(k + h, mod)
        y0 = x0 * cos(a) - x1 * sin(a)
        y1 = x0 * sin(a) + x1 * cos(a)
        e0 = $(k + 3) - y0; if (e0 < 0) e0 = -e0
        e1 = $(k + h + 3) - y1; if (e1 < 0) e1 = -e1
        if (e0 > err) err = e0
        if (e1 > err) err = e1
        n += 2
    }
}
END {
    if (bad) exit 1
    printf "reference: %d values, max |error| %.3g\n", n, err
    exit (n == 0 || err > 1e-6)
}
