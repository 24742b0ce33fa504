/* test_gguf.c - the GGUF reader and llama.cpp's RoPE for a file
 * (include/posenc_gguf.h), on files written here by a tiny GGUF writer:
 * faithful Llama 3.1 (rope_freqs), Qwen2 (NEOX, YaRN keys it ignores),
 * Mistral 3 (YaRN keys it reads), Phi-3 (LongRoPE long/short), Gemma 3
 * (sliding-window layers), and malformed files, each refused with its
 * reason. Expected values are worked out in the comments from llama.cpp's
 * formulas (llama-cpp-python 0.3.36's vendor/llama.cpp), not from the code
 * under test.
 *
 *   test_gguf               the tests
 *   test_gguf --seeds DIR   writes the fuzzing seeds (tests/fuzz/fuzz_gguf.c)
 *                           into DIR and exits */
#include "posenc_gguf.h"

#include "check.h"
#include "fault.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gguf_writer.h"

static posenc_status read_buf(const buf *f, posenc_gguf **g, posenc_load_error *e,
                              const posenc_gguf_limits *lim)
{
    FILE *in = fmemopen(f->p ? (void *)f->p : (void *)"", f->n, "r");
    if (!in)
        abort();
    posenc_status s = posenc_gguf_read(in, lim, g, e);
    fclose(in);
    return s;
}

static int has(const char *detail, const char *want)
{
    if (strstr(detail, want))
        return 1;
    fprintf(stderr, "  message '%s' lacks '%s'\n", detail, want);
    return 0;
}

/* ---- the model files ------------------------------------------------------------- */

/* Llama 3.1 8B as convert_hf_to_gguf.py writes it: no scaling keys, the
 * llama3 rule baked into rope_freqs.weight (64 factors). Each factor, for
 * inv_freq_i = 500000^(-2i/128): wavelen = 2 pi / inv_freq; 1 when
 * wavelen < 8192 / 4, 8 (factor) when wavelen > 8192 / 1, else
 * 1 / ((1 - smooth) / 8 + smooth) with smooth = (8192 / wavelen - 1) / (4 - 1). */
static void llama3_factors(float *f)
{
    for (int i = 0; i < 64; i++) {
        double inv = pow(500000.0, -2.0 * i / 128.0), wl = 2 * 3.14159265358979323846 / inv;
        double smooth = (8192.0 / wl - 1.0) / 3.0;
        f[i] = (float)(wl < 2048.0 ? 1.0 : wl > 8192.0 ? 8.0 : 1.0 / ((1 - smooth) / 8 + smooth));
    }
}

static buf llama31_file(uint32_t version)
{
    gw w = gw_new(version);
    static const char *const toks[] = {"<s>", "hello", "\xc3\xa9t\xc3\xa9"};
    static const int32_t types[] = {3, 1, 1};
    kv_str(&w, "general.architecture", "llama");
    kv_str(&w, "general.name", "Llama 3.1 8B");
    kv_u32(&w, "llama.context_length", 131072);
    kv_u32(&w, "llama.embedding_length", 4096);
    kv_u32(&w, "llama.block_count", 32);
    kv_u32(&w, "llama.feed_forward_length", 14336);
    kv_u32(&w, "llama.attention.head_count", 32);
    kv_u32(&w, "llama.attention.head_count_kv", 8);
    kv_f32(&w, "llama.rope.freq_base", 500000.0f);
    kv_f32(&w, "llama.attention.layer_norm_rms_epsilon", 1e-5f);
    kv_u32(&w, "llama.rope.dimension_count", 128);
    kv_u32(&w, "general.file_type", 1);
    kv_arr_str(&w, "tokenizer.ggml.tokens", toks, 3);
    kv_arr_i32(&w, "tokenizer.ggml.token_type", types, 3);
    kv_bool(&w, "tokenizer.ggml.add_bos_token", 1);
    kv_u64(&w, "general.size", 8030261248ull);
    float f[64];
    llama3_factors(f);
    uint16_t emb[64 * 2] = {0};
    int64_t ne[2] = {64, 2};
    tensor(&w, "token_embd.weight", 2, ne, 1, emb, sizeof emb); /* f16 */
    tensor_f32(&w, "rope_freqs.weight", f, 64);
    return gw_finish(&w);
}

/* Qwen2.5 7B with YaRN added as its model card says (factor 4, original
 * 32768), plus yarn_beta_fast 64, which qwen2 does not read. */
static buf qwen2_file(void)
{
    gw w = gw_new(2);
    kv_str(&w, "general.architecture", "qwen2");
    kv_u32(&w, "qwen2.block_count", 28);
    kv_u32(&w, "qwen2.context_length", 131072);
    kv_u32(&w, "qwen2.embedding_length", 3584);
    kv_u32(&w, "qwen2.attention.head_count", 28);
    kv_u32(&w, "qwen2.attention.head_count_kv", 4);
    kv_f32(&w, "qwen2.rope.freq_base", 1000000.0f);
    kv_str(&w, "qwen2.rope.scaling.type", "yarn");
    kv_f32(&w, "qwen2.rope.scaling.factor", 4.0f);
    kv_u32(&w, "qwen2.rope.scaling.original_context_length", 32768);
    kv_f32(&w, "qwen2.rope.scaling.yarn_beta_fast", 64.0f);
    return gw_finish(&w);
}

/* Mistral 3 with YaRN as its converter writes it (factor 16, original
 * 16384, beta 32 / 1 written explicitly as 4 / 2 to see them read,
 * yarn_log_multiplier 1). */
static buf mistral3_file(void)
{
    gw w = gw_new(3);
    kv_str(&w, "general.architecture", "mistral3");
    kv_u32(&w, "mistral3.block_count", 40);
    kv_u32(&w, "mistral3.context_length", 262144);
    kv_u32(&w, "mistral3.embedding_length", 5120);
    kv_u32(&w, "mistral3.attention.head_count", 32);
    kv_u32(&w, "mistral3.attention.key_length", 128);
    kv_u32(&w, "mistral3.rope.dimension_count", 128);
    kv_f32(&w, "mistral3.rope.freq_base", 1000000000.0f);
    kv_str(&w, "mistral3.rope.scaling.type", "yarn");
    kv_f32(&w, "mistral3.rope.scaling.factor", 16.0f);
    kv_u32(&w, "mistral3.rope.scaling.original_context_length", 16384);
    kv_f32(&w, "mistral3.rope.scaling.yarn_beta_fast", 4.0f);
    kv_f32(&w, "mistral3.rope.scaling.yarn_beta_slow", 2.0f);
    kv_f32(&w, "mistral3.rope.scaling.yarn_log_multiplier", 1.0f);
    return gw_finish(&w);
}

/* Phi-3.5 mini as convert_hf_to_gguf.py writes it (Phi3MiniModel): rope
 * dimension 96, original context 4096, attn_factor sqrt(1 + ln(32) /
 * ln(4096)) = sqrt(1 + 5 ln 2 / (12 ln 2)) = sqrt(17/12), 48 long and 48
 * short factors. */
static buf phi3_file(void)
{
    gw w = gw_new(3);
    kv_str(&w, "general.architecture", "phi3");
    kv_u32(&w, "phi3.context_length", 131072);
    kv_u32(&w, "phi3.rope.scaling.original_context_length", 4096);
    kv_u32(&w, "phi3.embedding_length", 3072);
    kv_u32(&w, "phi3.block_count", 32);
    kv_u32(&w, "phi3.attention.head_count", 32);
    kv_u32(&w, "phi3.attention.head_count_kv", 32);
    kv_u32(&w, "phi3.rope.dimension_count", 96);
    kv_f32(&w, "phi3.rope.freq_base", 10000.0f);
    kv_f32(&w, "phi3.rope.scaling.attn_factor", (float)sqrt(17.0 / 12.0));
    float lo[48], sh[48];
    for (int i = 0; i < 48; i++) {
        lo[i] = 1.0f + 0.5f * (float)i;
        sh[i] = 1.0f + 0.015625f * (float)i;
    }
    tensor_f32(&w, "rope_factors_long.weight", lo, 48);
    tensor_f32(&w, "rope_factors_short.weight", sh, 48);
    return gw_finish(&w);
}

/* Gemma 3 (12 layers) with a sliding window and linear factor 8; no
 * freq_base_swa (llama.cpp then takes 10000). pattern: NULL for the default
 * period 6, else a bool per layer. */
static buf gemma3_file(const unsigned char *pattern)
{
    gw w = gw_new(3);
    kv_str(&w, "general.architecture", "gemma3");
    kv_u32(&w, "gemma3.context_length", 131072);
    kv_u32(&w, "gemma3.embedding_length", 2560);
    kv_u32(&w, "gemma3.block_count", 12);
    kv_u32(&w, "gemma3.attention.head_count", 8);
    kv_u32(&w, "gemma3.attention.key_length", 256);
    kv_u32(&w, "gemma3.attention.sliding_window", 1024);
    kv_f32(&w, "gemma3.rope.freq_base", 1000000.0f);
    kv_str(&w, "gemma3.rope.scaling.type", "linear");
    kv_f32(&w, "gemma3.rope.scaling.factor", 8.0f);
    if (pattern)
        kv_arr_bool(&w, "gemma3.attention.sliding_window_pattern", pattern, 12);
    return gw_finish(&w);
}

/* ---- the reader on faithful files ----------------------------------------------- */

TEST(llama31_metadata_every_type_and_tensor)
{
    for (uint32_t version = 2; version <= 3; version++) {
        buf f = llama31_file(version);
        posenc_gguf *g = NULL;
        posenc_load_error e;
        CHECK_EQ_INT(read_buf(&f, &g, &e, NULL), POSENC_OK);
        if (!g) {
            fprintf(stderr, "  %s\n", e.detail);
            free(f.p);
            continue;
        }
        CHECK_EQ_INT(posenc_gguf_version(g), version);
        CHECK_EQ_INT(posenc_gguf_alignment(g), 32);
        CHECK_EQ_INT(posenc_gguf_n_kv(g), 16);
        CHECK_EQ_INT(posenc_gguf_n_tensors(g), 2);
        /* data offset: the first multiple of 32 after the descriptions, and
         * rope_freqs after the 256 bytes of token_embd (256 = 8 * 32) */
        CHECK_EQ_INT(posenc_gguf_data_offset(g) % 32, 0);
        CHECK_EQ_INT(posenc_gguf_data_offset(g) + 256 + 256, f.n);
        posenc_gguf_value v;
        int64_t i = posenc_gguf_find_key(g, "llama.rope.freq_base");
        CHECK(i >= 0 && posenc_gguf_value_at(g, (uint64_t)i, &v) == POSENC_OK);
        CHECK(v.type == POSENC_GGUF_F32 && v.f == 500000.0);
        i = posenc_gguf_find_key(g, "general.name");
        CHECK(i >= 0 && posenc_gguf_value_at(g, (uint64_t)i, &v) == POSENC_OK);
        CHECK(v.type == POSENC_GGUF_STRING && v.len == 12 && !strcmp(v.str, "Llama 3.1 8B"));
        i = posenc_gguf_find_key(g, "tokenizer.ggml.tokens");
        CHECK(i >= 0 && posenc_gguf_value_at(g, (uint64_t)i, &v) == POSENC_OK);
        CHECK(v.type == POSENC_GGUF_ARRAY && v.elem == POSENC_GGUF_STRING && v.n == 3 && !v.data);
        i = posenc_gguf_find_key(g, "tokenizer.ggml.token_type");
        CHECK(i >= 0 && posenc_gguf_value_at(g, (uint64_t)i, &v) == POSENC_OK);
        CHECK(v.elem == POSENC_GGUF_I32 && v.n == 3 && v.data &&
              ((const unsigned char *)v.data)[0] == 3 && ((const unsigned char *)v.data)[4] == 1);
        i = posenc_gguf_find_key(g, "tokenizer.ggml.add_bos_token");
        CHECK(i >= 0 && posenc_gguf_value_at(g, (uint64_t)i, &v) == POSENC_OK);
        CHECK(v.type == POSENC_GGUF_BOOL && v.u == 1);
        i = posenc_gguf_find_key(g, "general.size");
        CHECK(i >= 0 && posenc_gguf_value_at(g, (uint64_t)i, &v) == POSENC_OK);
        CHECK(v.type == POSENC_GGUF_U64 && v.u == 8030261248ull);
        CHECK(!strcmp(posenc_gguf_key(g, 0), "general.architecture"));
        CHECK(posenc_gguf_key(g, 16) == NULL);
        CHECK_EQ_INT(posenc_gguf_value_at(g, 16, &v), POSENC_ERR_RANGE);
        CHECK_EQ_INT(posenc_gguf_find_key(g, "llama.rope.freq_bas"), -1);
        posenc_gguf_tensor t;
        CHECK(posenc_gguf_tensor_at(g, 0, &t) == POSENC_OK && !strcmp(t.name, "token_embd.weight"));
        CHECK(t.n_dims == 2 && t.ne[0] == 64 && t.ne[1] == 2 && t.ne[2] == 1 && t.type == 1 &&
              t.offset == 0 && t.n_bytes == 256);
        CHECK_EQ_INT(posenc_gguf_find_tensor(g, "rope_freqs.weight"), 1);
        CHECK(posenc_gguf_tensor_at(g, 1, &t) == POSENC_OK && t.offset == 256 && t.n_bytes == 256);
        CHECK_EQ_INT(posenc_gguf_tensor_at(g, 2, &t), POSENC_ERR_RANGE);
        const float *vals;
        size_t n;
        float want[64];
        llama3_factors(want);
        CHECK(posenc_gguf_factors_get(g, POSENC_GGUF_ROPE_FREQS, &vals, &n) == POSENC_OK);
        CHECK(n == 64 && vals && !memcmp(vals, want, sizeof want));
        /* factor 0 is 1 (wavelen 2 pi), factor 63 is 8 (wavelen ~ 1.9e6) */
        CHECK(vals && vals[0] == 1.0f && vals[63] == 8.0f);
        CHECK(posenc_gguf_factors_get(g, POSENC_GGUF_ROPE_FACTORS_LONG, &vals, &n) == POSENC_OK);
        CHECK(vals == NULL && n == 0);
        CHECK_EQ_INT(posenc_gguf_factors_get(g, (posenc_gguf_factors)3, &vals, &n),
                     POSENC_ERR_RANGE);
        posenc_gguf_free(g);
        free(f.p);
    }
}

TEST(names_of_types)
{
    CHECK(!strcmp(posenc_gguf_type_name(POSENC_GGUF_F64), "f64"));
    CHECK(!strcmp(posenc_gguf_type_name((posenc_gguf_type)13), "unknown"));
    CHECK(!strcmp(posenc_gguf_ggml_type_name(12), "q4_K"));
    CHECK(!strcmp(posenc_gguf_ggml_type_name(4), "unknown"));
    CHECK(!strcmp(posenc_gguf_ggml_type_name(43), "unknown"));
    CHECK(!strcmp(posenc_gguf_rope_type_name(POSENC_GGUF_ROPE_IMROPE), "imrope"));
    CHECK(!strcmp(posenc_gguf_scaling_name(POSENC_GGUF_SCALING_LONGROPE), "longrope"));
    CHECK(!strcmp(posenc_gguf_factors_name(POSENC_GGUF_ROPE_FACTORS_SHORT),
                  "rope_factors_short.weight"));
    posenc_gguf_rope_type t, tm;
    /* llama-model.cpp:3052-3101 NORM, 3103-3175 NEOX, 3187-3203 the rest */
    CHECK(posenc_gguf_arch_rope_type("llama", &t, &tm) == POSENC_OK && t == 0 && tm == 0);
    CHECK(posenc_gguf_arch_rope_type("qwen2", &t, &tm) == POSENC_OK && t == 2 && tm == 2);
    CHECK(posenc_gguf_arch_rope_type("qwen2vl", &t, &tm) == POSENC_OK && t == 8);
    CHECK(posenc_gguf_arch_rope_type("qwen3vl", &t, &tm) == POSENC_OK && t == 40);
    CHECK(posenc_gguf_arch_rope_type("glm4", &t, &tm) == POSENC_OK && t == 0 && tm == 8);
    CHECK(posenc_gguf_arch_rope_type("gpt2", &t, &tm) == POSENC_OK && t == -1);
    CHECK_EQ_INT(posenc_gguf_arch_rope_type("dflash", &t, &tm), POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_gguf_arch_rope_type("llama ", &t, &tm), POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_gguf_arch_rope_type(NULL, &t, &tm), POSENC_ERR_NULL);
    posenc_gguf_limits l;
    CHECK(posenc_gguf_limits_default(&l) == POSENC_OK && l.max_kv == 65536);
    CHECK_EQ_INT(posenc_gguf_limits_default(NULL), POSENC_ERR_NULL);
}

/* ---- llama.cpp's RoPE ------------------------------------------------------------- */

static int file_hp(const buf *f, posenc_gguf **g, posenc_gguf_hparams *hp)
{
    posenc_load_error e;
    if (read_buf(f, g, &e, NULL) != POSENC_OK) {
        fprintf(stderr, "  read: %s\n", e.detail);
        return 0;
    }
    if (posenc_gguf_llama_hparams(*g, hp, &e) != POSENC_OK) {
        fprintf(stderr, "  hparams: %s\n", e.detail);
        return 0;
    }
    return 1;
}

TEST(llama31_runs_norm_with_rope_freqs)
{
    buf f = llama31_file(3);
    posenc_gguf *g = NULL;
    posenc_gguf_hparams hp;
    posenc_gguf_rope_op op;
    posenc_load_error e;
    CHECK(file_hp(&f, &g, &hp));
    /* n_rot 128 = 4096 / 32; no scaling keys: "linear", freq_scale 1;
     * n_ctx_orig_yarn = n_ctx_train (llama-model.cpp:1410) */
    CHECK(!strcmp(hp.arch, "llama") && hp.rope_type == POSENC_GGUF_ROPE_NORM);
    CHECK(hp.n_layer == 32 && hp.n_head == 32 && hp.n_embd_head_k == 128 && hp.n_rot == 128);
    CHECK(hp.freq_base == 500000.0f && hp.freq_scale == 1.0f);
    CHECK(hp.scaling == POSENC_GGUF_SCALING_LINEAR && hp.n_ctx_orig_yarn == 131072);
    CHECK(hp.layers_modelled && !hp.swa);
    CHECK(posenc_gguf_llama_layer(g, &hp, 31, 8192, &op, &e) == POSENC_OK);
    /* ext_factor: not yarn -> 0 (llama-context.cpp:173); attn 1 */
    CHECK(op.rotates && !op.is_swa && op.n_dims == 128 && op.mode == 0);
    CHECK(op.n_ctx_orig == 131072 && op.freq_base == 500000.0f && op.freq_scale == 1.0f);
    CHECK(op.ext_factor == 0.0f && op.attn_factor == 1.0f && op.beta_fast == 32.0f &&
          op.beta_slow == 1.0f);
    CHECK(op.freq_factors && op.n_freq_factors == 64 && op.factors == POSENC_GGUF_ROPE_FREQS);
    CHECK_EQ_INT(posenc_gguf_llama_layer(g, &hp, 32, 8192, &op, &e), POSENC_ERR_RANGE);
    CHECK(has(e.detail, "layer 32: the model has 32"));
    CHECK_EQ_INT(posenc_gguf_llama_layer(g, &hp, 0, (uint64_t)1 << 32, &op, &e), POSENC_ERR_POS);
    CHECK_EQ_INT(posenc_gguf_llama_layer(NULL, &hp, 0, 0, &op, &e), POSENC_ERR_NULL);
    posenc_gguf_free(g);
    free(f.p);
}

TEST(qwen2_runs_neox_yarn_without_the_keys_it_does_not_read)
{
    buf f = qwen2_file();
    posenc_gguf *g = NULL;
    posenc_gguf_hparams hp;
    posenc_gguf_rope_op op;
    CHECK(file_hp(&f, &g, &hp));
    /* head 3584 / 28 = 128 = n_rot; qwen2 reads no yarn_beta_* (only grok
     * and mistral3 do): 32 stays */
    CHECK(hp.rope_type == POSENC_GGUF_ROPE_NEOX && hp.n_rot == 128 && hp.yarn_beta_fast == 32.0f);
    CHECK(hp.scaling == POSENC_GGUF_SCALING_YARN && hp.freq_scale == 0.25f);
    CHECK(posenc_gguf_llama_layer(g, &hp, 0, 0, &op, NULL) == POSENC_OK);
    /* yarn: ext_factor 1; attn = mscale(4, 1) / (1 + 0.1 ln 4) with
     * mscale(s, m) = 0.1 m ln s + 1 (llama-context.cpp:178-211), both in
     * float: a * (1 / a) for a = 1 + 0.1 ln 4 ~ 1.1386 */
    float a = 0.1f * 1.0f * logf(4.0f) + 1.0f, want = a * (1.0f / (1.0f + 0.1f * logf(4.0f)));
    CHECK(op.mode == 2 && op.n_dims == 128 && op.n_ctx_orig == 32768);
    CHECK(op.freq_base == 1000000.0f && op.freq_scale == 0.25f && op.ext_factor == 1.0f);
    CHECK(op.attn_factor == want && fabsf(op.attn_factor - 1.0f) <= 2.4e-7f);
    CHECK(op.beta_fast == 32.0f && op.beta_slow == 1.0f && op.freq_factors == NULL);
    posenc_gguf_free(g);
    free(f.p);
}

TEST(mistral3_reads_its_yarn_keys)
{
    buf f = mistral3_file();
    posenc_gguf *g = NULL;
    posenc_gguf_hparams hp;
    posenc_gguf_rope_op op;
    CHECK(file_hp(&f, &g, &hp));
    CHECK(hp.rope_type == POSENC_GGUF_ROPE_NORM && hp.n_rot == 128 && hp.n_embd_head_k == 128);
    CHECK(hp.yarn_beta_fast == 4.0f && hp.yarn_beta_slow == 2.0f && hp.yarn_log_mul == 1.0f);
    CHECK(posenc_gguf_llama_layer(g, &hp, 39, 65536, &op, NULL) == POSENC_OK);
    /* log_mul 1: mscale 1, mscale_all_dims 1: mscale(16,1) / mscale(16,1) = 1,
     * then times 1 / (1 + 0.1 ln 16) ~ 0.78289 (llama-context.cpp:185-211) */
    float m = 0.1f * 1.0f * logf(16.0f) + 1.0f;
    float want = (m / m) * (1.0f / (1.0f + 0.1f * logf(16.0f)));
    CHECK(op.freq_scale == 0.0625f && op.ext_factor == 1.0f && op.n_ctx_orig == 16384);
    CHECK(op.attn_factor == want && fabs(op.attn_factor - 1.0 / (1.0 + 0.1 * log(16.0))) < 1e-6);
    CHECK(op.beta_fast == 4.0f && op.beta_slow == 2.0f);
    posenc_gguf_free(g);
    free(f.p);
}

TEST(deepseek2_log_multiplier_is_divided_by_a_tenth)
{
    gw w = gw_new(3);
    kv_str(&w, "general.architecture", "deepseek2");
    kv_u32(&w, "deepseek2.context_length", 163840);
    kv_u32(&w, "deepseek2.embedding_length", 7168);
    kv_u32(&w, "deepseek2.block_count", 61);
    kv_u32(&w, "deepseek2.attention.head_count", 128);
    kv_u32(&w, "deepseek2.attention.key_length", 192);
    kv_u32(&w, "deepseek2.rope.dimension_count", 64);
    kv_f32(&w, "deepseek2.rope.scaling.yarn_log_multiplier", 0.1f);
    buf f = gw_finish(&w);
    posenc_gguf *g = NULL;
    posenc_gguf_hparams hp;
    posenc_gguf_rope_op op;
    posenc_load_error e;
    CHECK(file_hp(&f, &g, &hp));
    /* deepseek2.cpp:34-37: 0.1f / 0.1f = 1 */
    CHECK(hp.yarn_log_mul == 0.1f / 0.1f && hp.n_rot == 64 && hp.n_embd_head_k == 192);
    /* deepseek2's graph (MLA) is not one op per layer: refused, named */
    CHECK(!hp.layers_modelled);
    CHECK_EQ_INT(posenc_gguf_llama_layer(g, &hp, 0, 0, &op, &e), POSENC_ERR_RANGE);
    CHECK(has(e.detail, "'deepseek2' are not modelled"));
    posenc_gguf_free(g);
    free(f.p);
}

TEST(phi3_longrope_long_or_short_by_the_padded_context)
{
    buf f = phi3_file();
    posenc_gguf *g = NULL;
    posenc_gguf_hparams hp;
    posenc_gguf_rope_op op;
    CHECK(file_hp(&f, &g, &hp));
    CHECK(hp.rope_type == POSENC_GGUF_ROPE_NEOX && hp.n_rot == 96 && hp.n_ctx_orig_yarn == 4096);
    /* no scaling.type: "linear" with factor absent -> freq_scale 1,
     * ext_factor 0; attn_factor = rope.scaling.attn_factor (context.cpp:214) */
    float af = (float)sqrt(17.0 / 12.0);
    struct {
        uint64_t n_ctx;
        posenc_gguf_factors want;
    } cases[] = {
        {4096, POSENC_GGUF_ROPE_FACTORS_SHORT}, /* 4096 pads to 4096, not > 4096 */
        {4000, POSENC_GGUF_ROPE_FACTORS_SHORT}, /* pads to 4096 */
        {3841, POSENC_GGUF_ROPE_FACTORS_SHORT}, /* pads to 3840 + 256 = 4096 */
        {4097, POSENC_GGUF_ROPE_FACTORS_LONG},  /* pads to 4352 > 4096 */
        {0, POSENC_GGUF_ROPE_FACTORS_LONG},     /* n_ctx_train 131072 */
        {1, POSENC_GGUF_ROPE_FACTORS_SHORT},    /* pads to 256 */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        CHECK(posenc_gguf_llama_layer(g, &hp, 7, cases[c].n_ctx, &op, NULL) == POSENC_OK);
        CHECK(op.factors == cases[c].want && op.n_freq_factors == 48 && op.freq_factors);
        CHECK(op.freq_factors && op.freq_factors[2] ==
              (cases[c].want == POSENC_GGUF_ROPE_FACTORS_LONG ? 2.0f : 1.03125f));
        CHECK(op.freq_scale == 1.0f && op.ext_factor == 0.0f && op.attn_factor == af);
        CHECK(op.n_dims == 96 && op.mode == 2 && op.n_ctx_orig == 4096);
    }
    posenc_gguf_free(g);
    free(f.p);
}

TEST(gemma3_sliding_layers_take_their_own_base)
{
    for (int with_array = 0; with_array < 2; with_array++) {
        /* the array says the default period 6 out loud, but shifted by one
         * layer to see it read: layer 0 full, 1-5 SWA, 6 full, ... */
        unsigned char pat[12];
        for (int il = 0; il < 12; il++)
            pat[il] = il % 6 != 0;
        buf f = gemma3_file(with_array ? pat : NULL);
        posenc_gguf *g = NULL;
        posenc_gguf_hparams hp;
        posenc_gguf_rope_op op;
        CHECK(file_hp(&f, &g, &hp));
        CHECK(hp.swa && hp.layers_modelled && hp.n_rot == 256 && hp.freq_scale == 0.125f);
        /* gemma3.cpp:9 no freq_base_swa: the hparams default 10000, scale 1 */
        CHECK(hp.freq_base_swa == 10000.0f && hp.freq_scale_swa == 1.0f);
        for (uint32_t il = 0; il < 12; il++) {
            /* default pattern 6: il % 6 < 5 is SWA (llama-hparams.cpp:15) */
            int swa = with_array ? il % 6 != 0 : il % 6 < 5;
            CHECK(posenc_gguf_llama_layer(g, &hp, il, 32768, &op, NULL) == POSENC_OK);
            CHECK(op.is_swa == swa && op.rotates && op.mode == 2 && op.n_dims == 256);
            CHECK(op.freq_base == (swa ? 10000.0f : 1000000.0f));
            CHECK(op.freq_scale == (swa ? 1.0f : 0.125f));
            CHECK(op.freq_factors == NULL && op.ext_factor == 0.0f && op.attn_factor == 1.0f);
        }
        posenc_gguf_free(g);
        free(f.p);
    }
}

TEST(sliding_window_rules_of_other_archs)
{
    /* cohere2: only SWA layers rotate (period 4: 0,1,2 SWA, 3 full), with
     * the context's base (cohere2.cpp:70-100) */
    gw w = gw_new(3);
    kv_str(&w, "general.architecture", "cohere2");
    kv_u32(&w, "cohere2.context_length", 8192);
    kv_u32(&w, "cohere2.embedding_length", 4096);
    kv_u32(&w, "cohere2.block_count", 8);
    kv_u32(&w, "cohere2.attention.head_count", 32);
    kv_u32(&w, "cohere2.attention.sliding_window", 4096);
    kv_f32(&w, "cohere2.rope.freq_base", 50000.0f);
    kv_f32(&w, "cohere2.rope.freq_base_swa", 7.0f);
    buf f = gw_finish(&w);
    posenc_gguf *g = NULL;
    posenc_gguf_hparams hp;
    posenc_gguf_rope_op op;
    posenc_load_error e;
    CHECK(file_hp(&f, &g, &hp));
    for (uint32_t il = 0; il < 8; il++) {
        CHECK(posenc_gguf_llama_layer(g, &hp, il, 0, &op, NULL) == POSENC_OK);
        CHECK(op.rotates == (il % 4 != 3) && op.freq_base == 50000.0f && op.mode == 0);
    }
    posenc_gguf_free(g);
    free(f.p);
    /* cohere2 without sliding_window: llama.cpp requires the key */
    w = gw_new(3);
    kv_str(&w, "general.architecture", "cohere2");
    kv_u32(&w, "cohere2.context_length", 8192);
    kv_u32(&w, "cohere2.embedding_length", 4096);
    kv_u32(&w, "cohere2.block_count", 8);
    kv_u32(&w, "cohere2.attention.head_count", 32);
    f = gw_finish(&w);
    CHECK(read_buf(&f, &g, &e, NULL) == POSENC_OK);
    CHECK_EQ_INT(posenc_gguf_llama_hparams(g, &hp, &e), POSENC_ERR_FORMAT);
    CHECK(has(e.detail, "key not found: 'cohere2.attention.sliding_window'"));
    posenc_gguf_free(g);
    free(f.p);
    /* olmo2 with a window: SWA layers plain (scale 1, ext 0, attn 1) with
     * the main base; full layers the context's YaRN (olmo2.cpp:115-135) */
    w = gw_new(3);
    kv_str(&w, "general.architecture", "olmo2");
    kv_u32(&w, "olmo2.context_length", 65536);
    kv_u32(&w, "olmo2.embedding_length", 4096);
    kv_u32(&w, "olmo2.block_count", 4);
    kv_u32(&w, "olmo2.attention.head_count", 32);
    kv_u32(&w, "olmo2.attention.sliding_window", 4096);
    kv_f32(&w, "olmo2.rope.freq_base", 500000.0f);
    kv_str(&w, "olmo2.rope.scaling.type", "yarn");
    kv_f32(&w, "olmo2.rope.scaling.factor", 8.0f);
    kv_u32(&w, "olmo2.rope.scaling.original_context_length", 8192);
    f = gw_finish(&w);
    CHECK(file_hp(&f, &g, &hp));
    CHECK(posenc_gguf_llama_layer(g, &hp, 0, 0, &op, NULL) == POSENC_OK);
    CHECK(op.is_swa && op.freq_base == 500000.0f && op.freq_scale == 1.0f &&
          op.ext_factor == 0.0f && op.attn_factor == 1.0f);
    CHECK(posenc_gguf_llama_layer(g, &hp, 3, 0, &op, NULL) == POSENC_OK);
    CHECK(!op.is_swa && op.freq_scale == 0.125f && op.ext_factor == 1.0f);
    posenc_gguf_free(g);
    free(f.p);
}

/* A small file of arch with n_layer layers of 32 heads of 128 and the
 * extra pairs added by the caller (u32 sliding_window when window >= 0). */
static buf small_arch(const char *arch, uint32_t n_layer, long window, float base_swa)
{
    gw w = gw_new(3);
    char key[96];
    kv_str(&w, "general.architecture", arch);
    snprintf(key, sizeof key, "%s.context_length", arch);
    kv_u32(&w, key, 8192);
    snprintf(key, sizeof key, "%s.embedding_length", arch);
    kv_u32(&w, key, 4096);
    snprintf(key, sizeof key, "%s.block_count", arch);
    kv_u32(&w, key, n_layer);
    snprintf(key, sizeof key, "%s.attention.head_count", arch);
    kv_u32(&w, key, 32);
    snprintf(key, sizeof key, "%s.rope.freq_base", arch);
    kv_f32(&w, key, 500000.0f);
    if (window >= 0) {
        snprintf(key, sizeof key, "%s.attention.sliding_window", arch);
        kv_u32(&w, key, (uint32_t)window);
    }
    if (base_swa > 0) {
        snprintf(key, sizeof key, "%s.rope.freq_base_swa", arch);
        kv_f32(&w, key, base_swa);
    }
    return gw_finish(&w);
}

/* Layer il of the file: rotates, is_swa, freq_base. */
static void layer_is(const buf *f, uint32_t il, int rotates, int swa, float base, int line)
{
    posenc_gguf *g = NULL;
    posenc_gguf_hparams hp;
    posenc_gguf_rope_op op;
    posenc_load_error e;
    if (!file_hp(f, &g, &hp) || posenc_gguf_llama_layer(g, &hp, il, 0, &op, &e) != POSENC_OK ||
        op.rotates != rotates || op.is_swa != swa || op.freq_base != base) {
        fprintf(stderr, "%s:%d: layer %u: rotates %d swa %d base %g (want %d %d %g)\n", __FILE__,
                line, il, op.rotates, op.is_swa, (double)op.freq_base, rotates, swa, (double)base);
        check__failed_checks++;
    }
    posenc_gguf_free(g);
}
#define LAYER_IS(f, il, rot, swa, base) layer_is(&(f), il, rot, swa, base, __LINE__)

TEST(per_layer_rules_of_more_archs)
{
    /* gemma2: SWA on every even layer (period 2) whatever the file, with
     * freq_base_swa (gemma2.cpp:3-12) */
    buf f = small_arch("gemma2", 4, -1, 10000.0f);
    LAYER_IS(f, 0, 1, 1, 10000.0f);
    LAYER_IS(f, 1, 1, 0, 500000.0f);
    free(f.p);
    /* gpt-oss: the same period, base_swa defaulting to the base */
    f = small_arch("gpt-oss", 4, 128, 0);
    LAYER_IS(f, 2, 1, 1, 500000.0f);
    LAYER_IS(f, 3, 1, 0, 500000.0f);
    free(f.p);
    /* llama4 with chunks (no sliding_window key): layers 0-2 chunked, 3 NoPE
     * (llama4.cpp:8-23, 142-144) */
    f = small_arch("llama4", 8, -1, 0);
    LAYER_IS(f, 0, 1, 1, 500000.0f);
    LAYER_IS(f, 3, 0, 0, 500000.0f);
    LAYER_IS(f, 6, 1, 1, 500000.0f);
    LAYER_IS(f, 7, 0, 0, 500000.0f);
    free(f.p);
    /* llama4 with sliding_window 0: no chunks, step n_layer = 8, so layer 7
     * (and only it) has no RoPE: (7 + 1) % 8 == 0 */
    f = small_arch("llama4", 8, 0, 0);
    LAYER_IS(f, 3, 1, 0, 500000.0f);
    LAYER_IS(f, 6, 1, 0, 500000.0f);
    LAYER_IS(f, 7, 0, 0, 500000.0f);
    free(f.p);
    /* smollm3: every 4th layer NoPE (smollm3.cpp:5, 69) */
    f = small_arch("smollm3", 8, -1, 0);
    LAYER_IS(f, 2, 1, 0, 500000.0f);
    LAYER_IS(f, 3, 0, 0, 500000.0f);
    free(f.p);
    /* afmoe without a window: no SWA, NoPE step 4 still */
    f = small_arch("afmoe", 8, -1, 7.0f);
    LAYER_IS(f, 0, 1, 0, 500000.0f);
    LAYER_IS(f, 3, 0, 0, 500000.0f);
    free(f.p);
    /* afmoe with one: SWA layers take freq_base_swa */
    f = small_arch("afmoe", 8, 512, 7.0f);
    LAYER_IS(f, 0, 1, 1, 7.0f);
    LAYER_IS(f, 3, 0, 0, 500000.0f);
    free(f.p);
}

/* ---- refusals ------------------------------------------------------------------- */

/* A file whose header says n_t tensors and n_kv pairs, then body. */
static buf raw(uint32_t version, uint64_t n_t, uint64_t n_kv, const buf *body)
{
    buf f = {0};
    put(&f, "GGUF", 4);
    put_u32(&f, version);
    put_u64(&f, n_t);
    put_u64(&f, n_kv);
    if (body)
        put(&f, body->p, body->n);
    return f;
}

static void expect_refusal(const buf *f, posenc_status want, const char *msg, int line)
{
    posenc_gguf *g = (posenc_gguf *)(uintptr_t)1;
    posenc_load_error e;
    posenc_status s = read_buf(f, &g, &e, NULL);
    if (s != want || !strstr(e.detail, msg) || g != (posenc_gguf *)(uintptr_t)1) {
        fprintf(stderr, "%s:%d: status %d (want %d), message '%s' (want '%s')\n", __FILE__, line,
                (int)s, (int)want, e.detail, msg);
        check__failed_checks++;
        if (s == POSENC_OK)
            posenc_gguf_free(g);
    }
}
#define REFUSED(f, st, msg) expect_refusal(&(f), st, msg, __LINE__)

TEST(every_truncation_is_refused)
{
    buf f = llama31_file(3);
    size_t data_start = 0;
    {
        posenc_gguf *g;
        CHECK(read_buf(&f, &g, NULL, NULL) == POSENC_OK);
        data_start = (size_t)posenc_gguf_data_offset(g);
        posenc_gguf_free(g);
    }
    /* every prefix: the metadata cut anywhere, or the data short */
    for (size_t n = 0; n < f.n; n++) {
        buf c = {f.p, n, n};
        posenc_gguf *g = (posenc_gguf *)(uintptr_t)1;
        posenc_load_error e;
        posenc_status s = read_buf(&c, &g, &e, NULL);
        if (s != POSENC_ERR_FORMAT || g != (posenc_gguf *)(uintptr_t)1 ||
            !strstr(e.detail, n < data_start ? "byte " : "past the end of the file")) {
            fprintf(stderr, "  prefix %zu: %d '%s'\n", n, (int)s, e.detail);
            check__failed_checks++;
            if (s == POSENC_OK)
                posenc_gguf_free(g);
            break;
        }
    }
    free(f.p);
}

TEST(header_refusals)
{
    buf f = {0};
    REFUSED(f, POSENC_ERR_FORMAT, "byte 0: the magic \"GGUF\" needs 4 bytes");
    put(&f, "GGML", 4);
    put_u32(&f, 3);
    REFUSED(f, POSENC_ERR_FORMAT, "byte 0: magic 47 47 4d 4c, not \"GGUF\"");
    free(f.p);
    f = raw(1, 0, 0, NULL);
    REFUSED(f, POSENC_ERR_FORMAT, "byte 4: GGUF version 1, only 2 and 3");
    free(f.p);
    f = raw(4, 0, 0, NULL);
    REFUSED(f, POSENC_ERR_FORMAT, "GGUF version 4");
    free(f.p);
    f = raw(0x03000000u, 0, 0, NULL);
    REFUSED(f, POSENC_ERR_FORMAT, "big-endian");
    free(f.p);
    f = raw(3, 0, (uint64_t)1 << 40, NULL);
    REFUSED(f, POSENC_ERR_RANGE, "byte 16: 1099511627776 key/value pairs, outside 0 .. 65536");
    free(f.p);
    f = raw(3, UINT64_MAX, 0, NULL);
    REFUSED(f, POSENC_ERR_FORMAT, "byte 8: -1 tensors");
    free(f.p);
    f = raw(3, 0, 1000, NULL);
    REFUSED(f, POSENC_ERR_FORMAT, "cannot fit in the file");
    free(f.p);
    /* an empty v2 file is fine: no pairs, no tensors */
    f = raw(2, 0, 0, NULL);
    posenc_gguf *g;
    CHECK(read_buf(&f, &g, NULL, NULL) == POSENC_OK && posenc_gguf_data_offset(g) == 24);
    posenc_gguf_free(g);
    /* limits: 0 is refused; the file above its own limit */
    posenc_gguf_limits lim;
    CHECK(posenc_gguf_limits_default(&lim) == POSENC_OK);
    lim.max_array = 0;
    CHECK_EQ_INT(read_buf(&f, &g, NULL, &lim), POSENC_ERR_RANGE);
    free(f.p);
    f = llama31_file(3);
    CHECK(posenc_gguf_limits_default(&lim) == POSENC_OK);
    lim.max_kv = 15;
    posenc_load_error e;
    CHECK_EQ_INT(read_buf(&f, &g, &e, &lim), POSENC_ERR_RANGE);
    CHECK(has(e.detail, "16 key/value pairs, outside 0 .. 15"));
    lim.max_kv = 16;
    lim.max_array = 2;
    CHECK_EQ_INT(read_buf(&f, &g, &e, &lim), POSENC_ERR_RANGE);
    CHECK(has(e.detail, "key 'tokenizer.ggml.tokens': array of 3 elements, above the limit of 2"));
    lim.max_array = 3;
    lim.max_string = 11;
    CHECK_EQ_INT(read_buf(&f, &g, &e, &lim), POSENC_ERR_RANGE);
    /* the first string is the key general.architecture (20 bytes) */
    CHECK(has(e.detail, "byte 24: key 0 of 20 bytes, above the limit of 11"));
    lim.max_string = 16;
    lim.max_tensors = 1;
    CHECK_EQ_INT(read_buf(&f, &g, &e, &lim), POSENC_ERR_RANGE);
    free(f.p);
    CHECK_EQ_INT(posenc_gguf_read(NULL, NULL, &g, NULL), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_gguf_load("/nonexistent/x.gguf", NULL, &g, &e), POSENC_ERR_IO);
    CHECK_EQ_INT(posenc_gguf_load(NULL, NULL, &g, &e), POSENC_ERR_NULL);
    posenc_gguf_free(NULL);
}

TEST(key_value_refusals)
{
    buf b = {0};
    /* a key of 2^40 bytes: above the limit; one of 100 bytes with 10 left */
    put_u64(&b, (uint64_t)1 << 40);
    buf f = raw(3, 0, 1, &b);
    put(&f, "0123456789abcdef", 16);
    REFUSED(f, POSENC_ERR_RANGE, "byte 24: key 0 of 1099511627776 bytes, above the limit");
    free(f.p);
    b.n = 0;
    put_u64(&b, 100);
    put(&b, "0123456789", 10);
    f = raw(3, 0, 1, &b);
    REFUSED(f, POSENC_ERR_FORMAT, "byte 24: key 0 of 100 bytes runs past the end of the file "
                                  "(42 bytes)");
    free(f.p);
    /* empty key; a NUL inside a key */
    b.n = 0;
    put_u64(&b, 0);
    put_u32(&b, 4);
    put_u32(&b, 1);
    f = raw(3, 0, 1, &b);
    REFUSED(f, POSENC_ERR_FORMAT, "byte 24: key 0 is empty");
    free(f.p);
    b.n = 0;
    put_u64(&b, 3);
    put(&b, "a\0b", 3);
    put_u32(&b, 4);
    put_u32(&b, 1);
    f = raw(3, 0, 1, &b);
    REFUSED(f, POSENC_ERR_FORMAT, "key 0 holds a NUL byte");
    free(f.p);
    /* unknown value type; array of arrays; unknown element type */
    gw w = gw_new(3);
    kv_head(&w, "x.y", 13);
    put_u32(&w.kv, 0);
    f = gw_finish(&w);
    REFUSED(f, POSENC_ERR_FORMAT, "key 'x.y' has value type 13, not a GGUF type");
    free(f.p);
    w = gw_new(3);
    kv_head(&w, "x.y", 9);
    put_u32(&w.kv, 9);
    put_u64(&w.kv, 1);
    put_u32(&w.kv, 4);
    put_u64(&w.kv, 0);
    f = gw_finish(&w);
    REFUSED(f, POSENC_ERR_FORMAT, "key 'x.y' is an array of type 9, arrays of arrays are not GGUF");
    free(f.p);
    w = gw_new(3);
    kv_head(&w, "x.y", 9);
    put_u32(&w.kv, 77);
    put_u64(&w.kv, 0);
    f = gw_finish(&w);
    REFUSED(f, POSENC_ERR_FORMAT, "array of type 77, not a GGUF type");
    free(f.p);
    /* an array whose count runs past the file; a string element past it */
    w = gw_new(3);
    kv_head(&w, "x.y", 9);
    put_u32(&w.kv, 4);
    put_u64(&w.kv, 1000);
    put_u32(&w.kv, 1);
    f = gw_finish(&w);
    REFUSED(f, POSENC_ERR_FORMAT, "key 'x.y': array of 1000 u32 runs past the end of the file");
    free(f.p);
    w = gw_new(3);
    static const char *const two[] = {"a", "b"};
    kv_arr_str(&w, "x.y", two, 2);
    f = gw_finish(&w);
    f.n -= 1;
    REFUSED(f, POSENC_ERR_FORMAT, "string 1 of key 'x.y' of 1 bytes runs past the end of the file");
    free(f.p);
    /* duplicate keys: the second named, with both offsets (a u32 pair with
     * key "a.b" takes 8 + 3 + 4 + 4 = 19 bytes, one with "c" 17: 24 + 36) */
    w = gw_new(3);
    kv_u32(&w, "a.b", 1);
    kv_u32(&w, "c", 1);
    kv_f32(&w, "a.b", 2.0f);
    f = gw_finish(&w);
    REFUSED(f, POSENC_ERR_FORMAT, "byte 60: duplicate key 'a.b' (first at byte 24)");
    free(f.p);
    /* alignment: not a power of two; not u32; a valid 64 is used */
    w = gw_new(3);
    kv_u32(&w, "general.alignment", 48);
    f = gw_finish(&w);
    REFUSED(f, POSENC_ERR_FORMAT, "key 'general.alignment': 48 is not a power of 2");
    free(f.p);
    w = gw_new(3);
    kv_u32(&w, "general.alignment", 0);
    f = gw_finish(&w);
    REFUSED(f, POSENC_ERR_FORMAT, "key 'general.alignment': 0 is not a power of 2");
    free(f.p);
    w = gw_new(3);
    kv_u64(&w, "general.alignment", 64);
    f = gw_finish(&w);
    REFUSED(f, POSENC_ERR_FORMAT, "key 'general.alignment' must be of type u32 but is u64");
    free(f.p);
    w = gw_new(3);
    w.align = 64;
    kv_u32(&w, "general.alignment", 64);
    float one = 1.0f;
    tensor_f32(&w, "a", &one, 1);
    tensor_f32(&w, "b", &one, 1);
    f = gw_finish(&w);
    posenc_gguf *g;
    posenc_gguf_tensor t;
    CHECK(read_buf(&f, &g, NULL, NULL) == POSENC_OK);
    CHECK(posenc_gguf_alignment(g) == 64 && posenc_gguf_data_offset(g) % 64 == 0);
    CHECK(posenc_gguf_tensor_at(g, 1, &t) == POSENC_OK && t.offset == 64);
    posenc_gguf_free(g);
    free(f.p);
    free(b.p);
}

/* One tensor description after no pairs: name, dims, type, offset. */
static buf one_tensor(const char *name, uint32_t n_dims, const int64_t *ne, uint32_t type,
                      uint64_t offset, size_t data)
{
    buf b = {0};
    put_str(&b, name);
    put_u32(&b, n_dims);
    for (uint32_t d = 0; d < n_dims; d++)
        put_u64(&b, (uint64_t)ne[d]);
    put_u32(&b, type);
    put_u64(&b, offset);
    buf f = raw(3, 1, 0, &b);
    while (f.n % 32)
        put(&f, "", 1);
    for (size_t k = 0; k < data; k++)
        put(&f, "\0", 1);
    free(b.p);
    return f;
}

TEST(tensor_refusals)
{
    int64_t ne[5] = {64, 1, 1, 1, 1};
    buf f = one_tensor("t", 5, ne, 0, 0, 256);
    REFUSED(f, POSENC_ERR_FORMAT, "tensor 't': 5 dimensions, ggml has at most 4");
    free(f.p);
    int64_t neg[2] = {64, -2};
    f = one_tensor("t", 2, neg, 0, 0, 256);
    REFUSED(f, POSENC_ERR_FORMAT, "tensor 't': dimension 1 is -2, negative");
    free(f.p);
    int64_t big[3] = {(int64_t)1 << 40, (int64_t)1 << 30, 4};
    f = one_tensor("t", 3, big, 0, 0, 0);
    REFUSED(f, POSENC_ERR_FORMAT, "tensor 't': the element count overflows 63 bits");
    free(f.p);
    f = one_tensor("t", 1, ne, 4, 0, 256);
    REFUSED(f, POSENC_ERR_FORMAT, "tensor 't': ggml type 4 was removed from GGUF");
    free(f.p);
    f = one_tensor("t", 1, ne, 99, 0, 256);
    REFUSED(f, POSENC_ERR_FORMAT, "tensor 't': ggml type 99 does not exist");
    free(f.p);
    int64_t odd[1] = {48};
    f = one_tensor("t", 1, odd, 12, 0, 256); /* q4_K: blocks of 256 */
    REFUSED(f, POSENC_ERR_FORMAT, "tensor 't': rows of 48 elements are not whole blocks of 256 "
                                  "(q4_K)");
    free(f.p);
    f = one_tensor("t", 1, ne, 0, 32, 512);
    REFUSED(f, POSENC_ERR_FORMAT, "tensor 't': data offset 32, expected 0");
    free(f.p);
    f = one_tensor("t", 1, ne, 0, 0, 255); /* 64 floats need 256 bytes */
    REFUSED(f, POSENC_ERR_FORMAT, "tensor 't': its data (256 bytes at file byte 64) runs past the "
                                  "end of the file");
    free(f.p);
    f = one_tensor("0123456789012345678901234567890123456789012345678901234567890123", 1, ne, 0,
                   0, 256);
    REFUSED(f, POSENC_ERR_FORMAT, "tensor 0: name of 64 bytes");
    free(f.p);
    /* a q4_0 matrix is sized in blocks: 64 x 2 -> 4 blocks of 18 bytes */
    int64_t q[2] = {64, 2};
    f = one_tensor("q", 2, q, 2, 0, 72);
    posenc_gguf *g;
    posenc_gguf_tensor t;
    CHECK(read_buf(&f, &g, NULL, NULL) == POSENC_OK);
    CHECK(posenc_gguf_tensor_at(g, 0, &t) == POSENC_OK && t.n_bytes == 72);
    posenc_gguf_free(g);
    free(f.p);
    /* duplicate tensor names (a description of "x": 8 + 1 + 4 + 8 + 4 + 8) */
    gw w = gw_new(3);
    float one = 1.0f;
    tensor_f32(&w, "x", &one, 1);
    tensor_f32(&w, "x", &one, 1);
    f = gw_finish(&w);
    REFUSED(f, POSENC_ERR_FORMAT, "byte 57: duplicate tensor name 'x' (first at byte 24)");
    free(f.p);
}

TEST(rope_tensor_refusals)
{
    /* rope_freqs as f16: ggml_rope_ext takes F32 (ggml.c ggml_rope_impl) */
    int64_t ne[2] = {64, 1};
    buf f = one_tensor("rope_freqs.weight", 1, ne, 1, 0, 128);
    REFUSED(f, POSENC_ERR_FORMAT, "tensor 'rope_freqs.weight' is f16: ggml_rope_ext takes F32");
    free(f.p);
    int64_t m[2] = {32, 2};
    f = one_tensor("rope_factors_long.weight", 2, m, 0, 0, 256);
    REFUSED(f, POSENC_ERR_FORMAT, "tensor 'rope_factors_long.weight' has shape [32, 2, 1, 1]");
    free(f.p);
    gw w = gw_new(3);
    float v[4] = {1.0f, 2.0f, NAN, 1.0f};
    tensor_f32(&w, "rope_factors_short.weight", v, 4);
    f = gw_finish(&w);
    REFUSED(f, POSENC_ERR_FORMAT, "tensor 'rope_factors_short.weight': factor 2 is nan, not a "
                                  "finite number > 0");
    free(f.p);
    w = gw_new(3);
    v[2] = 0.0f;
    tensor_f32(&w, "rope_freqs.weight", v, 4);
    f = gw_finish(&w);
    REFUSED(f, POSENC_ERR_FORMAT, "factor 2 is 0, not a finite number > 0");
    free(f.p);
}

TEST(queries_on_null_and_out_of_range)
{
    /* every query of a NULL object answers 0, NULL, -1 or POSENC_ERR_NULL */
    CHECK(posenc_gguf_version(NULL) == 0 && posenc_gguf_alignment(NULL) == 0 &&
          posenc_gguf_data_offset(NULL) == 0 && posenc_gguf_n_kv(NULL) == 0 &&
          posenc_gguf_n_tensors(NULL) == 0);
    CHECK(posenc_gguf_find_key(NULL, "a") == -1 && posenc_gguf_key(NULL, 0) == NULL &&
          posenc_gguf_find_tensor(NULL, "a") == -1);
    posenc_gguf_value v;
    posenc_gguf_tensor t;
    const float *vals;
    size_t n;
    CHECK_EQ_INT(posenc_gguf_value_at(NULL, 0, &v), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_gguf_tensor_at(NULL, 0, &t), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_gguf_factors_get(NULL, POSENC_GGUF_ROPE_FREQS, &vals, &n), POSENC_ERR_NULL);
    CHECK(!strcmp(posenc_gguf_factors_name((posenc_gguf_factors)3), "unknown"));
    CHECK(!strcmp(posenc_gguf_factors_name(POSENC_GGUF_ROPE_FACTORS_SHORT),
                  "rope_factors_short.weight"));
    buf f = llama31_file(3);
    posenc_gguf *g = NULL;
    posenc_load_error e;
    CHECK(read_buf(&f, &g, &e, NULL) == POSENC_OK);
    CHECK(posenc_gguf_find_key(g, NULL) == -1 && posenc_gguf_find_key(g, "llama.nonesuch") == -1);
    CHECK(posenc_gguf_find_tensor(g, NULL) == -1 && posenc_gguf_find_tensor(g, "output.weight") == -1);
    CHECK(posenc_gguf_key(g, posenc_gguf_n_kv(g)) == NULL);
    CHECK_EQ_INT(posenc_gguf_value_at(g, 0, NULL), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_gguf_value_at(g, posenc_gguf_n_kv(g), &v), POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_gguf_tensor_at(g, 0, NULL), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_gguf_tensor_at(g, 2, &t), POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_gguf_factors_get(g, POSENC_GGUF_ROPE_FREQS, NULL, &n), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_gguf_factors_get(g, POSENC_GGUF_ROPE_FREQS, &vals, NULL), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_gguf_factors_get(g, (posenc_gguf_factors)3, &vals, &n), POSENC_ERR_RANGE);
    CHECK(posenc_gguf_factors_get(g, POSENC_GGUF_ROPE_FACTORS_LONG, &vals, &n) == POSENC_OK &&
          vals == NULL && n == 0);
    posenc_gguf_free(g);
    /* reading: NULL arguments, and a limit of 0 */
    FILE *in = fmemopen(f.p, f.n, "r");
    CHECK(in != NULL);
    CHECK_EQ_INT(posenc_gguf_read(NULL, NULL, &g, &e), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_gguf_read(in, NULL, NULL, &e), POSENC_ERR_NULL);
    posenc_gguf_limits lim;
    static const int which[4] = {0, 1, 2, 3};
    for (int k = 0; k < 4; k++) {
        CHECK(posenc_gguf_limits_default(&lim) == POSENC_OK);
        uint64_t *field = which[k] == 0 ? &lim.max_kv : which[k] == 1 ? &lim.max_tensors
                          : which[k] == 2 ? &lim.max_string : &lim.max_array;
        *field = 0;
        g = NULL;
        CHECK_EQ_INT(posenc_gguf_read(in, &lim, &g, &e), POSENC_ERR_RANGE);
        CHECK(g == NULL);
    }
    CHECK_EQ_INT(posenc_gguf_limits_default(NULL), POSENC_ERR_NULL);
    fclose(in);
    free(f.p);
    /* a factor tensor of three dimensions, or of four, or longer than
     * POSENC_MAX_DIM, is refused by its shape */
    int64_t ne3[3] = {4, 1, 2};
    f = one_tensor("rope_freqs.weight", 3, ne3, 0, 0, 32);
    REFUSED(f, POSENC_ERR_FORMAT, "tensor 'rope_freqs.weight' has shape [4, 1, 2, 1]");
    free(f.p);
    int64_t ne4[4] = {4, 1, 1, 2};
    f = one_tensor("rope_freqs.weight", 4, ne4, 0, 0, 32);
    REFUSED(f, POSENC_ERR_FORMAT, "tensor 'rope_freqs.weight' has shape [4, 1, 1, 2]");
    free(f.p);
    int64_t big[1] = {(int64_t)POSENC_MAX_DIM + 1};
    f = one_tensor("rope_freqs.weight", 1, big, 0, 0, 4 * ((size_t)POSENC_MAX_DIM + 1));
    REFUSED(f, POSENC_ERR_FORMAT, "tensor 'rope_freqs.weight' has shape [1048577, 1, 1, 1]");
    free(f.p);
}

/* The llama file with one key replaced (NULL value: removed). */
static buf llama_with(const char *key, int type, double value, const char *str)
{
    gw w = gw_new(3);
    const char *keys[] = {"general.architecture", "llama.context_length",
                          "llama.embedding_length", "llama.block_count",
                          "llama.attention.head_count", "llama.rope.freq_base"};
    for (int k = 0; k < 6; k++) {
        if (strcmp(keys[k], key)) {
            if (k == 0)
                kv_str(&w, keys[k], "llama");
            else if (k == 5)
                kv_f32(&w, keys[k], 500000.0f);
            else
                kv_u32(&w, keys[k], k == 1 ? 8192 : k == 2 ? 4096 : 32);
            continue;
        }
        if (type == 4)
            kv_u32(&w, key, (uint32_t)value);
        else if (type == 6)
            kv_f32(&w, key, (float)value);
        else if (type == 8)
            kv_str(&w, key, str);
        else if (type == 12)
            kv_f64(&w, key, value);
        else if (type == 10)
            kv_u64(&w, key, (uint64_t)value);
    }
    if (!strncmp(key, "llama.rope.", 11) && strcmp(key, "llama.rope.freq_base")) {
        if (type == 4)
            kv_u32(&w, key, (uint32_t)value);
        else if (type == 6)
            kv_f32(&w, key, (float)value);
        else if (type == 8)
            kv_str(&w, key, str);
    }
    return gw_finish(&w);
}

static void expect_hp_refusal(buf f, posenc_status want, const char *msg, int line)
{
    posenc_gguf *g = NULL;
    posenc_gguf_hparams hp;
    posenc_load_error e;
    posenc_status s = read_buf(&f, &g, &e, NULL);
    if (s == POSENC_OK)
        s = posenc_gguf_llama_hparams(g, &hp, &e);
    if (s != want || !strstr(e.detail, msg)) {
        fprintf(stderr, "%s:%d: status %d (want %d), message '%s' (want '%s')\n", __FILE__, line,
                (int)s, (int)want, e.detail, msg);
        check__failed_checks++;
    }
    posenc_gguf_free(g);
    free(f.p);
}
#define HP_REFUSED(f, st, msg) expect_hp_refusal(f, st, msg, __LINE__)

TEST(loader_refusals_name_the_key)
{
    HP_REFUSED(llama_with("llama.rope.freq_base", 12, 500000.0, NULL), POSENC_ERR_FORMAT,
               "key 'llama.rope.freq_base' has wrong type f64 but llama.cpp expects f32");
    HP_REFUSED(llama_with("llama.context_length", 10, 8192, NULL), POSENC_ERR_FORMAT,
               "key 'llama.context_length' has wrong type u64 but llama.cpp expects u32");
    HP_REFUSED(llama_with("llama.context_length", -1, 0, NULL), POSENC_ERR_FORMAT,
               "key not found: 'llama.context_length'");
    HP_REFUSED(llama_with("general.architecture", -1, 0, NULL), POSENC_ERR_FORMAT,
               "key not found: 'general.architecture'");
    HP_REFUSED(llama_with("general.architecture", 4, 1, NULL), POSENC_ERR_FORMAT,
               "key 'general.architecture' has wrong type u32 but llama.cpp expects str");
    HP_REFUSED(llama_with("general.architecture", 8, 0, "llama5"), POSENC_ERR_RANGE,
               "key 'general.architecture': 'llama5' is not an architecture of llama.cpp's table");
    HP_REFUSED(llama_with("general.architecture", 8, 0, "dflash"), POSENC_ERR_RANGE,
               "dflash's RoPE depends on its target model");
    HP_REFUSED(llama_with("general.architecture", 8, 0, "gpt2"), POSENC_ERR_RANGE,
               "llama.cpp runs 'gpt2' without RoPE");
    HP_REFUSED(llama_with("llama.block_count", 4, 0, NULL), POSENC_ERR_FORMAT,
               "key 'llama.block_count': 0 layers, llama.cpp takes 1 .. 512");
    HP_REFUSED(llama_with("llama.attention.head_count", 4, 0, NULL), POSENC_ERR_FORMAT,
               "key 'llama.attention.head_count': no heads");
    HP_REFUSED(llama_with("llama.rope.scaling.type", 8, 0, "su"), POSENC_ERR_FORMAT,
               "key 'llama.rope.scaling.type': 'su' is not a scaling type of llama.cpp");
    HP_REFUSED(llama_with("llama.rope.dimension_count", 4, 64, NULL), POSENC_ERR_FORMAT,
               "key 'llama.rope.dimension_count': invalid n_rot: 64, expected 128");
    HP_REFUSED(llama_with("llama.rope.scaling.factor", 8, 0, "8"), POSENC_ERR_FORMAT,
               "key 'llama.rope.scaling.factor' has wrong type str but llama.cpp expects f32");
    /* a rope_freqs of 32 factors where n_rot / 2 = 64 */
    gw w = gw_new(3);
    kv_str(&w, "general.architecture", "llama");
    kv_u32(&w, "llama.context_length", 8192);
    kv_u32(&w, "llama.embedding_length", 4096);
    kv_u32(&w, "llama.block_count", 2);
    kv_u32(&w, "llama.attention.head_count", 32);
    float v[32];
    for (int i = 0; i < 32; i++)
        v[i] = 1.0f;
    tensor_f32(&w, "rope_freqs.weight", v, 32);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT,
               "tensor 'rope_freqs.weight' has wrong shape; expected [64], got [32]");
    /* head_count as an array of the wrong length */
    w = gw_new(3);
    kv_str(&w, "general.architecture", "qwen2");
    kv_u32(&w, "qwen2.context_length", 8192);
    kv_u32(&w, "qwen2.embedding_length", 4096);
    kv_u32(&w, "qwen2.block_count", 2);
    int32_t h[3] = {32, 32, 32};
    kv_arr_i32(&w, "qwen2.attention.head_count", h, 3);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT,
               "key 'qwen2.attention.head_count' has wrong array length; expected 2, got 3");
    /* an odd rotary dimension */
    w = gw_new(3);
    kv_str(&w, "general.architecture", "qwen2");
    kv_u32(&w, "qwen2.context_length", 8192);
    kv_u32(&w, "qwen2.embedding_length", 4096);
    kv_u32(&w, "qwen2.block_count", 2);
    kv_u32(&w, "qwen2.attention.head_count", 32);
    kv_u32(&w, "qwen2.rope.dimension_count", 63);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT, "key 'qwen2.rope.dimension_count': 63 rotated");
    posenc_gguf_hparams hp;
    CHECK_EQ_INT(posenc_gguf_llama_hparams(NULL, &hp, NULL), POSENC_ERR_NULL);
}

/* ---- more loader keys, rules and refusals ------------------------------------------- */

/* "{arch}.suffix" (four rotating buffers, enough for one call's keys). */
static const char *ak(const char *arch, const char *suffix)
{
    static char k[4][160];
    static int i;
    i = (i + 1) % 4;
    snprintf(k[i], sizeof k[i], "%s.%s", arch, suffix);
    return k[i];
}

/* The required keys of arch: context 8192, width 4096, n_layer blocks and
 * (heads != 0) 32 heads, so heads of 4096 / 32 = 128. */
static gw arch_base(const char *arch, uint32_t n_layer, int heads)
{
    gw w = gw_new(3);
    kv_str(&w, "general.architecture", arch);
    kv_u32(&w, ak(arch, "context_length"), 8192);
    kv_u32(&w, ak(arch, "embedding_length"), 4096);
    kv_u32(&w, ak(arch, "block_count"), n_layer);
    if (heads)
        kv_u32(&w, ak(arch, "attention.head_count"), 32);
    return w;
}

/* An array of n f32 values (not an integer array llama.cpp takes). */
static void kv_arr_f32(gw *w, const char *key, const float *v, size_t n)
{
    kv_head(w, key, 9);
    put_u32(&w->kv, 6);
    put_u64(&w->kv, n);
    for (size_t i = 0; i < n; i++)
        put_f32(&w->kv, v[i]);
}

#define WRONG(arch, suffix, got, want)                                                       \
    "key '" arch "." suffix "' has wrong type " got " but llama.cpp expects " want

TEST(every_key_of_the_loader_checks_its_type)
{
    gw w;
    /* one key of the wrong type at each place the loader reads one */
    w = arch_base("qwen2", 2, 1);
    kv_u32(&w, "qwen2.rope.scaling.type", 2);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT, WRONG("qwen2", "rope.scaling.type", "u32", "str"));
    w = arch_base("qwen2", 2, 1);
    kv_f32(&w, "qwen2.rope.scaling.original_context_length", 4096.0f);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT,
               WRONG("qwen2", "rope.scaling.original_context_length", "f32", "u32"));
    w = arch_base("qwen2", 2, 1);
    kv_u32(&w, "qwen2.rope.scale_linear", 4);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT, WRONG("qwen2", "rope.scale_linear", "u32", "f32"));
    w = arch_base("qwen2", 2, 1);
    kv_u32(&w, "qwen2.rope.scaling.attn_factor", 2);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT,
               WRONG("qwen2", "rope.scaling.attn_factor", "u32", "f32"));
    w = arch_base("grok", 2, 1);
    kv_u32(&w, "grok.rope.scaling.yarn_ext_factor", 1);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT,
               WRONG("grok", "rope.scaling.yarn_ext_factor", "u32", "f32"));
    w = arch_base("grok", 2, 1);
    kv_u32(&w, "grok.rope.scaling.yarn_attn_factor", 1);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT,
               WRONG("grok", "rope.scaling.yarn_attn_factor", "u32", "f32"));
    w = arch_base("mistral3", 2, 1);
    kv_u32(&w, "mistral3.rope.scaling.yarn_beta_fast", 32);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT,
               WRONG("mistral3", "rope.scaling.yarn_beta_fast", "u32", "f32"));
    w = arch_base("mistral3", 2, 1);
    kv_u32(&w, "mistral3.rope.scaling.yarn_beta_slow", 1);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT,
               WRONG("mistral3", "rope.scaling.yarn_beta_slow", "u32", "f32"));
    w = arch_base("mistral3", 2, 1);
    kv_u32(&w, "mistral3.rope.scaling.yarn_log_multiplier", 1);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT,
               WRONG("mistral3", "rope.scaling.yarn_log_multiplier", "u32", "f32"));
    w = arch_base("qwen2", 2, 0);
    kv_f32(&w, "qwen2.attention.head_count", 32.0f);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT, WRONG("qwen2", "attention.head_count", "f32", "u32"));
    w = arch_base("qwen2", 2, 1);
    kv_f32(&w, "qwen2.attention.key_length", 128.0f);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT, WRONG("qwen2", "attention.key_length", "f32", "u32"));
    w = arch_base("qwen2", 2, 1);
    kv_f32(&w, "qwen2.rope.dimension_count", 64.0f);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT, WRONG("qwen2", "rope.dimension_count", "f32", "u32"));
    w = arch_base("qwen2", 2, 1);
    kv_f32(&w, "qwen2.rope.dimension_count_swa", 64.0f);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT,
               WRONG("qwen2", "rope.dimension_count_swa", "f32", "u32"));
    w = arch_base("qwen2vl", 2, 1);
    kv_f32(&w, "qwen2vl.rope.dimension_sections", 16.0f);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT,
               WRONG("qwen2vl", "rope.dimension_sections", "f32", "u32"));
    w = arch_base("qwen2", 2, 1);
    kv_f32(&w, "qwen2.embedding_length", 4096.0f); /* a second pair of that name: refused */
    buf dup = gw_finish(&w);
    posenc_gguf *g = NULL;
    posenc_load_error e;
    CHECK_EQ_INT(read_buf(&dup, &g, &e, NULL), POSENC_ERR_FORMAT);
    free(dup.p);
    w = gw_new(3);
    kv_str(&w, "general.architecture", "qwen2");
    kv_u32(&w, "qwen2.context_length", 8192);
    kv_f32(&w, "qwen2.embedding_length", 4096.0f);
    kv_u32(&w, "qwen2.block_count", 2);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT, WRONG("qwen2", "embedding_length", "f32", "u32"));
    /* the required keys, each missing */
    w = gw_new(3);
    kv_str(&w, "general.architecture", "qwen2");
    kv_u32(&w, "qwen2.context_length", 8192);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT, "key not found: 'qwen2.embedding_length'");
    w = gw_new(3);
    kv_str(&w, "general.architecture", "qwen2");
    kv_u32(&w, "qwen2.context_length", 8192);
    kv_u32(&w, "qwen2.embedding_length", 4096);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT, "key not found: 'qwen2.block_count'");
    /* 513 layers: above LLAMA_MAX_LAYERS */
    w = arch_base("qwen2", 513, 1);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT,
               "key 'qwen2.block_count': 513 layers, llama.cpp takes 1 .. 512");
    /* an architecture name of 64 bytes does not fit llama.cpp's names */
    w = gw_new(3);
    kv_str(&w, "general.architecture",
           "llamallamallamallamallamallamallamallamallamallamallamallamallam");
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT,
               "key 'general.architecture': not an architecture name of llama.cpp");
}

TEST(integer_arrays_as_llama_cpp_takes_them)
{
    gw w;
    /* head_count: strings, f32 and over 512 elements are refused */
    static const char *const s2[] = {"32", "32"};
    w = arch_base("qwen2", 2, 0);
    kv_arr_str(&w, "qwen2.attention.head_count", s2, 2);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT, "key 'qwen2.attention.head_count' has wrong array "
               "element type str (llama.cpp expects bool, u32 or i32)");
    static const float f2[] = {32.0f, 32.0f};
    w = arch_base("qwen2", 2, 0);
    kv_arr_f32(&w, "qwen2.attention.head_count", f2, 2);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT, "wrong array element type f32");
    static int32_t many[513];
    for (int i = 0; i < 513; i++)
        many[i] = 32;
    w = arch_base("qwen2", 2, 0);
    kv_arr_i32(&w, "qwen2.attention.head_count", many, 513);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT, "key 'qwen2.attention.head_count': array of 513 "
               "elements, llama.cpp takes at most 512");
    /* an i32 array of n_layer: layer 0's count is the graph's, 4096 / 16 = 256 */
    int32_t h[2] = {16, 32};
    w = arch_base("qwen2", 2, 0);
    kv_arr_i32(&w, "qwen2.attention.head_count", h, 2);
    buf f = gw_finish(&w);
    posenc_gguf *g = NULL;
    posenc_gguf_hparams hp;
    CHECK(file_hp(&f, &g, &hp));
    CHECK(hp.n_head == 16 && hp.n_embd_head_k == 256 && hp.n_rot == 256);
    posenc_gguf_free(g);
    free(f.p);
    /* M-RoPE sections: a scalar fills all four; an array must hold four */
    w = arch_base("qwen2vl", 2, 1);
    kv_u32(&w, "qwen2vl.rope.dimension_sections", 16);
    f = gw_finish(&w);
    CHECK(file_hp(&f, &g, &hp));
    CHECK(hp.sections[0] == 16 && hp.sections[1] == 16 && hp.sections[2] == 16 &&
          hp.sections[3] == 16 && hp.rope_type == POSENC_GGUF_ROPE_MROPE);
    /* qwen2vl's graph is not modelled here: its layers are refused, named */
    char line[512];
    posenc_load_error e;
    CHECK_EQ_INT(posenc_gguf_layer_describe(g, &hp, 0, 0, line, sizeof line, &e), POSENC_ERR_RANGE);
    CHECK(has(e.detail, "rules for 'qwen2vl' are not modelled here"));
    posenc_gguf_free(g);
    free(f.p);
    int32_t sec3[3] = {16, 24, 24};
    w = arch_base("qwen2vl", 2, 1);
    kv_arr_i32(&w, "qwen2vl.rope.dimension_sections", sec3, 3);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT, "key 'qwen2vl.rope.dimension_sections' has wrong "
               "array length; expected 4, got 3");
    /* rotary dimensions: above the head, and 0 for the SWA layers */
    w = arch_base("qwen2", 2, 1);
    kv_u32(&w, "qwen2.rope.dimension_count", 256);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT, "key 'qwen2.rope.dimension_count': 256 rotated "
               "dimensions; RoPE needs an even number in 2 .. the head size 128");
    w = arch_base("qwen2", 2, 1);
    kv_u32(&w, "qwen2.rope.dimension_count_swa", 0);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT, "key 'qwen2.rope.dimension_count_swa': 0 rotated");
}

/* The op of layer il of file f at context n_ctx (0 on failure). */
static int op_of(const buf *f, uint32_t il, uint64_t n_ctx, posenc_gguf_rope_op *op)
{
    posenc_gguf *g = NULL;
    posenc_gguf_hparams hp;
    posenc_load_error e;
    e.detail[0] = 0;
    int ok = file_hp(f, &g, &hp) && posenc_gguf_llama_layer(g, &hp, il, n_ctx, op, &e) == POSENC_OK;
    if (!ok)
        fprintf(stderr, "  layer: %s\n", e.detail);
    posenc_gguf_free(g);
    return ok;
}

TEST(scaling_keys_reach_the_op)
{
    gw w;
    buf f;
    posenc_gguf_rope_op op;
    /* rope.scale_linear 4 when scaling.factor is absent: freq_scale 1/4;
     * scaling.attn_factor 2 multiplies attn_factor (llama-context.cpp:214) */
    w = arch_base("qwen2", 2, 1);
    kv_f32(&w, "qwen2.rope.scale_linear", 4.0f);
    kv_f32(&w, "qwen2.rope.scaling.attn_factor", 2.0f);
    f = gw_finish(&w);
    CHECK(op_of(&f, 1, 0, &op) && op.freq_scale == 0.25f && op.ext_factor == 0.0f &&
          op.attn_factor == 2.0f && op.mode == POSENC_GGUF_ROPE_NEOX);
    free(f.p);
    /* scaling type "none": freq_scale 1 whatever the factor (:169-171) */
    w = arch_base("qwen2", 2, 1);
    kv_str(&w, "qwen2.rope.scaling.type", "none");
    kv_f32(&w, "qwen2.rope.scaling.factor", 4.0f);
    f = gw_finish(&w);
    CHECK(op_of(&f, 0, 0, &op) && op.freq_scale == 1.0f && op.ext_factor == 0.0f);
    free(f.p);
    /* grok reads yarn_ext_factor and yarn_attn_factor: an ext_factor of 0.5
     * set in the file is passed as is, with attn_factor
     * get_mscale(4, 1) / (1 + 0.1 ln 4) = 1 (:177-212) */
    w = arch_base("grok", 2, 1);
    kv_f32(&w, "grok.rope.scaling.factor", 4.0f);
    kv_f32(&w, "grok.rope.scaling.yarn_ext_factor", 0.5f);
    kv_f32(&w, "grok.rope.scaling.yarn_attn_factor", 3.0f);
    f = gw_finish(&w);
    CHECK(op_of(&f, 0, 0, &op) && op.ext_factor == 0.5f && op.freq_scale == 0.25f);
    CHECK_NEAR(op.attn_factor, 1.0, 1e-6);
    free(f.p);
    /* phi3 without any factor tensor: no freq_factors at either context */
    w = arch_base("phi3", 2, 1);
    kv_str(&w, "phi3.rope.scaling.type", "longrope");
    kv_u32(&w, "phi3.rope.scaling.original_context_length", 4096);
    f = gw_finish(&w);
    CHECK(op_of(&f, 0, 8192, &op) && op.freq_factors == NULL && op.n_freq_factors == 0);
    CHECK(op_of(&f, 0, 1000, &op) && op.freq_factors == NULL);
    free(f.p);
}

TEST(sliding_window_keys_and_patterns)
{
    gw w;
    buf f;
    posenc_gguf_rope_op op;
    /* gpt-oss requires attention.sliding_window (gpt-oss.cpp) */
    w = arch_base("gpt-oss", 4, 1);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT, "key not found: 'gpt-oss.attention.sliding_window'");
    w = arch_base("gpt-oss", 4, 1);
    kv_f32(&w, "gpt-oss.attention.sliding_window", 128.0f);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT,
               WRONG("gpt-oss", "attention.sliding_window", "f32", "u32"));
    w = arch_base("gpt-oss", 4, 1);
    kv_u32(&w, "gpt-oss.attention.sliding_window", 128);
    kv_u32(&w, "gpt-oss.rope.freq_base_swa", 10000);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT, WRONG("gpt-oss", "rope.freq_base_swa", "u32", "f32"));
    w = arch_base("gpt-oss", 4, 1);
    kv_u32(&w, "gpt-oss.attention.sliding_window", 128);
    kv_f32(&w, "gpt-oss.attention.sliding_window_pattern", 2.0f);
    HP_REFUSED(gw_finish(&w), POSENC_ERR_FORMAT,
               WRONG("gpt-oss", "attention.sliding_window_pattern", "f32", "u32"));
    /* a pattern array names the SWA layers (load_swa_pattern); layers past
     * its end are full */
    unsigned char pat[3] = {0, 1, 1};
    w = arch_base("gpt-oss", 4, 1);
    kv_u32(&w, "gpt-oss.attention.sliding_window", 128);
    kv_f32(&w, "gpt-oss.rope.freq_base_swa", 7.0f);
    kv_arr_bool(&w, "gpt-oss.attention.sliding_window_pattern", pat, 3);
    f = gw_finish(&w);
    LAYER_IS(f, 0, 1, 0, 10000.0f);
    LAYER_IS(f, 1, 1, 1, 7.0f);
    LAYER_IS(f, 2, 1, 1, 7.0f);
    LAYER_IS(f, 3, 1, 0, 10000.0f);
    free(f.p);
    /* a scalar pattern 0: every layer SWA */
    w = arch_base("gpt-oss", 4, 1);
    kv_u32(&w, "gpt-oss.attention.sliding_window", 128);
    kv_u32(&w, "gpt-oss.attention.sliding_window_pattern", 0);
    f = gw_finish(&w);
    LAYER_IS(f, 3, 1, 1, 10000.0f);
    free(f.p);
    /* gemma3 with sliding_window 0: no SWA layers */
    w = arch_base("gemma3", 6, 1);
    kv_u32(&w, "gemma3.attention.sliding_window", 0);
    f = gw_finish(&w);
    LAYER_IS(f, 0, 1, 0, 10000.0f);
    free(f.p);
    /* olmo2 with a window: its SWA layers (period 4: 0-2) run the plain
     * RoPE, freq_scale 1, no YaRN, attn 1; layer 3 the scaled one */
    w = arch_base("olmo2", 4, 1);
    kv_u32(&w, "olmo2.attention.sliding_window", 4096);
    kv_str(&w, "olmo2.rope.scaling.type", "yarn");
    kv_f32(&w, "olmo2.rope.scaling.factor", 8.0f);
    f = gw_finish(&w);
    CHECK(op_of(&f, 0, 0, &op) && op.is_swa && op.rotates && op.freq_scale == 1.0f &&
          op.ext_factor == 0.0f && op.attn_factor == 1.0f);
    CHECK(op_of(&f, 3, 0, &op) && !op.is_swa && op.freq_scale == 0.125f && op.ext_factor == 1.0f);
    free(f.p);
}

TEST(layer_queries_refused)
{
    buf f = qwen2_file();
    posenc_gguf *g = NULL;
    posenc_gguf_hparams hp;
    posenc_gguf_rope_op op;
    posenc_load_error e;
    CHECK(file_hp(&f, &g, &hp));
    CHECK_EQ_INT(posenc_gguf_llama_layer(g, &hp, 28, 0, &op, &e), POSENC_ERR_RANGE);
    CHECK(has(e.detail, "layer 28: the model has 28"));
    CHECK_EQ_INT(posenc_gguf_llama_layer(g, &hp, 0, 4294967296ull, &op, &e), POSENC_ERR_POS);
    CHECK(has(e.detail, "n_ctx 4294967296 is past llama.cpp's u32 context"));
    CHECK(posenc_gguf_llama_layer(g, &hp, 0, 4294967040ull, &op, &e) == POSENC_OK);
    char line[512];
    CHECK_EQ_INT(posenc_gguf_layer_describe(g, &hp, 0, 4294967296ull, line, sizeof line, &e),
                 POSENC_ERR_POS);
    posenc_gguf_hparams bad = hp;
    strcpy(bad.arch, "nonesuch");
    CHECK_EQ_INT(posenc_gguf_llama_layer(g, &bad, 0, 0, &op, &e), POSENC_ERR_RANGE);
    CHECK(has(e.detail, "hp was not filled by posenc_gguf_llama_hparams"));
    bad = hp;
    bad.n_layer = 0;
    CHECK_EQ_INT(posenc_gguf_llama_layer(g, &bad, 0, 0, &op, &e), POSENC_ERR_RANGE);
    bad.n_layer = 513;
    CHECK_EQ_INT(posenc_gguf_llama_layer(g, &bad, 0, 0, &op, &e), POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_gguf_llama_layer(g, NULL, 0, 0, &op, &e), POSENC_ERR_NULL);
    bad = hp;
    bad.layers_modelled = 0;
    CHECK_EQ_INT(posenc_gguf_llama_layer(g, &bad, 0, 0, &op, &e), POSENC_ERR_RANGE);
    CHECK(has(e.detail, "llama.cpp's per-layer RoPE rules for 'qwen2' are not modelled here"));
    posenc_gguf_free(g);
    free(f.p);
    /* names outside the enums; NULL arguments */
    CHECK(!strcmp(posenc_gguf_rope_type_name((posenc_gguf_rope_type)5), "unknown"));
    CHECK(!strcmp(posenc_gguf_rope_type_name(POSENC_GGUF_ROPE_VISION), "vision"));
    CHECK(!strcmp(posenc_gguf_rope_type_name(POSENC_GGUF_ROPE_IMROPE), "imrope"));
    CHECK(!strcmp(posenc_gguf_rope_type_name(POSENC_GGUF_ROPE_NONE), "none"));
    CHECK(!strcmp(posenc_gguf_scaling_name((posenc_gguf_scaling)4), "unknown"));
    CHECK(!strcmp(posenc_gguf_scaling_name((posenc_gguf_scaling)-1), "unknown"));
    CHECK(!strcmp(posenc_gguf_scaling_name(POSENC_GGUF_SCALING_LONGROPE), "longrope"));
    posenc_gguf_rope_type t, tm;
    CHECK_EQ_INT(posenc_gguf_arch_rope_type(NULL, &t, &tm), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_gguf_arch_rope_type("llama", NULL, &tm), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_gguf_arch_rope_type("llama", &t, NULL), POSENC_ERR_NULL);
    CHECK(posenc_gguf_arch_rope_type("qwen2vl", &t, &tm) == POSENC_OK &&
          tm == POSENC_GGUF_ROPE_MROPE);
}

TEST(op_config_refuses_each_op_it_cannot_state)
{
    posenc_gguf_rope_op ok, op;
    memset(&ok, 0, sizeof ok);
    ok.rotates = 1;
    ok.mode = POSENC_GGUF_ROPE_NORM;
    ok.n_dims = 64;
    ok.freq_base = 10000.0f;
    ok.freq_scale = 0.5f;
    ok.attn_factor = 1.0f;
    posenc_rope_config c;
    CHECK(posenc_gguf_op_config(&ok, 128, &c) == POSENC_OK && c.scaling.type == POSENC_ROPE_LINEAR &&
          c.layout == POSENC_LAYOUT_INTERLEAVED && c.rotary_dim == 64);
    CHECK_NEAR(c.scaling.factor, 2.0, 0);
    CHECK_EQ_INT(posenc_gguf_op_config(&ok, 128, NULL), POSENC_ERR_NULL);
    op = ok, op.rotates = 0;
    CHECK_EQ_INT(posenc_gguf_op_config(&op, 128, &c), POSENC_ERR_RANGE);
    op = ok, op.mode = POSENC_GGUF_ROPE_VISION;
    CHECK_EQ_INT(posenc_gguf_op_config(&op, 128, &c), POSENC_ERR_RANGE);
    op = ok, op.freq_scale = 0.0f;
    CHECK_EQ_INT(posenc_gguf_op_config(&op, 128, &c), POSENC_ERR_RANGE);
    op = ok, op.freq_scale = 1.5f;
    CHECK_EQ_INT(posenc_gguf_op_config(&op, 128, &c), POSENC_ERR_RANGE);
    op = ok, op.n_dims = 0;
    CHECK_EQ_INT(posenc_gguf_op_config(&op, 128, &c), POSENC_ERR_RANGE);
    op = ok, op.n_dims = 2048;
    CHECK_EQ_INT(posenc_gguf_op_config(&op, 4096, &c), POSENC_ERR_RANGE);
    static const float ff[31] = {1.0f};
    op = ok, op.freq_factors = ff, op.n_freq_factors = 31;
    CHECK_EQ_INT(posenc_gguf_op_config(&op, 128, &c), POSENC_ERR_RANGE);
    /* YaRN: factor 2, ggml's multiplier 1 + 0.1 ln 2 on attn_factor */
    op = ok, op.ext_factor = 1.0f, op.n_ctx_orig = 4096, op.beta_fast = 32, op.beta_slow = 1;
    CHECK(posenc_gguf_op_config(&op, 128, &c) == POSENC_OK && c.scaling.type == POSENC_ROPE_YARN &&
          c.scaling.original_max_position_embeddings == 4096 && c.scaling.truncate == 1);
    CHECK_NEAR(c.scaling.attention_factor, 1.0 + 0.1 * log(2.0), 1e-6);
}

TEST(models_of_files_whose_layers_differ_or_do_not_map)
{
    posenc_model *m = NULL;
    CHECK(posenc_model_create(&m) == POSENC_OK);
    posenc_gguf *g = NULL;
    posenc_gguf_hparams hp;
    posenc_load_error e;
    /* SmolLM3: layer 3 has no RoPE (smollm3.cpp:5, 69) */
    buf f = small_arch("smollm3", 8, -1, 0);
    CHECK(file_hp(&f, &g, &hp));
    CHECK_EQ_INT(posenc_gguf_model(g, &hp, 0, m, &e), POSENC_ERR_RANGE);
    CHECK(has(e.detail, "layer 3 runs another RoPE than layer 0 (layers without RoPE)"));
    posenc_gguf_free(g);
    free(f.p);
    /* grok with yarn_ext_factor 0.5: one op in every layer, but one that is
     * neither linear nor YaRN */
    gw w = arch_base("grok", 2, 1);
    kv_f32(&w, "grok.rope.scaling.factor", 4.0f);
    kv_f32(&w, "grok.rope.scaling.yarn_ext_factor", 0.5f);
    f = gw_finish(&w);
    CHECK(file_hp(&f, &g, &hp));
    CHECK_EQ_INT(posenc_gguf_model(g, &hp, 0, m, &e), POSENC_ERR_RANGE);
    CHECK(has(e.detail, "llama.cpp's RoPE for 'grok' (mode neox, ext_factor 0.5) has no "
                        "posenc_rope_config"));
    CHECK(posenc_model_n_layer(m) == 0);
    /* NULL arguments; an arch whose layers are not modelled */
    CHECK_EQ_INT(posenc_gguf_model(NULL, &hp, 0, m, &e), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_gguf_model(g, NULL, 0, m, &e), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_gguf_model(g, &hp, 0, NULL, &e), POSENC_ERR_NULL);
    posenc_gguf_free(g);
    free(f.p);
    w = arch_base("qwen2vl", 2, 1);
    f = gw_finish(&w);
    CHECK(file_hp(&f, &g, &hp));
    CHECK_EQ_INT(posenc_gguf_model(g, &hp, 0, m, &e), POSENC_ERR_RANGE);
    CHECK(has(e.detail, "'qwen2vl' are not modelled here"));
    posenc_gguf_free(g);
    free(f.p);
    /* a file that is one op: the model has its layers */
    w = arch_base("qwen2", 3, 1);
    f = gw_finish(&w);
    CHECK(file_hp(&f, &g, &hp));
    CHECK(posenc_gguf_model(g, &hp, 0, m, &e) == POSENC_OK && posenc_model_n_layer(m) == 3);
    posenc_gguf_free(g);
    free(f.p);
    posenc_model_free(m);
    /* a stream that cannot seek (a pipe) is an I/O error */
    int fd[2];
    CHECK(pipe(fd) == 0);
    FILE *in = fdopen(fd[0], "r");
    CHECK(in != NULL);
    if (in) {
        CHECK(write(fd[1], "GGUF", 4) == 4);
        g = NULL;
        CHECK_EQ_INT(posenc_gguf_read(in, NULL, &g, &e), POSENC_ERR_IO);
        CHECK(g == NULL);
        fclose(in);
    }
    close(fd[1]);
}

TEST(mrope_sections_choose_the_type)
{
    /* glm4: NORM, or MROPE when sections [0] and [1] are > 0 */
    for (int mrope = 0; mrope < 2; mrope++) {
        gw w = gw_new(3);
        kv_str(&w, "general.architecture", "glm4");
        kv_u32(&w, "glm4.context_length", 8192);
        kv_u32(&w, "glm4.embedding_length", 4096);
        kv_u32(&w, "glm4.block_count", 2);
        kv_u32(&w, "glm4.attention.head_count", 32);
        kv_u32(&w, "glm4.rope.dimension_count", 64);
        int32_t sec[4] = {8, mrope ? 12 : 0, 12, 0};
        kv_arr_i32(&w, "glm4.rope.dimension_sections", sec, 4);
        buf f = gw_finish(&w);
        posenc_gguf *g = NULL;
        posenc_gguf_hparams hp;
        CHECK(file_hp(&f, &g, &hp));
        CHECK(hp.rope_type == (mrope ? POSENC_GGUF_ROPE_MROPE : POSENC_GGUF_ROPE_NORM));
        CHECK(hp.sections[0] == 8 && hp.sections[2] == 12);
        posenc_gguf_free(g);
        free(f.p);
    }
}

/* ---- in posenc's terms ------------------------------------------------------------ */

TEST(qwen2_yarn_is_hugging_faces_yarn)
{
    buf f = qwen2_file();
    posenc_gguf *g = NULL;
    posenc_gguf_hparams hp;
    posenc_gguf_rope_op op;
    posenc_rope_config c;
    CHECK(file_hp(&f, &g, &hp));
    CHECK(posenc_gguf_llama_layer(g, &hp, 0, 0, &op, NULL) == POSENC_OK);
    CHECK(posenc_gguf_op_config(&op, hp.n_embd_head_k, &c) == POSENC_OK);
    /* ggml's cos/sin multiplier: attn_factor (~1) times 1 + 0.1 ln 4: the
     * 0.1 ln s + 1 Hugging Face's YaRN derives (ops.cpp:6198) */
    CHECK(c.layout == POSENC_LAYOUT_HALF && c.head_dim == 128 && c.rotary_dim == 128);
    CHECK(c.base == 1e6 && c.scaling.type == POSENC_ROPE_YARN && c.scaling.factor == 4.0);
    CHECK(c.scaling.original_max_position_embeddings == 32768 && c.scaling.truncate == 1);
    CHECK(c.scaling.beta_fast == 32.0 && c.scaling.beta_slow == 1.0);
    CHECK_NEAR(c.scaling.attention_factor, 0.1 * log(4.0) + 1.0, 4e-7);
    /* the same frequencies as posenc's own YaRN of the config.json */
    posenc_rope_config hf = c;
    CHECK(posenc_rope_scaling_init(&hf.scaling, POSENC_ROPE_YARN) == POSENC_OK);
    hf.scaling.factor = 4.0;
    hf.scaling.original_max_position_embeddings = 32768;
    posenc_rope a, b;
    CHECK(posenc_rope_init_config(&a, &c, 0) == POSENC_OK);
    CHECK(posenc_rope_init_config(&b, &hf, 0) == POSENC_OK);
    CHECK(!memcmp(a.inv_freq_hi, b.inv_freq_hi, sizeof a.inv_freq_hi));
    CHECK_NEAR(a.attn_factor, b.attn_factor, 4e-7);
    /* the model: 28 layers of that RoPE */
    posenc_model *m = NULL;
    CHECK(posenc_model_create(&m) == POSENC_OK);
    CHECK(posenc_gguf_model(g, &hp, 0, m, NULL) == POSENC_OK);
    CHECK(posenc_model_n_layer(m) == 28);
    posenc_rope r;
    CHECK(posenc_model_layer_rope(m, 27, 1000, &r) == POSENC_OK);
    CHECK(!memcmp(r.inv_freq_hi, a.inv_freq_hi, sizeof a.inv_freq_hi));
    posenc_model_free(m);
    posenc_gguf_free(g);
    free(f.p);
}

TEST(llama31_and_phi3_carry_their_factors)
{
    buf f = llama31_file(3);
    posenc_gguf *g = NULL;
    posenc_gguf_hparams hp;
    posenc_gguf_rope_op op;
    posenc_rope_config c;
    CHECK(file_hp(&f, &g, &hp));
    CHECK(posenc_gguf_llama_layer(g, &hp, 0, 8192, &op, NULL) == POSENC_OK);
    CHECK(posenc_gguf_op_config(&op, 128, &c) == POSENC_OK);
    /* NORM: interleaved pairs in ggml's (permuted) order; no scaling but
     * the 64 rope_freqs factors: inv_freq_k = 500000^(-2k/128) / f_k */
    float want[64];
    llama3_factors(want);
    CHECK(c.layout == POSENC_LAYOUT_INTERLEAVED && c.scaling.type == POSENC_ROPE_DEFAULT);
    CHECK(c.scaling.n_freq_factors == 64 && c.freq_factors[40] == (double)want[40]);
    CHECK(c.scaling.attention_factor == 1.0);
    posenc_rope r;
    CHECK(posenc_rope_init_config(&r, &c, 0) == POSENC_OK);
    CHECK_NEAR(r.inv_freq_hi[63], pow(500000.0, -126.0 / 128.0) / 8.0, 1e-18);
    posenc_gguf_free(g);
    free(f.p);
    f = phi3_file();
    CHECK(file_hp(&f, &g, &hp));
    CHECK(posenc_gguf_llama_layer(g, &hp, 0, 8192, &op, NULL) == POSENC_OK);
    CHECK(posenc_gguf_op_config(&op, 96, &c) == POSENC_OK);
    CHECK(c.scaling.n_freq_factors == 48 && c.freq_factors[2] == 2.0);
    CHECK(c.scaling.attention_factor == (double)(float)sqrt(17.0 / 12.0));
    posenc_gguf_free(g);
    free(f.p);
}

TEST(models_with_differing_layers_are_refused)
{
    buf f = gemma3_file(NULL);
    posenc_gguf *g = NULL;
    posenc_gguf_hparams hp;
    posenc_load_error e;
    posenc_model *m = NULL;
    CHECK(posenc_model_create(&m) == POSENC_OK);
    CHECK(file_hp(&f, &g, &hp));
    CHECK_EQ_INT(posenc_gguf_model(g, &hp, 0, m, &e), POSENC_ERR_RANGE);
    CHECK(has(e.detail, "layer 5 runs another RoPE than layer 0 (sliding-window layers)"));
    CHECK(posenc_model_n_layer(m) == 0);
    posenc_gguf_free(g);
    free(f.p);
    /* an M-RoPE op has no posenc_rope_config */
    posenc_gguf_rope_op op;
    memset(&op, 0, sizeof op);
    op.rotates = 1;
    op.mode = POSENC_GGUF_ROPE_MROPE;
    op.n_dims = 64;
    op.freq_base = 10000.0f;
    op.freq_scale = 1.0f;
    posenc_rope_config c;
    CHECK_EQ_INT(posenc_gguf_op_config(&op, 128, &c), POSENC_ERR_RANGE);
    op.mode = POSENC_GGUF_ROPE_NEOX;
    op.ext_factor = 0.5f;
    CHECK_EQ_INT(posenc_gguf_op_config(&op, 128, &c), POSENC_ERR_RANGE);
    op.ext_factor = 0.0f;
    CHECK_EQ_INT(posenc_gguf_op_config(&op, 32, &c), POSENC_ERR_RANGE);
    CHECK(posenc_gguf_op_config(&op, 128, &c) == POSENC_OK && c.scaling.type == POSENC_ROPE_DEFAULT);
    CHECK_EQ_INT(posenc_gguf_op_config(NULL, 128, &c), POSENC_ERR_NULL);
    posenc_model_free(m);
}

TEST(descriptions_state_the_op)
{
    buf f = llama31_file(3);
    posenc_gguf *g = NULL;
    posenc_gguf_hparams hp;
    char line[512];
    CHECK(file_hp(&f, &g, &hp));
    CHECK(posenc_gguf_layer_describe(g, &hp, 0, 8192, line, sizeof line, NULL) == POSENC_OK);
    CHECK(!strcmp(line, " arch=llama rope_type=norm n_dims=128 n_ctx_orig=131072 "
                        "freq_base=500000 freq_scale=1 ext_factor=0 attn_factor=1 beta_fast=32 "
                        "beta_slow=1 freq_factors=rope_freqs.weight[64] scaling=linear swa=0 "
                        "rotates=1 n_ctx_seq=8192"));
    CHECK_EQ_INT(posenc_gguf_layer_describe(g, &hp, 0, 8192, line, 40, NULL),
                 POSENC_ERR_OVERFLOW);
    CHECK_EQ_INT(posenc_gguf_layer_describe(g, &hp, 0, 8192, NULL, 40, NULL), POSENC_ERR_NULL);
    CHECK(strstr(posenc_gguf_source(), "llama-cpp-python 0.3.36") != NULL);
    posenc_gguf_free(g);
    free(f.p);
    f = phi3_file();
    CHECK(file_hp(&f, &g, &hp));
    /* 5000 pads to 5120 > 4096: the long factors; sqrt(17/12) =
     * 1.190238071... is the float 1.19023812 (%.9g) */
    CHECK(posenc_gguf_layer_describe(g, &hp, 3, 5000, line, sizeof line, NULL) == POSENC_OK);
    CHECK(has(line, " freq_factors=rope_factors_long.weight[48] ") &&
          has(line, " attn_factor=1.19023812 ") && has(line, " n_ctx_seq=5120"));
    posenc_gguf_free(g);
    free(f.p);
}

TEST(each_allocation_can_fail)
{
    buf files[2] = {llama31_file(3), phi3_file()};
    for (int fi = 0; fi < 2; fi++) {
        long fails = 0;
        for (long k = 0; k < 1000; k++) {
            posenc_gguf *g = NULL;
            posenc_load_error e;
            posenc_gguf_hparams hp;
            posenc_model *m = NULL;
            alloc_failed = 0;
            alloc_countdown = k;
            posenc_status s = read_buf(&files[fi], &g, &e, NULL);
            if (s == POSENC_OK)
                s = posenc_gguf_llama_hparams(g, &hp, &e);
            if (s == POSENC_OK)
                s = posenc_model_create(&m);
            if (s == POSENC_OK)
                s = posenc_gguf_model(g, &hp, 0, m, &e);
            alloc_countdown = -1;
            posenc_model_free(m);
            posenc_gguf_free(g);
            if (!alloc_failed) {
                CHECK_EQ_INT(s, POSENC_OK);
                break;
            }
            fails++;
            CHECK_EQ_INT(s, POSENC_ERR_NOMEM);
        }
        CHECK(fails > 10);
        free(files[fi].p);
    }
}

/* ---- seeds for tests/fuzz/fuzz_gguf.c ---------------------------------------------- */

static int write_seed(const char *dir, const char *name, buf f)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *o = fopen(path, "wb");
    int ok = o && fwrite(f.p, 1, f.n, o) == f.n;
    if (o && fclose(o) != 0)
        ok = 0;
    free(f.p);
    if (!ok)
        fprintf(stderr, "test_gguf: cannot write %s\n", path);
    return ok;
}

static int write_seeds(const char *dir)
{
    unsigned char pat[12] = {1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0};
    int64_t ne[1] = {64};
    return write_seed(dir, "llama31-v2", llama31_file(2)) &&
           write_seed(dir, "llama31-v3", llama31_file(3)) &&
           write_seed(dir, "qwen2-yarn", qwen2_file()) &&
           write_seed(dir, "mistral3-yarn", mistral3_file()) &&
           write_seed(dir, "phi3-longrope", phi3_file()) &&
           write_seed(dir, "gemma3-swa", gemma3_file(NULL)) &&
           write_seed(dir, "gemma3-pattern", gemma3_file(pat)) &&
           write_seed(dir, "bad-offset", one_tensor("t", 1, ne, 0, 32, 512)) &&
           write_seed(dir, "bad-type", one_tensor("rope_freqs.weight", 1, ne, 1, 0, 128));
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--seeds"))
        return write_seeds(argv[2]) ? 0 : 1;
    RUN(llama31_metadata_every_type_and_tensor);
    RUN(names_of_types);
    RUN(llama31_runs_norm_with_rope_freqs);
    RUN(qwen2_runs_neox_yarn_without_the_keys_it_does_not_read);
    RUN(mistral3_reads_its_yarn_keys);
    RUN(deepseek2_log_multiplier_is_divided_by_a_tenth);
    RUN(phi3_longrope_long_or_short_by_the_padded_context);
    RUN(gemma3_sliding_layers_take_their_own_base);
    RUN(sliding_window_rules_of_other_archs);
    RUN(per_layer_rules_of_more_archs);
    RUN(every_truncation_is_refused);
    RUN(header_refusals);
    RUN(key_value_refusals);
    RUN(tensor_refusals);
    RUN(rope_tensor_refusals);
    RUN(loader_refusals_name_the_key);
    RUN(mrope_sections_choose_the_type);
    RUN(qwen2_yarn_is_hugging_faces_yarn);
    RUN(llama31_and_phi3_carry_their_factors);
    RUN(models_with_differing_layers_are_refused);
    RUN(descriptions_state_the_op);
    RUN(each_allocation_can_fail);
    RUN(every_key_of_the_loader_checks_its_type);
    RUN(integer_arrays_as_llama_cpp_takes_them);
    RUN(scaling_keys_reach_the_op);
    RUN(sliding_window_keys_and_patterns);
    RUN(layer_queries_refused);
    RUN(op_config_refuses_each_op_it_cannot_state);
    RUN(queries_on_null_and_out_of_range);
    RUN(models_of_files_whose_layers_differ_or_do_not_map);
    return check_summary("gguf");
}
