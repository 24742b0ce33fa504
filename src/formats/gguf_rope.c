/* gguf_rope.c - the RoPE llama.cpp runs for a GGUF file (posenc_gguf.h,
 * tier 2): the keys its loader reads, with its types and defaults, and the
 * arguments its graph passes to ggml_rope_ext for a layer.
 *
 * Every rule cites llama-cpp-python 0.3.36's vendor/llama.cpp (file:line).
 * The float arithmetic is llama.cpp's: its hparams and cparams are float,
 * and the expressions below are evaluated in float as there. */
#include "posenc_gguf.h"

#include "gguf_archs.h"
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *posenc_gguf_rope_type_name(posenc_gguf_rope_type t)
{
    switch (t) {
    case POSENC_GGUF_ROPE_NONE: return "none";
    case POSENC_GGUF_ROPE_NORM: return "norm";
    case POSENC_GGUF_ROPE_NEOX: return "neox";
    case POSENC_GGUF_ROPE_MROPE: return "mrope";
    case POSENC_GGUF_ROPE_VISION: return "vision";
    case POSENC_GGUF_ROPE_IMROPE: return "imrope";
    }
    return "unknown";
}

/* llama-model.cpp:1034-1039 LLAMA_ROPE_SCALING_TYPES */
static const char *const SCALING_NAMES[] = {"none", "linear", "yarn", "longrope"};

const char *posenc_gguf_scaling_name(posenc_gguf_scaling s)
{
    return (unsigned)s < 4 ? SCALING_NAMES[s] : "unknown";
}

/* ---- per-layer rules: sliding windows, NoPE layers ------------------------------ */

enum { WHEN_NEVER, WHEN_ALWAYS, WHEN_WINDOW, WHEN_WINDOW_REQUIRED, WHEN_WINDOW_NOT_ZERO };
#define NOPE_N_LAYER 0xFFFFFFFFu
enum { OP_OWN, OP_MAIN, OP_PLAIN };

/* One arch's per-layer rule (its load_arch_hparams and graph):
 *   period      default sliding_window_pattern: layer il is SWA when
 *               il % period < period - 1 (llama-hparams.cpp:8-17);
 *   when        WHEN_NEVER: no SWA; WHEN_ALWAYS: SWA whatever the file;
 *               WHEN_WINDOW: only when {arch}.attention.sliding_window is
 *               present and > 0; WHEN_WINDOW_REQUIRED: the key must be
 *               present (llama.cpp throws without it) and SWA is on;
 *               WHEN_WINDOW_NOT_ZERO: on unless the key is present and 0;
 *   base_train  freq_base_swa defaults to freq_base (1) or to 10000, the
 *               hparams default (0; llama-hparams.h:151);
 *   scale_train freq_scale_swa defaults to freq_scale (1) or to 1 (0);
 *   op          OP_OWN: SWA layers use freq_base_swa and freq_scale_swa
 *               (llama-model.cpp:2329-2335); OP_MAIN: the context's
 *               arguments; OP_PLAIN: the context's base with freq_scale 1,
 *               ext_factor 0, attn_factor 1;
 *   full_rotates 0 when the full-attention layers apply no RoPE;
 *   nope_step   k > 0: layer il applies no RoPE when (il + 1) % k == 0
 *               (n_no_rope_layer_step, llama-hparams.h:258), 0: none;
 *   nope_off    the step while SWA is off (NOPE_N_LAYER: n_layer, 0: the
 *               same). */
typedef struct swa_rule {
    const char *arch;
    unsigned period;
    int when, base_train, scale_train, op, full_rotates;
    unsigned nope_step, nope_off;
} swa_rule;

static const swa_rule SWA_RULES[] = {
    /* src/models/gemma2.cpp:3-12 (n_swa default 4096), 79-102 */
    {"gemma2", 2, WHEN_ALWAYS, 1, 1, OP_OWN, 1, 0, 0},
    /* src/models/gemma3.cpp:4-12 (freq_base_swa read, else 10000), 110-145 */
    {"gemma3", 6, WHEN_WINDOW, 0, 0, OP_OWN, 1, 0, 0},
    /* src/models/openai-moe.cpp:6-13, 78-105 */
    {"gpt-oss", 2, WHEN_WINDOW_REQUIRED, 1, 1, OP_OWN, 1, 0, 0},
    /* src/models/cohere2.cpp:4-11, 70-100: only SWA layers rotate, with the
     * context's arguments (freq_base_l is commented out there) */
    {"cohere2", 4, WHEN_WINDOW_REQUIRED, 1, 1, OP_MAIN, 0, 0, 0},
    /* src/models/olmo2.cpp:6-15, 115-135: SWA layers "regular rope with no
     * yarn rope scaling", no factors */
    {"olmo2", 4, WHEN_WINDOW, 1, 0, OP_PLAIN, 1, 0, 0},
    /* src/models/llama4.cpp:8-23, 136-156: chunked layers 3 of 4; every
     * 4th layer NoPE; without chunks (sliding_window 0) the step becomes
     * n_layer, so the last layer has no RoPE */
    {"llama4", 4, WHEN_WINDOW_NOT_ZERO, 1, 1, OP_OWN, 1, 4, NOPE_N_LAYER},
    /* src/models/afmoe.cpp:11-23, 128-170: SWA 3 of 4 with its base; NoPE
     * step 4 (the hparams default) either way */
    {"afmoe", 4, WHEN_WINDOW, 1, 1, OP_OWN, 1, 4, 0},
    /* src/models/smollm3.cpp:5, 69-93: every 4th layer NoPE, no SWA */
    {"smollm3", 0, WHEN_NEVER, 1, 1, OP_MAIN, 1, 4, 0},
};
#define N_SWA_RULES (sizeof SWA_RULES / sizeof SWA_RULES[0])

/* ---- an architecture ------------------------------------------------------------- */

/* Mechanisms (the lists of gguf_archs.h). */
#define GA_UNIFORM 0x01u
#define GA_FACTORS 0x02u
#define GA_ROT_IS_HEAD 0x04u
#define GA_YARN_BETA 0x08u
#define GA_YARN_EXT_ATTN 0x10u
#define GA_YARN_LOG_MUL 0x20u
#define GA_LOG_MUL_TENTHS 0x40u
#define GA_MSCALE_LOG_MUL 0x80u

typedef struct gguf_arch {
    posenc_gguf_rope_type rope, rope_mrope;
    unsigned flags;
    const swa_rule *swa; /* NULL: no sliding-window rule */
} gguf_arch;

/* What the lists say about name; 0 when it is in none of the type lists. */
static int find_arch(const char *name, gguf_arch *a)
{
    static const struct {
        const char *const *list;
        posenc_gguf_rope_type type;
    } TYPES[] = {{ARCHS_NONE, POSENC_GGUF_ROPE_NONE},   {ARCHS_NORM, POSENC_GGUF_ROPE_NORM},
                 {ARCHS_NEOX, POSENC_GGUF_ROPE_NEOX},   {ARCHS_MROPE, POSENC_GGUF_ROPE_MROPE},
                 {ARCHS_IMROPE, POSENC_GGUF_ROPE_IMROPE}};
    static const struct {
        const char *const *list;
        unsigned flag;
    } FLAGS[] = {{ARCHS_UNIFORM, GA_UNIFORM},           {ARCHS_FACTORS, GA_FACTORS},
                 {ARCHS_ROT_IS_HEAD, GA_ROT_IS_HEAD},   {ARCHS_YARN_BETA, GA_YARN_BETA},
                 {ARCHS_YARN_EXT_ATTN, GA_YARN_EXT_ATTN}, {ARCHS_YARN_LOG_MUL, GA_YARN_LOG_MUL},
                 {ARCHS_LOG_MUL_TENTHS, GA_LOG_MUL_TENTHS},
                 {ARCHS_MSCALE_LOG_MUL, GA_MSCALE_LOG_MUL}};
    size_t t = 0;
    while (t < sizeof TYPES / sizeof TYPES[0] && !gguf_arch_in(TYPES[t].list, name))
        t++;
    if (t == sizeof TYPES / sizeof TYPES[0])
        return 0;
    a->rope = TYPES[t].type;
    a->rope_mrope = gguf_arch_in(ARCHS_MROPE_IF_SECTIONS, name) ? POSENC_GGUF_ROPE_MROPE : a->rope;
    a->flags = 0;
    for (size_t f = 0; f < sizeof FLAGS / sizeof FLAGS[0]; f++)
        if (gguf_arch_in(FLAGS[f].list, name))
            a->flags |= FLAGS[f].flag;
    a->swa = NULL;
    for (size_t r = 0; r < N_SWA_RULES; r++)
        if (!strcmp(SWA_RULES[r].arch, name))
            a->swa = &SWA_RULES[r];
    return 1;
}

posenc_status posenc_gguf_arch_rope_type(const char *arch, posenc_gguf_rope_type *type,
                                         posenc_gguf_rope_type *type_mrope)
{
    if (!arch || !type || !type_mrope)
        return POSENC_ERR_NULL;
    gguf_arch a;
    if (!find_arch(arch, &a))
        return POSENC_ERR_RANGE;
    *type = a.rope;
    *type_mrope = a.rope_mrope;
    return POSENC_OK;
}

/* ---- typed keys, as llama-model-loader.cpp's GKV (lines 109-172) ---------------- */

typedef struct keys {
    const posenc_gguf *g;
    const char *arch;
    posenc_load_error *err;
} keys;

/* The value of "{arch}.suffix" (or suffix itself when arch is NULL):
 * *found 0 when absent. name receives the full key. */
static int lookup(const keys *k, const char *suffix, int prefixed, char *name, size_t n,
                  posenc_gguf_value *v)
{
    if (prefixed)
        snprintf(name, n, "%s.%s", k->arch, suffix);
    else
        snprintf(name, n, "%s", suffix);
    int64_t i = posenc_gguf_find_key(k->g, name);
    return i >= 0 && posenc_gguf_value_at(k->g, (uint64_t)i, v) == POSENC_OK;
}

static posenc_status wrong_type(const keys *k, const char *name, const posenc_gguf_value *v,
                                posenc_gguf_type want)
{
    return posenc__load_fail(k->err, POSENC_ERR_FORMAT, "key '%s' has wrong type %s but llama.cpp "
                             "expects %s", name, posenc_gguf_type_name(v->type),
                             posenc_gguf_type_name(want));
}

static posenc_status missing(const keys *k, const char *name)
{
    return posenc__load_fail(k->err, POSENC_ERR_FORMAT, "key not found: '%s' (llama.cpp requires "
                             "it)", name);
}

/* A u32 key; *out untouched when absent (and not required). */
static posenc_status get_u32(const keys *k, const char *suffix, int required, uint32_t *out,
                             int *found)
{
    char name[160];
    posenc_gguf_value v;
    int f = lookup(k, suffix, 1, name, sizeof name, &v);
    if (found)
        *found = f;
    if (!f)
        return required ? missing(k, name) : POSENC_OK;
    if (v.type != POSENC_GGUF_U32)
        return wrong_type(k, name, &v, POSENC_GGUF_U32);
    *out = (uint32_t)v.u;
    return POSENC_OK;
}

static posenc_status get_f32(const keys *k, const char *suffix, float *out, int *found)
{
    char name[160];
    posenc_gguf_value v;
    int f = lookup(k, suffix, 1, name, sizeof name, &v);
    if (found)
        *found = f;
    if (!f)
        return POSENC_OK;
    if (v.type != POSENC_GGUF_F32)
        return wrong_type(k, name, &v, POSENC_GGUF_F32);
    *out = (float)v.f;
    return POSENC_OK;
}

/* Element j of an integer array (bool, u32 or i32: llama-model-loader.cpp
 * 366-372). */
static int64_t int_elem(const posenc_gguf_value *v, uint64_t j)
{
    const unsigned char *b = v->data;
    if (v->elem == POSENC_GGUF_BOOL)
        return b[j] != 0;
    uint32_t w = (uint32_t)b[4 * j] | (uint32_t)b[4 * j + 1] << 8 | (uint32_t)b[4 * j + 2] << 16 |
                 (uint32_t)b[4 * j + 3] << 24;
    return v->elem == POSENC_GGUF_I32 ? (int64_t)(int32_t)w : (int64_t)w;
}

/* An integer array of at most max elements into out[0..n) (the rest left);
 * *found 0 when absent, *is_array 0 when it is a u32 scalar (in *scalar). */
static posenc_status get_int_array(const keys *k, const char *suffix, uint32_t max, int64_t *out,
                                   uint64_t *n, int *found, uint32_t *scalar, int *is_array)
{
    char name[160];
    posenc_gguf_value v;
    *found = lookup(k, suffix, 1, name, sizeof name, &v);
    *is_array = 0;
    if (!*found)
        return POSENC_OK;
    if (v.type != POSENC_GGUF_ARRAY) {
        if (v.type != POSENC_GGUF_U32)
            return wrong_type(k, name, &v, POSENC_GGUF_U32);
        *scalar = (uint32_t)v.u;
        return POSENC_OK;
    }
    if (v.elem != POSENC_GGUF_BOOL && v.elem != POSENC_GGUF_U32 && v.elem != POSENC_GGUF_I32)
        return posenc__load_fail(k->err, POSENC_ERR_FORMAT, "key '%s' has wrong array element "
                                 "type %s (llama.cpp expects bool, u32 or i32)", name,
                                 posenc_gguf_type_name(v.elem));
    if (v.n > max)
        return posenc__load_fail(k->err, POSENC_ERR_FORMAT, "key '%s': array of %llu elements, "
                                 "llama.cpp takes at most %u", name, (unsigned long long)v.n, max);
    *is_array = 1;
    *n = v.n;
    for (uint64_t j = 0; j < v.n; j++)
        out[j] = int_elem(&v, j);
    return POSENC_OK;
}

/* ---- the loader ----------------------------------------------------------------- */

/* rope.scaling.type, rope.scaling.factor, freq_base, yarn keys
 * (llama-model.cpp:1405-1432 and the arch's load_arch_hparams). */
static posenc_status read_scaling(const keys *k, const gguf_arch *a, posenc_gguf_hparams *hp)
{
    posenc_status s;
    char name[160];
    posenc_gguf_value v;
    /* rope.scaling.type: a string, default "linear" (llama-model.cpp:1417-1420) */
    hp->scaling = POSENC_GGUF_SCALING_LINEAR;
    if (lookup(k, "rope.scaling.type", 1, name, sizeof name, &v)) {
        if (v.type != POSENC_GGUF_STRING)
            return wrong_type(k, name, &v, POSENC_GGUF_STRING);
        unsigned t = 0;
        while (t < 4 && strcmp(v.str, SCALING_NAMES[t]))
            t++;
        if (t == 4 || strlen(v.str) != v.len)
            return posenc__load_fail(k->err, POSENC_ERR_FORMAT, "key '%s': '%.40s' is not a "
                                     "scaling type of llama.cpp (none, linear, yarn, longrope)",
                                     name, v.str);
        hp->scaling = (posenc_gguf_scaling)t;
    }
    /* n_ctx_orig_yarn defaults to n_ctx_train (llama-model.cpp:1410-1411) */
    hp->n_ctx_orig_yarn = hp->n_ctx_train;
    if ((s = get_u32(k, "rope.scaling.original_context_length", 0, &hp->n_ctx_orig_yarn,
                     NULL)) != POSENC_OK)
        return s;
    hp->freq_base = 10000.0f; /* llama-model.cpp:1414-1415 */
    if ((s = get_f32(k, "rope.freq_base", &hp->freq_base, NULL)) != POSENC_OK)
        return s;
    /* freq_scale = 1 / rope.scaling.factor, else 1 / rope.scale_linear, 1
     * when 0 or absent (llama-model.cpp:1423-1429) */
    float ropescale = 0.0f;
    int found;
    if ((s = get_f32(k, "rope.scaling.factor", &ropescale, &found)) != POSENC_OK)
        return s;
    if (!found && (s = get_f32(k, "rope.scale_linear", &ropescale, NULL)) != POSENC_OK)
        return s;
    hp->freq_scale = ropescale == 0.0f ? 1.0f : 1.0f / ropescale;
    hp->rope_attn_factor = 1.0f; /* llama-hparams.h:149, read at llama-model.cpp:1431 */
    if ((s = get_f32(k, "rope.scaling.attn_factor", &hp->rope_attn_factor, NULL)) != POSENC_OK)
        return s;
    /* hparams defaults (llama-hparams.h:157-162), read by some archs only */
    hp->yarn_log_mul = 0.0f;
    hp->yarn_ext_factor = -1.0f;
    hp->yarn_attn_factor = 1.0f;
    hp->yarn_beta_fast = 32.0f;
    hp->yarn_beta_slow = 1.0f;
    if ((a->flags & GA_YARN_EXT_ATTN) &&
        ((s = get_f32(k, "rope.scaling.yarn_ext_factor", &hp->yarn_ext_factor, NULL)) != POSENC_OK ||
         (s = get_f32(k, "rope.scaling.yarn_attn_factor", &hp->yarn_attn_factor, NULL)) != POSENC_OK))
        return s;
    if ((a->flags & GA_YARN_BETA) &&
        ((s = get_f32(k, "rope.scaling.yarn_beta_fast", &hp->yarn_beta_fast, NULL)) != POSENC_OK ||
         (s = get_f32(k, "rope.scaling.yarn_beta_slow", &hp->yarn_beta_slow, NULL)) != POSENC_OK))
        return s;
    if (a->flags & GA_YARN_LOG_MUL) {
        if ((s = get_f32(k, "rope.scaling.yarn_log_multiplier", &hp->yarn_log_mul, &found)) !=
            POSENC_OK)
            return s;
        if (found && (a->flags & GA_LOG_MUL_TENTHS))
            hp->yarn_log_mul /= 0.1f;
    }
    return POSENC_OK;
}

/* Head size and n_rot (llama-model.cpp:1394-1470). */
static posenc_status read_dims(const keys *k, const gguf_arch *a, posenc_gguf_hparams *hp)
{
    posenc_status s;
    int64_t heads[POSENC_GGUF_MAX_LAYERS];
    uint64_t n = 0;
    int found, is_array;
    uint32_t scalar = 0;
    /* attention.head_count: a u32, or an array of n_layer (get_key_or_arr,
     * llama-model-loader.cpp:459-497); layer 0's is the graph's n_head */
    if ((s = get_int_array(k, "attention.head_count", POSENC_GGUF_MAX_LAYERS, heads, &n, &found,
                           &scalar, &is_array)) != POSENC_OK)
        return s;
    if (is_array && n != hp->n_layer)
        return posenc__load_fail(k->err, POSENC_ERR_FORMAT, "key '%s.attention.head_count' has "
                                 "wrong array length; expected %u, got %llu", k->arch, hp->n_layer,
                                 (unsigned long long)n);
    hp->n_head = !found ? 0 : is_array ? (uint32_t)heads[0] : scalar;
    if (hp->n_head == 0)
        return posenc__load_fail(k->err, POSENC_ERR_FORMAT, "key '%s.attention.head_count': no "
                                 "heads in layer 0, so no RoPE (llama-model.cpp:1434)", k->arch);
    hp->n_embd_head_k = hp->n_embd / hp->n_head;
    if ((s = get_u32(k, "attention.key_length", 0, &hp->n_embd_head_k, NULL)) != POSENC_OK)
        return s;
    hp->n_rot = hp->n_embd_head_k;
    if ((s = get_u32(k, "rope.dimension_count", 0, &hp->n_rot, NULL)) != POSENC_OK)
        return s;
    if ((a->flags & GA_ROT_IS_HEAD) && hp->n_rot != hp->n_embd_head_k)
        return posenc__load_fail(k->err, POSENC_ERR_FORMAT, "key '%s.rope.dimension_count': "
                                 "invalid n_rot: %u, expected %u (llama-model.cpp:1450-1453)",
                                 k->arch, hp->n_rot, hp->n_embd_head_k);
    hp->n_rot_swa = hp->n_rot;
    if ((s = get_u32(k, "rope.dimension_count_swa", 0, &hp->n_rot_swa, NULL)) != POSENC_OK)
        return s;
    /* ggml_rope_ext rotates pairs inside the head */
    for (int w = 0; w < 2; w++) {
        uint32_t r = w ? hp->n_rot_swa : hp->n_rot;
        if (r == 0 || r % 2 || r > hp->n_embd_head_k || r > POSENC_MAX_DIM)
            return posenc__load_fail(k->err, POSENC_ERR_FORMAT, "key '%s.rope.dimension_count%s': "
                                     "%u rotated dimensions; RoPE needs an even number in 2 .. "
                                     "the head size %u", k->arch, w ? "_swa" : "", r,
                                     hp->n_embd_head_k);
    }
    return POSENC_OK;
}

/* M-RoPE sections (get_key_or_arr of 4: llama-model-loader.cpp:459-497). */
static posenc_status read_sections(const keys *k, posenc_gguf_hparams *hp)
{
    int64_t sec[4] = {0, 0, 0, 0};
    uint64_t n = 0;
    int found, is_array;
    uint32_t scalar = 0;
    posenc_status s = get_int_array(k, "rope.dimension_sections", 4, sec, &n, &found, &scalar,
                                    &is_array);
    if (s != POSENC_OK)
        return s;
    if (is_array && n != 4)
        return posenc__load_fail(k->err, POSENC_ERR_FORMAT, "key '%s.rope.dimension_sections' has "
                                 "wrong array length; expected 4, got %llu", k->arch,
                                 (unsigned long long)n);
    for (int j = 0; j < 4; j++)
        hp->sections[j] = !found ? 0 : is_array ? (int32_t)sec[j] : (int32_t)scalar;
    return POSENC_OK;
}

/* The arch's sliding-window layers (the rule's load_arch_hparams, and
 * load_swa_pattern: llama-model.cpp:3434-3441). */
static posenc_status read_swa(const keys *k, const gguf_arch *a, posenc_gguf_hparams *hp)
{
    const swa_rule *rule = a->swa;
    hp->freq_base_swa = 10000.0f; /* llama-hparams.h:151-153 */
    hp->freq_scale_swa = 1.0f;
    hp->swa = 0;
    memset(hp->is_swa, 0, sizeof hp->is_swa);
    if (!rule || rule->when == WHEN_NEVER)
        return POSENC_OK;
    uint32_t window = 0;
    int found;
    posenc_status s = get_u32(k, "attention.sliding_window", rule->when == WHEN_WINDOW_REQUIRED,
                              &window, &found);
    if (s != POSENC_OK)
        return s;
    if ((rule->when == WHEN_WINDOW && !(found && window > 0)) ||
        (rule->when == WHEN_WINDOW_NOT_ZERO && found && window == 0))
        return POSENC_OK;
    hp->swa = 1;
    if (rule->base_train)
        hp->freq_base_swa = hp->freq_base;
    if (rule->scale_train)
        hp->freq_scale_swa = hp->freq_scale;
    if ((s = get_f32(k, "rope.freq_base_swa", &hp->freq_base_swa, NULL)) != POSENC_OK)
        return s;
    int64_t flags[POSENC_GGUF_MAX_LAYERS];
    uint64_t n = 0;
    int is_array;
    uint32_t period = rule->period;
    if ((s = get_int_array(k, "attention.sliding_window_pattern", POSENC_GGUF_MAX_LAYERS, flags,
                           &n, &found, &period, &is_array)) != POSENC_OK)
        return s;
    for (uint32_t il = 0; il < hp->n_layer; il++)
        hp->is_swa[il] = is_array ? (il < n && flags[il] != 0)
                                  : (period == 0 || il % period < period - 1);
    return POSENC_OK;
}

posenc_status posenc_gguf_llama_hparams(const posenc_gguf *g, posenc_gguf_hparams *out,
                                        posenc_load_error *err)
{
    posenc_status s = posenc__load_start(err, g && out);
    if (s != POSENC_OK)
        return s;
    posenc_gguf_hparams hp;
    memset(&hp, 0, sizeof hp);
    keys k = {g, NULL, err};
    char name[160];
    posenc_gguf_value v;
    if (!lookup(&k, "general.architecture", 0, name, sizeof name, &v))
        return missing(&k, "general.architecture");
    if (v.type != POSENC_GGUF_STRING)
        return wrong_type(&k, name, &v, POSENC_GGUF_STRING);
    if (v.len >= sizeof hp.arch || strlen(v.str) != v.len)
        return posenc__load_fail(err, POSENC_ERR_FORMAT, "key 'general.architecture': not an "
                                 "architecture name of llama.cpp");
    memcpy(hp.arch, v.str, (size_t)v.len + 1);
    gguf_arch arch;
    const gguf_arch *a = find_arch(hp.arch, &arch) ? &arch : NULL;
    if (!a)
        return posenc__load_fail(err, POSENC_ERR_RANGE, "key 'general.architecture': '%s' is not "
                                 "an architecture of llama.cpp's table (src/llama-arch.cpp)%s",
                                 hp.arch, strcmp(hp.arch, "dflash") ? ""
                                 : "; dflash's RoPE depends on its target model");
    if (a->rope == POSENC_GGUF_ROPE_NONE)
        return posenc__load_fail(err, POSENC_ERR_RANGE, "key 'general.architecture': llama.cpp "
                                 "runs '%s' without RoPE (llama-model.cpp:3025-3049)", hp.arch);
    k.arch = hp.arch;
    /* llama-model.cpp:1321-1328 */
    if ((s = get_u32(&k, "context_length", 1, &hp.n_ctx_train, NULL)) != POSENC_OK ||
        (s = get_u32(&k, "embedding_length", 1, &hp.n_embd, NULL)) != POSENC_OK ||
        (s = get_u32(&k, "block_count", 1, &hp.n_layer, NULL)) != POSENC_OK)
        return s;
    if (hp.n_layer == 0 || hp.n_layer > POSENC_GGUF_MAX_LAYERS)
        return posenc__load_fail(err, POSENC_ERR_FORMAT, "key '%s.block_count': %u layers, "
                                 "llama.cpp takes 1 .. %u", hp.arch, hp.n_layer,
                                 POSENC_GGUF_MAX_LAYERS);
    if ((s = read_dims(&k, a, &hp)) != POSENC_OK || (s = read_scaling(&k, a, &hp)) != POSENC_OK ||
        (s = read_swa(&k, a, &hp)) != POSENC_OK)
        return s;
    if ((a->rope != a->rope_mrope || a->rope == POSENC_GGUF_ROPE_MROPE ||
         a->rope == POSENC_GGUF_ROPE_IMROPE) &&
        (s = read_sections(&k, &hp)) != POSENC_OK)
        return s;
    /* llama-model.cpp:1491 and the use_mrope() cases of 3023-3212 */
    hp.rope_type = hp.sections[0] > 0 && hp.sections[1] > 0 ? a->rope_mrope : a->rope;
    hp.layers_modelled = (a->flags & GA_UNIFORM) || a->swa;
    /* The factor tensors are created with shape {n_rot / 2}, n_rot =
     * hparams.n_rot() of layer 0 (llama-graph.cpp:1468; e.g.
     * src/models/llama.cpp:62-66), and checked by check_tensor_dims
     * (llama-model-loader.cpp:880-920). */
    uint32_t n_rot0 = hp.is_swa[0] ? hp.n_rot_swa : hp.n_rot;
    for (unsigned f = 0; f < 3; f++) {
        const float *vals;
        size_t n;
        if (posenc_gguf_factors_get(g, (posenc_gguf_factors)f, &vals, &n) == POSENC_OK && vals &&
            n != n_rot0 / 2)
            return posenc__load_fail(err, POSENC_ERR_FORMAT, "tensor '%s' has wrong shape; "
                                     "expected [%u], got [%zu] (n_rot / 2)",
                                     posenc_gguf_factors_name((posenc_gguf_factors)f), n_rot0 / 2, n);
    }
    *out = hp;
    return POSENC_OK;
}

/* ---- the context and the layer --------------------------------------------------- */

/* llama-context.cpp:178-180 */
static float get_mscale(float scale, float mscale)
{
    return scale <= 1.0f ? 1.0f : (0.1f * mscale * logf(scale) + 1.0f);
}

/* What llama_context passes to every layer's ggml_rope_ext, for
 * llama_context_default_params() (llama-context.cpp:3766-3776: every RoPE
 * option "from the model"); line numbers of llama-context.cpp. */
static void context_op(const gguf_arch *a, const posenc_gguf_hparams *hp, posenc_gguf_rope_op *op)
{
    memset(op, 0, sizeof *op);
    float freq_base = hp->freq_base, freq_scale = hp->freq_scale;             /* :134-135 */
    uint32_t n_ctx_orig = hp->n_ctx_orig_yarn != 0 ? hp->n_ctx_orig_yarn : hp->n_ctx_train;
    if (hp->scaling == POSENC_GGUF_SCALING_NONE)                             /* :169-171 */
        freq_scale = 1.0f;
    float ext_factor = hp->yarn_ext_factor, attn_factor = hp->yarn_attn_factor; /* :114-115 */
    if (ext_factor < 0.0f)                                                    /* :173-175 */
        ext_factor = hp->scaling == POSENC_GGUF_SCALING_YARN ? 1.0f : 0.0f;
    if (ext_factor != 0.0f) {                                                 /* :177-212 */
        const float factor = 1.0f / freq_scale;
        if (hp->yarn_log_mul != 0.0f) {
            float mscale = 1.0f;
            const float mscale_all_dims = hp->yarn_log_mul;
            if ((a->flags & GA_MSCALE_LOG_MUL) && mscale_all_dims != 1.0f)
                mscale = mscale_all_dims;
            attn_factor = get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dims);
        } else {
            attn_factor = get_mscale(factor, 1.0f);
        }
        /* cancels ggml's own YaRN mscale (ops.cpp rope_yarn) */
        attn_factor *= 1.0f / (1.0f + 0.1f * logf(factor));
    }
    attn_factor *= hp->rope_attn_factor;                                     /* :214 */
    op->n_dims = (int)(hp->is_swa[0] ? hp->n_rot_swa : hp->n_rot); /* hparams.n_rot(): layer 0 */
    op->mode = (int)hp->rope_type;
    op->n_ctx_orig = (int)n_ctx_orig;
    op->freq_base = freq_base;
    op->freq_scale = freq_scale;
    op->ext_factor = ext_factor;
    op->attn_factor = attn_factor;
    op->beta_fast = hp->yarn_beta_fast;
    op->beta_slow = hp->yarn_beta_slow;
    memcpy(op->sections, hp->sections, sizeof op->sections);
}

posenc_status posenc_gguf_llama_layer(const posenc_gguf *g, const posenc_gguf_hparams *hp,
                                      uint32_t layer, uint64_t n_ctx, posenc_gguf_rope_op *out,
                                      posenc_load_error *err)
{
    posenc_status s = posenc__load_start(err, g && hp && out);
    if (s != POSENC_OK)
        return s;
    gguf_arch arch;
    const gguf_arch *a = find_arch(hp->arch, &arch) ? &arch : NULL;
    if (!a || hp->n_layer == 0 || hp->n_layer > POSENC_GGUF_MAX_LAYERS)
        return posenc__load_fail(err, POSENC_ERR_RANGE, "hp was not filled by "
                                 "posenc_gguf_llama_hparams");
    if (layer >= hp->n_layer)
        return posenc__load_fail(err, POSENC_ERR_RANGE, "layer %u: the model has %u", layer,
                                 hp->n_layer);
    if (!hp->layers_modelled)
        return posenc__load_fail(err, POSENC_ERR_RANGE, "llama.cpp's per-layer RoPE rules for "
                                 "'%s' are not modelled here (its graph: llama.cpp src/models/)",
                                 hp->arch);
    if (n_ctx > UINT32_MAX - 255)
        return posenc__load_fail(err, POSENC_ERR_POS, "n_ctx %llu is past llama.cpp's u32 context",
                                 (unsigned long long)n_ctx);
    posenc_gguf_rope_op op;
    context_op(a, hp, &op);
    /* the layer (llama-model.cpp:2329-2350 and the arch's graph) */
    const swa_rule *rule = a->swa;
    int swa_on = rule && hp->swa;
    op.is_swa = swa_on && hp->is_swa[layer];
    op.rotates = op.is_swa || !swa_on || rule->full_rotates;
    if (rule && rule->nope_step) {
        uint32_t step = swa_on || !rule->nope_off ? rule->nope_step
                        : rule->nope_off == NOPE_N_LAYER ? hp->n_layer
                                                         : rule->nope_off;
        if ((layer + 1) % step == 0)
            op.rotates = 0;
    }
    /* n_ctx_seq, one sequence: n_ctx rounded up to 256 (llama-context.cpp:133,
     * 289-296) */
    uint32_t ctx = n_ctx == 0 ? hp->n_ctx_train : (uint32_t)n_ctx;
    uint32_t ctx_seq = (ctx + 255u) / 256u * 256u;
    if (op.is_swa && rule->op == OP_OWN) {
        op.freq_base = hp->freq_base_swa;
        op.freq_scale = hp->freq_scale_swa;
    } else if (op.is_swa && rule->op == OP_PLAIN) {
        op.freq_scale = 1.0f;
        op.ext_factor = 0.0f;
        op.attn_factor = 1.0f;
    }
    /* get_rope_factors: rope_freqs, else long when n_ctx_seq >
     * hparams.n_ctx_orig_yarn, else short (llama-model.cpp:2337-2350) */
    if ((a->flags & GA_FACTORS) && !(op.is_swa && rule->op == OP_PLAIN)) {
        posenc_gguf_factors which = POSENC_GGUF_ROPE_FREQS;
        const float *vals = NULL;
        size_t n = 0;
        if (posenc_gguf_factors_get(g, which, &vals, &n) == POSENC_OK && !vals) {
            which = ctx_seq > hp->n_ctx_orig_yarn ? POSENC_GGUF_ROPE_FACTORS_LONG
                                                  : POSENC_GGUF_ROPE_FACTORS_SHORT;
            if (posenc_gguf_factors_get(g, which, &vals, &n) != POSENC_OK)
                vals = NULL;
        }
        if (vals) {
            op.freq_factors = vals;
            op.n_freq_factors = n;
            op.factors = which;
        }
    }
    *out = op;
    return POSENC_OK;
}

/* ---- the description ------------------------------------------------------------ */

const char *posenc_gguf_source(void)
{
    return "llama.cpp as vendored by llama-cpp-python 0.3.36: src/llama-model.cpp "
           "llama_model_rope_type (3023-3212), load_hparams (1320-1491), get_rope_freq_base/"
           "scale/factors (2329-2350); src/llama-context.cpp (105-214, 289-296); src/models/ "
           "(per-arch keys and sliding-window layers)";
}

posenc_status posenc_gguf_layer_describe(const posenc_gguf *g, const posenc_gguf_hparams *hp,
                                         uint32_t layer, uint64_t n_ctx, char *buf, size_t n,
                                         posenc_load_error *err)
{
    if (!buf)
        return POSENC_ERR_NULL;
    posenc_gguf_rope_op op;
    posenc_status s = posenc_gguf_llama_layer(g, hp, layer, n_ctx, &op, err);
    if (s != POSENC_OK)
        return s;
    char factors[64] = "none", sections[64] = "";
    if (op.freq_factors)
        snprintf(factors, sizeof factors, "%s[%zu]", posenc_gguf_factors_name(op.factors),
                 op.n_freq_factors);
    if (op.mode == POSENC_GGUF_ROPE_MROPE || op.mode == POSENC_GGUF_ROPE_IMROPE)
        snprintf(sections, sizeof sections, " sections=[%d,%d,%d,%d]", (int)op.sections[0],
                 (int)op.sections[1], (int)op.sections[2], (int)op.sections[3]);
    uint64_t ctx = n_ctx == 0 ? hp->n_ctx_train : n_ctx;
    int w = snprintf(buf, n, " arch=%s rope_type=%s n_dims=%d n_ctx_orig=%d freq_base=%.9g "
                     "freq_scale=%.9g ext_factor=%.9g attn_factor=%.9g beta_fast=%.9g "
                     "beta_slow=%.9g freq_factors=%s scaling=%s swa=%d rotates=%d "
                     "n_ctx_seq=%llu%s", hp->arch,
                     posenc_gguf_rope_type_name((posenc_gguf_rope_type)op.mode), op.n_dims,
                     op.n_ctx_orig, (double)op.freq_base, (double)op.freq_scale,
                     (double)op.ext_factor, (double)op.attn_factor, (double)op.beta_fast,
                     (double)op.beta_slow, factors, posenc_gguf_scaling_name(hp->scaling),
                     op.is_swa, op.rotates, (unsigned long long)((ctx + 255) / 256 * 256),
                     sections);
    if (w < 0 || (size_t)w >= n)
        return POSENC_ERR_OVERFLOW;
    return POSENC_OK;
}
