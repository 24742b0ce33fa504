/* t5.c - T5's relative position buckets: the bucket of a (query, key) pair,
 * its worked trace, and the bias tensor [n_head, n_query, n_key] gathered
 * from a learned table [num_buckets, n_head], filled by one or more threads
 * into the caller's buffer. */
#include "internal.h"
#include "cpu.h"

#include <string.h>

#define MAX_THREADS POSENC__MAX_TASKS

static int params_ok(uint32_t num_buckets, uint32_t max_distance, int bidirectional)
{
    if (num_buckets < 2 || num_buckets > POSENC_T5_MAX_BUCKETS)
        return 0;
    uint32_t nb = bidirectional ? num_buckets / 2 : num_buckets;
    uint32_t max_exact = nb / 2;
    return max_exact >= 1 && max_distance > max_exact && max_distance <= POSENC_MAX_POS;
}

/*
 * The bucket, as Hugging Face transformers computes it:
 * src/transformers/models/t5/modeling_t5.py in zucchini-nlp/transformers at
 * commit e2412028009db217d00017782613bfdf4d52aa1d,
 * T5Attention._relative_position_bucket L188-234 (body L210-234), with
 * relative_position = key - query
 * (compute_bias, L245):
 *
 *   L210 relative_buckets = 0
 *   L211 if bidirectional:
 *   L212     num_buckets //= 2
 *   L213     relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
 *   L214     relative_position = torch.abs(relative_position)
 *   L215 else:
 *   L216     relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
 *   L220 max_exact = num_buckets // 2
 *   L221 is_small = relative_position < max_exact
 *   L224 relative_position_if_large = max_exact + (
 *   L225     torch.log(relative_position.float() / max_exact)
 *   L226     / math.log(max_distance / max_exact)
 *   L227     * (num_buckets - max_exact)
 *   L228 ).to(torch.long)
 *   L229 relative_position_if_large = torch.min(relative_position_if_large,
 *   L230     torch.full_like(relative_position_if_large, num_buckets - 1))
 *   L233 relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
 *
 * mt5/modeling_mt5.py has the identical body. Every step of L225-227 is a
 * float32 operation on a float32 tensor: the distance converted to float,
 * divided by max_exact, the float32 log, divided by the double
 * math.log(max_distance / max_exact) rounded to float, multiplied by
 * (num_buckets - max_exact) as a float; .to(torch.long) truncates toward
 * zero. The log here is the correctly rounded float32 log, computed as the
 * double log rounded once to float (tests/test_t5.c checks it against logl
 * for every argument the tested settings reach).
 */
/* c = (float)log(max_distance / max_exact) (L226), the same for every pair. */
static float log_max_of(uint32_t num_buckets, uint32_t max_distance, int bidirectional)
{
    uint32_t max_exact = (bidirectional ? num_buckets / 2 : num_buckets) / 2;
    return (float)log((double)max_distance / (double)max_exact);
}

static void bucket_steps(int64_t query_pos, int64_t key_pos, uint32_t num_buckets,
                         float log_max, int bidirectional, posenc_t5_trace *t)
{
    memset(t, 0, sizeof *t);
    int64_t rel = key_pos - query_pos;
    uint32_t nb = num_buckets;
    t->relative_position = rel;
    if (bidirectional) {
        nb /= 2;                              /* L212 */
        t->offset = rel > 0 ? nb : 0;         /* L213 */
        t->distance = rel < 0 ? -rel : rel;   /* L214 */
    } else {
        t->distance = rel < 0 ? -rel : 0;     /* L216 */
    }
    t->side_buckets = nb;
    t->max_exact = nb / 2;                    /* L220 */
    if (t->distance < (int64_t)t->max_exact) { /* L221 */
        t->is_small = 1;
        t->bucket = t->offset + (uint32_t)t->distance;
        return;
    }
    float me = (float)t->max_exact;
    t->ratio = (float)t->distance / me;                                          /* L225 */
    t->log_ratio = (float)log((double)t->ratio);                                 /* L225 */
    t->log_max = log_max;                                                        /* L226 */
    float q = t->log_ratio / t->log_max;                                         /* L226 */
    t->scaled = q * (float)(nb - t->max_exact);                                  /* L227 */
    t->truncated = (int64_t)t->max_exact + (int64_t)t->scaled;                   /* L228 */
    t->clamped = t->truncated > (int64_t)nb - 1;                                 /* L229 */
    t->bucket = t->offset + (uint32_t)(t->clamped ? (int64_t)nb - 1 : t->truncated);
}

static posenc_status check_args(int64_t query_pos, int64_t key_pos, uint32_t num_buckets,
                                uint32_t max_distance, int bidirectional)
{
    if (!posenc__pos_ok(query_pos) || !posenc__pos_ok(key_pos))
        return POSENC_ERR_POS;
    if (!params_ok(num_buckets, max_distance, bidirectional))
        return POSENC_ERR_RANGE;
    return POSENC_OK;
}

posenc_status posenc_t5_bucket(int64_t query_pos, int64_t key_pos, uint32_t num_buckets,
                               uint32_t max_distance, int bidirectional, uint32_t *bucket)
{
    if (!bucket)
        return POSENC_ERR_NULL;
    posenc_status s = check_args(query_pos, key_pos, num_buckets, max_distance, bidirectional);
    if (s != POSENC_OK)
        return s;
    posenc_t5_trace t;
    bucket_steps(query_pos, key_pos, num_buckets,
                 log_max_of(num_buckets, max_distance, bidirectional), bidirectional, &t);
    *bucket = t.bucket;
    return POSENC_OK;
}

posenc_status posenc_t5_bucket_explain(int64_t query_pos, int64_t key_pos, uint32_t num_buckets,
                                       uint32_t max_distance, int bidirectional,
                                       posenc_t5_trace *out)
{
    if (!out)
        return POSENC_ERR_NULL;
    posenc_status s = check_args(query_pos, key_pos, num_buckets, max_distance, bidirectional);
    if (s != POSENC_OK)
        return s;
    bucket_steps(query_pos, key_pos, num_buckets,
                 log_max_of(num_buckets, max_distance, bidirectional), bidirectional, out);
    if (!out->is_small)
        out->exact_value = log((double)out->distance / (double)out->max_exact) /
                           log((double)max_distance / (double)out->max_exact) *
                           (double)(out->side_buckets - out->max_exact);
    return POSENC_OK;
}

/* ---- the bias tensor ------------------------------------------------------ */

/* Keys per chunk: the buckets of one query row are computed once per chunk
 * and shared by every head. */
#define KEY_CHUNK 1024u

typedef struct job {
    const float *table; /* [num_buckets, n_head] */
    uint32_t num_buckets, n_head, n_query, n_key;
    float log_max;      /* log_max_of(num_buckets, max_distance, bidirectional) */
    int bidirectional;
    int64_t q_offset;
    float *out;         /* [n_head, n_query, n_key] */
} job;

/* Queries [q0, q1): out[h][i][j] = table[bucket(q_offset + i, j)][h]. */
static void fill_queries(const void *arg, size_t q0, size_t q1)
{
    const job *jb = arg;
    uint32_t bk[KEY_CHUNK];
    size_t plane = (size_t)jb->n_query * jb->n_key;
    for (size_t i = q0; i < q1; i++) {
        int64_t qpos = jb->q_offset + (int64_t)i;
        for (uint32_t j0 = 0; j0 < jb->n_key; j0 += KEY_CHUNK) {
            uint32_t m = jb->n_key - j0 < KEY_CHUNK ? jb->n_key - j0 : KEY_CHUNK;
            for (uint32_t jj = 0; jj < m; jj++) {
                posenc_t5_trace t;
                bucket_steps(qpos, (int64_t)j0 + jj, jb->num_buckets, jb->log_max,
                             jb->bidirectional, &t);
                bk[jj] = t.bucket;
            }
            for (uint32_t h = 0; h < jb->n_head; h++) {
                float *o = jb->out + h * plane + (size_t)i * jb->n_key + j0;
                for (uint32_t jj = 0; jj < m; jj++)
                    o[jj] = jb->table[(size_t)bk[jj] * jb->n_head + h];
            }
        }
    }
}

posenc_status posenc_t5_bias_f32(const float *table, uint32_t num_buckets, uint32_t n_head,
                                 uint32_t max_distance, int bidirectional, uint32_t n_query,
                                 uint32_t n_key, int64_t q_offset, unsigned n_threads,
                                 float *out)
{
    if (!table || !out)
        return POSENC_ERR_NULL;
    posenc_status st =
        posenc__bias_check(n_head, n_query, n_key, params_ok(num_buckets, max_distance, bidirectional),
                           q_offset, n_threads, MAX_THREADS);
    if (st != POSENC_OK)
        return st;
    job proto = {table, num_buckets, n_head, n_query, n_key,
                 log_max_of(num_buckets, max_distance, bidirectional != 0), bidirectional != 0,
                 q_offset, out};
    posenc__parallel_range(n_query, n_threads < n_query ? n_threads : n_query, fill_queries, &proto);
    return POSENC_OK;
}
