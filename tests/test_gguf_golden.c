/* test_gguf_golden.c - golden files for ggml engines (posenc_gguf.h tier 5):
 * the ggml_rope_ext arguments of a RoPE, the float32 bound per position,
 * and the GGUF golden file read back.
 *
 * ggml's CPU RoPE is reproduced here from its published arithmetic (ggml
 * at ggml-org/ggml d99724f2, src/ggml-cpu/ops.cpp ggml_rope_cache_init and
 * rope_yarn, src/ggml.c ggml_rope_yarn_corr_dims), all in float32:
 *   theta_scale = powf(freq_base, -2.0f / n_dims); theta = (float)pos;
 *   per pair i: theta_extrap = theta / ff[i]; theta_interp = freq_scale *
 *   theta_extrap; with ext_factor, ramp_mix = ramp(i) * ext_factor, theta =
 *   theta_interp (1 - ramp_mix) + theta_extrap ramp_mix and mscale *= 1 +
 *   0.1 logf(1 / freq_scale); cos = cosf(theta) mscale, sin = sinf(theta)
 *   mscale; theta *= theta_scale;
 *   NORM rotates (x[2i], x[2i+1]), NEOX (x[i], x[i + n_dims/2]):
 *   y0 = x0 cos - x1 sin, y1 = x0 sin + x1 cos.
 * The unmodified arithmetic must stay within posenc_gguf_f32_tolerance at
 * every position up to 10^6; planted bugs must not. */
#include "posenc_gguf.h"

#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HD 128

/* ---- ggml's arithmetic, reproduced ----------------------------------------------- */

typedef enum { BUG_NONE, BUG_POS_PLUS_1, BUG_BASE, BUG_LAYOUT, BUG_NO_FACTORS } bug;

static float ramp(float low, float high, int i0)
{
    float y = ((float)(i0 / 2) - low) / fmaxf(0.001f, high - low);
    return 1.0f - fminf(1.0f, fmaxf(0.0f, y));
}

static float corr_dim(int n_dims, int n_ctx_orig, float n_rot, float base)
{
    return (float)n_dims * logf((float)n_ctx_orig / (n_rot * 2.0f * 3.14159265358979323846f)) /
           (2.0f * logf(base));
}

/* y = ggml's rope of the head x (HD floats, the first n_dims rotated) at pos. */
static void ggml_rope(const posenc_gguf_op_args *op, int64_t pos, const float *x, float *y, bug b)
{
    int n = op->n_dims;
    float base = b == BUG_BASE ? op->freq_base * 1.0001f : op->freq_base;
    float theta_scale = powf(base, -2.0f / (float)n);
    float cd0 = 0, cd1 = 0;
    if (op->ext_factor != 0.0f) {
        cd0 = fmaxf(0.0f, floorf(corr_dim(n, op->n_ctx_orig, op->beta_fast, base)));
        cd1 = fminf((float)(n - 1), ceilf(corr_dim(n, op->n_ctx_orig, op->beta_slow, base)));
    }
    float theta = (float)(b == BUG_POS_PLUS_1 ? pos + 1 : pos);
    int mode = b == BUG_LAYOUT ? (op->mode == POSENC_GGUF_ROPE_NORM ? POSENC_GGUF_ROPE_NEOX
                                                                    : POSENC_GGUF_ROPE_NORM)
                               : op->mode;
    memcpy(y, x, HD * sizeof *y);
    for (int i0 = 0; i0 < n; i0 += 2) {
        float ff = op->n_freq_factors && b != BUG_NO_FACTORS ? op->freq_factors[i0 / 2] : 1.0f;
        float theta_extrap = theta / ff;
        float theta_interp = op->freq_scale * theta_extrap;
        float th = theta_interp, mscale = op->attn_factor;
        if (op->ext_factor != 0.0f) {
            float ramp_mix = ramp(cd0, cd1, i0) * op->ext_factor;
            th = theta_interp * (1 - ramp_mix) + theta_extrap * ramp_mix;
            mscale *= 1.0f + 0.1f * logf(1.0f / op->freq_scale);
        }
        float c = cosf(th) * mscale, s = sinf(th) * mscale;
        int a = mode == POSENC_GGUF_ROPE_NORM ? i0 : i0 / 2;
        int bb = mode == POSENC_GGUF_ROPE_NORM ? i0 + 1 : i0 / 2 + n / 2;
        float x0 = x[a], x1 = x[bb];
        y[a] = x0 * c - x1 * s;
        y[bb] = x0 * s + x1 * c;
        theta *= theta_scale;
    }
}

/* ---- the RoPEs under test ------------------------------------------------------------ */

static void config(posenc_rope_config *c, posenc_rope_type t, double base, posenc_layout layout)
{
    memset(c, 0, sizeof *c);
    c->head_dim = c->rotary_dim = HD;
    c->base = base;
    c->layout = layout;
    if (posenc_rope_scaling_init(&c->scaling, t) != POSENC_OK)
        abort();
    if (t == POSENC_ROPE_LLAMA3) { /* Llama 3.1 */
        c->scaling.factor = 8;
        c->scaling.low_freq_factor = 1;
        c->scaling.high_freq_factor = 4;
        c->scaling.original_max_position_embeddings = 8192;
    } else if (t == POSENC_ROPE_YARN) { /* Qwen2.5 with YaRN */
        c->scaling.factor = 4;
        c->scaling.original_max_position_embeddings = 32768;
    } else if (t == POSENC_ROPE_LINEAR) {
        c->scaling.factor = 8;
    }
}

static const int64_t POSITIONS[] = {0, 1, 2, 3, 7, 16, 100, 1000, 4095, 4096, 8191, 10000,
                                    32767, 65536, 100000, 131071, 500000, 999999, 1000000};
#define N_POS (sizeof POSITIONS / sizeof POSITIONS[0])

/* The largest |y_ggml - y_exact| / tol over the positions (below 1: met). */
static double worst_ratio(const posenc_rope_config *c, bug b, int *op_ok)
{
    posenc_rope r;
    posenc_gguf_op_args op;
    *op_ok = posenc_rope_init_config(&r, c, 1000001) == POSENC_OK &&
             posenc_gguf_op_from_rope(c, &r, &op) == POSENC_OK;
    if (!*op_ok)
        return INFINITY;
    float x[HD], y[HD];
    double ex[HD], worst = 0;
    for (int i = 0; i < HD; i++)
        x[i] = (float)((i * 37 % 101) - 50) / 50.0f;
    for (size_t p = 0; p < N_POS; p++) {
        for (int i = 0; i < HD; i++)
            ex[i] = x[i];
        if (posenc_rope_vec_f64(&r, POSITIONS[p], POSENC_FORWARD, ex) != POSENC_OK)
            return INFINITY;
        ggml_rope(&op, POSITIONS[p], x, y, b);
        double tol = posenc_gguf_f32_tolerance(&op, POSITIONS[p], 1.0);
        for (int i = 0; i < HD; i++) {
            double q = fabs((double)y[i] - ex[i]) / tol;
            if (q > worst)
                worst = q;
        }
    }
    return worst;
}

TEST(unmodified_ggml_meets_the_bound)
{
    static const struct {
        posenc_rope_type t;
        double base;
        posenc_layout layout;
    } R[] = {{POSENC_ROPE_DEFAULT, 10000, POSENC_LAYOUT_INTERLEAVED},
             {POSENC_ROPE_DEFAULT, 1000000, POSENC_LAYOUT_HALF},
             {POSENC_ROPE_LINEAR, 10000, POSENC_LAYOUT_HALF},
             {POSENC_ROPE_LLAMA3, 500000, POSENC_LAYOUT_INTERLEAVED},
             {POSENC_ROPE_YARN, 1000000, POSENC_LAYOUT_HALF}};
    for (size_t i = 0; i < sizeof R / sizeof R[0]; i++) {
        posenc_rope_config *c = malloc(sizeof *c);
        int ok;
        config(c, R[i].t, R[i].base, R[i].layout);
        double w = worst_ratio(c, BUG_NONE, &ok);
        CHECK(ok);
        CHECK(w <= 1.0);
        if (w > 1.0)
            fprintf(stderr, "  %s base %g: error / tol = %g\n", posenc_rope_type_name(R[i].t),
                    R[i].base, w);
        free(c);
    }
}

TEST(planted_bugs_break_the_bound)
{
    posenc_rope_config *c = malloc(sizeof *c);
    int ok;
    config(c, POSENC_ROPE_DEFAULT, 10000, POSENC_LAYOUT_INTERLEAVED);
    CHECK(worst_ratio(c, BUG_POS_PLUS_1, &ok) > 1.0);
    CHECK(worst_ratio(c, BUG_BASE, &ok) > 1.0);
    CHECK(worst_ratio(c, BUG_LAYOUT, &ok) > 1.0);
    config(c, POSENC_ROPE_LLAMA3, 500000, POSENC_LAYOUT_INTERLEAVED);
    CHECK(worst_ratio(c, BUG_NO_FACTORS, &ok) > 1.0);
    config(c, POSENC_ROPE_YARN, 1000000, POSENC_LAYOUT_HALF);
    CHECK(worst_ratio(c, BUG_POS_PLUS_1, &ok) > 1.0);
    free(c);
}

/* The arguments run the same RoPE: posenc_gguf_op_config of them (tier 3,
 * llama.cpp's op in posenc's terms) has the frequencies and the multiplier
 * of the config. */
TEST(op_arguments_run_the_config)
{
    static const posenc_rope_type T[] = {POSENC_ROPE_DEFAULT, POSENC_ROPE_LINEAR,
                                         POSENC_ROPE_LLAMA3, POSENC_ROPE_YARN};
    posenc_rope_config *c = malloc(2 * sizeof *c);
    for (size_t i = 0; i < 4; i++) {
        posenc_rope r, back;
        posenc_gguf_op_args a;
        posenc_gguf_rope_op op;
        config(c, T[i], 500000, POSENC_LAYOUT_HALF);
        CHECK(posenc_rope_init_config(&r, c, 4096) == POSENC_OK);
        CHECK(posenc_gguf_op_from_rope(c, &r, &a) == POSENC_OK);
        memset(&op, 0, sizeof op);
        op.rotates = 1;
        op.n_dims = a.n_dims;
        op.mode = a.mode;
        op.n_ctx_orig = a.n_ctx_orig;
        op.freq_base = a.freq_base;
        op.freq_scale = a.freq_scale;
        op.ext_factor = a.ext_factor;
        op.attn_factor = a.attn_factor;
        op.beta_fast = a.beta_fast;
        op.beta_slow = a.beta_slow;
        op.freq_factors = a.n_freq_factors ? a.freq_factors : NULL;
        op.n_freq_factors = a.n_freq_factors;
        CHECK(posenc_gguf_op_config(&op, HD, c + 1) == POSENC_OK);
        CHECK(posenc_rope_init_config(&back, c + 1, 4096) == POSENC_OK);
        CHECK_NEAR(back.attn_factor, r.attn_factor, 1e-6);
        for (int k = 0; k < HD / 2; k++)
            CHECK_NEAR(back.inv_freq_hi[k] / r.inv_freq_hi[k], 1.0, 1e-6);
        CHECK_EQ_INT(a.n_freq_factors ? 1 : 0, T[i] == POSENC_ROPE_LLAMA3);
        CHECK_EQ_INT(a.ext_factor == 1.0f, T[i] == POSENC_ROPE_YARN);
    }
    free(c);
}

/* ---- the file, read back ---------------------------------------------------------- */

static uint32_t rd_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

TEST(golden_file_reads_back)
{
    enum { NT = 3, NH = 2 };
    posenc_rope_config *c = malloc(sizeof *c);
    posenc_rope r;
    posenc_gguf_op_args op;
    config(c, POSENC_ROPE_LLAMA3, 500000, POSENC_LAYOUT_INTERLEAVED);
    CHECK(posenc_rope_init_config(&r, c, 1000) == POSENC_OK);
    CHECK(posenc_gguf_op_from_rope(c, &r, &op) == POSENC_OK);
    int64_t pos[NT] = {0, 7, 999};
    static float x[NT * NH * HD], y[NT * NH * HD];
    float tol[NT];
    for (int i = 0; i < NT * NH * HD; i++) {
        x[i] = (float)i / 1000.0f;
        y[i] = -(float)i;
    }
    for (int t = 0; t < NT; t++)
        tol[t] = (float)posenc_gguf_f32_tolerance(&op, pos[t], 1.0);
    const char *meta[] = {"posenc.golden.seed", "1", NULL};
    posenc_gguf_golden gd = {NT, NH, HD, pos, x, y, tol, &op, meta};
    char path[] = "/tmp/posenc-golden-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) {
        free(c);
        return;
    }
    close(fd);
    posenc_load_error e;
    CHECK(posenc_gguf_golden_save(path, &gd, &e) == POSENC_OK);
    posenc_gguf *g = NULL;
    CHECK(posenc_gguf_load(path, NULL, &g, &e) == POSENC_OK);
    if (g) {
        posenc_gguf_value v;
        int64_t i = posenc_gguf_find_key(g, "posenc.rope.n_dims");
        CHECK(i >= 0 && posenc_gguf_value_at(g, (uint64_t)i, &v) == POSENC_OK && v.i == HD);
        i = posenc_gguf_find_key(g, "posenc.rope.mode");
        CHECK(i >= 0 && posenc_gguf_value_at(g, (uint64_t)i, &v) == POSENC_OK && v.i == 0);
        i = posenc_gguf_find_key(g, "posenc.rope.freq_base");
        CHECK(i >= 0 && posenc_gguf_value_at(g, (uint64_t)i, &v) == POSENC_OK && v.f == 500000);
        i = posenc_gguf_find_key(g, "posenc.golden.seed");
        CHECK(i >= 0 && posenc_gguf_value_at(g, (uint64_t)i, &v) == POSENC_OK &&
              !strcmp(v.str, "1"));
        const float *f;
        size_t nf;
        CHECK(posenc_gguf_factors_get(g, POSENC_GGUF_ROPE_FREQS, &f, &nf) == POSENC_OK);
        CHECK(f && nf == HD / 2 && !memcmp(f, op.freq_factors, nf * sizeof *f));
        /* the data of x, y, tol and pos, from the file */
        FILE *in = fopen(path, "rb");
        static unsigned char buf[1 << 20];
        size_t n = in ? fread(buf, 1, sizeof buf, in) : 0;
        if (in)
            fclose(in);
        static const char *const names[] = {"pos", "x", "y", "tol"};
        for (int k = 0; k < 4; k++) {
            posenc_gguf_tensor t;
            int64_t ti = posenc_gguf_find_tensor(g, names[k]);
            CHECK(ti >= 0 && posenc_gguf_tensor_at(g, (uint64_t)ti, &t) == POSENC_OK);
            if (ti < 0)
                continue;
            const unsigned char *p = buf + posenc_gguf_data_offset(g) + t.offset;
            CHECK(posenc_gguf_data_offset(g) + t.offset + t.n_bytes <= n);
            int same = 1;
            size_t cnt = k == 0 || k == 3 ? NT : NT * NH * HD;
            for (size_t j = 0; j < cnt; j++) {
                uint32_t w = rd_u32(p + 4 * j);
                float fv;
                memcpy(&fv, &w, 4);
                same &= k == 0 ? (int64_t)w == pos[j]
                        : k == 1 ? fv == x[j] : k == 2 ? fv == y[j] : fv == tol[j];
            }
            CHECK(same);
            if (k == 1)
                CHECK(t.n_dims == 3 && t.ne[0] == HD && t.ne[1] == NH && t.ne[2] == NT);
        }
        posenc_gguf_free(g);
    }
    remove(path);
    free(c);
}

TEST(refusals)
{
    posenc_gguf_op_args op;
    memset(&op, 0, sizeof op);
    op.n_dims = HD;
    op.freq_base = 10000;
    int64_t pos[1] = {(int64_t)INT32_MAX + 1};
    float v[HD] = {0}, tol[1] = {1};
    posenc_gguf_golden gd = {1, 1, HD, pos, v, v, tol, &op, NULL};
    posenc_load_error e;
    CHECK(posenc_gguf_golden_save("/tmp/posenc-never-written.gguf", &gd, &e) == POSENC_ERR_POS);
    CHECK(posenc_gguf_golden_save(NULL, &gd, &e) == POSENC_ERR_NULL);
    CHECK(isnan(posenc_gguf_f32_tolerance(NULL, 0, 1)));
}

TEST(op_arguments_of_every_other_rope)
{
    posenc_rope_config *c = malloc(sizeof *c);
    posenc_rope r;
    posenc_gguf_op_args a;
    /* a base that is no float (10000.1): not plain, so per-pair factors base'^(-2k/d)
     * / inv_freq[k] with base' = (float)base, factor 0 = 1 exactly */
    config(c, POSENC_ROPE_DEFAULT, 10000.1, POSENC_LAYOUT_HALF);
    CHECK(posenc_rope_init_config(&r, c, 4096) == POSENC_OK);
    CHECK(posenc_gguf_op_from_rope(c, &r, &a) == POSENC_OK);
    CHECK(a.n_freq_factors == HD / 2 && a.freq_factors[0] == 1.0f && a.freq_scale == 1.0f &&
          a.mode == POSENC_GGUF_ROPE_NEOX);
    CHECK_NEAR(a.freq_factors[HD / 2 - 1],
               pow((double)10000.1f, -2.0 * 63 / HD) / pow(10000.1, -2.0 * 63 / HD), 1e-6);
    /* YaRN without truncation is not ggml's: factors, ext_factor 0 */
    config(c, POSENC_ROPE_YARN, 1000000, POSENC_LAYOUT_HALF);
    c->scaling.truncate = 0;
    CHECK(posenc_rope_init_config(&r, c, 4096) == POSENC_OK);
    CHECK(posenc_gguf_op_from_rope(c, &r, &a) == POSENC_OK);
    CHECK(a.n_freq_factors == HD / 2 && a.ext_factor == 0.0f && a.freq_scale == 1.0f);
    /* linear with factor 8: freq_scale 1/8, no factors */
    config(c, POSENC_ROPE_LINEAR, 10000, POSENC_LAYOUT_INTERLEAVED);
    CHECK(posenc_rope_init_config(&r, c, 4096) == POSENC_OK);
    CHECK(posenc_gguf_op_from_rope(c, &r, &a) == POSENC_OK);
    CHECK(a.freq_scale == 0.125f && a.n_freq_factors == 0 && a.mode == POSENC_GGUF_ROPE_NORM);
    /* a pair that does not turn has no finite factor */
    config(c, POSENC_ROPE_LLAMA3, 500000, POSENC_LAYOUT_HALF);
    CHECK(posenc_rope_init_config(&r, c, 4096) == POSENC_OK);
    posenc_rope z = r;
    z.inv_freq_hi[5] = 0.0;
    z.inv_freq_lo[5] = 0.0;
    CHECK_EQ_INT(posenc_gguf_op_from_rope(c, &z, &a), POSENC_ERR_RANGE);
    /* r not a valid RoPE; NULL arguments */
    z = r, z.rotary_dim = 0;
    CHECK_EQ_INT(posenc_gguf_op_from_rope(c, &z, &a), POSENC_ERR_RANGE);
    z = r, z.rotary_dim = POSENC_ROPE_MAX_HEAD_DIM + 2;
    CHECK_EQ_INT(posenc_gguf_op_from_rope(c, &z, &a), POSENC_ERR_RANGE);
    z = r, z.base = 1.0;
    CHECK_EQ_INT(posenc_gguf_op_from_rope(c, &z, &a), POSENC_ERR_RANGE);
    z = r, z.layout = (posenc_layout)7;
    CHECK_EQ_INT(posenc_gguf_op_from_rope(c, &z, &a), POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_gguf_op_from_rope(NULL, &r, &a), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_gguf_op_from_rope(c, NULL, &a), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_gguf_op_from_rope(c, &r, NULL), POSENC_ERR_NULL);
    free(c);
    /* the bound is NAN outside its domain */
    memset(&a, 0, sizeof a);
    a.n_dims = HD;
    a.freq_base = 10000;
    a.freq_scale = 1;
    a.attn_factor = 1;
    CHECK(posenc_gguf_f32_tolerance(&a, 10, 1.0) > 0);
    CHECK(isnan(posenc_gguf_f32_tolerance(&a, -1, 1.0)));
    CHECK(isnan(posenc_gguf_f32_tolerance(&a, 10, NAN)));
    CHECK(isnan(posenc_gguf_f32_tolerance(&a, 10, -1.0)));
    a.n_dims = 1;
    CHECK(isnan(posenc_gguf_f32_tolerance(&a, 10, 1.0)));
}

TEST(golden_save_refusals)
{
    posenc_gguf_op_args op;
    memset(&op, 0, sizeof op);
    op.n_dims = HD;
    op.freq_base = 10000;
    int64_t pos[2] = {0, 1};
    static float v[2 * HD];
    float tol[2] = {1, 1};
    posenc_gguf_golden ok = {2, 1, HD, pos, v, v, tol, &op, NULL}, gd;
    posenc_load_error e;
    const char *never = "/tmp/posenc-never-written.gguf";
    gd = ok, gd.op = NULL;
    CHECK_EQ_INT(posenc_gguf_golden_save(never, &gd, &e), POSENC_ERR_NULL);
    gd = ok, gd.pos = NULL;
    CHECK_EQ_INT(posenc_gguf_golden_save(never, &gd, &e), POSENC_ERR_NULL);
    gd = ok, gd.x = NULL;
    CHECK_EQ_INT(posenc_gguf_golden_save(never, &gd, &e), POSENC_ERR_NULL);
    gd = ok, gd.y = NULL;
    CHECK_EQ_INT(posenc_gguf_golden_save(never, &gd, &e), POSENC_ERR_NULL);
    gd = ok, gd.tol = NULL;
    CHECK_EQ_INT(posenc_gguf_golden_save(never, &gd, &e), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_gguf_golden_save(never, NULL, NULL), POSENC_ERR_NULL);
    gd = ok, gd.n_tok = 0;
    CHECK_EQ_INT(posenc_gguf_golden_save(never, &gd, &e), POSENC_ERR_RANGE);
    CHECK(strstr(e.detail, "empty dump, or n_dims 128 above head_dim 128") != NULL);
    gd = ok, gd.n_head = 0;
    CHECK_EQ_INT(posenc_gguf_golden_save(never, &gd, &e), POSENC_ERR_RANGE);
    gd = ok, gd.head_dim = 0;
    CHECK_EQ_INT(posenc_gguf_golden_save(never, &gd, &e), POSENC_ERR_RANGE);
    gd = ok, gd.head_dim = POSENC_ROPE_MAX_HEAD_DIM + 2;
    CHECK_EQ_INT(posenc_gguf_golden_save(never, &gd, &e), POSENC_ERR_RANGE);
    gd = ok, gd.head_dim = 64;
    CHECK_EQ_INT(posenc_gguf_golden_save(never, &gd, &e), POSENC_ERR_RANGE);
    CHECK(strstr(e.detail, "n_dims 128 above head_dim 64") != NULL);
    int64_t neg[2] = {0, -1};
    gd = ok, gd.pos = neg;
    CHECK_EQ_INT(posenc_gguf_golden_save(never, &gd, &e), POSENC_ERR_POS);
    CHECK(strstr(e.detail, "position -1: ggml's positions are int32") != NULL);
    CHECK(access(never, F_OK) != 0);
    /* a folder that does not exist: POSENC_ERR_IO naming the path */
    CHECK_EQ_INT(posenc_gguf_golden_save("/nonexistent-posenc/g.gguf", &ok, &e), POSENC_ERR_IO);
    CHECK(strstr(e.detail, "/nonexistent-posenc/g.gguf: ") != NULL);
    /* a full device: the write error is named (where /dev/full exists) */
    if (access("/dev/full", W_OK) == 0) {
        CHECK_EQ_INT(posenc_gguf_golden_save("/dev/full", &ok, &e), POSENC_ERR_IO);
        CHECK(strstr(e.detail, "/dev/full: write error") != NULL);
    }
    /* meta with a key but no value: the key is not written */
    const char *odd[] = {"posenc.golden.note", NULL};
    char path[] = "/tmp/posenc-golden-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    close(fd);
    gd = ok, gd.meta = odd;
    CHECK(posenc_gguf_golden_save(path, &gd, NULL) == POSENC_OK);
    posenc_gguf *g = NULL;
    CHECK(posenc_gguf_load(path, NULL, &g, &e) == POSENC_OK);
    CHECK(posenc_gguf_find_key(g, "posenc.golden.note") == -1 &&
          posenc_gguf_find_key(g, "posenc.golden.tol") >= 0 &&
          posenc_gguf_find_tensor(g, "rope_freqs.weight") == -1);
    posenc_gguf_free(g);
    remove(path);
}

int main(void)
{
    RUN(unmodified_ggml_meets_the_bound);
    RUN(planted_bugs_break_the_bound);
    RUN(op_arguments_run_the_config);
    RUN(golden_file_reads_back);
    RUN(refusals);
    RUN(op_arguments_of_every_other_rope);
    RUN(golden_save_refusals);
    return check_summary("gguf_golden");
}
