/* fuzz_dump.c - libFuzzer target: posenc check's dumps through
 * posenc_dump_read(), then, when one is read, posenc_check_run() against a
 * plain RoPE of its head_dim (or table width).
 *
 * Invariants checked on every input:
 *   - failure leaves *out untouched, reports a documented status and says
 *     why (a non-empty, NUL-terminated detail);
 *   - success gives n_tok >= 1, positions in 0 .. POSENC_MAX_POS, finite
 *     values, and either x/y or cos/sin;
 *   - the check then returns POSENC_OK or a documented refusal, a verdict
 *     consistent with its largest error, and only causes that fit. */
#include "posenc_check.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        abort();
    posenc_check_input d;
    memset(&d, 0xAB, sizeof d);
    unsigned char before[sizeof d];
    memcpy(before, &d, sizeof d);
    posenc_load_error e;
    posenc_status s = posenc_dump_read(in, &d, &e);
    fclose(in);
    if (s != POSENC_OK) {
        if (memcmp(before, &d, sizeof d) != 0)
            abort();
        if (s != POSENC_ERR_FORMAT && s != POSENC_ERR_POS && s != POSENC_ERR_OVERFLOW &&
            s != POSENC_ERR_NOMEM && s != POSENC_ERR_IO)
            abort();
        if (memchr(e.detail, '\0', sizeof e.detail) == NULL || e.detail[0] == '\0')
            abort();
        return 0;
    }
    if (d.n_tok == 0 || !d.pos || (!d.x) == (!d.cos))
        abort();
    for (size_t t = 0; t < d.n_tok; t++)
        if (d.pos[t] < 0 || d.pos[t] > POSENC_MAX_POS)
            abort();
    uint32_t dim = d.x ? d.head_dim : d.table_dim;
    if (dim >= 2 && dim % 2 == 0 && dim <= POSENC_ROPE_MAX_HEAD_DIM &&
        d.n_tok * (d.x ? d.n_head : 1) * dim <= 4096) {
        posenc_rope_config c;
        memset(&c, 0, sizeof c);
        c.head_dim = c.rotary_dim = dim;
        c.base = 10000;
        c.layout = POSENC_LAYOUT_HALF;
        if (posenc_rope_scaling_init(&c.scaling, POSENC_ROPE_DEFAULT) != POSENC_OK)
            abort();
        posenc_check_result *r = malloc(sizeof *r);
        if (!r)
            abort();
        /* every engine's arithmetic, one per dump */
        posenc_check_engine en = (posenc_check_engine)(d.n_tok % (POSENC_CHECK_ENGINE_CACHE_BF16 + 1));
        s = posenc_check_run_engine(&c, &d, 0, 0, en, r);
        if (s == POSENC_OK) {
            if (r->match != (r->max_ulp <= r->tol_ulp) || (r->match && r->n_cause) ||
                r->n_cause > POSENC_CHECK_MAX_CAUSES || r->n_band == 0 || r->engine != en)
                abort();
            for (size_t k = 0; k < r->n_cause; k++)
                if (!(r->cause[k].fit_ulp <= r->tol_ulp) || (k && r->cause[k].group < r->cause[k - 1].group))
                    abort();
            /* nothing fits: the nearest is named, never a bare none */
            if (!r->match && r->n_cause == 0 && (!r->nearest.valid || !(r->nearest.fit_ulp > r->tol_ulp)))
                abort();
            char line[64];
            size_t len = posenc_check_cause_lines(r, line, sizeof line);
            if (strlen(line) != (len < sizeof line ? len : sizeof line - 1) || (r->match && len))
                abort();
        } else if (s != POSENC_ERR_DIM && s != POSENC_ERR_NOMEM) {
            abort();
        }
        free(r);
    }
    posenc_dump_free(&d);
    return 0;
}
