/* config_relsin.c - the quirks of the relative-sinusoid families (XLNet,
 * Funnel Transformer): Transformer-XL's sinusoid of each distance query -
 * key, read in attention (POSENC_SCHEME_RELATIVE_SINUSOID). The hooks of
 * config_quirks.h, in a file of their own; they use config_util.c only.
 * Transformer-XL itself left transformers (5.23 has no transfo_xl model);
 * XLNet's relative_positional_encoding is its formula. */
#include "config_quirks.h"

/* The vectors' spec: posenc_sinusoid_family_spec(POSENC_SINUSOID_CTRL, 0), [sin | cos]
 * of 10000^(-2k/d) in torch's float32 steps (XLNet L940-941, L929-930; Funnel's
 * k / (d/2) rounds the same quotient, L141-149); tests/test_relsin.c checks it. */
static const posenc_sinusoid_spec CTRL_SPEC = {POSENC_SINUSOID_SIN_COS,
                                               POSENC_SINUSOID_FREQ_POWER,
                                               POSENC_SINUSOID_TORCH_F32, 10000.0, 0};

/* *out = the string at key (absent or null: def), which must be one of
 * words[] ("a|b" for the message); else an error naming key. */
static posenc_status one_of(mread *r, const char *key, const char *def, const char *const *words,
                            const char *shown, const char **out)
{
    char name[96];
    const json_t *v = get(r->cfg, key);
    *out = def;
    if (!v)
        return POSENC_OK;
    kn(r, key, name, sizeof name);
    const char *s = json_string_value(v);
    for (size_t i = 0; s && words[i]; i++)
        if (strcmp(s, words[i]) == 0) {
            *out = words[i];
            return POSENC_OK;
        }
    return FAIL(r, POSENC_ERR_FORMAT, name, "%s %s%.40s%s is not known: %s's code takes %s",
                name, s ? "'" : "", s ? s : posenc__cfg_type_word(v), s ? "'" : "",
                r->fam->arch, shown);
}

/* d_model (default def): even, 2..POSENC_MAX_DIM: the code's cat(sin, cos)
 * of d_model / 2 frequencies. hidden_size is both classes' alias of d_model
 * (attribute_map: configuration_xlnet.py L99-104, configuration_funnel.py
 * L47-50), set after the fields: it wins over d_model when both are given. */
static posenc_status even_width(mread *r, int64_t def, int64_t *d)
{
    char name[96];
    int present;
    const char *key = get(r->cfg, "hidden_size") ? "hidden_size" : "d_model";
    posenc_status st = count(r, key, d, &present);
    if (st != POSENC_OK)
        return st;
    if (!present)
        *d = def;
    kn(r, key, name, sizeof name);
    if (*d < 2 || *d > POSENC_MAX_DIM)
        return FAIL(r, POSENC_ERR_DIM, name, "%s %lld is outside 2..%u", name, (long long)*d,
                    POSENC_MAX_DIM);
    if (*d % 2)
        return FAIL(r, POSENC_ERR_DIM, name,
                    "%s %lld is odd: %s's relative sinusoid is cat(sin, cos) of d_model / 2 "
                    "frequencies, d_model - 1 or d_model + 1 wide, and its code fails there",
                    name, (long long)*d, r->fam->arch);
    return POSENC_OK;
}

/* ---- xlnet ----------------------------------------------------------------------------- */

/* XLNet (transformers 5.23.0 models/xlnet/modeling_xlnet.py): every layer's
 * relative attention reads relative_positional_encoding(qlen, klen) (L938-975):
 * inv_freq = 1 / 10000^(arange(0, d_model, 2) / d_model) (L940-941), the
 * distances klen .. -qlen + 1 ("bi") or klen .. 0 ("uni") (L943-950, L969),
 * clamped to +-clamp_len when clamp_len > 0 (L970-971), each [sin | cos]
 * (positional_embedding, L928-936); klen = qlen + the memory (L1059-1060),
 * at most mem_len tokens (cache_mem, L906-924). bi_data (L952-967) gives the
 * second half of a batch the negated distances (pretraining): refused.
 * same_length and reuse_len change the mask and the cache, not the vectors.
 * XLNetConfig (configuration_xlnet.py L107-130): d_model 1024, n_layer 24,
 * attn_type "bi", mem_len 512, clamp_len -1, bi_data false. */
static posenc_status xlnet_scheme(mread *r, int64_t n_layer, int *done)
{
    static const char *const ATTN[] = {"bi", "uni", NULL};
    char name[96];
    const char *attn;
    int bi_data = 0, present;
    int64_t d, mem_len = 512;
    posenc_status st;
    if ((st = even_width(r, 1024, &d)) != POSENC_OK ||
        (st = one_of(r, "attn_type", "bi", ATTN, "'bi' or 'uni'", &attn)) != POSENC_OK ||
        (st = posenc__cfg_bool(&r->rd, r->cfg, "bi_data", kn(r, "bi_data", name, sizeof name),
                               &bi_data, &present)) != POSENC_OK)
        return st;
    if (bi_data)
        return FAIL(r, POSENC_ERR_FORMAT, name,
                    "%s true is not implemented: XLNet then gives the second half of each "
                    "batch the negated distances (pretraining's bidirectional data, "
                    "modeling_xlnet.py L952-967)",
                    name);
    /* clamp_len: any integer (<= 0: no clamp, -1 in every checkpoint) */
    int64_t clamp = -1;
    const json_t *v = get(r->cfg, "clamp_len");
    kn(r, "clamp_len", name, sizeof name);
    if (v && !json_is_integer(v))
        return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be an integer (<= 0: no clamp)", name);
    if (v)
        clamp = json_integer_value(v);
    if (clamp > POSENC_MAX_POS || clamp < -POSENC_MAX_POS)
        return FAIL(r, POSENC_ERR_RANGE, name, "%s %lld is outside -%lld..%lld", name,
                    (long long)clamp, POSENC_MAX_POS, POSENC_MAX_POS);
    /* mem_len: null (no memory kept past the call) or a count; absent: 512 */
    v = json_object_get(r->cfg, "mem_len");
    if (v && json_is_null(v))
        mem_len = -1;
    else if ((st = count(r, "mem_len", &mem_len, &present)) != POSENC_OK)
        return st;
    note_ignored(r, "same_length");
    note_ignored(r, "reuse_len");
    note_ignored(r, "max_position_embeddings"); /* XLNetConfig's property: no limit */
    int gi = add_group(r->m, POSENC_SCHEME_RELATIVE_SINUSOID, "");
    for (int64_t i = 0; i < n_layer; i++)
        r->m->layer_group[i] = (uint8_t)gi;
    posenc_model_group *g = &r->m->group[gi];
    g->sinusoid = CTRL_SPEC;
    g->dim = (uint32_t)d;
    g->relsin_bidirectional = strcmp(attn, "bi") == 0;
    g->relsin_clamp_len = clamp;
    g->relsin_mem_len = mem_len;
    *done = 1;
    return POSENC_OK;
}

const posenc_family_quirks quirk_xlnet = {.name = "quirk_xlnet", .scheme = xlnet_scheme};

/* ---- funnel ---------------------------------------------------------------------------- */

/* A list of positive integers at key (count entries at most max), what each
 * counts for the messages. */
static posenc_status int_list(mread *r, const char *key, const char *what, uint32_t *vals,
                              size_t max, size_t *n, int *present)
{
    char name[96];
    const json_t *a = get(r->cfg, key);
    *present = a != NULL;
    *n = 0;
    if (!a)
        return POSENC_OK;
    kn(r, key, name, sizeof name);
    if (!json_is_array(a) || json_array_size(a) == 0)
        return FAIL(r, POSENC_ERR_FORMAT, name,
                    "%s must be a non-empty list of integers, one per block", name);
    if (json_array_size(a) > max)
        return FAIL(r, POSENC_ERR_RANGE, name,
                    "%s has %zu blocks: posenc holds at most %zu (one layer group each, and "
                    "one for the decoder)",
                    name, json_array_size(a), max);
    for (size_t i = 0; i < json_array_size(a); i++) {
        const json_t *e = json_array_get(a, i);
        if (!json_is_integer(e) || json_integer_value(e) < 1 ||
            json_integer_value(e) > (json_int_t)POSENC_MODEL_MAX_LAYERS)
            return FAIL(r, POSENC_ERR_FORMAT, name,
                        "%s[%zu] must be an integer from 1 to %u (%s)", name, i,
                        POSENC_MODEL_MAX_LAYERS, what);
        vals[i] = (uint32_t)json_integer_value(e);
    }
    *n = json_array_size(a);
    return POSENC_OK;
}

/* FunnelModel and its heads run the decoder; FunnelBaseModel and the heads
 * built on it (sequence classification, multiple choice: modeling_funnel.py
 * L1069, L1143) do not. 1 when every class in architectures[] is of those. */
static int encoder_only(const mread *r)
{
    static const char *const BASE[] = {"FunnelBaseModel", "FunnelForSequenceClassification",
                                       "FunnelForMultipleChoice", NULL};
    const json_t *a = r->root ? get(r->root, "architectures") : NULL;
    if (!a || !json_is_array(a) || json_array_size(a) == 0)
        return 0;
    for (size_t i = 0; i < json_array_size(a); i++) {
        const char *s = json_string_value(json_array_get(a, i));
        int base = 0;
        for (size_t k = 0; s && BASE[k]; k++)
            base |= strcmp(s, BASE[k]) == 0;
        if (!base)
            return 0;
    }
    return 1;
}

/* Funnel Transformer (transformers 5.23.0 models/funnel/modeling_funnel.py):
 * the encoder's blocks (block_sizes[b] layers, each run block_repeats[b]
 * times, L525-585), then num_decoder_layers layers of block 0 at the full
 * length (L610-656). Each layer's attention reads Transformer-XL's
 * sinusoid (get_position_embeds, L104-183): attention_type
 * "relative_shift" the vectors of the block's distances (relative_pos,
 * stride_pool_pos: posenc_funnel_rel_positions), "factorized" sin and cos
 * of the pooled token positions (phi, pi, psi, omega, L125-142, pooled by
 * stride_pool L254-281). The first layer of a block b >= 1 pools its
 * queries only with pool_q_only (L566-570, L302-320). FunnelConfig
 * (configuration_funnel.py L69-93): block_sizes [4, 4, 4], 2 decoder
 * layers, d_model 768, relative_shift, separate_cls, truncate_seq,
 * pool_q_only true, pooling_type mean. */
static posenc_status funnel_scheme(mread *r, int64_t n_layer, int *done)
{
    static const char *const ATT[] = {"relative_shift", "factorized", NULL};
    static const char *const POOL[] = {"mean", "max", NULL};
    char name[96];
    uint32_t sizes[POSENC_MODEL_MAX_GROUPS] = {4, 4, 4}, reps[POSENC_MODEL_MAX_GROUPS];
    size_t nb = 3, nr = 0;
    int present, sep = 1, trunc = 1, qonly = 1;
    int64_t d, ndec = 2;
    const char *att, *pool;
    posenc_status st;
    (void)n_layer; /* Funnel counts its layers from block_sizes */
    if (get(r->cfg, "num_hidden_layers"))
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "num_hidden_layers", name, sizeof name),
                    "%s cannot be set in Funnel (FunnelConfig raises): its layers are "
                    "block_sizes' sum",
                    name);
    if ((st = int_list(r, "block_sizes", "layers of a block", sizes, POSENC_MODEL_MAX_GROUPS,
                       &nb, &present)) != POSENC_OK)
        return st;
    if (!present)
        nb = 3;
    if ((st = int_list(r, "block_repeats", "runs of each layer of a block", reps,
                       POSENC_MODEL_MAX_GROUPS, &nr, &present)) != POSENC_OK)
        return st;
    if (present && nr != nb)
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "block_repeats", name, sizeof name),
                    "%s has %zu entries, block_sizes %zu: FunnelConfig wants one per block",
                    name, nr, nb);
    if (!present)
        for (size_t b = 0; b < nb; b++)
            reps[b] = 1;
    if ((st = even_width(r, 768, &d)) != POSENC_OK ||
        (st = one_of(r, "attention_type", "relative_shift", ATT,
                     "'relative_shift' or 'factorized'", &att)) != POSENC_OK ||
        (st = one_of(r, "pooling_type", "mean", POOL, "'mean' or 'max'", &pool)) != POSENC_OK ||
        (st = posenc__cfg_bool(&r->rd, r->cfg, "separate_cls",
                               kn(r, "separate_cls", name, sizeof name), &sep, &present)) !=
            POSENC_OK ||
        (st = posenc__cfg_bool(&r->rd, r->cfg, "truncate_seq",
                               kn(r, "truncate_seq", name, sizeof name), &trunc, &present)) !=
            POSENC_OK ||
        (st = posenc__cfg_bool(&r->rd, r->cfg, "pool_q_only",
                               kn(r, "pool_q_only", name, sizeof name), &qonly, &present)) !=
            POSENC_OK ||
        (st = count(r, "num_decoder_layers", &ndec, &present)) != POSENC_OK)
        return st;
    note_ignored(r, "max_position_embeddings"); /* no table: FunnelEmbeddings has none */
    note_ignored(r, "rel_attn_type");           /* not read by FunnelConfig (attention_type is) */
    if (encoder_only(r)) {
        note_ignored(r, "num_decoder_layers");
        ndec = 0;
    }
    int64_t total = ndec;
    for (size_t b = 0; b < nb; b++)
        total += sizes[b];
    if (nb + (ndec > 0) > POSENC_MODEL_MAX_GROUPS || total > POSENC_MODEL_MAX_LAYERS)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "block_sizes", name, sizeof name),
                    "%s: %zu blocks and %lld decoder layers (%lld layers) are more than "
                    "posenc's model holds (%u layer groups: one per block and one for the "
                    "decoder; %u layers)",
                    name, nb, (long long)ndec, (long long)total, POSENC_MODEL_MAX_GROUPS,
                    POSENC_MODEL_MAX_LAYERS);
    r->m->n_layer = (uint32_t)total;
    uint32_t l = 0;
    for (size_t b = 0; b <= nb; b++) {
        uint32_t n = b < nb ? sizes[b] : (uint32_t)ndec;
        if (n == 0)
            continue;
        int gi = add_group(r->m, POSENC_SCHEME_RELATIVE_SINUSOID, b < nb ? "encoder" : "decoder");
        posenc_model_group *g = &r->m->group[gi];
        g->sinusoid = CTRL_SPEC;
        g->dim = (uint32_t)d;
        g->relsin_funnel = 1;
        g->relsin_bidirectional = 1;
        g->relsin_factorized = strcmp(att, "factorized") == 0;
        g->relsin_separate_cls = sep;
        g->relsin_truncate_seq = trunc;
        g->relsin_pool_q_only = qonly;
        g->relsin_pool_max = strcmp(pool, "max") == 0;
        g->relsin_block = b < nb ? (uint32_t)b : 0;
        g->relsin_n_block = (uint32_t)nb;
        g->relsin_repeats = b < nb ? reps[b] : 1;
        for (uint32_t i = 0; i < n; i++)
            r->m->layer_group[l++] = (uint8_t)gi;
    }
    *done = 1;
    return POSENC_OK;
}

const posenc_family_quirks quirk_funnel = {.name = "quirk_funnel", .scheme = funnel_scheme};
