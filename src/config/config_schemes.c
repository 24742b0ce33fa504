/* config_schemes.c - the schemes other than RoPE (ALiBi, learned and
 * sinusoid tables, T5's relative buckets, encoder-decoder stacks) and the
 * checks some families need (Baichuan's RoPE-or-ALiBi, ChatGLM's keys);
 * part of the model reader (config_read.h). */
#include "config_read.h"

/* ---- the families with their own reading ----------------------------------------- */

static void note_ignored_name(mread *r, const char *name)
{
    char *s = r->m->ignored;
    size_t n = strlen(s);
    snprintf(s + n, sizeof r->m->ignored - n, "%s%s", n ? " " : "", name);
}

/* One group for every layer. */
static posenc_model_group *one_group(mread *r, posenc_scheme s, int64_t n_layer)
{
    int gi = add_group(r->m, s, "");
    for (int64_t i = 0; i < n_layer; i++)
        r->m->layer_group[i] = (uint8_t)gi;
    return &r->m->group[gi];
}

static posenc_status embed_dim(mread *r, uint32_t *dim);

/* ALiBi on every layer: BLOOM (modeling_bloom.py L54-95), MPT
 * (modeling_mpt.py L42-62, L327: alibi_bias_max 8 whatever attn_config
 * says, attn_config.alibi never read), Falcon with alibi, Baichuan 13B. */
posenc_status read_alibi(mread *r, int64_t n_layer)
{
    int64_t heads;
    const char *hk;
    posenc_status st = need_count(r, HEADS_KEYS, r->fam->default_heads, &heads, &hk);
    if (st != POSENC_OK)
        return st;
    if (heads < 1 || heads > POSENC_MAX_DIM) {
        char name[96];
        return FAIL(r, POSENC_ERR_DIM, kn(r, hk, name, sizeof name),
                    "%s %lld is outside 1..%u", name, (long long)heads, POSENC_MAX_DIM);
    }
    posenc_model_group *g = one_group(r, POSENC_SCHEME_ALIBI, n_layer);
    g->n_head = (uint32_t)heads;
    g->alibi_bias_max = 8.0;
    g->alibi_slope_scale = 1.0;
    if (strcmp(r->fam->model_type, "falcon") == 0) {
        /* modeling_falcon.py L194: slopes cast to bfloat16; L896-903 (the
         * SDPA path): alibi / sqrt(hidden_size // num_heads) */
        uint32_t dim = 0;
        if ((st = embed_dim(r, &dim)) != POSENC_OK)
            return st;
        if (dim / heads < 1) {
            char name[96];
            return FAIL(r, POSENC_ERR_DIM, kn(r, hk, name, sizeof name),
                        "%s %lld exceeds the hidden size %u", name, (long long)heads, dim);
        }
        g->alibi_bf16 = 1;
        g->alibi_slope_scale = 1.0 / sqrt((double)(dim / heads));
        note_ignored(r, "max_position_embeddings");
    } else if (r->fam->flags & POSENC_FAMILY_ALIBI_KEY) {
        char name[96];
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "alibi", name, sizeof name),
                    "%s true in a %s config: its remote code's ALiBi was not read, posenc does "
                    "not know its slopes (model_type falcon is read as Falcon's code does)",
                    name, r->fam->model_type);
    }
    const json_t *ac = get(r->cfg, "attn_config");
    if (ac && json_typeof(ac) == JSON_OBJECT) {
        if (json_object_get(ac, "alibi_bias_max"))
            note_ignored_name(r, "attn_config.alibi_bias_max");
        if (json_object_get(ac, "alibi"))
            note_ignored_name(r, "attn_config.alibi");
    }
    if (strcmp(r->fam->model_type, "mpt") == 0)
        note_ignored(r, "learned_pos_emb");
    return POSENC_OK;
}

static const char *const POS_KEYS[] = {"max_position_embeddings", "n_positions", NULL};

/* The width of the embedding (hidden_size, n_embd, d_model, dim). */
static posenc_status embed_dim(mread *r, uint32_t *dim)
{
    int64_t v;
    const char *k;
    posenc_status st = need_count(r, HIDDEN_KEYS, r->fam->default_hidden, &v, &k);
    if (st != POSENC_OK)
        return st;
    if (v < 1 || v > POSENC_MAX_DIM) {
        char name[96];
        return FAIL(r, POSENC_ERR_DIM, kn(r, k, name, sizeof name), "%s %lld is outside 1..%u",
                    name, (long long)v, POSENC_MAX_DIM);
    }
    *dim = (uint32_t)v;
    return POSENC_OK;
}

static posenc_status positive(mread *r, const char *key, int64_t v)
{
    char name[96];
    if (v >= 1 && v <= POSENC_MAX_POS + 1)
        return POSENC_OK;
    return FAIL(r, POSENC_ERR_RANGE, kn(r, key, name, sizeof name),
                "%s %lld is outside 1..%lld", name, (long long)v, POSENC_MAX_POS + 1);
}

/* Learned absolute tables (GPT-2, OPT, BERT, RoBERTa, DistilBERT), or
 * DistilBERT's sinusoids. */
posenc_status read_learned(mread *r, int64_t n_layer)
{
    const posenc_model_family *f = r->fam;
    char name[96];
    posenc_status st;
    const json_t *pet = get(r->cfg, "position_embedding_type");
    if (pet) {
        kn(r, "position_embedding_type", name, sizeof name);
        const char *v = json_string_value(pet); /* NULL: not a string */
        if (!v || strcmp(v, "absolute") != 0)
            return FAIL(r, POSENC_ERR_FORMAT, name,
                        "%s %s%.40s%s is not implemented: relative_key and relative_key_query "
                        "were removed in transformers v5 (PR #41170), whose code posenc "
                        "follows; only absolute is",
                        name, v ? "'" : "", v ? v : posenc__cfg_type_word(pet), v ? "'" : "");
    }
    int64_t positions;
    const char *pk;
    if ((st = need_count(r, POS_KEYS, f->default_positions, &positions, &pk)) != POSENC_OK ||
        (st = positive(r, pk, positions)) != POSENC_OK)
        return st;
    uint32_t dim = 0;
    int sinus = 0, present;
    if (f->embed_key) {
        /* the table is nn.Embedding(max_position_embeddings, embedding_size) */
        int64_t w = f->embed_default;
        if ((st = count(r, f->embed_key, &w, &present)) != POSENC_OK)
            return st;
        if (w < 1 || w > POSENC_MAX_DIM)
            return FAIL(r, POSENC_ERR_DIM, kn(r, f->embed_key, name, sizeof name),
                        "%s %lld is outside 1..%u", name, (long long)w, POSENC_MAX_DIM);
        dim = (uint32_t)w;
    } else if ((st = embed_dim(r, &dim)) != POSENC_OK) {
        return st;
    }
    /* the family's key for the sinusoid fill (sin even, cos odd elements of
     * pos / 10000^(2(j//2)/dim): DistilBERT's, and XLM's and FlauBERT's
     * create_sinusoidal_embeddings); DistilBERT's key elsewhere is read by
     * nothing */
    if (f->sinus_key &&
        (st = posenc__cfg_bool(&r->rd, r->cfg, f->sinus_key,
                               kn(r, f->sinus_key, name, sizeof name), &sinus, &present)) !=
            POSENC_OK)
        return st;
    if (!f->sinus_key || strcmp(f->sinus_key, "sinusoidal_pos_embds") != 0) {
        int stray = 0; /* DistilBERT's key, read by no other family's code */
        if ((st = posenc__cfg_bool(&r->rd, r->cfg, "sinusoidal_pos_embds",
                                   kn(r, "sinusoidal_pos_embds", name, sizeof name), &stray,
                                   &present)) != POSENC_OK)
            return st;
        if (stray)
            note_ignored(r, "sinusoidal_pos_embds");
    }
    note_ignored(r, "n_ctx"); /* GPT-2's legacy key; the table is n_positions */
    posenc_model_group *g =
        one_group(r, sinus ? POSENC_SCHEME_SINUSOID : POSENC_SCHEME_LEARNED, n_layer);
    g->positions = positions;
    g->dim = dim;
    if (f->pos_offset >= 0) {
        g->offset = f->pos_offset;
    } else {
        /* RoBERTa: padding_idx + 1, padding_idx = pad_token_id (default 1) */
        int64_t pad = 1;
        if ((st = count(r, "pad_token_id", &pad, &present)) != POSENC_OK)
            return st;
        g->offset = pad + 1;
        g->offset_from_pad = 1;
        if (g->offset >= positions)
            return FAIL(r, POSENC_ERR_RANGE, kn(r, "pad_token_id", name, sizeof name),
                        "%s %lld leaves no row of the %lld-row position table for tokens",
                        name, (long long)pad, (long long)positions);
    }
    return POSENC_OK;
}

/* A stack's layer count at key (default def; 0: required). */
static posenc_status stack_layers(mread *r, const char *key, int64_t def, int64_t *out)
{
    const char *const keys[] = {key, NULL};
    posenc_status st = need_count(r, keys, def, out, NULL);
    if (st == POSENC_OK && (*out < 1 || *out > POSENC_MODEL_MAX_LAYERS)) {
        char name[96];
        return FAIL(r, POSENC_ERR_RANGE, kn(r, key, name, sizeof name),
                    "%s %lld is outside 1..%u", name, (long long)*out, POSENC_MODEL_MAX_LAYERS);
    }
    return st;
}

/* T5's bucket keys: relative_attention_num_buckets (default 32) and
 * relative_attention_max_distance (128). */
static posenc_status t5_buckets(mread *r, int64_t *nb, int64_t *md)
{
    char name[96];
    int present;
    posenc_status st;
    *nb = 32;
    *md = 128;
    if ((st = count(r, "relative_attention_num_buckets", nb, &present)) != POSENC_OK ||
        (st = count(r, "relative_attention_max_distance", md, &present)) != POSENC_OK)
        return st;
    /* the bucket formula needs (num_buckets // 2) // 2 >= 1 and
     * max_distance > max_exact (a log of their ratio divides) */
    if (*nb < 4 || *nb > 65536)
        return FAIL(r, POSENC_ERR_RANGE,
                    kn(r, "relative_attention_num_buckets", name, sizeof name),
                    "%s %lld is outside 4..65536", name, (long long)*nb);
    if (*md <= *nb / 4 || *md > POSENC_MAX_POS)
        return FAIL(r, POSENC_ERR_RANGE,
                    kn(r, "relative_attention_max_distance", name, sizeof name),
                    "%s %lld must exceed num_buckets / 4 = %lld (and be at most %lld)", name,
                    (long long)*md, (long long)(*nb / 4), POSENC_MAX_POS);
    return POSENC_OK;
}

/* A decoder-only stack with T5's causal buckets (Pix2Struct's text model:
 * compute_bias with bidirectional=False, the first layer's bias shared by
 * every layer). */
posenc_status read_t5_decoder(mread *r, int64_t n_layer)
{
    int64_t nb, md;
    posenc_status st = t5_buckets(r, &nb, &md);
    if (st != POSENC_OK)
        return st;
    note_ignored(r, "n_positions"); /* never read by the bucket code */
    int gi = add_group(r->m, POSENC_SCHEME_RELATIVE_BUCKETS, "decoder");
    for (int64_t i = 0; i < n_layer; i++)
        r->m->layer_group[i] = (uint8_t)gi;
    posenc_model_group *g = &r->m->group[gi];
    g->buckets = (uint32_t)nb;
    g->max_distance = (uint32_t)md;
    g->bidirectional = 0;
    return POSENC_OK;
}

/* Encoder-decoder models: the encoder's layers, then the decoder's. */
posenc_status read_enc_dec(mread *r)
{
    const posenc_model_family *f = r->fam;
    posenc_model *m = r->m;
    posenc_status st;
    char name[96];
    int64_t ne = 0, nd = 0;
    int present;
    int ge = add_group(m, POSENC_SCHEME_NONE, "encoder");
    int gd = add_group(m, POSENC_SCHEME_NONE, "decoder");
    posenc_model_group *e = &m->group[ge], *d = &m->group[gd];
    if (f->scheme == POSENC_SCHEME_RELATIVE_BUCKETS) {
        /* T5Config (configuration_t5.py L82-104; MT5Config L81-88: 8 layers): num_layers 6,
         * num_decoder_layers = num_layers, 32 buckets, max distance 128;
         * encoder bidirectional, decoder causal (modeling_t5.py L246-251) */
        note_ignored(r, "n_positions"); /* never read by T5's code */
        if ((st = stack_layers(r, "num_layers", f->default_layers, &ne)) != POSENC_OK ||
            (st = stack_layers(r, "num_decoder_layers", ne, &nd)) != POSENC_OK)
            return st;
        int64_t nb, md;
        if ((st = t5_buckets(r, &nb, &md)) != POSENC_OK)
            return st;
        e->scheme = d->scheme = POSENC_SCHEME_RELATIVE_BUCKETS;
        e->buckets = d->buckets = (uint32_t)nb;
        e->max_distance = d->max_distance = (uint32_t)md;
        e->bidirectional = 1;
    } else if (strcmp(f->model_type, "whisper") == 0) {
        /* WhisperConfig (configuration_whisper.py L192-211): 4 + 4 layers,
         * d_model 384, max_source_positions 1500, max_target_positions 448 */
        int64_t src = 1500, tgt = 448, dm = 384;
        if ((st = stack_layers(r, "encoder_layers", 4, &ne)) != POSENC_OK ||
            (st = stack_layers(r, "decoder_layers", 4, &nd)) != POSENC_OK ||
            (st = count(r, "max_source_positions", &src, &present)) != POSENC_OK ||
            (st = positive(r, "max_source_positions", src)) != POSENC_OK ||
            (st = count(r, "max_target_positions", &tgt, &present)) != POSENC_OK ||
            (st = positive(r, "max_target_positions", tgt)) != POSENC_OK ||
            (st = count(r, "d_model", &dm, &present)) != POSENC_OK)
            return st;
        /* sinusoids(length, channels): channels even, channels // 2 - 1 > 0 */
        if (dm < 4 || dm % 2 || dm > POSENC_MAX_DIM)
            return FAIL(r, POSENC_ERR_DIM, kn(r, "d_model", name, sizeof name),
                        "%s %lld must be even and in 4..%u (Whisper's sinusoids)", name,
                        (long long)dm, POSENC_MAX_DIM);
        e->scheme = POSENC_SCHEME_SINUSOID;
        e->sinusoid_whisper = 1;
        e->positions = src;
        e->dim = (uint32_t)dm;
        d->scheme = POSENC_SCHEME_LEARNED;
        d->positions = tgt;
        d->dim = (uint32_t)dm;
    } else {
        /* BART: BartLearnedPositionalEmbedding in both stacks, row of position 0
         * the family's pos_offset (2) */
        int64_t pos, dm;
        const char *pk;
        if ((st = stack_layers(r, "encoder_layers", 0, &ne)) != POSENC_OK ||
            (st = stack_layers(r, "decoder_layers", 0, &nd)) != POSENC_OK ||
            (st = need_count(r, POS_KEYS, 0, &pos, &pk)) != POSENC_OK ||
            (st = positive(r, pk, pos)) != POSENC_OK)
            return st;
        static const char *const dk[] = {"d_model", NULL};
        if ((st = need_count(r, dk, 0, &dm, NULL)) != POSENC_OK)
            return st;
        if (dm < 1 || dm > POSENC_MAX_DIM)
            return FAIL(r, POSENC_ERR_DIM, kn(r, "d_model", name, sizeof name),
                        "%s %lld is outside 1..%u", name, (long long)dm, POSENC_MAX_DIM);
        e->scheme = d->scheme = POSENC_SCHEME_LEARNED;
        e->positions = d->positions = pos;
        e->offset = d->offset = f->pos_offset; /* BART's 2; Blenderbot-small's 0 */
        e->dim = d->dim = (uint32_t)dm;
    }
    if (ne + nd > POSENC_MODEL_MAX_LAYERS)
        return FAIL(r, POSENC_ERR_RANGE,
                    kn(r, f->scheme == POSENC_SCHEME_RELATIVE_BUCKETS ? "num_decoder_layers"
                                                                      : "decoder_layers",
                       name, sizeof name),
                    "%lld encoder and %lld decoder layers exceed %u (%s)", (long long)ne,
                    (long long)nd, POSENC_MODEL_MAX_LAYERS, name);
    m->n_layer = (uint32_t)(ne + nd);
    for (int64_t i = 0; i < ne + nd; i++)
        m->layer_group[i] = (uint8_t)(i < ne ? ge : gd);
    return POSENC_OK;
}

/* Baichuan: RoPE for hidden_size 4096 or class BaiChuan* (the 7B models),
 * ALiBi otherwise (13B), as vLLM dispatches: *rope. A hidden_size that is not
 * a count is refused, not taken for "not 4096". */
posenc_status baichuan_rope(mread *r, const json_t *root, int *rope)
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

/* ChatGLM's model_type also names ChatGLM-6B (GLM's 2D positions) and
 * ChatGLM2-6B-32k (rope_ratio divides positions): refused by their keys. */
posenc_status chatglm_checks(mread *r)
{
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

/* Molmo 2: the layers outside rope_scaling_layers take the same theta without
 * the scaling (Molmo2RotaryEmbedding(config, scaled=False), "scaled" if
 * layer_idx in config.rope_scaling_layers else "unscaled";
 * models/molmo2/modeling_molmo2.py L98-118, L659-663; all layers when absent,
 * configuration_molmo2.py L156-158; transformers 5.23.0). Read when every
 * layer is listed or the block is the default RoPE (the two tables then
 * agree); a scaled block on some layers only is refused by name. */
posenc_status molmo2_checks(mread *r, int64_t n_layer)
{
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
