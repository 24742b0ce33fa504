/* test_nanochat.c - a RoPE that turns by -theta (NanoChat's rotate_half
 * cat(x2, -x1): transformers 5.23.0 models/nanochat/modeling_nanochat.py
 * L106-129, L169-173). The model layer builds it as the ordinary RoPE with
 * every inverse frequency negated (posenc_model_layer_rope, sense -1). Here:
 *   - every apply path accepts the negated frequencies and gives, bit for
 *     bit, POSENC_INVERSE on the positive ones (and the reverse), at
 *     positions up to POSENC_MAX_POS: the one-vector f32/f64 calls, the q/k
 *     kernels on every instruction set this CPU has (f32, bf16, f16, both
 *     layouts, with and without a cache, partial rotary), the decode call
 *     and the cache's rows (cos kept, sin negated), plain and scaled (YaRN);
 *   - by hand: e0 at position 1 turns to (cos 1, .., -sin 1 at element D/2),
 *     e_{D/2} to (sin 1, .., cos 1), as NanoChat's q * cos + rotate_half(q) *
 *     sin gives: first half x1 cos + x2 sin, second half x2 cos - x1 sin;
 *   - the registry: nanochat reads with sense -1 (EXPLAIN MODEL's sense=-1),
 *     llama with 1, and posenc_model_layer_rope_sense's 0 cases.
 * Checked against NanoChat's running code in tests/hf/test_nanochat_hf.py. */
#include "check.h"

#include "kernels.h"
#include "posenc.h"
#include "posenc_model.h"
#ifdef POSENC_HAVE_JSON
#include "posenc_config.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const int64_t POS[] = {0, 1, 2, 3, 7, 100, 1000, 65535, 1 << 20, 123456789,
                              POSENC_MAX_POS - 1, POSENC_MAX_POS};
#define N_POS (sizeof POS / sizeof POS[0])

/* *neg = *r with every inverse frequency negated (what the model layer
 * builds for a layer of sense -1). */
static void negate(const posenc_rope *r, posenc_rope *neg)
{
    *neg = *r;
    for (uint32_t k = 0; k < r->rotary_dim / 2; k++) {
        neg->inv_freq_hi[k] = -r->inv_freq_hi[k];
        neg->inv_freq_lo[k] = -r->inv_freq_lo[k];
    }
}

/* x[i] for a seed: values of both signs and several scales */
static double value(unsigned seed, size_t i)
{
    uint32_t h = (uint32_t)(i * 2654435761u) ^ (seed * 40503u);
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return ((double)(h % 20001u) - 10000.0) / 997.0;
}

/* One-vector calls: r negated FORWARD == r INVERSE and the reverse, f64
 * and f32; with plain RoPE also posenc_rope_apply_f64/f32's INVERSE. */
static int vectors(const posenc_rope *r, int plain)
{
    posenc_rope n;
    negate(r, &n);
    int bad = 0;
    uint32_t D = r->head_dim;
    for (size_t p = 0; p < N_POS; p++) {
        for (int dir = 0; dir < 2; dir++) {
            double a[256], b[256], c[256];
            float fa[256], fb[256], fc[256];
            for (uint32_t i = 0; i < D; i++) {
                a[i] = b[i] = c[i] = value((unsigned)p, i);
                fa[i] = fb[i] = fc[i] = (float)a[i];
            }
            posenc_direction fw = dir ? POSENC_INVERSE : POSENC_FORWARD;
            posenc_direction bw = dir ? POSENC_FORWARD : POSENC_INVERSE;
            bad += posenc_rope_vec_f64(&n, POS[p], fw, a) != POSENC_OK;
            bad += posenc_rope_vec_f64(r, POS[p], bw, b) != POSENC_OK;
            bad += posenc_rope_vec_f32(&n, POS[p], fw, fa) != POSENC_OK;
            bad += posenc_rope_vec_f32(r, POS[p], bw, fb) != POSENC_OK;
            bad += memcmp(a, b, D * sizeof a[0]) != 0;
            bad += memcmp(fa, fb, D * sizeof fa[0]) != 0;
            if (plain) {
                bad += posenc_rope_apply_f64(POS[p], D, r->base, r->layout, bw, c) != POSENC_OK;
                bad += posenc_rope_apply_f32(POS[p], D, r->base, r->layout, bw, fc) != POSENC_OK;
                bad += memcmp(a, c, D * sizeof a[0]) != 0;
                bad += memcmp(fa, fc, D * sizeof fa[0]) != 0;
            }
        }
    }
    return bad;
}

static size_t dtype_size(posenc_dtype dt)
{
    return dt == POSENC_DTYPE_F32 ? 4 : 2;
}

/* q/k kernels on instruction set isa: n_tok tokens at POS (and a run of
 * consecutive positions from pos0), 3 q heads and 1 k head, negated
 * FORWARD == INVERSE, each dtype, with and without a cache. */
static int tensors(const posenc_rope *r, int isa)
{
    posenc_rope n;
    negate(r, &n);
    int bad = 0;
    uint32_t D = r->head_dim;
    enum { NQ = 3, NK = 1, T = 8 };
    const int64_t pos[T] = {0, 1, 5, 4, 1000, 4095, 2048, 4000};
    posenc_rope_cache *cr = NULL, *cn = NULL;
    bad += posenc_rope_cache_create(r, 4096, &cr) != POSENC_OK;
    bad += posenc_rope_cache_create(&n, 4096, &cn) != POSENC_OK;
    for (int dt = 0; dt < 3 && !bad; dt++) {
        size_t es = dtype_size((posenc_dtype)dt), nq = (size_t)T * NQ * D, nk = (size_t)T * NK * D;
        unsigned char *q[2], *k[2];
        for (int s = 0; s < 2; s++) {
            q[s] = malloc(nq * es);
            k[s] = malloc(nk * es);
        }
        for (int cached = 0; cached < 2; cached++) {
            for (int dir = 0; dir < 2; dir++) {
                for (int run = 0; run < 2; run++) {
                    for (size_t i = 0; i < nq * es; i++)
                        q[0][i] = q[1][i] = (unsigned char)(value(1, i) * 7);
                    for (size_t i = 0; i < nk * es; i++)
                        k[0][i] = k[1][i] = (unsigned char)(value(2, i) * 7);
                    /* bf16/f16: the exponent's top bit cleared (finite values:
                     * a NaN's sign is not the rotation's) */
                    for (size_t i = 1; i < nq * es; i += 2)
                        q[0][i] = q[1][i] = q[0][i] & 0xbf;
                    for (size_t i = 1; i < nk * es; i += 2)
                        k[0][i] = k[1][i] = k[0][i] & 0xbf;
                    if (dt == POSENC_DTYPE_F32) /* finite floats */
                        for (size_t i = 0; i < nq; i++)
                            ((float *)q[0])[i] = ((float *)q[1])[i] = (float)value(3, i);
                    if (dt == POSENC_DTYPE_F32)
                        for (size_t i = 0; i < nk; i++)
                            ((float *)k[0])[i] = ((float *)k[1])[i] = (float)value(4, i);
                    for (int s = 0; s < 2; s++) {
                        posenc_rope_qk_args a = {
                            .rope = s ? r : &n,
                            .cache = cached ? (s ? cr : cn) : NULL,
                            .dtype = (posenc_dtype)dt,
                            .n_tok = T,
                            .pos = run ? NULL : pos,
                            .pos0 = run ? POSENC_MAX_POS - T + 1 : 0,
                            .q = posenc_rope_view_dense(q[s], NQ, D),
                            .k = posenc_rope_view_dense(k[s], NK, D),
                            .direction = (s ^ dir) ? POSENC_INVERSE : POSENC_FORWARD};
                        if (run && cached)
                            a.pos0 = 4096 - T;
                        bad += posenc__rope_qk_isa(isa, &a) != POSENC_OK;
                    }
                    int b0 = bad;
                    bad += memcmp(q[0], q[1], nq * es) != 0;
                    bad += memcmp(k[0], k[1], nk * es) != 0;
                    if (bad != b0)
                        printf("  dt %d cached %d dir %d run %d differ\n", dt, cached, dir, run);
                }
            }
        }
        for (int s = 0; s < 2; s++) {
            free(q[s]);
            free(k[s]);
        }
    }
    /* the rows: cos kept, sin negated, bit for bit */
    for (size_t p = 0; p < 6 && !bad; p++) {
        const float *c0, *s0, *c1, *s1;
        bad += posenc_rope_cache_row(cr, POS[p], &c0, &s0) != POSENC_OK;
        bad += posenc_rope_cache_row(cn, POS[p], &c1, &s1) != POSENC_OK;
        for (uint32_t k = 0; k < r->rotary_dim / 2 && !bad; k++)
            bad += memcmp(&c0[k], &c1[k], sizeof(float)) != 0 || -s0[k] != s1[k] ||
                   (s0[k] == 0 && signbit(s1[k]));
    }
    /* decode: one token, dense heads */
    float dq[2][2 * 256], dk[2][256];
    for (size_t p = 0; p < N_POS; p++) {
        for (uint32_t i = 0; i < 2 * D; i++)
            dq[0][i] = dq[1][i] = (float)value(5, i);
        for (uint32_t i = 0; i < D; i++)
            dk[0][i] = dk[1][i] = (float)value(6, i);
        bad += posenc_rope_decode_f32(&n, NULL, POS[p], dq[0], 2, dk[0], 1) != POSENC_OK;
        bad += posenc_rope_vec_f32(r, POS[p], POSENC_INVERSE, dq[1]) != POSENC_OK;
        bad += posenc_rope_vec_f32(r, POS[p], POSENC_INVERSE, dq[1] + D) != POSENC_OK;
        bad += posenc_rope_vec_f32(r, POS[p], POSENC_INVERSE, dk[1]) != POSENC_OK;
        bad += memcmp(dq[0], dq[1], 2 * D * sizeof(float)) != 0;
        bad += memcmp(dk[0], dk[1], D * sizeof(float)) != 0;
    }
    posenc_rope_cache_free(cr);
    posenc_rope_cache_free(cn);
    return bad;
}

/* The RoPEs the paths are checked on: plain half and interleaved, partial
 * rotary, and YaRN (the scaling's frequencies and attn_factor). */
static int ropes(posenc_rope *r, int i)
{
    switch (i) {
    case 0: return posenc_rope_init(r, 64, 64, 10000.0, POSENC_LAYOUT_HALF) == POSENC_OK;
    case 1: return posenc_rope_init(r, 128, 128, 500000.0, POSENC_LAYOUT_INTERLEAVED) == POSENC_OK;
    case 2: return posenc_rope_init(r, 96, 48, 10000.0, POSENC_LAYOUT_HALF) == POSENC_OK;
    default: {
        posenc_rope_scaling s;
        if (posenc_rope_scaling_init(&s, POSENC_ROPE_YARN) != POSENC_OK)
            return 0;
        s.factor = 4.0;
        s.original_max_position_embeddings = 4096;
        return posenc_rope_init_scaled(r, 64, 64, 10000.0, POSENC_LAYOUT_HALF, &s, 0) ==
               POSENC_OK;
    }
    }
}

TEST(negated_frequencies_turn_by_minus_theta_everywhere)
{
    posenc_rope r;
    for (int i = 0; i < 4; i++) {
        CHECK(ropes(&r, i));
        CHECK_EQ_INT(vectors(&r, i < 2), 0);
        for (int isa = 0; isa < POSENC__ISA_N; isa++) {
            if (!posenc__isa_available(isa)) {
                if (i == 0)
                    printf("test_nanochat: %s not available here, not run\n",
                           posenc__isa_name(isa));
                continue;
            }
            int bad = tensors(&r, isa);
            if (bad)
                printf("  rope %d isa %s: %d differences\n", i, posenc__isa_name(isa), bad);
            CHECK_EQ_INT(bad, 0);
        }
    }
}

TEST(sign_of_sin_by_hand)
{
    /* D = 4, base 10000: pair 0 has frequency 1; at position 1 NanoChat's
     * first half is x1 cos 1 + x2 sin 1, its second x2 cos 1 - x1 sin 1. */
    posenc_rope r, n;
    CHECK(posenc_rope_init(&r, 4, 4, 10000.0, POSENC_LAYOUT_HALF) == POSENC_OK);
    negate(&r, &n);
    double e0[4] = {1, 0, 0, 0}, e2[4] = {0, 0, 1, 0};
    CHECK(posenc_rope_vec_f64(&n, 1, POSENC_FORWARD, e0) == POSENC_OK);
    CHECK(posenc_rope_vec_f64(&n, 1, POSENC_FORWARD, e2) == POSENC_OK);
    CHECK(fabs(e0[0] - cos(1.0)) < 1e-15 && fabs(e0[2] + sin(1.0)) < 1e-15);
    CHECK(e0[1] == 0 && e0[3] == 0);
    CHECK(fabs(e2[0] - sin(1.0)) < 1e-15 && fabs(e2[2] - cos(1.0)) < 1e-15);
    /* pair 1 (elements 1, 3): frequency 10000^(-1/2) = 0.01 at position 100 */
    double e1[4] = {0, 1, 0, 0};
    CHECK(posenc_rope_vec_f64(&n, 100, POSENC_FORWARD, e1) == POSENC_OK);
    CHECK(fabs(e1[1] - cos(1.0)) < 1e-14 && fabs(e1[3] + sin(1.0)) < 1e-14);
    /* the relative property holds: <R(-m) q, R(-n) k> depends on m - n only,
     * and equals the +theta dot at n - m */
    double q[4] = {0.3, -1.2, 2.0, 0.7}, k[4] = {-0.5, 0.4, 1.1, -2.2}, d1, d2, d3;
    CHECK(posenc_rope_vec_dot_f64(&n, 7, 3, q, k, &d1) == POSENC_OK);
    CHECK(posenc_rope_vec_dot_f64(&n, 1007, 1003, q, k, &d2) == POSENC_OK);
    CHECK(posenc_rope_vec_dot_f64(&r, 3, 7, q, k, &d3) == POSENC_OK);
    CHECK(fabs(d1 - d2) < 1e-12 && fabs(d1 - d3) < 1e-12);
}

#ifdef POSENC_HAVE_JSON
static posenc_model *read_config(const char *json)
{
    posenc_model *m = NULL;
    posenc_config_error e;
    if (posenc_model_create(&m) != POSENC_OK)
        return NULL;
    if (posenc_model_from_config_text(json, strlen(json), NULL, m, &e) != POSENC_OK) {
        printf("  %s: %s\n", e.key, e.detail);
        posenc_model_free(m);
        return NULL;
    }
    return m;
}

TEST(registry_reads_nanochat_with_sense_minus_one)
{
    posenc_model *m = read_config("{\"model_type\": \"nanochat\", \"hidden_size\": 64, "
                                  "\"num_attention_heads\": 4, \"num_hidden_layers\": 2}");
    CHECK(m != NULL);
    if (!m)
        return;
    CHECK_EQ_INT(posenc_model_layer_rope_sense(m, 0), -1);
    CHECK_EQ_INT(posenc_model_layer_rope_sense(m, 1), -1);
    CHECK_EQ_INT(posenc_model_layer_rope_sense(m, 2), 0); /* no layer 2 */
    CHECK_EQ_INT(posenc_model_layer_rope_sense(NULL, 0), 0);
    char line[512];
    CHECK(posenc_model_layer_describe(m, 0, line, sizeof line) == POSENC_OK);
    CHECK(strstr(line, " sense=-1") != NULL);
    /* the layer's RoPE: head_dim 16, base 10000, every frequency negated */
    posenc_rope r, plain;
    CHECK(posenc_model_layer_rope(m, 1, 4096, &r) == POSENC_OK);
    CHECK(posenc_rope_init(&plain, 16, 16, 10000.0, POSENC_LAYOUT_HALF) == POSENC_OK);
    int bad = r.head_dim != 16 || r.layout != POSENC_LAYOUT_HALF;
    for (uint32_t k = 0; k < 8; k++)
        bad += r.inv_freq_hi[k] != -plain.inv_freq_hi[k] ||
               r.inv_freq_lo[k] != -plain.inv_freq_lo[k];
    CHECK_EQ_INT(bad, 0);
    /* e0 at position 1: (cos 1, .., -sin 1 at element 8) */
    double e0[16] = {1};
    CHECK(posenc_rope_vec_f64(&r, 1, POSENC_FORWARD, e0) == POSENC_OK);
    CHECK(fabs(e0[0] - cos(1.0)) < 1e-15 && fabs(e0[8] + sin(1.0)) < 1e-15);
    /* a copy keeps the sense; SET's replacement configuration too */
    posenc_model *c = NULL;
    CHECK(posenc_model_create(&c) == POSENC_OK && posenc_model_copy(c, m) == POSENC_OK);
    CHECK_EQ_INT(posenc_model_layer_rope_sense(c, 0), -1);
    posenc_rope_config cfg;
    CHECK(posenc_model_layer_rope_config(c, 0, &cfg) == POSENC_OK);
    cfg.layout = POSENC_LAYOUT_INTERLEAVED;
    CHECK(posenc_model_set_layer_rope(c, 0, &cfg) == POSENC_OK);
    CHECK_EQ_INT(posenc_model_layer_rope_sense(c, 0), -1);
    posenc_model_free(c);
    posenc_model_free(m);

    /* llama turns by +theta */
    m = read_config("{\"model_type\": \"llama\", \"hidden_size\": 64, "
                    "\"num_attention_heads\": 4, \"num_hidden_layers\": 1}");
    CHECK(m != NULL);
    CHECK_EQ_INT(posenc_model_layer_rope_sense(m, 0), 1);
    CHECK(posenc_model_layer_describe(m, 0, line, sizeof line) == POSENC_OK);
    CHECK(strstr(line, "sense") == NULL);
    posenc_model_free(m);
    /* a layer without RoPE: 0 (GPT-2's learned table) */
    m = read_config("{\"model_type\": \"gpt2\", \"n_embd\": 64, \"n_head\": 4, \"n_layer\": 1}");
    CHECK(m != NULL);
    CHECK_EQ_INT(posenc_model_layer_rope_sense(m, 0), 0);
    posenc_model_free(m);
}

TEST(nanochat_scaling_keeps_the_sense)
{
    /* rope_parameters' rope_type goes through ROPE_INIT_FUNCTIONS (L67-71):
     * linear factor 2 halves every frequency, still negated */
    posenc_model *m = read_config(
        "{\"model_type\": \"nanochat\", \"hidden_size\": 64, \"num_attention_heads\": 2, "
        "\"num_hidden_layers\": 1, \"rope_parameters\": {\"rope_type\": \"linear\", "
        "\"factor\": 2.0, \"rope_theta\": 1000.0}}");
    CHECK(m != NULL);
    if (!m)
        return;
    posenc_rope r, plain;
    CHECK(posenc_model_layer_rope(m, 0, 10, &r) == POSENC_OK);
    CHECK(posenc_rope_init(&plain, 32, 32, 1000.0, POSENC_LAYOUT_HALF) == POSENC_OK);
    int bad = 0;
    for (uint32_t k = 0; k < 16; k++)
        bad += r.inv_freq_hi[k] != -plain.inv_freq_hi[k] / 2;
    CHECK_EQ_INT(bad, 0);
    posenc_model_free(m);
}
#endif /* POSENC_HAVE_JSON */

int main(void)
{
    RUN(negated_frequencies_turn_by_minus_theta_everywhere);
    RUN(sign_of_sin_by_hand);
#ifdef POSENC_HAVE_JSON
    RUN(registry_reads_nanochat_with_sense_minus_one);
    RUN(nanochat_scaling_keeps_the_sense);
#else
    check_skip("nanochat", 2, "nanochat's registry entry: built without jansson", "libjansson-dev");
#endif
    return check_summary("nanochat");
}
