/* test_cov_scaling.c - the error paths and edge cases of src/scaling.c,
 * src/rope_vec.c and (when built with jansson) src/config.c: every
 * documented error status, and the places where a double-double value
 * decides a floor or a band where its double high part alone would not.
 * Expected values are hand-derived (the trace is written beside each check)
 * or come from mpmath at 300 bits (the numbers quoted in comments). */
#include "check.h"
#include "posenc_config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static posenc_rope rope;
static posenc_freq_info info[POSENC_ROPE_MAX_HEAD_DIM / 2];

/* ---- src/scaling.c ----------------------------------------------------------- */

TEST(names)
{
    posenc_rope_type t = POSENC_ROPE_YARN;
    CHECK(posenc_rope_type_parse(NULL, &t) == POSENC_ERR_NULL);
    CHECK(posenc_rope_type_parse("yarn", NULL) == POSENC_ERR_NULL);
    CHECK(posenc_rope_type_parse("Yarn", &t) == POSENC_ERR_RANGE); /* exact, lower case */
    CHECK(t == POSENC_ROPE_YARN);                                    /* untouched */
    CHECK(posenc_rope_type_parse("su", &t) == POSENC_OK && t == POSENC_ROPE_LONGROPE);
    CHECK(strcmp(posenc_rope_type_name((posenc_rope_type)7), "unknown") == 0);
    CHECK(strcmp(posenc_rope_type_name((posenc_rope_type)-1), "unknown") == 0);
    CHECK(strcmp(posenc_freq_band_name(POSENC_BAND_LIST), "list") == 0);
    CHECK(strcmp(posenc_freq_band_name((posenc_freq_band)5), "unknown") == 0);
    posenc_rope_scaling s;
    CHECK(posenc_rope_scaling_init(NULL, POSENC_ROPE_DEFAULT) == POSENC_ERR_NULL);
    CHECK(posenc_rope_scaling_init(&s, (posenc_rope_type)7) == POSENC_ERR_RANGE);
}

/* posenc_rope_init_scaled's own argument checks, each with the status posenc.h names. */
TEST(init_scaled_arguments)
{
    posenc_rope_scaling s;
    posenc_rope_scaling_init(&s, POSENC_ROPE_LINEAR);
    s.factor = 2.0;
    const posenc_layout H = POSENC_LAYOUT_HALF;
    CHECK(posenc_rope_init_scaled(NULL, 8, 8, 1e4, H, &s, 0) == POSENC_ERR_NULL);
    CHECK(posenc_rope_init_scaled(&rope, 0, 2, 1e4, H, &s, 0) == POSENC_ERR_DIM);
    CHECK(posenc_rope_init_scaled(&rope, POSENC_ROPE_MAX_HEAD_DIM + 1, 8, 1e4, H, &s, 0) ==
          POSENC_ERR_DIM);
    CHECK(posenc_rope_init_scaled(&rope, 8, 0, 1e4, H, &s, 0) == POSENC_ERR_RANGE);
    CHECK(posenc_rope_init_scaled(&rope, 8, 10, 1e4, H, &s, 0) == POSENC_ERR_RANGE);
    CHECK(posenc_rope_init_scaled(&rope, 8, 5, 1e4, H, &s, 0) == POSENC_ERR_RANGE);
    CHECK(posenc_rope_init_scaled(&rope, 8, 8, 1.0, H, &s, 0) == POSENC_ERR_BASE);
    CHECK(posenc_rope_init_scaled(&rope, 8, 8, 1e4, (posenc_layout)9, &s, 0) ==
          POSENC_ERR_LAYOUT);
    CHECK(posenc_rope_init_scaled(&rope, 8, 8, 1e4, H, &s, -1) == POSENC_ERR_POS);
    CHECK(posenc_rope_init_scaled(&rope, 8, 8, 1e4, H, &s, POSENC_MAX_POS + 2) == POSENC_ERR_POS);
    CHECK(posenc_rope_init_scaled(&rope, 8, 8, 1e4, H, &s, POSENC_MAX_POS + 1) == POSENC_OK);
    /* linear, factor 2: f(1) = 1e4^(-2/8) / 2 = 0.1 / 2 = 0.05 */
    CHECK_NEAR(rope.inv_freq_hi[1] + rope.inv_freq_lo[1], 0.05, 1e-17);
    /* *r untouched on error */
    memset(&rope, 0x5a, sizeof rope);
    s.factor = 0.5;
    CHECK(posenc_rope_init_scaled(&rope, 8, 8, 1e4, H, &s, 0) == POSENC_ERR_RANGE);
    CHECK(rope.head_dim == 0x5a5a5a5au);
}

/* One bad field of a valid scaling of type t per case, and the status it gives. */
typedef struct bad_field {
    posenc_rope_type type;
    const char *what;
    posenc_status want;
} bad_field;

static void set_valid(posenc_rope_scaling *s, posenc_rope_type t)
{
    static const double ones[4] = {1, 1, 1, 1};
    posenc_rope_scaling_init(s, t);
    s->factor = 4.0;
    s->original_max_position_embeddings = 4096.0;
    s->low_freq_factor = 1.0;
    s->high_freq_factor = 4.0;
    s->short_factor = s->long_factor = ones;
    s->n_short_factor = s->n_long_factor = 4;
}

static void spoil(posenc_rope_scaling *s, const char *what)
{
    static const double nan_list[4] = {1, NAN, 1, 1}, neg_list[4] = {1, 1, -1, 1};
    double inf = INFINITY;
    if (!strcmp(what, "attention_factor=nan")) s->attention_factor = NAN;
    else if (!strcmp(what, "attention_factor<0")) s->attention_factor = -1.0;
    else if (!strcmp(what, "type=7")) s->type = (posenc_rope_type)7;
    else if (!strcmp(what, "factor=inf")) s->factor = inf;
    else if (!strcmp(what, "factor<1")) s->factor = 0.99;
    else if (!strcmp(what, "factor=0")) s->factor = 0.0;
    else if (!strcmp(what, "L=inf")) s->original_max_position_embeddings = inf;
    else if (!strcmp(what, "L<1")) s->original_max_position_embeddings = 0.5;
    else if (!strcmp(what, "L=1")) s->original_max_position_embeddings = 1.0;
    else if (!strcmp(what, "beta_fast=inf")) s->beta_fast = inf;
    else if (!strcmp(what, "beta_slow=inf")) s->beta_slow = inf;
    else if (!strcmp(what, "beta_slow=0")) s->beta_slow = 0.0;
    else if (!strcmp(what, "beta_fast=beta_slow")) s->beta_fast = s->beta_slow;
    else if (!strcmp(what, "mscale=inf")) s->mscale = inf;
    else if (!strcmp(what, "mscale<0")) s->mscale = -0.5;
    else if (!strcmp(what, "mscale_all_dim=nan")) s->mscale_all_dim = NAN;
    else if (!strcmp(what, "mscale_all_dim<0")) s->mscale_all_dim = -0.5;
    else if (!strcmp(what, "low=inf")) s->low_freq_factor = inf;
    else if (!strcmp(what, "low=0")) s->low_freq_factor = 0.0;
    else if (!strcmp(what, "high=inf")) s->high_freq_factor = inf;
    else if (!strcmp(what, "high=low")) s->high_freq_factor = s->low_freq_factor;
    else if (!strcmp(what, "short=NULL")) s->short_factor = NULL;
    else if (!strcmp(what, "long=NULL")) s->long_factor = NULL;
    else if (!strcmp(what, "short n=3")) s->n_short_factor = 3;
    else if (!strcmp(what, "long nan")) s->long_factor = nan_list;
    else if (!strcmp(what, "short <0")) s->short_factor = neg_list;
    else if (!strcmp(what, "freq_factors n=2")) { s->freq_factors = nan_list; s->n_freq_factors = 2; }
    else if (!strcmp(what, "freq_factors nan")) { s->freq_factors = nan_list; s->n_freq_factors = 4; }
    else if (!strcmp(what, "freq_factors <0")) { s->freq_factors = neg_list; s->n_freq_factors = 4; }
    /* m(1e9, 1e308) = 0.1 * 1e308 * ln 1e9 + 1 = 2.07e308 overflows: the attention
     * factor comes out infinite */
    else if (!strcmp(what, "mscale=1e308")) { s->mscale = 1e308; s->mscale_all_dim = 1.0; s->factor = 1e9; }
    else CHECK(!"unknown spoil");
}

static const bad_field BAD_FIELDS[] = {
    {POSENC_ROPE_DEFAULT, "type=7", POSENC_ERR_RANGE},
    {POSENC_ROPE_DEFAULT, "attention_factor=nan", POSENC_ERR_RANGE},
    {POSENC_ROPE_DEFAULT, "attention_factor<0", POSENC_ERR_RANGE},
    {POSENC_ROPE_DEFAULT, "freq_factors n=2", POSENC_ERR_DIM},
    {POSENC_ROPE_DEFAULT, "freq_factors nan", POSENC_ERR_NOT_FINITE},
    {POSENC_ROPE_LINEAR, "freq_factors <0", POSENC_ERR_RANGE},
    {POSENC_ROPE_LINEAR, "factor=inf", POSENC_ERR_RANGE},
    {POSENC_ROPE_NTK, "factor<1", POSENC_ERR_RANGE},
    {POSENC_ROPE_DYNAMIC, "L=inf", POSENC_ERR_RANGE},
    {POSENC_ROPE_DYNAMIC, "L<1", POSENC_ERR_RANGE},
    {POSENC_ROPE_YARN, "beta_fast=inf", POSENC_ERR_RANGE},
    {POSENC_ROPE_YARN, "beta_slow=inf", POSENC_ERR_RANGE},
    {POSENC_ROPE_YARN, "beta_slow=0", POSENC_ERR_RANGE},
    {POSENC_ROPE_YARN, "beta_fast=beta_slow", POSENC_ERR_RANGE},
    {POSENC_ROPE_YARN, "mscale=inf", POSENC_ERR_RANGE},
    {POSENC_ROPE_YARN, "mscale<0", POSENC_ERR_RANGE},
    {POSENC_ROPE_YARN, "mscale_all_dim=nan", POSENC_ERR_RANGE},
    {POSENC_ROPE_YARN, "mscale_all_dim<0", POSENC_ERR_RANGE},
    {POSENC_ROPE_YARN, "mscale=1e308", POSENC_ERR_RANGE},
    {POSENC_ROPE_LLAMA3, "low=inf", POSENC_ERR_RANGE},
    {POSENC_ROPE_LLAMA3, "low=0", POSENC_ERR_RANGE},
    {POSENC_ROPE_LLAMA3, "high=inf", POSENC_ERR_RANGE},
    {POSENC_ROPE_LLAMA3, "high=low", POSENC_ERR_RANGE},
    {POSENC_ROPE_LONGROPE, "factor=0", POSENC_ERR_RANGE},
    {POSENC_ROPE_LONGROPE, "factor=inf", POSENC_ERR_RANGE},
    {POSENC_ROPE_LONGROPE, "L=1", POSENC_ERR_RANGE},
    {POSENC_ROPE_LONGROPE, "short=NULL", POSENC_ERR_NULL},
    {POSENC_ROPE_LONGROPE, "long=NULL", POSENC_ERR_NULL},
    {POSENC_ROPE_LONGROPE, "short n=3", POSENC_ERR_DIM},
    {POSENC_ROPE_LONGROPE, "long nan", POSENC_ERR_NOT_FINITE},
    {POSENC_ROPE_LONGROPE, "short <0", POSENC_ERR_RANGE},
};

TEST(bad_scaling_fields)
{
    for (size_t i = 0; i < sizeof BAD_FIELDS / sizeof BAD_FIELDS[0]; i++) {
        const bad_field *b = &BAD_FIELDS[i];
        posenc_rope_scaling s;
        set_valid(&s, b->type);
        CHECK(posenc_rope_init_scaled(&rope, 8, 8, 1e4, POSENC_LAYOUT_HALF, &s, 0) == POSENC_OK);
        spoil(&s, b->what);
        posenc_status a = posenc_rope_init_scaled(&rope, 8, 8, 1e4, POSENC_LAYOUT_HALF, &s, 0);
        posenc_freqs_summary sum = {.attn_factor = -7.0};
        posenc_status e = posenc_rope_explain_freqs(8, 1e4, &s, 0, info, &sum);
        if (a != b->want || e != b->want)
            fprintf(stderr, "%s %s: init %d explain %d, want %d\n",
                    posenc_rope_type_name(b->type), b->what, (int)a, (int)e, (int)b->want);
        CHECK(a == b->want && e == b->want);
        CHECK(sum.attn_factor == -7.0); /* nothing written on error */
    }
}

TEST(explain_arguments)
{
    posenc_freqs_summary sum;
    CHECK(posenc_rope_explain_freqs(0, 1e4, NULL, 0, info, &sum) == POSENC_ERR_RANGE);
    CHECK(posenc_rope_explain_freqs(POSENC_ROPE_MAX_HEAD_DIM + 2, 1e4, NULL, 0, info, &sum) ==
          POSENC_ERR_RANGE);
    CHECK(posenc_rope_explain_freqs(7, 1e4, NULL, 0, info, &sum) == POSENC_ERR_RANGE);
    CHECK(posenc_rope_explain_freqs(8, INFINITY, NULL, 0, info, &sum) == POSENC_ERR_BASE);
    CHECK(posenc_rope_explain_freqs(8, 1e4, NULL, -1, info, &sum) == POSENC_ERR_POS);
    /* NULL scaling = default; NULL summary is allowed: f(2) = 1e4^(-4/8) = 0.01 */
    memset(info, 0, sizeof info);
    CHECK(posenc_rope_explain_freqs(8, 1e4, NULL, 0, info, NULL) == POSENC_OK);
    CHECK(info[2].k == 2 && info[2].band == POSENC_BAND_UNIFORM && info[2].pair_factor == 1.0);
    CHECK_NEAR(info[2].inv_freq, 0.01, 1e-18);
    CHECK_NEAR(info[2].wavelength, 628.31853071795864769, 1e-12);
    /* NULL pairs: the summary alone */
    CHECK(posenc_rope_explain_freqs(8, 1e4, NULL, 0, NULL, &sum) == POSENC_OK);
    CHECK(sum.attn_factor == 1.0 && sum.effective_base == 1e4 && sum.len == 0);
}

/* YaRN attention factors: factor 1 gives m = 1; mscale without mscale_all_dim is
 * ignored (as Hugging Face), so m(s, 1) = 0.1 ln 4 + 1. */
TEST(yarn_attention_factor)
{
    posenc_rope_scaling s;
    posenc_freqs_summary sum;
    set_valid(&s, POSENC_ROPE_YARN);
    s.factor = 1.0;
    CHECK(posenc_rope_explain_freqs(8, 1e4, &s, 0, NULL, &sum) == POSENC_OK);
    CHECK(sum.attn_factor == 1.0);
    s.factor = 4.0;
    s.mscale = 0.707;
    CHECK(posenc_rope_explain_freqs(8, 1e4, &s, 0, NULL, &sum) == POSENC_OK);
    CHECK_NEAR(sum.attn_factor, 1.1386294361119890618834464242916, 1e-15);
}

/* YaRN's correction range at its edges (d = 8, base 1e4, beta_fast 32, beta_slow 1,
 * c(r) = 8 ln(L / (2 pi r)) / (2 ln 1e4) = 4 ln(L / (2 pi r)) / ln 1e4). */
TEST(yarn_range_edges)
{
    posenc_rope_scaling s;
    posenc_freqs_summary sum;
    set_valid(&s, POSENC_ROPE_YARN);
    /* L = 640 pi rounded to double = 2010.6192982974676: c(32) = 1 - 1.693e-17
     * (mpmath), whose double high part is exactly 1.0. The floor is 0, not 1:
     * taken on the double-double value. c(1) = 2.505 -> ceil 3. */
    s.original_max_position_embeddings = 2010.6192982974676;
    CHECK(posenc_rope_explain_freqs(8, 1e4, &s, 0, info, &sum) == POSENC_OK);
    CHECK(sum.band_lo == 0.0 && sum.band_hi == 3.0);
    CHECK(info[0].band == POSENC_BAND_HIGH && info[0].ramp == 0.0);
    CHECK(info[1].band == POSENC_BAND_BLEND);
    CHECK_NEAR(info[1].ramp, 1.0 / 3.0, 1e-16);
    /* f(1) = f0 (1 - 1/3) + f0/4 (1/3) = 0.1 * 0.75 */
    CHECK_NEAR(info[1].inv_freq, 0.075, 1e-17);
    CHECK(info[3].band == POSENC_BAND_LOW && info[3].ramp == 1.0);
    /* L = 100: c(32) = -0.30 -> floor -1 -> clamped to 0; c(1) = 1.20 -> 2 */
    s.original_max_position_embeddings = 100.0;
    CHECK(posenc_rope_explain_freqs(8, 1e4, &s, 0, NULL, &sum) == POSENC_OK);
    CHECK(sum.band_lo == 0.0 && sum.band_hi == 2.0);
    /* L = 64 pi 1e4^(7.5/4): c(32) = 7.5 -> 7, c(1) = 9.005 -> 10 -> d - 1 = 7:
     * lo == hi, so hi gets the paper's + 0.001; every pair k <= 3 < lo is kept. */
    s.original_max_position_embeddings = 6358136490.109505;
    CHECK(posenc_rope_explain_freqs(8, 1e4, &s, 0, info, &sum) == POSENC_OK);
    CHECK(sum.band_lo == 7.0 && sum.band_hi == 7.0 + 0.001);
    for (int k = 0; k < 4; k++)
        CHECK(info[k].band == POSENC_BAND_HIGH && info[k].inv_freq == info[k].base_inv_freq);
}

/* Llama 3's band edge taken on the double-double x = L f0 / (2 pi): with
 * high_freq_factor the double nearest to 8192 / (2 pi), pair 0 (f0 = 1) has
 * x - high_freq_factor = -8.0604e-14 (mpmath): below, so blended with
 * ramp = 1 - g = 8.0604e-14 / (hff - 1); with L = 8194, x - hff = +4.0335e-14:
 * above, kept. */
TEST(llama3_band_edge)
{
    posenc_rope_scaling s;
    set_valid(&s, POSENC_ROPE_LLAMA3);
    s.original_max_position_embeddings = 8192.0;
    s.high_freq_factor = 1303.7972938088067;
    CHECK(posenc_rope_explain_freqs(8, 1e4, &s, 0, info, NULL) == POSENC_OK);
    CHECK(info[0].band == POSENC_BAND_BLEND);
    CHECK_NEAR(info[0].ramp, 8.0604e-14 / (1303.7972938088067 - 1.0), 1e-20);
    s.original_max_position_embeddings = 8194.0;
    s.high_freq_factor = 1304.1156036949903;
    CHECK(posenc_rope_explain_freqs(8, 1e4, &s, 0, info, NULL) == POSENC_OK);
    CHECK(info[0].band == POSENC_BAND_HIGH && info[0].ramp == 0.0 && info[0].inv_freq == 1.0);
}

/* LongRoPE with factor <= 1: attention factor 1 (not sqrt(1 + ln s / ln L)). */
TEST(longrope_small_factor)
{
    posenc_rope_scaling s;
    posenc_freqs_summary sum;
    set_valid(&s, POSENC_ROPE_LONGROPE);
    s.factor = 0.5;
    CHECK(posenc_rope_explain_freqs(8, 1e4, &s, 5000, info, &sum) == POSENC_OK);
    CHECK(sum.attn_factor == 1.0 && sum.uses_long_factor == 1);
    CHECK(info[1].band == POSENC_BAND_LIST && info[1].pair_factor == 1.0);
}

TEST(config_scaling_and_init_config)
{
    static posenc_rope_config c;
    posenc_rope_scaling s;
    memset(&c, 0, sizeof c);
    c.head_dim = 8;
    c.rotary_dim = 8;
    c.base = 1e4;
    c.layout = POSENC_LAYOUT_HALF;
    posenc_rope_scaling_init(&c.scaling, POSENC_ROPE_DEFAULT);
    CHECK(posenc_rope_config_scaling(NULL, &s) == POSENC_ERR_NULL);
    CHECK(posenc_rope_config_scaling(&c, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_rope_init_config(&rope, NULL, 0) == POSENC_ERR_NULL);
    CHECK(posenc_rope_init_config(NULL, &c, 0) == POSENC_ERR_NULL);
    CHECK(posenc_rope_init_config(&rope, &c, 0) == POSENC_OK);
    CHECK(rope.inv_freq_hi[1] == 0.1 && rope.attn_factor == 1.0);
    /* counts past the arrays are reported as cap + 1, each on its own */
    const size_t cap = POSENC_ROPE_MAX_HEAD_DIM / 2;
    size_t counts[3][3] = {{cap + 5, 4, 0}, {4, cap + 1, 0}, {0, 0, (size_t)-1}};
    for (int i = 0; i < 3; i++) {
        c.scaling.n_short_factor = counts[i][0];
        c.scaling.n_long_factor = counts[i][1];
        c.scaling.n_freq_factors = counts[i][2];
        CHECK(posenc_rope_config_scaling(&c, &s) == POSENC_OK);
        for (int j = 0; j < 3; j++) {
            size_t got = j == 0 ? s.n_short_factor : j == 1 ? s.n_long_factor : s.n_freq_factors;
            CHECK(got == (counts[i][j] > cap ? cap + 1 : counts[i][j]));
        }
        CHECK(s.short_factor == (counts[i][0] ? c.short_factor : NULL));
        CHECK(s.freq_factors == (counts[i][2] ? c.freq_factors : NULL));
        /* the default type ignores longrope's lists, but freq_factors apply */
        CHECK(posenc_rope_init_config(&rope, &c, 0) ==
              (counts[i][2] ? POSENC_ERR_DIM : POSENC_OK));
    }
}

/* ---- src/rope_vec.c --------------------------------------------------------- */

/* A well-formed rotation with one field broken, and the status it must give. */
TEST(rope_vec_checks)
{
    posenc_rope r;
    CHECK(posenc_rope_init(&r, 8, 4, 1e4, POSENC_LAYOUT_HALF) == POSENC_OK);
    double x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, q[8] = {1, 0, 0, 0, 1, 1, 1, 1}, k[8] = {0};
    double out = -1.0;
    k[0] = 1.0;
    k[4] = 2.0;
    struct {
        int field;
        uint32_t value;
        posenc_status want;
    } cases[] = {
        {0, 0, POSENC_ERR_DIM},   {0, POSENC_ROPE_MAX_HEAD_DIM + 1, POSENC_ERR_DIM},
        {1, 0, POSENC_ERR_RANGE}, {1, 10, POSENC_ERR_RANGE}, {1, 3, POSENC_ERR_RANGE},
        {2, 7, POSENC_ERR_LAYOUT}, {3, 0, POSENC_ERR_RANGE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        posenc_rope b = r;
        if (cases[i].field == 0) b.head_dim = cases[i].value;
        if (cases[i].field == 1) b.rotary_dim = cases[i].value;
        if (cases[i].field == 2) b.layout = (posenc_layout)cases[i].value;
        if (cases[i].field == 3) b.attn_factor = NAN;
        CHECK(posenc_rope_vec_f64(&b, 1, 0, x) == cases[i].want);
        CHECK(posenc_rope_vec_dot_f64(&b, 1, 0, q, k, &out) == cases[i].want);
    }
    CHECK(x[0] == 1.0 && x[7] == 8.0 && out == -1.0);
    CHECK(posenc_rope_vec_f64(NULL, 1, 0, x) == POSENC_ERR_NULL);
    CHECK(posenc_rope_vec_f64(&r, 1, 0, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_rope_vec_f64(&r, POSENC_MAX_POS + 1, 0, x) == POSENC_ERR_POS);
    x[6] = INFINITY; /* outside the rotary part, still refused; x unchanged */
    CHECK(posenc_rope_vec_f64(&r, 1, 0, x) == POSENC_ERR_NOT_FINITE);
    CHECK(x[0] == 1.0 && x[2] == 3.0);
    x[6] = 7.0;
    CHECK(posenc_rope_vec_dot_f64(NULL, 1, 0, q, k, &out) == POSENC_ERR_NULL);
    CHECK(posenc_rope_vec_dot_f64(&r, 1, 0, NULL, k, &out) == POSENC_ERR_NULL);
    CHECK(posenc_rope_vec_dot_f64(&r, 1, 0, q, NULL, &out) == POSENC_ERR_NULL);
    CHECK(posenc_rope_vec_dot_f64(&r, 1, 0, q, k, NULL) == POSENC_ERR_NULL);
    CHECK(posenc_rope_vec_dot_f64(&r, -1, 0, q, k, &out) == POSENC_ERR_POS);
    CHECK(posenc_rope_vec_dot_f64(&r, 1, POSENC_MAX_POS + 1, q, k, &out) == POSENC_ERR_POS);
    k[5] = NAN;
    CHECK(posenc_rope_vec_dot_f64(&r, 1, 0, q, k, &out) == POSENC_ERR_NOT_FINITE);
    q[1] = NAN;
    CHECK(posenc_rope_vec_dot_f64(&r, 1, 0, q, k, &out) == POSENC_ERR_NOT_FINITE);
    CHECK(out == -1.0);
    /* The good path: rotary_dim 4 of 8, half layout, pairs (0,2) and (1,3) with
     * f = 1 and 0.01. q = e0 + e4..e7, k = e0 + 2 e4, m = 1, n = 0:
     * rotated part q . k = cos(1 * 1 - 0) = cos 1; pass-through part 1 * 2. */
    q[1] = 0.0;
    k[5] = 0.0;
    CHECK(posenc_rope_vec_dot_f64(&r, 1, 0, q, k, &out) == POSENC_OK);
    CHECK_NEAR(out, cos(1.0) + 2.0, 1e-15);
}

/* ---- src/config.c (only with jansson) --------------------------------------- */
#ifdef POSENC_HAVE_JSON

static posenc_rope_config cfg;

/* A config text, the status, the key and the whole detail the reader must give. */
typedef struct bad_config {
    const char *json;
    posenc_status st;
    const char *key, *detail;
} bad_config;

#define HD "{\"head_dim\": 8, "
static const bad_config BAD_CONFIGS[] = {
    /* the words for each JSON type */
    {HD "\"rope_theta\": {}}", POSENC_ERR_FORMAT, "rope_theta",
     "rope_theta must be a number, got an object"},
    {HD "\"rope_theta\": [1]}", POSENC_ERR_FORMAT, "rope_theta",
     "rope_theta must be a number, got an array"},
    {HD "\"rope_theta\": true}", POSENC_ERR_FORMAT, "rope_theta",
     "rope_theta must be a number, got a boolean"},
    {HD "\"rope_interleave\": 1}", POSENC_ERR_FORMAT, "rope_interleave",
     "rope_interleave must be true or false, got an integer"},
    {HD "\"rope_interleave\": 1.5}", POSENC_ERR_FORMAT, "rope_interleave",
     "rope_interleave must be true or false, got a number"},
    {HD "\"rope_interleave\": \"yes\"}", POSENC_ERR_FORMAT, "rope_interleave",
     "rope_interleave must be true or false, got a string"},
    /* the base */
    {HD "\"rope_parameters\": {\"rope_type\": \"default\", \"rope_theta\": \"1e4\"}}",
     POSENC_ERR_FORMAT, "rope_parameters.rope_theta",
     "rope_parameters.rope_theta must be a number, got a string"},
    {HD "\"rotary_emb_base\": false}", POSENC_ERR_FORMAT, "rotary_emb_base",
     "rotary_emb_base must be a number, got a boolean"},
    {HD "\"rope_theta\": 1}", POSENC_ERR_BASE, "rope_theta",
     "rope_theta must be finite and > 1, got 1"},
    /* the dimensions */
    {"{\"qk_rope_head_dim\": \"64\"}", POSENC_ERR_FORMAT, "qk_rope_head_dim",
     "qk_rope_head_dim must be a number, got a string"},
    {"{\"head_dim\": -8}", POSENC_ERR_FORMAT, "head_dim",
     "head_dim must be a non-negative integer, got -8"},
    {"{\"head_dim\": 1e16}", POSENC_ERR_FORMAT, "head_dim",
     "head_dim must be a non-negative integer, got 1e+16"},
    {"{\"head_dim\": 64.5}", POSENC_ERR_FORMAT, "head_dim",
     "head_dim must be a non-negative integer, got 64.5"},
    {"{\"hidden_size\": \"4096\", \"num_attention_heads\": 32}", POSENC_ERR_FORMAT,
     "hidden_size", "hidden_size must be a number, got a string"},
    {"{\"hidden_size\": 4096, \"num_attention_heads\": 3.5}", POSENC_ERR_FORMAT,
     "num_attention_heads", "num_attention_heads must be a non-negative integer, got 3.5"},
    {"{\"num_attention_heads\": 32}", POSENC_ERR_FORMAT, "hidden_size",
     "missing key hidden_size: the head size comes from head_dim or hidden_size / "
     "num_attention_heads"},
    {"{\"hidden_size\": 4096, \"num_attention_heads\": 0}", POSENC_ERR_FORMAT,
     "num_attention_heads", "num_attention_heads must be at least 1"},
    {"{\"hidden_size\": 64, \"num_attention_heads\": 64}", POSENC_ERR_DIM, "head_dim",
     "the head size 1 is outside 2..1024"},
    {"{\"head_dim\": 2048}", POSENC_ERR_DIM, "head_dim", "the head size 2048 is outside 2..1024"},
    {"{\"head_dim\": 64, \"qk_rope_head_dim\": 0}", POSENC_ERR_DIM, "qk_rope_head_dim",
     "the head size 0 is outside 2..1024"},
    {HD "\"rope_parameters\": {\"rope_type\": \"default\", \"partial_rotary_factor\": null, "
        "\"rope_theta\": 1e4}, \"partial_rotary_factor\": [0.5]}",
     POSENC_ERR_FORMAT, "partial_rotary_factor",
     "partial_rotary_factor must be a number, got an array"},
    {HD "\"rope_parameters\": {\"rope_type\": \"default\", \"partial_rotary_factor\": \"0.5\"}}",
     POSENC_ERR_FORMAT, "rope_parameters.partial_rotary_factor",
     "rope_parameters.partial_rotary_factor must be a number, got a string"},
    {HD "\"rope_parameters\": {\"rope_type\": \"default\", \"partial_rotary_factor\": 0}}",
     POSENC_ERR_RANGE, "rope_parameters.partial_rotary_factor",
     "rope_parameters.partial_rotary_factor must be in (0, 1], got 0"},
    {HD "\"rotary_pct\": true}", POSENC_ERR_FORMAT, "rotary_pct",
     "rotary_pct must be a number, got a boolean"},
    {HD "\"partial_rotary_factor\": 1.5}", POSENC_ERR_RANGE, "partial_rotary_factor",
     "partial_rotary_factor must be in (0, 1], got 1.5"},
    {HD "\"max_position_embeddings\": \"4k\"}", POSENC_ERR_FORMAT, "max_position_embeddings",
     "max_position_embeddings must be a number, got a string"},
    {HD "\"original_max_position_embeddings\": -1}", POSENC_ERR_FORMAT,
     "original_max_position_embeddings",
     "original_max_position_embeddings must be a non-negative integer, got -1"},
    /* features and blocks */
    {HD "\"use_dynamic_ntk\": true}", POSENC_ERR_FORMAT, "use_dynamic_ntk",
     "key use_dynamic_ntk changes RoPE in a way posenc does not implement"},
    {HD "\"use_logn_attn\": 1}", POSENC_ERR_FORMAT, "use_logn_attn",
     "key use_logn_attn changes RoPE in a way posenc does not implement"},
    {HD "\"rope_parameters\": {\"rope_type\": \"default\"}, \"rope_scaling\": {\"type\": "
        "\"default\"}}",
     POSENC_ERR_FORMAT, "rope_parameters",
     "both rope_parameters and rope_scaling are given: which one applies is ambiguous"},
    {HD "\"rope_scaling\": \"linear\"}", POSENC_ERR_FORMAT, "rope_scaling",
     "rope_scaling must be an object or null, got a string"},
    {HD "\"rope_parameters\": [1]}", POSENC_ERR_FORMAT, "rope_parameters",
     "rope_parameters must be an object or null, got an array"},
    /* the type */
    {HD "\"rope_scaling\": {\"rope_type\": 5}}", POSENC_ERR_FORMAT, "rope_scaling.rope_type",
     "rope_scaling.rope_type must be a string, got an integer"},
    {HD "\"rope_scaling\": {\"rope_type\": null, \"type\": false}}", POSENC_ERR_FORMAT,
     "rope_scaling.type", "rope_scaling.type must be a string, got a boolean"},
    {HD "\"rope_scaling\": {\"rope_type\": \"linear\", \"type\": 2, \"factor\": 2}}",
     POSENC_ERR_FORMAT, "rope_scaling.type",
     "rope_scaling.type and rope_scaling.rope_type disagree"},
    {HD "\"rope_parameters\": {\"type\": null}}", POSENC_ERR_FORMAT, "rope_parameters.rope_type",
     "missing key rope_parameters.rope_type (or type)"},
    {HD "\"rope_scaling\": {\"type\": \"yarn\", \"factor\": 2, "
        "\"original_max_position_embeddings\": \"4096\"}}",
     POSENC_ERR_FORMAT, "rope_scaling.original_max_position_embeddings",
     "rope_scaling.original_max_position_embeddings must be a number, got a string"},
    {HD "\"rope_scaling\": {\"type\": \"yarn\", \"factor\": 2, \"attention_factor\": [], "
        "\"original_max_position_embeddings\": 4096}}",
     POSENC_ERR_FORMAT, "rope_scaling.attention_factor",
     "rope_scaling.attention_factor must be a number, got an array"},
    /* dynamic */
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"dynamic\"}}",
     POSENC_ERR_FORMAT, "rope_scaling.factor", "missing key rope_scaling.factor"},
    {HD "\"rope_scaling\": {\"type\": \"dynamic\", \"factor\": 2}}", POSENC_ERR_FORMAT,
     "max_position_embeddings",
     "missing key max_position_embeddings (dynamic NTK's trained length)"},
    /* yarn */
    {HD "\"rope_scaling\": {\"type\": \"yarn\", \"factor\": 4}}", POSENC_ERR_FORMAT,
     "rope_scaling.original_max_position_embeddings",
     "missing key rope_scaling.original_max_position_embeddings (or max_position_embeddings)"},
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"yarn\", \"factor\": "
        "\"4\"}}",
     POSENC_ERR_FORMAT, "rope_scaling.factor",
     "rope_scaling.factor must be a number, got a string"},
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"yarn\"}}",
     POSENC_ERR_FORMAT, "rope_scaling.factor", "missing key rope_scaling.factor"},
    {HD "\"rope_scaling\": {\"type\": \"yarn\", \"original_max_position_embeddings\": 4096}}",
     POSENC_ERR_FORMAT, "rope_scaling.factor", "missing key rope_scaling.factor"},
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"yarn\", \"factor\": "
        "4, \"beta_fast\": \"32\"}}",
     POSENC_ERR_FORMAT, "rope_scaling.beta_fast",
     "rope_scaling.beta_fast must be a number, got a string"},
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"yarn\", \"factor\": "
        "4, \"beta_slow\": {}}}",
     POSENC_ERR_FORMAT, "rope_scaling.beta_slow",
     "rope_scaling.beta_slow is an object: per-layer-type RoPE parameters are not supported"},
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"yarn\", \"factor\": "
        "4, \"beta_slow\": true}}",
     POSENC_ERR_FORMAT, "rope_scaling.beta_slow",
     "rope_scaling.beta_slow must be a number, got a boolean"},
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"yarn\", \"factor\": "
        "4, \"mscale\": \"1\"}}",
     POSENC_ERR_FORMAT, "rope_scaling.mscale", "rope_scaling.mscale must be a number, got a string"},
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"yarn\", \"factor\": "
        "4, \"mscale_all_dim\": [0]}}",
     POSENC_ERR_FORMAT, "rope_scaling.mscale_all_dim",
     "rope_scaling.mscale_all_dim must be a number, got an array"},
    /* llama3 */
    {HD "\"rope_scaling\": {\"rope_type\": \"llama3\", \"low_freq_factor\": 1, "
        "\"high_freq_factor\": 4, \"original_max_position_embeddings\": 8192}}",
     POSENC_ERR_FORMAT, "rope_scaling.factor", "missing key rope_scaling.factor"},
    {HD "\"rope_scaling\": {\"rope_type\": \"llama3\", \"factor\": 8, "
        "\"high_freq_factor\": 4, \"original_max_position_embeddings\": 8192}}",
     POSENC_ERR_FORMAT, "rope_scaling.low_freq_factor", "missing key rope_scaling.low_freq_factor"},
    {HD "\"rope_scaling\": {\"rope_type\": \"llama3\", \"factor\": 8, \"low_freq_factor\": 1, "
        "\"high_freq_factor\": 4}}",
     POSENC_ERR_FORMAT, "rope_scaling.original_max_position_embeddings",
     "missing key rope_scaling.original_max_position_embeddings"},
    /* longrope (head_dim 8: 4 values per list) */
    {HD "\"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": [1, 1, 1, 1]}}",
     POSENC_ERR_FORMAT, "rope_scaling.long_factor",
     "missing key rope_scaling.long_factor (longrope needs it)"},
    {HD "\"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": null, \"long_factor\": "
        "[1, 1, 1, 1]}}",
     POSENC_ERR_FORMAT, "rope_scaling.short_factor",
     "missing key rope_scaling.short_factor (longrope needs it)"},
    {HD "\"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": \"1,1,1,1\"}}",
     POSENC_ERR_FORMAT, "rope_scaling.short_factor",
     "rope_scaling.short_factor must be an array of numbers, got a string"},
    {HD "\"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": [1, null, 1, 1]}}",
     POSENC_ERR_FORMAT, "rope_scaling.short_factor",
     "rope_scaling.short_factor[1] must be a number, got null"},
    {HD "\"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": [1, 1, 1, 1], "
        "\"long_factor\": [1, 1, 1, 1]}}",
     POSENC_ERR_FORMAT, "original_max_position_embeddings",
     "missing key original_max_position_embeddings (or max_position_embeddings)"},
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"longrope\", "
        "\"short_factor\": [1, 1, 1, 1], \"long_factor\": [1, 1, 1, 1], \"factor\": \"2\"}}",
     POSENC_ERR_FORMAT, "rope_scaling.factor", "rope_scaling.factor must be a number, got a string"},
    /* values the reader passes on and posenc_rope_init_config refuses */
    {HD "\"max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"longrope\", "
        "\"short_factor\": [1, 0, 1, 1], \"long_factor\": [1, 1, 1, 1]}}",
     POSENC_ERR_RANGE, "rope_scaling",
     "the RoPE parameters in rope_scaling are out of range: argument out of range (a value "
     "past its limit, or one that makes a frequency 0, infinite or NaN)"},
};
#undef HD

TEST(broken_config_texts)
{
    for (size_t i = 0; i < sizeof BAD_CONFIGS / sizeof BAD_CONFIGS[0]; i++) {
        const bad_config *b = &BAD_CONFIGS[i];
        posenc_config_error err;
        memset(&cfg, 0x33, sizeof cfg);
        posenc_status st = posenc_rope_from_config_text(b->json, strlen(b->json), &cfg, &err);
        int ok = st == b->st && strcmp(err.key, b->key) == 0 && strcmp(err.detail, b->detail) == 0;
        if (!ok)
            fprintf(stderr, "bad config %zu: status %d key '%s' detail '%s'\n", i, (int)st,
                    err.key, err.detail);
        CHECK(ok);
        CHECK(err.line == 0 && err.column == 0);
        CHECK(cfg.head_dim == 0x33333333u); /* untouched on error */
        /* the same without a place for the message: the same status */
        CHECK(posenc_rope_from_config_text(b->json, strlen(b->json), &cfg, NULL) == b->st);
    }
}

static posenc_status read_text(const char *json)
{
    posenc_config_error err;
    memset(&cfg, 0, sizeof cfg);
    posenc_status st = posenc_rope_from_config_text(json, strlen(json), &cfg, &err);
    if (st != POSENC_OK)
        fprintf(stderr, "config %s: %s\n", json, err.detail);
    return st;
}

/* Accepted forms, each read back by hand. */
TEST(accepted_config_forms)
{
    /* null means absent: the default base; a false refused feature is no feature */
    CHECK(read_text("{\"head_dim\": 8, \"rope_theta\": null, \"use_logn_attn\": false, "
                    "\"rope_local_base_freq\": null, \"rope_scaling\": null, "
                    "\"rope_parameters\": null, \"rope_interleave\": null}") == POSENC_OK);
    CHECK(cfg.base == 10000.0 && cfg.head_dim == 8 && cfg.rotary_dim == 8);
    CHECK(cfg.layout == POSENC_LAYOUT_HALF && cfg.scaling.type == POSENC_ROPE_DEFAULT);
    /* GPT-NeoX's names; rope_interleave true; rope_scaling null beside rope_parameters */
    CHECK(read_text("{\"hidden_size\": 6144, \"num_attention_heads\": 64, \"rotary_emb_base\": "
                    "500000, \"rotary_pct\": 0.25, \"rope_interleave\": true}") == POSENC_OK);
    CHECK(cfg.head_dim == 96 && cfg.rotary_dim == 24 && cfg.base == 500000.0);
    CHECK(cfg.layout == POSENC_LAYOUT_INTERLEAVED);
    /* rope_parameters with rope_theta and partial_rotary_factor inside, type "default" */
    CHECK(read_text("{\"head_dim\": 64, \"rope_scaling\": null, \"rope_parameters\": "
                    "{\"rope_type\": \"default\", \"rope_theta\": 1e6, \"partial_rotary_factor\": "
                    "0.5}, \"partial_rotary_factor\": 0.25}") == POSENC_OK);
    CHECK(cfg.base == 1e6 && cfg.rotary_dim == 32 && cfg.scaling.type == POSENC_ROPE_DEFAULT);
    /* both type names, the same */
    CHECK(read_text("{\"head_dim\": 8, \"rope_scaling\": {\"rope_type\": \"linear\", \"type\": "
                    "\"linear\", \"factor\": 2}}") == POSENC_OK);
    CHECK(cfg.scaling.type == POSENC_ROPE_LINEAR && cfg.scaling.factor == 2.0);
    /* dynamic: the block's L may repeat max_position_embeddings */
    CHECK(read_text("{\"head_dim\": 8, \"max_position_embeddings\": 4096, \"rope_scaling\": "
                    "{\"type\": \"dynamic\", \"factor\": 2, \"original_max_position_embeddings\": "
                    "4096}}") == POSENC_OK);
    CHECK(cfg.scaling.original_max_position_embeddings == 4096.0);
    /* yarn without factor: max_position_embeddings / L = 16384 / 4096; beta 0 = default */
    CHECK(read_text("{\"head_dim\": 8, \"max_position_embeddings\": 16384, \"rope_scaling\": "
                    "{\"type\": \"yarn\", \"original_max_position_embeddings\": 4096, "
                    "\"beta_fast\": 0, \"beta_slow\": 0, \"truncate\": null}}") == POSENC_OK);
    CHECK(cfg.scaling.factor == 4.0 && cfg.scaling.beta_fast == 32.0 &&
          cfg.scaling.beta_slow == 1.0 && cfg.scaling.truncate == 1);
    /* longrope without factor or max_position_embeddings: factor 1, attention 1 */
    CHECK(read_text("{\"head_dim\": 8, \"original_max_position_embeddings\": 4096, "
                    "\"rope_scaling\": {\"type\": \"su\", \"short_factor\": [1, 2, 3, 4], "
                    "\"long_factor\": [5, 6, 7, 8]}}") == POSENC_OK);
    CHECK(cfg.scaling.type == POSENC_ROPE_LONGROPE && cfg.scaling.factor == 1.0);
    CHECK(cfg.scaling.original_max_position_embeddings == 4096.0);
    CHECK(cfg.short_factor[3] == 4.0 && cfg.long_factor[0] == 5.0);
}

TEST(config_arguments)
{
    posenc_config_error err;
    const char *j = "{\"head_dim\": 8}";
    CHECK(posenc_rope_from_config_text(NULL, 3, &cfg, &err) == POSENC_ERR_NULL);
    CHECK(posenc_rope_from_config_text(j, strlen(j), NULL, &err) == POSENC_ERR_NULL);
    CHECK(posenc_rope_from_config_text(j, strlen(j), &cfg, NULL) == POSENC_OK);
    CHECK(cfg.head_dim == 8);
    /* bad JSON without err: only the status; len counts, no NUL needed */
    CHECK(posenc_rope_from_config_text(j, strlen(j) - 1, &cfg, NULL) == POSENC_ERR_FORMAT);
    CHECK(posenc_rope_from_config("tests/data/llama-2-7b.json", NULL, &err) == POSENC_ERR_NULL);
    /* a directory opens but cannot be read */
    CHECK(posenc_rope_from_config("tests/data", &cfg, &err) == POSENC_ERR_IO);
    CHECK(strcmp(err.detail, "error reading tests/data") == 0 && err.key[0] == '\0');
}

/* The 64 MiB limit of a config file: a sparse file of exactly 67108864 bytes
 * is read whole (and then refused as JSON: NUL bytes), one byte more is
 * refused by size. */
TEST(config_size_limit)
{
    char path[] = "/tmp/posenc-cov-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    posenc_config_error err;
    const off_t limit = 64 * 1024 * 1024;
    CHECK(ftruncate(fd, limit) == 0);
    CHECK(posenc_rope_from_config(path, &cfg, &err) == POSENC_ERR_FORMAT);
    CHECK(strncmp(err.detail, "invalid JSON at line 1, column ", 31) == 0);
    CHECK(ftruncate(fd, limit + 1) == 0);
    CHECK(posenc_rope_from_config(path, &cfg, &err) == POSENC_ERR_FORMAT);
    char want[128];
    snprintf(want, sizeof want, "%s is larger than 67108864 bytes", path);
    CHECK(strcmp(err.detail, want) == 0);
    close(fd);
    unlink(path);
}
#endif /* POSENC_HAVE_JSON */

int main(void)
{
    RUN(names);
    RUN(init_scaled_arguments);
    RUN(bad_scaling_fields);
    RUN(explain_arguments);
    RUN(yarn_attention_factor);
    RUN(yarn_range_edges);
    RUN(llama3_band_edge);
    RUN(longrope_small_factor);
    RUN(config_scaling_and_init_config);
    RUN(rope_vec_checks);
#ifdef POSENC_HAVE_JSON
    RUN(broken_config_texts);
    RUN(accepted_config_forms);
    RUN(config_arguments);
    RUN(config_size_limit);
#else
    check_skip("test_cov_scaling", 4, "the config reader's checks: built without jansson",
               "libjansson-dev");
#endif
    return check_summary("test_cov_scaling");
}
