/* gguf_golden.c - golden files for ggml engines (posenc_gguf.h, tier 5):
 * the ggml_rope_ext arguments that run a posenc RoPE, the error bound of
 * ggml's float32 angle chain per position, and a GGUF file holding
 * positions, x, the exact y, the bound per token and the op's arguments
 * (rope_freqs.weight included). */
#include "posenc_gguf.h"

#include "internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

posenc_status posenc_gguf_op_from_rope(const posenc_rope_config *c, const posenc_rope *r,
                                       posenc_gguf_op_args *out)
{
    if (!c || !r || !out)
        return POSENC_ERR_NULL;
    if (r->rotary_dim < 2 || r->rotary_dim > POSENC_ROPE_MAX_HEAD_DIM || !(r->base > 1) ||
        (r->layout != POSENC_LAYOUT_INTERLEAVED && r->layout != POSENC_LAYOUT_HALF))
        return POSENC_ERR_RANGE;
    posenc_gguf_op_args a;
    memset(&a, 0, sizeof a);
    const posenc_rope_scaling *s = &c->scaling;
    a.n_dims = (int)r->rotary_dim;
    a.mode = r->layout == POSENC_LAYOUT_INTERLEAVED ? POSENC_GGUF_ROPE_NORM : POSENC_GGUF_ROPE_NEOX;
    a.freq_base = (float)r->base;
    a.freq_scale = 1.0f;
    a.attn_factor = (float)r->attn_factor;
    a.beta_fast = 32.0f;
    a.beta_slow = 1.0f;
    int plain = !s->n_freq_factors && (double)(float)r->base == r->base;
    if (plain && s->type == POSENC_ROPE_LINEAR) {
        a.freq_scale = (float)(1.0 / s->factor);
    } else if (plain && s->type == POSENC_ROPE_YARN && s->truncate) {
        /* llama.cpp's YaRN (ggml-cpu/ops.cpp rope_yarn): ggml multiplies
         * cos and sin by attn_factor * (1 + 0.1 ln(1 / freq_scale)) */
        a.freq_scale = (float)(1.0 / s->factor);
        a.ext_factor = 1.0f;
        a.n_ctx_orig = (int)s->original_max_position_embeddings;
        a.beta_fast = (float)s->beta_fast;
        a.beta_slow = (float)s->beta_slow;
        a.attn_factor = (float)(r->attn_factor / (1.0 + 0.1 * log(s->factor)));
    } else if (!(plain && s->type == POSENC_ROPE_DEFAULT)) {
        /* any other RoPE: the plain frequencies of freq_base divided per pair
         * by freq_factors[k] = base^(-2k/d) / inv_freq[k] (ggml divides the
         * angle by it, ops.cpp ggml_rope_cache_init) */
        for (uint32_t k = 0; k < r->rotary_dim / 2; k++) {
            double f0 = pow((double)a.freq_base, -2.0 * k / r->rotary_dim);
            double f = r->inv_freq_hi[k] + r->inv_freq_lo[k];
            double ff = f0 / f;
            if (!(f > 0) || !isfinite(ff) || ff > 3.0e38)
                return POSENC_ERR_RANGE; /* a pair that does not turn */
            a.freq_factors[k] = (float)ff;
        }
        a.n_freq_factors = r->rotary_dim / 2;
    }
    *out = a;
    return POSENC_OK;
}

double posenc_gguf_f32_tolerance(const posenc_gguf_op_args *op, int64_t pos, double x_max)
{
    if (!op || op->n_dims < 2 || pos < 0 || !(x_max >= 0))
        return NAN;
    const double u = 0x1p-24; /* float32's unit roundoff */
    double n = op->n_dims, lnb = log((double)op->freq_base);
    /* operations on the angle besides the chain: (float)pos, / freq_factor,
     * * freq_scale, YaRN's mix (a product, a sum, a product) */
    double ops = (pos >= (1 << 24) ? 1 : 0) + (op->n_freq_factors ? 1 : 0) +
                 (op->freq_scale != 1.0f ? 1 : 0) + (op->ext_factor != 0.0f ? 3 : 0);
    double worst = 0;
    for (int k = 0; k < op->n_dims / 2; k++) {
        /* the true angle of pair k, an upper bound: the largest of its
         * extrapolated and interpolated frequencies */
        double f = pow((double)op->freq_base, -2.0 * k / n);
        if (op->n_freq_factors)
            f /= op->freq_factors[k];
        double theta = (double)pos * f;
        /* theta_scale = powf(base, -2.0f / n): the exponent rounded (u), the
         * power within 1 ulp (2u); the chain's k products, one rounding each
         * (u); relative error of theta_k at most
         * u (k (3 + (2 / n) ln base) + ops) */
        double rel = u * (k * (3.0 + 2.0 / n * lnb) + ops);
        double d = theta * rel;
        if (d > worst)
            worst = d;
    }
    /* cosf, sinf within 1 ulp (2u), the multiplier's product (u), and
     * y = x0 c - x1 s: two products and a difference (3u), then y itself
     * (u): |dy| <= m (|x0| + |x1|) (dtheta + 7u); twice that for the second
     * order terms and the bound's own roundings */
    double m = fabs((double)op->attn_factor);
    if (op->ext_factor != 0.0f)
        m *= 1.0 + 0.1 * log(1.0 / (double)op->freq_scale);
    return 2.0 * m * 2.0 * x_max * (worst + 7.0 * u);
}

/* ---- the writer ---------------------------------------------------------------------- */

typedef struct wbuf {
    unsigned char *p;
    size_t n, cap;
    int failed;
} wbuf;

static void put(wbuf *b, const void *src, size_t n)
{
    if (b->failed)
        return;
    if (b->n + n > b->cap) {
        size_t c = b->cap ? b->cap : 4096;
        while (c < b->n + n)
            c *= 2;
        unsigned char *q = realloc(b->p, c);
        if (!q) {
            b->failed = 1;
            return;
        }
        b->p = q;
        b->cap = c;
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}
static void put_le(wbuf *b, uint64_t v, int bytes)
{
    unsigned char t[8];
    for (int k = 0; k < bytes; k++)
        t[k] = (unsigned char)(v >> (8 * k));
    put(b, t, (size_t)bytes);
}
static void put_f32(wbuf *b, float f)
{
    uint32_t w;
    memcpy(&w, &f, 4);
    put_le(b, w, 4);
}
static void put_str(wbuf *b, const char *s)
{
    put_le(b, strlen(s), 8);
    put(b, s, strlen(s));
}

typedef struct gfile {
    wbuf kv, ti, data;
    uint64_t n_kv, n_t;
} gfile;

static void kv(gfile *f, const char *key, uint32_t type)
{
    put_str(&f->kv, key);
    put_le(&f->kv, type, 4);
    f->n_kv++;
}
static void kv_i32(gfile *f, const char *key, int32_t v) { kv(f, key, POSENC_GGUF_I32); put_le(&f->kv, (uint32_t)v, 4); }
static void kv_u32(gfile *f, const char *key, uint32_t v) { kv(f, key, POSENC_GGUF_U32); put_le(&f->kv, v, 4); }
static void kv_f32(gfile *f, const char *key, float v) { kv(f, key, POSENC_GGUF_F32); put_f32(&f->kv, v); }
static void kv_str(gfile *f, const char *key, const char *v) { kv(f, key, POSENC_GGUF_STRING); put_str(&f->kv, v); }

/* A tensor of ggml type (0 F32, 26 I32), dims ne[0..nd), its data padded to 32. */
static void tensor_head(gfile *f, const char *name, uint32_t nd, const int64_t *ne, uint32_t type)
{
    put_str(&f->ti, name);
    put_le(&f->ti, nd, 4);
    for (uint32_t d = 0; d < nd; d++)
        put_le(&f->ti, (uint64_t)ne[d], 8);
    put_le(&f->ti, type, 4);
    put_le(&f->ti, f->data.n, 8);
    f->n_t++;
}
static void pad(wbuf *b)
{
    static const unsigned char z[32];
    put(b, z, (32 - b->n % 32) % 32);
}
static void tensor_f32(gfile *f, const char *name, uint32_t nd, const int64_t *ne, const float *v,
                       size_t n)
{
    tensor_head(f, name, nd, ne, 0);
    for (size_t i = 0; i < n; i++)
        put_f32(&f->data, v[i]);
    pad(&f->data);
}

posenc_status posenc_gguf_golden_save(const char *path, const posenc_gguf_golden *gd,
                                      posenc_load_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
    if (!path || !gd || !gd->op || !gd->pos || !gd->x || !gd->y || !gd->tol)
        return POSENC_ERR_NULL;
    if (gd->n_tok == 0 || gd->n_head == 0 || gd->head_dim == 0 ||
        gd->head_dim > POSENC_ROPE_MAX_HEAD_DIM || (uint32_t)gd->op->n_dims > gd->head_dim)
        return posenc__load_fail(err, POSENC_ERR_RANGE, "empty dump, or n_dims %d above "
                                 "head_dim %u", gd->op->n_dims, gd->head_dim);
    for (size_t t = 0; t < gd->n_tok; t++)
        if (gd->pos[t] < 0 || gd->pos[t] > INT32_MAX)
            return posenc__load_fail(err, POSENC_ERR_POS, "position %lld: ggml's positions are "
                                     "int32", (long long)gd->pos[t]);
    gfile f;
    memset(&f, 0, sizeof f);
    const posenc_gguf_op_args *op = gd->op;
    kv_str(&f, "general.architecture", "posenc-golden");
    kv_u32(&f, "posenc.golden.version", 1);
    kv_i32(&f, "posenc.rope.n_dims", op->n_dims);
    kv_i32(&f, "posenc.rope.mode", op->mode);
    kv_i32(&f, "posenc.rope.n_ctx_orig", op->n_ctx_orig);
    kv_f32(&f, "posenc.rope.freq_base", op->freq_base);
    kv_f32(&f, "posenc.rope.freq_scale", op->freq_scale);
    kv_f32(&f, "posenc.rope.ext_factor", op->ext_factor);
    kv_f32(&f, "posenc.rope.attn_factor", op->attn_factor);
    kv_f32(&f, "posenc.rope.beta_fast", op->beta_fast);
    kv_f32(&f, "posenc.rope.beta_slow", op->beta_slow);
    kv_str(&f, "posenc.golden.tol", "|y_engine - y| <= tol[t] for every element of token t: "
                                    "posenc_gguf_f32_tolerance (ggml's float32 angle chain)");
    for (const char *const *m = gd->meta; m && m[0] && m[1]; m += 2)
        kv_str(&f, m[0], m[1]);
    /* ggml order: ne[0] is the fastest dimension */
    int64_t ne_x[3] = {gd->head_dim, gd->n_head, (int64_t)gd->n_tok}, ne_t[1] = {(int64_t)gd->n_tok};
    size_t n = gd->n_tok * gd->n_head * gd->head_dim;
    tensor_head(&f, "pos", 1, ne_t, 26); /* GGML_TYPE_I32 */
    for (size_t t = 0; t < gd->n_tok; t++)
        put_le(&f.data, (uint32_t)gd->pos[t], 4);
    pad(&f.data);
    tensor_f32(&f, "x", 3, ne_x, gd->x, n);
    tensor_f32(&f, "y", 3, ne_x, gd->y, n);
    tensor_f32(&f, "tol", 1, ne_t, gd->tol, gd->n_tok);
    if (op->n_freq_factors) {
        int64_t ne_f[1] = {(int64_t)op->n_freq_factors};
        tensor_f32(&f, "rope_freqs.weight", 1, ne_f, op->freq_factors, op->n_freq_factors);
    }
    wbuf head = {0};
    put(&head, "GGUF", 4);
    put_le(&head, 3, 4);
    put_le(&head, f.n_t, 8);
    put_le(&head, f.n_kv, 8);
    put(&head, f.kv.p, f.kv.n);
    put(&head, f.ti.p, f.ti.n);
    pad(&head);
    posenc_status s = POSENC_OK;
    if (head.failed || f.kv.failed || f.ti.failed || f.data.failed) {
        s = posenc__load_fail(err, POSENC_ERR_NOMEM, "out of memory");
    } else {
        FILE *o = fopen(path, "wb");
        if (!o)
            s = posenc__load_fail(err, POSENC_ERR_IO, "%s: %s", path, strerror(errno));
        else {
            int ok = fwrite(head.p, 1, head.n, o) == head.n &&
                     fwrite(f.data.p, 1, f.data.n, o) == f.data.n;
            if (fclose(o) != 0 || !ok)
                s = posenc__load_fail(err, POSENC_ERR_IO, "%s: write error", path);
        }
    }
    free(head.p);
    free(f.kv.p);
    free(f.ti.p);
    free(f.data.p);
    return s;
}
