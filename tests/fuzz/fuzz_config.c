/* fuzz_config.c - libFuzzer target: arbitrary bytes through the Hugging Face
 * config.json reader, posenc_rope_from_config_text() (src/config.c).
 *
 * Built only when jansson is found (see the Makefile's fuzz rules); it links
 * src/config.c compiled for fuzzing and jansson itself (not instrumented).
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
 *     (dynamic NTK and longrope change with the length). */
#include "posenc_config.h"

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
    for (uint32_t k = 0; k < r->rotary_dim / 2; k++)
        if (!(isfinite(r->inv_freq_hi[k]) && r->inv_freq_hi[k] > 0.0 &&
              isfinite(r->inv_freq_lo[k])))
            abort();
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
    return 0;
}
