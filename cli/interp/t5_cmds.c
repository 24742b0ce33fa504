/* t5_cmds.c - T5's relative position buckets in the command language:
 * SET t5 buckets=N max_distance=N bidirectional=yes|no, T5BUCKET i j and
 * EXPLAIN T5BUCKET i j. Parsing and printing only: every bucket and every
 * step shown comes from the library (posenc_t5_bucket_explain). */
#include "cli.h"

#include <string.h>

static const char *yes_no(int b) { return b ? "yes" : "no"; }

/* "key=value": the key's length, or 0 when there is no '=' with text on
 * both sides. */
static size_t split_key(cli_token t)
{
    const char *eq = memchr(t.s, '=', t.len);
    if (!eq || eq == t.s || eq + 1 == t.s + t.len)
        return 0;
    return (size_t)(eq - t.s);
}

static int parse_count(cli_state *st, cli_token v, const char *key, int64_t hi, uint32_t *out)
{
    int64_t x;
    if (posenc_parse_int64(v.s, v.len, &x) != POSENC_OK || x < 1 || x > hi) {
        cli_error(st, "SET t5: %s must be an integer from 1 to %lld, got '%.*s%s'", key,
                  (long long)hi, CLI_SHOW(v.s, v.len));
        return 0;
    }
    *out = (uint32_t)x;
    return 1;
}

int cli_t5_settings(const cli_state *st, uint32_t *buckets, uint32_t *max_distance,
                    int *bidirectional, posenc_layer_info *from)
{
    posenc_model_t5 g;
    *buckets = st->t5_buckets;
    *max_distance = st->t5_max_distance;
    *bidirectional = st->t5_bidirectional;
    if (!st->model || posenc_model_layer_t5(st->model, st->layer, &g) != POSENC_OK ||
        posenc_model_layer(st->model, st->layer, from) != POSENC_OK)
        return 0;
    if (!(st->t5_given & CLI_T5_BUCKETS))
        *buckets = g.buckets;
    if (!(st->t5_given & CLI_T5_MAX_DISTANCE))
        *max_distance = g.max_distance;
    if (!(st->t5_given & CLI_T5_BIDIRECTIONAL))
        *bidirectional = g.bidirectional;
    return 1;
}

int cli_set_t5(cli_state *st, const cli_token *a, size_t n)
{
    if (n == 0) {
        cli_error(st, "SET t5 needs settings: buckets=N max_distance=N bidirectional=yes|no");
        return 0;
    }
    uint32_t nb, md;
    int bidir;
    unsigned given = 0;
    posenc_layer_info g;
    (void)cli_t5_settings(st, &nb, &md, &bidir, &g); /* a key not given keeps its source */
    for (size_t i = 0; i < n; i++) {
        size_t k = split_key(a[i]);
        cli_token key = {a[i].s, k}, v = {a[i].s + k + 1, a[i].len - k - 1};
        if (k == 0) {
            cli_error(st, "SET t5: '%.*s%s' is not key=value (keys: buckets, max_distance, "
                          "bidirectional)",
                      CLI_SHOW(a[i].s, a[i].len));
            return 0;
        }
        if (cli_word_is(key, "buckets")) {
            given |= CLI_T5_BUCKETS;
            if (!parse_count(st, v, "buckets", POSENC_T5_MAX_BUCKETS, &nb))
                return 0;
        } else if (cli_word_is(key, "max_distance")) {
            given |= CLI_T5_MAX_DISTANCE;
            if (!parse_count(st, v, "max_distance", POSENC_MAX_POS, &md))
                return 0;
        } else if (cli_word_is(key, "bidirectional")) {
            given |= CLI_T5_BIDIRECTIONAL;
            if (cli_word_is(v, "yes") || cli_word_is(v, "true") || cli_word_is(v, "1"))
                bidir = 1;
            else if (cli_word_is(v, "no") || cli_word_is(v, "false") || cli_word_is(v, "0"))
                bidir = 0;
            else {
                cli_error(st, "SET t5: bidirectional is yes or no, got '%.*s%s'",
                          CLI_SHOW(v.s, v.len));
                return 0;
            }
        } else {
            cli_error(st, "SET t5: unknown key '%.*s%s' (keys: buckets, max_distance, "
                          "bidirectional)",
                      CLI_SHOW(key.s, key.len));
            return 0;
        }
    }
    uint32_t b;
    if (posenc_t5_bucket(0, 0, nb, md, bidir, &b) != POSENC_OK) {
        uint32_t side = bidir ? nb / 2 : nb;
        if (side / 2 < 1)
            cli_error(st, "SET t5: %u bucket%s %s too few: %s needs at least %u", nb,
                      nb == 1 ? "" : "s", nb == 1 ? "is" : "are",
                      bidir ? "bidirectional" : "causal", bidir ? 4u : 2u);
        else
            cli_error(st, "SET t5: max_distance %u must be above max_exact = %u (half of the "
                          "%u buckets%s)",
                      md, side / 2, side, bidir ? " of a side" : "");
        return 0;
    }
    if (given & CLI_T5_BUCKETS)
        st->t5_buckets = nb;
    if (given & CLI_T5_MAX_DISTANCE)
        st->t5_max_distance = md;
    if (given & CLI_T5_BIDIRECTIONAL)
        st->t5_bidirectional = bidir;
    st->t5_given |= given;
    return 1;
}

/* "T5BUCKET i j" and "EXPLAIN T5BUCKET i j": the two positions. */
static int two_positions(cli_state *st, const char *cmd, const cli_token *a, size_t n,
                         int64_t *i, int64_t *j)
{
    if (n != 2) {
        cli_error(st, "%s needs a query position i and a key position j, got %zu argument%s",
                  cmd, n, n == 1 ? "" : "s");
        return 0;
    }
    cli_token t[2] = {a[0], a[1]};
    int64_t *out[2] = {i, j};
    for (int k = 0; k < 2; k++) {
        if (posenc_parse_int64(t[k].s, t[k].len, out[k]) != POSENC_OK || *out[k] < 0 ||
            *out[k] > POSENC_MAX_POS) {
            cli_error(st, "%s: position '%.*s%s' must be an integer from 0 to %lld", cmd,
                      CLI_SHOW(t[k].s, t[k].len), POSENC_MAX_POS);
            return 0;
        }
    }
    return 1;
}

/* The settings in force (cli_t5_settings), refused when a config's values
 * are outside what posenc_t5_bucket takes (SET t5 checks its own). */
static int settings(cli_state *st, const char *cmd, uint32_t *nb, uint32_t *md, int *bidir,
                    posenc_layer_info *g, int *from_config)
{
    uint32_t b;
    *from_config = cli_t5_settings(st, nb, md, bidir, g);
    if (posenc_t5_bucket(0, 0, *nb, *md, *bidir, &b) == POSENC_OK)
        return 1;
    cli_error(st, "%s: buckets=%u max_distance=%u bidirectional=%s (SET t5 with the --config "
                  "model's) are out of range: SET t5 other values",
              cmd, *nb, *md, yes_no(*bidir));
    return 0;
}

/* What T5BUCKET and EXPLAIN T5BUCKET read: the two positions, then the
 * settings in force and whether they come from the config. */
typedef struct {
    int64_t i, j;
    uint32_t nb, md;
    int bidir, from_config;
    posenc_layer_info g;
} t5_query;

static int read_query(cli_state *st, const char *cmd, const cli_token *a, size_t n, t5_query *q)
{
    return two_positions(st, cmd, a, n, &q->i, &q->j) &&
           settings(st, cmd, &q->nb, &q->md, &q->bidir, &q->g, &q->from_config);
}

int cli_t5_bucket(cli_state *st, const cli_token *a, size_t n)
{
    t5_query q;
    uint32_t b = 0;
    if (!read_query(st, "T5BUCKET", a, n, &q))
        return 0;
    /* settings() tried these values and two_positions() checked i and j */
    cli_cannot_fail(posenc_t5_bucket(q.i, q.j, q.nb, q.md, q.bidir, &b));
    fprintf(st->out, "%u\n", b);
    return 1;
}

/* EXPLAIN T5BUCKET's second line: where each setting comes from. */
static void put_sources(cli_state *st, const posenc_layer_info *g)
{
    static const char *const key[3] = {"buckets", "max_distance", "bidirectional"};
    FILE *o = st->out;
    fputs("settings:", o);
    for (unsigned k = 0; k < 3; k++) {
        fprintf(o, " %s=", key[k]);
        if (st->t5_given & (1u << k))
            fputs("SET t5", o);
        else
            fputs("config", o);
    }
    fprintf(o, " (config: %s layer %u, %s stack; SET t5 overrides it)",
            posenc_model_type(st->model), st->layer, g->layer_type[0] ? g->layer_type : "the");
    fputc('\n', o);
}

int cli_explain_t5(cli_state *st, const cli_token *a, size_t n)
{
    t5_query q;
    posenc_t5_trace t;
    if (!read_query(st, "EXPLAIN T5BUCKET", a, n, &q))
        return 0;
    /* settings() tried these values and two_positions() checked i and j */
    cli_cannot_fail(posenc_t5_bucket_explain(q.i, q.j, q.nb, q.md, q.bidir, &t));
    FILE *o = st->out;
    fprintf(o, "T5BUCKET query=%lld key=%lld buckets=%u max_distance=%u bidirectional=%s\n",
            (long long)q.i, (long long)q.j, q.nb, q.md, yes_no(q.bidir));
    if (q.from_config)
        put_sources(st, &q.g);
    fprintf(o, "relative position: r = key - query = %lld\n", (long long)t.relative_position);
    if (q.bidir)
        fprintf(o, "direction: bidirectional, %u buckets a side (buckets / 2); the key is %s "
                   "the query: offset %u; distance n = |r| = %lld\n",
                t.side_buckets, t.relative_position > 0 ? "after" : "at or before", t.offset,
                (long long)t.distance);
    else
        fprintf(o, "direction: causal, all %u buckets; distance n = max(-r, 0) = %lld%s\n",
                t.side_buckets, (long long)t.distance,
                t.relative_position > 0 ? " (a later key: bucket 0, masked anyway)" : "");
    fprintf(o, "max_exact = %u / 2 = %u\n", t.side_buckets, t.max_exact);
    if (t.is_small) {
        fprintf(o, "n < max_exact: exact bucket n = %lld\n", (long long)t.distance);
    } else {
        fprintf(o, "n >= max_exact: logarithmic bucket, in float32 as the published code\n");
        fprintf(o, "a = float(n) / max_exact = %.9g\n", (double)t.ratio);
        fprintf(o, "l = log(a) = %.9g (float32, correctly rounded)\n", (double)t.log_ratio);
        fprintf(o, "c = log(max_distance / max_exact) = %.9g (a double rounded to float32)\n",
                (double)t.log_max);
        fprintf(o, "v = l / c * (%u - %u) = %.9g (float32; the exact formula in double: %.9f)\n", t.side_buckets,
                t.max_exact, (double)t.scaled, t.exact_value);
        fprintf(o, "truncation: max_exact + trunc(v) = %u + %lld = %lld\n", t.max_exact,
                (long long)(t.truncated - t.max_exact), (long long)t.truncated);
        fprintf(o, "clamp: min(%lld, %u - 1) = %lld%s\n", (long long)t.truncated,
                t.side_buckets, t.clamped ? (long long)t.side_buckets - 1 : (long long)t.truncated,
                t.clamped ? " (at or past max_distance: the last bucket)" : "");
    }
    fprintf(o, "bucket = offset + %u = %u\n", t.bucket - t.offset, t.bucket);
    return 1;
}
