/* gguf_archs.h - llama.cpp's architectures as data, for gguf_rope.c (not
 * installed). One row per name of src/llama-arch.cpp LLM_ARCH_NAMES (lines
 * 8-162) in llama-cpp-python 0.3.36's vendor/llama.cpp:
 *   rope       the type llama_model_rope_type() gives (src/llama-model.cpp
 *              3023-3212);
 *   rope_mrope the type when the file's rope.dimension_sections has its
 *              first two sections > 0 (hparams.use_mrope(),
 *              src/llama-hparams.cpp:352; the glm4, glm4moe, hunyuan_vl and
 *              bailingmoe3 cases), else the same as rope;
 *   flags      mechanisms (below), read from the arch's load_arch_hparams and
 *              graph in src/models/FILE;
 *   swa        the arch's sliding-window rule (SWA_RULES in gguf_rope.c), 0
 *              for none;
 *   source     the arch's file.
 * dflash (a drafter whose type depends on the target: llama-model.cpp
 * 3177-3186) is left out and refused by name. */
#ifndef POSENC_GGUF_ARCHS_H
#define POSENC_GGUF_ARCHS_H

#include "posenc_gguf.h"

#define R_NONE POSENC_GGUF_ROPE_NONE
#define R_NORM POSENC_GGUF_ROPE_NORM
#define R_NEOX POSENC_GGUF_ROPE_NEOX
#define R_MROPE POSENC_GGUF_ROPE_MROPE
#define R_IMROPE POSENC_GGUF_ROPE_IMROPE

/* Every layer calls ggml_rope_ext(..., n_rot, rope_type, n_ctx_orig,
 * freq_base, freq_scale, ext_factor, attn_factor, beta_fast, beta_slow)
 * with the context's arguments and no per-layer rule. */
#define GA_UNIFORM 0x01u
/* The graph passes model.get_rope_factors() (rope_freqs, or LongRoPE's long
 * or short set) as freq_factors; without it, NULL. */
#define GA_FACTORS 0x02u
/* rope.dimension_count must equal the head size (llama-model.cpp:1450). */
#define GA_ROT_IS_HEAD 0x04u
/* Reads rope.scaling.yarn_beta_fast / yarn_beta_slow (grok.cpp:26-27,
 * mistral3.cpp:7-8). */
#define GA_YARN_BETA 0x08u
/* Reads rope.scaling.yarn_ext_factor / yarn_attn_factor (grok.cpp:24-25). */
#define GA_YARN_EXT_ATTN 0x10u
/* Reads rope.scaling.yarn_log_multiplier (mistral3.cpp:9,
 * deepseek2.cpp:34, deepseek32.cpp:34). */
#define GA_YARN_LOG_MUL 0x20u
/* ... and divides it by 0.1f, cancelling the converter's factor
 * (deepseek2.cpp:34-37, deepseek32.cpp:34-37). */
#define GA_LOG_MUL_TENTHS 0x40u
/* The context takes mscale = yarn_log_multiplier when it is not 1
 * (llama-context.cpp:191-196, LLM_ARCH_DEEPSEEK2 only). */
#define GA_MSCALE_LOG_MUL 0x80u

/* Sliding-window rules (gguf_rope.c SWA_RULES). */
enum {
    SWA_NONE = 0,
    SWA_OWN_P2,          /* gemma2 */
    SWA_OWN_P6_WINDOW,   /* gemma3 */
    SWA_OWN_P2_REQ,      /* gpt-oss */
    SWA_ONLY_P4,         /* cohere2 */
    SWA_PLAIN_P4_WINDOW, /* olmo2 */
    SWA_N_RULES
};

typedef struct gguf_arch {
    const char *name;
    posenc_gguf_rope_type rope, rope_mrope;
    unsigned flags;
    unsigned swa;
    const char *source;
} gguf_arch;

static const gguf_arch GGUF_ARCHS[] = {
    {"clip", R_NONE, R_NONE, 0, 0, "src/models/clip.cpp"},
    {"llama", R_NORM, R_NORM, GA_ROT_IS_HEAD|GA_UNIFORM|GA_FACTORS, 0, "src/models/llama.cpp"},
    {"llama4", R_NORM, R_NORM, GA_FACTORS, 0, "src/models/llama4.cpp"},
    {"deci", R_NORM, R_NORM, GA_ROT_IS_HEAD|GA_UNIFORM|GA_FACTORS, 0, "src/models/deci.cpp"},
    {"falcon", R_NEOX, R_NEOX, GA_ROT_IS_HEAD|GA_UNIFORM, 0, "src/models/falcon.cpp"},
    {"grok", R_NEOX, R_NEOX, GA_YARN_BETA|GA_YARN_EXT_ATTN|GA_UNIFORM, 0, "src/models/grok.cpp"},
    {"gpt2", R_NONE, R_NONE, 0, 0, "src/models/gpt2.cpp"},
    {"gptj", R_NONE, R_NONE, 0, 0, "src/models/?"},
    {"gptneox", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/gptneox.cpp"},
    {"mpt", R_NONE, R_NONE, 0, 0, "src/models/mpt.cpp"},
    {"baichuan", R_NORM, R_NORM, GA_UNIFORM, 0, "src/models/baichuan.cpp"},
    {"starcoder", R_NORM, R_NORM, 0, 0, "src/models/starcoder.cpp"},
    {"refact", R_NONE, R_NONE, 0, 0, "src/models/refact.cpp"},
    {"bert", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/bert.cpp"},
    {"modern-bert", R_NEOX, R_NEOX, 0, 0, "src/models/modern-bert.cpp"},
    {"nomic-bert", R_NEOX, R_NEOX, 0, 0, "src/models/nomic-bert.cpp"},
    {"nomic-bert-moe", R_NEOX, R_NEOX, 0, 0, "src/models/nomic-bert-moe.cpp"},
    {"neo-bert", R_NORM, R_NORM, GA_UNIFORM, 0, "src/models/neo-bert.cpp"},
    {"jina-bert-v2", R_NONE, R_NONE, 0, 0, "src/models/jina-bert-v2.cpp"},
    {"jina-bert-v3", R_NEOX, R_NEOX, 0, 0, "src/models/jina-bert-v3.cpp"},
    {"eurobert", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/eurobert.cpp"},
    {"bloom", R_NONE, R_NONE, 0, 0, "src/models/bloom.cpp"},
    {"stablelm", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/stablelm.cpp"},
    {"qwen", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/qwen.cpp"},
    {"qwen2", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/qwen2.cpp"},
    {"qwen2moe", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/qwen2moe.cpp"},
    {"qwen2vl", R_MROPE, R_MROPE, 0, 0, "src/models/qwen2vl.cpp"},
    {"qwen3", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/qwen3.cpp"},
    {"qwen3moe", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/qwen3moe.cpp"},
    {"qwen3next", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/qwen3next.cpp"},
    {"qwen3vl", R_IMROPE, R_IMROPE, 0, 0, "src/models/qwen3vl.cpp"},
    {"qwen3vlmoe", R_IMROPE, R_IMROPE, 0, 0, "src/models/qwen3vlmoe.cpp"},
    {"qwen35", R_IMROPE, R_IMROPE, 0, 0, "src/models/qwen35.cpp"},
    {"qwen35moe", R_IMROPE, R_IMROPE, 0, 0, "src/models/qwen35moe.cpp"},
    {"qwen4exp", R_IMROPE, R_IMROPE, 0, 0, "src/models/qwen4exp.cpp"},
    {"phi2", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/phi2.cpp"},
    {"phi3", R_NEOX, R_NEOX, GA_UNIFORM|GA_FACTORS, 0, "src/models/phi3.cpp"},
    {"phimoe", R_NEOX, R_NEOX, 0, 0, "src/models/phimoe.cpp"},
    {"plamo", R_NEOX, R_NEOX, 0, 0, "src/models/plamo.cpp"},
    {"plamo2", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/plamo2.cpp"},
    {"plamo3", R_NEOX, R_NEOX, 0, 0, "src/models/plamo3.cpp"},
    {"codeshell", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/codeshell.cpp"},
    {"orion", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/orion.cpp"},
    {"internlm2", R_NORM, R_NORM, GA_UNIFORM, 0, "src/models/internlm2.cpp"},
    {"minicpm", R_NORM, R_NORM, 0, 0, "src/models/minicpm.cpp"},
    {"minicpm3", R_NEOX, R_NEOX, GA_UNIFORM|GA_FACTORS, 0, "src/models/minicpm3.cpp"},
    {"gemma", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/gemma.cpp"},
    {"gemma2", R_NEOX, R_NEOX, 0, SWA_OWN_P2, "src/models/gemma2.cpp"},
    {"gemma3", R_NEOX, R_NEOX, 0, SWA_OWN_P6_WINDOW, "src/models/gemma3.cpp"},
    {"gemma3n", R_NEOX, R_NEOX, 0, 0, "src/models/gemma3n.cpp"},
    {"gemma4", R_NEOX, R_NEOX, 0, 0, "src/models/gemma4.cpp"},
    {"gemma4-assistant", R_NEOX, R_NEOX, 0, 0, "src/models/gemma4-assistant.cpp"},
    {"gemma-embedding", R_NEOX, R_NEOX, 0, 0, "src/models/gemma-embedding.cpp"},
    {"starcoder2", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/starcoder2.cpp"},
    {"mamba", R_NONE, R_NONE, 0, 0, "src/models/mamba.cpp"},
    {"mamba2", R_NONE, R_NONE, 0, 0, "src/models/mamba2.cpp"},
    {"maple", R_NEOX, R_NEOX, 0, 0, "src/models/maple.cpp"},
    {"jamba", R_NONE, R_NONE, 0, 0, "src/models/jamba.cpp"},
    {"falcon-h1", R_NEOX, R_NEOX, 0, 0, "src/models/falcon-h1.cpp"},
    {"xverse", R_NORM, R_NORM, GA_UNIFORM, 0, "src/models/xverse.cpp"},
    {"command-r", R_NORM, R_NORM, GA_UNIFORM, 0, "src/models/command-r.cpp"},
    {"cohere2", R_NORM, R_NORM, GA_FACTORS, SWA_ONLY_P4, "src/models/cohere2.cpp"},
    {"cohere2moe", R_NORM, R_NORM, GA_FACTORS, 0, "src/models/cohere2moe.cpp"},
    {"dbrx", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/dbrx.cpp"},
    {"olmo", R_NORM, R_NORM, GA_UNIFORM, 0, "src/models/olmo.cpp"},
    {"olmo2", R_NEOX, R_NEOX, 0, SWA_PLAIN_P4_WINDOW, "src/models/olmo2.cpp"},
    {"olmoe", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/olmoe.cpp"},
    {"muse-glimmer", R_NORM, R_NORM, 0, 0, "src/models/muse-glimmer.cpp"},
    {"openelm", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/openelm.cpp"},
    {"arctic", R_NORM, R_NORM, GA_UNIFORM, 0, "src/models/arctic.cpp"},
    {"deepseek", R_NORM, R_NORM, GA_UNIFORM|GA_FACTORS, 0, "src/models/deepseek.cpp"},
    {"deepseek2", R_NORM, R_NORM, GA_YARN_LOG_MUL|GA_LOG_MUL_TENTHS|GA_MSCALE_LOG_MUL, 0, "src/models/deepseek2.cpp"},
    {"deepseek2-ocr", R_NORM, R_NORM, 0, 0, "src/models/deepseek2ocr.cpp"},
    {"deepseek32", R_NORM, R_NORM, GA_YARN_LOG_MUL|GA_LOG_MUL_TENTHS, 0, "src/models/deepseek32.cpp"},
    {"deepseek4", R_NORM, R_NORM, 0, 0, "src/models/deepseek4.cpp"},
    {"chatglm", R_NORM, R_NORM, GA_UNIFORM, 0, "src/models/chatglm.cpp"},
    {"glm4", R_NORM, R_MROPE, 0, 0, "src/models/glm4.cpp"},
    {"glm4moe", R_NEOX, R_MROPE, 0, 0, "src/models/glm4-moe.cpp"},
    {"glm-dsa", R_NORM, R_NORM, 0, 0, "src/models/glm-dsa.cpp"},
    {"bitnet", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/bitnet.cpp"},
    {"t5", R_NONE, R_NONE, 0, 0, "src/models/t5.cpp"},
    {"t5encoder", R_NONE, R_NONE, 0, 0, "src/models/t5encoder.cpp"},
    {"jais", R_NONE, R_NONE, 0, 0, "src/models/jais.cpp"},
    {"jais2", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/jais2.cpp"},
    {"nemotron", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/nemotron.cpp"},
    {"nemotron_h", R_NONE, R_NONE, 0, 0, "src/models/nemotron-h.cpp"},
    {"nemotron_h_moe", R_NONE, R_NONE, 0, 0, "src/models/nemotron-h-moe.cpp"},
    {"exaone", R_NEOX, R_NEOX, GA_UNIFORM|GA_FACTORS, 0, "src/models/exaone.cpp"},
    {"exaone4", R_NEOX, R_NEOX, GA_FACTORS, 0, "src/models/exaone4.cpp"},
    {"exaone-moe", R_NEOX, R_NEOX, GA_FACTORS, 0, "src/models/exaone-moe.cpp"},
    {"rwkv6", R_NONE, R_NONE, 0, 0, "src/models/rwkv6.cpp"},
    {"rwkv6qwen2", R_NONE, R_NONE, 0, 0, "src/models/rwkv6qwen2.cpp"},
    {"rwkv7", R_NONE, R_NONE, 0, 0, "src/models/rwkv7.cpp"},
    {"arwkv7", R_NONE, R_NONE, 0, 0, "src/models/arwkv7.cpp"},
    {"granite", R_NORM, R_NORM, GA_UNIFORM|GA_FACTORS, 0, "src/models/granite.cpp"},
    {"granitemoe", R_NORM, R_NORM, 0, 0, "src/models/granite-moe.cpp"},
    {"granitehybrid", R_NORM, R_NORM, GA_UNIFORM|GA_FACTORS, 0, "src/models/granite-hybrid.cpp"},
    {"graniteswitch", R_NORM, R_NORM, GA_UNIFORM|GA_FACTORS, 0, "src/models/granite-switch.cpp"},
    {"granite_swa", R_NORM, R_NORM, GA_FACTORS, 0, "src/models/granite-swa.cpp"},
    {"chameleon", R_NORM, R_NORM, GA_UNIFORM, 0, "src/models/chameleon.cpp"},
    {"wavtokenizer-dec", R_NONE, R_NONE, 0, 0, "src/models/wavtokenizer-dec.cpp"},
    {"plm", R_NORM, R_NORM, GA_UNIFORM, 0, "src/models/plm.cpp"},
    {"bailingmoe", R_NORM, R_NORM, GA_UNIFORM|GA_FACTORS, 0, "src/models/bailingmoe.cpp"},
    {"bailingmoe2", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/bailingmoe2.cpp"},
    {"bailingmoe3", R_NORM, R_MROPE, 0, 0, "src/models/bailingmoe3.cpp"},
    {"dots1", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/dots1.cpp"},
    {"dots3note", R_NORM, R_NORM, 0, 0, "src/models/dots3note.cpp"},
    {"arcee", R_NORM, R_NORM, GA_UNIFORM|GA_FACTORS, 0, "src/models/arcee.cpp"},
    {"afmoe", R_NEOX, R_NEOX, 0, 0, "src/models/afmoe.cpp"},
    {"laguna", R_NEOX, R_NEOX, 0, 0, "src/models/laguna.cpp"},
    {"ernie4_5", R_NORM, R_NORM, 0, 0, "src/models/ernie4-5.cpp"},
    {"ernie4_5-moe", R_NORM, R_NORM, GA_UNIFORM, 0, "src/models/ernie4-5-moe.cpp"},
    {"hunyuan-moe", R_NEOX, R_NEOX, GA_UNIFORM|GA_FACTORS, 0, "src/models/hunyuan-moe.cpp"},
    {"hunyuan-dense", R_NEOX, R_NEOX, 0, 0, "src/models/hunyuan-dense.cpp"},
    {"hunyuan_vl", R_NEOX, R_MROPE, GA_FACTORS, 0, "src/models/hunyuan-vl.cpp"},
    {"hy_v3", R_NEOX, R_NEOX, GA_UNIFORM|GA_FACTORS, 0, "src/models/hy-v3.cpp"},
    {"hy_v4", R_NORM, R_NORM, 0, 0, "src/models/hy-v4.cpp"},
    {"smollm3", R_NORM, R_NORM, 0, 0, "src/models/smollm3.cpp"},
    {"gpt-oss", R_NEOX, R_NEOX, 0, SWA_OWN_P2_REQ, "src/models/openai-moe.cpp"},
    {"lfm2", R_NEOX, R_NEOX, 0, 0, "src/models/lfm2.cpp"},
    {"lfm2moe", R_NEOX, R_NEOX, 0, 0, "src/models/lfm2moe.cpp"},
    {"dream", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/dream.cpp"},
    {"smallthinker", R_NEOX, R_NEOX, 0, 0, "src/models/smallthinker.cpp"},
    {"llada", R_NORM, R_NORM, GA_UNIFORM, 0, "src/models/llada.cpp"},
    {"llada-moe", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/llada-moe.cpp"},
    {"seed_oss", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/seed-oss.cpp"},
    {"grovemoe", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/grovemoe.cpp"},
    {"apertus", R_NEOX, R_NEOX, GA_UNIFORM|GA_FACTORS, 0, "src/models/apertus.cpp"},
    {"minimax-01", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/minimax-01.cpp"},
    {"hrm_text", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/hrm-text.cpp"},
    {"minimax-m2", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/minimax-m2.cpp"},
    {"minimax-m3", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/minimax-m3.cpp"},
    {"cogvlm", R_NEOX, R_NEOX, 0, 0, "src/models/cogvlm.cpp"},
    {"rnd1", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/rnd1.cpp"},
    {"pangu-embedded", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/pangu-embed.cpp"},
    {"mistral3", R_NORM, R_NORM, GA_YARN_BETA|GA_YARN_LOG_MUL|GA_UNIFORM|GA_FACTORS, 0, "src/models/mistral3.cpp"},
    {"eagle3", R_NORM, R_NORM, GA_UNIFORM|GA_FACTORS, 0, "src/models/eagle3.cpp"},
    {"mistral4", R_NORM, R_NORM, 0, 0, "src/models/mistral4.cpp"},
    {"paddleocr", R_MROPE, R_MROPE, 0, 0, "src/models/paddleocr.cpp"},
    {"mimo2", R_NEOX, R_NEOX, 0, 0, "src/models/mimo2.cpp"},
    {"step35", R_NEOX, R_NEOX, GA_FACTORS, 0, "src/models/step35.cpp"},
    {"spark2_5", R_NEOX, R_NEOX, 0, 0, "src/models/spark2-5.cpp"},
    {"llama-embed", R_NORM, R_NORM, GA_ROT_IS_HEAD, 0, "src/models/llama-embed.cpp"},
    {"maincoder", R_NORM, R_NORM, GA_UNIFORM, 0, "src/models/maincoder.cpp"},
    {"kimi-linear", R_NONE, R_NONE, 0, 0, "src/models/kimi-linear.cpp"},
    {"kimi-k3", R_NONE, R_NONE, 0, 0, "src/models/kimi-k3.cpp"},
    {"glm5-next", R_NONE, R_NONE, 0, 0, "src/models/glm5-next.cpp"},
    {"talkie", R_NEOX, R_NEOX, GA_UNIFORM, 0, "src/models/talkie.cpp"},
    {"mellum", R_NEOX, R_NEOX, 0, 0, "src/models/mellum.cpp"},
    {"nanbeige", R_NORM, R_NORM, GA_FACTORS, 0, "src/models/nanbeige.cpp"},
    {"qwen3tts", R_IMROPE, R_IMROPE, 0, 0, "src/models/qwen3tts.cpp"},
    {"pockettts", R_NORM, R_NORM, GA_UNIFORM, 0, "src/models/pockettts.cpp"},
};
#define N_GGUF_ARCHS (sizeof GGUF_ARCHS / sizeof GGUF_ARCHS[0])

#endif
