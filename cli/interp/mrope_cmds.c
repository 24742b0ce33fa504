/* mrope_cmds.c - multimodal RoPE in the command language: SET rope mrope,
 * positions written t:h:w, ROPE / DOT / EXPLAIN ROPE with an M-RoPE model,
 * MROPE_POSITIONS and ROPE2D. Parsing and printing only: every number
 * comes from the library (posenc_mrope_*, posenc_rope2d_*). */
#include "cli.h"
#include "rope_spec.h"

#include <stdlib.h>
#include <string.h>

/* ---- words ------------------------------------------------------------------------ */

/* "key=value": 1 and the value if t starts with key=. */
static int key_value(cli_token t, const char *key, cli_token *v)
{
    size_t k = strlen(key);
    if (t.len <= k || t.s[k] != '=')
        return 0;
    cli_token head = {t.s, k};
    if (!cli_word_is(head, key))
        return 0;
    v->s = t.s + k + 1;
    v->len = t.len - k - 1;
    return 1;
}

/* Up to max integers separated by sep into v; their count, or 0 when the
 * text is not that. */
static size_t split_ints(cli_token t, char sep, int64_t *v, size_t max)
{
    size_t count = 0, i = 0;
    while (i <= t.len) {
        size_t j = i;
        while (j < t.len && t.s[j] != sep)
            j++;
        if (count == max || posenc_parse_int64(t.s + i, j - i, &v[count]) != POSENC_OK)
            return 0;
        count++;
        i = j + 1;
    }
    return count;
}

int cli_parse_mrope_position(cli_state *st, cli_token t, int64_t p[3])
{
    size_t n = split_ints(t, ':', p, 3);
    if (n == 1)
        p[1] = p[2] = p[0];
    if (n == 1 || n == 3) {
        for (int a = 0; a < 3; a++)
            if (p[a] < 0 || p[a] > POSENC_MAX_POS)
                goto bad;
        return 1;
    }
bad:
    cli_error(st, "an M-RoPE position is t:h:w (or p for p:p:p), integers from 0 to %lld, got "
                  "'%.*s%s'",
              POSENC_MAX_POS, CLI_SHOW(t.s, t.len));
    return 0;
}

/* ---- SET rope mrope ---------------------------------------------------------------- */

static int parse_yes(cli_token v, int *out)
{
    if (cli_word_is(v, "yes") || cli_word_is(v, "true") || cli_word_is(v, "1")) {
        *out = 1;
        return 1;
    }
    if (cli_word_is(v, "no") || cli_word_is(v, "false") || cli_word_is(v, "0")) {
        *out = 0;
        return 1;
    }
    return 0;
}

/* The words of SET rope mrope that are M-RoPE's own. */
typedef struct mrope_words {
    int64_t sec[3], merge, tps;
    int inter, alt, have_sec;
} mrope_words;

/* Reads a[0..n) into *w; the words that are not M-RoPE's go to rest[*nr..]
 * (SET rope default's). 0 after a message. */
static int read_mrope_words(cli_state *st, const cli_token *a, size_t n, mrope_words *w,
                            cli_token *rest, size_t *nr)
{
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        cli_token v;
        if (key_value(a[i], "sections", &v) || key_value(a[i], "mrope_section", &v)) {
            const int64_t *sc = w->sec;
            w->have_sec = split_ints(v, ':', w->sec, 3) == 3 && sc[0] >= 0 && sc[1] >= 0 &&
                          sc[2] >= 0 && sc[0] <= 512 && sc[1] <= 512 && sc[2] <= 512;
            if (!w->have_sec) {
                cli_error(st, "SET rope mrope: sections=%.*s%s must be three pair counts t:h:w "
                              "(e.g. 16:24:24)",
                          CLI_SHOW(v.s, v.len));
                ok = 0;
            }
        } else if (key_value(a[i], "interleaved", &v)) {
            if (!parse_yes(v, &w->inter)) {
                cli_error(st, "SET rope mrope: interleaved must be yes or no, got '%.*s%s'",
                          CLI_SHOW(v.s, v.len));
                ok = 0;
            }
        } else if (key_value(a[i], "alternating", &v)) {
            /* ERNIE 4.5 VL, NeoMME: h and w pair by pair, then t */
            if (!parse_yes(v, &w->alt)) {
                cli_error(st, "SET rope mrope: alternating must be yes or no, got '%.*s%s'",
                          CLI_SHOW(v.s, v.len));
                ok = 0;
            }
        } else if (key_value(a[i], "merge", &v)) {
            if (posenc_parse_int64(v.s, v.len, &w->merge) != POSENC_OK || w->merge < 1 || w->merge > 64) {
                cli_error(st, "SET rope mrope: merge (spatial_merge_size) must be an integer "
                              "from 1 to 64, got '%.*s%s'",
                          CLI_SHOW(v.s, v.len));
                ok = 0;
            }
        } else if (key_value(a[i], "tokens_per_second", &v)) {
            if (posenc_parse_int64(v.s, v.len, &w->tps) != POSENC_OK || w->tps < 0 ||
                w->tps > 1000000) {
                cli_error(st, "SET rope mrope: tokens_per_second must be an integer from 0 "
                              "(Qwen2-VL) to 1000000, got '%.*s%s'",
                          CLI_SHOW(v.s, v.len));
                ok = 0;
            }
        } else {
            rest[(*nr)++] = a[i];
        }
    }
    return ok;
}

int cli_set_rope_mrope(cli_state *st, const cli_token *a, size_t n)
{
    /* The keys of M-RoPE here; the rest are SET rope default's words. */
    cli_token *rest = malloc((n + 1) * sizeof *rest);
    if (!rest) {
        cli_error(st, "out of memory");
        return 0;
    }
    size_t nr = 0;
    rest[nr++] = (cli_token){"default", 7};
    mrope_words w = {{-1, -1, -1}, st->mrope_merge ? st->mrope_merge : 2, st->mrope_tps, 0, 0,
                     0};
    int ok = read_mrope_words(st, a, n, &w, rest, &nr);
    const int64_t *sec = w.sec;
    int64_t merge = w.merge, tps = w.tps;
    int inter = w.inter, alt = w.alt, have_sec = w.have_sec;
    if (ok && inter && alt) {
        cli_error(st, "SET rope mrope: interleaved=yes and alternating=yes are two rules; give "
                      "one");
        ok = 0;
    }
    if (ok && !have_sec) {
        cli_error(st, "SET rope mrope needs sections=t:h:w, the pairs of each axis (e.g. "
                      "sections=16:24:24 for Qwen2-VL, sections=24:20:20 interleaved=yes for "
                      "Qwen3-VL)");
        ok = 0;
    }
    posenc_rope_config spec; /* 12 KiB */
    char why[512];
    if (ok) {
        /* a new M-RoPE starts from the M-RoPE model in force, never from a
         * one-dimensional one (whose rotary_dim would carry over) */
        rope_spec_start from = {st->base, st->layout, st->mrope_on ? cli_active_rope(st) : NULL};
        rope_spec_status rs = rope_spec_parse(rest, nr, &from, &spec, why, sizeof why);
        if (rs == ROPE_SPEC_OFF) /* "default" alone: no head_dim to split */
            cli_error(st, "SET rope mrope needs head_dim=N, the size of the model's heads");
        else if (rs == ROPE_SPEC_BAD)
            cli_error(st, "%s", why);
        ok = rs == ROPE_SPEC_SET;
    }
    free(rest);
    if (!ok)
        return 0;
    const uint32_t s3[3] = {(uint32_t)sec[0], (uint32_t)sec[1], (uint32_t)sec[2]};
    posenc_mrope m;
    posenc_mrope_rule rule = inter ? POSENC_MROPE_INTERLEAVED
                             : alt ? POSENC_MROPE_HW_ALTERNATING
                                   : POSENC_MROPE_CONTIGUOUS;
    if (posenc_mrope_init(&m, spec.rotary_dim / 2, s3, rule) != POSENC_OK) {
        cli_error(st, "SET rope mrope: sections=%u:%u:%u do not fit %u pairs (rotary_dim %u)%s",
                  s3[0], s3[1], s3[2], spec.rotary_dim / 2, spec.rotary_dim,
                  inter ? " under the interleaved rule (pair k follows h when k % 3 = 1 and "
                          "k < 3 s_h, w when k % 3 = 2 and k < 3 s_w)"
                  : alt ? " under the alternating rule (h and w pair by pair: h equal to w, "
                          "the three adding up to rotary_dim / 2)"
                        : ": they must add up to rotary_dim / 2");
        return 0;
    }
    /* the words are good: make it the model */
    if (!cli_set_rope_config(st, &spec))
        return 0;
    st->mrope = m;
    st->mrope_on = 1;
    st->mrope_merge = (uint32_t)merge;
    st->mrope_tps = (uint32_t)tps;
    snprintf(st->model_label, sizeof st->model_label, "M-RoPE %u:%u:%u%s", s3[0], s3[1], s3[2],
             inter ? " interleaved" : alt ? " alternating" : "");
    return 1;
}

/* ---- ROPE, DOT and EXPLAIN ROPE with an M-RoPE model ------------------------------ */

static int check_head(cli_state *st, const char *cmd, size_t D)
{
    uint32_t hd = cli_active_rope(st)->head_dim; /* an M-RoPE layer rotates */
    if (D == hd)
        return 1;
    cli_error(st, "%s with an M-RoPE model takes heads of head_dim = %u numbers, got %zu", cmd,
              hd, D);
    return 0;
}

/* The layer's rotation into st->model_rope (the model was checked when it
 * was made, so this cannot fail). */
static int model_ready(cli_state *st)
{
    cli_cannot_fail(posenc_model_layer_rope(st->model, st->layer, 0, st->model_rope));
    return 1;
}

int cli_mrope_rope(cli_state *st, const int64_t p[3], size_t D)
{
    if (!check_head(st, "ROPE", D) || !model_ready(st))
        return 0;
    /* the positions, the head and its elements were checked */
    cli_cannot_fail(posenc_mrope_vec_f64(st->model_rope, &st->mrope, p[0], p[1], p[2],
                                         POSENC_FORWARD, st->vec));
    cli_print_numbers(st, st->vec, D);
    return 1;
}

int cli_mrope_dot(cli_state *st, const int64_t m[3], const int64_t n[3], size_t D)
{
    double dot;
    if (!check_head(st, "DOT", D) || !model_ready(st))
        return 0;
    cli_cannot_fail(
        posenc_mrope_vec_dot_f64(st->model_rope, &st->mrope, m, n, st->vec, st->vec2, &dot));
    cli_print_numbers(st, &dot, 1);
    return 1;
}

int cli_mrope_explain(cli_state *st, const int64_t p[3], size_t D)
{
    if (!check_head(st, "EXPLAIN ROPE", D) || !model_ready(st))
        return 0;
    const posenc_rope *r = st->model_rope;
    const posenc_mrope *m = &st->mrope;
    /* vec2 keeps the input so that each pair shows before and after */
    memcpy(st->vec2, st->vec, D * sizeof *st->vec);
    cli_cannot_fail(posenc_mrope_vec_f64(r, m, p[0], p[1], p[2], POSENC_FORWARD, st->vec));
    int half = r->layout == POSENC_LAYOUT_HALF;
    fprintf(st->out,
            "MROPE pos=%lld:%lld:%lld head_dim=%u rotary_dim=%u base=%.17g layout=%s "
            "sections=%u:%u:%u rule=%s: pair k = elements %s turns by the position of its "
            "axis (t, h or w) / base^(2k/rotary_dim)\n",
            (long long)p[0], (long long)p[1], (long long)p[2], r->head_dim, r->rotary_dim,
            r->base, half ? "half" : "interleaved", m->section[0], m->section[1], m->section[2],
            posenc_mrope_rule_name(m->rule), half ? "k, k+rotary_dim/2" : "2k, 2k+1");
    for (uint32_t k = 0; k < r->rotary_dim / 2; k++) {
        uint32_t i0, i1, a = m->axis[k];
        posenc_pair_trace tr;
        /* the model was checked */
        cli_cannot_fail(posenc_pair_index(k, r->rotary_dim, r->layout, &i0, &i1));
        cli_cannot_fail(posenc_pair_explain(p[a], k, r->rotary_dim, r->base, &tr));
        fprintf(st->out, "k=%u elements %u,%u axis=%s pos=%lld", k, i0, i1,
                posenc_mrope_axis_name((posenc_mrope_axis)a), (long long)p[a]);
        fprintf(st->out, " angle=%s", cli_format_number(st, tr.angle));
        fprintf(st->out, " before=(%s,", cli_format_number(st, st->vec2[i0]));
        fprintf(st->out, " %s)", cli_format_number(st, st->vec2[i1]));
        fprintf(st->out, " after=(%s,", cli_format_number(st, st->vec[i0]));
        fprintf(st->out, " %s)\n", cli_format_number(st, st->vec[i1]));
    }
    if (r->rotary_dim < r->head_dim)
        fprintf(st->out, "elements %u..%u: not rotated (partial rotary)\n", r->rotary_dim,
                r->head_dim - 1);
    fputs("result: ", st->out);
    cli_print_numbers(st, st->vec, D);
    return 1;
}

/* ---- ROPE2D -------------------------------------------------------------------------- */

int cli_parse_rope2d_position(cli_state *st, cli_token t, int64_t *row, int64_t *col)
{
    int64_t v[2];
    if (split_ints(t, ':', v, 2) == 2 && v[0] >= 0 && v[0] <= POSENC_MAX_POS && v[1] >= 0 &&
        v[1] <= POSENC_MAX_POS) {
        *row = v[0];
        *col = v[1];
        return 1;
    }
    cli_error(st, "ROPE2D needs a patch position row:col, integers from 0 to %lld, got "
                  "'%.*s%s'",
              POSENC_MAX_POS, CLI_SHOW(t.s, t.len));
    return 0;
}

int cli_rope2d(cli_state *st, int64_t row, int64_t col, size_t D)
{
    posenc_rope r;  /* 8 KiB */
    posenc_mrope m;
    if (D % 4 || D > POSENC_ROPE_MAX_HEAD_DIM) {
        cli_error(st, "ROPE2D takes heads of a multiple of 4 numbers, up to %u (D/4 pairs "
                      "for the row, D/4 for the column), got %zu",
                  POSENC_ROPE_MAX_HEAD_DIM, D);
        return 0;
    }
    /* D, the base, the layout, the positions and the elements were checked */
    cli_cannot_fail(posenc_rope2d_init(&r, &m, (uint32_t)D, st->base, st->layout));
    cli_cannot_fail(posenc_rope2d_vec_f64(&r, &m, row, col, POSENC_FORWARD, st->vec));
    cli_print_numbers(st, st->vec, D);
    return 1;
}

/* ---- MROPE_POSITIONS -------------------------------------------------------------------- */

/* Most tokens MROPE_POSITIONS prints. */
#define MAX_PRINTED_TOKENS (1u << 20)

/* "TxHxW" */
static int parse_grid(cli_token t, posenc_mrope_segment *s)
{
    int64_t v[3];
    if (split_ints(t, 'x', v, 3) != 3)
        return 0;
    for (int i = 0; i < 3; i++)
        if (v[i] < 1 || v[i] > 0xFFFFFFFFll)
            return 0;
    s->t = (uint32_t)v[0];
    s->h = (uint32_t)v[1];
    s->w = (uint32_t)v[2];
    return 1;
}

static void print_row(cli_state *st, const char *name, const int64_t *v, size_t n)
{
    fprintf(st->out, "%s:", name);
    for (size_t i = 0; i < n; i++)
        fprintf(st->out, " %lld", (long long)v[i]);
    fputc('\n', st->out);
}

int cli_mrope_positions(cli_state *st, const cli_token *a, size_t n)
{
    if (st->mrope_on && st->mrope.rule == POSENC_MROPE_HW_ALTERNATING) {
        /* ERNIE 4.5 VL's get_rope_index has rules of its own (temporal
         * merge, time_interval: modeling_ernie4_5_vl_moe.py L1119-1131) */
        cli_error(st, "MROPE_POSITIONS follows Qwen2-VL's position ids; the model in force "
                      "(the hw-alternating rule: ERNIE 4.5 VL, NeoMME) numbers its tokens by rules of "
                      "its own, not implemented: give t:h:w positions to ROPE and DOT");
        return 0;
    }
    if (n == 0) {
        cli_error(st, "MROPE_POSITIONS needs a sequence: text N, image TxHxW, video TxHxW "
                      "[seconds=S] ... (e.g. text 5 image 1x4x6 text 3)");
        return 0;
    }
    posenc_mrope_segment *seg = malloc(n * sizeof *seg);
    int64_t *rows = NULL;
    int ok = seg != NULL;
    if (ok)
        memset(seg, 0, n * sizeof *seg);
    else
        cli_error(st, "out of memory");
    size_t ns = 0;
    for (size_t i = 0; ok && i < n; i++) {
        posenc_mrope_segment *s = &seg[ns];
        cli_token v;
        if (key_value(a[i], "seconds", &v)) {
            if (ns == 0 || seg[ns - 1].kind != POSENC_SEG_VIDEO ||
                posenc_parse_number(v.s, v.len, &seg[ns - 1].seconds_per_grid) != POSENC_OK ||
                !(seg[ns - 1].seconds_per_grid >= 0)) {
                cli_error(st, "MROPE_POSITIONS: seconds=S follows a video, S a number >= 0 "
                              "(second_per_grid_t), got '%.*s%s'",
                          CLI_SHOW(a[i].s, a[i].len));
                ok = 0;
            }
            continue;
        }
        int64_t cnt;
        if (i + 1 < n && cli_word_is(a[i], "text")) {
            s->kind = POSENC_SEG_TEXT;
            ok = posenc_parse_int64(a[i + 1].s, a[i + 1].len, &cnt) == POSENC_OK && cnt >= 1 &&
                 cnt <= MAX_PRINTED_TOKENS;
            s->n = ok ? (uint32_t)cnt : 0;
        } else if (i + 1 < n && (cli_word_is(a[i], "image") || cli_word_is(a[i], "video"))) {
            s->kind = cli_word_is(a[i], "image") ? POSENC_SEG_IMAGE : POSENC_SEG_VIDEO;
            s->seconds_per_grid = 1.0;
            ok = parse_grid(a[i + 1], s);
        } else {
            cli_error(st, "MROPE_POSITIONS: expected text N, image TxHxW or video TxHxW, got "
                          "'%.*s%s'",
                      CLI_SHOW(a[i].s, a[i].len));
            ok = 0;
            break;
        }
        if (!ok)
            cli_error(st, "MROPE_POSITIONS: %.*s%s %.*s%s: %s", CLI_SHOW(a[i].s, a[i].len),
                      CLI_SHOW(a[i + 1].s, a[i + 1].len),
                      s->kind == POSENC_SEG_TEXT ? "the token count is an integer from 1 to 1048576"
                                                 : "the grid is TxHxW, three integers >= 1");
        ns++;
        i++;
    }
    size_t total = 0;
    uint32_t merge = st->mrope_merge ? st->mrope_merge : 2;
    if (ok) {
        posenc_status s = posenc_mrope_positions(seg, ns, merge, st->mrope_tps, NULL, NULL, NULL,
                                                 0, &total);
        if (s == POSENC_OK && total > MAX_PRINTED_TOKENS)
            s = POSENC_ERR_RANGE;
        if (s == POSENC_OK && !(rows = malloc(3 * total * sizeof *rows)))
            s = POSENC_ERR_NOMEM;
        if (s == POSENC_OK)
            s = posenc_mrope_positions(seg, ns, merge, st->mrope_tps, rows, rows + total,
                                       rows + 2 * total, total, &total);
        if (s != POSENC_OK) {
            cli_error(st, "MROPE_POSITIONS: %s (with spatial_merge_size %u every image and "
                          "video height and width must be a multiple of it; at most %u "
                          "tokens)",
                      posenc_strerror(s), merge, MAX_PRINTED_TOKENS);
            ok = 0;
        }
    }
    if (ok) {
        print_row(st, "t", rows, total);
        print_row(st, "h", rows + total, total);
        print_row(st, "w", rows + 2 * total, total);
    }
    free(rows);
    free(seg);
    return ok;
}
