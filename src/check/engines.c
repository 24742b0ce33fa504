/* engines.c - the engine arithmetic models: how a real engine forms its
 * angles, written from the engines' published arithmetic (no engine code).
 *
 * exact         theta = pos * inv_freq, inv_freq the double-double of posenc_rope.
 *
 * f32-product   transformers' eager float32 and a float32 cos/sin cache:
 *                   inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
 *               every step a float32 tensor op (transformers 5.23.0,
 *               modeling_rope_utils.py, _compute_default_rope_parameters; each
 *               family's copy of it), then
 *                   freqs = inv_freq.float() @ position_ids.float()
 *               one float32 product per angle (models/llama/modeling_llama.py,
 *               LlamaRotaryEmbedding.forward), cos/sin of that float. vLLM builds
 *               the same products once into a table (vllm-project/vllm at
 *               0042be24, vllm/model_executor/layers/rotary_embedding.py,
 *               RotaryEmbedding._compute_inv_freq and _compute_cos_sin_cache:
 *               torch.einsum("i,j -> ij", t, inv_freq) over t = arange(max_pos)
 *               in float32, then cache.to(dtype) in __init__: a bf16 model's
 *               table is rounded to bf16, the cache-bf16 engine). A scaling's
 *               own float32 steps (llama3's smoothing, YaRN's blend) are taken
 *               as one more rounding: inv_freq_f32 = fl32(default_f32 * ratio),
 *               ratio = the scaled frequency over the plain one, exact.
 *
 * ggml-chain    ggml's CPU ggml_rope_ext as llama.cpp calls it (llama-cpp-python
 *               0.3.36's vendored llama.cpp; L = vendor/llama.cpp):
 *                 theta_scale = powf(freq_base, -2.0f/n_dims)
 *                     L/ggml/src/ggml-cpu/ops.cpp:6372
 *                 theta = (float)p, then per pair theta *= theta_scale, in float32
 *                     ops.cpp:6204-6218 (ggml_rope_cache_init), called at 6416
 *                 theta_extrap = theta / ff (ff = freq_factors[k] or 1.0f)
 *                     ops.cpp:6209-6212
 *                 theta_interp = freq_scale * theta_extrap; with ext_factor != 0
 *                     ramp_mix = rope_yarn_ramp(corr0, corr1, i0) * ext_factor,
 *                     theta = theta_interp * (1 - ramp_mix) + theta_extrap * ramp_mix,
 *                     mscale *= 1 + 0.1 logf(1 / freq_scale)   ops.cpp:6187-6202
 *                 rope_yarn_ramp: y = (i0/2 - low) / MAX(0.001f, high - low),
 *                     1 - MIN(1, MAX(0, y))                    ops.cpp:6180-6183
 *                 corr dims: n_dims * logf(n_ctx_orig / (beta * 2 * (float)M_PI))
 *                     / (2 * logf(base)), floorf for beta_fast, ceilf for
 *                     beta_slow, clamped to [0, n_dims - 1]
 *                     L/ggml/src/ggml.c:4478-4490 (ggml_rope_yarn_corr_dims)
 *                 cos/sin: cosf(theta) * mscale in float32     ops.cpp:6200-6201
 *               and the arguments llama.cpp gives it: freq_scale = 1/factor for
 *               linear and yarn (L/src/llama-model.cpp:1429), ext_factor 1 for
 *               yarn, else 0 (L/src/llama-context.cpp:173-175), the attention
 *               factor that with ggml's own mscale gives the model's
 *               (llama-context.cpp:177-214: YaRN's get_mscale times the cancel
 *               1 / (1 + 0.1 logf(factor)), times rope.scaling.attn_factor,
 *               which for LongRoPE is sqrt(1 + ln(s) / ln(L)),
 *               L/conversion/phi.py:194-202), Llama 3's rope_freqs
 *               (llama3_rope_freqs below) and LongRoPE's lists as freq_factors
 *               in float32 (phi.py:210-211; the long list past the original
 *               context, L/src/llama-model.cpp:2345-2346).
 *
 * An engine model describes the angles. What an engine then rounds to a 16-bit
 * float (its cos/sin table, its inv_freq buffer) is a dtype-rounding on top. */
#include "check_impl.h"

#include <string.h>

/* ---- the dtypes' units (fit.c measures with them; here at the bottom of src/check) ---------------------------------------------------------- */

/* ulp_dtype(v) = 2^(floor(log2 v) - (bits - 1)), v below the smallest normal
 * counting as that normal. */
double posenc__unit_of(double v, int bits, int emin)
{
    uint64_t w;
    memcpy(&w, &v, sizeof w);
    int e = (int)((w >> 52) & 0x7FF) - 1023; /* floor(log2 v) for a normal v > 0 */
    if (e < emin)
        e = emin;
    uint64_t r = (uint64_t)(e - (bits - 1) + 1023) << 52;
    double u;
    memcpy(&u, &r, sizeof u);
    return u;
}

/* v rounded to nearest-even with `bits` significand bits (subnormals below 2^emin). */
double posenc__round_sig(double v, int bits, int emin)
{
    if (v == 0 || !isfinite(v))
        return v;
    int e = ilogb(v);
    int q = (e < emin ? emin : e) - (bits - 1);
    return ldexp(nearbyint(ldexp(v, -q)), q);
}

/* ---- the models ----------------------------------------------------------------- */

const char *posenc__angle_model_name(angle_model m)
{
    switch (m) {
    case ANGLE_EXACT: return "exact";
    case ANGLE_F32_PRODUCT: return "f32-product";
    case ANGLE_GGML_CHAIN: return "ggml-chain";
    case ANGLE_N: break;
    }
    return "unknown";
}

static const char *const ENGINE_NAMES[] = {"exact", "ggml", "hf", "hf-bf16", "cache-f32",
                                           "cache-bf16"};
#define N_ENGINES (sizeof ENGINE_NAMES / sizeof ENGINE_NAMES[0])

const char *posenc_check_engine_name(posenc_check_engine e)
{
    return (unsigned)e < N_ENGINES ? ENGINE_NAMES[e] : "unknown";
}

posenc_status posenc_check_engine_parse(const char *word, posenc_check_engine *out)
{
    if (!word || !out)
        return POSENC_ERR_NULL;
    for (size_t i = 0; i < N_ENGINES; i++)
        if (strcmp(word, ENGINE_NAMES[i]) == 0) {
            *out = (posenc_check_engine)i;
            return POSENC_OK;
        }
    return POSENC_ERR_RANGE;
}

/* Envelopes, float32 ulps of the model's angle: ggml's chain is followed step
 * by step (1 ulp for a compiler's fused multiply-add in YaRN's blend); the
 * float32 product's inv_freq comes from torch's powf and a scaling's own
 * float steps (each within an ulp or two), hence 4. */
#define ENV_GGML 1.0
#define ENV_F32_PRODUCT 4.0

double posenc__angle_model_env(angle_model m)
{
    return m == ANGLE_GGML_CHAIN ? ENV_GGML : m == ANGLE_F32_PRODUCT ? ENV_F32_PRODUCT : 0;
}

void posenc__engine_expect(posenc_check_engine e, angle_model *m, double *env_ulps,
                           int *round_cs, int *round_freq)
{
    *round_cs = *round_freq = ROUND_NONE;
    switch (e) {
    case POSENC_CHECK_ENGINE_GGML:
        *m = ANGLE_GGML_CHAIN;
        *env_ulps = ENV_GGML;
        return;
    case POSENC_CHECK_ENGINE_HF_BF16:
        *round_freq = ROUND_BF16; /* model.to(torch.bfloat16) casts the inv_freq buffer */
        /* fall through */
    case POSENC_CHECK_ENGINE_HF:
    case POSENC_CHECK_ENGINE_CACHE_F32:
        *m = ANGLE_F32_PRODUCT;
        *env_ulps = ENV_F32_PRODUCT;
        return;
    case POSENC_CHECK_ENGINE_CACHE_BF16:
        *m = ANGLE_F32_PRODUCT;
        *env_ulps = ENV_F32_PRODUCT;
        *round_cs = ROUND_BF16; /* cache.to(dtype) */
        return;
    case POSENC_CHECK_ENGINE_EXACT:
        break;
    }
    *m = ANGLE_EXACT;
    *env_ulps = 0;
}

/* The plain frequency base^(-2k/d) in double, to split a scaled frequency
 * into the plain one and its ratio. */
static double plain_freq(double base, uint32_t k, uint32_t d)
{
    return pow(base, -2.0 * (double)k / (double)d);
}

/* ggml_rope_yarn_corr_dim (ggml.c:4478), float32. */
static float corr_dim(int n_dims, int n_ctx_orig, float beta, float base)
{
    float pi = (float)3.14159265358979323846; /* (float)M_PI */
    float q = (float)n_ctx_orig / (beta * 2 * pi);
    return (float)n_dims * logf(q) / (2 * logf(base));
}

/* llama.cpp's converter writes Llama 3's rope_freqs tensor with float32
 * tensor arithmetic (L/conversion/llama.py:298-326, generate_extra_tensors):
 *     freqs = 1.0 / (base ** (arange(0, dim, 2, float32) / dim))
 *     wavelen = 2 * pi / freq; 1 below old_len / high_freq_factor, factor
 *     above old_len / low_freq_factor, else with
 *     smooth = (old_len / wavelen - low) / (high - low):
 *     1 / ((1 - smooth) / factor + smooth)
 * (torch takes the Python scalars into float32). */
static void llama3_rope_freqs(const posenc_rope_config *cfg, uint32_t dim, float *ff)
{
    const posenc_rope_scaling *s = &cfg->scaling;
    float base = (float)cfg->base, factor = (float)s->factor;
    float lo = (float)s->low_freq_factor, hi = (float)s->high_freq_factor;
    double old_len = s->original_max_position_embeddings;
    double lo_wave = old_len / s->low_freq_factor, hi_wave = old_len / s->high_freq_factor;
    float two_pi = (float)(2 * 3.14159265358979323846);
    for (uint32_t k = 0; k < dim / 2; k++) {
        float freq = 1.0f / powf(base, (float)(2 * k) / (float)dim);
        float wavelen = two_pi / freq;
        if ((double)wavelen < hi_wave) {
            ff[k] = 1.0f;
        } else if ((double)wavelen > lo_wave) {
            ff[k] = factor;
        } else {
            float smooth = ((float)old_len / wavelen - lo) / (hi - lo);
            float d = (1 - smooth) / factor;
            ff[k] = 1 / (d + smooth);
        }
    }
}

static void setup_ggml(hyp *h, const posenc_rope_config *cfg)
{
    ggml_args *g = &h->g;
    uint32_t R = h->rope.rotary_dim, P = R / 2;
    float base = (float)cfg->base;
    float e = -2.0f / (float)(int)R;
    g->theta_scale = powf(base, e);
    g->freq_scale = 1.0f;
    g->ext_factor = 0.0f;
    g->corr[0] = g->corr[1] = 0.0f;
    g->has_ff = 0;
    posenc_rope_type t = cfg->scaling.type;
    if (t == POSENC_ROPE_LINEAR || t == POSENC_ROPE_YARN)
        g->freq_scale = 1.0f / (float)cfg->scaling.factor; /* llama-model.cpp:1429 */
    if (t == POSENC_ROPE_YARN) {
        g->ext_factor = 1.0f;
        int n_ctx_orig = (int)cfg->scaling.original_max_position_embeddings;
        float lo = floorf(corr_dim((int)R, n_ctx_orig, (float)cfg->scaling.beta_fast, base));
        float hi = ceilf(corr_dim((int)R, n_ctx_orig, (float)cfg->scaling.beta_slow, base));
        g->corr[0] = lo > 0 ? lo : 0;
        g->corr[1] = hi < (float)(R - 1) ? hi : (float)(R - 1);
        return;
    }
    if (t == POSENC_ROPE_LINEAR)
        return;
    if (t == POSENC_ROPE_LLAMA3 && cfg->scaling.n_freq_factors == 0) {
        llama3_rope_freqs(cfg, R, g->ff);
        g->has_ff = 1;
        return;
    }
    /* every other scaling reaches ggml as per-pair divisors (rope_freqs,
     * LongRoPE's lists, or the ratio a converter would store) */
    for (uint32_t k = 0; k < P; k++) {
        double f = h->rope.inv_freq_hi[k] + h->rope.inv_freq_lo[k];
        g->ff[k] = (float)(plain_freq(cfg->base, k, R) / f);
        if (g->ff[k] != 1.0f)
            g->has_ff = 1;
    }
}

/* transformers' Llama 3 inv_freq, float32 tensor ops (5.23.0,
 * modeling_rope_utils.py:643-662, _compute_llama3_parameters):
 *     wavelen = 2 * math.pi / inv_freq
 *     inv_freq_llama = where(wavelen > low_wavelen, inv_freq / factor, inv_freq)
 *     smooth = (old_len / wavelen - low) / (high - low)
 *     smoothed = (1 - smooth) * inv_freq_llama / factor + smooth * inv_freq_llama
 *     medium (neither below high_wavelen nor above low_wavelen): smoothed. */
static float hf_llama3(const posenc_rope_scaling *s, float inv)
{
    float factor = (float)s->factor, lo = (float)s->low_freq_factor, hi = (float)s->high_freq_factor;
    double old_len = s->original_max_position_embeddings;
    float wavelen = (float)(2 * 3.14159265358979323846) / inv;
    float llama = (double)wavelen > old_len / s->low_freq_factor ? inv / factor : inv;
    if ((double)wavelen < old_len / s->high_freq_factor || (double)wavelen > old_len / s->low_freq_factor)
        return llama;
    float smooth = ((float)old_len / wavelen - lo) / (hi - lo);
    float a = (1 - smooth) * llama;
    a = a / factor;
    float b = smooth * llama;
    return a + b;
}

static void setup_f32_product(hyp *h, const posenc_rope_config *cfg)
{
    uint32_t R = h->rope.rotary_dim, P = R / 2;
    float base = (float)cfg->base;
    int llama3 = cfg->scaling.type == POSENC_ROPE_LLAMA3 && cfg->scaling.n_freq_factors == 0 &&
                 R == cfg->head_dim;
    for (uint32_t k = 0; k < P; k++) {
        /* 1.0 / (base ** (arange(0, dim, 2).float() / dim)), float32 steps */
        float ex = (float)(2 * k) / (float)R;
        float plain = 1.0f / powf(base, ex);
        double f = h->rope.inv_freq_hi[k] + h->rope.inv_freq_lo[k];
        double ratio = f / plain_freq(cfg->base, k, R);
        h->inv32[k] = ratio == 1.0 ? plain : (float)((double)plain * ratio);
        if (llama3)
            h->inv32[k] = hf_llama3(&cfg->scaling, plain);
    }
}

void posenc__engine_setup(hyp *h, angle_model m, const posenc_rope_config *cfg)
{
    h->amodel = m;
    if (m == ANGLE_GGML_CHAIN)
        setup_ggml(h, cfg);
    else if (m == ANGLE_F32_PRODUCT)
        setup_f32_product(h, cfg);
}

/* rope_yarn_ramp (ops.cpp:6180). */
static float yarn_ramp(float lo, float hi, int i0)
{
    float d = hi - lo > 0.001f ? hi - lo : 0.001f;
    float y = (float)(i0 / 2) - lo;
    y = y / d;
    y = y < 0 ? 0 : y > 1 ? 1 : y;
    return 1 - y;
}

void posenc__engine_angles(const hyp *h, double p, float *th)
{
    uint32_t P = h->rope.rotary_dim / 2;
    float fp = (float)p;
    if (h->amodel == ANGLE_F32_PRODUCT) {
        for (uint32_t k = 0; k < P; k++) {
            float f = h->inv32[k];
            if (h->round_freq)
                f = (float)posenc__round_sig(f, h->round_freq == ROUND_BF16 ? 8 : 11,
                                             h->round_freq == ROUND_BF16 ? -126 : -14);
            th[k] = f * fp;
        }
        return;
    }
    /* ggml_rope_cache_init: the chain, then rope_yarn's angle */
    const ggml_args *g = &h->g;
    float theta = fp;
    for (uint32_t k = 0; k < P; k++) {
        float ff = g->has_ff ? g->ff[k] : 1.0f;
        float extrap = theta / ff;
        float interp = g->freq_scale * extrap;
        float t = interp;
        if (g->ext_factor != 0.0f) {
            float mix = yarn_ramp(g->corr[0], g->corr[1], (int)(2 * k)) * g->ext_factor;
            float a = interp * (1 - mix), b = extrap * mix;
            t = a + b;
        }
        th[k] = t;
        theta *= g->theta_scale;
    }
}
