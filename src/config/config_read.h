/* config_read.h - what the files of the model reader share (private to
 * the config library, libposenc_config; not installed). The reader is split
 * by what it reads:
 *   config_model.c    the entry points
 *   config_family.c   which family and which part of the config (wrappers:
 *                     text_config..., architectures[], a bare RoPE config),
 *                     and the reader its scheme takes
 *   config_quirks.c   the rules of one family each: hooks the other files
 *                     call at named points through the family's entry
 *                     (config_quirks.h); they use the files below
 *   config_layers.c   which layers get which RoPE (layer_types, NoPE layers,
 *                     hybrid models' layer kinds)
 *   config_rope.c     the RoPE blocks (rope_scaling / rope_parameters and the
 *                     family's RoPE keys) into a group
 *   config_schemes.c  the other schemes (ALiBi, learned and sinusoid tables,
 *                     T5 buckets, encoder-decoder stacks)
 *   config_util.c     the helpers all of them use
 * Each file calls only those below it in this order (tests/cycles.sh).
 * The family registry itself is config_families.[ch]. The helpers keep their
 * short names inside the library through the macros below (posenc__cfgm_*
 * in the object files). */
#ifndef POSENC_CONFIG_READ_H
#define POSENC_CONFIG_READ_H

#include "config_internal.h"
#include "config_families.h"
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct mread {
    reader rd;
    const json_t *cfg;   /* the part read (the root, or e.g. root.text_config) */
    char prefix[40];     /* "text_config." or "" */
    const posenc_model_family *fam;
    posenc_model *m;
    char block[POSENC_MODEL_MAX_GROUPS + 1][96]; /* names of the RoPE blocks read */
    size_t n_block;
    const char *json; /* the text, for a bare RoPE config */
    size_t len;
    const json_t *root;
} mread;

#define FAIL(r, st, key, ...) posenc__cfg_fail(&(r)->rd, st, key, __VA_ARGS__)

/* What the RoPE groups share: dimensions, layout, max_position_embeddings. */
typedef struct rope_common {
    int64_t head_dim, rotary, maxpos, top_orig;
    int have_maxpos, have_top_orig;
    double base;          /* the config's (or default) base, with any ratio */
    const char *base_name;
    posenc_layout layout; /* the family's, or rope_interleave's */
} rope_common;

#define add_group posenc__cfgm_add_group
#define block_copy_failed posenc__cfgm_block_copy_failed
#define hidden_per_head posenc__cfgm_hidden_per_head
#define embed_dim posenc__cfgm_embed_dim
#define positive posenc__cfgm_positive
#define stack_layers posenc__cfgm_stack_layers
#define count_of posenc__cfgm_count_of
#define finish_scheme posenc__cfgm_finish_scheme
#define kinds_layer_count posenc__cfgm_kinds_layer_count
#define need_count posenc__cfgm_need_count
#define note_ignored posenc__cfgm_note_ignored
#define note_ignored_as posenc__cfgm_note_ignored_as
#define note_ignored_common posenc__cfgm_note_ignored_common
#define read_alibi posenc__cfgm_read_alibi
#define read_enc_dec posenc__cfgm_read_enc_dec
#define read_family posenc__cfgm_read_family
#define read_learned posenc__cfgm_read_learned
#define read_t5_decoder posenc__cfgm_read_t5_decoder
#define read_sinusoid posenc__cfgm_read_sinusoid
#define sinusoid_table posenc__cfgm_sinusoid_table
#define read_model posenc__cfgm_read_model
#define read_rope_family posenc__cfgm_read_rope_family
#define refuse_foreign posenc__cfgm_refuse_foreign
#define rope_common_read posenc__cfgm_rope_common_read
#define rope_group posenc__cfgm_rope_group
#define HEADS_KEYS posenc__cfgm_heads_keys
#define HIDDEN_KEYS posenc__cfgm_hidden_keys
#define LAYER_KEYS posenc__cfgm_layer_keys
#define MAXPOS_KEYS posenc__cfgm_maxpos_keys

/* Small helpers every file uses. */
/* "text_config.key" */
static inline const char *kn(mread *r, const char *key, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s", r->prefix, key);
    return buf;
}

static inline const json_t *get(const json_t *obj, const char *key)
{
    const json_t *v = json_object_get(obj, key);
    return v && json_typeof(v) != JSON_NULL ? v : NULL;
}

/* json_is_number without its two tests for NULL. */
static inline int is_number(const json_t *v)
{
    return v && (json_typeof(v) == JSON_INTEGER || json_typeof(v) == JSON_REAL);
}

static inline posenc_status num(mread *r, const char *key, double *out, int *present)
{
    char name[96];
    return posenc__cfg_number(&r->rd, r->cfg, key, kn(r, key, name, sizeof name), out, present);
}

static inline posenc_status count(mread *r, const char *key, int64_t *out, int *present)
{
    char name[96];
    return posenc__cfg_count(&r->rd, r->cfg, key, kn(r, key, name, sizeof name), out, present);
}

/* Key names a family may use for one value, NULL-terminated. */
extern const char *const LAYER_KEYS[];
extern const char *const HIDDEN_KEYS[];
extern const char *const HEADS_KEYS[];
extern const char *const MAXPOS_KEYS[];

/* config_util.c */
int add_group(posenc_model *m, posenc_scheme s, const char *layer_type);
posenc_status count_of(mread *r, const char *const *keys, int64_t *out,
                              const char **which);
void finish_scheme(posenc_model *m);
posenc_status need_count(mread *r, const char *const *keys, int64_t def, int64_t *out,
                                const char **which);
void note_ignored(mread *r, const char *key);
void note_ignored_as(mread *r, const char *shown); /* shown appended as it is */
void note_ignored_common(mread *r);
posenc_status refuse_foreign(mread *r);

/* config_family.c: the family dispatch */
posenc_status read_family(mread *r, int64_t n_layer);

/* config_rope.c: RoPE blocks */
posenc_status rope_common_read(mread *r, const json_t *rp_single, rope_common *cm);
posenc_status rope_group(mread *r, posenc_model_group *g, const rope_common *cm,
                                double base, const json_t *blk, const char *name);
/* *out = times * hidden_size / num_attention_heads (the family's defaults
 * where absent). */
posenc_status hidden_per_head(mread *r, uint32_t times, int64_t *out);
/* Out of memory copying or changing a RoPE block: *own dropped. */
posenc_status block_copy_failed(mread *r, json_t **own);

/* config_layers.c: which layers get which RoPE */
posenc_status read_rope_family(mread *r, int64_t n_layer);
/* KINDS: *n = the length of the config's per-layer list or pattern (0: none). */
posenc_status kinds_layer_count(mread *r, int64_t *n);

/* config_family.c: which family, which part */
posenc_status read_model(mread *r, const json_t *root, const char *override);

/* config_schemes.c: the non-RoPE schemes */
/* the width of the embedding (hidden_size, n_embd, d_model, dim) */
posenc_status embed_dim(mread *r, uint32_t *dim);
/* v (the value of key) in 1..POSENC_MAX_POS + 1, else an error naming key */
posenc_status positive(mread *r, const char *key, int64_t v);
/* a stack's layer count at key (default def; 0: required) */
posenc_status stack_layers(mread *r, const char *key, int64_t def, int64_t *out);
/* alias when the config has it, else key: the config classes' attribute_map
 * (BART's hidden_size for d_model, num_hidden_layers for encoder_layers),
 * whose alias wins */
const char *alias_key(mread *r, const char *alias, const char *key);
posenc_status read_alibi(mread *r, int64_t n_layer);
posenc_status read_enc_dec(mread *r);
posenc_status read_learned(mread *r, int64_t n_layer);
posenc_status read_t5_decoder(mread *r, int64_t n_layer);
posenc_status read_sinusoid(mread *r, int64_t n_layer);
/* g: the family's sinusoid table (f->sinusoid, offset pos_offset or
 * pad_token_id + 1), positions rows of width dim (read from key dk). */
posenc_status sinusoid_table(mread *r, posenc_model_group *g, int64_t positions, int64_t dim,
                             const char *dk);

/* the hooks of the families with rules of their own (config_quirks.c) */
#include "config_quirks.h"

#endif
