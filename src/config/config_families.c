/* config_families.c - the family registry and its look-ups (see
 * config_families.h). Every entry cites the file and lines of the code it
 * follows. Paths under "models/" are in the repository
 * zucchini-nlp/transformers (a recent copy of Hugging Face transformers)
 * below src/transformers/; others name the model's own repository on the
 * Hugging Face Hub. docs/MODELS.md has the table in prose. */
#include "config_families.h"
#include "config_quirks.h"
#include "posenc_config.h"

#include <string.h>

#define HALF POSENC_LAYOUT_HALF
#define INTERLEAVED POSENC_LAYOUT_INTERLEAVED
#define WHOLE_HEAD POSENC_ROTARY_WHOLE_HEAD

/* The layer kinds of hybrid models (the KINDS rule, config_families.h):
 * each name as configs write it, transformers' legacy names too
 * (configuration_utils.py L94-99 in transformers 5.23.0: "mamba" ->
 * "linear_attention", "attention" -> "full_attention"). kinds[0] is the
 * kind an index or period rule places, kinds[1] the rest. */
#define ROPE POSENC_TROPE_SCALED, NULL
#define NONE(why) POSENC_TROPE_NONE, why
#define NO_ATTENTION_ROPE "NoPE attention layer: its attention applies no rotary"
#define MAMBA "mamba layer: no attention"

/* attention and short convolutions (LFM2) */
static const posenc_layer_kind KINDS_CONV[] = {
    {"full_attention", ROPE, NULL},
    {"conv", NONE("short convolution layer: no attention"), NULL},
    {NULL, 0, NULL, NULL}};
/* attention and linear attention (Qwen3-Next's Gated DeltaNet, MiniMax's lightning attention) */
static const posenc_layer_kind KINDS_LINEAR[] = {
    {"full_attention", ROPE, NULL},
    {"linear_attention", NONE("linear attention: no positions"), NULL},
    {NULL, 0, NULL, NULL}};
/* attention and Mamba (Bamba, Granite 4.0-H) */
static const posenc_layer_kind KINDS_MAMBA[] = {
    {"full_attention", ROPE, NULL},
    {"linear_attention", NONE(MAMBA), "mamba"},
    {"attention", ROPE, "full_attention"},
    {"mamba", NONE(MAMBA), "mamba"},
    {NULL, 0, NULL, NULL}};
/* attention without RoPE and Mamba (Jamba) */
static const posenc_layer_kind KINDS_MAMBA_NOPE[] = {
    {"full_attention", NONE(NO_ATTENTION_ROPE), NULL},
    {"linear_attention", NONE(MAMBA), "mamba"},
    {"attention", NONE(NO_ATTENTION_ROPE), "full_attention"},
    {"mamba", NONE(MAMBA), "mamba"},
    {NULL, 0, NULL, NULL}};
/* Nemotron-H: names, and hybrid_override_pattern's letters */
static const posenc_layer_kind KINDS_NEMOTRON_H[] = {
    {"full_attention", NONE(NO_ATTENTION_ROPE), NULL},
    {"linear_attention", NONE(MAMBA), "mamba"},
    {"mlp", NONE("MLP layer: no attention"), NULL},
    {"moe", NONE("MoE layer: no attention"), NULL},
    {"attention", NONE(NO_ATTENTION_ROPE), "full_attention"},
    {"mamba", NONE(MAMBA), "mamba"},
    {"*", NONE(NO_ATTENTION_ROPE), "full_attention"},
    {"M", NONE(MAMBA), "mamba"},
    {"-", NONE("MLP layer: no attention"), "mlp"},
    {"E", NONE("MoE layer: no attention"), "moe"},
    {NULL, 0, NULL, NULL}};
/* Kimi Linear: MLA without rotary, and Kimi Delta Attention */
static const posenc_layer_kind KINDS_KIMI_LINEAR[] = {
    {"full_attention", NONE("NoPE attention layer: its MLA applies no rotary"), NULL},
    {"linear_attention", NONE("linear attention: no positions"), NULL},
    {NULL, 0, NULL, NULL}};
/* GLM-5.3-Flash (glm5_next_text): DSA attention without rotary (NoPE) and KDA
 * linear attention; "full_attention" is renamed "indexed_attention" */
static const posenc_layer_kind KINDS_GLM5_NEXT[] = {
    {"indexed_attention", NONE("NoPE attention layer: its DSA attention applies no rotary"), NULL},
    {"linear_attention", NONE("linear attention: no positions"), NULL},
    {"full_attention", NONE("NoPE attention layer: its DSA attention applies no rotary"),
     "indexed_attention"},
    {NULL, 0, NULL, NULL}};
/* Llama 3.2 Vision: the listed layers cross-attend to the image */
static const posenc_layer_kind KINDS_CROSS[] = {
    {"cross_attention", NONE("cross-attention to image tokens: no positions"), NULL},
    {"self_attention", ROPE, NULL},
    {NULL, 0, NULL, NULL}};
/* Zamba, Zamba 2: Mamba layers, some with the shared attention block */
static const posenc_layer_kind KINDS_ZAMBA[] = {
    {"hybrid", NONE("mamba layer with the shared attention block, which applies no rotary"), NULL},
    {"linear_attention", NONE(MAMBA), "mamba"},
    {"mamba", NONE(MAMBA), "mamba"},
    {NULL, 0, NULL, NULL}};
/* RecurrentGemma: RG-LRU recurrent blocks and local (sliding-window) attention */
static const posenc_layer_kind KINDS_RECURRENT_GEMMA[] = {
    {"attention", ROPE, "sliding_attention"},
    {"recurrent", NONE("recurrent block (RG-LRU and a short convolution): no attention"), NULL},
    {NULL, 0, NULL, NULL}};
/* Zamba 2: the same, the shared attention block rotating with use_mem_rope */
static const posenc_layer_kind KINDS_ZAMBA2[] = {
    {"hybrid", ROPE, NULL},
    {"linear_attention", NONE(MAMBA), "mamba"},
    {"mamba", NONE(MAMBA), "mamba"},
    {NULL, 0, NULL, NULL}};
/* recurrent language models: no attention anywhere (RWKV, xLSTM) */
static const posenc_layer_kind KINDS_RWKV[] = {
    {"rwkv", NONE("RWKV layer: a time-mixing recurrence, no attention"), NULL},
    {NULL, 0, NULL, NULL}};
static const posenc_layer_kind KINDS_XLSTM[] = {
    {"mlstm", NONE("mLSTM block: a recurrence, no attention"), NULL},
    {NULL, 0, NULL, NULL}};
/* state-space models: no attention anywhere */
static const posenc_layer_kind KINDS_SSM[] = {
    {"mamba", NONE(MAMBA), NULL},
    {NULL, 0, NULL, NULL}};

/* A wrapper (a multimodal type) in one row: its language part is under key
 * (a dotted path for a nested one), read as part_type when the part names
 * no model_type of its own (NULL: it must). The reader reads nothing else
 * of it; scheme is what the listing shows for the whole model. */
#define WRAPPER(type, arch_, scheme_, key, part_type, src)                                      \
    {.model_type = type, .arch = arch_, .scheme = POSENC_SCHEME_##scheme_, .nested = key,       \
     .nested_type = part_type, .source = src}

/* A family posenc knows and refuses, in one row: why (the mechanism its code
 * has that posenc does not implement), and what the listing shows. */
#define REFUSED(type, arch_, scheme_, layout_, why, src)                                        \
    {.model_type = type, .arch = arch_, .scheme = POSENC_SCHEME_##scheme_, .layout = layout_,   \
     .refused = why, .source = src}
#define NO_LAYOUT POSENC_LAYOUT_INTERLEAVED /* a refused family's RoPE layout: not read */

/* Encoder-decoder families whose stacks are configs of their own
 * (posenc_family_stacks): where each is and the family it is read as. */
static const posenc_family_stacks STACKS_DIA = {{"encoder_config", "decoder_config"},
                                                {"dia_encoder", "dia_decoder"}, 0};
static const posenc_family_stacks STACKS_T5GEMMA = {{"encoder", "decoder"},
                                                    {"t5_gemma_module", "t5_gemma_module"}, 0};
static const posenc_family_stacks STACKS_T5GEMMA2 = {{"encoder", "decoder"},
                                                     {"t5gemma2_encoder", "t5gemma2_decoder"}, 0};
/* EncoderDecoderModel: any two families, each stack its own model_type (bert
 * when it names none: configuration_encoder_decoder.py L60-72,
 * configuration_utils.py L252, transformers 5.23.0) */
static const posenc_family_stacks STACKS_ENCODER_DECODER = {{"encoder", "decoder"},
                                                            {"bert", "bert"}, 1};

/* Sorted by model_type (the listing's order; tests check it). */
static const posenc_model_family FAMILIES[] = {
#include "config_families_table.h"
};

#undef WRAPPER
#undef MLA_ROPE
#undef GEMMA4_LAYERS
#undef EXAONE4_LAYERS
#undef QWEN2_VL_MROPE
#undef TYPE_SETS_ROPE
#undef REFUSED
#undef NO_LAYOUT
#undef ROPE
#undef NONE
#undef NO_ATTENTION_ROPE
#undef MAMBA

#define N_FAMILIES (sizeof FAMILIES / sizeof FAMILIES[0])

size_t posenc__families(const posenc_model_family **table)
{
    if (table)
        *table = FAMILIES;
    return N_FAMILIES;
}

const posenc_model_family *posenc__family_find(const char *model_type)
{
    if (!model_type)
        return NULL;
    for (size_t i = 0; i < N_FAMILIES; i++)
        if (strcmp(FAMILIES[i].model_type, model_type) == 0)
            return &FAMILIES[i];
    return NULL;
}

const posenc_model_family *posenc__family_by_arch(const char *class_name)
{
    if (!class_name)
        return NULL;
    static const char *const suffix[] = {"For", "Model", "LMHead"};
    for (size_t i = 0; i < N_FAMILIES; i++) {
        const char *a = FAMILIES[i].arch;
        if (!a)
            continue;
        size_t n = strlen(a);
        if (strncmp(class_name, a, n) != 0)
            continue;
        for (size_t j = 0; j < sizeof suffix / sizeof suffix[0]; j++)
            if (strncmp(class_name + n, suffix[j], strlen(suffix[j])) == 0)
                return &FAMILIES[i];
    }
    return NULL;
}

size_t posenc_model_family_count(void) { return N_FAMILIES; }

posenc_status posenc_model_family_info(size_t i, posenc_family_info *out)
{
    if (!out)
        return POSENC_ERR_NULL;
    if (i >= N_FAMILIES)
        return POSENC_ERR_RANGE;
    const posenc_model_family *f = &FAMILIES[i];
    int rope = !f->nested && (f->scheme == POSENC_SCHEME_ROPE || f->scheme == POSENC_SCHEME_MIXED) &&
               f->layers != POSENC_LAYERS_ENC_DEC;
    out->model_type = f->model_type;
    out->scheme = f->scheme;
    out->rope_layout = rope ? (int)f->layout : -1;
    out->part = f->nested;
    out->part_type = f->nested ? f->nested_type : NULL;
    out->or_alibi = (f->flags & POSENC_FAMILY_ALIBI_KEY) || (f->quirks && f->quirks->may_choose_alibi);
    out->supported = f->refused == NULL;
    out->source = f->source;
    return POSENC_OK;
}
