/* mrope.c - multimodal RoPE (M-RoPE: Qwen2-VL, Qwen2.5-VL, Qwen3-VL) and
 * the vision tower's 2D RoPE, the math: the pair-to-axis rules
 * (posenc_mrope_init, which the config reader and the model layer call),
 * the single-vector references, the position-id rule, and 2D RoPE as M-RoPE
 * with restarting frequencies (contract in posenc.h, last section). The
 * q/k tensor kernel is src/tensor/mrope_qk.c. */
#include "cpu.h"
#include "internal.h"

#include <string.h>

/* ---- names and the pair-to-axis rules ------------------------------------- */

const char *posenc_mrope_axis_name(posenc_mrope_axis axis)
{
    static const char *const names[3] = {"t", "h", "w"};
    return (unsigned)axis < 3u ? names[axis] : "unknown";
}

const char *posenc_mrope_rule_name(posenc_mrope_rule rule)
{
    if (rule == POSENC_MROPE_CONTIGUOUS)
        return "contiguous";
    if (rule == POSENC_MROPE_INTERLEAVED)
        return "interleaved";
    if (rule == POSENC_MROPE_HW_ALTERNATING)
        return "hw-alternating";
    return "unknown";
}

posenc_status posenc_mrope_init(posenc_mrope *m, uint32_t n_pairs, const uint32_t section[3],
                                posenc_mrope_rule rule)
{
    if (!m || !section)
        return POSENC_ERR_NULL;
    if (n_pairs < 1 || n_pairs > POSENC_ROPE_MAX_HEAD_DIM / 2)
        return POSENC_ERR_DIM;
    if (rule != POSENC_MROPE_CONTIGUOUS && rule != POSENC_MROPE_INTERLEAVED &&
        rule != POSENC_MROPE_HW_ALTERNATING)
        return POSENC_ERR_RANGE;
    if (rule == POSENC_MROPE_HW_ALTERNATING && section[1] != section[2])
        return POSENC_ERR_RANGE; /* torch.stack([freq_h, freq_w]) needs equal sizes */
    if ((uint64_t)section[0] + section[1] + section[2] != n_pairs)
        return POSENC_ERR_RANGE;
    uint8_t axis[POSENC_ROPE_MAX_HEAD_DIM / 2];
    uint32_t count[3] = {0, 0, 0};
    for (uint32_t k = 0; k < n_pairs; k++) {
        uint8_t a;
        if (rule == POSENC_MROPE_CONTIGUOUS) {
            /* cos.split(mrope_section * 2): chunk i from axis i % 3, the
             * same blocks in both halves */
            a = k < section[0]                ? POSENC_MROPE_AXIS_T
                : k < section[0] + section[1] ? POSENC_MROPE_AXIS_H
                                              : POSENC_MROPE_AXIS_W;
        } else if (rule == POSENC_MROPE_HW_ALTERNATING) {
            /* ERNIE 4.5 VL's recomposition_frequencies: stack([h, w]).flatten()
             * over the first 2 s_h pairs, t after them (NeoMME: s_t = 0) */
            a = k >= 2 * (uint64_t)section[1] ? POSENC_MROPE_AXIS_T
                : k % 2 == 0                  ? POSENC_MROPE_AXIS_H
                                              : POSENC_MROPE_AXIS_W;
        } else {
            /* apply_interleaved_mrope: freqs_t[..., offset:3*section[dim]:3]
             * = freqs[dim], offset 1 for h, 2 for w; t elsewhere */
            a = k % 3 == 1 && k < 3 * (uint64_t)section[1]   ? POSENC_MROPE_AXIS_H
                : k % 3 == 2 && k < 3 * (uint64_t)section[2] ? POSENC_MROPE_AXIS_W
                                                             : POSENC_MROPE_AXIS_T;
        }
        axis[k] = a;
        count[a]++;
    }
    for (int a = 0; a < 3; a++)
        if (count[a] != section[a])
            return POSENC_ERR_RANGE; /* a section the interleaved rule cannot make */
    memset(m, 0, sizeof *m);
    m->n_pairs = n_pairs;
    memcpy(m->section, section, sizeof m->section);
    m->rule = rule;
    memcpy(m->axis, axis, n_pairs);
    return POSENC_OK;
}

posenc_status posenc__mrope_check(const posenc_mrope *m, const posenc_rope *r)
{
    if (m->n_pairs != r->rotary_dim / 2)
        return POSENC_ERR_RANGE;
    uint32_t count[3] = {0, 0, 0};
    for (uint32_t k = 0; k < m->n_pairs; k++) {
        if (m->axis[k] > 2)
            return POSENC_ERR_RANGE;
        count[m->axis[k]]++;
    }
    for (int a = 0; a < 3; a++)
        if (count[a] != m->section[a])
            return POSENC_ERR_RANGE;
    return POSENC_OK;
}

/* The argument check of the single-vector references, in this order:
 * POSENC_ERR_NULL, posenc__rope_check's, posenc__mrope_check's, the
 * direction (POSENC_ERR_RANGE), the positions (POSENC_ERR_POS), x's
 * head_dim values (float when f32, else double) finite. */
static posenc_status check_vec(const posenc_rope *r, const posenc_mrope *m, const int64_t p[3],
                               posenc_direction dir, const void *x, int f32)
{
    if (!r || !m || !x)
        return POSENC_ERR_NULL;
    posenc_status st = posenc__rope_check(r);
    if (st != POSENC_OK)
        return st;
    if ((st = posenc__mrope_check(m, r)) != POSENC_OK)
        return st;
    if (!posenc__direction_ok(dir))
        return POSENC_ERR_RANGE;
    for (int a = 0; a < 3; a++)
        if (!posenc__pos_ok(p[a]))
            return POSENC_ERR_POS;
    if (!posenc__all_finite(x, r->head_dim, f32))
        return POSENC_ERR_NOT_FINITE;
    return POSENC_OK;
}

/* ---- the single-vector references -------------------------------------------- */

/* Both references: pair k turned by the angle of its axis m->axis[k]; the
 * double path with the exact sin, cos of every pair at each axis' position
 * times attn_factor, the float one with the fill's rows (attn_factor
 * applied), as every float path takes them. */
static posenc_status vec(const posenc_rope *r, const posenc_mrope *m, const int64_t p[3],
                         posenc_direction dir, void *x, int f32)
{
    posenc_status st = check_vec(r, m, p, dir, x, f32);
    if (st != POSENC_OK)
        return st;
    int inverse = dir == POSENC_INVERSE;
    size_t P = r->rotary_dim / 2;
    double s[3][POSENC_ROPE_MAX_HEAD_DIM / 2], c[3][POSENC_ROPE_MAX_HEAD_DIM / 2];
    float cs[3][POSENC_ROPE_MAX_HEAD_DIM]; /* per axis: c[0..P) then s[0..P) */
    for (int a = 0; a < 3; a++)
        if (f32)
            posenc__sincos_table_f32(p[a], 1, r->inv_freq_hi, r->inv_freq_lo, P, r->attn_factor,
                                     cs[a], cs[a] + P, 2 * P);
        else
            posenc__cpu()->sincos(p[a], r->inv_freq_hi, r->inv_freq_lo, P, s[a], c[a]);
    for (size_t k = 0; k < P; k++) {
        int a = m->axis[k];
        size_t i0, i1;
        posenc__pair_elems(r->layout, P, k, &i0, &i1);
        if (f32) {
            float sk = cs[a][P + k], ck = cs[a][k];
            posenc__rotate_f32((float *)x + i0, (float *)x + i1, inverse ? -sk : sk, ck);
        } else {
            double sk = r->attn_factor * s[a][k], ck = r->attn_factor * c[a][k];
            posenc__rotate_f64((double *)x + i0, (double *)x + i1, inverse ? -sk : sk, ck);
        }
    }
    return POSENC_OK;
}

posenc_status posenc_mrope_vec_f64(const posenc_rope *r, const posenc_mrope *m, int64_t pt,
                                   int64_t ph, int64_t pw, posenc_direction dir, double *x)
{
    return vec(r, m, (const int64_t[3]){pt, ph, pw}, dir, x, 0);
}

posenc_status posenc_mrope_vec_f32(const posenc_rope *r, const posenc_mrope *m, int64_t pt,
                                   int64_t ph, int64_t pw, posenc_direction dir, float *x)
{
    return vec(r, m, (const int64_t[3]){pt, ph, pw}, dir, x, 1);
}

posenc_status posenc_mrope_vec_dot_f64(const posenc_rope *r, const posenc_mrope *m,
                                       const int64_t m_pos[3], const int64_t n_pos[3],
                                       const double *q, const double *k, double *out)
{
    if (!r || !m || !m_pos || !n_pos || !q || !k || !out)
        return POSENC_ERR_NULL;
    posenc_status st = posenc__rope_check(r);
    if (st != POSENC_OK)
        return st;
    double a[POSENC_ROPE_MAX_HEAD_DIM], b[POSENC_ROPE_MAX_HEAD_DIM];
    memcpy(a, q, r->head_dim * sizeof(double));
    memcpy(b, k, r->head_dim * sizeof(double));
    if ((st = posenc_mrope_vec_f64(r, m, m_pos[0], m_pos[1], m_pos[2], POSENC_FORWARD, a)) !=
            POSENC_OK ||
        (st = posenc_mrope_vec_f64(r, m, n_pos[0], n_pos[1], n_pos[2], POSENC_FORWARD, b)) !=
            POSENC_OK)
        return st;
    double sum = 0.0;
    for (uint32_t i = 0; i < r->head_dim; i++)
        sum += a[i] * b[i];
    *out = sum;
    return POSENC_OK;
}

/* ---- position ids ------------------------------------------------------------------ */

/* Largest merge size accepted (Qwen's is 2). */
#define MAX_MERGE 64u

/* Segment s's token count and its largest position offset above st (in
 * *span: the next segment starts at st + span + 1), or an error. */
static posenc_status segment_shape(const posenc_mrope_segment *s, uint32_t merge,
                                   uint32_t tokens_per_second, uint64_t *n_tok, int64_t *step,
                                   int64_t *span)
{
    if (s->kind == POSENC_MROPE_KIND_TEXT) {
        if (s->n < 1)
            return POSENC_ERR_RANGE;
        *n_tok = s->n;
        *step = 1;
        *span = (int64_t)s->n - 1;
        return POSENC_OK;
    }
    if (s->kind != POSENC_MROPE_KIND_IMAGE && s->kind != POSENC_MROPE_KIND_VIDEO)
        return POSENC_ERR_RANGE;
    if (s->t < 1 || s->h < 1 || s->w < 1 || s->h % merge || s->w % merge)
        return POSENC_ERR_RANGE;
    if (!isfinite(s->seconds_per_grid) || s->seconds_per_grid < 0)
        return POSENC_ERR_RANGE;
    uint64_t gh = s->h / merge, gw = s->w / merge;
    if (gh * gw > UINT64_MAX / s->t) /* gh * gw < 2^64 (two values < 2^32) */
        return POSENC_ERR_OVERFLOW;
    *n_tok = (uint64_t)s->t * gh * gw;
    if (tokens_per_second == 0) {
        *step = 1; /* Qwen2-VL: temporal index ti */
    } else if (s->kind == POSENC_MROPE_KIND_IMAGE) {
        *step = 0; /* Qwen2.5-VL: an image's second_per_grid_t is 0 */
    } else {
        double secs = trunc(s->seconds_per_grid); /* int(second_per_grid_t) */
        if (secs > (double)POSENC_MAX_POS / tokens_per_second)
            return POSENC_ERR_POS;
        *step = (int64_t)tokens_per_second * (int64_t)secs;
    }
    int64_t span_t = 0;
    if (*step && (uint64_t)(s->t - 1) > (uint64_t)(POSENC_MAX_POS / *step))
        return POSENC_ERR_POS;
    span_t = (int64_t)(s->t - 1) * *step;
    int64_t span_s = (int64_t)(gh > gw ? gh : gw) - 1;
    *span = span_t > span_s ? span_t : span_s;
    return POSENC_OK;
}

posenc_status posenc_mrope_positions(const posenc_mrope_segment *seg, size_t n_seg,
                                     uint32_t merge, uint32_t tokens_per_second,
                                     int64_t *pos_t, int64_t *pos_h, int64_t *pos_w,
                                     size_t capacity, size_t *n_tok)
{
    if (!seg || !n_tok)
        return POSENC_ERR_NULL;
    int rows = (pos_t != NULL) + (pos_h != NULL) + (pos_w != NULL);
    if (rows != 0 && rows != 3)
        return POSENC_ERR_NULL;
    if (n_seg < 1 || merge < 1 || merge > MAX_MERGE)
        return POSENC_ERR_RANGE;
    /* pass 1: check everything, count the tokens */
    uint64_t total = 0;
    int64_t st = 0; /* start of the next segment */
    for (size_t i = 0; i < n_seg; i++) {
        uint64_t n;
        int64_t step, span;
        posenc_status e = segment_shape(&seg[i], merge, tokens_per_second, &n, &step, &span);
        if (e != POSENC_OK)
            return e;
        if (st > POSENC_MAX_POS - span)
            return POSENC_ERR_POS;
        if (n > (uint64_t)SIZE_MAX - total)
            return POSENC_ERR_OVERFLOW;
        total += n;
        st += span + 1;
    }
    *n_tok = (size_t)total;
    if (!rows)
        return POSENC_OK;
    if (capacity < total)
        return POSENC_ERR_RANGE;
    /* pass 2: write */
    size_t o = 0;
    st = 0;
    for (size_t i = 0; i < n_seg; i++) {
        const posenc_mrope_segment *s = &seg[i];
        uint64_t n;
        int64_t step, span;
        (void)segment_shape(s, merge, tokens_per_second, &n, &step, &span); /* checked */
        if (s->kind == POSENC_MROPE_KIND_TEXT) {
            for (uint32_t k = 0; k < s->n; k++, o++)
                pos_t[o] = pos_h[o] = pos_w[o] = st + k;
        } else {
            uint32_t gh = s->h / merge, gw = s->w / merge;
            for (uint32_t ti = 0; ti < s->t; ti++)
                for (uint32_t hi = 0; hi < gh; hi++)
                    for (uint32_t wi = 0; wi < gw; wi++, o++) {
                        pos_t[o] = st + (int64_t)ti * step;
                        pos_h[o] = st + hi;
                        pos_w[o] = st + wi;
                    }
        }
        st += span + 1;
    }
    return POSENC_OK;
}

/* ---- vision 2D RoPE ---------------------------------------------------------------- */

posenc_status posenc_rope2d_init(posenc_rope *r, posenc_mrope *m, uint32_t head_dim,
                                 double base, posenc_layout layout)
{
    if (!r || !m)
        return POSENC_ERR_NULL;
    if (head_dim < 4 || head_dim > POSENC_ROPE_MAX_HEAD_DIM || head_dim % 4)
        return POSENC_ERR_DIM;
    /* plain RoPE over the whole head (attention factor 1; its checks left:
     * POSENC_ERR_BASE, then POSENC_ERR_LAYOUT, with nothing written), then
     * the frequencies of VisionRotaryEmbedding(dim = D/2): inv_freq[j] =
     * base^(-2j/(D/2)), j < D/4, used by the row (pairs 0 .. D/4-1) and
     * again by the column */
    posenc_status st = posenc_rope_init(r, head_dim, head_dim, base, layout);
    if (st != POSENC_OK)
        return st;
    uint32_t q = head_dim / 4; /* pairs per axis */
    const uint32_t section[3] = {0, q, q};
    if ((st = posenc_mrope_init(m, 2 * q, section, POSENC_MROPE_CONTIGUOUS)) != POSENC_OK)
        return st; /* not reached: the arguments are valid */
    posenc__inv_freqs_dd(0, q, head_dim / 2, base, r->inv_freq_hi, r->inv_freq_lo);
    memcpy(r->inv_freq_hi + q, r->inv_freq_hi, q * sizeof(double));
    memcpy(r->inv_freq_lo + q, r->inv_freq_lo, q * sizeof(double));
    return POSENC_OK;
}

posenc_status posenc_rope2d_vec_f64(const posenc_rope *r, const posenc_mrope *m, int64_t row,
                                    int64_t col, posenc_direction dir, double *x)
{
    return posenc_mrope_vec_f64(r, m, row, row, col, dir, x);
}

posenc_status posenc_rope2d_vec_f32(const posenc_rope *r, const posenc_mrope *m, int64_t row,
                                    int64_t col, posenc_direction dir, float *x)
{
    return posenc_mrope_vec_f32(r, m, row, row, col, dir, x);
}

posenc_status posenc_vision_patch_positions(uint32_t t, uint32_t h, uint32_t w, uint32_t merge,
                                            int64_t *rows, int64_t *cols)
{
    if (!rows || !cols)
        return POSENC_ERR_NULL;
    if (t < 1 || h < 1 || w < 1 || merge < 1 || merge > MAX_MERGE || h % merge || w % merge)
        return POSENC_ERR_RANGE;
    uint64_t per = (uint64_t)h * w;
    if (per > SIZE_MAX / t)
        return POSENC_ERR_OVERFLOW;
    /* hpos.reshape(h/m, m, w/m, m).permute(0, 2, 1, 3).flatten(), and wpos
     * likewise, repeated t times */
    size_t o = 0;
    for (uint32_t ti = 0; ti < t; ti++)
        for (uint32_t bh = 0; bh < h / merge; bh++)
            for (uint32_t bw = 0; bw < w / merge; bw++)
                for (uint32_t ih = 0; ih < merge; ih++)
                    for (uint32_t iw = 0; iw < merge; iw++, o++) {
                        rows[o] = (int64_t)bh * merge + ih;
                        cols[o] = (int64_t)bw * merge + iw;
                    }
    return POSENC_OK;
}
