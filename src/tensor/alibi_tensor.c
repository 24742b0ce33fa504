/* alibi_tensor.c - the ALiBi bias tensor [n_head, n_query, n_key] that
 * attention code adds to its scores, causal with a query offset for a KV
 * cache, filled by one or more threads into the caller's buffer. */
#include "internal.h"
#include "cpu.h"

#define MAX_THREADS POSENC__MAX_TASKS

typedef struct job {
    uint32_t n_head, n_query, n_key;
    int64_t q_offset;
    int causal;
    float *out;
} job;

/* Rows [row0, row1) of the n_head * n_query rows; row (h, i):
 * out[j] = -m_h |q_offset + i - j|, or -inf for a future key. */
static void fill_rows(const void *arg, size_t row0, size_t row1)
{
    const job *jb = arg;
    uint32_t last_h = 0;
    double slope = 0.0;
    for (size_t row = row0; row < row1; row++) {
        uint32_t h = (uint32_t)(row / jb->n_query) + 1;
        int64_t qpos = jb->q_offset + (int64_t)(row % jb->n_query);
        if (h != last_h) {
            slope = posenc__alibi_slope(h, jb->n_head);
            last_h = h;
        }
        float *o = jb->out + row * jb->n_key;
        for (uint32_t j = 0; j < jb->n_key; j++) {
            int64_t dist = qpos - (int64_t)j;
            if (dist < 0 && jb->causal)
                o[j] = -INFINITY;
            else
                o[j] = (float)(-slope * (double)(dist < 0 ? -dist : dist) + 0.0);
        }
    }
}

posenc_status posenc_alibi_bias_f32(uint32_t n_head, uint32_t n_query, uint32_t n_key,
                                    int64_t q_offset, int causal, unsigned n_threads,
                                    float *out)
{
    if (!out)
        return POSENC_ERR_NULL;
    posenc_status st = posenc__bias_check(n_head, n_query, n_key, 1, q_offset, n_threads,
                                          MAX_THREADS);
    if (st != POSENC_OK)
        return st;
    size_t rows = (size_t)n_head * n_query; /* fits: checked */

    job jb = {n_head, n_query, n_key, q_offset, causal, out};
    posenc__parallel_range(rows, n_threads < rows ? n_threads : rows, fill_rows, &jb);
    return POSENC_OK;
}
