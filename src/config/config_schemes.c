/* config_schemes.c - the schemes other than RoPE (ALiBi, learned and
 * sinusoid tables, T5's relative buckets, encoder-decoder stacks); part of
 * the model reader (config_read.h). */
#include "config_read.h"

/* ---- the families with their own reading ----------------------------------------- */

/* One group for every layer, of type layer_type ("": the model has one). */
static posenc_model_group *one_group(mread *r, posenc_scheme s, const char *layer_type,
                                     int64_t n_layer)
{
    int gi = add_group(r->m, s, layer_type);
    for (int64_t i = 0; i < n_layer; i++)
        r->m->layer_group[i] = (uint8_t)gi;
    return &r->m->group[gi];
}

/* need_count, then a size in 1..POSENC_MAX_DIM (else POSENC_ERR_DIM naming
 * the key). */
static posenc_status need_dim(mread *r, const char *const *keys, int64_t def, int64_t *v,
                              const char **k)
{
    posenc_status st = need_count(r, keys, def, v, k);
    if (st != POSENC_OK || (*v >= 1 && *v <= POSENC_MAX_DIM))
        return st;
    char name[96];
    return FAIL(r, POSENC_ERR_DIM, kn(r, *k, name, sizeof name), "%s %lld is outside 1..%u", name,
                (long long)*v, POSENC_MAX_DIM);
}

/* ALiBi on every layer: BLOOM (modeling_bloom.py L54-95), MPT
 * (modeling_mpt.py L42-62, L327: alibi_bias_max 8 whatever attn_config
 * says, attn_config.alibi never read), Falcon with alibi, Baichuan 13B;
 * a family's own slopes are its quirk's (config_quirks.c). */
posenc_status read_alibi(mread *r, int64_t n_layer)
{
    int64_t heads;
    const char *hk;
    posenc_status st = need_dim(r, HEADS_KEYS, r->fam->default_heads, &heads, &hk);
    if (st != POSENC_OK)
        return st;
    posenc_model_group *g = one_group(r, POSENC_SCHEME_ALIBI, "", n_layer);
    g->n_head = (uint32_t)heads;
    g->alibi_bias_max = 8.0;
    g->alibi_slope_scale = 1.0;
    const posenc_family_quirks *q = r->fam->quirks;
    if (!(q && q->alibi) && (r->fam->flags & POSENC_FAMILY_ALIBI_KEY)) {
        char name[96];
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "alibi", name, sizeof name),
                    "%s true in a %s config: its remote code's ALiBi was not read, posenc does "
                    "not know its slopes (model_type falcon is read as Falcon's code does)",
                    name, r->fam->model_type);
    }
    const json_t *ac = get(r->cfg, "attn_config");
    if (ac && json_typeof(ac) == JSON_OBJECT) {
        if (json_object_get(ac, "alibi_bias_max"))
            note_ignored_as(r, "attn_config.alibi_bias_max");
        if (json_object_get(ac, "alibi"))
            note_ignored_as(r, "attn_config.alibi");
    }
    return q && q->alibi ? q->alibi(r, g, heads, hk) : POSENC_OK;
}

static const char *const POS_KEYS[] = {"max_position_embeddings", "n_positions", NULL};

/* The width of the embedding (hidden_size, n_embd, d_model, dim). */
posenc_status embed_dim(mread *r, uint32_t *dim)
{
    int64_t v;
    const char *k;
    posenc_status st = need_dim(r, HIDDEN_KEYS, r->fam->default_hidden, &v, &k);
    if (st != POSENC_OK)
        return st;
    *dim = (uint32_t)v;
    return POSENC_OK;
}

posenc_status positive(mread *r, const char *key, int64_t v)
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
        one_group(r, sinus ? POSENC_SCHEME_SINUSOID : POSENC_SCHEME_LEARNED, "", n_layer);
    g->positions = positions;
    g->dim = dim;
    /* DistilBERT's, XLM's: the lesson's layout from row 0 */
    if (sinus && (st = posenc_sinusoid_family_spec(POSENC_SINUSOID_LESSON, 0, &g->sinusoid)) !=
                     POSENC_OK)
        return st;
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

/* A fixed sinusoid table of the family's kind (f->sinusoid) on g: rows
 * positions, width dim (the key dk, for messages), offset f->pos_offset, or
 * pad_token_id + 1 when it is -1 (fairseq's create_position_ids_from_input_ids:
 * "Position numbers begin at padding_idx+1", m2m_100/modeling_m2m_100.py
 * L169-182; the same in nllb_moe L152-165, speech_to_text, kosmos2). */
posenc_status sinusoid_table(mread *r, posenc_model_group *g, int64_t positions, int64_t dim,
                             const char *dk)
{
    const posenc_model_family *f = r->fam;
    char name[96];
    posenc_status st;
    int64_t offset = f->pos_offset >= 0 ? f->pos_offset : 0;
    int from_pad = f->pos_offset < 0;
    if (from_pad) {
        int64_t pad = 1, lim = POSENC_MAX_POS / 2;
        int present;
        if ((st = count(r, "pad_token_id", &pad, &present)) != POSENC_OK)
            return st;
        if (pad > lim)
            return FAIL(r, POSENC_ERR_RANGE, kn(r, "pad_token_id", name, sizeof name),
                        "%s %lld is past %lld (the sinusoid's rows start at padding_idx + 1)",
                        name, (long long)pad, (long long)lim);
        offset = pad + 1;
    }
    /* FAIRSEQ divides by dim / 2 - 1 (get_embedding's half_dim - 1) */
    uint32_t least = f->sinusoid == POSENC_SINUSOID_FAIRSEQ ||
                             f->sinusoid == POSENC_SINUSOID_MUSICGEN
                         ? 4
                         : 1;
    if (dim < least || dim > POSENC_MAX_DIM)
        return FAIL(r, POSENC_ERR_DIM, kn(r, dk, name, sizeof name),
                    "%s %lld is outside %u..%u (%s's sinusoid)", name, (long long)dim, least,
                    POSENC_MAX_DIM, f->model_type);
    if ((st = posenc_sinusoid_family_spec(f->sinusoid, offset, &g->sinusoid)) != POSENC_OK)
        return st;
    g->scheme = POSENC_SCHEME_SINUSOID;
    g->sinusoid_pad_offset = from_pad;
    g->positions = positions;
    g->dim = (uint32_t)dim;
    return POSENC_OK;
}

/* A decoder-only stack with a fixed sinusoid (XGLM, CTRL). */
posenc_status read_sinusoid(mread *r, int64_t n_layer)
{
    int64_t positions;
    const char *pk;
    uint32_t dim;
    posenc_status st;
    const posenc_model_family *f = r->fam;
    if ((st = need_count(r, POS_KEYS, f->default_positions, &positions, &pk)) != POSENC_OK ||
        (st = positive(r, pk, positions)) != POSENC_OK)
        return st;
    int64_t w = f->embed_default;
    int present;
    if (f->embed_key) /* Kosmos-2's embed_dim */
        st = count(r, f->embed_key, &w, &present);
    else if ((st = embed_dim(r, &dim)) == POSENC_OK)
        w = dim;
    if (st != POSENC_OK)
        return st;
    /* XGLM: rows read from the fixed offset 2 (position_ids + self.offset),
     * but get_embedding zeroes row padding_idx = pad_token_id (class default
     * 1; null: none), at init and whenever the table grows
     * (models/xglm/modeling_xglm.py L53-107, L381-385; configuration_xglm.py
     * L65, transformers 5.23.0): a pad_token_id >= 2 zeroes the row of token
     * index pad_token_id - 2, which posenc's tables do not. */
    if (f->sinusoid == POSENC_SINUSOID_FAIRSEQ && f->pos_offset > 0) {
        int64_t pad = 1;
        char name[96];
        if ((st = count(r, "pad_token_id", &pad, &present)) != POSENC_OK)
            return st;
        if (pad >= f->pos_offset)
            return FAIL(r, POSENC_ERR_RANGE, kn(r, "pad_token_id", name, sizeof name),
                        "%s %lld: %s's sinusoid table zeroes row pad_token_id, which token "
                        "index %lld reads (its rows start at %lld); posenc's table has no "
                        "zero row",
                        name, (long long)pad, f->model_type, (long long)(pad - f->pos_offset),
                        (long long)f->pos_offset);
    }
    posenc_model_group *g = one_group(r, POSENC_SCHEME_SINUSOID, "", n_layer);
    return sinusoid_table(r, g, positions, w, f->embed_key ? f->embed_key : "d_model");
}

/* A stack's layer count at key (default def; 0: required). */
posenc_status stack_layers(mread *r, const char *key, int64_t def, int64_t *out)
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
    posenc_model_group *g = one_group(r, POSENC_SCHEME_RELATIVE_BUCKETS, "decoder", n_layer);
    g->buckets = (uint32_t)nb;
    g->max_distance = (uint32_t)md;
    g->bidirectional = 0;
    return POSENC_OK;
}

/* BART-style config classes map hidden_size to d_model and num_hidden_layers
 * to encoder_layers (attribute_map, e.g. configuration_m2m_100.py L43-47,
 * configuration_fsmt.py L64-69); the alias, when the config has it, is what
 * the class keeps whatever the order of the keys. */
const char *alias_key(mread *r, const char *alias, const char *key)
{
    return get(r->cfg, alias) ? alias : key;
}

/* Encoder-decoder models: the encoder's layers, then the decoder's. */
posenc_status read_enc_dec(mread *r)
{
    const posenc_model_family *f = r->fam;
    posenc_model *m = r->m;
    posenc_status st;
    char name[96];
    int64_t ne = 0, nd = 0;
    int ge = add_group(m, POSENC_SCHEME_NONE, "encoder");
    int gd = add_group(m, POSENC_SCHEME_NONE, "decoder");
    posenc_model_group *e = &m->group[ge], *d = &m->group[gd];
    if (f->scheme == POSENC_SCHEME_RELATIVE_BUCKETS) {
        /* T5Config (configuration_t5.py L82-104; MT5Config L81-88: 8 layers): num_layers 6,
         * num_decoder_layers = num_layers, 32 buckets, max distance 128;
         * encoder bidirectional, decoder causal (modeling_t5.py L246-251) */
        note_ignored(r, "n_positions"); /* never read by T5's code */
        /* num_hidden_layers is the classes' alias of num_layers (attribute_map,
         * configuration_t5.py L37-41), set after the fields: it wins for the
         * encoder; num_decoder_layers falls back to num_layers as the fields
         * hold it before the alias (L65-66): the config's num_layers or the
         * class default (SwitchTransformers: its own 12, flag
         * DECODER_OWN_DEFAULT) */
        int64_t nl;
        if ((st = stack_layers(r, "num_layers", f->default_layers, &nl)) != POSENC_OK ||
            (st = stack_layers(r, "num_hidden_layers", nl, &ne)) != POSENC_OK)
            return st;
        int64_t ddef = nl;
        if ((f->flags & POSENC_FAMILY_DECODER_OWN_DEFAULT) &&
            !json_object_get(r->cfg, "num_decoder_layers"))
            ddef = f->default_layers;
        if ((st = stack_layers(r, "num_decoder_layers", ddef, &nd)) != POSENC_OK)
            return st;
        int64_t nb, md;
        if ((st = t5_buckets(r, &nb, &md)) != POSENC_OK)
            return st;
        e->scheme = d->scheme = POSENC_SCHEME_RELATIVE_BUCKETS;
        e->buckets = d->buckets = (uint32_t)nb;
        e->max_distance = d->max_distance = (uint32_t)md;
        e->bidirectional = 1;
        if (f->quirks && f->quirks->stacks && /* LongT5's encoder blocks */
            (st = f->quirks->stacks(r, e, d, &ne, &nd)) != POSENC_OK)
            return st;
    } else if (f->quirks && f->quirks->stacks) {
        if ((st = f->quirks->stacks(r, e, d, &ne, &nd)) != POSENC_OK)
            return st;
    } else if (f->scheme == POSENC_SCHEME_SINUSOID) {
        /* Marian, Pegasus, M2M100, NLLB-MoE: one sinusoid of max_position_embeddings
         * rows in both stacks (the entry cites each family's code) */
        int64_t pos, dm;
        const char *pk;
        const char *dmk = alias_key(r, "hidden_size", "d_model");
        const char *const dk[] = {dmk, NULL};
        if ((st = stack_layers(r, alias_key(r, "num_hidden_layers", "encoder_layers"),
                               f->default_layers, &ne)) != POSENC_OK ||
            (st = stack_layers(r, "decoder_layers", f->default_layers, &nd)) != POSENC_OK ||
            (st = need_count(r, POS_KEYS, f->default_positions, &pos, &pk)) != POSENC_OK ||
            (st = positive(r, pk, pos)) != POSENC_OK ||
            (st = need_count(r, dk, f->default_hidden, &dm, NULL)) != POSENC_OK ||
            (st = sinusoid_table(r, e, pos, dm, dmk)) != POSENC_OK ||
            (st = sinusoid_table(r, d, pos, dm, dmk)) != POSENC_OK)
            return st;
    } else {
        /* BART: BartLearnedPositionalEmbedding in both stacks, row of position 0
         * the family's pos_offset (2) */
        int64_t pos, dm;
        const char *pk;
        const char *dmk = alias_key(r, "hidden_size", "d_model");
        const char *const dk[] = {dmk, NULL};
        if ((st = stack_layers(r, alias_key(r, "num_hidden_layers", "encoder_layers"), 0,
                               &ne)) != POSENC_OK ||
            (st = stack_layers(r, "decoder_layers", 0, &nd)) != POSENC_OK ||
            (st = need_count(r, POS_KEYS, 0, &pos, &pk)) != POSENC_OK ||
            (st = positive(r, pk, pos)) != POSENC_OK)
            return st;
        if ((st = need_count(r, dk, 0, &dm, NULL)) != POSENC_OK)
            return st;
        if (dm < 1 || dm > POSENC_MAX_DIM)
            return FAIL(r, POSENC_ERR_DIM, kn(r, dmk, name, sizeof name),
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

