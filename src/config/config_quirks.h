/* config_quirks.h - the quirk room: the rules that only one family's code
 * has, as named hooks (config_quirks.c), each citing that code. A family
 * entry (config_families_table.h) names its hooks with .quirks =
 * &quirk_<family>; the reader calls each hook at one point, said below,
 * and does nothing there for a family without it. Everything most
 * families share stays data in the entry (config_families.h).
 *
 * Adding a family with a rule of its own: write its hooks and one
 * posenc_family_quirks object in config_quirks.c (cited), declare it
 * here, and point its entry at it. A new call point is a new member here
 * and one call in the reader. */
#ifndef POSENC_CONFIG_QUIRKS_H
#define POSENC_CONFIG_QUIRKS_H

#include "config_read.h"

struct posenc_family_quirks {
    const char *name; /* "quirk_chatglm": for messages and tests */
    /* read_family (config_family.c), before the scheme's reader: checks of
     * the family's own keys, or the whole part read here (*done = 1; e.g.
     * ALiBi instead of RoPE). */
    posenc_status (*scheme)(mread *r, int64_t n_layer, int *done);
    /* read_alibi (config_schemes.c), last: the family's own slopes and
     * keys; g holds the paper's slopes for heads (read from the key hk). */
    posenc_status (*alibi)(mread *r, posenc_model_group *g, int64_t heads, const char *hk);
    /* read_enc_dec (config_schemes.c): the two stacks of a family that is
     * neither T5 nor BART (*ne, *nd: their layer counts); of a T5-like family
     * (RELATIVE_BUCKETS: LongT5), the family's rules after T5's reading. */
    posenc_status (*stacks)(mread *r, posenc_model_group *e, posenc_model_group *d,
                            int64_t *ne, int64_t *nd);
    /* prepare_block (config_rope.c), after the shared steps: the RoPE block
     * blk as the family's code reads it (*own: a changed copy, or NULL). */
    posenc_status (*rope_block)(mread *r, const json_t *blk, const char *name, json_t **own);
    /* common_head_dim (config_rope.c), in place of the usual keys: the head
     * size by the family's own rule. */
    posenc_status (*head_dim)(mread *r, int64_t *head_dim);
    /* common_base (config_rope.c), before the usual keys: the base read by
     * the family's own rule (*have = 1 when it decides). */
    posenc_status (*own_base)(mread *r, rope_common *cm, int *have);
    /* common_base, after the base is known: the family's checks and
     * factors on it. */
    posenc_status (*base_read)(mread *r, rope_common *cm);
    /* layer_kinds (config_layers.c, BY_TYPE): a layer_types name beside
     * full_attention and sliding_attention: 3 (a layer without attention),
     * or -1 (not the family's). */
    int (*layer_type)(const char *name);
    /* by_type (config_layers.c), after each layer's type: kind[i] changed
     * (2: a full layer that rotates). */
    posenc_status (*by_type)(mread *r, int64_t n_layer, uint8_t *kind);
    /* kinds_of (config_layers.c, KINDS): the kinds when the config gives
     * neither the list, the pattern nor index_key. */
    void (*kinds_unlisted)(int64_t n_layer, uint8_t *kind);
    /* kinds_of, after a period rule placed kinds[0] on *placed layers. */
    void (*kinds_by_period)(int64_t n_layer, uint8_t *kind, int placed);
    /* kinds_layers (config_layers.c, KINDS): whether the kinds' RoPE
     * applies at all (*rope_on), and why not (*off_why). */
    posenc_status (*kinds_rope)(mread *r, int *rope_on, const char **off_why);
    /* read_rope_family (config_layers.c), last: rules on every group. */
    posenc_status (*layers_read)(mread *r);
    /* KINDS: the per-layer list is a pattern repeated up to this many times
     * over the layers (0: one entry per layer). */
    uint32_t list_repeats;
    /* keys near positions only this family's code reads (space-separated;
     * refuse_foreign refuses them in every other family). */
    const char *own_keys;
    /* 1: the scheme hook may read ALiBi instead (posenc_family_info's or_alibi). */
    int may_choose_alibi;
    /* 1: rope_parameters' per-type sets may be null, a layer type without RoPE
     * (Beam's full_attention: None); rope_blocks (config_layers.c) skips them. */
    int null_sets;
};

/* The hooks, by family (config_quirks.c). */
/* config_buckets.c: LongT5 (stacks: after T5's reading, its encoder's blocks),
 * CPM-Ant, VITS */
extern const posenc_family_quirks quirk_cpmant;
extern const posenc_family_quirks quirk_longt5;
extern const posenc_family_quirks quirk_vits;
/* config_buckets.c: ProphetNet (stacks: a learned table in both, its n-stream
 * buckets in the decoder) */
extern const posenc_family_quirks quirk_prophetnet;
extern const posenc_family_quirks quirk_baichuan;
extern const posenc_family_quirks quirk_bamba;
extern const posenc_family_quirks quirk_chatglm;
extern const posenc_family_quirks quirk_cohere2_moe;
extern const posenc_family_quirks quirk_deberta;
extern const posenc_family_quirks quirk_deberta_v2;
extern const posenc_family_quirks quirk_falcon;
extern const posenc_family_quirks quirk_granitemoehybrid;
extern const posenc_family_quirks quirk_lfm2;
extern const posenc_family_quirks quirk_lfm3;
extern const posenc_family_quirks quirk_molmo2_text;
extern const posenc_family_quirks quirk_mpnet;
extern const posenc_family_quirks quirk_mpt;
extern const posenc_family_quirks quirk_nanochat;
extern const posenc_family_quirks quirk_olmo_hybrid;
extern const posenc_family_quirks quirk_pegasus_x;
extern const posenc_family_quirks quirk_phi3small;
extern const posenc_family_quirks quirk_phimoe;
extern const posenc_family_quirks quirk_qwen;
extern const posenc_family_quirks quirk_recurrent_gemma;
extern const posenc_family_quirks quirk_roformer;
extern const posenc_family_quirks quirk_esm;
extern const posenc_family_quirks quirk_speech_to_text;
extern const posenc_family_quirks quirk_whisper;
extern const posenc_family_quirks quirk_led;
extern const posenc_family_quirks quirk_trocr;
extern const posenc_family_quirks quirk_zamba2;
/* granite_swa, granitemoe_swa (a RoPE base per layer); muse_glimmer_text
 * (layer_rope_theta 0: NoPE) */
extern const posenc_family_quirks quirk_granite_swa;
extern const posenc_family_quirks quirk_muse_glimmer_text;
/* learned tables read by other ids (LayoutLM's boxes, MarkupLM's XPaths, TAPAS's cells,
 * Reformer's axes) */
extern const posenc_family_quirks quirk_layoutlm;
extern const posenc_family_quirks quirk_markuplm;
extern const posenc_family_quirks quirk_reformer;
extern const posenc_family_quirks quirk_tapas;
/* the relative-sinusoid families (config_relsin.c) */
extern const posenc_family_quirks quirk_funnel;
extern const posenc_family_quirks quirk_xlnet;
/* Beam: RoPE by layer type from rope_parameters' sets, NoPE layers' query scale */
extern const posenc_family_quirks quirk_beam;
/* SAM 3 LiteText's text model: its learned table resampled to each sequence's length */
extern const posenc_family_quirks quirk_sam3_lite_text;
/* ERNIE 4.5 VL's M-RoPE: the default rope type only */
extern const posenc_family_quirks quirk_ernie4_5_vl;
/* NeoMME: its per-type sets as transformers saves them */
extern const posenc_family_quirks quirk_neomme;

#endif
