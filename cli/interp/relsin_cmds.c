/* relsin_cmds.c - EXPLAIN RELSIN: a worked trace of Transformer-XL's
 * relative sinusoid (XLNet's, Funnel's): the vector R(dist) the attention
 * reads for a distance query - key, one line per frequency in the code's
 * float32 steps beside the exact values. `EXPLAIN RELSIN dist` on a
 * --config XLNet or Funnel layer (its d_model; XLNet's clamp_len applied),
 * `EXPLAIN RELSIN dist D` on its own. Parsing and printing only: the values
 * come from the library (posenc_model_layer_rel_sinusoid,
 * posenc_rel_sinusoid_explain). */
#include "cli.h"

#include <string.h>

int cli_explain_relsin(cli_state *st, const cli_token *a, size_t n)
{
    const char *cmd = "EXPLAIN RELSIN";
    int64_t dist, D = 0;
    posenc_model_rel_sinusoid rs;
    int have = 0;
    if (n != 1 && n != 2) {
        cli_error(st, "%s needs a distance dist (and a width D without a --config XLNet or "
                      "Funnel model), got %zu arguments",
                  cmd, n);
        return 0;
    }
    if (posenc_parse_int64(a[0].s, a[0].len, &dist) != POSENC_OK || dist < -POSENC_MAX_POS ||
        dist > POSENC_MAX_POS) {
        cli_error(st, "%s: distance '%.*s%s' must be an integer from -%lld to %lld", cmd,
                  CLI_SHOW(a[0].s, a[0].len), POSENC_MAX_POS, POSENC_MAX_POS);
        return 0;
    }
    if (n == 2) {
        if (posenc_parse_int64(a[1].s, a[1].len, &D) != POSENC_OK || D < 2 ||
            D > POSENC_MAX_DIM || D % 2) {
            cli_error(st, "%s: width '%.*s%s' must be an even integer from 2 to %u", cmd,
                      CLI_SHOW(a[1].s, a[1].len), POSENC_MAX_DIM);
            return 0;
        }
    } else {
        have = st->model &&
               posenc_model_layer_rel_sinusoid(st->model, st->layer, &rs) == POSENC_OK;
        if (!have) {
            cli_error(st, "%s dist needs a --config model whose layer %u has a relative "
                          "sinusoid (xlnet, funnel; SET layer N), or give the width: %s "
                          "dist D",
                      cmd, st->layer, cmd);
            return 0;
        }
        D = rs.d_model;
    }
    FILE *o = st->out;
    int64_t p = dist;
    fprintf(o, "RELSIN dist=%lld d_model=%lld", (long long)dist, (long long)D);
    if (have && !rs.funnel) {
        fprintf(o, " (xlnet layer %u: attn_type=%s clamp_len=%lld)\n", st->layer,
                rs.bidirectional ? "bi" : "uni", (long long)rs.clamp_len);
        if (rs.clamp_len > 0 && (p > rs.clamp_len || p < -rs.clamp_len)) {
            p = p > 0 ? rs.clamp_len : -rs.clamp_len;
            fprintf(o, "clamp: pos_seq.clamp(-%lld, %lld) gives %lld (modeling_xlnet.py "
                       "L970-971)\n",
                    (long long)rs.clamp_len, (long long)rs.clamp_len, (long long)p);
        }
    } else if (have) {
        fprintf(o, " (funnel layer %u: attention_type=%s block=%u)\n", st->layer,
                rs.factorized ? "factorized" : "relative_shift", rs.block);
    } else {
        fputc('\n', o);
    }
    uint32_t F = (uint32_t)D / 2;
    fprintf(o, "vector: [sin | cos] halves, out[k] = sin(p w_k), out[%u + k] = cos(p w_k), "
               "w_k = 10000^(-2k/%lld)\n",
            F, (long long)D);
    fprintf(o, "arithmetic: the code's float32 steps e = (float)(2k) / d, w = 1 / pow(10000, "
               "e), angle = (float)p * w (values below: float32, then exact)\n");
    for (uint32_t k = 0; k < F; k++) {
        if (F > 8 && k == 4) {
            fprintf(o, "... (%u more)\n", F - 6);
            k = F - 2;
        }
        posenc_rel_sinusoid_step s;
        cli_cannot_fail(posenc_rel_sinusoid_explain(p, (uint32_t)D, k, &s)); /* checked above */
        fprintf(o, "k=%u e=%.9g w=%.9g (%.17g) angle=%.9g (%.17g) out[%u]=sin=%.9g (%.17g) "
                   "out[%u]=cos=%.9g (%.17g)\n",
                k, (double)s.e, (double)s.w, s.w_exact, (double)s.angle, s.angle_exact, k,
                (double)s.sin_f32, s.sin_exact, F + k, (double)s.cos_f32, s.cos_exact);
    }
    return 1;
}
