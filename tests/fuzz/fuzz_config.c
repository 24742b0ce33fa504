/* fuzz_config.c - libFuzzer target: arbitrary bytes through the Hugging Face
 * config.json reader, posenc_rope_from_config_text() (src/config/config.c).
 *
 * Built only when jansson is found (see the Makefile's fuzz rules); it links
 * src/config/config.c compiled for fuzzing and jansson itself (not instrumented).
 *
 * Invariants checked on every input:
 *   - the status is OK or one the reader documents (FORMAT, BASE, DIM, RANGE,
 *     NOT_FINITE: the reader's own and posenc_rope_init_config's);
 *   - the same bytes read twice give the same status and the same output,
 *     bit for bit, and err == NULL changes neither;
 *   - failure: *out is untouched (every byte still the fill pattern), and the
 *     error holds a non-empty, NUL-terminated detail and a NUL-terminated key;
 *     a syntax error (FORMAT with no key) has a detail that says "JSON" when
 *     it reports a line;
 *   - success: head_dim in 2..POSENC_ROPE_MAX_HEAD_DIM, rotary_dim even in
 *     2..head_dim, base finite > 1, layout known, list counts 0 or
 *     rotary_dim / 2 (longrope: both lists); posenc_rope_init_config at
 *     cur_len 0 succeeds and gives finite, positive frequencies (inv_freq_hi
 *     > 0, the low part finite) and a finite, positive attention factor, and
 *     agrees with the config's dimensions, base and layout;
 *   - at a longer cur_len (L + 1, and POSENC_MAX_POS + 1) the rope either
 *     fills with the same guarantees or is refused with a documented status
 *     (dynamic NTK and longrope change with the length).
 *
 * The same bytes then go through the model registry's reader,
 * posenc_model_from_config_text() (src/config/config_model.c), with no override and,
 * chosen by the first byte, with a registry family as --model-type:
 *   - the status is OK or documented, the same twice and with err == NULL;
 *   - failure: *out untouched, a non-empty detail, and a non-empty key
 *     (every refusal names its key) unless it is a JSON syntax or
 *     not-an-object error;
 *   - success: 1..POSENC_MODEL_MAX_LAYERS layers, 1..POSENC_MODEL_MAX_GROUPS
 *     groups, every layer in a group and every group used, the model's
 *     scheme the groups' (MIXED when they differ); every RoPE layer gives a
 *     posenc_rope with finite positive frequencies at cur_len 0 (and at
 *     POSENC_MAX_POS + 1 the same or a documented refusal), every layer a
 *     finite positive query scale at positions 0 and POSENC_MAX_POS, and every
 *     ALiBi layer finite positive slopes. */
#include "posenc_config.h"
#include "../../src/model/model.h" /* white box: the groups of a model */

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FILL 0xA5

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* jansson seeds its hash from /dev/urandom; a fixed seed keeps a unit's
     * run reproducible (the reader reports the first bad key it meets). */
    json_object_seed(1);
    return 0;
}

static int documented(posenc_status s)
{
    return s == POSENC_ERR_FORMAT || s == POSENC_ERR_BASE || s == POSENC_ERR_DIM ||
           s == POSENC_ERR_RANGE || s == POSENC_ERR_NOT_FINITE;
}

static int terminated(const char *s, size_t n) { return memchr(s, '\0', n) != NULL; }

/* r filled from c at some cur_len: the frequencies a model will use. */
static void check_rope(const posenc_rope *r, const posenc_rope_config *c)
{
    if (r->head_dim != c->head_dim || r->rotary_dim != c->rotary_dim ||
        r->layout != c->layout || r->base != c->base)
        abort();
    if (!(isfinite(r->attn_factor) && r->attn_factor > 0.0))
        abort();
    /* every frequency finite and > 0, except proportional RoPE's pairs past
     * its rotated part: exactly 0, a tail of the list (posenc.h) */
    int prop = c->scaling.type == POSENC_ROPE_PROPORTIONAL, zero = 0;
    for (uint32_t k = 0; k < r->rotary_dim / 2; k++) {
        double f = r->inv_freq_hi[k];
        if (!(isfinite(f) && isfinite(r->inv_freq_lo[k])))
            abort();
        if (prop && f == 0.0 && r->inv_freq_lo[k] == 0.0)
            zero = 1;
        else if (zero || !(f > 0.0))
            abort();
    }
}

static void check_config(const posenc_rope_config *c)
{
    if (c->head_dim < 2 || c->head_dim > POSENC_ROPE_MAX_HEAD_DIM || c->rotary_dim < 2 ||
        c->rotary_dim > c->head_dim || c->rotary_dim % 2)
        abort();
    if (!(isfinite(c->base) && c->base > 1.0))
        abort();
    if (c->layout != POSENC_LAYOUT_HALF && c->layout != POSENC_LAYOUT_INTERLEAVED)
        abort();
    if (c->max_position_embeddings < 0)
        abort();
    const posenc_rope_scaling *s = &c->scaling;
    size_t half = c->rotary_dim / 2;
    if ((s->n_short_factor != 0 && s->n_short_factor != half) ||
        (s->n_long_factor != 0 && s->n_long_factor != half) ||
        (s->n_freq_factors != 0 && s->n_freq_factors != half))
        abort();
    if (s->type == POSENC_ROPE_LONGROPE && (s->n_short_factor != half || s->n_long_factor != half))
        abort();

    posenc_rope *r = malloc(sizeof *r);
    if (!r)
        abort();
    if (posenc_rope_init_config(r, c, 0) != POSENC_OK)
        abort();
    check_rope(r, c);
    /* Longer contexts: dynamic NTK stretches the base, longrope switches lists. */
    double L = s->original_max_position_embeddings;
    int64_t lens[2] = {POSENC_MAX_POS + 1, 0};
    if (L >= 0.0 && L < (double)POSENC_MAX_POS)
        lens[1] = (int64_t)L + 1;
    for (int i = 0; i < 2; i++) {
        if (lens[i] == 0)
            continue;
        posenc_status st = posenc_rope_init_config(r, c, lens[i]);
        if (st == POSENC_OK)
            check_rope(r, c);
        else if (!documented(st))
            abort();
    }
    free(r);
}

/* The registry path on the same bytes. */
static void check_model(const char *text, size_t size, const char *override)
{
    posenc_model *m = malloc(sizeof *m), *again = malloc(sizeof *again);
    posenc_config_error *err = malloc(sizeof *err);
    posenc_rope *r = malloc(sizeof *r);
    if (!m || !again || !err || !r)
        abort();
    memset(m, FILL, sizeof *m);
    memset(again, FILL, sizeof *again);
    posenc_status st = posenc_model_from_config_text(text, size, override, m, err);
    if (st != POSENC_OK && !documented(st))
        abort();
    if (posenc_model_from_config_text(text, size, override, again, NULL) != st ||
        memcmp(m, again, sizeof *m) != 0)
        abort();
    if (st != POSENC_OK) {
        const unsigned char *p = (const unsigned char *)m;
        for (size_t i = 0; i < sizeof *m; i++)
            if (p[i] != FILL)
                abort();
        if (!terminated(err->detail, sizeof err->detail) || err->detail[0] == '\0' ||
            !terminated(err->key, sizeof err->key))
            abort();
        if (err->key[0] == '\0' && !strstr(err->detail, "JSON"))
            abort(); /* every refusal names its key */
    } else {
        if (m->n_layer < 1 || m->n_layer > POSENC_MODEL_MAX_LAYERS || m->n_group < 1 ||
            m->n_group > POSENC_MODEL_MAX_GROUPS)
            abort();
        unsigned used[POSENC_MODEL_MAX_GROUPS] = {0};
        for (uint32_t i = 0; i < m->n_layer; i++) {
            posenc_layer_info li;
            if (posenc_model_layer(m, i, &li) != POSENC_OK || li.group != m->layer_group[i])
                abort();
            const posenc_model_group *g = posenc__model_group(m, i);
            used[m->layer_group[i]]++;
            if (g->scheme == POSENC_SCHEME_MIXED)
                abort();
            double q0 = 0, q1 = 0;
            if (posenc_model_query_scale(m, i, 0, &q0) != POSENC_OK ||
                posenc_model_query_scale(m, i, POSENC_MAX_POS, &q1) != POSENC_OK ||
                !(isfinite(q0) && q0 > 0 && isfinite(q1) && q1 > 0))
                abort();
        }
        posenc_scheme all = m->group[0].scheme;
        for (uint32_t gi = 0; gi < m->n_group; gi++) {
            const posenc_model_group *g = &m->group[gi];
            if (!used[gi])
                abort();
            if (g->scheme != m->group[0].scheme)
                all = POSENC_SCHEME_MIXED;
            uint32_t layer = 0;
            while (m->layer_group[layer] != gi)
                layer++;
            if (g->scheme == POSENC_SCHEME_ROPE) {
                check_config(&g->rope);
                if (posenc_model_layer_rope(m, layer, 0, r) != POSENC_OK)
                    abort();
                check_rope(r, &g->rope);
                posenc_status s2 = posenc_model_layer_rope(m, layer, POSENC_MAX_POS + 1, r);
                if (s2 != POSENC_OK && !documented(s2))
                    abort();
            } else if (g->scheme == POSENC_SCHEME_ALIBI) {
                double *sl = malloc(g->n_head * sizeof *sl);
                if (!sl || posenc_model_alibi_slopes(m, layer, sl) != POSENC_OK)
                    abort();
                for (uint32_t h = 0; h < g->n_head; h++)
                    if (!(isfinite(sl[h]) && sl[h] > 0))
                        abort();
                free(sl);
            }
        }
        if (m->scheme != all)
            abort();
    }
    free(m);
    free(again);
    free(err);
    free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    posenc_rope_config *out = malloc(sizeof *out), *again = malloc(sizeof *again);
    posenc_config_error *err = malloc(sizeof *err);
    if (!out || !again || !err)
        abort();
    memset(out, FILL, sizeof *out);
    memset(again, FILL, sizeof *again);
    memset(err, FILL, sizeof *err);

    posenc_status st = posenc_rope_from_config_text(text, size, out, err);
    if (st != POSENC_OK && !documented(st))
        abort();
    /* The same bytes again, without an error struct: the same answer. */
    if (posenc_rope_from_config_text(text, size, again, NULL) != st)
        abort();
    if (memcmp(out, again, sizeof *out) != 0)
        abort();

    if (st != POSENC_OK) {
        const unsigned char *p = (const unsigned char *)out;
        for (size_t i = 0; i < sizeof *out; i++)
            if (p[i] != FILL)
                abort();
        if (!terminated(err->detail, sizeof err->detail) || err->detail[0] == '\0' ||
            !terminated(err->key, sizeof err->key))
            abort();
        if (err->line != 0 && (st != POSENC_ERR_FORMAT || !strstr(err->detail, "JSON")))
            abort();
    } else {
        if (err->detail[0] != '\0' || err->key[0] != '\0' || err->line != 0 || err->column != 0)
            abort();
        check_config(out);
    }
    free(out);
    free(again);
    free(err);

    check_model(text, size, NULL);
    if (size > 0 && (data[0] & 1)) {
        posenc_family_info f;
        if (posenc_model_family_info(data[0] % posenc_model_family_count(), &f) != POSENC_OK)
            abort();
        check_model(text, size, f.model_type);
    }
    return 0;
}
