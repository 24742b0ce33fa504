/* gguf_convert.c - is a GGUF file a faithful conversion of a config.json?
 * (posenc_gguf.h, tier 4). Layer by layer, the RoPE transformers runs for
 * the config (a posenc_model from the config reader) is set beside the op
 * llama.cpp derives from the file (posenc_gguf_llama_layer), and each
 * difference is named by the GGUF key or tensor that carries it, as
 * llama.cpp's converter writes them (convert_hf_to_gguf.py and conversion/
 * of llama-cpp-python 0.3.36's vendor/llama.cpp):
 *   conversion/base.py:1359-1377  rope_parameters from rope_scaling,
 *                                 rope_theta, rope_local_base_freq
 *   conversion/base.py:1462-1509  rope.scaling.type/factor (linear, yarn),
 *                                 original_context_length, yarn_* keys,
 *                                 longrope's type, nothing for llama3,
 *                                 rope.freq_base, rope.freq_base_swa
 *   conversion/llama.py:164-173   rope.dimension_count = head_dim
 *   conversion/llama.py:176-181   q/k rows permuted for NORM (the half-split
 *                                 checkpoint run as interleaved pairs)
 *   conversion/llama.py:298-326   rope_freqs.weight from llama3 scaling
 *   conversion/phi.py:148-211     Phi-3 LongRoPE: dimension_count, original
 *                                 context, attn_factor, long/short tensors
 *   conversion/mistral.py:96-106  Mistral YaRN: factor, beta, log multiplier
 *   conversion/gemma.py:141-157   Gemma 3: freq_base of the global layers */
#include "posenc_gguf.h"

#include "internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A cause already found, whether or not it fitted the caller's array:
 * causes are counted once per name and key past cap too. The names and
 * keys are few (one per metadata key and tensor compared), so a fixed
 * record is enough; past it a cause is counted as new. */
#define MAX_SEEN 32
typedef struct {
    const char *name;
    char key[sizeof ((posenc_gguf_cause *)0)->key];
} seen_cause;

typedef struct cmp {
    const posenc_gguf *g;
    const posenc_gguf_hparams *hp;
    posenc_gguf_cause *causes;
    size_t cap, n;
    int hit; /* a cause was found in the layer being compared (new or not) */
    seen_cause seen[MAX_SEEN];
    size_t n_seen;
} cmp;

/* Adds a cause unless one of that name and key is there already. */
static void cause(cmp *x, const char *name, const char *key, uint32_t layer, const char *fmt, ...)
{
    x->hit = 1;
    for (size_t i = 0; i < x->n_seen; i++)
        if (!strcmp(x->seen[i].name, name) && !strcmp(x->seen[i].key, key))
            return;
    if (x->n_seen < MAX_SEEN) {
        x->seen[x->n_seen].name = name;
        snprintf(x->seen[x->n_seen].key, sizeof x->seen[x->n_seen].key, "%s", key);
        x->n_seen++;
    }
    if (x->n < x->cap) {
        posenc_gguf_cause *c = &x->causes[x->n];
        memset(c, 0, sizeof *c);
        c->name = name;
        snprintf(c->key, sizeof c->key, "%s", key);
        c->layer = layer;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->detail, sizeof c->detail, fmt, ap);
        va_end(ap);
    }
    x->n++;
}

/* "{arch}.tail" into k. */
static const char *akey(const cmp *x, char *k, size_t n, const char *tail)
{
    snprintf(k, n, "%.63s.%.90s", x->hp->arch, tail);
    return k;
}

static int has_key(const cmp *x, const char *tail)
{
    char k[160];
    return posenc_gguf_find_key(x->g, akey(x, k, sizeof k, tail)) >= 0;
}

/* |a - b| within rel of |b|. */
static int near(double a, double b, double rel) { return fabs(a - b) <= rel * fabs(b); }

/* The rope_freqs llama.cpp's converter writes for llama3 scaling
 * (conversion/llama.py:298-326): freqs in float32 as torch forms them,
 * base ** (arange(0, dim, 2) / dim), the rest in Python's double. */
static void llama3_factors(const posenc_rope_config *c, float *out)
{
    const posenc_rope_scaling *s = &c->scaling;
    uint32_t dim = c->rotary_dim;
    double factor = s->factor, lo = s->low_freq_factor, hi = s->high_freq_factor;
    double old = s->original_max_position_embeddings;
    double lo_wl = old / lo, hi_wl = old / hi;
    for (uint32_t k = 0; k < dim / 2; k++) {
        float e = (float)(2 * k) / (float)dim;
        float freq = 1.0f / powf((float)c->base, e);
        double wl = 2 * 3.14159265358979323846 / (double)freq;
        double f;
        if (wl < hi_wl)
            f = 1;
        else if (wl > lo_wl)
            f = factor;
        else {
            double smooth = (old / wl - lo) / (hi - lo);
            f = 1 / ((1 - smooth) / factor + smooth);
        }
        out[k] = (float)f;
    }
}

/* The first pair where values v[0..n) differ from want (relative rel), or -1. */
static long first_diff(const float *v, const float *want, size_t n, double rel)
{
    for (size_t k = 0; k < n; k++)
        if (!near(v[k], want[k], rel))
            return (long)k;
    return -1;
}

static void compare_freqs(cmp *x, uint32_t il, const posenc_rope_config *c)
{
    const float *v;
    size_t n;
    float want[POSENC_ROPE_MAX_HEAD_DIM / 2] = {0};
    if (posenc_gguf_factors_get(x->g, POSENC_GGUF_ROPE_FREQS, &v, &n) != POSENC_OK)
        v = NULL;
    if (!v) {
        cause(x, "rope-freqs-missing", "rope_freqs.weight", il,
              "the config's llama3 scaling (factor %.9g) is carried by rope_freqs.weight, "
              "which the file lacks: llama.cpp runs the plain frequencies",
              c->scaling.factor);
        return;
    }
    llama3_factors(c, want);
    long k = n == c->rotary_dim / 2 ? first_diff(v, want, n, 1e-5) : 0;
    if (k < 0)
        return;
    /* the file's factor: its largest value (the low-frequency pairs') */
    float top = 0;
    for (size_t i = 0; i < n; i++)
        top = v[i] > top ? v[i] : top;
    cause(x, "rope-freqs", "rope_freqs.weight", il,
          "pair=%ld got=%.9g want=%.9g file_factor=%.9g (llama3 factor=%.9g low_freq_factor=%.9g "
          "high_freq_factor=%.9g original_max_position_embeddings=%.9g)",
          k, n ? (double)v[k] : 0.0, (double)want[k], (double)top, c->scaling.factor,
          c->scaling.low_freq_factor, c->scaling.high_freq_factor,
          c->scaling.original_max_position_embeddings);
}

static void compare_longrope(cmp *x, uint32_t il, const posenc_rope_config *c)
{
    const float *lo, *sh;
    size_t nl, ns, half = c->rotary_dim / 2;
    float want_l[POSENC_ROPE_MAX_HEAD_DIM / 2], want_s[POSENC_ROPE_MAX_HEAD_DIM / 2];
    if (posenc_gguf_factors_get(x->g, POSENC_GGUF_ROPE_FACTORS_LONG, &lo, &nl) != POSENC_OK)
        lo = NULL;
    if (posenc_gguf_factors_get(x->g, POSENC_GGUF_ROPE_FACTORS_SHORT, &sh, &ns) != POSENC_OK)
        sh = NULL;
    for (size_t k = 0; k < half; k++) {
        want_l[k] = (float)c->long_factor[k];
        want_s[k] = (float)c->short_factor[k];
    }
    if (!lo || !sh) {
        cause(x, "rope-factors-missing", !lo ? "rope_factors_long.weight"
                                             : "rope_factors_short.weight", il,
              "the config's longrope %s factors are not in the file", !lo ? "long" : "short");
        return;
    }
    long dl = nl == half ? first_diff(lo, want_l, half, 1e-6) : 0;
    long ds = ns == half ? first_diff(sh, want_s, half, 1e-6) : 0;
    if (dl >= 0 && ds >= 0 && nl == half && ns == half && first_diff(lo, want_s, half, 1e-6) < 0 &&
        first_diff(sh, want_l, half, 1e-6) < 0) {
        cause(x, "rope-factors-swapped", "rope_factors_long.weight", il,
              "rope_factors_long.weight holds the config's short_factor and "
              "rope_factors_short.weight its long_factor");
        return;
    }
    if (dl >= 0)
        cause(x, "rope-factors-long", "rope_factors_long.weight", il, "pair=%ld got=%.9g want=%.9g",
              dl, nl == half ? (double)lo[dl] : 0.0, (double)want_l[dl]);
    if (ds >= 0)
        cause(x, "rope-factors-short", "rope_factors_short.weight", il,
              "pair=%ld got=%.9g want=%.9g", ds, ns == half ? (double)sh[ds] : 0.0,
              (double)want_s[ds]);
}

/* The key that sets the multiplier of cos and sin in the file, or the one
 * the converter writes for this scaling. */
static const char *attn_key(const cmp *x, const posenc_rope_config *c)
{
    static const char *const tails[] = {"rope.scaling.yarn_log_multiplier",
                                        "rope.scaling.yarn_attn_factor", "rope.scaling.attn_factor"};
    for (size_t i = 0; i < 3; i++)
        if (has_key(x, tails[i]))
            return tails[i];
    if (c->scaling.type == POSENC_ROPE_YARN)
        return c->scaling.mscale_all_dim != 0 ? tails[0] : tails[1];
    return tails[2];
}

/* The multiplier of cos and sin ggml applies for op (ggml-cpu/ops.cpp
 * rope_yarn: attn_factor, times 1 + 0.1 ln(1 / freq_scale) with YaRN). */
static double ggml_mscale(const posenc_gguf_rope_op *op)
{
    float m = op->attn_factor;
    if (op->ext_factor != 0.0f)
        m *= 1.0f + 0.1f * logf(1.0f / op->freq_scale);
    return m;
}

static void compare_scaling(cmp *x, uint32_t il, const posenc_rope_config *c,
                            const posenc_gguf_rope_op *op, int64_t cur_len)
{
    char k[160];
    const posenc_rope_scaling *s = &c->scaling;
    const posenc_gguf_hparams *hp = x->hp;
    posenc_rope_type t = s->type;
    int yarn = t == POSENC_ROPE_YARN;
    double want_scale = t == POSENC_ROPE_LINEAR || yarn ? 1.0 / s->factor : 1.0;
    if (t != POSENC_ROPE_DEFAULT && t != POSENC_ROPE_LINEAR && !yarn && t != POSENC_ROPE_LLAMA3 &&
        t != POSENC_ROPE_LONGROPE) {
        cause(x, "scaling-unsupported", akey(x, k, sizeof k, "rope.scaling.type"), il,
              "transformers' %s scaling has no llama.cpp op", posenc_rope_type_name(t));
        return;
    }
    if (yarn != (op->ext_factor != 0.0f))
        cause(x, "scaling-type", akey(x, k, sizeof k, "rope.scaling.type"), il,
              "got=%s want=%s", posenc_gguf_scaling_name(hp->scaling),
              yarn ? "yarn" : t == POSENC_ROPE_LINEAR ? "linear"
                              : t == POSENC_ROPE_LONGROPE ? "longrope" : "none");
    else if (!near(op->freq_scale, want_scale, 1e-6))
        cause(x, "scaling-factor", akey(x, k, sizeof k, "rope.scaling.factor"), il,
              "got=%.9g want=%.9g (llama.cpp's freq_scale %.9g)", 1.0 / (double)op->freq_scale,
              1.0 / want_scale, (double)op->freq_scale);
    if (yarn || t == POSENC_ROPE_LONGROPE) {
        double L = s->original_max_position_embeddings;
        uint32_t got = yarn ? (uint32_t)op->n_ctx_orig : hp->n_ctx_orig_yarn;
        if ((double)got != L)
            cause(x, "original-context", akey(x, k, sizeof k,
                                              "rope.scaling.original_context_length"),
                  il, "got=%u want=%.9g", got, L);
    }
    if (yarn && !x->hit) {
        if ((float)s->beta_fast != op->beta_fast)
            cause(x, "yarn-beta-fast", akey(x, k, sizeof k, "rope.scaling.yarn_beta_fast"), il,
                  "got=%.9g want=%.9g", (double)op->beta_fast, s->beta_fast);
        if ((float)s->beta_slow != op->beta_slow)
            cause(x, "yarn-beta-slow", akey(x, k, sizeof k, "rope.scaling.yarn_beta_slow"), il,
                  "got=%.9g want=%.9g", (double)op->beta_slow, s->beta_slow);
    }
    if ((uint32_t)op->n_dims != c->rotary_dim)
        ; /* the factor tensors follow the dimensions: named there */
    else if (t == POSENC_ROPE_LLAMA3)
        compare_freqs(x, il, c);
    else if (t == POSENC_ROPE_LONGROPE)
        compare_longrope(x, il, c);
    else if (op->freq_factors && !s->n_freq_factors)
        cause(x, "rope-freqs-unexpected", posenc_gguf_factors_name(op->factors), il,
              "the config's %s RoPE has no per-pair factors; llama.cpp divides by %s's",
              posenc_rope_type_name(t), posenc_gguf_factors_name(op->factors));
    /* the multiplier of cos and sin, once the factor is right */
    posenc_rope r;
    if (!x->hit && posenc_rope_init_config(&r, c, cur_len) == POSENC_OK &&
        !near(ggml_mscale(op), r.attn_factor, 1e-5)) {
        const char *tail = attn_key(x, c);
        cause(x, "attn-factor", akey(x, k, sizeof k, tail), il,
              "cos/sin multiplier got=%.9g want=%.9g", ggml_mscale(op), r.attn_factor);
    }
}

/* What no key above explains: the frequencies themselves, pair by pair. */
static void compare_frequencies(cmp *x, uint32_t il, const posenc_rope_config *c,
                                const posenc_gguf_rope_op *op, int64_t cur_len,
                                posenc_rope_config *scratch)
{
    posenc_rope hf, ll;
    if (posenc_rope_init_config(&hf, c, cur_len) != POSENC_OK ||
        posenc_gguf_op_config(op, c->head_dim, scratch) != POSENC_OK ||
        posenc_rope_init_config(&ll, scratch, cur_len) != POSENC_OK ||
        hf.rotary_dim != ll.rotary_dim)
        return;
    for (uint32_t k = 0; k < hf.rotary_dim / 2; k++) {
        double a = hf.inv_freq_hi[k] + hf.inv_freq_lo[k], b = ll.inv_freq_hi[k] + ll.inv_freq_lo[k];
        if (!near(b, a, 1e-5)) {
            cause(x, "frequencies", "-", il,
                  "pair=%u inv_freq got=%.9g want=%.9g (no single key explains it)", k, b, a);
            return;
        }
    }
}

static void compare_layer(cmp *x, uint32_t il, const posenc_rope_config *c,
                          const posenc_gguf_rope_op *op, int64_t cur_len,
                          posenc_rope_config *scratch)
{
    char k[160], t[64];
    x->hit = 0;
    const char *swa = op->is_swa ? "_swa" : "";
    if (c->layout == POSENC_LAYOUT_INTERLEAVED && op->mode != POSENC_GGUF_ROPE_NORM)
        cause(x, "rope-type", "general.architecture", il,
              "arch=%s runs rope_type=%s (x_i with x_{i+n/2}) on a family whose pairs are "
              "neighbours [cscs] (rope_type norm)",
              x->hp->arch, posenc_gguf_rope_type_name((posenc_gguf_rope_type)op->mode));
    if ((float)c->base != op->freq_base) {
        snprintf(t, sizeof t, "rope.freq_base%s", swa);
        cause(x, op->is_swa ? "freq-base-swa" : "freq-base", akey(x, k, sizeof k, t), il,
              "got=%.9g want=%.9g", (double)op->freq_base, c->base);
    }
    if ((uint32_t)op->n_dims != c->rotary_dim) {
        snprintf(t, sizeof t, "rope.dimension_count%s", swa);
        cause(x, "dimension-count", akey(x, k, sizeof k, t), il,
              "got=%d want=%u (head_dim %u)", op->n_dims, c->rotary_dim, c->head_dim);
    }
    compare_scaling(x, il, c, op, cur_len);
    if (!x->hit)
        compare_frequencies(x, il, c, op, cur_len, scratch);
}

posenc_status posenc_gguf_compare(const posenc_gguf *g, const posenc_gguf_hparams *hp,
                                  const posenc_model *m, uint64_t n_ctx,
                                  posenc_gguf_cause *causes, size_t cap, size_t *n_causes,
                                  posenc_load_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
    if (!g || !hp || !m || !n_causes || (cap && !causes))
        return POSENC_ERR_NULL;
    cmp x = {g, hp, causes, cap, 0, 0, {{0, {0}}}, 0};
    char k[160];
    uint32_t nl = posenc_model_n_layer(m);
    for (uint32_t il = 0; il < nl; il++)
        if (posenc_model_layer_rope_sense(m, il) < 0) /* NanoChat's rotate_half */
            return posenc__load_fail(err, POSENC_ERR_RANGE,
                                     "model_type %s turns q and k by -theta (sense=-1), which "
                                     "no llama.cpp rope op does: not compared",
                                     posenc_model_type(m));
    int64_t cur_len = (int64_t)(n_ctx ? n_ctx : hp->n_ctx_train);
    if (nl != hp->n_layer)
        cause(&x, "block-count", akey(&x, k, sizeof k, "block_count"), 0, "got=%u want=%u",
              hp->n_layer, nl);
    posenc_rope_config *c = malloc(2 * sizeof *c);
    if (!c)
        return posenc__load_fail(err, POSENC_ERR_NOMEM, "out of memory");
    posenc_status s = POSENC_OK;
    for (uint32_t il = 0; il < nl && il < hp->n_layer && s == POSENC_OK; il++) {
        posenc_gguf_rope_op op;
        posenc_layer_info li;
        if ((s = posenc_gguf_llama_layer(g, hp, il, n_ctx, &op, err)) != POSENC_OK)
            break;
        int hf_rotates = posenc_model_layer(m, il, &li) == POSENC_OK &&
                         li.scheme == POSENC_SCHEME_ROPE &&
                         posenc_model_layer_rope_config(m, il, c) == POSENC_OK;
        if (hf_rotates != op.rotates)
            cause(&x, hf_rotates ? "layer-without-rope" : "layer-with-rope",
                  "general.architecture", il,
                  "layer %u: transformers %s RoPE, llama.cpp's %s graph %s", il,
                  hf_rotates ? "applies" : "applies no", hp->arch,
                  op.rotates ? "applies it" : "applies none");
        else if (hf_rotates)
            compare_layer(&x, il, c, &op, cur_len, c + 1);
    }
    free(c);
    if (s == POSENC_OK)
        *n_causes = x.n;
    return s;
}
