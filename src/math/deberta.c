/* deberta.c - DeBERTa's relative position ids: the plain distance
 * query - key of DeBERTa v1, and DeBERTa-v2/v3's log buckets, with the
 * float32 steps of transformers' code and the exact value beside them.
 *
 * Sources (transformers 5.23.0, src/transformers/models/...):
 *   deberta/modeling_deberta.py L72-97 build_relative_position:
 *     rel_pos_ids = q_ids[:, None] - k_ids[None, :]            (L92-94)
 *   deberta_v2/modeling_deberta_v2.py L71-100 build_relative_position: the
 *     same distance (L92-94), bucketed when bucket_size > 0 and
 *     max_position > 0 (L95-96), then .to(torch.long) (L97).
 *   deberta_v2/modeling_deberta_v2.py L56-68 make_log_bucket_position:
 *     L57 sign = torch.sign(relative_pos)
 *     L58 mid = bucket_size // 2
 *     L59 abs_pos = where(-mid < rel < mid, mid - 1, abs(rel))       (long)
 *     L65 log_pos = ceil(log(abs_pos / mid)
 *                        / log(torch.tensor((max_position - 1) / mid))
 *                        * (mid - 1)) + mid
 *     L67 bucket_pos = where(abs_pos <= mid, rel (as float), log_pos * sign)
 *   Every step of L65 is float32: abs_pos / mid is a true division of a long
 *   tensor, computed on the values converted to float; torch.tensor() of
 *   the Python float (max_position - 1) / mid makes a float32 tensor (the
 *   default dtype), whose float32 log is taken; the quotient, the product by
 *   mid - 1, ceil and + mid are float32 operations. The float32 logs are
 *   taken here as the double log rounded once to float (correctly rounded
 *   but for double-rounding ties, which tests/test_deberta.c looks for).
 */
#include "internal.h"

#include <string.h>

/* (float)log((float)((max_position - 1) / mid)): the divisor of L65. */
static float log_max_of(uint32_t bucket_size, uint32_t max_position)
{
    double mid = (double)(bucket_size / 2);
    float arg = (float)(((double)max_position - 1.0) / mid); /* torch.tensor(float) */
    return (float)log((double)arg);
}

static posenc_status check_params(uint32_t bucket_size, uint32_t max_position)
{
    if (bucket_size < 2 || bucket_size > POSENC_DEBERTA_MAX_BUCKETS)
        return POSENC_ERR_RANGE;
    if (max_position < 2 || max_position > POSENC_MAX_POS)
        return POSENC_ERR_RANGE;
    /* the divisor of L65 must not be 0: max_position - 1 == mid (or its
     * float quotient rounding to 1) would divide by zero */
    if (log_max_of(bucket_size, max_position) == 0.0f)
        return POSENC_ERR_RANGE;
    return POSENC_OK;
}


static int64_t bucket_steps(int64_t rel, uint32_t bucket_size, uint32_t max_position,
                            posenc_deberta_trace *t)
{
    int64_t mid = bucket_size / 2;                                       /* L58 */
    int64_t sign = rel > 0 ? 1 : rel < 0 ? -1 : 0;                       /* L57 */
    int64_t abs_pos = (rel < mid && rel > -mid) ? mid - 1 : (rel < 0 ? -rel : rel); /* L59 */
    float ratio = (float)abs_pos / (float)mid;                           /* L65 */
    float log_ratio = (float)log((double)ratio);                         /* L65 */
    float log_max = log_max_of(bucket_size, max_position);               /* L65 */
    float q = log_ratio / log_max;                                       /* L65 */
    float scaled = q * (float)(mid - 1);                                 /* L65 */
    float log_pos = ceilf(scaled) + (float)mid;                          /* L65 */
    int64_t bucket = abs_pos <= mid ? rel : (int64_t)(log_pos * (float)sign); /* L67, L97 */
    if (t) {
        memset(t, 0, sizeof *t);
        t->relative_position = rel;
        t->mid = (uint32_t)mid;
        t->abs_pos = abs_pos;
        t->is_small = abs_pos <= mid;
        if (!t->is_small) {
            t->ratio = ratio;
            t->log_ratio = log_ratio;
            t->log_max = log_max;
            t->scaled = scaled;
            t->log_pos = log_pos;
            t->exact_scaled = log((double)abs_pos / (double)mid) /
                              log((double)(max_position - 1) / (double)mid) * (double)(mid - 1);
        }
        t->bucket = bucket;
    }
    return bucket;
}

/* One relative position rel and its settings, as the two entry points take them. */
static posenc_status check_rel(int64_t rel, uint32_t bucket_size, uint32_t max_position)
{
    if (rel < -POSENC_MAX_POS || rel > POSENC_MAX_POS)
        return POSENC_ERR_POS;
    return check_params(bucket_size, max_position);
}

posenc_status posenc_deberta_log_bucket(int64_t rel, uint32_t bucket_size, uint32_t max_position,
                                        int64_t *bucket)
{
    if (!bucket)
        return POSENC_ERR_NULL;
    posenc_status st = check_rel(rel, bucket_size, max_position);
    if (st != POSENC_OK)
        return st;
    *bucket = bucket_steps(rel, bucket_size, max_position, NULL);
    return POSENC_OK;
}

posenc_status posenc_deberta_log_bucket_explain(int64_t rel, uint32_t bucket_size,
                                                uint32_t max_position, posenc_deberta_trace *out)
{
    if (!out)
        return POSENC_ERR_NULL;
    posenc_status st = check_rel(rel, bucket_size, max_position);
    if (st != POSENC_OK)
        return st;
    bucket_steps(rel, bucket_size, max_position, out);
    return POSENC_OK;
}

posenc_status posenc_deberta_relative_ids(uint32_t n_query, uint32_t n_key, uint32_t bucket_size,
                                          uint32_t max_position, int64_t *out)
{
    if (!out && n_query && n_key)
        return POSENC_ERR_NULL;
    if ((int64_t)n_query - 1 > POSENC_MAX_POS || (int64_t)n_key - 1 > POSENC_MAX_POS)
        return POSENC_ERR_POS;
    int bucketed = bucket_size > 0 && max_position > 0; /* v2 L95 */
    if (bucketed) {
        posenc_status st = check_params(bucket_size, max_position);
        if (st != POSENC_OK)
            return st;
    }
    if (n_query && (size_t)n_key > SIZE_MAX / n_query)
        return POSENC_ERR_OVERFLOW;
    for (uint32_t i = 0; i < n_query; i++)
        for (uint32_t j = 0; j < n_key; j++) {
            int64_t rel = (int64_t)i - (int64_t)j; /* L94 */
            out[(size_t)i * n_key + j] =
                bucketed ? bucket_steps(rel, bucket_size, max_position, NULL) : rel;
        }
    return POSENC_OK;
}
