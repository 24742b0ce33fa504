/* funnel.c - Funnel Transformer's relative positions (attention_type
 * "relative_shift"): the distances whose sinusoids each block's attention
 * gathers, after the poolings of the blocks before it. The vectors are
 * [sin | cos] of distance * 10000^(-2k/d_model) in float32 steps:
 * 1 / 10000^(k / (d/2)) (modeling_funnel.py L141-149) rounds the same
 * quotient as CTRL's (2k) / d, so they are posenc_sinusoid_layout_fill_f32
 * with POSENC_SINUSOID_CTRL's spec.
 *
 * transformers 5.23.0, src/transformers/models/funnel/modeling_funnel.py:
 *   L152-183 get_position_embeds: pos = 0 .. n - 1; for block b > 0,
 *     pooled = stride_pool_pos(pos, b), the pooling type
 *     relative_pos(pos, 2^(b-1), pooled, shift = 2) (L165-169); then pos =
 *     pooled and the plain type relative_pos(pos, 2^b) (L175-177).
 *   L186-198 stride_pool_pos: separate_cls: [1 - 2^b] + (pos[1:-1] if
 *     truncate_seq else pos[1:])[::2]; else pos[::2].
 *   L200-216 relative_pos: ref_point = pooled[0] - pos[0], max_dist =
 *     ref_point + shift * len(pooled) * stride, min_dist = pooled[0] -
 *     pos[-1], arange(max_dist, min_dist - 1, -stride).
 * Each list of positions is [first] + an arithmetic progression, which is
 * all that relative_pos reads (first element, last element, length). */
#include "internal.h"

typedef struct plist {
    int64_t first;  /* element 0 */
    int64_t a0;     /* element 1 */
    int64_t step;
    int64_t cnt;    /* elements after the first */
} plist;

static int64_t last_of(const plist *p) { return p->cnt ? p->a0 + (p->cnt - 1) * p->step : p->first; }

static plist pool(plist p, uint32_t b, int separate_cls, int truncate_seq)
{
    plist q;
    if (separate_cls) {                             /* L190-196 */
        int64_t c = truncate_seq ? (p.cnt > 0 ? p.cnt - 1 : 0) : p.cnt;
        q.first = 1 - ((int64_t)1 << b);
        q.a0 = p.a0;
        q.step = 2 * p.step;
        q.cnt = (c + 1) / 2;                        /* [::2] of c elements */
    } else {                                        /* L198: [first, a0, ...][::2] */
        q.first = p.first;
        q.a0 = p.a0 + p.step;
        q.step = 2 * p.step;
        q.cnt = (p.cnt + 2) / 2 - 1;                /* ceil((1 + cnt) / 2) - 1 */
    }
    return q;
}

/* relative_pos (L200-216): writes the distances, returns their count. */
static size_t rel(const plist *pos, int64_t stride, const plist *pooled, int64_t shift,
                  int64_t *out, size_t cap, int *short_buf)
{
    int64_t ref_point = pooled->first - pos->first;
    int64_t max_dist = ref_point + shift * (1 + pooled->cnt) * stride;
    int64_t min_dist = pooled->first - last_of(pos);
    /* arange(max_dist, min_dist - 1, -stride) */
    size_t n = max_dist >= min_dist ? (size_t)((max_dist - min_dist) / stride + 1) : 0;
    if (out && cap < n)
        *short_buf = 1;
    else if (out)
        for (size_t i = 0; i < n; i++)
            out[i] = max_dist - (int64_t)i * stride;
    return n;
}

posenc_status posenc_funnel_rel_positions(uint32_t seq_len, uint32_t block, int pooling,
                                          int separate_cls, int truncate_seq, int64_t *out,
                                          size_t cap, size_t *n_out)
{
    if (!n_out)
        return POSENC_ERR_NULL;
    if (seq_len == 0 || seq_len > POSENC_FUNNEL_MAX_LEN)
        return POSENC_ERR_POS;
    if (block > POSENC_FUNNEL_MAX_BLOCKS || (pooling && block == 0))
        return POSENC_ERR_RANGE;
    if (!out && cap)
        return POSENC_ERR_NULL;
    plist pos = {0, 1, 1, (int64_t)seq_len - 1};
    for (uint32_t b = 1; b < block; b++)
        pos = pool(pos, b, separate_cls, truncate_seq);
    int short_buf = 0;
    size_t n;
    if (block == 0) {
        n = rel(&pos, 1, &pos, 1, out, cap, &short_buf);                         /* L175-177 */
    } else {
        plist pooled = pool(pos, block, separate_cls, truncate_seq);             /* L165 */
        if (pooling)
            n = rel(&pos, (int64_t)1 << (block - 1), &pooled, 2, out, cap, &short_buf); /* L168-169 */
        else
            n = rel(&pooled, (int64_t)1 << block, &pooled, 1, out, cap, &short_buf);    /* L175-177 */
    }
    *n_out = n;
    return short_buf ? POSENC_ERR_RANGE : POSENC_OK;
}

/* stride_pool of a list of token positions (L254-281: axis_slice [:-1:2]
 * with separate_cls and truncate_seq, else [::2], after prepending the
 * first element when separate_cls): [p0] + p keeps p0 and then p's elements
 * 1, 3, 5, ...; p[::2] keeps 0, 2, 4, ... */
static plist stride_pool_tokens(plist p, int separate_cls, int truncate_seq)
{
    int64_t total = 1 + p.cnt, kept;
    plist q = p;
    if (separate_cls) {
        kept = truncate_seq ? (total + 1) / 2 : (total + 2) / 2; /* ceil(n/2), ceil((n+1)/2) */
        q.a0 = p.a0;
    } else {
        kept = (total + 1) / 2;
        q.a0 = p.a0 + p.step;
    }
    q.step = 2 * p.step;
    q.cnt = kept - 1;
    return q;
}

posenc_status posenc_funnel_factorized_positions(uint32_t seq_len, uint32_t block,
                                                 int separate_cls, int truncate_seq,
                                                 int64_t *out, size_t cap, size_t *n_out,
                                                 int *pooled)
{
    if (!n_out)
        return POSENC_ERR_NULL;
    if (seq_len == 0 || seq_len > POSENC_FUNNEL_MAX_LEN)
        return POSENC_ERR_POS;
    if (block > POSENC_FUNNEL_MAX_BLOCKS)
        return POSENC_ERR_RANGE;
    if (!out && cap)
        return POSENC_ERR_NULL;
    plist pos = {0, 1, 1, (int64_t)seq_len - 1};
    int all = 1;
    for (uint32_t b = 1; b <= block; b++) {
        if (1 + pos.cnt <= (separate_cls ? 2 : 1)) /* L559: no pooling_flag */
            all = 0;
        pos = stride_pool_tokens(pos, separate_cls, truncate_seq);
    }
    size_t n = (size_t)(1 + pos.cnt);
    *n_out = n;
    if (pooled)
        *pooled = all;
    if (!out)
        return POSENC_OK;
    if (cap < n)
        return POSENC_ERR_RANGE;
    out[0] = pos.first;
    for (size_t i = 1; i < n; i++)
        out[i] = pos.a0 + (int64_t)(i - 1) * pos.step;
    return POSENC_OK;
}
