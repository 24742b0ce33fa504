/* test_gguf_convert.c - is a GGUF file a faithful conversion of its
 * config.json? (posenc_gguf_compare, include/posenc_gguf.h tier 4).
 *
 * For each family, a GGUF file is written here the way llama.cpp's
 * converter writes it (llama-cpp-python 0.3.36's vendor/llama.cpp,
 * convert_hf_to_gguf.py and conversion/; the lines are cited beside each
 * writer) from the config in tests/data: it must match. Then one file per
 * realistic conversion bug: it must mismatch, with the key named.
 *
 *   test_gguf_convert                       the tests
 *   test_gguf_convert --write-fixtures DIR  writes the files (NAME.gguf)
 *                                           the CLI cases read
 *                                           (tests/cli_tests.sh) and exits */
#include "posenc_gguf.h"
#ifdef POSENC_HAVE_JSON
#include "posenc_config.h"
#endif

#include "check.h"
#include "gguf_writer.h"

#include <math.h>

/* ---- the converter, family by family ------------------------------------------- */

/* What every converted model has (conversion/base.py set_gguf_parameters). */
static void common(gw *w, const char *arch, uint32_t ctx, uint32_t emb, uint32_t blocks,
                   uint32_t heads, uint32_t kv)
{
    char k[96];
    kv_str(w, "general.architecture", arch);
#define KEY(tail) (snprintf(k, sizeof k, "%s." tail, arch), k)
    kv_u32(w, KEY("context_length"), ctx);
    kv_u32(w, KEY("embedding_length"), emb);
    kv_u32(w, KEY("block_count"), blocks);
    kv_u32(w, KEY("attention.head_count"), heads);
    kv_u32(w, KEY("attention.head_count_kv"), kv);
#undef KEY
}

static int is(const char *bug, const char *name) { return bug && !strcmp(bug, name); }

/* rope_freqs for llama3 scaling as conversion/llama.py:298-326 computes
 * them: freqs = 1 / base ** (arange(0, dim, 2) / dim) in float32, then per
 * pair wavelen = 2 pi / freq: 1 below old / high, factor above old / low,
 * else 1 / ((1 - smooth) / factor + smooth), smooth = (old / wavelen - low)
 * / (high - low). */
static void llama3_freqs(float *out, uint32_t dim, float base, double factor, double low,
                         double high, double old)
{
    for (uint32_t i = 0; i < dim / 2; i++) {
        float freq = 1.0f / powf(base, (float)(2 * i) / (float)dim);
        double wl = 2 * 3.14159265358979323846 / freq;
        double smooth = (old / wl - low) / (high - low);
        out[i] = (float)(wl < old / high ? 1.0 : wl > old / low ? factor
                                                                : 1 / ((1 - smooth) / factor + smooth));
    }
}

/* Llama 3.1 8B (tests/data/llama-3.1-8b.json) as LlamaModel writes it:
 * rope.freq_base (base.py:1505), rope.dimension_count = head_dim
 * (llama.py:171-173), no scaling keys for llama3 (base.py:1490-1492), and
 * rope_freqs.weight (llama.py:298-326). */
static buf llama31(const char *bug)
{
    gw w = gw_new(3);
    common(&w, "llama", 131072, 4096, 32, 32, 8);
    kv_f32(&w, "llama.rope.freq_base", is(bug, "base") ? 10000.0f : 500000.0f);
    kv_u32(&w, "llama.rope.dimension_count", 128);
    if (is(bug, "factor-key")) { /* the llama3 factor written as a linear one too */
        kv_str(&w, "llama.rope.scaling.type", "linear");
        kv_f32(&w, "llama.rope.scaling.factor", 8.0f);
    }
    float f[64];
    double factor = is(bug, "freqs-factor") ? 32.0 : 8.0; /* Llama 3.2's factor */
    double high = is(bug, "freqs-high") ? 2.0 : 4.0;
    llama3_freqs(f, 128, is(bug, "freqs-base") ? 10000.0f : 500000.0f, factor, 1.0, high, 8192.0);
    if (!is(bug, "freqs-missing"))
        tensor_f32(&w, "rope_freqs.weight", f, 64);
    return gw_finish(&w);
}

/* Qwen2.5 7B Instruct with its YaRN block (tests/data/gguf/) as
 * Qwen2Model writes it: rope.freq_base, rope.scaling.type yarn, factor,
 * original_context_length (base.py:1470-1482, 1505). */
static buf qwen25_yarn(const char *bug)
{
    gw w = gw_new(3);
    common(&w, "qwen2", 32768, 3584, is(bug, "blocks") ? 27 : 28, 28, 4);
    kv_f32(&w, "qwen2.rope.freq_base", 1000000.0f);
    if (!is(bug, "no-scaling")) {
        kv_str(&w, "qwen2.rope.scaling.type", is(bug, "type") ? "linear" : "yarn");
        kv_f32(&w, "qwen2.rope.scaling.factor", is(bug, "factor") ? 2.0f : 4.0f);
        kv_u32(&w, "qwen2.rope.scaling.original_context_length", is(bug, "orig") ? 131072 : 32768);
    }
    if (is(bug, "attn")) /* an attention factor the config does not have */
        kv_f32(&w, "qwen2.rope.scaling.attn_factor", 0.5f);
    return gw_finish(&w);
}

/* Phi-3.5 mini (tests/data/models/phi3-phi-3.5-mini-instruct.json) as
 * Phi3MiniModel writes it (phi.py:148-211): original_context_length,
 * dimension_count int(partial_rotary_factor * n_embd) // n_head = 96,
 * freq_base, attn_factor sqrt(1 + ln(max / orig) / ln(orig)) for longrope
 * (0.1 ln(scale) + 1 is its YaRN formula), the long and short factors as
 * float32 tensors. No rope.scaling.type: set_gguf_parameters does not call
 * the base's. */
static buf phi35(const char *bug, const double *lo, const double *sh)
{
    gw w = gw_new(3);
    common(&w, "phi3", 131072, 3072, 32, 32, 32);
    kv_u32(&w, "phi3.rope.scaling.original_context_length", is(bug, "orig") ? 131072 : 4096);
    kv_u32(&w, "phi3.rope.dimension_count", is(bug, "dims") ? 48 : 96);
    kv_f32(&w, "phi3.rope.freq_base", 10000.0f);
    double scale = 131072.0 / 4096.0;
    double attn = is(bug, "attn") ? 0.1 * log(scale) + 1.0
                                  : sqrt(1 + log(scale) / log(4096.0));
    kv_f32(&w, "phi3.rope.scaling.attn_factor", (float)attn);
    size_t n = is(bug, "dims") ? 24 : 48;
    float l[48], s[48];
    for (size_t i = 0; i < n; i++) {
        l[i] = (float)(is(bug, "swapped") ? sh[i] : lo[i]);
        s[i] = (float)(is(bug, "swapped") ? lo[i] : sh[i]);
    }
    if (is(bug, "long-wrong"))
        l[20] *= 2.0f;
    if (is(bug, "short-wrong"))
        s[7] *= 2.0f;
    if (!is(bug, "long-missing"))
        tensor_f32(&w, "rope_factors_long.weight", l, n);
    if (!is(bug, "short-missing"))
        tensor_f32(&w, "rope_factors_short.weight", s, n);
    return gw_finish(&w);
}

/* Ministral 3 3B (tests/data/models/mistral3-ministral-3-3b-reasoning-2512.json,
 * text_config) as Ministral3Model writes it: the base's YaRN keys
 * (base.py:1470-1482: type, factor, original_context_length, beta_fast,
 * beta_slow) and yarn_log_multiplier = mscale_all_dim (mistral3.py:23-30). */
static buf ministral3(const char *bug)
{
    gw w = gw_new(3);
    common(&w, "mistral3", 262144, 3072, 26, 32, 8);
    kv_u32(&w, "mistral3.attention.key_length", 128);
    kv_u32(&w, "mistral3.rope.dimension_count", 128);
    kv_f32(&w, "mistral3.rope.freq_base", 1000000.0f);
    kv_str(&w, "mistral3.rope.scaling.type", "yarn");
    kv_f32(&w, "mistral3.rope.scaling.factor", 16.0f);
    kv_u32(&w, "mistral3.rope.scaling.original_context_length", 16384);
    kv_f32(&w, "mistral3.rope.scaling.yarn_beta_fast", is(bug, "beta") ? 64.0f : 32.0f);
    kv_f32(&w, "mistral3.rope.scaling.yarn_beta_slow", is(bug, "beta-slow") ? 2.0f : 1.0f);
    if (!is(bug, "log-mul"))
        kv_f32(&w, "mistral3.rope.scaling.yarn_log_multiplier", 1.0f);
    return gw_finish(&w);
}

/* Gemma 3 12B (tests/data/models/gemma3-gemma-3-12b-it.json, text_config)
 * as Gemma3Model writes it: rope.freq_base of the global layers
 * (gemma.py:151), rope.freq_base_swa = rope_local_base_freq (base.py:1362,
 * 1508-1509), the linear factor (base.py:1466-1469), the sliding window
 * (gemma.py:156-157); llama.cpp's default pattern (every 6th layer global)
 * is the config's sliding_window_pattern 6. */
static buf gemma3(const char *bug)
{
    gw w = gw_new(3);
    common(&w, "gemma3", 131072, 3840, 48, 16, 8);
    kv_u32(&w, "gemma3.attention.key_length", 256);
    kv_u32(&w, "gemma3.attention.value_length", 256);
    kv_u32(&w, "gemma3.attention.sliding_window", 1024);
    kv_f32(&w, "gemma3.rope.freq_base", 1000000.0f);
    if (!is(bug, "no-swa-key")) /* older converters: llama.cpp then takes 10000 */
        kv_f32(&w, "gemma3.rope.freq_base_swa", is(bug, "swa-base") ? 1000000.0f : 10000.0f);
    if (!is(bug, "no-linear")) {
        kv_str(&w, "gemma3.rope.scaling.type", "linear");
        kv_f32(&w, "gemma3.rope.scaling.factor", 8.0f);
    }
    return gw_finish(&w);
}

/* Cohere (tests/data/models/cohere-synthetic.json), whose HF code turns
 * neighbouring pairs: llama.cpp's command-r (NORM) as the converter names
 * it, or, as a bug, an arch of rope type NEOX (qwen2). */
static buf cohere(const char *bug)
{
    gw w = gw_new(3);
    const char *arch = is(bug, "arch") ? "qwen2" : "command-r";
    char k[96];
    common(&w, arch, 8192, 8192, 40, 64, 64);
    snprintf(k, sizeof k, "%s.rope.freq_base", arch);
    kv_f32(&w, k, 8000000.0f);
    return gw_finish(&w);
}

/* SmolLM3 3B (tests/data/models/smollm3-3b.json) as SmolLM3Model writes
 * it: llama.cpp's smollm3 graph skips RoPE in every 4th layer
 * (smollm3.cpp:5, 69) as the config's no_rope_layers do; as a bug, the
 * arch written as llama, whose graph turns every layer. */
static buf smollm3(const char *bug)
{
    gw w = gw_new(3);
    const char *arch = is(bug, "arch") ? "llama" : "smollm3";
    char k[96];
    common(&w, arch, 65536, 2048, 36, 16, 4);
    snprintf(k, sizeof k, "%s.rope.freq_base", arch);
    kv_f32(&w, k, 5000000.0f);
    return gw_finish(&w);
}

/* ---- the cases -------------------------------------------------------------------- */

typedef struct conv_case {
    const char *file;    /* the fixture's name */
    const char *config;  /* from the repository root */
    const char *family;  /* which writer */
    const char *bug;     /* NULL: faithful */
    const char *cause;   /* the cause expected first (NULL: match) */
    const char *key;     /* its key */
} conv_case;

#define PHI "tests/data/models/phi3-phi-3.5-mini-instruct.json"
#define LLAMA "tests/data/llama-3.1-8b.json"
#define QWEN "tests/data/gguf/qwen2.5-7b-instruct-yarn.json"
#define MIN3 "tests/data/models/mistral3-ministral-3-3b-reasoning-2512.json"
#define GEM3 "tests/data/models/gemma3-gemma-3-12b-it.json"
#define COH "tests/data/models/cohere-synthetic.json"
#define SMOL "tests/data/models/smollm3-3b.json"

static const conv_case CASES[] = {
    {"llama31", LLAMA, "llama31", NULL, NULL, NULL},
    {"llama31-base", LLAMA, "llama31", "base", "freq-base", "llama.rope.freq_base"},
    {"llama31-freqs-missing", LLAMA, "llama31", "freqs-missing", "rope-freqs-missing",
     "rope_freqs.weight"},
    {"llama31-freqs-factor", LLAMA, "llama31", "freqs-factor", "rope-freqs", "rope_freqs.weight"},
    {"llama31-freqs-high", LLAMA, "llama31", "freqs-high", "rope-freqs", "rope_freqs.weight"},
    {"llama31-freqs-base", LLAMA, "llama31", "freqs-base", "rope-freqs", "rope_freqs.weight"},
    {"llama31-factor-key", LLAMA, "llama31", "factor-key", "scaling-factor",
     "llama.rope.scaling.factor"},
    {"qwen25-yarn", QWEN, "qwen25", NULL, NULL, NULL},
    {"qwen25-yarn-type", QWEN, "qwen25", "type", "scaling-type", "qwen2.rope.scaling.type"},
    {"qwen25-yarn-none", QWEN, "qwen25", "no-scaling", "scaling-type", "qwen2.rope.scaling.type"},
    {"qwen25-yarn-factor", QWEN, "qwen25", "factor", "scaling-factor",
     "qwen2.rope.scaling.factor"},
    {"qwen25-yarn-orig", QWEN, "qwen25", "orig", "original-context",
     "qwen2.rope.scaling.original_context_length"},
    {"qwen25-yarn-attn", QWEN, "qwen25", "attn", "attn-factor", "qwen2.rope.scaling.attn_factor"},
    {"qwen25-yarn-blocks", QWEN, "qwen25", "blocks", "block-count", "qwen2.block_count"},
    {"phi35", PHI, "phi35", NULL, NULL, NULL},
    {"phi35-swapped", PHI, "phi35", "swapped", "rope-factors-swapped", "rope_factors_long.weight"},
    {"phi35-short-missing", PHI, "phi35", "short-missing", "rope-factors-missing",
     "rope_factors_short.weight"},
    {"phi35-long-missing", PHI, "phi35", "long-missing", "rope-factors-missing",
     "rope_factors_long.weight"},
    {"phi35-short-wrong", PHI, "phi35", "short-wrong", "rope-factors-short",
     "rope_factors_short.weight"},
    {"phi35-long-wrong", PHI, "phi35", "long-wrong", "rope-factors-long",
     "rope_factors_long.weight"},
    {"phi35-attn", PHI, "phi35", "attn", "attn-factor", "phi3.rope.scaling.attn_factor"},
    {"phi35-orig", PHI, "phi35", "orig", "original-context",
     "phi3.rope.scaling.original_context_length"},
    {"phi35-dims", PHI, "phi35", "dims", "dimension-count", "phi3.rope.dimension_count"},
    {"ministral3", MIN3, "ministral3", NULL, NULL, NULL},
    {"ministral3-log-mul", MIN3, "ministral3", "log-mul", "attn-factor",
     "mistral3.rope.scaling.yarn_log_multiplier"},
    {"ministral3-beta", MIN3, "ministral3", "beta", "yarn-beta-fast",
     "mistral3.rope.scaling.yarn_beta_fast"},
    {"ministral3-beta-slow", MIN3, "ministral3", "beta-slow", "yarn-beta-slow",
     "mistral3.rope.scaling.yarn_beta_slow"},
    {"gemma3", GEM3, "gemma3", NULL, NULL, NULL},
    {"gemma3-swa-base", GEM3, "gemma3", "swa-base", "freq-base-swa", "gemma3.rope.freq_base_swa"},
    {"gemma3-no-linear", GEM3, "gemma3", "no-linear", "scaling-factor",
     "gemma3.rope.scaling.factor"},
    {"gemma3-no-swa-key", GEM3, "gemma3", "no-swa-key", NULL, NULL}, /* llama.cpp's 10000 */
    {"cohere", COH, "cohere", NULL, NULL, NULL},
    {"cohere-arch", COH, "cohere", "arch", "rope-type", "general.architecture"},
    {"smollm3", SMOL, "smollm3", NULL, NULL, NULL},
    {"smollm3-arch", SMOL, "smollm3", "arch", "layer-with-rope", "general.architecture"},
};
#define N_CASES (sizeof CASES / sizeof CASES[0])

/* Phi-3.5's factors, read from its config as the converter reads them. */
static double phi_long[48], phi_short[48];

#ifdef POSENC_HAVE_JSON
static int read_phi_factors(void)
{
    posenc_rope_config *c = malloc(sizeof *c);
    posenc_model *m = NULL;
    posenc_config_error e;
    int ok = c && posenc_model_create(&m) == POSENC_OK &&
             posenc_model_from_config(PHI, NULL, m, &e) == POSENC_OK &&
             posenc_model_layer_rope_config(m, 0, c) == POSENC_OK &&
             c->scaling.n_long_factor == 48;
    for (int i = 0; ok && i < 48; i++) {
        phi_long[i] = c->long_factor[i];
        phi_short[i] = c->short_factor[i];
    }
    posenc_model_free(m);
    free(c);
    return ok;
}
#endif

static buf write_case(const conv_case *k)
{
    const char *f = k->family;
    return !strcmp(f, "llama31")      ? llama31(k->bug)
           : !strcmp(f, "qwen25")     ? qwen25_yarn(k->bug)
           : !strcmp(f, "phi35")      ? phi35(k->bug, phi_long, phi_short)
           : !strcmp(f, "ministral3") ? ministral3(k->bug)
           : !strcmp(f, "gemma3")     ? gemma3(k->bug)
           : !strcmp(f, "smollm3")    ? smollm3(k->bug)
                                      : cohere(k->bug);
}

#ifdef POSENC_HAVE_JSON
static void run_case(const conv_case *k)
{
    buf f = write_case(k);
    posenc_gguf *g = NULL;
    posenc_gguf_hparams hp;
    posenc_load_error e;
    posenc_config_error ce;
    posenc_model *m = NULL;
    posenc_gguf_cause causes[8];
    size_t n = 99;
    FILE *in = fmemopen(f.p, f.n, "r");
    CHECK(in != NULL);
    int ok = in && posenc_gguf_read(in, NULL, &g, &e) == POSENC_OK &&
             posenc_gguf_llama_hparams(g, &hp, &e) == POSENC_OK;
    if (in)
        fclose(in);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  %s: %s\n", k->file, e.detail);
    ok = ok && posenc_model_create(&m) == POSENC_OK &&
         posenc_model_from_config(k->config, NULL, m, &ce) == POSENC_OK;
    CHECK(ok);
    if (ok && posenc_gguf_compare(g, &hp, m, 0, causes, 8, &n, &e) != POSENC_OK) {
        CHECK(0);
        fprintf(stderr, "  %s: %s\n", k->file, e.detail);
    } else if (ok) {
        if (!k->cause) {
            CHECK_EQ_INT((long long)n, 0);
        } else {
            CHECK_EQ_INT((long long)n, 1); /* the bug, and nothing that follows from it */
            int found = n >= 1 && !strcmp(causes[0].name, k->cause) && !strcmp(causes[0].key, k->key);
            CHECK(found);
            if (!found)
                fprintf(stderr, "  %s: want %s key=%s\n", k->file, k->cause, k->key);
        }
        for (size_t i = 0; i < n && i < 8 && (!k->cause || !(n >= 1 && !strcmp(causes[0].name, k->cause))); i++)
            fprintf(stderr, "  %s: CAUSE name=%s key=%s layer=%u %s\n", k->file, causes[i].name,
                    causes[i].key, causes[i].layer, causes[i].detail);
    }
    posenc_model_free(m);
    posenc_gguf_free(g);
    free(f.p);
}

TEST(faithful_conversions_match)
{
    for (size_t i = 0; i < N_CASES; i++)
        if (!CASES[i].bug)
            run_case(&CASES[i]);
}

TEST(each_conversion_bug_is_named_by_its_key)
{
    for (size_t i = 0; i < N_CASES; i++)
        if (CASES[i].bug)
            run_case(&CASES[i]);
}

TEST(arguments_are_checked)
{
    size_t n = 7;
    posenc_gguf_hparams hp;
    memset(&hp, 0, sizeof hp);
    CHECK(posenc_gguf_compare(NULL, &hp, NULL, 0, NULL, 0, &n, NULL) == POSENC_ERR_NULL);
    CHECK_EQ_INT((long long)n, 7);
    /* with a real file and model: each NULL, and causes counted past cap */
    buf f = llama31("base");
    posenc_gguf *g = NULL;
    posenc_load_error e;
    posenc_config_error ce;
    posenc_model *m = NULL;
    FILE *in = fmemopen(f.p, f.n, "r");
    int ok = in && posenc_gguf_read(in, NULL, &g, &e) == POSENC_OK &&
             posenc_gguf_llama_hparams(g, &hp, &e) == POSENC_OK &&
             posenc_model_create(&m) == POSENC_OK &&
             posenc_model_from_config(LLAMA, NULL, m, &ce) == POSENC_OK;
    if (in)
        fclose(in);
    CHECK(ok);
    if (ok) {
        posenc_gguf_cause one;
        CHECK_EQ_INT(posenc_gguf_compare(g, NULL, m, 0, &one, 1, &n, &e), POSENC_ERR_NULL);
        CHECK_EQ_INT(posenc_gguf_compare(g, &hp, NULL, 0, &one, 1, &n, &e), POSENC_ERR_NULL);
        CHECK_EQ_INT(posenc_gguf_compare(g, &hp, m, 0, &one, 1, NULL, &e), POSENC_ERR_NULL);
        CHECK_EQ_INT(posenc_gguf_compare(g, &hp, m, 0, NULL, 1, &n, &e), POSENC_ERR_NULL);
        CHECK_EQ_INT((long long)n, 7);
        /* cap 0: the cause counted once (one per name and key, past cap
         * too, though the base shows in every layer), none stored */
        CHECK(posenc_gguf_compare(g, &hp, m, 0, NULL, 0, &n, NULL) == POSENC_OK);
        CHECK_EQ_INT((long long)n, 1);
        /* at a context of 8192 the same cause */
        CHECK(posenc_gguf_compare(g, &hp, m, 8192, &one, 1, &n, &e) == POSENC_OK);
        CHECK(n == 1 && !strcmp(one.name, "freq-base") && !strcmp(one.key, "llama.rope.freq_base"));
    }
    posenc_model_free(m);
    posenc_gguf_free(g);
    free(f.p);
}
#endif

/* ---- fixtures for the CLI cases ------------------------------------------------- */

/* DeepSeek-V2-Lite (tests/data/deepseek-v2-lite.json) as DeepseekV2Model
 * writes its RoPE keys (conversion/deepseek.py:372-386): an arch whose
 * per-layer rules (MLA) posenc_gguf_llama_layer refuses by name, for the
 * CLI's refusal cases. */
static buf deepseek2(void)
{
    gw w = gw_new(3);
    common(&w, "deepseek2", 163840, 2048, 27, 16, 1);
    kv_u32(&w, "deepseek2.attention.key_length", 576);
    kv_u32(&w, "deepseek2.rope.dimension_count", 64);
    kv_f32(&w, "deepseek2.rope.freq_base", 10000.0f);
    kv_str(&w, "deepseek2.rope.scaling.type", "yarn");
    kv_f32(&w, "deepseek2.rope.scaling.factor", 40.0f);
    kv_u32(&w, "deepseek2.rope.scaling.original_context_length", 4096);
    kv_f32(&w, "deepseek2.rope.scaling.yarn_log_multiplier", 0.0707f);
    return gw_finish(&w);
}

/* Files for the CLI's refusals and EXPLAIN MODEL's key listing (none is a
 * conversion): a scaling type llama.cpp does not know (refused by the
 * loader, llama-model.cpp:1417-1420); grok with yarn_ext_factor 0.5, an op
 * (ext_factor neither 0 nor 1) that has no posenc_rope_config; qwen2vl
 * (M-RoPE, its layers not modelled here) with rope keys of every type
 * EXPLAIN MODEL prints, those llama.cpp does not read included. */
static buf bad_scaling(void)
{
    gw w = gw_new(3);
    common(&w, "qwen2", 32768, 3584, 28, 28, 4);
    kv_str(&w, "qwen2.rope.scaling.type", "su");
    return gw_finish(&w);
}

static buf grok_ext(void)
{
    gw w = gw_new(3);
    common(&w, "grok", 8192, 6144, 4, 48, 8);
    kv_f32(&w, "grok.rope.freq_base", 10000.0f);
    kv_str(&w, "grok.rope.scaling.type", "yarn");
    kv_f32(&w, "grok.rope.scaling.factor", 4.0f);
    kv_f32(&w, "grok.rope.scaling.yarn_ext_factor", 0.5f);
    return gw_finish(&w);
}

static buf qwen2vl_keys(void)
{
    gw w = gw_new(2);
    common(&w, "qwen2vl", 32768, 3584, 28, 28, 4);
    kv_f32(&w, "qwen2vl.rope.freq_base", 1000000.0f);
    int32_t sec[4] = {16, 24, 24, 0}, nine[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    kv_arr_i32(&w, "qwen2vl.rope.dimension_sections", sec, 4);
    kv_arr_i32(&w, "qwen2vl.rope.note_i32s", nine, 9);
    kv_bool(&w, "qwen2vl.rope.note_bool", 1);
    kv_bool(&w, "qwen2vl.rope.note_off", 0);
    kv_f64(&w, "qwen2vl.rope.note_f64", 0.25);
    kv_u64(&w, "qwen2vl.rope.note_u64", 12345678901ull);
    kv_head(&w, "qwen2vl.rope.note_i32", 5);
    put_u32(&w.kv, (uint32_t)-7);
    kv_str(&w, "qwen2vl.rope.note_str", "a b");
    kv_str(&w, "qwen2vl.tokenizer_note", "not a rope key");
    kv_str(&w, "qwen2.rope.other_arch", "not this arch");
    return gw_finish(&w);
}

static int write_fixtures(const char *dir)
{
#ifdef POSENC_HAVE_JSON
    if (!read_phi_factors())
        return 0;
#endif
    char dpath[4096];
    static const char *const extra[] = {"deepseek2", "bad-scaling", "grok-ext", "qwen2vl-keys"};
    for (int i = 0; i < 4; i++) {
        snprintf(dpath, sizeof dpath, "%s/%s.gguf", dir, extra[i]);
        buf d = i == 0 ? deepseek2() : i == 1 ? bad_scaling() : i == 2 ? grok_ext() : qwen2vl_keys();
        int dok = gw_save(&d, dpath);
        free(d.p);
        if (!dok)
            return 0;
    }
    for (size_t i = 0; i < N_CASES; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.gguf", dir, CASES[i].file);
        buf f = write_case(&CASES[i]);
        int ok = gw_save(&f, path);
        free(f.p);
        if (!ok) {
            fprintf(stderr, "test_gguf_convert: cannot write %s\n", path);
            return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--write-fixtures"))
        return write_fixtures(argv[2]) ? 0 : 1;
#ifdef POSENC_HAVE_JSON
    CHECK(read_phi_factors());
    RUN(faithful_conversions_match);
    RUN(each_conversion_bug_is_named_by_its_key);
    RUN(arguments_are_checked);
#else
    (void)check__failed_checks;
    check_skip("gguf_convert", 3, "the conversions against config.json files", "libjansson-dev");
#endif
    return check_summary("gguf_convert");
}
