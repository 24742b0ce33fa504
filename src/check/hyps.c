/* hyps.c - the candidate mistakes (posenc_check.h lists them) and how a
 * recipe of mistakes on an engine model becomes a predicting hypothesis.
 *
 * A mistake (a mod) changes one room: the configuration (base, scaling,
 * rotary dim, the length the RoPE was built for) or the rotation (positions,
 * pairing, table order, sign, gain, a 16-bit rounding, the float32 angle
 * envelope). The configuration's changes are applied first, then the RoPE is
 * built by the library, then the engine model's tables, then the rotation's
 * changes. */
#include "check_impl.h"

#include <stdlib.h>
#include <string.h>

static posenc_layout other(posenc_layout l)
{
    return l == POSENC_LAYOUT_HALF ? POSENC_LAYOUT_INTERLEAVED : POSENC_LAYOUT_HALF;
}

static const char *layout_word(posenc_layout l) { return l == POSENC_LAYOUT_HALF ? "half" : "interleaved"; }

posenc_check_cause_id posenc__mod_cause(const mod *m)
{
    switch (m->kind) {
    case MOD_LAYOUT_SWAP: return POSENC_CAUSE_LAYOUT_SWAPPED;
    case MOD_TABLE_OTHER:
    case MOD_PAIRS_OTHER: return POSENC_CAUSE_LAYOUT_MIXED;
    case MOD_ENVELOPE: return POSENC_CAUSE_ANGLE_PRECISION;
    case MOD_OFFSET: return POSENC_CAUSE_POSITION_OFFSET;
    case MOD_BASE: return POSENC_CAUSE_BASE;
    case MOD_SCALING:
    case MOD_DYN_LEN: return POSENC_CAUSE_SCALING;
    case MOD_LONGROPE: return POSENC_CAUSE_LONGROPE_FACTORS;
    case MOD_ROTARY: return POSENC_CAUSE_ROTARY_DIM;
    case MOD_GAIN: return POSENC_CAUSE_ATTN_FACTOR;
    case MOD_DIRECTION: return POSENC_CAUSE_DIRECTION;
    case MOD_ROUND: break;
    }
    return POSENC_CAUSE_DTYPE_ROUNDING;
}

/* The rooms: two mods are tried together only from different rooms, and only
 * where a real engine makes both mistakes at once (the layout with anything;
 * the base with the scaling, as a layer of another type; either with the
 * attention factor or the positions). */
enum { ROOM_LAYOUT, ROOM_FREQ_BASE, ROOM_FREQ_SCALING, ROOM_GAIN, ROOM_POS, ROOM_OTHER };

static int room_of(const mod *m)
{
    switch (m->kind) {
    case MOD_LAYOUT_SWAP:
    case MOD_TABLE_OTHER:
    case MOD_PAIRS_OTHER: return ROOM_LAYOUT;
    case MOD_BASE: return ROOM_FREQ_BASE;
    case MOD_SCALING:
    case MOD_DYN_LEN:
    case MOD_LONGROPE: return ROOM_FREQ_SCALING;
    case MOD_GAIN: return ROOM_GAIN;
    case MOD_OFFSET: return ROOM_POS;
    default: return ROOM_OTHER;
    }
}

int posenc__mods_pair(const mod *a, const mod *b)
{
    int ra = room_of(a), rb = room_of(b);
    if (a->kind == MOD_ENVELOPE || b->kind == MOD_ENVELOPE || ra == rb)
        return 0;
    if (ra > rb) {
        int t = ra;
        ra = rb;
        rb = t;
    }
    if (ra == ROOM_LAYOUT)
        return 1;
    if (ra == ROOM_FREQ_BASE)
        return rb == ROOM_FREQ_SCALING || rb == ROOM_GAIN || rb == ROOM_POS;
    if (ra == ROOM_FREQ_SCALING)
        return rb == ROOM_GAIN || rb == ROOM_POS;
    return 0;
}

/* ---- the lists ------------------------------------------------------------------- */

typedef struct modlist {
    mod *v;
    size_t n, cap;
} modlist;

int posenc__grow(void **v, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return 1;
    size_t c = *cap ? *cap * 2 : 256;
    void *p = realloc(*v, c * elem);
    if (!p)
        return 0;
    *v = p;
    *cap = c;
    return 1;
}

static int push(modlist *l, mod_kind kind, int a, double v, int64_t len)
{
    if (!posenc__grow((void **)&l->v, &l->cap, l->n, sizeof *l->v))
        return 0;
    l->v[l->n++] = (mod){kind, a, v, len};
    return 1;
}

#define PUSH(l, k, a, v, len) do { if (!push((l), (k), (a), (v), (len))) return 0; } while (0)

/* Layouts, the angle envelope, position offsets +-1..+-16, +-2^5..+-2^20. */
static int mods_rotation(const search *S, modlist *l)
{
    if (!S->c->tables) {
        PUSH(l, MOD_LAYOUT_SWAP, 0, 0, 0);
        PUSH(l, MOD_TABLE_OTHER, 0, 0, 0);
        PUSH(l, MOD_PAIRS_OTHER, 0, 0, 0);
    } else if (S->c->tables == 2) {
        PUSH(l, MOD_TABLE_OTHER, 0, 0, 0);
    }
    PUSH(l, MOD_ENVELOPE, 0, 0, 0);
    for (int sgn = 1; sgn >= -1; sgn -= 2)
        for (int64_t m = 1; m <= (1 << 20); m = m < 16 ? m + 1 : m * 2)
            PUSH(l, MOD_OFFSET, 0, (double)(sgn * m), 0);
    return 1;
}

static int mods_bases(const search *S, modlist *l)
{
    static const double BASES[] = {1e4, 2e4, 5e4, 7.5e4, 1e5, 1.5e5, 2.5e5, 5e5, 6.4e5,
                                   1e6, 2e6, 5e6, 8e6, 1e7, 1e8};
    static const double TIMES[] = {0.1, 0.25, 0.5, 2, 4, 10};
    const size_t NB = sizeof BASES / sizeof BASES[0], NT = sizeof TIMES / sizeof TIMES[0];
    double tried[32];
    size_t n_tried = 0;
    for (size_t i = 0; i < NB + NT; i++) {
        double b = i < NB ? BASES[i] : S->cfg->base * TIMES[i - NB];
        int seen = b == S->cfg->base;
        for (size_t j = 0; j < n_tried; j++)
            seen |= tried[j] == b;
        if (seen)
            continue;
        tried[n_tried++] = b;
        PUSH(l, MOD_BASE, 0, b, 0);
    }
    return 1;
}

/* L: the model's original length, else max_position_embeddings, else 4096. */
static double orig_len(const posenc_rope_config *cfg)
{
    double L0 = cfg->scaling.original_max_position_embeddings;
    if (!(L0 >= 1))
        L0 = cfg->max_position_embeddings > 0 ? (double)cfg->max_position_embeddings : 4096;
    return L0;
}

static int mods_scalings(const search *S, modlist *l)
{
    const posenc_rope_config *cfg = S->cfg;
    posenc_rope_type mt = cfg->scaling.type;
    double L0 = orig_len(cfg);
    if (mt != POSENC_ROPE_DEFAULT || cfg->scaling.n_freq_factors)
        PUSH(l, MOD_SCALING, -1, 0, 0);
    static const double FACTORS[] = {2, 4, 8, 16, 32, 40, 64};
    static const posenc_rope_type TYPES[] = {POSENC_ROPE_LINEAR, POSENC_ROPE_NTK, POSENC_ROPE_DYNAMIC,
                                             POSENC_ROPE_YARN, POSENC_ROPE_LLAMA3};
    const size_t NF = sizeof FACTORS / sizeof FACTORS[0];
    for (size_t ti = 0; ti < sizeof TYPES / sizeof TYPES[0]; ti++)
        for (size_t fi = 0; fi <= NF; fi++) {
            double f = fi < NF ? FACTORS[fi] : cfg->scaling.factor;
            if (fi == NF) {
                int dup = 0;
                for (size_t j = 0; j < fi; j++)
                    dup |= FACTORS[j] == f;
                if (dup || !(f > 1))
                    continue;
            }
            if (TYPES[ti] == mt && f == cfg->scaling.factor)
                continue;
            PUSH(l, MOD_SCALING, (int)TYPES[ti], f, 0);
        }
    if (mt == POSENC_ROPE_DYNAMIC) {
        double lens[] = {(double)cfg->max_position_embeddings, L0, 2 * L0, 4 * L0, 8 * L0};
        for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
            int dup = !(lens[i] >= 1) || lens[i] > (double)POSENC_MAX_POS ||
                      (int64_t)lens[i] == S->seq_len;
            for (size_t j = 0; j < i; j++)
                dup |= lens[j] == lens[i];
            if (!dup)
                PUSH(l, MOD_DYN_LEN, 0, 0, (int64_t)lens[i]);
        }
    }
    if (mt == POSENC_ROPE_LONGROPE && L0 < (double)POSENC_MAX_POS) {
        int now_long = (double)S->seq_len > L0;
        PUSH(l, MOD_LONGROPE, !now_long, 0, now_long ? (int64_t)L0 : (int64_t)L0 + 1);
    }
    return 1;
}

/* Rotary dims, attention factors, direction, 16-bit roundings. */
static int mods_rest(const search *S, modlist *l)
{
    if (!S->c->tables)
        for (uint32_t r = 2; r <= S->cfg->head_dim; r += 2)
            if (r != S->cfg->rotary_dim)
                PUSH(l, MOD_ROTARY, 0, r, 0);
    double a = S->model->gain;
    double gains[] = {1, a * a, sqrt(a), S->gain_est[S->model->amodel]};
    for (size_t i = 0; i < sizeof gains / sizeof gains[0]; i++) {
        int dup = !(gains[i] > 0) || !isfinite(gains[i]) || gains[i] == a;
        for (size_t j = 0; j < i; j++)
            dup |= gains[j] == gains[i];
        if (!dup) /* a = 1: the engine's gain, estimated under the recipe's angle model */
            PUSH(l, MOD_GAIN, i == 3, gains[i], 0);
    }
    PUSH(l, MOD_DIRECTION, 0, 0, 0);
    for (int i = 0; i < 6; i++)
        PUSH(l, MOD_ROUND, i, 0, 0);
    return 1;
}

posenc_status posenc__mods_build(const search *S, mod **out, size_t *n)
{
    modlist l = {0};
    if (!mods_rotation(S, &l) || !mods_bases(S, &l) || !mods_scalings(S, &l) || !mods_rest(S, &l)) {
        free(l.v);
        return POSENC_ERR_NOMEM;
    }
    *out = l.v;
    *n = l.n;
    return POSENC_OK;
}

/* ---- params ---------------------------------------------------------------------- */

static const char *const ROUND_WORDS[] = {"cos-sin-bf16", "cos-sin-f16", "positions-bf16",
                                          "positions-f16", "inv-freq-bf16", "inv-freq-f16"};

void posenc__mod_params(const search *S, const mod *m, angle_model am, int64_t onset, char *buf,
                        size_t n)
{
    posenc_layout L = S->cfg->layout;
    switch (m->kind) {
    case MOD_LAYOUT_SWAP: snprintf(buf, n, "layout=%s", layout_word(other(L))); return;
    case MOD_TABLE_OTHER:
        snprintf(buf, n, "table=%s pairs=%s", layout_word(other(L)), layout_word(L));
        return;
    case MOD_PAIRS_OTHER:
        snprintf(buf, n, "table=%s pairs=%s", layout_word(L), layout_word(other(L)));
        return;
    case MOD_ENVELOPE: snprintf(buf, n, "onset=%lld", (long long)onset); return;
    case MOD_OFFSET: snprintf(buf, n, "c=%lld", (long long)m->v); return;
    case MOD_BASE: snprintf(buf, n, "base=%.10g", m->v); return;
    case MOD_SCALING:
        if (m->a < 0)
            snprintf(buf, n, "what=none");
        else
            snprintf(buf, n, "what=%s factor=%.10g", posenc_rope_type_name((posenc_rope_type)m->a), m->v);
        return;
    case MOD_DYN_LEN:
        snprintf(buf, n, "what=dynamic factor=%.10g len=%lld", S->cfg->scaling.factor, (long long)m->len);
        return;
    case MOD_LONGROPE: snprintf(buf, n, "set=%s", m->a ? "long" : "short"); return;
    case MOD_ROTARY: snprintf(buf, n, "rotary_dim=%u", (unsigned)m->v); return;
    case MOD_GAIN: snprintf(buf, n, "factor=%.7g", m->a ? S->gain_est[am] : m->v); return;
    case MOD_DIRECTION: buf[0] = '\0'; return;
    case MOD_ROUND: snprintf(buf, n, "what=%s", ROUND_WORDS[m->a]); return;
    }
    buf[0] = '\0';
}

/* ---- making a recipe predict ------------------------------------------------------- */

/* The configuration's changes of m into *c2 and *len; 0 when refused. */
static int apply_config(const search *S, const mod *m, posenc_rope_config *c2, int64_t *len)
{
    switch (m->kind) {
    case MOD_BASE: c2->base = m->v; return 1;
    case MOD_ROTARY: c2->rotary_dim = (uint32_t)m->v; return 1;
    case MOD_DYN_LEN:
    case MOD_LONGROPE: *len = m->len; return 1;
    case MOD_SCALING: {
        posenc_rope_type mt = S->cfg->scaling.type;
        double L0 = orig_len(S->cfg);
        if (m->a < 0)
            return posenc_rope_scaling_init(&c2->scaling, POSENC_ROPE_DEFAULT) == POSENC_OK;
        if (posenc_rope_scaling_init(&c2->scaling, (posenc_rope_type)m->a) != POSENC_OK)
            return 0;
        c2->scaling.factor = m->v;
        c2->scaling.original_max_position_embeddings = L0;
        if (m->a == POSENC_ROPE_LLAMA3) {
            c2->scaling.low_freq_factor = mt == POSENC_ROPE_LLAMA3 ? S->cfg->scaling.low_freq_factor : 1;
            c2->scaling.high_freq_factor = mt == POSENC_ROPE_LLAMA3 ? S->cfg->scaling.high_freq_factor : 4;
        }
        return 1;
    }
    default: return 1;
    }
}

/* The rotation's changes of m on h. */
static void apply_rotation(const search *S, const mod *m, angle_model am, hyp *h)
{
    posenc_layout L = S->cfg->layout;
    switch (m->kind) {
    case MOD_LAYOUT_SWAP: h->pairs = h->table = other(L); break;
    case MOD_TABLE_OTHER: h->table = other(L); break;
    case MOD_PAIRS_OTHER: h->pairs = other(L); break;
    case MOD_ENVELOPE: h->envelope = 1; break;
    case MOD_OFFSET: h->offset = (int64_t)m->v; break;
    case MOD_GAIN: h->gain = m->a ? S->gain_est[am] : m->v; break;
    case MOD_DIRECTION: h->sign = -1; break;
    case MOD_ROUND:
        if (m->a < 2)
            h->round_cs = m->a == 0 ? ROUND_BF16 : ROUND_F16;
        else if (m->a < 4)
            h->round_pos = m->a == 2 ? ROUND_BF16 : ROUND_F16;
        else
            h->round_freq = m->a == 4 ? ROUND_BF16 : ROUND_F16;
        break;
    default: break;
    }
}

static int config_mod(const mod *m)
{
    return m->kind == MOD_BASE || m->kind == MOD_ROTARY || m->kind == MOD_DYN_LEN ||
           m->kind == MOD_LONGROPE || m->kind == MOD_SCALING;
}

int posenc__materialize(const search *S, const spec *sp, hyp *h)
{
    *h = *S->model;
    h->is_model = 0;
    h->envelope = 0;
    int changes_config = sp->amodel != S->model->amodel;
    for (unsigned i = 0; i < sp->n_mod; i++)
        changes_config |= config_mod(&sp->m[i]);
    if (changes_config) {
        posenc_rope_config c2 = *S->cfg;
        int64_t len = S->seq_len;
        for (unsigned i = 0; i < sp->n_mod; i++)
            if (!apply_config(S, &sp->m[i], &c2, &len))
                return 0;
        int cfg_changed = 0;
        for (unsigned i = 0; i < sp->n_mod; i++)
            cfg_changed |= config_mod(&sp->m[i]);
        if (cfg_changed) {
            if (posenc_rope_init_config(&h->rope, &c2, len) != POSENC_OK)
                return 0;
            h->gain = h->rope.attn_factor;
        }
        posenc__engine_setup(h, sp->amodel, &c2);
        if (sp->amodel != S->model->amodel) /* another engine model: its own envelope */
            h->env_ulps = posenc__angle_model_env(sp->amodel);
    }
    for (unsigned i = 0; i < sp->n_mod; i++)
        apply_rotation(S, &sp->m[i], sp->amodel, h);
    return 1;
}
