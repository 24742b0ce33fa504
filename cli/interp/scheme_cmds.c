/* scheme_cmds.c - worked traces of the --config model's schemes that do not
 * rotate: EXPLAIN SINUSOID pos (a sinusoid layer's vector at token pos, in
 * its family's layout, frequency rule and offset: fairseq, Marian, CTRL,
 * MusicGen, the lesson's) and EXPLAIN DEBERTA i j (DeBERTa's relative id of
 * query i and key j, with the log bucket's float32 steps). Parsing and
 * printing only: the values come from the library
 * (posenc_sinusoid_layout_fill_f32/_f64, posenc_deberta_log_bucket_explain). */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int one_position(cli_state *st, const char *cmd, cli_token t, int64_t *out)
{
    if (posenc_parse_int64(t.s, t.len, out) != POSENC_OK || *out < 0 || *out > POSENC_MAX_POS) {
        cli_error(st, "%s: position '%.*s%s' must be an integer from 0 to %lld", cmd,
                  CLI_SHOW(t.s, t.len), POSENC_MAX_POS);
        return 0;
    }
    return 1;
}

static const char *order_words(posenc_sinusoid_order o)
{
    return o == POSENC_SINUSOID_INTERLEAVED ? "interleaved: out[2k] = sin, out[2k+1] = cos"
           : o == POSENC_SINUSOID_SIN_COS   ? "sin|cos halves: out[k] = sin, out[F+k] = cos"
                                            : "cos|sin halves: out[k] = cos, out[F+k] = sin";
}

int cli_explain_sinusoid(cli_state *st, const cli_token *a, size_t n)
{
    const char *cmd = "EXPLAIN SINUSOID";
    int64_t pos;
    posenc_sinusoid_spec spec;
    posenc_model_table tb;
    if (n != 1) {
        cli_error(st, "%s needs a token position pos, got %zu arguments", cmd, n);
        return 0;
    }
    if (!one_position(st, cmd, a[0], &pos))
        return 0;
    if (!st->model || posenc_model_layer_sinusoid(st->model, st->layer, &spec) != POSENC_OK ||
        posenc_model_layer_table(st->model, st->layer, &tb) != POSENC_OK) {
        cli_error(st, "%s needs a --config model whose layer %u has a sinusoid (marian, "
                      "m2m_100, xglm, ctrl, ...; SET layer N)",
                  cmd, st->layer);
        return 0;
    }
    uint32_t D = tb.dim;
    float *f = malloc(D * sizeof *f);
    double *x = malloc(D * sizeof *x);
    if (!f || !x) {
        free(f);
        free(x);
        cli_error(st, "%s: out of memory", cmd);
        return 0;
    }
    posenc_status s = posenc_sinusoid_layout_fill_f32(&spec, &pos, 1, D, f);
    if (s == POSENC_OK)
        s = posenc_sinusoid_layout_fill_f64(&spec, &pos, 1, D, x);
    if (s != POSENC_OK) {
        free(f);
        free(x);
        cli_error(st, "%s %lld: %s", cmd, (long long)pos, posenc_strerror(s));
        return 0;
    }
    FILE *o = st->out;
    int fair = spec.freqs == POSENC_SINUSOID_FREQ_FAIRSEQ;
    uint32_t F = fair ? D / 2 : (D + 1) / 2;
    int64_t p = pos + spec.offset;
    fprintf(o, "SINUSOID pos=%lld row=%lld offset=%lld dim=%u (%s layer %u)\n", (long long)pos,
            (long long)p, (long long)spec.offset, D, posenc_model_type(st->model), st->layer);
    fprintf(o, "layout: %s, F = %u frequencies\n", order_words(spec.order), F);
    if (fair)
        fprintf(o, "frequency: w_k = exp(-k ln(%.17g) / (D/2 - 1)), D/2 - 1 = %u (fairseq)\n",
                spec.base, D / 2 - 1);
    else
        fprintf(o, "frequency: w_k = %.17g^(-2k/D) (the paper's)\n", spec.base);
    fprintf(o, "arithmetic: %s\n",
            spec.arith == POSENC_SINUSOID_TORCH_F32
                ? "the family's torch float32 steps (values below: float32, then exact)"
                : "the exact value rounded once to float32 (values below: float32, then exact)");
    for (uint32_t k = 0; k < F; k++) {
        if (F > 8 && k == 4) {
            fprintf(o, "... (%u more)\n", F - 6);
            k = F - 2;
        }
        uint32_t is, ic; /* where sin and cos of frequency k go */
        if (spec.order == POSENC_SINUSOID_INTERLEAVED) {
            is = 2 * k;
            ic = 2 * k + 1;
        } else {
            uint32_t first = k, second = F + k;
            is = spec.order == POSENC_SINUSOID_SIN_COS ? first : second;
            ic = spec.order == POSENC_SINUSOID_SIN_COS ? second : first;
        }
        double w = fair ? exp(-(double)k * log(spec.base) / (double)(D / 2 - 1))
                        : pow(spec.base, -2.0 * k / (double)D);
        fprintf(o, "k=%u w=%.9g angle=%lld*w=%.9g", k, w, (long long)p, (double)p * w);
        if (is < D)
            fprintf(o, " out[%u]=sin=%.9g (%.17g)", is, (double)f[is], x[is]);
        if (ic < D)
            fprintf(o, " out[%u]=cos=%.9g (%.17g)", ic, (double)f[ic], x[ic]);
        fputc('\n', o);
    }
    if (fair && D % 2)
        fprintf(o, "out[%u] = 0 (odd D: fairseq's zero pad)\n", D - 1);
    free(f);
    free(x);
    return 1;
}

int cli_explain_deberta(cli_state *st, const cli_token *a, size_t n)
{
    const char *cmd = "EXPLAIN DEBERTA";
    int64_t i, j;
    uint32_t bs, mp;
    if (n != 2) {
        cli_error(st, "%s needs a query position i and a key position j, got %zu argument%s",
                  cmd, n, n == 1 ? "" : "s");
        return 0;
    }
    if (!one_position(st, cmd, a[0], &i) || !one_position(st, cmd, a[1], &j))
        return 0;
    if (!st->model || posenc_model_layer_deberta(st->model, st->layer, &bs, &mp) != POSENC_OK) {
        cli_error(st, "%s needs a --config DeBERTa model with relative_attention (deberta, "
                      "deberta-v2; SET layer N)",
                  cmd);
        return 0;
    }
    FILE *o = st->out;
    int64_t rel = i - j;
    fprintf(o, "DEBERTA i=%lld j=%lld rel=i-j=%lld position_buckets=%u "
               "max_relative_positions=%u (%s layer %u)\n",
            (long long)i, (long long)j, (long long)rel, bs, mp, posenc_model_type(st->model),
            st->layer);
    if (bs == 0) {
        fprintf(o, "no position_buckets: the id is rel itself (build_relative_position)\n");
        fprintf(o, "result: %lld\n", (long long)rel);
        return 1;
    }
    posenc_deberta_trace t;
    posenc_status s = posenc_deberta_log_bucket_explain(rel, bs, mp, &t);
    if (s != POSENC_OK) {
        cli_error(st, "%s: %s", cmd, posenc_strerror(s));
        return 0;
    }
    fprintf(o, "mid = position_buckets / 2 = %u; abs_pos = %s = %lld\n", t.mid,
            t.abs_pos == (int64_t)t.mid - 1 && llabs(rel) < (long long)t.mid
                ? "mid - 1 (|rel| < mid)"
                : "|rel|",
            (long long)t.abs_pos);
    if (t.is_small) {
        fprintf(o, "abs_pos <= mid: the id is rel itself\n");
    } else {
        fprintf(o, "log branch (float32): ratio = abs_pos / mid = %.9g; ln(ratio) = %.9g; "
                   "ln((max - 1) / mid) = %.9g\n",
                (double)t.ratio, (double)t.log_ratio, (double)t.log_max);
        fprintf(o, "scaled = ln(ratio) / ln((max - 1) / mid) * (mid - 1) = %.9g (exact %.17g)\n",
                (double)t.scaled, t.exact_scaled);
        fprintf(o, "ceil(scaled) + mid = %.9g, with rel's sign\n", (double)t.log_pos);
    }
    fprintf(o, "result: %lld\n", (long long)t.bucket);
    return 1;
}

/* ---- EXPLAIN AXIAL pos, EXPLAIN BOX x0 y0 x1 y1 (learned tables read by other ids) ---- */

/* The layer's ids when they are of kind want, else an error naming what is needed. */
static int layer_ids(cli_state *st, const char *cmd, posenc_ids_kind want, const char *needs,
                     posenc_model_ids *ids)
{
    if (!st->model || posenc_model_layer_ids(st->model, st->layer, ids) != POSENC_OK ||
        ids->kind != want) {
        cli_error(st, "%s needs a --config model whose layer reads %s (SET layer N)", cmd, needs);
        return 0;
    }
    return 1;
}

int cli_explain_axial(cli_state *st, const cli_token *a, size_t n)
{
    const char *cmd = "EXPLAIN AXIAL";
    int64_t pos, row, col;
    posenc_model_ids ids;
    if (n != 1) {
        cli_error(st, "%s needs one position, got %zu arguments", cmd, n);
        return 0;
    }
    if (!one_position(st, cmd, a[0], &pos) ||
        !layer_ids(st, cmd, POSENC_IDS_AXIAL, "Reformer's axial positions (axial_pos_embds)",
                   &ids))
        return 0;
    uint32_t h = ids.axial_shape[0], w = ids.axial_shape[1];
    uint32_t d0 = ids.axial_dim[0], d1 = ids.axial_dim[1];
    if (posenc_axial_ids(pos, h, w, &row, &col) != POSENC_OK) {
        cli_error(st, "%s: position %lld is past the %u x %u = %lld positions of the axial table",
                  cmd, (long long)pos, h, w, (long long)h * w);
        return 0;
    }
    FILE *o = st->out;
    fprintf(o, "AXIAL pos=%lld axial_shape=%ux%u axial_dim=%u+%u (%s layer %u): the first axis's "
               "table [h=%u, 1, %u] and the second's [1, w=%u, %u] broadcast to [h, w, %u], "
               "flattened row-major\n",
            (long long)pos, h, w, d0, d1, posenc_model_type(st->model), st->layer, h, d0, w, d1,
            d0 + d1);
    fprintf(o, "row = pos / w = %lld / %u = %lld: elements 0..%u from the first axis's table\n",
            (long long)pos, w, (long long)row, d0 - 1);
    fprintf(o, "col = pos %% w = %lld %% %u = %lld: elements %u..%u from the second axis's "
               "table\n",
            (long long)pos, w, (long long)col, d0, d0 + d1 - 1);
    fprintf(o, "result: [first[%lld] | second[%lld]]\n", (long long)row, (long long)col);
    return 1;
}

int cli_explain_box(cli_state *st, const cli_token *a, size_t n)
{
    const char *cmd = "EXPLAIN BOX";
    static const char *const names[4] = {"x0", "y0", "x1", "y1"};
    int64_t box[4], ids6[6];
    posenc_model_ids ids;
    if (n != 4) {
        cli_error(st, "%s needs a box x0 y0 x1 y1, got %zu argument%s", cmd, n,
                  n == 1 ? "" : "s");
        return 0;
    }
    for (int i = 0; i < 4; i++)
        if (posenc_parse_int64(a[i].s, a[i].len, &box[i]) != POSENC_OK) {
            cli_error(st, "%s: %s '%.*s%s' must be an integer", cmd, names[i],
                      CLI_SHOW(a[i].s, a[i].len));
            return 0;
        }
    if (!layer_ids(st, cmd, POSENC_IDS_BOX2D, "LayoutLM's 2-D box tables", &ids))
        return 0;
    if (posenc_box2d_ids(box, ids.box_rows, ids6) != POSENC_OK) {
        cli_error(st, "%s: each coordinate must be a row of the %u-row tables (0..%u) with x0 <= "
                      "x1 and y0 <= y1 (transformers raises IndexError otherwise)",
                  cmd, ids.box_rows, ids.box_rows - 1);
        return 0;
    }
    FILE *o = st->out;
    fprintf(o, "BOX x0=%lld y0=%lld x1=%lld y1=%lld box_rows=%u (%s layer %u): six rows of the "
               "x, y, h and w tables, summed with the token's 1-D position row\n",
            (long long)box[0], (long long)box[1], (long long)box[2], (long long)box[3],
            ids.box_rows, posenc_model_type(st->model), st->layer);
    fprintf(o, "left  = x[x0] = x[%lld]\n", (long long)ids6[POSENC_BOX2D_X0]);
    fprintf(o, "upper = y[y0] = y[%lld]\n", (long long)ids6[POSENC_BOX2D_Y0]);
    fprintf(o, "right = x[x1] = x[%lld]\n", (long long)ids6[POSENC_BOX2D_X1]);
    fprintf(o, "lower = y[y1] = y[%lld]\n", (long long)ids6[POSENC_BOX2D_Y1]);
    fprintf(o, "h = h[y1 - y0] = h[%lld]\n", (long long)ids6[POSENC_BOX2D_H]);
    fprintf(o, "w = w[x1 - x0] = w[%lld]\n", (long long)ids6[POSENC_BOX2D_W]);
    fprintf(o, "result: x[%lld] + y[%lld] + x[%lld] + y[%lld] + h[%lld] + w[%lld]\n",
            (long long)ids6[0], (long long)ids6[1], (long long)ids6[2], (long long)ids6[3],
            (long long)ids6[4], (long long)ids6[5]);
    return 1;
}
