/* bucket_cmds.c - EXPLAIN BUCKET i j [n_tok]: the worked trace of the
 * relative id a --config layer of LongT5's encoder (local window, and with
 * n_tok the transient-global side buckets of token i), CPM-Ant (segments)
 * or VITS (window row) gives query i and key j. Parsing and printing only:
 * every value comes from the library (posenc_model_layer_longt5/_cpmant/
 * _window, posenc_model_layer_relative_ids, posenc_model_layer_side_buckets,
 * posenc_t5_bucket_explain). */
#include "cli.h"

#include <stdlib.h>

static int position(cli_state *st, cli_token t, int64_t hi, int64_t *out)
{
    if (posenc_parse_int64(t.s, t.len, out) != POSENC_OK || *out < 0 || *out > hi) {
        cli_error(st, "EXPLAIN BUCKET: '%.*s%s' must be an integer from 0 to %lld",
                  CLI_SHOW(t.s, t.len), (long long)hi);
        return 0;
    }
    return 1;
}

/* T5's bidirectional bucket of (i, j), step by step */
static void t5_steps(FILE *o, int64_t i, int64_t j, uint32_t nb, uint32_t md)
{
    posenc_t5_trace t;
    cli_cannot_fail(posenc_t5_bucket_explain(i, j, nb, md, 1, &t));
    fprintf(o, "T5's bidirectional bucket (%u buckets, max_distance %u): %u a side, offset %u "
               "(the key is %s the query), n = |r| = %lld, max_exact = %u\n",
            nb, md, t.side_buckets, t.offset, t.relative_position > 0 ? "after" : "at or before",
            (long long)t.distance, t.max_exact);
    if (t.is_small)
        fprintf(o, "n < max_exact: offset + n = %u\n", t.bucket);
    else
        fprintf(o, "n >= max_exact: offset + min(max_exact + trunc(log(n / max_exact) / "
                   "log(max_distance / max_exact) * (%u - max_exact)), %u) = %u (float32 "
                   "v = %.9g, exact %.17g)\n",
                t.side_buckets, t.side_buckets - 1, t.bucket, (double)t.scaled, t.exact_value);
}

/* LongT5's transient-global side buckets of query i in n_tok tokens. */
static int side_steps(cli_state *st, const posenc_model_longt5 *lt, int64_t i, int64_t n_tok)
{
    FILE *o = st->out;
    const posenc_model *m = st->model;
    size_t ng = 0;
    cli_cannot_fail(
        posenc_model_layer_side_buckets(m, st->layer, (uint32_t)n_tok, &i, 1, NULL, 0, &ng));
    int64_t *sb = malloc((ng ? ng : 1) * sizeof *sb);
    if (!sb) {
        cli_error(st, "EXPLAIN BUCKET: out of memory");
        return 0;
    }
    cli_cannot_fail(
        posenc_model_layer_side_buckets(m, st->layer, (uint32_t)n_tok, &i, 1, sb, ng, &ng));
    int64_t blk = i / lt->global_block_size;
    if (ng == 0) {
        fprintf(o, "side: no global block (n_tok / global_block_size = %lld / %u = 0)\n",
                (long long)n_tok, lt->global_block_size);
    } else {
        if (blk > (int64_t)ng - 1)
            blk = (int64_t)ng - 1;
        fprintf(o, "side: %zu global blocks (n_tok / global_block_size = %lld / %u); token "
                   "%lld in block min(i / %u, %zu - 1) = %lld; side position g - %lld\n",
                ng, (long long)n_tok, lt->global_block_size, (long long)i,
                lt->global_block_size, ng, (long long)blk, (long long)blk);
        fprintf(o, "side buckets:");
        for (size_t g = 0; g < ng; g++)
            fprintf(o, " %lld", (long long)sb[g]);
        fprintf(o, "\n");
    }
    free(sb);
    return 1;
}

/* The steps of each family's id of (i, j), whose value is id. */
static void id_steps(FILE *o, const posenc_model_longt5 *lt, const posenc_model_cpmant *cp,
                     uint32_t w, int64_t i, int64_t j, int64_t id)
{
    if (lt) {
        int64_t b = i / lt->block_length;
        fprintf(o, "%s attention, block_length = local_radius + 1 = %u: query %lld is row %lld "
                   "of block %lld, its keys the three blocks from token %lld\n",
                lt->global_block_size ? "transient-global" : "local", lt->block_length,
                (long long)i, (long long)(i % lt->block_length), (long long)b,
                (long long)((b - 1) * lt->block_length));
        if (id < 0)
            fprintf(o, "|r| >= block_length: masked out (not attended)\n");
        else
            t5_steps(o, i, j, lt->buckets, lt->max_distance);
    } else if (cp) {
        uint32_t si = i < (int64_t)cp->prompt_length ? 0 : 2,
                 sj = j < (int64_t)cp->prompt_length ? 0 : 2;
        fprintf(o, "segments (the forward: the %u prompt positions 0, the text 2): i in %u, j in "
                   "%u\n",
                cp->prompt_length, si, sj);
        if (si != sj)
            fprintf(o, "different segments: buckets + seg_i * segment_types + seg_j = %u + %u * "
                       "%u + %u\n",
                    cp->buckets, si, cp->segment_types, sj);
        else
            t5_steps(o, i, j, cp->buckets, cp->max_distance);
    } else if (id < 0) {
        fprintf(o, "|r| > window_size %u: no row of emb_rel_k / emb_rel_v (a zero vector)\n", w);
    } else {
        fprintf(o, "|r| <= window_size %u: row r + window_size of emb_rel_k and emb_rel_v (%u "
                   "rows)\n",
                w, 2 * w + 1);
    }
}

int cli_explain_bucket(cli_state *st, const cli_token *a, size_t n)
{
    int64_t i, j, n_tok = -1, id;
    posenc_model_longt5 lt;
    posenc_model_cpmant cp;
    uint32_t w;
    if (n != 2 && n != 3) {
        cli_error(st, "EXPLAIN BUCKET needs a query position i and a key position j (and, for "
                      "LongT5's transient-global side buckets, the sequence length n_tok), got "
                      "%zu argument%s",
                  n, n == 1 ? "" : "s");
        return 0;
    }
    if (!position(st, a[0], POSENC_MAX_POS, &i) || !position(st, a[1], POSENC_MAX_POS, &j) ||
        (n == 3 && !position(st, a[2], POSENC_MAX_POS + 1, &n_tok)))
        return 0;
    const posenc_model *m = st->model;
    int longt5 = m && posenc_model_layer_longt5(m, st->layer, &lt) == POSENC_OK;
    int cpmant = m && posenc_model_layer_cpmant(m, st->layer, &cp) == POSENC_OK;
    int window = m && posenc_model_layer_window(m, st->layer, &w) == POSENC_OK;
    if (!longt5 && !cpmant && !window) {
        cli_error(st, "EXPLAIN BUCKET needs a --config layer of LongT5's encoder, CPM-Ant or "
                      "VITS (SET layer N; T5's buckets: EXPLAIN T5BUCKET, DeBERTa's: EXPLAIN "
                      "DEBERTA)");
        return 0;
    }
    if (n == 3 && !(longt5 && lt.global_block_size)) {
        cli_error(st, "EXPLAIN BUCKET: n_tok is for LongT5's transient-global side buckets; "
                      "layer %u has none",
                  st->layer);
        return 0;
    }
    if (n == 3 && i >= n_tok) {
        cli_error(st, "EXPLAIN BUCKET: query %lld is past the %lld-token sequence", (long long)i,
                  (long long)n_tok);
        return 0;
    }
    cli_cannot_fail(posenc_model_layer_relative_ids(m, st->layer, &i, 1, &j, 1, &id));
    FILE *o = st->out;
    fprintf(o, "BUCKET i=%lld j=%lld r=j-i=%lld (%s layer %u)\n", (long long)i, (long long)j,
            (long long)(j - i), posenc_model_type(m), st->layer);
    id_steps(o, longt5 ? &lt : NULL, cpmant ? &cp : NULL, window ? w : 0, i, j, id);
    fprintf(o, "result: %lld\n", (long long)id);
    return n == 3 ? side_steps(st, &lt, i, n_tok) : 1;
}
