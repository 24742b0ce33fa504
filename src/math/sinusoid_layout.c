/* sinusoid_layout.c - the sinusoid as checkpoints lay it out: the order of
 * sines and cosines ([scsc] interleaved, [sscc] sines first, [ccss] cosines
 * first), the frequency rule (the lesson's base^(-2k/D) or fairseq's
 * exp(-k ln(base) / (D/2 - 1))), a position offset (fairseq's
 * padding_idx + 1), signed positions (XLNet's distances), and the float32
 * steps of each family's torch code beside the exact value.
 *
 * Sources (transformers 5.23.0, src/transformers/models/...):
 *   marian/modeling_marian.py L78-91, pegasus/modeling_pegasus.py L80-93,
 *     roformer/modeling_roformer.py L55-68: numpy float64
 *     pos / 10000^(2 (j // 2) / dim), sin of the even columns into the first
 *     ceil(dim/2) places, cos of the odd ones after them, rounded to float
 *     once (torch.FloatTensor).
 *   ctrl/modeling_ctrl.py L45-61: the same frequencies and order, in float32
 *     steps: 1 / torch.pow(10000, (2 (i // 2)) / d), pos * rate.
 *   xlnet/modeling_xlnet.py L928-941: inv_freq = 1 / torch.pow(10000,
 *     arange(0, d, 2).float() / d), [sin | cos]: CTRL's float32 steps.
 *   m2m_100/modeling_m2m_100.py L107-118 (and nllb_moe L90-101, xglm L80-91,
 *     speech_to_text L128-138, kosmos2 L586-597): half = D // 2,
 *     c = math.log(10000) / (half - 1) (double), w = torch.exp(arange(half)
 *     .float() * -c) (float32), pos.float() * w, cat([sin, cos]), a zero
 *     column for odd D; positions from padding_idx + 1 (L162-165).
 *   musicgen/modeling_musicgen.py L129-137: the same, cat([cos, sin]),
 *     positions from 0.
 *   pegasus_x/modeling_pegasus_x.py L113-120: the same frequencies with
 *     max_scale for 10000, [sin | cos], positions from 0 (even D only: odd D
 *     fails its slice assignment).
 */
#include "cpu.h"
#include "internal.h"

/* Frequencies per block (stack: 4 x 1 KiB). */
#define BLOCK 128u

static int order_ok(posenc_sinusoid_order o)
{
    return o == POSENC_SINUSOID_INTERLEAVED || o == POSENC_SINUSOID_SIN_COS ||
           o == POSENC_SINUSOID_COS_SIN;
}

/* Number of frequencies: ceil(D/2) for the lesson's rule, D/2 for fairseq's. */
static uint32_t n_freqs(const posenc_sinusoid_spec *s, uint32_t D)
{
    return s->freqs == POSENC_SINUSOID_FREQ_FAIRSEQ ? D / 2 : (D + 1) / 2;
}

/* Where the sine and the cosine of frequency k go (-1: nowhere). */
static void places(const posenc_sinusoid_spec *s, uint32_t D, uint32_t k, int64_t *is,
                   int64_t *ic)
{
    uint32_t first = n_freqs(s, D); /* length of the first block */
    switch (s->order) {
    case POSENC_SINUSOID_INTERLEAVED:
        *is = 2 * (int64_t)k;
        *ic = 2 * (int64_t)k + 1 < (int64_t)D ? 2 * (int64_t)k + 1 : -1;
        break;
    case POSENC_SINUSOID_SIN_COS:
        *is = k;
        *ic = first + k < D ? (int64_t)(first + k) : -1;
        break;
    default: /* COS_SIN */
        *ic = k;
        *is = first + k < D ? (int64_t)(first + k) : -1;
        break;
    }
    /* fairseq with odd D: F = D/2 frequencies fill columns 0 .. D - 2 in
     * every order; column D - 1 stays 0 (written by fill()). */
}

static posenc_status check(const posenc_sinusoid_spec *s, const int64_t *pos, size_t n_pos,
                           uint32_t D, const void *out)
{
    if (!s || (!pos && n_pos) || (!out && n_pos))
        return POSENC_ERR_NULL;
    if (!order_ok(s->order) || (s->freqs != POSENC_SINUSOID_FREQ_POWER &&
                                s->freqs != POSENC_SINUSOID_FREQ_FAIRSEQ) ||
        (s->arith != POSENC_SINUSOID_ROUND_ONCE && s->arith != POSENC_SINUSOID_TORCH_F32))
        return POSENC_ERR_LAYOUT;
    if (!posenc__dim_ok(D) || (s->freqs == POSENC_SINUSOID_FREQ_FAIRSEQ && D < 4))
        return POSENC_ERR_DIM;
    if (!posenc__base_ok(s->base))
        return POSENC_ERR_BASE;
    if (s->offset < -POSENC_MAX_POS || s->offset > POSENC_MAX_POS)
        return POSENC_ERR_POS;
    for (size_t t = 0; t < n_pos; t++) {
        int64_t p = pos[t] + s->offset; /* both within 2^31: no overflow */
        if (pos[t] < -POSENC_MAX_POS || pos[t] > POSENC_MAX_POS || p < -POSENC_MAX_POS ||
            p > POSENC_MAX_POS)
            return POSENC_ERR_POS;
    }
    if (n_pos && (size_t)D > SIZE_MAX / n_pos)
        return POSENC_ERR_OVERFLOW;
    return POSENC_OK;
}

/* The exact frequencies of the block k0 .. k0 + m - 1 as double-doubles. */
static void exact_freqs(const posenc_sinusoid_spec *s, uint32_t D, uint32_t k0, uint32_t m,
                        posenc__dd logb, double *fh, double *fl)
{
    if (s->freqs == POSENC_SINUSOID_FREQ_POWER) {
        posenc__freq_block(k0, n_freqs(s, D), BLOCK, D, logb, fh, fl);
        return;
    }
    /* w_k = exp(-k ln(base) / (half - 1)) */
    posenc__dd step = posenc__dd_div(logb, posenc__dd_of((double)(D / 2 - 1)));
    for (uint32_t j = 0; j < m; j++) {
        posenc__dd w = posenc__dd_exp(posenc__dd_mul_d(step, -(double)(k0 + j)));
        fh[j] = w.hi;
        fl[j] = w.lo;
    }
}

/* The float32 frequency of the family's torch code (see the top). */
static float torch_freq(const posenc_sinusoid_spec *s, uint32_t D, uint32_t k)
{
    if (s->freqs == POSENC_SINUSOID_FREQ_POWER) {
        /* ctrl L46 / xlnet L941: e = (2k) / d, p = pow(base, e), 1 / p (float) */
        float e = (float)(2.0 * k) / (float)D;
        float p = (float)pow((double)(float)s->base, (double)e);
        return 1.0f / p;
    }
    /* m2m_100 L108-109: c = log(base) / (half - 1) in double; k * -c, exp (float) */
    double c = log(s->base) / (double)(D / 2 - 1);
    float t = (float)k * (float)(-c);
    return (float)exp((double)t);
}

/* One block of frequencies for every position: out is [n_pos, D] (f32 or
 * f64 selected by the pointer that is not NULL). */
static void fill_block(const posenc_sinusoid_spec *s, const int64_t *pos, size_t n_pos,
                       uint32_t D, uint32_t k0, uint32_t m, posenc__dd logb, double *o64,
                       float *o32)
{
    double fh[BLOCK], fl[BLOCK], sv[BLOCK], cv[BLOCK];
    float w32[BLOCK];
    int torch = o32 && s->arith == POSENC_SINUSOID_TORCH_F32;
    if (torch)
        for (uint32_t j = 0; j < m; j++)
            w32[j] = torch_freq(s, D, k0 + j);
    else
        exact_freqs(s, D, k0, m, logb, fh, fl);
    for (size_t t = 0; t < n_pos; t++) {
        int64_t p = pos[t] + s->offset;
        if (torch) {
            float pf = (float)p; /* arange(...).float() */
            for (uint32_t j = 0; j < m; j++) {
                float a = pf * w32[j]; /* one float product */
                sv[j] = (double)(float)sin((double)a);
                cv[j] = (double)(float)cos((double)a);
            }
        } else {
            /* sin(-x) = -sin(x), cos(-x) = cos(x) */
            posenc__cpu()->sincos(p < 0 ? -p : p, fh, fl, m, sv, cv);
            if (p < 0)
                for (uint32_t j = 0; j < m; j++)
                    sv[j] = -sv[j];
        }
        for (uint32_t j = 0; j < m; j++) {
            int64_t is, ic;
            places(s, D, k0 + j, &is, &ic);
            size_t row = t * (size_t)D;
            if (o64) {
                if (is >= 0)
                    o64[row + (size_t)is] = sv[j];
                if (ic >= 0)
                    o64[row + (size_t)ic] = cv[j];
            } else {
                if (is >= 0)
                    o32[row + (size_t)is] = (float)sv[j];
                if (ic >= 0)
                    o32[row + (size_t)ic] = (float)cv[j];
            }
        }
    }
}

static posenc_status fill(const posenc_sinusoid_spec *s, const int64_t *pos, size_t n_pos,
                          uint32_t D, double *o64, float *o32)
{
    posenc_status st = check(s, pos, n_pos, D, o64 ? (const void *)o64 : (const void *)o32);
    /* one of o64, o32 is set when n_pos > 0 (check) */
    if (st != POSENC_OK || n_pos == 0)
        return st;
    /* fairseq's zero column of odd D */
    if (s->freqs == POSENC_SINUSOID_FREQ_FAIRSEQ && D % 2)
        for (size_t t = 0; t < n_pos; t++) {
            if (o64)
                o64[t * (size_t)D + D - 1] = 0.0;
            else
                o32[t * (size_t)D + D - 1] = 0.0f;
        }
    posenc__dd logb = posenc__dd_log(s->base);
    uint32_t nf = n_freqs(s, D);
    for (uint32_t k0 = 0; k0 < nf; k0 += BLOCK) {
        uint32_t m = nf - k0 < BLOCK ? nf - k0 : BLOCK;
        fill_block(s, pos, n_pos, D, k0, m, logb, o64, o32);
    }
    return POSENC_OK;
}

posenc_status posenc_sinusoid_layout_fill_f64(const posenc_sinusoid_spec *spec,
                                              const int64_t *pos, size_t n_pos, uint32_t D,
                                              double *out)
{
    return fill(spec, pos, n_pos, D, out, NULL);
}

posenc_status posenc_sinusoid_layout_fill_f32(const posenc_sinusoid_spec *spec,
                                              const int64_t *pos, size_t n_pos, uint32_t D,
                                              float *out)
{
    return fill(spec, pos, n_pos, D, NULL, out);
}

int posenc_sinusoid_table_grows(const posenc_sinusoid_spec *spec)
{
    return spec && spec->freqs == POSENC_SINUSOID_FREQ_FAIRSEQ &&
           (spec->offset > 0 || spec->order == POSENC_SINUSOID_COS_SIN);
}

posenc_status posenc_sinusoid_family_spec(posenc_sinusoid_family family, int64_t offset,
                                          posenc_sinusoid_spec *spec)
{
    if (!spec)
        return POSENC_ERR_NULL;
    posenc_sinusoid_spec s = {POSENC_SINUSOID_INTERLEAVED, POSENC_SINUSOID_FREQ_POWER,
                              POSENC_SINUSOID_ROUND_ONCE, 10000.0, offset};
    switch (family) {
    case POSENC_SINUSOID_LESSON:
        break;
    case POSENC_SINUSOID_MARIAN:
        s.order = POSENC_SINUSOID_SIN_COS;
        break;
    case POSENC_SINUSOID_CTRL:
        s.order = POSENC_SINUSOID_SIN_COS;
        s.arith = POSENC_SINUSOID_TORCH_F32;
        break;
    case POSENC_SINUSOID_FAIRSEQ:
        s.order = POSENC_SINUSOID_SIN_COS;
        s.freqs = POSENC_SINUSOID_FREQ_FAIRSEQ;
        s.arith = POSENC_SINUSOID_TORCH_F32;
        break;
    case POSENC_SINUSOID_MUSICGEN:
        s.order = POSENC_SINUSOID_COS_SIN;
        s.freqs = POSENC_SINUSOID_FREQ_FAIRSEQ;
        s.arith = POSENC_SINUSOID_TORCH_F32;
        break;
    default:
        return POSENC_ERR_RANGE;
    }
    if (offset < -POSENC_MAX_POS || offset > POSENC_MAX_POS)
        return POSENC_ERR_POS;
    *spec = s;
    return POSENC_OK;
}
