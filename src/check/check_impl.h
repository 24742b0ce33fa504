/* check_impl.h - the rooms of posenc_check_run, shared inside src/check only.
 *
 *   engines.c  the dtypes' units and roundings (the bottom of the folder), and
 *              the engine arithmetic models: how an engine forms its angles
 *              (exact, float32 product, ggml's float32 chain) and its tables
 *   fit.c      one hypothesis' prediction of y and its error, token by token,
 *              in threads
 *   hyps.c     the hypotheses: the candidate mistakes (mods), each made into
 *              a predicting hypothesis on top of an engine model
 *   check.c    posenc_check_run: the verdict, then the staged search for a
 *              cause (alone, on another engine model, two together)
 *
 * A hypothesis predicts, for token position p and pair k,
 *     y = gain * R(theta(p, k)) x
 * with theta formed as its engine model forms it; a mod (a mistake) changes
 * the configuration (base, scaling, rotary dim, length), the positions, the
 * pairing, the sign, the gain or a rounding. Everything is computed in
 * double from the model's angle, which for a float32 model is the float the
 * engine would hold.
 *
 * Adding a mistake (the way the grader's slips of issue 32 are to come here:
 * integer exponent, single precision, one coordinate's sign, pair index
 * shifted, odd D with D - 1, a value used after it was overwritten, the base
 * ignored): a mod_kind, its cause (posenc__mod_cause), its room
 * (posenc__mods_pair), its params words, and either a configuration change
 * (apply_config: the frequencies follow from the library) or a rotation
 * change (apply_rotation: a field of hyp that posenc__angles /
 * posenc__predict read). The staged search, the collapse of equivalent
 * explanations and the nearest hypothesis then work for it unchanged. */
#ifndef POSENC_CHECK_IMPL_H
#define POSENC_CHECK_IMPL_H

#include "cpu.h"
#include "internal.h"
#include "posenc_check.h"

/* ---- engine models (engines.c) ---------------------------------------------------- */

/* How the angles are formed (the arithmetic, not the engine's name). */
typedef enum angle_model {
    ANGLE_EXACT = 0,       /* theta = pos * inv_freq, exact (double-double) */
    ANGLE_F32_PRODUCT = 1, /* theta = fl32(inv_freq_f32 * fl32(pos)): transformers' eager
                              float32 and a float32 cos/sin cache (vLLM) */
    ANGLE_GGML_CHAIN = 2,  /* ggml's CPU chain: theta_k = theta_{k-1} * theta_scale in
                              float32, then / freq_factor, * freq_scale, YaRN mix */
    ANGLE_N = 3
} angle_model;

const char *posenc__angle_model_name(angle_model m);

enum { ROUND_NONE = 0, ROUND_BF16 = 1, ROUND_F16 = 2 };

/* ggml's op arguments for one hypothesis, as llama.cpp derives them. */
typedef struct ggml_args {
    float theta_scale;     /* powf(freq_base, -2.0f / n_dims) */
    float freq_scale;      /* 1 / factor (linear, yarn), else 1 */
    float ext_factor;      /* 1 for yarn, else 0 */
    float corr[2];         /* yarn's correction dims (floorf / ceilf) */
    int has_ff;            /* freq_factors given (rope_freqs, LongRoPE's lists) */
    float ff[POSENC_ROPE_MAX_HEAD_DIM / 2];
} ggml_args;

/* A hypothesis made to predict: the model, or the model with mistakes. */
typedef struct hyp {
    int is_model;          /* the expectation itself (not a cause) */
    posenc_rope rope;      /* frequencies, rotary_dim, attn_factor */
    int64_t offset;        /* positions + c */
    posenc_layout pairs;   /* which elements form a pair */
    posenc_layout table;   /* which pair's angle cos/sin of an element carry */
    double sign;           /* +1, or -1 (direction) */
    double gain;           /* the factor on cos and sin */
    int round_cs, round_pos, round_freq;
    int envelope;          /* the generic angle-precision: 8 float32 ulps around exact */
    angle_model amodel;
    double env_ulps;       /* a float32 model's angle may move this many of its ulps */
    float inv32[POSENC_ROPE_MAX_HEAD_DIM / 2]; /* ANGLE_F32_PRODUCT: inv_freq in float32 */
    ggml_args g;           /* ANGLE_GGML_CHAIN */
    double fit;
} hyp;

/* Fills h's engine tables for angle model m from the configuration cfg whose
 * RoPE is h->rope (ANGLE_EXACT: nothing). */
void posenc__engine_setup(hyp *h, angle_model m, const posenc_rope_config *cfg);

/* The float32 angle of pair k at position p (possibly negative or rounded)
 * under h's float32 model, all k < P at once into th[]. */
void posenc__engine_angles(const hyp *h, double p, float *th);

/* The envelope of angle model m, float32 ulps of its angle (0: none). */
double posenc__angle_model_env(angle_model m);

/* The expectation of engine e: angle model, envelope and roundings. */
void posenc__engine_expect(posenc_check_engine e, angle_model *m, double *env_ulps,
                           int *round_cs, int *round_freq);

/* ---- fitting (fit.c) -------------------------------------------------------------- */

typedef struct ctx {
    size_t n_tok;
    uint32_t n_head, hd, R, P;
    posenc_layout layout;
    const int64_t *pos;
    const float *x, *y;    /* [n_tok][n_head][hd] (tables: converted) */
    int tables;            /* 1: half-width table, 2: full-width */
    double a;              /* the model's attention factor */
    int bits, emin;
    double tol;
    double *C, *S;         /* [R] angles' cos/sin of the hypothesis */
    double *E;             /* [R] each angle's envelope (radians), 0 = none */
    double *pred;          /* [hd] */
    double *unit;          /* [hd]: each element's ulp */
    size_t n_threads;
} ctx;

/* Where a hypothesis' largest error is. */
typedef struct worst_at {
    double err;
    size_t t;
    uint32_t head, pair;   /* pair of the model's layout (elements past the rotary part: P + i) */
    double sum2;           /* the sum of every element's squared error (ulps) */
    size_t n;              /* over this many elements */
} worst_at;

double posenc__unit_of(double v, int bits, int emin);
double posenc__round_sig(double v, int bits, int emin);

/* cos/sin of h at position p into c->C, c->S (and the envelope into c->E). */
void posenc__angles(ctx *c, const hyp *h, int64_t p);
/* h's prediction of head x into c->pred (angles already in c). */
void posenc__predict(ctx *c, const hyp *h, const float *x, const float *y, uint32_t head);
/* Largest error (ulps) of h on token t; *abs_out the largest |y - pred|;
 * w (may be NULL) gets where, when larger than w->err. */
double posenc__token_fit(ctx *c, const hyp *h, size_t t, double *abs_out, worst_at *w);

/* The largest error of h over n tokens (idx, or 0 .. n-1); per-token errors
 * into err and abs when not NULL; stops early past stop. w (may be NULL):
 * where the largest is. -1 when out of memory. */
double posenc__fit_tokens(const ctx *c, const hyp *h, const size_t *idx, size_t n, double *err,
                          double *abs, double stop, worst_at *w);

/* ---- hypotheses (hyps.c) ---------------------------------------------------------- */

/* One candidate mistake. */
typedef enum mod_kind {
    MOD_LAYOUT_SWAP, MOD_TABLE_OTHER, MOD_PAIRS_OTHER, MOD_ENVELOPE, MOD_OFFSET, MOD_BASE,
    MOD_SCALING, MOD_DYN_LEN, MOD_LONGROPE, MOD_ROTARY, MOD_GAIN, MOD_DIRECTION, MOD_ROUND
} mod_kind;

typedef struct mod {
    mod_kind kind;
    int a;                 /* SCALING: the type (-1: none); ROUND: which; LONGROPE: 1 long;
                              GAIN: 1 for the engine's least-squares gain under the
                              recipe's angle model (search.gain_est) */
    double v;              /* offset, base, factor, rotary_dim, gain */
    int64_t len;           /* DYN_LEN, LONGROPE: the length the RoPE is built for */
} mod;

/* A hypothesis as a recipe: up to two mods on an angle model. */
typedef struct spec {
    mod m[2];
    unsigned n_mod;
    angle_model amodel;
    unsigned n_cause;      /* the causes it names: its mods, and the angle model when
                              not the expected one (fewer is simpler, and first) */
    double fit;
    size_t order;          /* build order: ties keep it */
} spec;

typedef struct specs {
    spec *v;
    size_t n, cap;
} specs;

/* What the recipes are made from. */
typedef struct search {
    const posenc_rope_config *cfg; /* the model's configuration (tables: head_dim = R) */
    int64_t seq_len;
    const hyp *model;      /* the expectation */
    const ctx *c;
    double gain_est[ANGLE_N]; /* the engine's least-squares gain under each angle model */
} search;

/* Room for one more element in the array *v of *cap elements of elem bytes
 * holding n; 0 when out of memory (*v unchanged). */
int posenc__grow(void **v, size_t *cap, size_t n, size_t elem);

/* The single mistakes of the candidate lists (posenc_check.h), in order,
 * into *out (appended); POSENC_ERR_NOMEM. */
posenc_status posenc__mods_build(const search *S, mod **out, size_t *n);
/* The cause a mod names. */
posenc_check_cause_id posenc__mod_cause(const mod *m);
/* Whether two mods can be tried together (different rooms of the mistake). */
int posenc__mods_pair(const mod *a, const mod *b);
/* Makes recipe sp into a predicting hypothesis *h; 0 when the library
 * refuses its configuration (the recipe is dropped), 1 done. */
int posenc__materialize(const search *S, const spec *sp, hyp *h);
/* "c=1", "base=500000", ...; onset for the angle-precision words. */
void posenc__mod_params(const search *S, const mod *m, angle_model am, int64_t onset, char *buf,
                        size_t n);

#endif
