/* config_quirks.c - the quirk room of the config reader: every rule that
 * only one family's code has, as named hooks (config_quirks.h says where
 * the reader calls each), with the file and lines of that code. The rules
 * most families share are data in their entries (config_families.h); a
 * family named in code anywhere else in the reader is a bug. Sorted by
 * family. */
#include "config_quirks.h"

#include <ctype.h>

/* ---- baichuan ---------------------------------------------------------------------- */

/* Baichuan: RoPE for hidden_size 4096 or class BaiChuan* (the 7B models),
 * ALiBi otherwise (13B), as vLLM dispatches: *rope. A hidden_size that is not
 * a count is refused, not taken for "not 4096". */
static posenc_status baichuan_rope(mread *r, const json_t *root, int *rope)
{
    const json_t *a = get(root, "architectures");
    *rope = 1;
    for (size_t i = 0; a && json_typeof(a) == JSON_ARRAY && i < json_array_size(a); i++) {
        const json_t *e = json_array_get(a, i);
        if (json_typeof(e) == JSON_STRING && strncmp(json_string_value(e), "BaiChuan", 8) == 0)
            return POSENC_OK;
    }
    int64_t hidden = 0;
    int present;
    posenc_status st = count(r, "hidden_size", &hidden, &present);
    *rope = hidden == 4096;
    return st;
}

/* jrd77/Baichuan2-13B-Chat modeling_baichuan.py @a56c793e (_get_interleave:
 * ALiBi); vllm baichuan.py (the RoPE-or-ALiBi dispatch). */
static posenc_status baichuan_scheme(mread *r, int64_t n_layer, int *done)
{
    int rope;
    posenc_status st = baichuan_rope(r, r->root, &rope);
    if (st != POSENC_OK || rope)
        return st;
    *done = 1;
    return read_alibi(r, n_layer);
}

const posenc_family_quirks quirk_baichuan = {
    .name = "quirk_baichuan", .scheme = baichuan_scheme, .may_choose_alibi = 1};

/* ---- bamba -------------------------------------------------------------------------- */

/* Without attn_layer_indices every layer is mamba: layers_block_type is
 * "full_attention" if i in attn_layer_indices else "linear_attention"
 * (models/bamba/configuration_bamba.py L66, L96-101, transformers 5.23.0). */
static void bamba_unlisted(int64_t n_layer, uint8_t *kind) { memset(kind, 1, (size_t)n_layer); }

const posenc_family_quirks quirk_bamba = {.name = "quirk_bamba", .kinds_unlisted = bamba_unlisted};

/* ---- chatglm ------------------------------------------------------------------------ */

/* ChatGLM's model_type also names ChatGLM-6B (GLM's 2D positions) and
 * ChatGLM2-6B-32k (rope_ratio divides positions): refused by their keys. */
static posenc_status chatglm_keys(mread *r, int64_t n_layer, int *done)
{
    (void)n_layer;
    (void)done;
    char name[96];
    const json_t *p2 = get(r->cfg, "position_encoding_2d");
    if (p2 && json_typeof(p2) != JSON_FALSE)
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "position_encoding_2d", name, sizeof name),
                    "%s: ChatGLM-6B's 2D position encoding is not implemented", name);
    if (!json_object_get(r->cfg, "kv_channels") && json_object_get(r->cfg, "max_sequence_length"))
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "max_sequence_length", name, sizeof name),
                    "%s without kv_channels: a ChatGLM-6B (first release) config, whose 2D "
                    "position encoding is not implemented",
                    name);
    const json_t *np = get(r->cfg, "_name_or_path");
    if (get(r->cfg, "rope_ratio") && np && json_typeof(np) == JSON_STRING &&
        strstr(json_string_value(np), "chatglm2"))
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "rope_ratio", name, sizeof name),
                    "%s in a ChatGLM2 config: its code divides positions by it, ChatGLM3's "
                    "multiplies the base; posenc does not guess which",
                    name);
    return POSENC_OK;
}

/* The base times rope_ratio (default 1): RotaryEmbedding's base = 10000 *
 * rope_ratio (czk1997/chatglm3-copy modeling_chatglm.py @00f2a120
 * L122-159; GLM-4 code the same). */
static posenc_status chatglm_rope_ratio(mread *r, rope_common *cm)
{
    char name[96];
    double ratio = 1.0;
    int have;
    posenc_status st = num(r, "rope_ratio", &ratio, &have);
    if (st != POSENC_OK)
        return st;
    if (!(ratio > 0))
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "rope_ratio", name, sizeof name),
                    "%s must be finite and > 0, got %g", name, ratio);
    cm->base *= ratio;
    return POSENC_OK;
}

const posenc_family_quirks quirk_chatglm = {
    .name = "quirk_chatglm", .scheme = chatglm_keys, .base_read = chatglm_rope_ratio};

/* ---- cohere2_moe -------------------------------------------------------------------- */

/* Cohere2 MoE: "self.force_rope = config.mlp_layer_types[layer_idx] ==
 * 'dense' and config.prefix_dense_sliding_window_pattern == 1"; RoPE "if
 * self.sliding_window is not None or self.force_rope". Marks the forced full
 * layers kind 2. */
static posenc_status dense_forced(mread *r, int64_t n_layer, uint8_t *kind)
{
    char name[96];
    const json_t *sw = json_object_get(r->cfg, "sliding_window");
    if (sw && json_typeof(sw) == JSON_NULL)
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "sliding_window", name, sizeof name),
                    "%s is null: family %s then rotates only its dense layers, a rule posenc "
                    "does not implement",
                    name, r->fam->model_type);
    int64_t pattern = 1, k = 0;
    int present;
    posenc_status st = count(r, "prefix_dense_sliding_window_pattern", &pattern, &present);
    if (st != POSENC_OK || pattern != 1)
        return st;
    const json_t *mlp = get(r->cfg, "mlp_layer_types");
    if (!mlp) {
        if ((st = count(r, "first_k_dense_replace", &k, &present)) != POSENC_OK)
            return st;
        if (k > 0 && !get(r->cfg, "layer_types"))
            return FAIL(r, POSENC_ERR_FORMAT, kn(r, "layer_types", name, sizeof name),
                        "missing key %s: family %s numbers the sliding pattern after its "
                        "first_k_dense_replace dense layers",
                        name, r->fam->model_type);
    }
    kn(r, "mlp_layer_types", name, sizeof name);
    if (mlp && (json_typeof(mlp) != JSON_ARRAY || (int64_t)json_array_size(mlp) != n_layer))
        return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be an array of one string per layer",
                    name);
    for (int64_t i = 0; i < n_layer; i++) {
        const char *e = mlp ? json_string_value(json_array_get(mlp, (size_t)i)) : NULL;
        int dense = mlp ? e && strcmp(e, "dense") == 0 : i < k;
        if (dense && kind[i] == 0)
            kind[i] = 2;
    }
    return POSENC_OK;
}

/* (models/cohere2_moe/modeling_cohere2_moe.py L279-300, L318-319,
 * transformers 5.23.0) */
const posenc_family_quirks quirk_cohere2_moe = {.name = "quirk_cohere2_moe",
                                                .by_type = dense_forced};

/* ---- falcon ------------------------------------------------------------------------- */

/* modeling_falcon.py @e2412028 L194: slopes cast to bfloat16; L896-903 (the
 * SDPA path): alibi / sqrt(hidden_size // num_heads). */
static posenc_status falcon_alibi(mread *r, posenc_model_group *g, int64_t heads,
                                  const char *hk)
{
    uint32_t dim = 0;
    posenc_status st = embed_dim(r, &dim);
    if (st != POSENC_OK)
        return st;
    if (dim / heads < 1) {
        char name[96];
        return FAIL(r, POSENC_ERR_DIM, kn(r, hk, name, sizeof name),
                    "%s %lld exceeds the hidden size %u", name, (long long)heads, dim);
    }
    g->alibi_slopes_bf16 = 1;
    g->alibi_slope_scale = 1.0 / sqrt((double)(dim / heads));
    note_ignored(r, "max_position_embeddings");
    return POSENC_OK;
}

const posenc_family_quirks quirk_falcon = {.name = "quirk_falcon", .alibi = falcon_alibi};

/* ---- granitemoehybrid --------------------------------------------------------------- */

/* "self.rotary_emb = ... if config.position_embedding_type == 'rope' else
 * None" (models/granitemoehybrid/modeling_granitemoehybrid.py L124, L167,
 * L1056, transformers 5.23.0): null or "nope" is NoPE attention. */
static posenc_status granite_rope_key(mread *r, int *rope_on, const char **off_why)
{
    char name[96];
    (void)off_why;
    const json_t *pe = get(r->cfg, "position_embedding_type");
    kn(r, "position_embedding_type", name, sizeof name);
    if (pe && json_typeof(pe) != JSON_STRING)
        return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be a string or null, got %s", name,
                    posenc__cfg_type_word(pe));
    *rope_on = pe && strcmp(json_string_value(pe), "rope") == 0;
    if (pe && !*rope_on && strcmp(json_string_value(pe), "nope") != 0)
        return FAIL(r, POSENC_ERR_FORMAT, name, "%s '%.40s' is neither rope nor nope", name,
                    json_string_value(pe));
    return POSENC_OK;
}

const posenc_family_quirks quirk_granitemoehybrid = {.name = "quirk_granitemoehybrid",
                                                     .kinds_rope = granite_rope_key};

/* ---- lfm2, lfm3 --------------------------------------------------------------------- */

/* Without full_attn_idxs every layer is attention (models/lfm2/
 * configuration_lfm2.py L78-88, transformers 5.23.0). */
static void lfm2_unlisted(int64_t n_layer, uint8_t *kind) { memset(kind, 0, (size_t)n_layer); }

const posenc_family_quirks quirk_lfm2 = {.name = "quirk_lfm2", .kinds_unlisted = lfm2_unlisted};

/* layer_types may name "conv" layers: short convolutions, no attention, no
 * rotary (models/lfm3/modeling_lfm3.py L65-135, L409-440, transformers
 * 5.23.0). */
static int lfm3_layer_type(const char *name) { return strcmp(name, "conv") == 0 ? 3 : -1; }

const posenc_family_quirks quirk_lfm3 = {.name = "quirk_lfm3", .layer_type = lfm3_layer_type};

/* ---- molmo2_text -------------------------------------------------------------------- */

/* Molmo 2: the layers outside rope_scaling_layers take the same theta without
 * the scaling (Molmo2RotaryEmbedding(config, scaled=False), "scaled" if
 * layer_idx in config.rope_scaling_layers else "unscaled";
 * models/molmo2/modeling_molmo2.py L98-118, L659-663; all layers when absent,
 * configuration_molmo2.py L156-158; transformers 5.23.0). Read when every
 * layer is listed or the block is the default RoPE (the two tables then
 * agree); a scaled block on some layers only is refused by name. */
static posenc_status molmo2_scaled_layers(mread *r, int64_t n_layer, int *done)
{
    (void)done;
    char name[96];
    const json_t *l = get(r->cfg, "rope_scaling_layers");
    if (!l)
        return POSENC_OK;
    kn(r, "rope_scaling_layers", name, sizeof name);
    if (!json_is_array(l))
        return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be a list of layer indices, got %s",
                    name, posenc__cfg_type_word(l));
    int64_t listed = 0;
    for (size_t i = 0; i < json_array_size(l); i++) {
        const json_t *v = json_array_get(l, i);
        if (!json_is_integer(v))
            return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be a list of layer indices", name);
        json_int_t k = json_integer_value(v);
        int dup = 0;
        for (size_t j = 0; j < i; j++)
            dup |= json_integer_value(json_array_get(l, j)) == k;
        listed += !dup && k >= 0 && k < n_layer;
    }
    if (listed == n_layer)
        return POSENC_OK;
    static const char *const blocks[] = {"rope_parameters", "rope_scaling"};
    for (int b = 0; b < 2; b++) {
        const json_t *blk = get(r->cfg, blocks[b]);
        const json_t *t = blk && json_is_object(blk) ? get(blk, "rope_type") : NULL;
        if (blk && json_is_object(blk) && !t)
            t = get(blk, "type");
        if (t && !(json_is_string(t) && strcmp(json_string_value(t), "default") == 0))
            return FAIL(r, POSENC_ERR_FORMAT, name,
                        "%s lists %lld of the %lld layers: Molmo 2 scales the RoPE on those "
                        "only (the others keep the base without the scaling), which posenc "
                        "does not read",
                        name, (long long)listed, (long long)n_layer);
    }
    return POSENC_OK;
}

const posenc_family_quirks quirk_molmo2_text = {.name = "quirk_molmo2_text",
                                                .scheme = molmo2_scaled_layers};

/* ---- mpt ---------------------------------------------------------------------------- */

/* MptConfig's learned_pos_emb is read by no HF code: ALiBi only
 * (models/mpt/modeling_mpt.py @e2412028 L42-62, L327). */
static posenc_status mpt_alibi(mread *r, posenc_model_group *g, int64_t heads, const char *hk)
{
    (void)g;
    (void)heads;
    (void)hk;
    note_ignored(r, "learned_pos_emb");
    return POSENC_OK;
}

const posenc_family_quirks quirk_mpt = {.name = "quirk_mpt", .alibi = mpt_alibi};

/* ---- olmo_hybrid -------------------------------------------------------------------- */

/* "ensure at least one full attention layer": a period that places none
 * makes the last layer full (models/olmo_hybrid/configuration_olmo_hybrid.py
 * L121-130, transformers 5.23.0). */
static void olmo_hybrid_by_period(int64_t n_layer, uint8_t *kind, int placed)
{
    if (!placed)
        kind[n_layer - 1] = 0;
}

const posenc_family_quirks quirk_olmo_hybrid = {.name = "quirk_olmo_hybrid",
                                                .kinds_by_period = olmo_hybrid_by_period};

/* ---- phi3small ---------------------------------------------------------------------- */

/* The base is rope_embedding_base only (default 1e6): rope_theta and
 * rotary_emb_base beside it are not read (modeling_phi3_small.py, stored
 * file 7428361816, RotaryEmbedding.from_config). */
static posenc_status phi3small_base(mread *r, rope_common *cm, int *have)
{
    note_ignored(r, "rope_theta");
    note_ignored(r, "rotary_emb_base");
    posenc_status st = num(r, cm->base_name, &cm->base, have);
    *have = 1; /* absent: the config class's default */
    return st;
}

/* positions times rope_position_scale before the angles (RotaryEmbedding:
 * t = arange(seq_len) * position_scale): only 1 is the plain RoPE posenc
 * computes. */
static posenc_status phi3small_position_scale(mread *r, rope_common *cm)
{
    char name[96];
    double scale = 1.0;
    int have;
    (void)cm;
    posenc_status st = num(r, "rope_position_scale", &scale, &have);
    if (st != POSENC_OK)
        return st;
    if (scale != 1.0)
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "rope_position_scale", name, sizeof name),
                    "%s %g: family %s multiplies every position by it before the angles; "
                    "only 1 is implemented",
                    name, scale, r->fam->model_type);
    return POSENC_OK;
}

const posenc_family_quirks quirk_phi3small = {
    .name = "quirk_phi3small", .own_base = phi3small_base, .base_read = phi3small_position_scale};

/* ---- phimoe ------------------------------------------------------------------------- */

/* Phi-3.5-MoE: short_mscale and long_mscale (equal) become the attention
 * factor. */
static posenc_status prep_mscale_pair(mread *r, const json_t *blk, const char *name, json_t **own)
{
    char key[128];
    /* PhimoeRotaryEmbedding: cos and sin times long_mscale past the
     * original length, else short_mscale, instead of the attention factor */
    const json_t *sm = json_object_get(blk, "short_mscale"),
                 *lm = json_object_get(blk, "long_mscale");
    if (sm || lm) {
        snprintf(key, sizeof key, "%s.%s", name, sm ? "short_mscale" : "long_mscale");
        if (!is_number(sm) || !is_number(lm) ||
            json_number_value(sm) != json_number_value(lm))
            return FAIL(r, POSENC_ERR_FORMAT, key,
                        "%s: short_mscale and long_mscale must both be numbers and equal: "
                        "a factor that switches with the length is not implemented",
                        key);
        if (get(blk, "attention_factor"))
            return FAIL(r, POSENC_ERR_FORMAT, key,
                        "%s and attention_factor both set the factor on cos and sin", key);
        if ((!*own && !(*own = json_deep_copy(blk))) ||
            json_object_set_new(*own, "attention_factor", json_real(json_number_value(sm))) !=
                0)
            return block_copy_failed(r, own);
        json_object_del(*own, "short_mscale");
        json_object_del(*own, "long_mscale");
    }
    return POSENC_OK;
}

/* (models/phimoe/modular_phimoe.py, PhimoeRotaryEmbedding) */
const posenc_family_quirks quirk_phimoe = {.name = "quirk_phimoe", .rope_block = prep_mscale_pair};

/* ---- qwen --------------------------------------------------------------------------- */

/* Qwen 1: use_logn_attn (queries scaled by log(pos + 1) / log(seq_length)
 * past seq_length) and use_dynamic_ntk (its own NTK alpha) on every layer. */
static posenc_status qwen_logn_ntk(mread *r)
{
    char name[96];
    int logn = 0, ntk = 0, p1, p2, ps;
    posenc_status st;
    if ((st = posenc__cfg_bool(&r->rd, r->cfg, "use_logn_attn",
                               kn(r, "use_logn_attn", name, sizeof name), &logn, &p1)) !=
            POSENC_OK ||
        (st = posenc__cfg_bool(&r->rd, r->cfg, "use_dynamic_ntk",
                               kn(r, "use_dynamic_ntk", name, sizeof name), &ntk, &p2)) !=
            POSENC_OK)
        return st;
    int64_t S = 0;
    if ((st = count(r, "seq_length", &S, &ps)) != POSENC_OK)
        return st;
    double expansion = 1.0;
    int pe;
    if ((st = num(r, "seq_length_expansion", &expansion, &pe)) != POSENC_OK)
        return st;
    if (expansion != 1.0)
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "seq_length_expansion", name, sizeof name),
                    "%s (positions divided by it in later Qwen releases) is not implemented",
                    name);
    /* QWenConfig's defaults for these two were not verified: required */
    if (!p1 || !p2)
        return FAIL(r, POSENC_ERR_FORMAT,
                    kn(r, !p1 ? "use_logn_attn" : "use_dynamic_ntk", name, sizeof name),
                    "missing key %s (family qwen: no default posenc can vouch for)", name);
    if ((logn || ntk) && (!ps || S < 2))
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "seq_length", name, sizeof name),
                    "%s (at least 2) is needed: use_logn_attn and use_dynamic_ntk scale against "
                    "it",
                    name);
    for (uint32_t i = 0; i < r->m->n_group; i++) {
        posenc_model_group *g = &r->m->group[i];
        if (logn) {
            g->qscale.type = POSENC_QUERY_SCALE_LOGN;
            g->qscale.seq_length = (double)S;
        }
        if (ntk) {
            if (g->rope.scaling.type != POSENC_ROPE_DEFAULT)
                return FAIL(r, POSENC_ERR_FORMAT, kn(r, "use_dynamic_ntk", name, sizeof name),
                            "%s and a rope_scaling both change the frequencies: which applies is "
                            "ambiguous",
                            name);
            if (g->rope.rotary_dim < 4)
                return FAIL(r, POSENC_ERR_RANGE, kn(r, "use_dynamic_ntk", name, sizeof name),
                            "%s needs a rotary dimension of at least 4", name);
            g->ntk_by_length = 1;
            g->ntk_seq_length = (double)S;
        }
    }
    return POSENC_OK;
}

/* NanoChat: rotate_half is cat(x2, -x1) (the negative of llama's), so
 * q * cos + rotate_half(q) * sin turns each (x[k], x[k + D/2]) pair by
 * -theta: every RoPE group turns in the sense -1 (posenc_model_layer_rope
 * negates its inverse frequencies). transformers 5.23.0
 * models/nanochat/modeling_nanochat.py L106-129, L169-173, L221-222. */
static posenc_status nanochat_sense(mread *r)
{
    for (uint32_t i = 0; i < r->m->n_group; i++) /* every group rotates */
        r->m->group[i].sense = -1;
    return POSENC_OK;
}

const posenc_family_quirks quirk_nanochat = {.name = "quirk_nanochat",
                                             .layers_read = nanochat_sense};

/* (Qwen/Qwen-7B-Chat modeling_qwen.py @04df5dd5: RotaryEmbedding,
 * QWenAttention's logn_list, QWenModel.forward's ntk_alpha) */
const posenc_family_quirks quirk_qwen = {.name = "quirk_qwen", .layers_read = qwen_logn_ntk,
                                         .own_keys = "use_dynamic_ntk use_logn_attn"};

/* ---- recurrent_gemma ---------------------------------------------------------------- */

/* block_types is a pattern: (block_types * 100)[:num_hidden_layers]
 * (models/recurrent_gemma/configuration_recurrent_gemma.py L56-102,
 * transformers 5.23.0). */
const posenc_family_quirks quirk_recurrent_gemma = {.name = "quirk_recurrent_gemma",
                                                    .list_repeats = 100};

/* ---- whisper ------------------------------------------------------------------------ */

/* The sizes a speech encoder-decoder's config gives (Whisper, Speech2Text):
 * its stacks' layers (defaults enc, dec), max_source_positions and
 * max_target_positions (positive; *src, *tgt hold the defaults) and d_model
 * (*dm the default). */
static posenc_status speech_sizes(mread *r, int64_t enc, int64_t dec, int64_t *ne, int64_t *nd,
                                  int64_t *src, int64_t *tgt, int64_t *dm)
{
    int present;
    posenc_status st;
    if ((st = stack_layers(r, "encoder_layers", enc, ne)) != POSENC_OK ||
        (st = stack_layers(r, "decoder_layers", dec, nd)) != POSENC_OK ||
        (st = count(r, "max_source_positions", src, &present)) != POSENC_OK ||
        (st = positive(r, "max_source_positions", *src)) != POSENC_OK ||
        (st = count(r, "max_target_positions", tgt, &present)) != POSENC_OK ||
        (st = positive(r, "max_target_positions", *tgt)) != POSENC_OK)
        return st;
    return count(r, "d_model", dm, &present);
}

/* WhisperConfig (configuration_whisper.py @3f832360 L192-211): 4 + 4
 * layers, d_model 384, max_source_positions 1500, max_target_positions 448;
 * the encoder's fixed sinusoids (modeling_whisper.py @e2412028 L53-62:
 * sines then cosines of pos * 10000^(-k/(channels/2-1))), the decoder's
 * learned table (L202-210). */
static posenc_status whisper_stacks(mread *r, posenc_model_group *e, posenc_model_group *d,
                                    int64_t *ne, int64_t *nd)
{
    char name[96];
    posenc_status st;
    int64_t src = 1500, tgt = 448, dm = 384;
    if ((st = speech_sizes(r, 4, 4, ne, nd, &src, &tgt, &dm)) != POSENC_OK)
        return st;
    /* sinusoids(length, channels): channels even, channels // 2 - 1 > 0 */
    if (dm < 4 || dm % 2 || dm > POSENC_MAX_DIM)
        return FAIL(r, POSENC_ERR_DIM, kn(r, "d_model", name, sizeof name),
                    "%s %lld must be even and in 4..%u (Whisper's sinusoids)", name,
                    (long long)dm, POSENC_MAX_DIM);
    e->scheme = POSENC_SCHEME_SINUSOID;
    /* fairseq's halves and frequencies, from row 0 */
    if ((st = posenc_sinusoid_family_spec(POSENC_SINUSOID_FAIRSEQ, 0, &e->sinusoid)) != POSENC_OK)
        return st;
    e->positions = src;
    e->dim = (uint32_t)dm;
    d->scheme = POSENC_SCHEME_LEARNED;
    d->positions = tgt;
    d->dim = (uint32_t)dm;
    return POSENC_OK;
}

const posenc_family_quirks quirk_whisper = {.name = "quirk_whisper", .stacks = whisper_stacks};

/* ---- led ---------------------------------------------------------------------------- */

/* LED (Longformer encoder-decoder): LEDLearnedPositionalEmbedding in both
 * stacks, a plain nn.Embedding read at rows past..past + T - 1, no offset
 * (modeling_led.py L72-86, BART's + 2 gone), of
 * max_encoder_position_embeddings rows in the encoder (L1265, L1282-1285,
 * L1447: the input padded at its end to a multiple of attention_window,
 * L1305-1330, L1423, so token i still reads row i) and
 * max_decoder_position_embeddings in the decoder (L1527-1532, L1667).
 * LEDConfig (configuration_led.py L50-83): 12 + 12 layers, d_model 1024,
 * 16384 and 1024 rows; hidden_size and num_hidden_layers are aliases of
 * d_model and encoder_layers; it has no max_position_embeddings. */
static posenc_status led_stacks(mread *r, posenc_model_group *e, posenc_model_group *d,
                                int64_t *ne, int64_t *nd)
{
    char name[96];
    int present;
    posenc_status st;
    int64_t src = 16384, tgt = 1024, dm = 1024;
    const char *dk = alias_key(r, "hidden_size", "d_model");
    if ((st = stack_layers(r, alias_key(r, "num_hidden_layers", "encoder_layers"), 12, ne)) !=
            POSENC_OK ||
        (st = stack_layers(r, "decoder_layers", 12, nd)) != POSENC_OK ||
        (st = count(r, "max_encoder_position_embeddings", &src, &present)) != POSENC_OK ||
        (st = positive(r, "max_encoder_position_embeddings", src)) != POSENC_OK ||
        (st = count(r, "max_decoder_position_embeddings", &tgt, &present)) != POSENC_OK ||
        (st = positive(r, "max_decoder_position_embeddings", tgt)) != POSENC_OK ||
        (st = count(r, dk, &dm, &present)) != POSENC_OK)
        return st;
    if (dm < 1 || dm > POSENC_MAX_DIM)
        return FAIL(r, POSENC_ERR_DIM, kn(r, dk, name, sizeof name), "%s %lld is outside 1..%u",
                    name, (long long)dm, POSENC_MAX_DIM);
    note_ignored(r, "max_position_embeddings"); /* not a field of LEDConfig */
    e->scheme = d->scheme = POSENC_SCHEME_LEARNED;
    e->positions = src;
    d->positions = tgt;
    e->offset = d->offset = 0;
    e->dim = d->dim = (uint32_t)dm;
    return POSENC_OK;
}

const posenc_family_quirks quirk_led = {.name = "quirk_led", .stacks = led_stacks};

/* ---- trocr -------------------------------------------------------------------------- */

/* TrOCR's decoder (modeling_trocr.py L405-425): use_learned_position_embeddings
 * (default true) picks TrOCRLearnedPositionalEmbedding, BART's table of
 * max_position_embeddings + 2 rows read at past + i + 2 (L37-65), else
 * TrOCRSinusoidalPositionalEmbedding, fairseq's table (get_embedding L88-105:
 * M2M100's arithmetic, row padding_idx zeroed) read at pad_token_id + 1 +
 * past + i (L126-135); its table is regrown to padding_idx + 1 + seq_len
 * rows only, whatever the cache length (L115-119), so a cached step past
 * max_position_embeddings + padding_idx + 1 rows raises in transformers where
 * posenc gives that row of the formula. TrOCRConfig (configuration_trocr.py
 * L48-76): 12 layers, d_model 1024, 512 positions, pad_token_id 1;
 * hidden_size and num_hidden_layers are aliases of d_model and
 * decoder_layers (the entry's layers_key). */
static posenc_status trocr_scheme(mread *r, int64_t n_layer, int *done)
{
    char name[96];
    int learned = 1, present;
    int64_t positions = r->fam->default_positions, dm = r->fam->default_hidden;
    const char *dk = alias_key(r, "hidden_size", "d_model");
    posenc_status st;
    if (get(r->cfg, "num_hidden_layers")) {
        if ((st = stack_layers(r, "num_hidden_layers", 0, &n_layer)) != POSENC_OK)
            return st;
        r->m->n_layer = (uint32_t)n_layer;
    }
    if ((st = posenc__cfg_bool(&r->rd, r->cfg, "use_learned_position_embeddings",
                               kn(r, "use_learned_position_embeddings", name, sizeof name),
                               &learned, &present)) != POSENC_OK ||
        (st = count(r, "max_position_embeddings", &positions, &present)) != POSENC_OK ||
        (st = positive(r, "max_position_embeddings", positions)) != POSENC_OK ||
        (st = count(r, dk, &dm, &present)) != POSENC_OK)
        return st;
    int gi = add_group(r->m, learned ? POSENC_SCHEME_LEARNED : POSENC_SCHEME_SINUSOID, "");
    for (int64_t i = 0; i < n_layer; i++)
        r->m->layer_group[i] = (uint8_t)gi;
    posenc_model_group *g = &r->m->group[gi];
    *done = 1;
    if (!learned) /* the entry's fairseq sinusoid from pad_token_id + 1 */
        return sinusoid_table(r, g, positions, dm, dk);
    if (dm < 1 || dm > POSENC_MAX_DIM)
        return FAIL(r, POSENC_ERR_DIM, kn(r, dk, name, sizeof name), "%s %lld is outside 1..%u",
                    name, (long long)dm, POSENC_MAX_DIM);
    g->positions = positions;
    g->offset = 2;
    g->dim = (uint32_t)dm;
    return POSENC_OK;
}

const posenc_family_quirks quirk_trocr = {.name = "quirk_trocr", .scheme = trocr_scheme};

/* BERT-style config classes (MPNet, DeBERTa) map no alias of these keys: an
 * n_positions or d_model beside them is an attribute the model never reads. */
static const char *const OWN_MAXPOS[] = {"max_position_embeddings", NULL};
static const char *const OWN_HIDDEN[] = {"hidden_size", NULL};

/* ---- mpnet ------------------------------------------------------------------------- */

/* MPNet: RoBERTa's learned table with padding_idx 1 fixed (rows from 2;
 * modeling_mpnet.py L61-74, L850-858) and, in every layer, one bias of T5's
 * bidirectional buckets over the token indices (compute_position_bias,
 * L281, L312-330: num_buckets=32, max_distance=128 whatever
 * relative_attention_num_buckets says; that key only sizes the bias
 * table). MPNetConfig (configuration_mpnet.py L48-59): 12 layers, hidden
 * 768, 512 positions. */
static posenc_status mpnet_scheme(mread *r, int64_t n_layer, int *done)
{
    int64_t positions, dim;
    const char *pk, *dk;
    posenc_status st;
    /* the class's own keys only (MPNetConfig maps no alias: n_positions or
     * d_model would be attributes the model never reads) */
    if ((st = need_count(r, OWN_MAXPOS, 512, &positions, &pk)) != POSENC_OK ||
        (st = positive(r, pk, positions)) != POSENC_OK ||
        (st = need_count(r, OWN_HIDDEN, 768, &dim, &dk)) != POSENC_OK)
        return st;
    char name[96];
    if (dim < 1 || dim > POSENC_MAX_DIM)
        return FAIL(r, POSENC_ERR_DIM, kn(r, dk, name, sizeof name), "%s %lld is outside 1..%u",
                    name, (long long)dim, POSENC_MAX_DIM);
    if (positions <= 2)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, pk, name, sizeof name),
                    "%s %lld leaves no row of MPNet's table (rows from padding_idx + 1 = 2)",
                    name, (long long)positions);
    /* the table has relative_attention_num_buckets rows (L270) and is read at
     * buckets 0..31: fewer rows fail (IndexError), more are never read */
    int64_t nb = 32;
    int present;
    if ((st = count(r, "relative_attention_num_buckets", &nb, &present)) != POSENC_OK)
        return st;
    if (nb < 32)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "relative_attention_num_buckets", name, sizeof name),
                    "%s %lld is below the 32 buckets MPNet's compute_position_bias reads "
                    "(modeling_mpnet.py L312-323): its bias table would be indexed past its end",
                    name, (long long)nb);
    note_ignored(r, "relative_attention_num_buckets");
    note_ignored(r, "pad_token_id"); /* the embeddings' padding_idx is 1 whatever it says */
    int gi = add_group(r->m, POSENC_SCHEME_RELATIVE_BUCKETS, "");
    for (int64_t i = 0; i < n_layer; i++)
        r->m->layer_group[i] = (uint8_t)gi;
    posenc_model_group *g = &r->m->group[gi];
    g->buckets = 32;
    g->max_distance = 128;
    g->bidirectional = 1;
    g->table_beside = 1;
    g->positions = positions;
    g->offset = 2;
    g->dim = (uint32_t)dim;
    *done = 1;
    return POSENC_OK;
}

const posenc_family_quirks quirk_mpnet = {.name = "quirk_mpnet", .scheme = mpnet_scheme};

/* ---- deberta, deberta-v2 ------------------------------------------------------------ */

/* DeBERTa (modeling_deberta.py) and DeBERTa-v2/v3 (modeling_deberta_v2.py):
 * the embeddings add a learned table at rows 0.. when position_biased_input
 * (default true; deberta L342-349, L377, L391; v2 L510-521), width
 * embedding_size (default hidden_size); with relative_attention (default
 * false) every layer's disentangled attention reads relative ids
 * build_relative_position: query - key (deberta L72-99), log-bucketed by
 * position_buckets > 0 with max_relative_positions (< 1: max_position_embeddings)
 * in v2 (v2 L71-128, L159-168, L566-573). Neither: no positions.
 * The ids are read only by the terms pos_att_type names: "c2p" and "p2c"
 * (deberta L162, L180-183, L306-330; v2 L157, L171-175, L303-338); a string is
 * lowercased, split at '|' and each part stripped (configuration_deberta.py
 * L87-88, configuration_deberta_v2.py L87-88), a list's strings compared as
 * they are. Null or absent (the classes' default None) or naming neither:
 * the relative ids are built and read by no term. position_buckets is no
 * field of the classes, but a null one fails v2's "> 0" (v2 L167, L576). */
static int deberta_pos_att_terms(const json_t *v, int *c2p, int *p2c)
{
    *c2p = *p2c = 0;
    if (!v || json_is_null(v))
        return 0;
    if (json_is_string(v)) {
        const char *t = json_string_value(v);
        size_t n = strlen(t), a = 0;
        while (a <= n) {
            size_t b = a;
            while (b < n && t[b] != '|')
                b++;
            size_t i = a, j = b;
            while (i < j && isspace((unsigned char)t[i]))
                i++;
            while (j > i && isspace((unsigned char)t[j - 1]))
                j--;
            if (j - i == 3 && tolower((unsigned char)t[i + 1]) == '2') {
                int x = tolower((unsigned char)t[i]), y = tolower((unsigned char)t[i + 2]);
                *c2p |= x == 'c' && y == 'p';
                *p2c |= x == 'p' && y == 'c';
            }
            a = b + 1;
        }
        return 0;
    }
    if (!json_is_array(v))
        return -1;
    for (size_t i = 0; i < json_array_size(v); i++) {
        const json_t *e = json_array_get(v, i);
        if (!json_is_string(e))
            return -1;
        *c2p |= strcmp(json_string_value(e), "c2p") == 0;
        *p2c |= strcmp(json_string_value(e), "p2c") == 0;
    }
    return 0;
}

static posenc_status deberta_read(mread *r, int64_t n_layer, int *done, int v2)
{
    char name[96];
    int rel = 0, biased = 1, present;
    int64_t positions, hidden, width, mrp = -1, pb = -1;
    const char *pk, *hk;
    posenc_status st;
    if ((st = posenc__cfg_bool(&r->rd, r->cfg, "relative_attention",
                               kn(r, "relative_attention", name, sizeof name), &rel,
                               &present)) != POSENC_OK ||
        (st = posenc__cfg_bool(&r->rd, r->cfg, "position_biased_input",
                               kn(r, "position_biased_input", name, sizeof name), &biased,
                               &present)) != POSENC_OK ||
        (st = need_count(r, OWN_MAXPOS, 512, &positions, &pk)) != POSENC_OK ||
        (st = positive(r, pk, positions)) != POSENC_OK ||
        (st = need_count(r, OWN_HIDDEN, v2 ? 1536 : 768, &hidden, &hk)) != POSENC_OK)
        return st;
    width = hidden;
    if ((st = count(r, "embedding_size", &width, &present)) != POSENC_OK)
        return st;
    if (width < 1 || width > POSENC_MAX_DIM)
        return FAIL(r, POSENC_ERR_DIM, kn(r, present ? "embedding_size" : hk, name, sizeof name),
                    "%s %lld is outside 1..%u", name, (long long)width, POSENC_MAX_DIM);
    /* max_relative_positions and position_buckets: any integer, negatives meaning
     * "not set" as in the code */
    const json_t *v = get(r->cfg, "max_relative_positions"); /* null: refuse_nulls */
    if (v && json_is_integer(v))
        mrp = json_integer_value(v);
    else if (v)
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "max_relative_positions", name, sizeof name),
                    "%s must be an integer", name);
    v = json_object_get(r->cfg, "position_buckets");
    if (v && json_is_integer(v))
        pb = json_integer_value(v);
    else if (v && (!json_is_null(v) || (v2 && rel)))
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "position_buckets", name, sizeof name),
                    "%s must be an integer%s", name,
                    json_is_null(v) ? ", got null (the relative attention compares it with 0 "
                                      "and fails)"
                                    : "");
    int c2p, p2c;
    if (deberta_pos_att_terms(get(r->cfg, "pos_att_type"), &c2p, &p2c) != 0)
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "pos_att_type", name, sizeof name),
                    "%s must be a string (\"p2c|c2p\"), a list of strings or null", name);
    /* relative_attention with neither term: the ids are built and read by none */
    int unread = rel && !c2p && !p2c;
    if (unread) {
        note_ignored(r, "relative_attention");
        rel = 0;
    }
    if (!v2 || !rel)
        note_ignored(r, "position_buckets");
    if (!rel) {
        note_ignored(r, "max_relative_positions");
        note_ignored(r, "pos_att_type");
    }
    if (mrp < 1)
        mrp = positions;
    if (!v2 || pb < 0)
        pb = 0;
    if (mrp > POSENC_MAX_POS || pb > (int64_t)POSENC_DEBERTA_MAX_BUCKETS)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "max_relative_positions", name, sizeof name),
                    "%s %lld or position_buckets %lld out of range", name, (long long)mrp,
                    (long long)pb);
    if (rel && pb > 0) {
        /* posenc_deberta_log_bucket's ranges (a zero logarithm divides by zero in
         * transformers too) */
        int64_t b;
        if (pb < 2 || mrp < 2 || mrp - 1 == pb / 2 ||
            posenc_deberta_log_bucket(pb, (uint32_t)pb, (uint32_t)mrp, &b) != POSENC_OK)
            return FAIL(r, POSENC_ERR_RANGE, kn(r, "position_buckets", name, sizeof name),
                        "%s %lld with max_relative_positions %lld: the log bucket's "
                        "logarithm ln((max - 1) / (buckets / 2)) is not defined or zero",
                        name, (long long)pb, (long long)mrp);
    }
    posenc_scheme s = rel      ? POSENC_SCHEME_RELATIVE_BUCKETS
                      : biased ? POSENC_SCHEME_LEARNED
                               : POSENC_SCHEME_NONE;
    int gi = add_group(r->m, s, "");
    for (int64_t i = 0; i < n_layer; i++)
        r->m->layer_group[i] = (uint8_t)gi;
    posenc_model_group *g = &r->m->group[gi];
    if (s == POSENC_SCHEME_NONE)
        g->reason = unread ? "DeBERTa with relative_attention but a pos_att_type naming neither "
                             "c2p nor p2c (its relative ids read by no attention term), and "
                             "without position_biased_input: no position information"
                           : "DeBERTa without relative_attention and without "
                             "position_biased_input: no position information";
    g->deberta = rel;
    g->deberta_buckets = (uint32_t)pb;
    g->deberta_max_position = (uint32_t)mrp;
    g->table_beside = rel && biased;
    if (biased) {
        g->positions = positions;
        g->offset = 0;
        g->dim = (uint32_t)width;
    }
    *done = 1;
    return POSENC_OK;
}

static posenc_status deberta_scheme(mread *r, int64_t n_layer, int *done)
{
    return deberta_read(r, n_layer, done, 0);
}

static posenc_status deberta_v2_scheme(mread *r, int64_t n_layer, int *done)
{
    return deberta_read(r, n_layer, done, 1);
}

const posenc_family_quirks quirk_deberta = {.name = "quirk_deberta", .scheme = deberta_scheme};
const posenc_family_quirks quirk_deberta_v2 = {.name = "quirk_deberta_v2",
                                               .scheme = deberta_v2_scheme};

/* ---- pegasus_x ---------------------------------------------------------------------- */

/* PegasusXSinusoidalPositionalEmbedding computes its vectors at every call in
 * the activations' dtype: arange(half).type_as(inputs_embeds), exp, the
 * product with the positions and sin / cos all in that dtype
 * (models/pegasus_x/modeling_pegasus_x.py L103-121, transformers 5.23.0),
 * not a float32 table cast at the end as the other sinusoid families do. A
 * config naming dtype (or the older torch_dtype) float16 or bfloat16 is run
 * in it by from_pretrained's default dtype "auto" (modeling_utils.py
 * L821-835, L4174-4178), and its vectors are then far from the float32 ones
 * (bfloat16 rounds the positions past 256 themselves). posenc gives the
 * float32 vectors only, so such a config is refused by name; float32 (or no
 * dtype, the weights' then) is read. */
static posenc_status pegasus_x_dtype(mread *r, int64_t n_layer, int *done)
{
    static const char *const keys[] = {"dtype", "torch_dtype"};
    char name[96];
    (void)n_layer;
    *done = 0;
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const json_t *v = get(r->cfg, keys[i]);
        if (!v)
            continue;
        kn(r, keys[i], name, sizeof name);
        if (json_typeof(v) != JSON_STRING)
            return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be a string, got %s", name,
                        posenc__cfg_type_word(v));
        const char *t = json_string_value(v);
        if (strcmp(t, "float32") != 0 && strcmp(t, "float") != 0)
            return FAIL(r, POSENC_ERR_FORMAT, name,
                        "%s %s: PEGASUS-X computes its sinusoid in the run's dtype (every step, "
                        "positions included), and transformers runs this config in %s; posenc "
                        "gives the float32 vectors only (a float32 run's)",
                        name, t, t);
        return POSENC_OK; /* dtype wins over torch_dtype (configuration_utils.py L440-442) */
    }
    return POSENC_OK;
}

const posenc_family_quirks quirk_pegasus_x = {.name = "quirk_pegasus_x", .scheme = pegasus_x_dtype};

/* ---- speech_to_text ----------------------------------------------------------------- */

/* Speech2TextConfig (configuration_speech_to_text.py L67-89): 12 encoder and
 * 6 decoder layers, d_model 256, max_source_positions 6000,
 * max_target_positions 1024, pad_token_id 1. Both stacks add M2M100's
 * fairseq sinusoid from row padding_idx + 1 (modeling_speech_to_text.py
 * L103-160, L545, L634); the encoder numbers the frames through
 * padding_mask = attention_mask.ne(1) (L572-576), whose 0s count as tokens
 * only when padding_idx is not 0. */
static posenc_status s2t_stacks(mread *r, posenc_model_group *e, posenc_model_group *d,
                                int64_t *ne, int64_t *nd)
{
    char name[96];
    int present;
    posenc_status st;
    int64_t src = 6000, tgt = 1024, dm = 256, pad = 1;
    if ((st = speech_sizes(r, 12, 6, ne, nd, &src, &tgt, &dm)) != POSENC_OK ||
        (st = count(r, "pad_token_id", &pad, &present)) != POSENC_OK)
        return st;
    if (pad == 0)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "pad_token_id", name, sizeof name),
                    "%s 0: Speech2Text's encoder then reads every frame as padding "
                    "(its padding mask is 0 at frames) and adds the zeroed row", name);
    if ((st = sinusoid_table(r, e, src, dm, "d_model")) != POSENC_OK ||
        (st = sinusoid_table(r, d, tgt, dm, "d_model")) != POSENC_OK)
        return st;
    return POSENC_OK;
}

const posenc_family_quirks quirk_speech_to_text = {.name = "quirk_speech_to_text",
                                                   .stacks = s2t_stacks};

/* ---- zamba2 ------------------------------------------------------------------------- */

/* "if self.config.use_mem_rope: ... apply_rotary_pos_emb" (the shared
 * attention, models/zamba2/modeling_zamba2.py L296-307, transformers
 * 5.23.0); use_long_context beside it announces a rescaled base
 * (configuration_zamba2.py L115-118). */
static posenc_status zamba2_mem_rope(mread *r, int *rope_on, const char **off_why)
{
    char name[96];
    int mem_rope = 0, long_ctx = 0, present;
    posenc_status st;
    if ((st = posenc__cfg_bool(&r->rd, r->cfg, "use_mem_rope",
                               kn(r, "use_mem_rope", name, sizeof name), &mem_rope, &present)) !=
            POSENC_OK ||
        (st = posenc__cfg_bool(&r->rd, r->cfg, "use_long_context",
                               kn(r, "use_long_context", name, sizeof name), &long_ctx,
                               &present)) != POSENC_OK)
        return st;
    if (mem_rope && long_ctx)
        return FAIL(r, POSENC_ERR_FORMAT, name,
                    "%s with use_mem_rope: transformers 5.23 announces a rescaled rope_theta "
                    "but keeps it (and sets max_position_embeddings 16384), where Zamba 2's "
                    "own code rescaled the base; posenc cannot vouch for either",
                    name);
    *rope_on = mem_rope;
    *off_why = "mamba layer with the shared attention block, which applies no rotary "
               "without use_mem_rope";
    return POSENC_OK;
}

/* Zamba2Config.__post_init__: attention_head_dim = 2 * hidden_size //
 * num_attention_heads, set over any key (head_dim maps to it)
 * (models/zamba2/configuration_zamba2.py L115-118, transformers 5.23.0). */
static posenc_status zamba2_head_dim(mread *r, int64_t *head_dim)
{
    posenc_status st = hidden_per_head(r, 2, head_dim);
    if (st != POSENC_OK)
        return st;
    note_ignored(r, "head_dim");
    note_ignored(r, "attention_head_dim");
    return POSENC_OK;
}

const posenc_family_quirks quirk_zamba2 = {
    .name = "quirk_zamba2", .head_dim = zamba2_head_dim, .kinds_rope = zamba2_mem_rope};

/* ---- granite_swa, granitemoe_swa, muse_glimmer_text: layer_rope_theta -------------- */

#define LAYER_THETA_0                                                                      \
    "NoPE attention layer: layer_rope_theta is 0, the model passes it no position embeddings"

/* layer_rope_theta: a number >= 0 per layer (0: NoPE), into v (n_layer
 * entries); *present 0 when the config has none. */
static posenc_status layer_theta_list(mread *r, double *v, int *present)
{
    char name[96];
    kn(r, "layer_rope_theta", name, sizeof name);
    const json_t *a = get(r->cfg, "layer_rope_theta");
    uint32_t n = r->m->n_layer;
    *present = a != NULL;
    if (!a)
        return POSENC_OK;
    if (json_typeof(a) != JSON_ARRAY)
        return FAIL(r, POSENC_ERR_FORMAT, name,
                    "%s must be a list of RoPE bases, one per layer (0: no positions), got %s",
                    name, posenc__cfg_type_word(a));
    if (json_array_size(a) != n)
        return FAIL(r, POSENC_ERR_FORMAT, name, "%s lists %zu bases for the %u layers", name,
                    json_array_size(a), n);
    for (uint32_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(a, i);
        v[i] = is_number(e) ? json_number_value(e) : -1.0;
        if (!(v[i] >= 0.0 && v[i] <= 1e300))
            return FAIL(r, POSENC_ERR_FORMAT, name,
                        "%s[%u] must be a RoPE base > 0, or 0 for a layer without positions",
                        name, i);
    }
    return POSENC_OK;
}

/* The layers of base 0 into a NONE group of their own, *g0 (-1: not yet
 * made), with the reason why. */
static void nope_group(posenc_model *m, const double *v, int *g0, const char *why)
{
    for (uint32_t i = 0; i < m->n_layer; i++)
        if (v[i] == 0.0) {
            if (*g0 < 0) {
                *g0 = add_group(m, POSENC_SCHEME_NONE, "");
                m->group[*g0].reason = why;
            }
            m->layer_group[i] = (uint8_t)*g0;
        }
}

/* granite_swa, granitemoe_swa: a rotary per distinct nonzero base, each the
 * config's RoPE block with that rope_theta, none on layers of base 0; absent,
 * rope_theta on every layer. models/granite_swa/configuration_granite_swa.py
 * L102, L114-117; modeling_granite_swa.py L167-171 (RoPE only with
 * position_embeddings), L392-398 (one rotary per sorted distinct nonzero
 * theta), L447-458 (layer i: its theta's, None for 0);
 * models/granitemoe_swa/configuration_granitemoe_swa.py L107, L119-122;
 * modeling_granitemoe_swa.py L500-504, L555-562 (transformers 5.23.0). One
 * group per distinct value, in the order the layers first use it. */
static posenc_status layer_bases(mread *r)
{
    posenc_model *m = r->m;
    double v[POSENC_MODEL_MAX_LAYERS], seen[POSENC_MODEL_MAX_GROUPS];
    int present, n_seen = 0;
    posenc_status st = layer_theta_list(r, v, &present);
    if (st != POSENC_OK || !present)
        return st;
    char name[96];
    kn(r, "layer_rope_theta", name, sizeof name);
    for (uint32_t i = 0; i < m->n_layer; i++) {
        int k = 0;
        while (k < n_seen && seen[k] != v[i])
            k++;
        if (k < n_seen)
            continue;
        if (n_seen == (int)POSENC_MODEL_MAX_GROUPS)
            return FAIL(r, POSENC_ERR_RANGE, name,
                        "%s gives more than %u distinct bases (0 counted): posenc holds %u ways "
                        "of encoding positions per model",
                        name, POSENC_MODEL_MAX_GROUPS, POSENC_MODEL_MAX_GROUPS);
        seen[n_seen++] = v[i];
    }
    /* the config's block, at each base (every other setting is the block's;
     * Llama 3's clean step was computed from rope_theta: refused by name) */
    posenc_model_group g = m->group[0];
    for (int k = 0; k < n_seen; k++)
        if (g.llama3_step && seen[k] != 0.0 && seen[k] != g.rope.base)
            return FAIL(r, POSENC_ERR_FORMAT, name,
                        "%s with a llama3 block whose low_freq_factor equals high_freq_factor: "
                        "its step was computed at rope_theta %g, not at base %g",
                        name, g.rope.base, seen[k]);
    m->n_group = 0;
    int gz = -1;
    for (int k = 0; k < n_seen; k++) {
        if (seen[k] == 0.0) {
            nope_group(m, v, &gz, LAYER_THETA_0);
            continue;
        }
        int gi = add_group(m, POSENC_SCHEME_ROPE, "");
        m->group[gi] = g;
        m->group[gi].rope.base = seen[k];
        for (uint32_t i = 0; i < m->n_layer; i++)
            if (v[i] == seen[k])
                m->layer_group[i] = (uint8_t)gi;
    }
    return POSENC_OK;
}

const posenc_family_quirks quirk_granite_swa = {.name = "quirk_granite_swa",
                                                .layers_read = layer_bases,
                                                .own_keys = "layer_rope_theta"};

/* muse_glimmer_text: one rotary (rope_parameters' rope_theta) on every layer
 * whose layer_rope_theta is not 0, none on the rest: the list's values only
 * say which (the model builds a single rotary_emb from rope_parameters);
 * absent, NoPE on every 4th layer counted back from the last. transformers
 * 5.23.0 models/muse_glimmer/configuration_muse_glimmer.py L143, L157-161;
 * modeling_muse_glimmer.py L333-336, L458, L505-512. */
static posenc_status muse_nope(mread *r)
{
    posenc_model *m = r->m;
    double v[POSENC_MODEL_MAX_LAYERS];
    int present;
    posenc_status st = layer_theta_list(r, v, &present);
    if (st != POSENC_OK)
        return st;
    int rotates = 0;
    for (uint32_t i = 0; i < m->n_layer; i++) {
        if (!present)
            v[i] = (m->n_layer - 1 - i) % 4 == 0 ? 0.0 : 1.0;
        rotates |= v[i] != 0.0;
    }
    if (!rotates)
        m->n_group = 0; /* no layer rotates: the one group is NoPE's */
    int gz = -1;
    nope_group(m, v, &gz,
               present ? LAYER_THETA_0
                       : "NoPE attention layer: every 4th layer from the last (the config "
                         "class's layer_rope_theta), the model passes it no position embeddings");
    return POSENC_OK;
}

const posenc_family_quirks quirk_muse_glimmer_text = {.name = "quirk_muse_glimmer_text",
                                                      .layers_read = muse_nope,
                                                      .own_keys = "layer_rope_theta"};
/* ---- roformer ---------------------------------------------------------------------- */

/* RoFormer (the RoPE paper's model), transformers 5.23.0
 * models/roformer/modeling_roformer.py: every layer's self-attention turns
 * q and k (and v when rotary_value, L135, L179-187) in interleaved pairs by
 * theta_k = pos * 10000^(-2k/d) (apply_rotary_position_embeddings
 * L220-245), cos and sin read from RoFormerSinusoidalPositionalEmbedding's
 * table (L49-80): max_position_embeddings rows of d = hidden_size //
 * num_attention_heads (RoFormerEncoder L394-396; the attention's head size
 * int(hidden_size / num_attention_heads), L125), base 10000 written in the
 * code (L62), filled in float64 and rounded to float (L61-67). Positions
 * are arange(past_key_values_length, + seq_len) (L75-80) looked up in that
 * nn.Embedding: one at or past max_position_embeddings raises an index
 * error. An odd d makes the table's halves ceil(d/2), floor(d/2) columns
 * (L65) and chunk/reshape_as fail (L224-228). Cross-attention turns nothing
 * (L179). The embeddings add word and token-type vectors only (L83-112).
 * The code reads no rope_theta, rope_scaling, rope_parameters or
 * partial_rotary_factor, and embedding_size only for the word embeddings
 * (L88-91, L651-652). RoFormerConfig (configuration_roformer.py L46-66):
 * 12 layers, hidden 768, 12 heads, 1536 positions, rotary_value false. */
static posenc_status roformer_scheme(mread *r, int64_t n_layer, int *done)
{
    char name[96];
    int64_t hidden, heads, positions;
    int values = 0, present;
    const char *hk, *nk, *pk;
    posenc_status st;
    /* RoFormerConfig's own names only (it maps no aliases: n_embd, n_positions
     * would be extra attributes its code never reads) */
    static const char *const hidden_key[] = {"hidden_size", NULL};
    static const char *const heads_key[] = {"num_attention_heads", NULL};
    static const char *const maxpos_key[] = {"max_position_embeddings", NULL};
    if ((st = need_count(r, hidden_key, 768, &hidden, &hk)) != POSENC_OK ||
        (st = need_count(r, heads_key, 12, &heads, &nk)) != POSENC_OK ||
        (st = positive(r, nk, heads)) != POSENC_OK ||
        (st = need_count(r, maxpos_key, 1536, &positions, &pk)) != POSENC_OK ||
        (st = positive(r, pk, positions)) != POSENC_OK ||
        (st = posenc__cfg_bool(&r->rd, r->cfg, "rotary_value",
                               kn(r, "rotary_value", name, sizeof name), &values, &present)) !=
            POSENC_OK)
        return st;
    int64_t d = hidden / heads;
    if (d < 2 || d % 2 || d > POSENC_ROPE_MAX_HEAD_DIM)
        return FAIL(r, POSENC_ERR_DIM, kn(r, hk, name, sizeof name),
                    "%s %lld // num_attention_heads %lld gives head size %lld: RoFormer's "
                    "rotation needs an even head size from 2 to %u (an odd one fails in its "
                    "apply_rotary_position_embeddings)",
                    name, (long long)hidden, (long long)heads, (long long)d,
                    POSENC_ROPE_MAX_HEAD_DIM);
    static const char *const unread[] = {"rope_theta", "rotary_emb_base", "rope_scaling",
                                         "rope_parameters", "partial_rotary_factor",
                                         "embedding_size", NULL};
    for (int i = 0; unread[i]; i++)
        note_ignored(r, unread[i]);
    int gi = add_group(r->m, POSENC_SCHEME_ROPE, "");
    for (int64_t i = 0; i < n_layer; i++)
        r->m->layer_group[i] = (uint8_t)gi;
    posenc_model_group *g = &r->m->group[gi];
    posenc_rope_config *c = &g->rope;
    c->head_dim = (uint32_t)d;
    c->rotary_dim = (uint32_t)d;
    c->base = 10000.0;
    c->layout = POSENC_LAYOUT_INTERLEAVED;
    c->max_position_embeddings = positions;
    if ((st = posenc_rope_scaling_init(&c->scaling, POSENC_ROPE_DEFAULT)) != POSENC_OK ||
        (st = posenc_rope_scaling_init(&g->configured, POSENC_ROPE_DEFAULT)) != POSENC_OK)
        return st;
    g->rope_rows = positions;
    g->rotary_value = values;
    *done = 1;
    return POSENC_OK;
}

/* ---- layoutlm, markuplm, tapas, reformer: learned tables read by other ids ---------- */

/* The one LEARNED group of these families, every layer in it: a table of
 * max_position_embeddings rows (the family's default) of hidden_size width,
 * read from row 0 (a quirk may move the offset). Their code reads no
 * position_embedding_type (BERT's key): listed as ignored, never refused. */
static posenc_status ids_table(mread *r, int64_t n_layer, posenc_model_group **out)
{
    static const char *const pos_key[] = {"max_position_embeddings", NULL};
    static const char *const dim_key[] = {"hidden_size", NULL};
    char name[96];
    int64_t positions, dim;
    posenc_status st;
    if ((st = need_count(r, pos_key, r->fam->default_positions, &positions, NULL)) !=
            POSENC_OK ||
        (st = positive(r, "max_position_embeddings", positions)) != POSENC_OK ||
        (st = need_count(r, dim_key, r->fam->default_hidden, &dim, NULL)) != POSENC_OK)
        return st;
    if (dim < 1 || dim > POSENC_MAX_DIM)
        return FAIL(r, POSENC_ERR_DIM, kn(r, "hidden_size", name, sizeof name),
                    "%s %lld is outside 1..%u", name, (long long)dim, POSENC_MAX_DIM);
    note_ignored(r, "position_embedding_type");
    int gi = add_group(r->m, POSENC_SCHEME_LEARNED, "");
    for (int64_t i = 0; i < n_layer; i++)
        r->m->layer_group[i] = (uint8_t)gi;
    *out = &r->m->group[gi];
    (*out)->positions = positions;
    (*out)->dim = (uint32_t)dim;
    return POSENC_OK;
}

/* A count key in 1..max (default def), else an error naming it. */
static posenc_status count_in(mread *r, const char *key, int64_t def, int64_t max, uint32_t *out)
{
    char name[96];
    int present;
    int64_t v = def;
    posenc_status st = count(r, key, &v, &present);
    if (st != POSENC_OK)
        return st;
    if (v < 1 || v > max)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, key, name, sizeof name),
                    "%s %lld is outside 1..%lld", name, (long long)v, (long long)max);
    *out = (uint32_t)v;
    return POSENC_OK;
}

/* A list of counts, each in 1..max (out[], at most cap; *n its length), or
 * def[0..ndef) when the key is absent. */
static posenc_status count_list(mread *r, const char *key, const int64_t *def, size_t ndef,
                                int64_t max, int64_t *out, size_t cap, size_t *n)
{
    char name[96];
    kn(r, key, name, sizeof name);
    const json_t *v = json_object_get(r->cfg, key);
    if (v && json_is_null(v)) /* the config classes call tuple() or len() on it */
        return FAIL(r, POSENC_ERR_FORMAT, name, "%s is null: its family's code needs the list",
                    name);
    if (!v) {
        for (size_t i = 0; i < ndef; i++)
            out[i] = def[i];
        *n = ndef;
        return POSENC_OK;
    }
    if (!json_is_array(v) || json_array_size(v) > cap)
        return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be a list of at most %zu integers",
                    name, cap);
    for (size_t i = 0; i < json_array_size(v); i++) {
        const json_t *e = json_array_get(v, i);
        if (!json_is_integer(e) || json_integer_value(e) < 1 || json_integer_value(e) > max)
            return FAIL(r, POSENC_ERR_RANGE, name, "%s[%zu] must be an integer in 1..%lld",
                        name, i, (long long)max);
        out[i] = json_integer_value(e);
    }
    *n = json_array_size(v);
    return POSENC_OK;
}

/* LayoutLM: BERT's table at rows 0.. (position_ids = arange) plus the x, y,
 * h, w tables of max_2d_position_embeddings rows (default 1024) read by each
 * token's box: x(bbox[0]) + y(bbox[1]) + x(bbox[2]) + y(bbox[3]) +
 * h(bbox[3] - bbox[1]) + w(bbox[2] - bbox[0]). transformers 5.23.0
 * models/layoutlm/modeling_layoutlm.py L51-61 (tables), L83-84 (positions),
 * L94-103 (box rows), L106-116 (the sum); configuration_layoutlm.py L55,
 * L63. */
static posenc_status layoutlm_scheme(mread *r, int64_t n_layer, int *done)
{
    posenc_model_group *g;
    uint32_t rows;
    posenc_status st;
    if ((st = count_in(r, "max_2d_position_embeddings", 1024, POSENC_MAX_POS + 1, &rows)) !=
            POSENC_OK ||
        (st = ids_table(r, n_layer, &g)) != POSENC_OK)
        return st;
    g->ids.kind = POSENC_IDS_BOX2D;
    g->ids.box_rows = rows;
    *done = 1;
    return POSENC_OK;
}

const posenc_family_quirks quirk_roformer = {.name = "quirk_roformer", .scheme = roformer_scheme};
const posenc_family_quirks quirk_layoutlm = {.name = "quirk_layoutlm", .scheme = layoutlm_scheme};

/* MarkupLM: RoBERTa's positions (create_position_ids_from_input_ids: rows
 * from padding_idx + 1, padding_idx = pad_token_id, class default 0; the
 * table max_position_embeddings rows) plus XPathEmbeddings: per depth
 * 0..max_depth-1 a tag table of max_xpath_tag_unit_embeddings rows and a
 * subscript table of max_xpath_subs_unit_embeddings rows, each
 * xpath_unit_hidden_size wide, read by xpath_tags_seq / xpath_subs_seq
 * (tag_pad_id, subs_pad_id when not given). transformers 5.23.0
 * models/markuplm/modeling_markuplm.py L45-92 (XPathEmbeddings), L95-121
 * (tables, padding_idx), L140-154 (positions), L156-205;
 * configuration_markuplm.py L66-78. */
static posenc_status markuplm_scheme(mread *r, int64_t n_layer, int *done)
{
    char name[96];
    int present;
    int64_t pad = 0;
    uint32_t depth, tags, subs, unit;
    posenc_model_group *g;
    posenc_status st;
    const json_t *pv = json_object_get(r->cfg, "pad_token_id");
    if (pv && json_is_null(pv)) /* input_ids.ne(None): transformers fails */
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "pad_token_id", name, sizeof name),
                    "%s is null: MarkupLM numbers positions from its padding index "
                    "(create_position_ids_from_input_ids), which must be an integer",
                    name);
    if ((st = count(r, "pad_token_id", &pad, &present)) != POSENC_OK ||
        (st = count_in(r, "max_depth", 50, 4096, &depth)) != POSENC_OK ||
        (st = count_in(r, "max_xpath_tag_unit_embeddings", 256, POSENC_MAX_POS + 1, &tags)) !=
            POSENC_OK ||
        (st = count_in(r, "max_xpath_subs_unit_embeddings", 1024, POSENC_MAX_POS + 1, &subs)) !=
            POSENC_OK ||
        (st = count_in(r, "xpath_unit_hidden_size", 32, POSENC_MAX_DIM, &unit)) != POSENC_OK ||
        (st = ids_table(r, n_layer, &g)) != POSENC_OK)
        return st;
    /* the pad ids a sequence without XPaths reads must be rows of the tables */
    static const char *const pads[2] = {"tag_pad_id", "subs_pad_id"};
    const int64_t pad_def[2] = {216, 1001}, rows[2] = {tags, subs};
    for (int i = 0; i < 2; i++) {
        int64_t v = pad_def[i];
        if ((st = count(r, pads[i], &v, &present)) != POSENC_OK)
            return st;
        if (v >= rows[i])
            return FAIL(r, POSENC_ERR_RANGE, kn(r, pads[i], name, sizeof name),
                        "%s %lld is past the %lld-row %s tables (max_xpath_%s_unit_embeddings)",
                        name, (long long)v, (long long)rows[i], i ? "subscript" : "tag",
                        i ? "subs" : "tag");
    }
    if (pad + 1 >= g->positions)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "pad_token_id", name, sizeof name),
                    "%s %lld leaves no row of the %lld-row position table for tokens", name,
                    (long long)pad, (long long)g->positions);
    g->offset = pad + 1;
    g->offset_from_pad = 1;
    g->ids.kind = POSENC_IDS_XPATH;
    g->ids.xpath_depth = depth;
    g->ids.xpath_tags = tags;
    g->ids.xpath_subs = subs;
    g->ids.xpath_unit = unit;
    *done = 1;
    return POSENC_OK;
}

const posenc_family_quirks quirk_markuplm = {.name = "quirk_markuplm", .scheme = markuplm_scheme};

/* TAPAS: BERT's table (max_position_embeddings rows, class default 1024) at
 * rows 0.., or, with reset_position_index_per_cell (default true), at each
 * token's distance from its cell's first token, capped at
 * max_position_embeddings - 1; the cell is (token_type_ids[..., 1],
 * token_type_ids[..., 2]), ids below type_vocab_sizes[1] and [2] (default
 * [3, 256, 256, 2, 256, 256, 10]: one token-type table per entry).
 * transformers 5.23.0 models/tapas/modeling_tapas.py L76-84 (tables),
 * L100-121 (positions), L123-137; configuration_tapas.py L114-141. */
static posenc_status tapas_scheme(mread *r, int64_t n_layer, int *done)
{
    static const int64_t def[] = {3, 256, 256, 2, 256, 256, 10};
    int64_t sizes[64];
    size_t n;
    int reset = 1, present;
    char name[96];
    posenc_model_group *g;
    posenc_status st;
    if ((st = posenc__cfg_bool(&r->rd, r->cfg, "reset_position_index_per_cell",
                               kn(r, "reset_position_index_per_cell", name, sizeof name), &reset,
                               &present)) != POSENC_OK ||
        (st = count_list(r, "type_vocab_sizes", def, 7, (int64_t)UINT32_MAX, sizes, 64, &n)) !=
            POSENC_OK ||
        (st = ids_table(r, n_layer, &g)) != POSENC_OK)
        return st;
    if (reset && n < 3)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "type_vocab_sizes", name, sizeof name),
                    "%s has %zu entries: reset_position_index_per_cell reads the column and "
                    "row ids, entries 1 and 2",
                    name, n);
    if (reset) {
        g->ids.kind = POSENC_IDS_CELL_RESET;
        g->ids.cell_columns = (uint32_t)sizes[1];
        g->ids.cell_rows = (uint32_t)sizes[2];
    }
    *done = 1;
    return POSENC_OK;
}

const posenc_family_quirks quirk_tapas = {.name = "quirk_tapas", .scheme = tapas_scheme};

/* Reformer: num_hidden_layers = len(attn_layers) ("lsh" or "local" each,
 * default 6; configuration_reformer.py L113, L147-148), and either
 * AxialPositionEmbeddings (axial_pos_embds, default true): axial_pos_shape
 * (h, w) (default (64, 64)), axial_pos_embds_dim (d0, d1) (default (64,
 * 192)) summing to hidden_size, position p reading row p / w of the first
 * axis's table and p % w of the second's, p < h * w; or PositionEmbeddings,
 * a plain table of max_position_embeddings rows. Positions are
 * arange(seq_length) (from start_idx_pos_encodings when generating).
 * transformers 5.23.0 models/reformer/modeling_reformer.py L160-189
 * (attn_layers), L192-294 (axial), L297-308 (plain), L311-354;
 * configuration_reformer.py L108-150. */
static posenc_status reformer_scheme(mread *r, int64_t n_layer, int *done)
{
    char name[96];
    int axial = 1, present;
    posenc_model_group *g;
    posenc_status st;
    const json_t *al = json_object_get(r->cfg, "attn_layers");
    kn(r, "attn_layers", name, sizeof name);
    if (al) {
        if (!json_is_array(al) || json_array_size(al) < 1 ||
            json_array_size(al) > POSENC_MODEL_MAX_LAYERS)
            return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be a list of 1..%u layer kinds",
                        name, POSENC_MODEL_MAX_LAYERS);
        for (size_t i = 0; i < json_array_size(al); i++) {
            const char *s = json_string_value(json_array_get(al, i));
            if (!s || (strcmp(s, "lsh") != 0 && strcmp(s, "local") != 0))
                return FAIL(r, POSENC_ERR_FORMAT, name,
                            "%s[%zu] is not 'lsh' or 'local' (the only kinds Reformer's code "
                            "has)",
                            name, i);
        }
        /* __post_init__ sets num_hidden_layers = len(attn_layers), whatever it said */
        if (n_layer != (int64_t)json_array_size(al))
            note_ignored(r, "num_hidden_layers");
        n_layer = (int64_t)json_array_size(al);
    } else {
        n_layer = 6;
    }
    r->m->n_layer = (uint32_t)n_layer;
    if ((st = posenc__cfg_bool(&r->rd, r->cfg, "axial_pos_embds",
                               kn(r, "axial_pos_embds", name, sizeof name), &axial, &present)) !=
            POSENC_OK ||
        (st = ids_table(r, n_layer, &g)) != POSENC_OK)
        return st;
    int64_t hidden = g->dim;
    if (!axial) {
        note_ignored(r, "axial_pos_shape");
        note_ignored(r, "axial_pos_embds_dim");
        *done = 1;
        return POSENC_OK;
    }
    static const int64_t dshape[] = {64, 64}, ddim[] = {64, 192};
    int64_t shape[2], dim[2];
    size_t ns, nd;
    if ((st = count_list(r, "axial_pos_shape", dshape, 2, POSENC_MAX_POS + 1, shape, 2, &ns)) !=
            POSENC_OK ||
        (st = count_list(r, "axial_pos_embds_dim", ddim, 2, POSENC_MAX_DIM, dim, 2, &nd)) !=
            POSENC_OK)
        return st;
    if (ns != 2)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "axial_pos_shape", name, sizeof name),
                    "%s has %zu entries: Reformer's code reads two axes (h, w)", name, ns);
    if (nd != 2)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "axial_pos_embds_dim", name, sizeof name),
                    "%s has %zu entries: one width per axis of axial_pos_shape (2)", name, nd);
    if (dim[0] + dim[1] != hidden)
        return FAIL(r, POSENC_ERR_DIM, kn(r, "axial_pos_embds_dim", name, sizeof name),
                    "%s %lld + %lld must sum to hidden_size %lld (AxialPositionEmbeddings "
                    "raises otherwise)",
                    name, (long long)dim[0], (long long)dim[1], (long long)hidden);
    if (shape[0] * shape[1] > POSENC_MAX_POS + 1)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "axial_pos_shape", name, sizeof name),
                    "%s %lld x %lld is past %lld positions", name, (long long)shape[0],
                    (long long)shape[1], POSENC_MAX_POS + 1);
    g->positions = shape[0] * shape[1];
    g->ids.kind = POSENC_IDS_AXIAL;
    g->ids.axial_shape[0] = (uint32_t)shape[0];
    g->ids.axial_shape[1] = (uint32_t)shape[1];
    g->ids.axial_dim[0] = (uint32_t)dim[0];
    g->ids.axial_dim[1] = (uint32_t)dim[1];
    *done = 1;
    return POSENC_OK;
}

const posenc_family_quirks quirk_reformer = {.name = "quirk_reformer", .scheme = reformer_scheme};

/* ---- beam ------------------------------------------------------------------------- */

/* Beam, transformers 5.23.0 models/beam: BeamConfig (configuration_beam.py
 * L76-130) has 52 layers, hidden 5120, 48 heads, head_dim 128; without
 * layer_types every sixth layer is full_attention and so is the last
 * (L113-118: only then), the rest sliding_attention; without
 * rope_parameters {"sliding_attention": {"rope_type": "default",
 * "rope_theta": default_theta 10000}, "full_attention": None} (L124-129),
 * and convert_rope_params_to_dict keeps the config's block as given
 * (L132-134): a top-level rope_theta is never read, a flat block or
 * rope_scaling becomes rope_parameters itself and the rotary embedding's
 * rope_parameters[layer_type] lookup fails (modeling_beam.py L73-87,
 * L107). BeamModel.forward (modeling_beam.py L559-567) gives a layer type
 * whose set is None no position embeddings and the query scale
 * compute_attention_scaling(position_ids) =
 * exp(0.1 * log1p((position_ids.float() + 1) / 2048)) (L492-495; 0.1 and
 * 2048 written in the code, no config key), multiplied onto the normed
 * queries in float32 (L247, L255-256); a type with a set rotates
 * rotate_half q and k by it (L252-254, L117-127) and is not scaled.
 *
 * beam_types (by_type): each layer type present must have its key in
 * rope_parameters (the code indexes it); a full_attention set makes the full
 * layers rotate (kind 2), a null sliding_attention (NoPE sliding layers) is
 * refused; each set must give rope_theta (compute_default_rope_parameters
 * reads set["rope_theta"], L107). */
static posenc_status beam_types(mread *r, int64_t n_layer, uint8_t *kind)
{
    char name[96];
    const json_t *lt = get(r->cfg, "layer_types");
    if (!lt)
        kind[n_layer - 1] = 0; /* __post_init__: self.layer_types[-1] = "full_attention" */
    const json_t *rs = get(r->cfg, "rope_scaling");
    const json_t *rp = get(r->cfg, "rope_parameters");
    /* rp: an object or absent here (the reader refused any other value) */
    if (rs || (rp && !json_object_get(rp, "sliding_attention") &&
               !json_object_get(rp, "full_attention")))
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, rs ? "rope_scaling" : "rope_parameters", name, sizeof name),
                    "%s: family beam's code reads rope_parameters by layer type "
                    "(sliding_attention, full_attention); a single RoPE block makes its rotary "
                    "embedding's rope_parameters[layer_type] lookup fail",
                    name);
    note_ignored(r, "rope_theta"); /* the sets' rope_theta, or the class's default_theta */
    if (!rp)
        return POSENC_OK;
    int has[2] = {0, 0};
    for (int64_t i = 0; i < n_layer; i++)
        has[kind[i] == 1] = 1;
    static const char *const tname[2] = {"full_attention", "sliding_attention"};
    for (int t = 0; t < 2; t++) {
        if (!has[t])
            continue;
        snprintf(name, sizeof name, "%srope_parameters.%s", r->prefix, tname[t]);
        const json_t *set = json_object_get(rp, tname[t]);
        if (!set)
            return FAIL(r, POSENC_ERR_FORMAT, name,
                        "missing key %s: family beam looks up each layer type's set (null: no "
                        "RoPE) and has layers of that type",
                        name);
        if (json_typeof(set) == JSON_NULL) {
            if (t == 1)
                return FAIL(r, POSENC_ERR_FORMAT, name,
                            "%s is null: NoPE sliding-attention layers (scaled queries without "
                            "RoPE on a sliding window) are not implemented for family beam",
                            name);
            continue;
        }
        char tkey[128];
        snprintf(tkey, sizeof tkey, "%s.rope_theta", name);
        if (!get(set, "rope_theta"))
            return FAIL(r, POSENC_ERR_FORMAT, tkey,
                        "missing key %s: family beam reads each layer type's base from its set",
                        tkey);
        if (t == 0)
            for (int64_t i = 0; i < n_layer; i++)
                if (kind[i] == 0)
                    kind[i] = 2; /* full layers with a set rotate, unscaled */
    }
    return POSENC_OK;
}

/* beam_scale (layers_read): the NoPE layers' query scale. */
static posenc_status beam_scale(mread *r)
{
    posenc_model *m = r->m;
    for (uint32_t gi = 0; gi < m->n_group; gi++) {
        posenc_model_group *g = &m->group[gi];
        if (g->scheme != POSENC_SCHEME_NONE)
            continue;
        g->reason = "NoPE full-attention layer: rope_parameters.full_attention is null, the "
                    "model passes it no position embeddings and scales its queries";
        g->qscale.type = POSENC_QUERY_SCALE_POWER;
        g->qscale.length = 2048.0;
        g->qscale.exponent = 0.1;
    }
    return POSENC_OK;
}

const posenc_family_quirks quirk_beam = {
    .name = "quirk_beam", .by_type = beam_types, .layers_read = beam_scale, .null_sets = 1};

/* ---- sam3_lite_text_text_model ------------------------------------------------------ */

/* SAM 3 LiteText's text model, transformers 5.23.0
 * models/sam3_lite_text: Sam3LiteTextTextPositionEmbedding (modeling
 * L73-88) holds a table [1, 1, max_position_embeddings, hidden_size] and,
 * when the sequence length differs from its rows, resizes it with
 * F.interpolate(mode="bilinear") (align_corners None: false; no antialias)
 * to [seq_len, hidden_size]; the embeddings add it to the token vectors
 * (L328-338). One table for the whole model, no position ids read.
 * Sam3LiteTextTextConfig (configuration L126-134): 12 layers, hidden 512,
 * 77 positions. */
static posenc_status sam3_lite_text_scheme(mread *r, int64_t n_layer, int *done)
{
    posenc_model_group *g;
    posenc_status st = ids_table(r, n_layer, &g);
    if (st != POSENC_OK)
        return st;
    g->ids.kind = POSENC_IDS_RESAMPLED;
    *done = 1;
    return POSENC_OK;
}

const posenc_family_quirks quirk_sam3_lite_text = {.name = "quirk_sam3_lite_text",
                                                   .scheme = sam3_lite_text_scheme};

/* ---- ernie4_5_vl_moe_text ------------------------------------------------------------ */

/* ERNIE 4.5 VL's rotary module takes the default frequencies only: its
 * __init__ raises ValueError for any other rope_type ("mrope" included);
 * a block without one is default (the config's standardization). transformers
 * 5.23.0 models/ernie4_5_vl_moe/modeling_ernie4_5_vl_moe.py L63-66. */
static posenc_status ernie4_5_vl_block(mread *r, const json_t *blk, const char *name,
                                       json_t **own)
{
    (void)own;
    static const char *const tk[2] = {"rope_type", "type"};
    for (int i = 0; i < 2; i++) {
        const json_t *t = json_object_get(blk, tk[i]);
        if (!t)
            continue;
        char key[128];
        snprintf(key, sizeof key, "%s.%s", name, tk[i]);
        if (!json_is_string(t) || strcmp(json_string_value(t), "default") != 0)
            return FAIL(r, POSENC_ERR_FORMAT, key,
                        "%s %s: ERNIE 4.5 VL's rotary module takes the default type only (it "
                        "raises ValueError for any other)",
                        key, json_is_string(t) ? json_string_value(t) : posenc__cfg_type_word(t));
    }
    /* mrope_section [h, w, 0]: inv_freq[:-0] is empty and the assignment
     * to inv_freq_3d[:hw_dim] raises (L97-99) */
    const json_t *sec = json_object_get(blk, "mrope_section");
    const json_t *st = json_is_array(sec) && json_array_size(sec) == 3 ? json_array_get(sec, 2)
                                                                         : NULL;
    if (json_is_integer(st) && json_integer_value(st) == 0) {
        char key[128];
        snprintf(key, sizeof key, "%s.mrope_section", name);
        return FAIL(r, POSENC_ERR_FORMAT, key,
                    "%s: a t section of 0 fails in ERNIE 4.5 VL's code (inv_freq[:-0] is empty)",
                    key);
    }
    return POSENC_OK;
}

const posenc_family_quirks quirk_ernie4_5_vl = {.name = "quirk_ernie4_5_vl",
                                                .rope_block = ernie4_5_vl_block};

/* ---- neomme ---------------------------------------------------------------------------- */

/* NeoMME's config class completes each layer type's set key by key
 * (convert_rope_params_to_dict: setdefault of rope_type, rope_theta from a
 * top-level rope_theta else the type's default, partial_rotary_factor full
 * 0.25 / sliding 1.0). posenc reads complete sets (the ones transformers
 * saves) and the class's own defaults when there is no rope_parameters; a
 * set without its partial_rotary_factor, or a top-level rope_theta that
 * would fill the sets, is refused by name. transformers 5.23.0
 * models/neomme/configuration_neomme.py L72-73, L141-154. */
static posenc_status neomme_scheme(mread *r, int64_t n_layer, int *done)
{
    (void)n_layer;
    (void)done;
    char key[128];
    const json_t *rp = json_object_get(r->cfg, "rope_parameters");
    if (json_object_get(r->cfg, "rope_theta") && !json_is_object(rp))
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "rope_theta", key, sizeof key),
                    "%s: NeoMME's config class would give it to both layer types' sets "
                    "(convert_rope_params_to_dict); write rope_parameters per layer type "
                    "instead",
                    key);
    static const char *const types[2] = {"full_attention", "sliding_attention"};
    for (int i = 0; json_is_object(rp) && i < 2; i++) {
        const json_t *set = json_object_get(rp, types[i]);
        if (!json_is_object(set) || json_object_get(set, "partial_rotary_factor"))
            continue;
        char name[96];
        snprintf(key, sizeof key, "%s.%s.partial_rotary_factor",
                 kn(r, "rope_parameters", name, sizeof name), types[i]);
        return FAIL(r, POSENC_ERR_FORMAT, key,
                    "missing key %s: NeoMME's config class fills in its per-type default "
                    "(full_attention 0.25, sliding_attention 1.0); give it",
                    key);
    }
    return POSENC_OK;
}

const posenc_family_quirks quirk_neomme = {.name = "quirk_neomme", .scheme = neomme_scheme};

/* ---- esm -------------------------------------------------------------------------- */

/* ESM's position_embedding_type picks the scheme (transformers 5.23.0
 * models/esm/modeling_esm.py): "rotary" (ESM-2) rotates q and k in every
 * layer with EsmRotaryEmbedding, rotate_half over the whole head, base
 * rope_theta (L47-77, L105-152, L369), positions arange(seq_len) (L725-729);
 * "absolute" (ESM-1b, the config class's default) adds a learned table read
 * from padding_idx + 1, RoBERTa's rule (L205-255, L265-280). Any other value
 * (null included) takes neither branch: the model has no positions, and
 * posenc refuses it rather than guess. Without pad_token_id the absolute
 * table's padding_idx is None, and the model's own numbering fails. */
static posenc_status esm_scheme(mread *r, int64_t n_layer, int *done)
{
    char name[96];
    /* json_object_get, not get: a null here is the code's None (no positions),
     * not the class default */
    const json_t *pe = json_object_get(r->cfg, "position_embedding_type");
    kn(r, "position_embedding_type", name, sizeof name);
    const char *v = pe ? json_string_value(pe) : "absolute";
    if (!v)
        return FAIL(r, POSENC_ERR_FORMAT, name,
                    "%s %s: ESM's code adds positions only for 'absolute' or 'rotary'", name,
                    posenc__cfg_type_word(pe));
    if (strcmp(v, "rotary") == 0)
        return POSENC_OK; /* the row's RoPE */
    if (strcmp(v, "absolute") != 0)
        return FAIL(r, POSENC_ERR_FORMAT, name,
                    "%s '%.40s': ESM's code adds positions only for 'absolute' or 'rotary'",
                    name, v);
    const json_t *pad = json_object_get(r->cfg, "pad_token_id");
    if (!pad || json_typeof(pad) == JSON_NULL)
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "pad_token_id", name, sizeof name),
                    "missing key %s: ESM's absolute table is read from padding_idx + 1 "
                    "(pad_token_id, no default in EsmConfig)",
                    name);
    *done = 1;
    return read_learned(r, n_layer);
}

const posenc_family_quirks quirk_esm = {.name = "quirk_esm", .scheme = esm_scheme};
