/* golden_tables.c - `posenc golden --config F --layer N` for the layers that
 * do not rotate (check_main.c hands them here): a sinusoid layer's vectors
 * (positions I64 [n]: the token indices before any offset; pe F32 [n, d]:
 * what the family's code adds at them, its offset applied, in its float32
 * arithmetic, posenc_sinusoid_layout_fill_f32), a relative-bucket layer's
 * buckets (q_pos, k_pos I64; bucket I64 [n_q, n_k]: posenc_t5_bucket of
 * each pair, as T5's compute_bias takes them). A safetensors file of its own
 * writer: an 8-byte header length, the JSON header (space-padded to 8),
 * then the tensors. */
#include "check_cmd.h"
#include "message.h"
#include "words.h"
#include "posenc_model.h"

#include <stdlib.h>
#include <string.h>

enum { EXIT_BAD = CLI_EXIT_USAGE };

typedef struct gtensor {
    const char *name, *dtype; /* "I64" or "F32" */
    size_t dims[2];
    int rank;
    const void *data;
    size_t bytes;
} gtensor;

/* Writes the tensors and the metadata (key, value, ..., NULL) to path; 0 after
 * a message. Values are plain words (no escaping needed). */
static int st_write(const char *path, const gtensor *t, int n, const char *const *meta)
{
    char h[4096];
    size_t len = 0, off = 0;
    len += (size_t)snprintf(h + len, sizeof h - len, "{");
    for (int i = 0; i < n; i++) {
        len += (size_t)snprintf(h + len, sizeof h - len,
                                "%s\"%s\":{\"dtype\":\"%s\",\"shape\":[%zu", i ? "," : "",
                                t[i].name, t[i].dtype, t[i].dims[0]);
        if (t[i].rank == 2)
            len += (size_t)snprintf(h + len, sizeof h - len, ",%zu", t[i].dims[1]);
        len += (size_t)snprintf(h + len, sizeof h - len, "],\"data_offsets\":[%zu,%zu]}", off,
                                off + t[i].bytes);
        off += t[i].bytes;
    }
    len += (size_t)snprintf(h + len, sizeof h - len, ",\"__metadata__\":{");
    for (int i = 0; meta[i]; i += 2)
        len += (size_t)snprintf(h + len, sizeof h - len, "%s\"%s\":\"%s\"", i ? "," : "",
                                meta[i], meta[i + 1]);
    len += (size_t)snprintf(h + len, sizeof h - len, "}}");
    if (len + 8 >= sizeof h)
        return !cli_fail(stderr, "golden", 0, "safetensors header too long");
    while (len % 8)
        h[len++] = ' ';
    FILE *f = fopen(path, "wb");
    if (!f)
        return !cli_fail(stderr, "golden", 0, "cannot write %s", path);
    unsigned char le[8];
    for (int i = 0; i < 8; i++)
        le[i] = (unsigned char)((uint64_t)len >> (8 * i));
    int ok = fwrite(le, 1, 8, f) == 8 && fwrite(h, 1, len, f) == len;
    for (int i = 0; ok && i < n; i++) /* little-endian hosts (as the rest of posenc) */
        ok = fwrite(t[i].data, 1, t[i].bytes, f) == t[i].bytes;
    if (fclose(f) != 0 || !ok)
        return !cli_fail(stderr, "golden", 0, "cannot write %s", path);
    return 1;
}

/* The positions of LIST ("A,B,C-D", negatives not allowed here), or 0..def-1. */
static int golden_list(const char *list, int64_t def, int64_t **out, size_t *n)
{
    size_t cap = 64, cnt = 0;
    int64_t *p = malloc(cap * sizeof *p);
    if (!p)
        return !cli_fail(stderr, "golden", 0, "out of memory");
    if (!list) {
        for (int64_t v = 0; v < def; v++)
            p[cnt++] = v;
    } else {
        for (const char *s = list; *s;) {
            char *end;
            long long a = strtoll(s, &end, 10), b = a;
            if (end != s && a < 0) {
                free(p);
                return !cli_fail(stderr, "golden", 0,
                                 "--positions '%s': %lld is negative: this layer's positions "
                                 "are token indices from 0 (negative distances are for a "
                                 "relative-sinusoid layer: XLNet, Funnel)",
                                 list, a);
            }
            if (end == s)
                goto bad;
            if (*end == '-') {
                const char *t = end + 1;
                b = strtoll(t, &end, 10);
                if (end == t || b < a)
                    goto bad;
            }
            if (*end && *end != ',')
                goto bad;
            if (b > POSENC_MAX_POS || b - a > 100000)
                goto bad;
            for (long long v = a; v <= b; v++) {
                if (cnt == cap) {
                    int64_t *q = realloc(p, (cap *= 2) * sizeof *p);
                    if (!q) {
                        free(p);
                        return !cli_fail(stderr, "golden", 0, "out of memory");
                    }
                    p = q;
                }
                p[cnt++] = v;
            }
            s = *end ? end + 1 : end;
        }
    }
    if (cnt == 0)
        goto bad;
    *out = p;
    *n = cnt;
    return 1;
bad:
    free(p);
    return !cli_fail(stderr, "golden", 0,
                     "--positions '%s': comma-separated positions and ranges A-B from 0 to "
                     "%lld (at most 100001 per range)",
                     list ? list : "", POSENC_MAX_POS);
}

/* "GOLDEN file=" and the name as given, escaped like every echo. */
static void golden_file(const char *path)
{
    fputs("GOLDEN file=", stdout);
    cli_write_escaped(stdout, path, strlen(path));
}

int cli_golden_table(const char *path, const posenc_model *m, uint32_t layer, const char *list)
{
    posenc_layer_info li;
    char lw[16];
    snprintf(lw, sizeof lw, "%u", layer);
    if (posenc_model_layer(m, layer, &li) != POSENC_OK)
        return cli_fail(stderr, "golden", 0, "layer %u is past the model's %u layers", layer,
                        posenc_model_n_layer(m));
    int64_t *pos = NULL;
    size_t n = 0;
    int rc = EXIT_BAD;
    if (li.scheme == POSENC_SCHEME_SINUSOID) {
        posenc_sinusoid_spec spec;
        posenc_model_table tb;
        cli_cannot_fail(posenc_model_layer_sinusoid(m, layer, &spec));
        cli_cannot_fail(posenc_model_layer_table(m, layer, &tb));
        if (!golden_list(list, tb.positions < 32 ? tb.positions : 32, &pos, &n))
            return EXIT_BAD;
        /* fairseq's and MusicGen's tables grow past their rows (make_weights);
         * Marian's, CTRL's, Whisper's and DistilBERT's end there */
        int grows = spec.freqs == POSENC_SINUSOID_FREQ_FAIRSEQ &&
                    (spec.offset > 0 || spec.order == POSENC_SINUSOID_COS_SIN);
        for (size_t i = 0; i < n && !grows; i++)
            if (pos[i] + spec.offset >= tb.positions) {
                rc = cli_fail(stderr, "golden", 0,
                              "position %lld is past layer %u's %lld-row sinusoid table",
                              (long long)pos[i], layer, (long long)tb.positions);
                free(pos);
                return rc;
            }
        float *pe = malloc(n * tb.dim * sizeof *pe);
        if (!pe) {
            free(pos);
            return cli_fail(stderr, "golden", 0, "out of memory");
        }
        posenc_status s = posenc_sinusoid_layout_fill_f32(&spec, pos, n, tb.dim, pe);
        if (s != POSENC_OK) {
            rc = cli_fail(stderr, "golden", 0, "layer %u's sinusoid: %s", layer,
                          posenc_strerror(s));
        } else {
            gtensor t[2] = {{"positions", "I64", {n, 0}, 1, pos, n * sizeof *pos},
                            {"pe", "F32", {n, tb.dim}, 2, pe, n * tb.dim * sizeof *pe}};
            char offw[32];
            snprintf(offw, sizeof offw, "%lld", (long long)spec.offset);
            const char *meta[] = {"format", "posenc-golden", "layer", lw, "scheme", "sinusoid",
                                  "offset", offw, NULL};
            if (st_write(path, t, 2, meta)) {
                golden_file(path);
                printf(" layer=%s scheme=sinusoid n_tok=%zu dim=%u offset=%lld "
                       "dtype=F32\n",
                       lw, n, tb.dim, (long long)spec.offset);
                rc = 0;
            }
        }
        free(pe);
    } else if (li.scheme == POSENC_SCHEME_RELATIVE_BUCKETS) {
        posenc_model_t5 t5 = {0, 0, 0};
        uint32_t dbs = 0, dmp = 0;
        int deberta = posenc_model_layer_deberta(m, layer, &dbs, &dmp) == POSENC_OK;
        if (!deberta)
            cli_cannot_fail(posenc_model_layer_t5(m, layer, &t5));
        if (!golden_list(list, 16, &pos, &n))
            return EXIT_BAD;
        if (n > 4096) {
            free(pos);
            return cli_fail(stderr, "golden", 0, "%zu positions: at most 4096 for buckets", n);
        }
        int64_t *b = malloc(n * n * sizeof *b);
        if (!b) {
            free(pos);
            return cli_fail(stderr, "golden", 0, "out of memory");
        }
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) {
                uint32_t v;
                if (deberta && dbs > 0) /* build_relative_position: query - key, bucketed */
                    cli_cannot_fail(posenc_deberta_log_bucket(pos[i] - pos[j], dbs, dmp,
                                                              &b[i * n + j]));
                else if (deberta)
                    b[i * n + j] = pos[i] - pos[j];
                else {
                    cli_cannot_fail(posenc_t5_bucket(pos[i], pos[j], t5.buckets,
                                                     t5.max_distance, t5.bidirectional, &v));
                    b[i * n + j] = v;
                }
            }
        gtensor t[3] = {{"q_pos", "I64", {n, 0}, 1, pos, n * sizeof *pos},
                        {"k_pos", "I64", {n, 0}, 1, pos, n * sizeof *pos},
                        {"bucket", "I64", {n, n}, 2, b, n * n * sizeof *b}};
        const char *meta[] = {"format", "posenc-golden", "layer", lw, "scheme",
                              deberta ? "relative-ids-deberta" : "relative-buckets", NULL};
        if (st_write(path, t, 3, meta)) {
            golden_file(path);
            if (deberta)
                printf(" layer=%s scheme=relative-buckets ids=deberta n_q=%zu n_k=%zu "
                       "position_buckets=%u max_relative_positions=%u\n",
                       lw, n, n, dbs, dmp);
            else
                printf(" layer=%s scheme=relative-buckets n_q=%zu n_k=%zu buckets=%u "
                       "max_distance=%u bidirectional=%s\n",
                       lw, n, n, t5.buckets, t5.max_distance,
                       t5.bidirectional ? "true" : "false");
            rc = 0;
        }
        free(b);
    } else {
        return cli_fail(stderr, "golden", 0,
                        "layer %u's scheme is %s: golden writes RoPE dumps, sinusoid tables "
                        "and relative buckets (a learned table is the checkpoint's weights)",
                        layer, posenc_scheme_name(li.scheme));
    }
    free(pos);
    return rc;
}

/* ---- relative sinusoids (XLNet, Funnel) ---------------------------------------------- */

/* The distances of LIST ("A,B,C-D", negatives allowed: "-3--1" is -3..-1). */
static int golden_signed_list(const char *list, int64_t **out, size_t *n)
{
    size_t cap = 64, cnt = 0;
    int64_t *p = malloc(cap * sizeof *p);
    if (!p)
        return !cli_fail(stderr, "golden", 0, "out of memory");
    for (const char *s = list; *s;) {
        char *end;
        long long a = strtoll(s, &end, 10), b = a;
        if (end == s)
            goto bad;
        if (*end == '-') {
            const char *t = end + 1;
            b = strtoll(t, &end, 10);
            if (end == t || b < a)
                goto bad;
        }
        if ((*end && *end != ',') || a < -POSENC_MAX_POS || b > POSENC_MAX_POS ||
            b - a > 100000)
            goto bad;
        for (long long v = a; v <= b; v++) {
            if (cnt == cap) {
                int64_t *q = realloc(p, (cap *= 2) * sizeof *p);
                if (!q) {
                    free(p);
                    return !cli_fail(stderr, "golden", 0, "out of memory");
                }
                p = q;
            }
            p[cnt++] = v;
        }
        s = *end ? end + 1 : end;
    }
    if (cnt == 0)
        goto bad;
    *out = p;
    *n = cnt;
    return 1;
bad:
    free(p);
    return !cli_fail(stderr, "golden", 0,
                     "--positions '%s': comma-separated distances and ranges A-B from -%lld to "
                     "%lld (at most 100001 per range)",
                     list, POSENC_MAX_POS, POSENC_MAX_POS);
}

/* The distances (or Funnel's factorized token positions) layer reads for a
 * sequence of len tokens, into *pos (allocated); 0 after a message. */
static int rel_distances(const posenc_model *m, uint32_t layer,
                         const posenc_model_rel_sinusoid *rs, uint32_t len, int64_t **pos,
                         size_t *n)
{
    size_t cnt = 0;
    if (posenc_model_rel_sinusoid_positions(m, layer, len, NULL, 0, &cnt) != POSENC_OK)
        return !cli_fail(stderr, "golden", 0,
                         "--seq-len %u: Funnel skips the pooling before block %u at this "
                         "length (a block's input of at most %d tokens), and its attention "
                         "then reads distances of a pooled sequence against an unpooled one; "
                         "give a longer --seq-len",
                         len, rs->block, rs->separate_cls ? 2 : 1);
    int64_t *p = malloc(cnt * sizeof *p);
    if (!p)
        return !cli_fail(stderr, "golden", 0, "out of memory");
    cli_cannot_fail(posenc_model_rel_sinusoid_positions(m, layer, len, p, cnt, &cnt));
    *pos = p;
    *n = cnt;
    return 1;
}

int cli_golden_rel_sinusoid(const char *path, const posenc_model *m, uint32_t layer,
                            const char *list, int64_t seq_len)
{
    posenc_model_rel_sinusoid rs;
    cli_cannot_fail(posenc_model_layer_rel_sinusoid(m, layer, &rs));
    int64_t len = seq_len ? seq_len : 16;
    if (!list && len > 65536)
        return cli_fail(stderr, "golden", 0,
                        "--seq-len %lld: at most 65536 tokens for a relative sinusoid's "
                        "distances",
                        (long long)len);
    int64_t *pos = NULL;
    size_t n = 0;
    if (list) {
        if (!golden_signed_list(list, &pos, &n))
            return EXIT_BAD;
        for (size_t i = 0; i < n && !rs.funnel && rs.clamp_len > 0; i++) /* XLNet L970-971 */
            pos[i] = pos[i] > rs.clamp_len    ? rs.clamp_len
                     : pos[i] < -rs.clamp_len ? -rs.clamp_len
                                              : pos[i];
    } else if (!rel_distances(m, layer, &rs, (uint32_t)len, &pos, &n)) {
        return EXIT_BAD;
    }
    int rc = EXIT_BAD;
    float *pe = malloc(n * rs.d_model * sizeof *pe);
    if (!pe) {
        free(pos);
        return cli_fail(stderr, "golden", 0, "out of memory");
    }
    cli_cannot_fail(posenc_sinusoid_layout_fill_f32(&rs.spec, pos, n, rs.d_model, pe));
    gtensor t[2] = {{"positions", "I64", {n, 0}, 1, pos, n * sizeof *pos},
                    {"pe", "F32", {n, rs.d_model}, 2, pe, n * rs.d_model * sizeof *pe}};
    char lw[16], lenw[24], blockw[16];
    snprintf(lw, sizeof lw, "%u", layer);
    snprintf(lenw, sizeof lenw, "%lld", (long long)len);
    if (list)
        snprintf(lenw, sizeof lenw, "-"); /* the distances given, no sequence */
    snprintf(blockw, sizeof blockw, "%u", rs.block);
    const char *attn = !rs.funnel       ? (rs.bidirectional ? "bi" : "uni")
                       : rs.factorized ? "factorized"
                                       : "relative_shift";
    const char *meta[] = {"format", "posenc-golden", "layer", lw, "scheme", "relative-sinusoid",
                          "family", rs.funnel ? "funnel" : "xlnet", "seq_len", lenw,
                          rs.funnel ? "attention_type" : "attn_type", attn, "block", blockw,
                          "pooling", rs.pooling ? "true" : "false", NULL};
    if (!rs.funnel)
        meta[12] = NULL; /* XLNet: no block */
    if (st_write(path, t, 2, meta)) {
        golden_file(path);
        printf(" layer=%s scheme=relative-sinusoid family=%s n=%zu d_model=%u seq_len=%s",
               lw, rs.funnel ? "funnel" : "xlnet", n, rs.d_model, lenw);
        if (rs.funnel)
            printf(" attention_type=%s block=%u pooling=%s%s dtype=F32\n", attn, rs.block,
                   rs.pooling ? "true" : "false", rs.decoder ? " stack=decoder" : "");
        else
            printf(" attn_type=%s clamp_len=%lld dtype=F32\n", attn, (long long)rs.clamp_len);
        rc = 0;
    }
    free(pe);
    free(pos);
    return rc;
}
