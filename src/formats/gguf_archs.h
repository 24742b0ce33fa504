/* gguf_archs.h - llama.cpp's architectures as data, for gguf_rope.c (not
 * installed): lists of general.architecture names per property, read from
 * llama-cpp-python 0.3.36's vendor/llama.cpp (names: src/llama-arch.cpp
 * LLM_ARCH_NAMES, lines 8-162). Each list ends with NULL.
 *
 * dflash (a drafter whose type depends on its target: llama-model.cpp
 * 3177-3186) is in no list and is refused by name. */
#ifndef POSENC_GGUF_ARCHS_H
#define POSENC_GGUF_ARCHS_H

#include <stddef.h>
#include <string.h>

/* The rope type llama_model_rope_type() gives (src/llama-model.cpp
 * 3023-3212): none (3025-3049), NORM "pairs of consecutive head values"
 * (3051-3101), NEOX "offset by n_rot/2" (3103-3175), MROPE and IMROPE
 * (3187-3196). */
static const char *const ARCHS_NONE[] = {
    "clip", "gpt2", "gptj", "mpt", "refact", "jina-bert-v2", "bloom", "mamba", "mamba2",
    "jamba", "t5", "t5encoder", "jais", "nemotron_h", "nemotron_h_moe", "rwkv6", "rwkv6qwen2",
    "rwkv7", "arwkv7", "wavtokenizer-dec", "kimi-linear", "kimi-k3", "glm5-next",
    NULL};
static const char *const ARCHS_NORM[] = {
    "llama", "llama4", "deci", "baichuan", "starcoder", "neo-bert", "internlm2", "minicpm",
    "xverse", "command-r", "cohere2", "cohere2moe", "olmo", "muse-glimmer", "arctic",
    "deepseek", "deepseek2", "deepseek2-ocr", "deepseek32", "deepseek4", "chatglm", "glm4",
    "glm-dsa", "granite", "granitemoe", "granitehybrid", "graniteswitch", "granite_swa",
    "chameleon", "plm", "bailingmoe", "bailingmoe3", "dots3note", "arcee", "ernie4_5",
    "ernie4_5-moe", "hy_v4", "smollm3", "llada", "mistral3", "eagle3", "mistral4",
    "llama-embed", "maincoder", "nanbeige", "pockettts",
    NULL};
static const char *const ARCHS_NEOX[] = {
    "falcon", "grok", "gptneox", "bert", "modern-bert", "nomic-bert", "nomic-bert-moe",
    "jina-bert-v3", "eurobert", "stablelm", "qwen", "qwen2", "qwen2moe", "qwen3", "qwen3moe",
    "qwen3next", "phi2", "phi3", "phimoe", "plamo", "plamo2", "plamo3", "codeshell", "orion",
    "minicpm3", "gemma", "gemma2", "gemma3", "gemma3n", "gemma4", "gemma4-assistant",
    "gemma-embedding", "starcoder2", "maple", "falcon-h1", "dbrx", "olmo2", "olmoe", "openelm",
    "glm4moe", "bitnet", "jais2", "nemotron", "exaone", "exaone4", "exaone-moe", "bailingmoe2",
    "dots1", "afmoe", "laguna", "hunyuan-moe", "hunyuan-dense", "hunyuan_vl", "hy_v3",
    "gpt-oss", "lfm2", "lfm2moe", "dream", "smallthinker", "llada-moe", "seed_oss", "grovemoe",
    "apertus", "minimax-01", "hrm_text", "minimax-m2", "minimax-m3", "cogvlm", "rnd1",
    "pangu-embedded", "mimo2", "step35", "spark2_5", "talkie", "mellum",
    NULL};
static const char *const ARCHS_MROPE[] = {
    "qwen2vl", "paddleocr",
    NULL};
static const char *const ARCHS_IMROPE[] = {
    "qwen3vl", "qwen3vlmoe", "qwen35", "qwen35moe", "qwen4exp", "qwen3tts",
    NULL};
/* Archs whose type becomes MROPE when rope.dimension_sections has its first
 * two sections > 0 (hparams.use_mrope(), llama-hparams.cpp:352-354;
 * llama-model.cpp:3096-3098, 3198-3204). */
static const char *const ARCHS_MROPE_IF_SECTIONS[] = {
    "glm4", "glm4moe", "bailingmoe3", "hunyuan_vl",
    NULL};
/* Archs whose graph (src/models/FILE.cpp) calls ggml_rope_ext(..., n_rot,
 * rope_type, n_ctx_orig, freq_base, freq_scale, ext_factor, attn_factor,
 * beta_fast, beta_slow) the same way in every layer, with no per-layer rule
 * (sliding window, NoPE layers, M-RoPE, MLA). */
static const char *const ARCHS_UNIFORM[] = {
    "llama", "deci", "falcon", "grok", "gptneox", "baichuan", "bert", "neo-bert", "eurobert",
    "stablelm", "qwen", "qwen2", "qwen2moe", "qwen3", "qwen3moe", "qwen3next", "phi2", "phi3",
    "plamo2", "codeshell", "orion", "internlm2", "minicpm3", "gemma", "starcoder2", "xverse",
    "command-r", "dbrx", "olmo", "olmoe", "openelm", "arctic", "deepseek", "chatglm", "bitnet",
    "jais2", "nemotron", "exaone", "granite", "granitehybrid", "graniteswitch", "chameleon",
    "plm", "bailingmoe", "bailingmoe2", "dots1", "arcee", "ernie4_5-moe", "hunyuan-moe",
    "hy_v3", "dream", "llada", "llada-moe", "seed_oss", "grovemoe", "apertus", "minimax-01",
    "hrm_text", "minimax-m2", "minimax-m3", "rnd1", "pangu-embedded", "mistral3", "eagle3",
    "maincoder", "talkie", "pockettts",
    NULL};
/* Archs whose graph passes model.get_rope_factors() as freq_factors
 * (rope_freqs.weight, else LongRoPE's long or short set: llama-model.cpp
 * 2337-2350); the others pass NULL. */
static const char *const ARCHS_FACTORS[] = {
    "llama", "llama4", "deci", "phi3", "minicpm3", "cohere2", "cohere2moe", "deepseek",
    "exaone", "exaone4", "exaone-moe", "granite", "granitehybrid", "graniteswitch",
    "granite_swa", "bailingmoe", "arcee", "hunyuan-moe", "hunyuan_vl", "hy_v3", "apertus",
    "mistral3", "eagle3", "step35", "nanbeige",
    NULL};
/* rope.dimension_count must equal the head size (llama-model.cpp:1450-1453). */
static const char *const ARCHS_ROT_IS_HEAD[] = {"llama", "deci", "falcon", "llama-embed", NULL};
/* Read rope.scaling.yarn_beta_fast and yarn_beta_slow (grok.cpp:26-27,
 * mistral3.cpp:7-8). */
static const char *const ARCHS_YARN_BETA[] = {"grok", "mistral3", NULL};
/* Read rope.scaling.yarn_ext_factor and yarn_attn_factor (grok.cpp:24-25). */
static const char *const ARCHS_YARN_EXT_ATTN[] = {"grok", NULL};
/* Read rope.scaling.yarn_log_multiplier (mistral3.cpp:9, deepseek2.cpp:34,
 * deepseek32.cpp:34). */
static const char *const ARCHS_YARN_LOG_MUL[] = {"mistral3", "deepseek2", "deepseek32", NULL};
/* ... and divide it by 0.1f, cancelling the converter's factor
 * (deepseek2.cpp:34-37, deepseek32.cpp:34-37). */
static const char *const ARCHS_LOG_MUL_TENTHS[] = {"deepseek2", "deepseek32", NULL};
/* The context takes mscale = yarn_log_multiplier when it is not 1
 * (llama-context.cpp:191-196: LLM_ARCH_DEEPSEEK2 only). */
static const char *const ARCHS_MSCALE_LOG_MUL[] = {"deepseek2", NULL};

/* 1 when name is in the NULL-terminated list. */
static inline int gguf_arch_in(const char *const *list, const char *name)
{
    for (; *list; list++)
        if (!strcmp(*list, name))
            return 1;
    return 0;
}

#endif
