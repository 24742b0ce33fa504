/* fuzz_learned.c - libFuzzer target: learned-table files through
 * posenc_learned_read().
 *
 * Invariants checked on every input:
 *   - success gives a table with n_pos >= 1 and 1 <= dim <= POSENC_MAX_DIM,
 *     every row readable, and POSENC_ERR_POS at -1 and at n_pos (the hard edge);
 *   - every value read back is finite;
 *   - failure leaves *out untouched, reports a known status, and a ragged-row
 *     error names a line and two different lengths. */
#include "posenc.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        abort();
    posenc_learned *t = (posenc_learned *)(uintptr_t)1; /* must stay untouched on failure */
    posenc_load_error e;
    posenc_status s = posenc_learned_read(in, &t, &e);
    fclose(in);
    if (s != POSENC_OK) {
        if (t != (posenc_learned *)(uintptr_t)1)
            abort();
        if (s != POSENC_ERR_FORMAT && s != POSENC_ERR_DIM && s != POSENC_ERR_OVERFLOW &&
            s != POSENC_ERR_NOMEM && s != POSENC_ERR_IO)
            abort();
        if (memchr(e.detail, '\0', sizeof e.detail) == NULL)
            abort();
        if (e.expected != 0 && (e.line == 0 || e.expected == e.got))
            abort();
        return 0;
    }
    size_t n = posenc_learned_n_pos(t), dim = posenc_learned_dim(t);
    if (n == 0 || dim == 0 || dim > POSENC_MAX_DIM || n > size || dim > size)
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
