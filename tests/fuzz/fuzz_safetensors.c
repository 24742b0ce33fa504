/* fuzz_safetensors.c - libFuzzer target: safetensors files through
 * posenc_learned_read_safetensors(). The first input byte picks the tensor
 * name asked for (from NAMES); the rest is the file.
 *
 * Invariants checked on every input:
 *   - success gives a table with 1 <= n_pos, 1 <= dim <= POSENC_MAX_DIM,
 *     n_pos * dim * 2 bytes at most the file (the smallest float is 2 bytes),
 *     every row readable and finite, POSENC_ERR_POS at -1 and at n_pos;
 *   - failure leaves *out untouched, reports a documented status, and says
 *     why (a non-empty, NUL-terminated detail, line 0);
 *   - reading the same bytes again gives the same status and detail. */
#include "posenc.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const NAMES[] = {"t", "wpe.weight", "w", "pe", "x", "\xc3\xa9", ""};
#define N_NAMES (sizeof NAMES / sizeof NAMES[0])

static posenc_status read_once(const uint8_t *data, size_t size, const char *name,
                               posenc_learned **t, posenc_load_error *e)
{
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        abort();
    posenc_status s = posenc_learned_read_safetensors(in, name, t, e);
    fclose(in);
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const char *name = NAMES[data[0] % N_NAMES];
    data++;
    size--;
    posenc_learned *t = (posenc_learned *)(uintptr_t)1; /* must stay untouched on failure */
    posenc_load_error e;
    posenc_status s = read_once(data, size, name, &t, &e);
    if (s != POSENC_OK) {
        if (t != (posenc_learned *)(uintptr_t)1)
            abort();
        if (s != POSENC_ERR_FORMAT && s != POSENC_ERR_RANGE && s != POSENC_ERR_DIM &&
            s != POSENC_ERR_OVERFLOW && s != POSENC_ERR_NOMEM && s != POSENC_ERR_IO)
            abort();
        if (memchr(e.detail, '\0', sizeof e.detail) == NULL || e.detail[0] == '\0' ||
            e.line != 0)
            abort();
        posenc_load_error e2;
        posenc_learned *t2 = NULL;
        if (read_once(data, size, name, &t2, &e2) != s || strcmp(e.detail, e2.detail) != 0)
            abort();
        return 0;
    }
    size_t n = posenc_learned_n_pos(t), dim = posenc_learned_dim(t);
    if (n == 0 || dim == 0 || dim > POSENC_MAX_DIM || n > size / 2 / dim)
        abort();
    double *row = malloc(dim * sizeof *row);
    if (!row)
        abort();
    for (size_t p = 0; p < n; p++) {
        if (posenc_learned_row_f64(t, (int64_t)p, row) != POSENC_OK)
            abort();
        for (size_t i = 0; i < dim; i++)
            if (!isfinite(row[i]))
                abort();
    }
    if (posenc_learned_row_f64(t, (int64_t)n, row) != POSENC_ERR_POS ||
        posenc_learned_row_f64(t, -1, row) != POSENC_ERR_POS)
        abort();
    free(row);
    posenc_learned_free(t);
    return 0;
}
