/* test_check_engines.c - posenc_check_run_engine on dumps made here, at run
 * time, by reproductions of real engines' published float32 arithmetic:
 *
 *   ggml    ggml's CPU ggml_rope_ext (ggml-cpu/ops.cpp: ggml_rope_cache_init,
 *           rope_yarn, rope_yarn_ramp, rotate_pairs; ggml.c:
 *           ggml_rope_yarn_corr_dims; llama-cpp-python 0.3.36's vendored
 *           llama.cpp) with the arguments llama.cpp derives (llama-context.cpp
 *           for YaRN's attn_factor, conversion/llama.py for Llama 3's
 *           rope_freqs), written below from those rules, independently of
 *           src/check/engines.c, and checked against values derived by hand
 *           and in double;
 *   hf      transformers' eager float32: inv_freq = 1 / powf(base, fl(2k/d)),
 *           theta = fl(inv_freq * pos), cosf/sinf, x*cos - rot(x)*sin in float;
 *           and with inv_freq in bf16 (model.to(torch.bfloat16));
 *   cache   the same angles in a float32 table (vLLM's _compute_cos_sin_cache),
 *           or that table rounded to bf16;
 *   exact   angles in double (for the compound structural causes).
 * Each model is run unmodified and with each planted bug; the verdict and the
 * first cause are asserted. */
#include "check.h"

#include "posenc_check.h"

#include <stdlib.h>

static const char *FILE_ = "check_engines";

/* ---- rounding --------------------------------------------------------------------- */

static float round_to(double v, posenc_dtype d)
{
    if (v == 0 || d == POSENC_DTYPE_F32)
        return (float)v;
    int bits = d == POSENC_DTYPE_F16 ? 11 : 8, emin = d == POSENC_DTYPE_F16 ? -14 : -126;
    int e = ilogb(v), q = (e < emin ? emin : e) - (bits - 1);
    return (float)ldexp(nearbyint(ldexp(v, -q)), q);
}

/* ---- ggml's rope, reproduced ---------------------------------------------------------- */

/* The op's arguments (ggml_rope_ext). */
typedef struct gop {
    int n_dims, neox;
    float base, freq_scale, ext_factor, attn_factor, beta_fast, beta_slow;
    int n_ctx_orig;
    const float *ff;       /* freq_factors, or NULL */
} gop;

/* n_dims * logf(n_ctx_orig / (beta * 2 * pi)) / (2 * logf(base)), float32 (ggml.c:4478). */
static float g_corr(const gop *g, float beta)
{
    float twopi_beta = beta * 2 * (float)3.14159265358979323846;
    return (float)g->n_dims * logf((float)g->n_ctx_orig / twopi_beta) / (2 * logf(g->base));
}

/* The cos/sin cache of position p: cs[k], sn[k] for pair k. */
static void g_cache(const gop *g, int64_t p, float *cs, float *sn)
{
    float theta_scale = powf(g->base, -2.0f / (float)g->n_dims);
    float lo = floorf(g_corr(g, g->beta_fast)), hi = ceilf(g_corr(g, g->beta_slow));
    lo = lo < 0 ? 0 : lo;
    hi = hi > (float)(g->n_dims - 1) ? (float)(g->n_dims - 1) : hi;
    float theta = (float)p;
    for (int i0 = 0; i0 < g->n_dims; i0 += 2) {
        float ff = g->ff ? g->ff[i0 / 2] : 1.0f;
        float extrap = theta / ff, interp = g->freq_scale * extrap, th = interp;
        float mscale = g->attn_factor;
        if (g->ext_factor != 0.0f) {
            float span = hi - lo;
            if (span < 0.001f)
                span = 0.001f;
            float y = ((float)(i0 / 2) - lo) / span;
            float ramp = 1 - (y < 0 ? 0 : y > 1 ? 1 : y);
            float mix = ramp * g->ext_factor;
            float one_minus = 1 - mix;
            float a = interp * one_minus;
            float b = extrap * mix;
            th = a + b;
            mscale *= 1.0f + 0.1f * logf(1.0f / g->freq_scale);
        }
        cs[i0 / 2] = cosf(th) * mscale;
        sn[i0 / 2] = sinf(th) * mscale;
        theta *= theta_scale;
    }
}

/* ---- the dumps ---------------------------------------------------------------------- */

typedef enum { E_GGML, E_HF, E_EXACT } kind;

typedef struct eng {
    kind k;
    gop g;                 /* E_GGML */
    int neox;              /* E_HF, E_EXACT: half layout */
    uint32_t rd;           /* rotary dim */
    float base;            /* E_HF */
    int inv_bf16, cs_bf16; /* E_HF: inv_freq in bf16; table rounded to bf16 */
    posenc_rope rope;      /* E_EXACT */
    int64_t offset;        /* positions + offset */
} eng;

typedef struct dump {
    size_t n_tok;
    uint32_t n_head, hd;
    int64_t *pos;
    float *x, *y;
    posenc_dtype dt;
} dump;

static uint64_t rng = 99;
static double urand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-52 - 1.0;
}

/* cos/sin of pair k at position p. */
static void tables(const eng *e, int64_t p, float *cs, float *sn)
{
    uint32_t P = e->rd / 2;
    if (e->k == E_GGML) {
        g_cache(&e->g, p, cs, sn);
        return;
    }
    for (uint32_t k = 0; k < P; k++) {
        if (e->k == E_EXACT) {
            double th = (double)p * (e->rope.inv_freq_hi[k] + e->rope.inv_freq_lo[k]);
            cs[k] = (float)(e->rope.attn_factor * cos(th));
            sn[k] = (float)(e->rope.attn_factor * sin(th));
            continue;
        }
        float inv = 1.0f / powf(e->base, (float)(2 * k) / (float)e->rd);
        if (e->inv_bf16)
            inv = round_to(inv, POSENC_DTYPE_BF16);
        float th = inv * (float)p;
        cs[k] = cosf(th);
        sn[k] = sinf(th);
        if (e->cs_bf16) {
            cs[k] = round_to(cs[k], POSENC_DTYPE_BF16);
            sn[k] = round_to(sn[k], POSENC_DTYPE_BF16);
        }
    }
}

static void make_dump(dump *d, const eng *e, uint32_t hd, size_t n_tok, uint32_t n_head,
                      int64_t max, posenc_dtype dt)
{
    d->n_tok = n_tok;
    d->n_head = n_head;
    d->hd = hd;
    d->dt = dt;
    d->pos = malloc(n_tok * sizeof *d->pos);
    for (size_t i = 0; i < n_tok; i++)
        d->pos[i] = i < 16 ? (int64_t)i
                           : (int64_t)(16 + (double)(max - 16) * (double)(i - 16) / (double)(n_tok - 17));
    size_t n = n_tok * n_head * hd;
    d->x = malloc(n * sizeof *d->x);
    d->y = malloc(n * sizeof *d->y);
    for (size_t i = 0; i < n; i++)
        d->x[i] = round_to(urand(), dt);
    uint32_t P = e->rd / 2;
    int neox = e->k == E_GGML ? e->g.neox : e->neox;
    float cs[256], sn[256];
    for (size_t t = 0; t < n_tok; t++) {
        tables(e, d->pos[t] + e->offset, cs, sn);
        for (uint32_t h = 0; h < n_head; h++) {
            const float *x = d->x + (t * n_head + h) * hd;
            float *y = d->y + (t * n_head + h) * hd;
            for (uint32_t i = 0; i < hd; i++)
                y[i] = x[i];
            for (uint32_t k = 0; k < P; k++) {
                uint32_t i0 = neox ? k : 2 * k, i1 = neox ? k + P : 2 * k + 1;
                float x0 = x[i0], x1 = x[i1];
                float a = x0 * cs[k], b = x1 * sn[k], c = x0 * sn[k], dd = x1 * cs[k];
                y[i0] = round_to(a - b, dt);
                y[i1] = round_to(c + dd, dt);
            }
        }
    }
}

static void free_dump(dump *d)
{
    free(d->pos);
    free(d->x);
    free(d->y);
}

static posenc_check_result res_;

static posenc_status run(const posenc_rope_config *c, const dump *d, posenc_check_engine en)
{
    posenc_check_input in = {.dtype = d->dt, .n_tok = d->n_tok, .n_head = d->n_head,
                             .head_dim = d->hd, .pos = d->pos, .x = d->x, .y = d->y};
    return posenc_check_run_engine(c, &in, 0, 0, en, &res_);
}

static void show(const char *what)
{
    char buf[2048];
    posenc_check_cause_lines(&res_, buf, sizeof buf);
    fprintf(stderr, "%s: match %d max_ulp %g\n%s", what, res_.match, res_.max_ulp, buf);
}

/* The dump of e checked under engine en: match, or mismatch with cause
 * first (params starting with params; NULL: any) and, when model is not
 * NULL, a later cause of the same group saying model=. */
static int expect(const char *what, const posenc_rope_config *c, const eng *e, posenc_dtype dt,
                  posenc_check_engine en, int match, posenc_check_cause_id cause,
                  const char *params, const char *model)
{
    dump d;
    make_dump(&d, e, c->head_dim, 48, 3, 1000000, dt);
    posenc_status s = run(c, &d, en);
    free_dump(&d);
    int ok = s == POSENC_OK && res_.match == match;
    if (getenv("POSENC_TEST_SHOW"))
        show(what);
    if (ok && !match) {
        ok = res_.n_cause >= 1 && res_.cause[0].cause == cause && res_.cause[0].group == 0 &&
             (!params || strncmp(res_.cause[0].params, params, strlen(params)) == 0);
        if (ok && model) {
            int seen = 0;
            for (size_t i = 0; i < res_.n_cause && res_.cause[i].group == 0; i++)
                seen |= strstr(res_.cause[i].params, model) != NULL;
            ok = seen;
        }
    }
    if (!ok) {
        fprintf(stderr, "[%s dtype %d engine %s] status %d ", what, (int)dt,
                posenc_check_engine_name(en), (int)s);
        show("got");
    }
    return ok;
}

/* ---- the models, as llama.cpp and transformers run them -------------------------------- */

static void config(posenc_rope_config *c, uint32_t hd, double base, posenc_layout l,
                   posenc_rope_type t)
{
    memset(c, 0, sizeof *c);
    c->head_dim = hd;
    c->rotary_dim = hd;
    c->base = base;
    c->layout = l;
    CHECK(posenc_rope_scaling_init(&c->scaling, t) == POSENC_OK);
}

/* Llama 3.1's rope_freqs as llama.cpp's converter writes them, float32. */
static void llama31_freqs(float *ff)
{
    for (int k = 0; k < 64; k++) {
        float freq = 1.0f / powf(500000.0f, (float)(2 * k) / 128.0f);
        float wavelen = (float)(2 * 3.14159265358979323846) / freq;
        if (wavelen < 8192.0f / 4.0f)
            ff[k] = 1;
        else if (wavelen > 8192.0f)
            ff[k] = 8;
        else {
            float smooth = (8192.0f / wavelen - 1.0f) / 3.0f;
            ff[k] = 1 / ((1 - smooth) / 8.0f + smooth);
        }
    }
}

TEST(ggml_reference)
{
    /* theta_scale by hand: 10000^(-1/64) = exp(-ln(10^4)/64) = 0.86596432336 */
    float ts = powf(10000.0f, -2.0f / 128.0f);
    CHECK(fabs((double)ts - 0.86596432336) < 1e-7);
    /* the chain against the angle in double: within k+1 float32 roundings of
     * its own rounded constant, and off the exact angle by far more than the
     * 8-ulp envelope at the last pairs (issue 31's finding) */
    gop g = {.n_dims = 128, .neox = 1, .base = 500000.0f, .freq_scale = 1, .attn_factor = 1,
             .beta_fast = 32, .beta_slow = 1, .n_ctx_orig = 8192};
    float cs[64], sn[64];
    g_cache(&g, 1, cs, sn);
    CHECK(fabs((double)cs[0] - cos(1.0)) < 1e-7 && fabs((double)sn[0] - sin(1.0)) < 1e-7);
    double worst = 0;
    float tsg = powf(500000.0f, -2.0f / 128.0f);
    for (int64_t p = 1000; p <= 1000000; p *= 10) {
        float theta = (float)p;
        for (int k = 0; k < 64; k++) {
            double exact = (double)p * pow(500000.0, -2.0 * k / 128.0);
            double chained = (double)p * pow((double)tsg, k);
            double ulp = ldexp(1.0, ilogb(theta) - 23);
            CHECK(fabs((double)theta - chained) <= (k + 1) * ulp);
            double e = fabs((double)theta - exact) / ulp;
            worst = e > worst ? e : worst;
            theta *= tsg;
        }
    }
    CHECK(worst > 8);
    /* Llama 3.1's rope_freqs: 1 for the short wavelengths, 8 for the long;
     * between 2048 and 8192 tokens (2 pi 500000^(k/64): pairs 29..35) smoothed */
    float ff[64];
    llama31_freqs(ff);
    CHECK(ff[0] == 1.0f && ff[28] == 1.0f && ff[63] == 8.0f && ff[30] > 1.0f && ff[30] < 8.0f);
    /* YaRN's correction dims for Qwen3 (n_ctx_orig 32768, base 1e6): by hand
     * 128 ln(32768 / (32 * 2 pi)) / (2 ln 10^6) = 128 * 5.0937 / 27.631 = 23.60 -> floor 23;
     * 128 ln(32768 / (2 pi)) / (2 ln 10^6) = 128 * 8.5593 / 27.631 = 39.65 -> ceil 40 */
    gop q = {.n_dims = 128, .base = 1e6f, .n_ctx_orig = 32768};
    CHECK(floorf(g_corr(&q, 32)) == 23.0f && ceilf(g_corr(&q, 1)) == 40.0f);
}

static float phi_short[48], phi_long[48];

/* Phi-3.5-mini's shape (head_dim 96, base 10^4, original 4096, factor 32);
 * factor lists of its shape (short near 1, long growing to ~50). */
static void phi35(posenc_rope_config *c)
{
    config(c, 96, 10000, POSENC_LAYOUT_HALF, POSENC_ROPE_LONGROPE);
    c->max_position_embeddings = 131072;
    c->scaling.factor = 32;
    c->scaling.original_max_position_embeddings = 4096;
    for (int k = 0; k < 48; k++) {
        phi_short[k] = (float)(1.0 + 0.05 * k / 47.0);
        phi_long[k] = (float)(1.0 + 49.0 * (k / 47.0) * (k / 47.0));
        c->short_factor[k] = phi_short[k];
        c->long_factor[k] = phi_long[k];
    }
    c->scaling.n_short_factor = c->scaling.n_long_factor = 48;
}

TEST(ggml_models)
{
    static const posenc_dtype DTS[] = {POSENC_DTYPE_F32, POSENC_DTYPE_F16};
    posenc_rope_config llama, qwen, qwen3, phi;
    /* Llama 3.1 8B in llama.cpp's own (permuted, NORMAL) order */
    config(&llama, 128, 500000, POSENC_LAYOUT_INTERLEAVED, POSENC_ROPE_LLAMA3);
    llama.scaling.factor = 8;
    llama.scaling.low_freq_factor = 1;
    llama.scaling.high_freq_factor = 4;
    llama.scaling.original_max_position_embeddings = 8192;
    static float l31[64];
    llama31_freqs(l31);
    eng el = {.k = E_GGML, .rd = 128,
              .g = {.n_dims = 128, .neox = 0, .base = 500000, .freq_scale = 1, .attn_factor = 1,
                    .beta_fast = 32, .beta_slow = 1, .n_ctx_orig = 8192, .ff = l31}};
    /* Qwen2.5 7B: NEOX, base 10^6 */
    config(&qwen, 128, 1e6, POSENC_LAYOUT_HALF, POSENC_ROPE_DEFAULT);
    eng eq = {.k = E_GGML, .rd = 128,
              .g = {.n_dims = 128, .neox = 1, .base = 1e6f, .freq_scale = 1, .attn_factor = 1,
                    .beta_fast = 32, .beta_slow = 1, .n_ctx_orig = 32768}};
    /* Qwen3 with YaRN factor 4 over 32768: llama.cpp gives freq_scale 1/4,
     * ext_factor 1 and attn_factor mscale / (1 + 0.1 ln 4), cancelling
     * ggml's own (llama-context.cpp:177-211) */
    config(&qwen3, 128, 1e6, POSENC_LAYOUT_HALF, POSENC_ROPE_YARN);
    qwen3.scaling.factor = 4;
    qwen3.scaling.original_max_position_embeddings = 32768;
    float msc = 0.1f * logf(4.0f) + 1.0f;
    eng ey = {.k = E_GGML, .rd = 128,
              .g = {.n_dims = 128, .neox = 1, .base = 1e6f, .freq_scale = 1.0f / 4.0f,
                    .ext_factor = 1, .attn_factor = msc * (1.0f / (1.0f + 0.1f * logf(4.0f))),
                    .beta_fast = 32, .beta_slow = 1, .n_ctx_orig = 32768}};
    /* Phi-3.5: LongRoPE's long factors as freq_factors, its attention factor */
    phi35(&phi);
    posenc_rope pr;
    CHECK(posenc_rope_init_config(&pr, &phi, 1000001) == POSENC_OK);
    eng ep = {.k = E_GGML, .rd = 96,
              .g = {.n_dims = 96, .neox = 1, .base = 10000, .freq_scale = 1,
                    .attn_factor = (float)pr.attn_factor, .beta_fast = 32, .beta_slow = 1,
                    .n_ctx_orig = 4096, .ff = phi_long}};
    struct { const char *name; posenc_rope_config *c; eng *e; } M[] = {
        {"llama3.1", &llama, &el}, {"qwen2.5", &qwen, &eq}, {"qwen3-yarn", &qwen3, &ey},
        {"phi3.5", &phi, &ep}};
    for (size_t i = 0; i < sizeof M / sizeof M[0]; i++)
        for (int di = 0; di < 2; di++) {
            posenc_dtype dt = DTS[di];
            /* unmodified: ggml's arithmetic matches; F32 against exact names it */
            CHECK(expect(M[i].name, M[i].c, M[i].e, dt, POSENC_CHECK_ENGINE_GGML, 1, 0, NULL, NULL));
            if (dt == POSENC_DTYPE_F32)
                CHECK(expect(M[i].name, M[i].c, M[i].e, dt, POSENC_CHECK_ENGINE_EXACT, 0,
                             POSENC_CAUSE_ANGLE_PRECISION, "onset=", "model=ggml-chain"));
        }
    for (int di = 0; di < 2; di++) {
        posenc_dtype dt = DTS[di];
        const char *m = dt == POSENC_DTYPE_F32 ? "model=ggml-chain" : NULL;
        for (int en = 0; en < 2; en++) {
            posenc_check_engine E = en ? POSENC_CHECK_ENGINE_GGML : POSENC_CHECK_ENGINE_EXACT;
            const char *mm = en ? NULL : m;
            eng e = eq; /* NORMAL mode for a NEOX model */
            e.g.neox = 0;
            CHECK(expect("qwen2.5 normal", &qwen, &e, dt, E, 0, POSENC_CAUSE_LAYOUT_SWAPPED, "layout=", mm));
            e = eq; /* base 10^4 */
            e.g.base = 10000;
            CHECK(expect("qwen2.5 base", &qwen, &e, dt, E, 0, POSENC_CAUSE_BASE, "base=10000", mm));
            e = ey; /* YaRN's mscale not cancelled: applied twice */
            e.g.attn_factor = msc;
            CHECK(expect("qwen3 mscale", &qwen3, &e, dt, E, 0, POSENC_CAUSE_ATTN_FACTOR, "factor=", mm));
            e = eq; /* an attention factor of its own */
            e.g.attn_factor = 1.0625f;
            CHECK(expect("qwen2.5 gain", &qwen, &e, dt, E, 0, POSENC_CAUSE_ATTN_FACTOR, "factor=1.06", mm));
            e = ey; /* ext_factor 0: plain interpolation, no mscale */
            e.g.ext_factor = 0;
            e.g.attn_factor = 1;
            CHECK(expect("qwen3 ext0", &qwen3, &e, dt, E, 0, POSENC_CAUSE_SCALING,
                         "what=linear factor=4", mm));
            e = el; /* no rope_freqs */
            e.g.ff = NULL;
            CHECK(expect("llama3.1 no freqs", &llama, &e, dt, E, 0, POSENC_CAUSE_SCALING, "what=none", mm));
            e = el; /* positions + 1 */
            e.offset = 1;
            CHECK(expect("llama3.1 pos+1", &llama, &e, dt, E, 0, POSENC_CAUSE_POSITION_OFFSET, "c=1", mm));
            e = ep; /* the short LongRoPE set at 10^6 tokens */
            e.g.ff = phi_short;
            CHECK(expect("phi3.5 short", &phi, &e, dt, E, 0, POSENC_CAUSE_LONGROPE_FACTORS, "set=short", mm));
        }
    }
}

TEST(hf_and_cache)
{
    posenc_rope_config qwen;
    config(&qwen, 128, 1e6, POSENC_LAYOUT_HALF, POSENC_ROPE_DEFAULT);
    eng e = {.k = E_HF, .neox = 1, .rd = 128, .base = 1e6f};
    CHECK(expect("hf", &qwen, &e, POSENC_DTYPE_F32, POSENC_CHECK_ENGINE_HF, 1, 0, NULL, NULL));
    CHECK(expect("hf", &qwen, &e, POSENC_DTYPE_F32, POSENC_CHECK_ENGINE_CACHE_F32, 1, 0, NULL, NULL));
    CHECK(expect("hf", &qwen, &e, POSENC_DTYPE_F32, POSENC_CHECK_ENGINE_EXACT, 0,
                 POSENC_CAUSE_ANGLE_PRECISION, "onset=", NULL));
    CHECK(expect("hf", &qwen, &e, POSENC_DTYPE_F32, POSENC_CHECK_ENGINE_GGML, 0,
                 POSENC_CAUSE_ANGLE_PRECISION, "onset=", "model=f32-product"));
    eng p = e;
    p.offset = 1;
    CHECK(expect("hf pos+1", &qwen, &p, POSENC_DTYPE_F32, POSENC_CHECK_ENGINE_HF, 0,
                 POSENC_CAUSE_POSITION_OFFSET, "c=1", NULL));
    CHECK(expect("hf pos+1", &qwen, &p, POSENC_DTYPE_F32, POSENC_CHECK_ENGINE_EXACT, 0,
                 POSENC_CAUSE_POSITION_OFFSET, "c=1", NULL));
    p = e;
    p.base = 10000;
    CHECK(expect("hf base", &qwen, &p, POSENC_DTYPE_F32, POSENC_CHECK_ENGINE_HF, 0,
                 POSENC_CAUSE_BASE, "base=10000", NULL));
    /* inv_freq in bf16 (model.to(torch.bfloat16)) */
    p = e;
    p.inv_bf16 = 1;
    CHECK(expect("hf-bf16", &qwen, &p, POSENC_DTYPE_F32, POSENC_CHECK_ENGINE_HF_BF16, 1, 0, NULL, NULL));
    CHECK(expect("hf-bf16", &qwen, &p, POSENC_DTYPE_F32, POSENC_CHECK_ENGINE_HF, 0,
                 POSENC_CAUSE_DTYPE_ROUNDING, "what=inv-freq-bf16", NULL));
    CHECK(expect("hf-bf16", &qwen, &p, POSENC_DTYPE_F32, POSENC_CHECK_ENGINE_EXACT, 0,
                 POSENC_CAUSE_DTYPE_ROUNDING, "what=inv-freq-bf16", NULL));
    /* the table rounded to bf16, a bf16 model */
    p = e;
    p.cs_bf16 = 1;
    CHECK(expect("cache-bf16", &qwen, &p, POSENC_DTYPE_BF16, POSENC_CHECK_ENGINE_CACHE_BF16, 1, 0, NULL, NULL));
    CHECK(expect("cache-bf16", &qwen, &p, POSENC_DTYPE_F32, POSENC_CHECK_ENGINE_CACHE_BF16, 1, 0, NULL, NULL));
    CHECK(expect("cache-bf16", &qwen, &p, POSENC_DTYPE_F32, POSENC_CHECK_ENGINE_CACHE_F32, 0,
                 POSENC_CAUSE_DTYPE_ROUNDING, "what=cos-sin-bf16", NULL));
    p.offset = -1;
    CHECK(expect("cache-bf16 pos-1", &qwen, &p, POSENC_DTYPE_BF16, POSENC_CHECK_ENGINE_CACHE_BF16, 0,
                 POSENC_CAUSE_POSITION_OFFSET, "c=-1", NULL));
}

/* A bf16 cos/sin table given as tables (half width), as a cache holds it. */
TEST(cache_tables)
{
    posenc_rope_config qwen;
    config(&qwen, 128, 1e6, POSENC_LAYOUT_HALF, POSENC_ROPE_DEFAULT);
    eng e = {.k = E_HF, .neox = 1, .rd = 128, .base = 1e6f, .cs_bf16 = 1};
    size_t n_tok = 40;
    int64_t pos[40];
    float cs[40 * 64], sn[40 * 64];
    for (size_t t = 0; t < n_tok; t++) {
        pos[t] = t < 16 ? (int64_t)t : (int64_t)(t * 25000);
        tables(&e, pos[t], cs + t * 64, sn + t * 64);
    }
    posenc_check_input in = {.dtype = POSENC_DTYPE_BF16, .n_tok = n_tok, .pos = pos, .cos = cs,
                             .sin = sn, .table_dim = 64};
    CHECK(posenc_check_run_engine(&qwen, &in, 0, 0, POSENC_CHECK_ENGINE_CACHE_BF16, &res_) == POSENC_OK);
    CHECK(res_.match);
    CHECK(posenc_check_run_engine(&qwen, &in, 0, 0, POSENC_CHECK_ENGINE_EXACT, &res_) == POSENC_OK);
    CHECK(!res_.match && res_.n_cause >= 1 && res_.cause[0].cause == POSENC_CAUSE_ANGLE_PRECISION);
    if (res_.match || res_.n_cause == 0)
        show("cache tables");
}

/* Two structural causes at once, and nothing that fits. */
TEST(compound_and_none)
{
    /* Gemma 3's full layer (base 10^6, linear 8) computed as a sliding one (base 10^4, plain) */
    posenc_rope_config full, slide;
    config(&full, 256, 1e6, POSENC_LAYOUT_HALF, POSENC_ROPE_LINEAR);
    full.scaling.factor = 8;
    config(&slide, 256, 10000, POSENC_LAYOUT_HALF, POSENC_ROPE_DEFAULT);
    eng e = {.k = E_EXACT, .neox = 1, .rd = 256};
    CHECK(posenc_rope_init_config(&e.rope, &slide, 0) == POSENC_OK);
    for (int dt = 0; dt < 3; dt++) {
        CHECK(expect("gemma3 full as sliding", &full, &e, (posenc_dtype)dt, POSENC_CHECK_ENGINE_EXACT, 0,
                     POSENC_CAUSE_BASE, "base=10000", NULL));
        CHECK(res_.n_cause >= 2 && res_.cause[1].group == 0 && res_.cause[1].cause == POSENC_CAUSE_SCALING &&
              strcmp(res_.cause[1].params, "what=none") == 0);
    }
    /* a layout and a base: interleaved pairs on another base */
    posenc_rope_config q;
    config(&q, 64, 10000, POSENC_LAYOUT_HALF, POSENC_ROPE_DEFAULT);
    posenc_rope_config q2 = q;
    q2.base = 500000;
    eng f = {.k = E_EXACT, .neox = 0, .rd = 64};
    CHECK(posenc_rope_init_config(&f.rope, &q2, 0) == POSENC_OK);
    CHECK(expect("layout and base", &q, &f, POSENC_DTYPE_F32, POSENC_CHECK_ENGINE_EXACT, 0,
                 POSENC_CAUSE_LAYOUT_SWAPPED, "layout=interleaved", NULL));
    CHECK(res_.n_cause >= 2 && res_.cause[1].group == 0 && res_.cause[1].cause == POSENC_CAUSE_BASE);
    /* an unlisted base with an offset: none, with the nearest and where */
    q2.base = 12345.678;
    eng n = {.k = E_EXACT, .neox = 1, .rd = 64, .offset = 5};
    CHECK(posenc_rope_init_config(&n.rope, &q2, 0) == POSENC_OK);
    dump d;
    make_dump(&d, &n, 64, 30, 2, 2000, POSENC_DTYPE_F32);
    CHECK(run(&q, &d, POSENC_CHECK_ENGINE_EXACT) == POSENC_OK);
    CHECK(!res_.match && res_.n_cause == 0 && res_.nearest.valid);
    CHECK(res_.nearest.fit_ulp > res_.tol_ulp && res_.nearest.pair < 32 && res_.nearest.head < 2);
    char buf[512];
    size_t len = posenc_check_cause_lines(&res_, buf, sizeof buf);
    CHECK(len == strlen(buf) && strncmp(buf, "CAUSE name=none nearest=", 24) == 0 &&
          strstr(buf, " pair=") && strstr(buf, " pos=") && strstr(buf, " head="));
    if (!strstr(buf, " pos="))
        show("none");
    free_dump(&d);
    /* the names */
    posenc_check_engine en;
    CHECK(posenc_check_engine_parse("ggml", &en) == POSENC_OK && en == POSENC_CHECK_ENGINE_GGML);
    CHECK(posenc_check_engine_parse("cache-bf16", &en) == POSENC_OK && en == POSENC_CHECK_ENGINE_CACHE_BF16);
    CHECK(posenc_check_engine_parse("vllm", &en) == POSENC_ERR_RANGE);
    CHECK(strcmp(posenc_check_engine_name(POSENC_CHECK_ENGINE_HF), "hf") == 0);
}

/* A 10^5-token, 32-head dump completes (exact, then under ggml's arithmetic). */
TEST(large)
{
    posenc_rope_config c;
    config(&c, 64, 500000, POSENC_LAYOUT_HALF, POSENC_ROPE_DEFAULT);
    eng e = {.k = E_EXACT, .neox = 1, .rd = 64};
    CHECK(posenc_rope_init_config(&e.rope, &c, 0) == POSENC_OK);
    dump d;
    make_dump(&d, &e, 64, 100000, 32, 99999, POSENC_DTYPE_BF16);
    CHECK(run(&c, &d, POSENC_CHECK_ENGINE_EXACT) == POSENC_OK);
    CHECK(res_.match);
    free_dump(&d);
}

int main(void)
{
    RUN(ggml_reference);
    RUN(ggml_models);
    RUN(hf_and_cache);
    RUN(cache_tables);
    RUN(compound_and_none);
    RUN(large);
    return check_summary(FILE_);
}
