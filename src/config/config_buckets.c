/* config_buckets.c - the quirks of the relative-bucket families beyond T5's
 * full attention (config_quirks.h says where the reader calls each):
 * LongT5's encoder (local or transient-global blocks), CPM-Ant's segment
 * buckets, VITS's windowed relative rows. transformers 5.23.0 throughout. */
#include "config_quirks.h"

#include <string.h>

/* ---- longt5 ------------------------------------------------------------------------ */

/* LongT5 (models/longt5/modeling_longt5.py; configuration_longt5.py L56-76:
 * local_radius 127, global_block_size 16, encoder_attention_type "local"):
 * read_enc_dec has read T5's layers and buckets (relative_attention_num_buckets,
 * relative_attention_max_distance; the decoder is T5's causal attention, L1072-1073).
 * The encoder's blocks (L1074-1081) are LongT5LocalAttention (L532-703) or
 * LongT5TransientGlobalAttention (L704-943), any other type a ValueError
 * (L1078-1082); block_len = local_radius + 1 (L542-543, L714-715); as in T5
 * only each stack's first layer holds the tables and the rest reuse its
 * bias (L1254, L1395-1399). */
static posenc_status longt5_stacks(mread *r, posenc_model_group *e, posenc_model_group *d,
                                   int64_t *ne, int64_t *nd)
{
    (void)d, (void)ne, (void)nd;
    char name[96];
    int present;
    int64_t radius = 127, gbs = 16;
    posenc_status st;
    const json_t *v = get(r->cfg, "encoder_attention_type");
    int tglobal = 0;
    if (v && !json_is_null(v)) {
        const char *s = json_string_value(v);
        kn(r, "encoder_attention_type", name, sizeof name);
        if (!s)
            return FAIL(r, POSENC_ERR_FORMAT, name, "%s must be a string", name);
        if (strcmp(s, "transient-global") == 0)
            tglobal = 1;
        else if (strcmp(s, "local") != 0)
            return FAIL(r, POSENC_ERR_FORMAT, name,
                        "%s '%.40s' is not one of LongT5's: local, transient-global", name, s);
    }
    if ((st = count(r, "local_radius", &radius, &present)) != POSENC_OK ||
        (st = count(r, "global_block_size", &gbs, &present)) != POSENC_OK)
        return st;
    if (radius >= POSENC_MAX_POS)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "local_radius", name, sizeof name),
                    "%s %lld is past %lld", name, (long long)radius, POSENC_MAX_POS - 1);
    if (tglobal && (gbs < 1 || gbs > POSENC_MAX_POS))
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "global_block_size", name, sizeof name),
                    "%s %lld is outside 1..%lld (the code divides by it)", name, (long long)gbs,
                    POSENC_MAX_POS);
    if (!tglobal)
        note_ignored(r, "global_block_size"); /* local attention never reads it */
    e->bucket_ids = tglobal ? POSENC__IDS_LONGT5_TGLOBAL : POSENC__IDS_LONGT5_LOCAL;
    e->block_length = (uint32_t)(radius + 1);
    e->global_block_size = tglobal ? (uint32_t)gbs : 0;
    return POSENC_OK;
}

const posenc_family_quirks quirk_longt5 = {.name = "quirk_longt5", .stacks = longt5_stacks};

/* ---- cpmant ------------------------------------------------------------------------ */

/* CPM-Ant (models/cpmant/modeling_cpmant.py; configuration_cpmant.py L56-70:
 * 48 layers, 512 buckets, max distance 2048, 32 segment types, prompt_length
 * 32): one CpmAntSegmentPositionEmbedding (L413-502, L544) gives every layer
 * its bias (L638, L642-648): inside a segment T5's bidirectional bucket of
 * key - query over the sequence indices (L463-467, L484-502), across
 * segments num_buckets + q_seg * segment_types + k_seg (L459-460, L481-482).
 * The forward puts prompt_length prompt tokens in segment 0, text tokens in
 * 2 (L605, L620): segment_types must exceed 2. */
static posenc_status cpmant_scheme(mread *r, int64_t n_layer, int *done)
{
    char name[96];
    int present;
    int64_t nb = 512, md = 2048, seg = 32, prompt = 32;
    posenc_status st;
    if ((st = count(r, "position_bias_num_buckets", &nb, &present)) != POSENC_OK ||
        (st = count(r, "position_bias_max_distance", &md, &present)) != POSENC_OK ||
        (st = count(r, "segment_types", &seg, &present)) != POSENC_OK ||
        (st = count(r, "prompt_length", &prompt, &present)) != POSENC_OK)
        return st;
    if (nb < 4 || nb > 65536)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "position_bias_num_buckets", name, sizeof name),
                    "%s %lld is outside 4..65536", name, (long long)nb);
    if (md <= nb / 4 || md > POSENC_MAX_POS)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "position_bias_max_distance", name, sizeof name),
                    "%s %lld must exceed num_buckets / 4 = %lld (and be at most %lld)", name,
                    (long long)md, (long long)(nb / 4), POSENC_MAX_POS);
    if (seg < 3 || seg > 65536)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "segment_types", name, sizeof name),
                    "%s %lld is outside 3..65536 (the forward puts text tokens in segment 2)",
                    name, (long long)seg);
    if (prompt > POSENC_MAX_POS)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "prompt_length", name, sizeof name),
                    "%s %lld is past %lld", name, (long long)prompt, POSENC_MAX_POS);
    int gi = add_group(r->m, POSENC_SCHEME_RELATIVE_BUCKETS, "");
    for (int64_t i = 0; i < n_layer; i++)
        r->m->layer_group[i] = (uint8_t)gi;
    posenc_model_group *g = &r->m->group[gi];
    g->bucket_ids = POSENC__IDS_CPMANT;
    g->buckets = (uint32_t)nb;
    g->max_distance = (uint32_t)md;
    g->bidirectional = 1;
    g->segment_types = (uint32_t)seg;
    g->prompt_length = (uint32_t)prompt;
    *done = 1;
    return POSENC_OK;
}

const posenc_family_quirks quirk_cpmant = {.name = "quirk_cpmant", .scheme = cpmant_scheme};

/* ---- vits -------------------------------------------------------------------------- */

/* VITS (models/vits/modeling_vits.py; configuration_vits.py L113-117: 6
 * layers, window_size 4): each of the text encoder's num_hidden_layers
 * layers (L1082) has its own emb_rel_k / emb_rel_v of 2 window_size + 1 rows
 * (L865-867), read at row key - query + window_size and zero beyond the
 * window (L907-911, L943-947, L960-995). window_size 0 builds no tables
 * (L865) but the attention reads them (L907): refused, as is null (VitsConfig
 * takes an int only, L117). */
static posenc_status vits_scheme(mread *r, int64_t n_layer, int *done)
{
    char name[96];
    int present;
    int64_t w = 4;
    posenc_status st;
    kn(r, "window_size", name, sizeof name);
    const json_t *v = json_object_get(r->cfg, "window_size");
    if (v && json_is_null(v))
        return FAIL(r, POSENC_ERR_FORMAT, name,
                    "%s null: transformers 5.23's VitsConfig takes an integer only", name);
    if ((st = count(r, "window_size", &w, &present)) != POSENC_OK)
        return st;
    if (w < 1 || w > POSENC_MAX_POS)
        return FAIL(r, POSENC_ERR_RANGE, name,
                    "%s %lld is outside 1..%lld (0 makes no emb_rel_k, which the attention "
                    "then reads)",
                    name, (long long)w, POSENC_MAX_POS);
    int gi = add_group(r->m, POSENC_SCHEME_RELATIVE_BUCKETS, "");
    for (int64_t i = 0; i < n_layer; i++)
        r->m->layer_group[i] = (uint8_t)gi;
    posenc_model_group *g = &r->m->group[gi];
    g->bucket_ids = POSENC__IDS_WINDOW;
    g->window_size = (uint32_t)w;
    *done = 1;
    return POSENC_OK;
}

const posenc_family_quirks quirk_vits = {.name = "quirk_vits", .scheme = vits_scheme};

/* ---- prophetnet -------------------------------------------------------------------- */

/* ProphetNet (transformers 5.23.0 models/prophetnet; ProphetNetConfig,
 * configuration_prophetnet.py L43-89: hidden_size 1024, 12 encoder and 12
 * decoder layers, max_position_embeddings 512, pad_token_id 0, ngram 2,
 * num_buckets 32, relative_max_distance 128). Both stacks add
 * ProphetNetPositionalEmbeddings (modeling_prophetnet.py L342-382: an
 * nn.Embedding of max_position_embeddings rows of hidden_size, padding_idx
 * pad_token_id; token i reads row pad_token_id + 1 + i, clamped to the last
 * row) to the input (encoder L1010-1018, decoder L1144-1159); the encoder's
 * attention is plain (ProphetNetAttention, L385-500: no position term). Each
 * decoder layer's ProphetNetNgramSelfAttention (L526-827) adds a bias of
 * num_buckets relative buckets (compute_relative_buckets, L66-90) to the
 * main stream and to the ngram predicting streams, whose inputs read the
 * table one row later (position_ids + 1, L1157). */
static posenc_status prophetnet_stacks(mread *r, posenc_model_group *e, posenc_model_group *d,
                                       int64_t *ne, int64_t *nd)
{
    char name[96];
    int present;
    int64_t pos, dim, pad = 0, ngram = 2, nb = 32, md = 128;
    const char *pk, *dk;
    posenc_status st;
    static const char *const pos_keys[] = {"max_position_embeddings", NULL};
    static const char *const dim_keys[] = {"hidden_size", NULL};
    if ((st = stack_layers(r, "num_encoder_layers", 12, ne)) != POSENC_OK ||
        (st = stack_layers(r, "num_decoder_layers", 12, nd)) != POSENC_OK ||
        (st = need_count(r, pos_keys, 512, &pos, &pk)) != POSENC_OK ||
        (st = positive(r, pk, pos)) != POSENC_OK ||
        (st = need_count(r, dim_keys, 1024, &dim, &dk)) != POSENC_OK ||
        (st = count(r, "pad_token_id", &pad, &present)) != POSENC_OK ||
        (st = count(r, "ngram", &ngram, &present)) != POSENC_OK ||
        (st = count(r, "num_buckets", &nb, &present)) != POSENC_OK ||
        (st = count(r, "relative_max_distance", &md, &present)) != POSENC_OK)
        return st;
    if (dim < 1 || dim > POSENC_MAX_DIM)
        return FAIL(r, POSENC_ERR_DIM, kn(r, dk, name, sizeof name), "%s %lld is outside 1..%u",
                    name, (long long)dim, POSENC_MAX_DIM);
    const json_t *pj = json_object_get(r->cfg, "pad_token_id"); /* get() skips a null */
    if (pj && json_is_null(pj)) /* padding_idx None: L374 adds None to the cumsum */
        return FAIL(r, POSENC_ERR_FORMAT, kn(r, "pad_token_id", name, sizeof name),
                    "%s is null: ProphetNet's positions are counted from padding_idx "
                    "(pad_token_id + 1 + i), which its code cannot add",
                    name);
    if (pad + 1 >= pos)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "pad_token_id", name, sizeof name),
                    "%s %lld leaves no row of the %lld-row position table for tokens", name,
                    (long long)pad, (long long)pos);
    if (ngram < 1 || ngram > 1024)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "ngram", name, sizeof name),
                    "%s %lld is outside 1..1024 (the predicting streams)", name,
                    (long long)ngram);
    /* max_exact = num_buckets // 2 >= 1, and max_distance above it (the log of
     * their ratio divides, L84-86) */
    if (nb < 2 || nb > (int64_t)POSENC_T5_MAX_BUCKETS)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "num_buckets", name, sizeof name),
                    "%s %lld is outside 2..%u", name, (long long)nb, POSENC_T5_MAX_BUCKETS);
    if (md <= nb / 2 || md > POSENC_MAX_POS)
        return FAIL(r, POSENC_ERR_RANGE, kn(r, "relative_max_distance", name, sizeof name),
                    "%s %lld must exceed num_buckets / 2 = %lld (and be at most %lld)", name,
                    (long long)md, (long long)(nb / 2), POSENC_MAX_POS);
    e->scheme = POSENC_SCHEME_LEARNED;
    d->scheme = POSENC_SCHEME_RELATIVE_BUCKETS;
    d->bucket_ids = POSENC__IDS_PROPHETNET;
    d->buckets = (uint32_t)nb;
    d->max_distance = (uint32_t)md;
    d->ngram = (uint32_t)ngram;
    d->table_beside = 1;
    e->positions = d->positions = pos;
    e->offset = d->offset = pad + 1;
    e->offset_from_pad = d->offset_from_pad = 1;
    e->dim = d->dim = (uint32_t)dim;
    return POSENC_OK;
}

const posenc_family_quirks quirk_prophetnet = {.name = "quirk_prophetnet",
                                               .stacks = prophetnet_stacks};
