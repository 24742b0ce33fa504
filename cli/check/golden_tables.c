/* golden_tables.c - `posenc golden --config F --layer N` for the layers that
 * do not rotate (check_main.c hands them here): a sinusoid layer's vectors
 * (positions I64 [n]: the token indices before any offset; pe F32 [n, d]:
 * what the family's code adds at them, its offset applied, in its float32
 * arithmetic, posenc_sinusoid_layout_fill_f32), a relative-bucket layer's
 * buckets (q_pos, k_pos I64; bucket I64 [n_q, n_k]: posenc_t5_bucket of
 * each pair, as T5's compute_bias takes them; LongT5's encoder, CPM-Ant and
 * VITS: golden_ids). A safetensors file of its own
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

/* A negative entry of LIST ("-N" first or after a comma, or a range
 * "A--N"): refused by name, since the positions of an absolute table or of
 * relative buckets are token indices, 0 or more. 1 when there is none. */
static int golden_no_negative(const char *list)
{
    for (const char *s = list; s && *s; s++) {
        int starts = s == list || s[-1] == ',' || (s[-1] == '-' && s - 1 != list && s[-2] != ',');
        if (*s == '-' && starts && s[1] >= '0' && s[1] <= '9') {
            size_t len = strspn(s + 1, "0123456789");
            return !cli_fail(stderr, "golden", 0,
                             "--positions '%s': -%.*s is negative: a sinusoid, learned or "
                             "bucket layer's positions are token indices, 0 or more (negative "
                             "distances are for a relative-sinusoid layer: XLNet, Funnel)",
                             list, (int)len, s + 1);
        }
    }
    return 1;
}

/* The integers of LIST ("A,B,C-D", each from lo to POSENC_MAX_POS, at most
 * 100001 per range) into *out (allocated): 1; 0 when LIST is malformed
 * (the caller says how); -1 out of memory (said here). */
static int parse_ranges(const char *list, long long lo, int64_t **out, size_t *n)
{
    size_t cap = 64, cnt = 0;
    int64_t *p = malloc(cap * sizeof *p);
    if (!p)
        return -!cli_fail(stderr, "golden", 0, "out of memory");
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
        if ((*end && *end != ',') || a < lo || b > POSENC_MAX_POS || b - a > 100000)
            goto bad;
        for (long long v = a; v <= b; v++) {
            if (cnt == cap) {
                int64_t *q = realloc(p, (cap *= 2) * sizeof *p);
                if (!q) {
                    free(p);
                    return -!cli_fail(stderr, "golden", 0, "out of memory");
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
    return 0;
}

/* The positions of LIST ("A,B,C-D", negatives not allowed here), or 0..def-1. */
static int golden_list(const char *list, int64_t def, int64_t **out, size_t *n)
{
    if (!golden_no_negative(list))
        return 0;
    if (!list && def > 0) {
        int64_t *p = malloc((size_t)def * sizeof *p);
        if (!p)
            return !cli_fail(stderr, "golden", 0, "out of memory");
        for (int64_t v = 0; v < def; v++)
            p[v] = v;
        *out = p;
        *n = (size_t)def;
        return 1;
    }
    int r = list ? parse_ranges(list, 0, out, n) : 0;
    if (r == 0)
        cli_fail(stderr, "golden", 0,
                 "--positions '%s': comma-separated positions and ranges A-B from 0 to "
                 "%lld (at most 100001 per range)",
                 list ? list : "", POSENC_MAX_POS);
    return r == 1;
}

static int golden_prophetnet(const char *path, const posenc_model *m, uint32_t layer,
                             const char *list, const char *lw, const posenc_model_prophetnet *pn);

/* "GOLDEN file=" and the name as given, escaped like every echo. */
static void golden_file(const char *path)
{
    fputs("GOLDEN file=", stdout);
    cli_write_escaped(stdout, path, strlen(path));
}

/* The relative ids of LongT5's encoder, CPM-Ant and VITS
 * (posenc_model_layer_relative_ids): q_pos, k_pos (I64 [n]) and bucket (I64
 * [n, n]): LongT5's T5 bucket inside the local window, -1 where the code
 * does not attend (|k - q| >= block_length); CPM-Ant's bucket with the
 * segments its forward sets (0 below prompt_length, 2 after; also written,
 * `segment` I64 [n]); VITS's emb_rel row, -1 beyond the window (a zero
 * vector). LongT5's transient-global layers add side_bucket (I64 [n,
 * n_global]) for a sequence of n_tok = the largest position + 1 tokens. */
static int golden_ids(const char *path, const posenc_model *m, uint32_t layer, const char *list,
                      const char *lw)
{
    posenc_model_longt5 lt = {0, 0, 0, 0};
    posenc_model_cpmant cp = {0, 0, 0, 0};
    uint32_t window = 0;
    int longt5 = posenc_model_layer_longt5(m, layer, &lt) == POSENC_OK;
    int cpmant = !longt5 && posenc_model_layer_cpmant(m, layer, &cp) == POSENC_OK;
    if (!longt5 && !cpmant)
        cli_cannot_fail(posenc_model_layer_window(m, layer, &window));
    int64_t def = cpmant ? (int64_t)cp.prompt_length + 16 : 16;
    int64_t *pos = NULL, *b = NULL, *side = NULL, *seg = NULL;
    size_t n = 0, ng = 0;
    int rc = EXIT_BAD;
    if (!golden_list(list, def < 4096 ? def : 4096, &pos, &n))
        return EXIT_BAD;
    if (n > 4096) {
        free(pos);
        return cli_fail(stderr, "golden", 0, "%zu positions: at most 4096 for buckets", n);
    }
    int64_t last = 0;
    for (size_t i = 0; i < n; i++)
        last = pos[i] > last ? pos[i] : last;
    uint32_t n_tok = (uint32_t)(last + 1);
    if (longt5 && lt.global_block_size)
        cli_cannot_fail(posenc_model_layer_side_buckets(m, layer, n_tok, pos, n, NULL, 0, &ng));
    b = malloc(n * n * sizeof *b);
    side = malloc((ng ? n * ng : 1) * sizeof *side);
    seg = malloc(n * sizeof *seg);
    if (!b || !side || !seg) {
        rc = cli_fail(stderr, "golden", 0, "out of memory");
        goto done;
    }
    cli_cannot_fail(posenc_model_layer_relative_ids(m, layer, pos, n, pos, n, b));
    if (ng)
        cli_cannot_fail(posenc_model_layer_side_buckets(m, layer, n_tok, pos, n, side, n * ng, &ng));
    for (size_t i = 0; i < n; i++)
        seg[i] = pos[i] < (int64_t)cp.prompt_length ? 0 : 2;
    gtensor t[4] = {{"q_pos", "I64", {n, 0}, 1, pos, n * sizeof *pos},
                    {"k_pos", "I64", {n, 0}, 1, pos, n * sizeof *pos},
                    {"bucket", "I64", {n, n}, 2, b, n * n * sizeof *b},
                    {cpmant ? "segment" : "side_bucket", "I64", {n, ng}, cpmant ? 1 : 2,
                     cpmant ? seg : side, (cpmant ? n : n * ng) * sizeof *side}};
    const char *ids = longt5 ? (lt.global_block_size ? "longt5-transient-global" : "longt5-local")
                      : cpmant ? "cpmant"
                               : "window";
    char ntw[16];
    snprintf(ntw, sizeof ntw, "%u", n_tok);
    const char *meta[] = {"format", "posenc-golden", "layer", lw, "scheme", "relative-buckets",
                          "ids", ids, "n_tok", ntw, NULL};
    int nt = cpmant || (longt5 && lt.global_block_size) ? 4 : 3;
    if (!st_write(path, t, nt, meta))
        goto done;
    golden_file(path);
    printf(" layer=%s scheme=relative-buckets ids=%s n_q=%zu n_k=%zu", lw, ids, n, n);
    if (longt5) {
        printf(" buckets=%u max_distance=%u block_length=%u", lt.buckets, lt.max_distance,
               lt.block_length);
        if (lt.global_block_size)
            printf(" global_block_size=%u n_tok=%u n_global=%zu", lt.global_block_size, n_tok,
                   ng);
    } else if (cpmant)
        printf(" buckets=%u max_distance=%u segment_types=%u prompt_length=%u", cp.buckets,
               cp.max_distance, cp.segment_types, cp.prompt_length);
    else
        printf(" window_size=%u", window);
    printf("\n");
    rc = 0;
done:
    free(pos);
    free(b);
    free(side);
    free(seg);
    return rc;
}

/* A learned table's vectors are the checkpoint's weights; what the family's
 * code decides is which row each token reads: positions I64 [n] (token
 * indices) and row I64 [n] (offset + index: BERT's 0.., OPT's and BART's
 * 2.., RoBERTa's and MarkupLM's pad_token_id + 1.., for a sequence without
 * padding tokens), and for Reformer's axial table also axial_row and
 * axial_col I64 [n] (posenc_axial_ids; row is then the flattened h * w
 * table's). LayoutLM's box rows and MarkupLM's XPath rows come from the
 * input (bbox, xpath_*_seq), not from positions: not written. TAPAS's rows
 * with reset_position_index_per_cell depend on each token's cell: written
 * for TapasModel's default token_type_ids (zeros, modeling_tapas.py
 * L613-616), every token in cell (0, 0): the index capped at
 * max_position_embeddings - 1 (posenc_tapas_positions with one cell). */
static int golden_learned(const char *path, const posenc_model *m, uint32_t layer,
                          const char *list)
{
    posenc_model_table tb;
    posenc_model_ids ids;
    char lw[16];
    snprintf(lw, sizeof lw, "%u", layer);
    cli_cannot_fail(posenc_model_layer_table(m, layer, &tb));
    cli_cannot_fail(posenc_model_layer_ids(m, layer, &ids));
    int cells = ids.kind == POSENC_IDS_CELL_RESET;
    int64_t *pos = NULL;
    size_t n = 0;
    if (!golden_list(list, tb.positions < 32 ? tb.positions : 32, &pos, &n))
        return EXIT_BAD;
    int axial = ids.kind == POSENC_IDS_AXIAL;
    int64_t *row = malloc(3 * n * sizeof *row);
    if (!row) {
        free(pos);
        return cli_fail(stderr, "golden", 0, "out of memory");
    }
    int64_t *arow = row + n, *acol = row + 2 * n;
    int rc = EXIT_BAD;
    for (size_t i = 0; i < n; i++) {
        row[i] = pos[i] + tb.offset;
        if (cells && row[i] > tb.positions - 1) /* TAPAS's cap (modeling_tapas.py L118-121) */
            row[i] = tb.positions - 1;
        if (row[i] >= tb.positions) {
            rc = cli_fail(stderr, "golden", 0,
                          "position %lld reads row %lld, past layer %u's %lld-row table",
                          (long long)pos[i], (long long)row[i], layer,
                          (long long)tb.positions);
            goto done;
        }
        if (axial)
            cli_cannot_fail(posenc_axial_ids(row[i], ids.axial_shape[0], ids.axial_shape[1],
                                             &arow[i], &acol[i]));
    }
    gtensor t[4] = {{"positions", "I64", {n, 0}, 1, pos, n * sizeof *pos},
                    {"row", "I64", {n, 0}, 1, row, n * sizeof *row},
                    {"axial_row", "I64", {n, 0}, 1, arow, n * sizeof *arow},
                    {"axial_col", "I64", {n, 0}, 1, acol, n * sizeof *acol}};
    char offw[32];
    snprintf(offw, sizeof offw, "%lld", (long long)tb.offset);
    const char *kind = posenc_ids_kind_name(ids.kind);
    const char *meta[] = {"format", "posenc-golden", "layer", lw, "scheme", "learned", "ids",
                          kind, "offset", offw, cells ? "cells" : NULL, "0,0", NULL};
    if (st_write(path, t, axial ? 4 : 2, meta)) {
        golden_file(path);
        printf(" layer=%s scheme=learned ids=%s n_tok=%zu positions=%lld offset=%lld", lw, kind,
               n, (long long)tb.positions, (long long)tb.offset);
        if (axial)
            printf(" axial_shape=%ux%u", ids.axial_shape[0], ids.axial_shape[1]);
        if (ids.kind == POSENC_IDS_BOX2D)
            printf(" unwritten=box_rows(bbox)");
        else if (ids.kind == POSENC_IDS_XPATH)
            printf(" unwritten=xpath_rows(xpath_tags_seq,xpath_subs_seq)");
        else if (cells)
            printf(" cells=0,0");
        printf("\n");
        rc = 0;
    }
done:
    free(row);
    free(pos);
    return rc;
}

/* A sinusoid layer: positions (I64 [n], token indices) and pe (F32 [n,
 * dim], the family's float32 vectors at those indices plus its offset). */
static int golden_sinusoid(const char *path, const posenc_model *m, uint32_t layer,
                           const char *list, const char *lw)
{
    int64_t *pos = NULL;
    size_t n = 0;
    int rc = EXIT_BAD;
    posenc_sinusoid_spec spec;
    posenc_model_table tb;
    cli_cannot_fail(posenc_model_layer_sinusoid(m, layer, &spec));
    cli_cannot_fail(posenc_model_layer_table(m, layer, &tb));
    if (!golden_list(list, tb.positions < 32 ? tb.positions : 32, &pos, &n))
        return EXIT_BAD;
    int grows = posenc_sinusoid_table_grows(&spec);
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
    free(pos);
    return rc;
}

/* T5's, MPNet's buckets or DeBERTa's relative ids (the others: golden_ids,
 * golden_prophetnet): q_pos, k_pos (I64 [n]) and bucket (I64 [n, n]). */
static int golden_buckets(const char *path, const posenc_model *m, uint32_t layer,
                          const char *list, const char *lw)
{
    int64_t *pos = NULL;
    size_t n = 0;
    int rc = EXIT_BAD;
    posenc_model_t5 t5 = {0, 0, 0};
    uint32_t dbs = 0, dmp = 0;
    int deberta = posenc_model_layer_deberta(m, layer, &dbs, &dmp) == POSENC_OK;
    posenc_model_prophetnet pn;
    if (posenc_model_layer_prophetnet(m, layer, &pn) == POSENC_OK)
        return golden_prophetnet(path, m, layer, list, lw, &pn);
    if (!deberta && posenc_model_layer_t5(m, layer, &t5) != POSENC_OK)
        return golden_ids(path, m, layer, list, lw); /* LongT5, CPM-Ant, VITS */
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
    free(pos);
    return rc;
}

int cli_golden_table(const char *path, const posenc_model *m, uint32_t layer, const char *list)
{
    posenc_layer_info li;
    char lw[16];
    snprintf(lw, sizeof lw, "%u", layer);
    if (posenc_model_layer(m, layer, &li) != POSENC_OK)
        return cli_fail(stderr, "golden", 0, "layer %u is past the model's %u layers", layer,
                        posenc_model_n_layer(m));
    if (li.scheme == POSENC_SCHEME_SINUSOID)
        return golden_sinusoid(path, m, layer, list, lw);
    if (li.scheme == POSENC_SCHEME_RELATIVE_BUCKETS)
        return golden_buckets(path, m, layer, list, lw);
    if (li.scheme == POSENC_SCHEME_LEARNED)
        return golden_learned(path, m, layer, list);
    return cli_fail(stderr, "golden", 0,
                    "layer %u's scheme is %s: golden writes RoPE dumps, sinusoid tables, "
                    "learned tables' rows and relative buckets",
                    layer, posenc_scheme_name(li.scheme));
}

/* ---- relative sinusoids (XLNet, Funnel) ---------------------------------------------- */

/* The distances of LIST ("A,B,C-D", negatives allowed: "-3--1" is -3..-1). */
static int golden_signed_list(const char *list, int64_t **out, size_t *n)
{
    int r = parse_ranges(list, -POSENC_MAX_POS, out, n);
    if (r == 0)
        cli_fail(stderr, "golden", 0,
                 "--positions '%s': comma-separated distances and ranges A-B from -%lld to "
                 "%lld (at most 100001 per range)",
                 list, POSENC_MAX_POS, POSENC_MAX_POS);
    return r == 1;
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

/* SAM 3 LiteText's resampled table (POSENC_IDS_RESAMPLED): for each token
 * of list (default: every token) of a sequence of seq_len tokens (0: 16),
 * the two rows it mixes and the second's weight (posenc_resample_rows):
 * positions, row0, row1 I64 [n], weight1 F32 [n]; the vector is
 * (1 - weight1) * table[row0] + weight1 * table[row1], 1 - weight1 in
 * float32. */
int cli_golden_resampled(const char *path, const posenc_model *m, uint32_t layer,
                         const char *list, int64_t seq_len)
{
    posenc_model_table tb;
    cli_cannot_fail(posenc_model_layer_table(m, layer, &tb));
    int64_t len = seq_len ? seq_len : 16;
    if (len > POSENC_RESAMPLE_MAX_ROWS)
        return cli_fail(stderr, "golden", 0,
                        "--seq-len %lld: at most %d tokens for a resampled table (float32 "
                        "source indices)",
                        (long long)len, POSENC_RESAMPLE_MAX_ROWS);
    int64_t *pos = NULL;
    size_t n = 0;
    if (!golden_list(list, len, &pos, &n))
        return EXIT_BAD;
    int rc = EXIT_BAD;
    int64_t *row = malloc(2 * (n ? n : 1) * sizeof *row);
    float *w = malloc((n ? n : 1) * sizeof *w);
    if (!row || !w) {
        rc = cli_fail(stderr, "golden", 0, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        if (posenc_resample_rows(tb.positions, len, pos[i], &row[i], &row[n + i], &w[i]) !=
            POSENC_OK) {
            rc = cli_fail(stderr, "golden", 0,
                          "token %lld is past the sequence of --seq-len %lld tokens", (long long)pos[i],
                          (long long)len);
            goto done;
        }
    gtensor t[4] = {{"positions", "I64", {n, 0}, 1, pos, n * sizeof *pos},
                    {"row0", "I64", {n, 0}, 1, row, n * sizeof *row},
                    {"row1", "I64", {n, 0}, 1, row + n, n * sizeof *row},
                    {"weight1", "F32", {n, 0}, 1, w, n * sizeof *w}};
    char lw[16], lenw[24], rowsw[24];
    snprintf(lw, sizeof lw, "%u", layer);
    snprintf(lenw, sizeof lenw, "%lld", (long long)len);
    snprintf(rowsw, sizeof rowsw, "%lld", (long long)tb.positions);
    const char *meta[] = {"format", "posenc-golden", "layer", lw, "scheme", "learned", "ids",
                          "resampled", "seq_len", lenw, "rows", rowsw, NULL};
    if (st_write(path, t, 4, meta)) {
        golden_file(path);
        printf(" layer=%s scheme=learned ids=resampled n_tok=%zu seq_len=%s positions=%s "
               "resample=bilinear align_corners=false\n",
               lw, n, lenw, rowsw);
        rc = 0;
    }
done:
    free(w);
    free(row);
    free(pos);
    return rc;
}

/* ---- ProphetNet's decoder ---------------------------------------------------------- */

/* A ProphetNet decoder layer (posenc_model_layer_prophetnet): q_pos, k_pos
 * (I64 [n]), bucket (I64 [n, n]: the main stream's, as
 * compute_buffered_relative_buckets returns it), predict_bucket (I64 [n,
 * 2n]: the predicting streams', the same for each of the ngram streams;
 * posenc_model_layer_prophetnet_predict), row and predict_row (I64 [n]: the
 * learned table's rows the main and the predicting streams add, pad + 1 + i
 * and pad + 2 + i). A position whose predict row is past the table is
 * refused: the code fails there (modeling_prophetnet.py L1157, an index past
 * the nn.Embedding). */
static int golden_prophetnet(const char *path, const posenc_model *m, uint32_t layer,
                             const char *list, const char *lw, const posenc_model_prophetnet *pn)
{
    posenc_model_table tb;
    cli_cannot_fail(posenc_model_layer_table(m, layer, &tb));
    int64_t *pos = NULL, *b = NULL, *pb = NULL, *row = NULL, *prow = NULL;
    size_t n = 0;
    int rc = EXIT_BAD;
    if (!golden_list(list, 16, &pos, &n))
        return EXIT_BAD;
    if (n > 4096) {
        free(pos);
        return cli_fail(stderr, "golden", 0, "%zu positions: at most 4096 for buckets", n);
    }
    for (size_t i = 0; i < n; i++)
        if (pos[i] + tb.offset + 1 >= tb.positions) {
            rc = cli_fail(stderr, "golden", 0,
                          "position %lld: ProphetNet's predicting streams read row %lld, past "
                          "layer %u's %lld-row table",
                          (long long)pos[i], (long long)(pos[i] + tb.offset + 1), layer,
                          (long long)tb.positions);
            free(pos);
            return rc;
        }
    b = malloc(n * n * sizeof *b);
    pb = malloc(2 * n * n * sizeof *pb);
    row = malloc(n * sizeof *row);
    prow = malloc(n * sizeof *prow);
    if (!b || !pb || !row || !prow) {
        rc = cli_fail(stderr, "golden", 0, "out of memory");
        goto done;
    }
    cli_cannot_fail(posenc_model_layer_relative_ids(m, layer, pos, n, pos, n, b));
    cli_cannot_fail(posenc_model_layer_prophetnet_predict(m, layer, pos, n, pos, n, pb));
    for (size_t i = 0; i < n; i++) {
        row[i] = tb.offset + pos[i];
        prow[i] = tb.offset + 1 + pos[i];
    }
    gtensor t[6] = {{"q_pos", "I64", {n, 0}, 1, pos, n * sizeof *pos},
                    {"k_pos", "I64", {n, 0}, 1, pos, n * sizeof *pos},
                    {"bucket", "I64", {n, n}, 2, b, n * n * sizeof *b},
                    {"predict_bucket", "I64", {n, 2 * n}, 2, pb, 2 * n * n * sizeof *pb},
                    {"row", "I64", {n, 0}, 1, row, n * sizeof *row},
                    {"predict_row", "I64", {n, 0}, 1, prow, n * sizeof *prow}};
    char ngw[16];
    snprintf(ngw, sizeof ngw, "%u", pn->ngram);
    const char *meta[] = {"format", "posenc-golden", "layer", lw, "scheme", "relative-buckets",
                          "ids", "prophetnet", "ngram", ngw, NULL};
    if (!st_write(path, t, 6, meta))
        goto done;
    golden_file(path);
    printf(" layer=%s scheme=relative-buckets ids=prophetnet n_q=%zu n_k=%zu buckets=%u "
           "max_distance=%u ngram=%u table_positions=%lld table_offset=%lld\n",
           lw, n, n, pn->buckets, pn->max_distance, pn->ngram, (long long)tb.positions,
           (long long)tb.offset);
    rc = 0;
done:
    free(pos);
    free(b);
    free(pb);
    free(row);
    free(prow);
    return rc;
}
