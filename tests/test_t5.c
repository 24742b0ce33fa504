/* test_t5.c - T5 relative position buckets and their bias tensor, against
 *   - tests/data/t5_buckets.txt (tools/gen_t5_golden.py: mpmath alone, the
 *     float32 steps rounded to 24 bits and the exact formula at 60 digits),
 *     every distance 0 .. 10^6, both directions, both modes;
 *   - a reference written here from the Python code, with the log taken in
 *     long double and rounded to float, and the exact formula in long double;
 *   - hand-worked buckets. */
#include "check.h"
#include "capped.h"
#include "posenc.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#define N_MAX 1000000
#define Q0 1000000 /* the query's position in the sweeps: keys Q0 - n and Q0 + n */

/* ---- the reference ------------------------------------------------------------- */

/* Written from modeling_t5.py L210-234 with rel = key - query. */
static uint32_t ref_bucket(int64_t rel, uint32_t num_buckets, uint32_t max_distance, int bidir,
                           int exact)
{
    uint32_t half = bidir ? num_buckets / 2 : num_buckets;
    uint32_t base = 0;
    int64_t n;
    if (bidir) {
        base = rel > 0 ? half : 0;
        n = rel > 0 ? rel : -rel;
    } else {
        n = rel < 0 ? -rel : 0;
    }
    uint32_t me = half / 2;
    if (n < (int64_t)me)
        return base + (uint32_t)n;
    long double v;
    if (exact) {
        v = logl((long double)n / me) / logl((long double)max_distance / me) * (half - me);
    } else {
        volatile float a = (float)n;
        a = a / (float)me;
        volatile float l = (float)logl((long double)a);
        volatile float c = (float)(double)logl((long double)(double)((double)max_distance / me));
        volatile float q = l / c;
        volatile float w = q * (float)(half - me);
        v = w;
    }
    int64_t b = (int64_t)me + (int64_t)floorl(v);
    if (b > (int64_t)half - 1)
        b = half - 1;
    return base + (uint32_t)b;
}

/* ---- the golden file ----------------------------------------------------------- */

typedef struct setting {
    uint32_t nb, md;
} setting;

static const setting SETTINGS[] = {{32, 128}, {128, 128}, {32, 256}, {48, 200}, {64, 1000},
                                   {33, 128}, {31, 100},  {7, 20},   {65, 300}};
#define N_SETTINGS (sizeof SETTINGS / sizeof SETTINGS[0])

/* Expands the runs that follow a "setting" line into b[0 .. N_MAX]. */
static int read_runs(FILE *f, int count, uint8_t *b)
{
    long start = -1;
    int bucket = 0;
    for (int r = 0; r < count; r++) {
        long n;
        int next;
        if (fscanf(f, "%ld %d", &n, &next) != 2 || n <= start || n > N_MAX || next < 0 ||
            next > 255 || (r == 0 && n != 0))
            return 0;
        for (long k = start; k >= 0 && k < n; k++)
            b[k] = (uint8_t)bucket;
        start = n;
        bucket = next;
    }
    for (long k = start; k >= 0 && k <= N_MAX; k++)
        b[k] = (uint8_t)bucket;
    return start >= 0;
}

TEST(every_distance_matches_the_mpmath_golden_file)
{
    FILE *f = fopen("tests/data/t5_buckets.txt", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char magic[32];
    int version = 0, ch;
    CHECK(fscanf(f, "%31s %d", magic, &version) == 2);
    CHECK(strcmp(magic, "posenc-t5-buckets") == 0 && version == 1);
    while ((ch = fgetc(f)) != EOF && ch != '\n')
        ;
    CHECK(fgetc(f) == '#'); /* the provenance line */
    while ((ch = fgetc(f)) != EOF && ch != '\n')
        ;
    uint8_t *want = malloc(N_MAX + 1), *exact = malloc(N_MAX + 1);
    CHECK(want && exact);
    if (!want || !exact)
        return;
    int blocks = 0, mismatches = 0, exact_differs = 0;
    for (size_t s = 0; s < N_SETTINGS; s++)
        for (int bidir = 1; bidir >= 0; bidir--) {
            unsigned nb, md, bd, cnt;
            char kind[8];
            CHECK(fscanf(f, " setting %u %u %u %7s %u", &nb, &md, &bd, kind, &cnt) == 5);
            CHECK(nb == SETTINGS[s].nb && md == SETTINGS[s].md && (int)bd == bidir &&
                  strcmp(kind, "f32") == 0);
            CHECK(read_runs(f, (int)cnt, want));
            CHECK(fscanf(f, " setting %u %u %u %7s %u", &nb, &md, &bd, kind, &cnt) == 5);
            CHECK(strcmp(kind, "exact") == 0);
            CHECK(read_runs(f, (int)cnt, exact));
            blocks += 2;
            uint32_t half = bidir ? nb / 2 : nb;
            for (int64_t n = 0; n <= N_MAX; n++) {
                uint32_t before, after;
                /* key n before the query, and n after it */
                CHECK(posenc_t5_bucket(Q0, Q0 - n, nb, md, bidir, &before) == POSENC_OK);
                CHECK(posenc_t5_bucket(Q0, Q0 + n, nb, md, bidir, &after) == POSENC_OK);
                uint32_t want_after = bidir ? (n == 0 ? 0 : half + want[n]) : 0;
                if (before != want[n] || after != want_after) {
                    if (mismatches++ < 5)
                        fprintf(stderr, "nb=%u md=%u bidir=%d n=%lld: got %u/%u, golden %u/%u\n",
                                nb, md, bidir, (long long)n, before, after, want[n], want_after);
                }
                exact_differs += want[n] != exact[n];
            }
        }
    CHECK_EQ_INT(mismatches, 0);
    /* docs/SCHEMES.md says the exact formula never picks another bucket for these */
    CHECK_EQ_INT(exact_differs, 0);
    CHECK_EQ_INT(blocks, 4 * (int)N_SETTINGS);
    char tail[8] = "";
    CHECK(fscanf(f, "%7s", tail) == 1 && strcmp(tail, "end") == 0);
    CHECK(fscanf(f, "%7s", tail) == EOF); /* the whole file was read */
    fclose(f);
    free(want);
    free(exact);
}

/* The reference here, for the golden settings and a few more. */
TEST(every_distance_matches_the_long_double_reference)
{
    static const setting more[] = {{32, 128}, {128, 128}, {32, 256}, {48, 200}, {64, 1000},
                                   {33, 128}, {31, 100},  {7, 20},   {65, 300}, {4, 2},
                                   {5, 9},    {3, 1000},  {129, 4096}, {1000, 100000}};
    int mismatches = 0, exact_differs = 0;
    for (size_t s = 0; s < sizeof more / sizeof more[0]; s++)
        for (int bidir = 0; bidir <= 1; bidir++) {
            uint32_t nb = more[s].nb, md = more[s].md;
            if ((bidir ? nb / 2 : nb) / 2 < 1 || md <= (bidir ? nb / 2 : nb) / 2)
                continue;
            uint32_t half = bidir ? nb / 2 : nb;
            /* to 10^5 (the golden file covers 10^6 for the settings) */
            int64_t top = N_MAX / 10;
            for (int64_t n = 0; n <= top; n++) {
                /* the reference at distance n (key before the query); a key
                 * after it has the same distance bucket on the other side
                 * (bidirectional) or bucket 0 (causal) */
                uint32_t want = ref_bucket(-n, nb, md, bidir, 0);
                uint32_t want_after = bidir && n > 0 ? half + want : 0;
                uint32_t before, after;
                CHECK(posenc_t5_bucket(Q0, Q0 - n, nb, md, bidir, &before) == POSENC_OK);
                CHECK(posenc_t5_bucket(Q0, Q0 + n, nb, md, bidir, &after) == POSENC_OK);
                if ((before != want || after != want_after) && mismatches++ < 5)
                    fprintf(stderr, "nb=%u md=%u bidir=%d n=%lld: got %u/%u, want %u/%u\n", nb,
                            md, bidir, (long long)n, before, after, want, want_after);
                /* the settings of the issue: exact would agree (past md both
                 * are the last bucket: exact v >= nb' - max_exact there) */
                if (s < N_SETTINGS && n <= 2 * (int64_t)md)
                    exact_differs += want != ref_bucket(-n, nb, md, bidir, 1);
            }
        }
    CHECK_EQ_INT(mismatches, 0);
    CHECK_EQ_INT(exact_differs, 0);
}

/* The float32 log the library takes is the correctly rounded one: the long
 * double log rounded once gives the same float for every argument reached
 * up to 2 max_distance (farther, every computation is in the last bucket). */
TEST(the_float_log_is_correctly_rounded_where_it_is_used)
{
    int bad = 0;
    for (size_t s = 0; s < N_SETTINGS; s++)
        for (int bidir = 0; bidir <= 1; bidir++) {
            uint32_t half = bidir ? SETTINGS[s].nb / 2 : SETTINGS[s].nb, me = half / 2;
            for (int64_t n = me; n <= 2 * (int64_t)SETTINGS[s].md; n++) {
                float a = (float)n / (float)me;
                float want = (float)logl((long double)a);
                if ((float)log((double)a) != want && bad++ < 3)
                    fprintf(stderr, "log(%.9g): double path %.9g, long double %.9g\n", a,
                            (double)(float)log((double)a), (double)want);
            }
        }
    CHECK_EQ_INT(bad, 0);
}

TEST(hand_worked_buckets)
{
    uint32_t b;
    /* 32 buckets / 128, bidirectional (the T5 encoder) */
    struct {
        int64_t q, k;
        uint32_t nb, md;
        int bidir;
        uint32_t want;
    } cases[] = {
        {0, 0, 32, 128, 1, 0},     {5, 4, 32, 128, 1, 1},      {4, 5, 32, 128, 1, 17},
        {0, 7, 32, 128, 1, 23},    {0, 8, 32, 128, 1, 24},     {20, 0, 32, 128, 1, 10},
        {0, 20, 32, 128, 1, 26},   {0, 16, 32, 128, 1, 26},    {0, 15, 32, 128, 1, 25},
        {0, 64, 32, 128, 1, 30},   {0, 91, 32, 128, 1, 31},    {0, 90, 32, 128, 1, 30},
        {200, 0, 32, 128, 1, 15},  {0, 2000000, 32, 128, 1, 31},
        /* causal (the decoder): future keys read bucket 0 */
        {0, 5, 32, 128, 0, 0},     {5, 0, 32, 128, 0, 5},      {15, 0, 32, 128, 0, 15},
        {16, 0, 32, 128, 0, 16},   {113, 0, 32, 128, 0, 31},   {112, 0, 32, 128, 0, 30},
        {2147483647, 0, 32, 128, 0, 31},
        /* the smallest bidirectional table: 2 buckets a side, max_exact 1 */
        {3, 3, 4, 2, 1, 0},        {3, 2, 4, 2, 1, 1},         {3, 4, 4, 2, 1, 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        b = 999;
        CHECK(posenc_t5_bucket(cases[i].q, cases[i].k, cases[i].nb, cases[i].md, cases[i].bidir,
                               &b) == POSENC_OK);
        if (b != cases[i].want)
            fprintf(stderr, "case %zu: got %u want %u\n", i, b, cases[i].want);
        CHECK_EQ_INT(b, cases[i].want);
    }
}

TEST(the_trace_shows_each_step)
{
    posenc_t5_trace t;
    /* query 0, key 20, 32/128 bidirectional: the example of posenc.h */
    CHECK(posenc_t5_bucket_explain(0, 20, 32, 128, 1, &t) == POSENC_OK);
    CHECK_EQ_INT(t.relative_position, 20);
    CHECK_EQ_INT(t.side_buckets, 16);
    CHECK_EQ_INT(t.offset, 16);
    CHECK_EQ_INT(t.distance, 20);
    CHECK_EQ_INT(t.max_exact, 8);
    CHECK_EQ_INT(t.is_small, 0);
    CHECK(t.ratio == 2.5f);
    CHECK(t.log_ratio == (float)logl(2.5L));
    CHECK(t.log_max == (float)log(16.0));
    CHECK_NEAR(t.scaled, 2.643856, 1e-6); /* log2(2.5) * 2 */
    CHECK_EQ_INT(t.truncated, 10);
    CHECK_EQ_INT(t.clamped, 0);
    CHECK_EQ_INT(t.bucket, 26);
    CHECK_NEAR(t.exact_value, 2.0 * log2(2.5), 1e-12);
    /* far: clamped into the last bucket of the side */
    CHECK(posenc_t5_bucket_explain(1000, 0, 32, 128, 1, &t) == POSENC_OK);
    CHECK_EQ_INT(t.relative_position, -1000);
    CHECK_EQ_INT(t.offset, 0);
    CHECK_EQ_INT(t.truncated, 8 + (int64_t)t.scaled);
    CHECK(t.scaled > 8.0f);
    CHECK_EQ_INT(t.clamped, 1);
    CHECK_EQ_INT(t.bucket, 15);
    /* small: no logarithm */
    CHECK(posenc_t5_bucket_explain(10, 7, 32, 128, 0, &t) == POSENC_OK);
    CHECK_EQ_INT(t.is_small, 1);
    CHECK_EQ_INT(t.distance, 3);
    CHECK(t.ratio == 0.0f && t.log_ratio == 0.0f && t.scaled == 0.0f && t.exact_value == 0.0);
    CHECK_EQ_INT(t.bucket, 3);
    /* the distances where the exact v is an integer: float32 gives it exactly
     * (docs/SCHEMES.md): 32/128 bidirectional, 32/256 causal, 128/128 bidirectional */
    struct {
        uint32_t nb, md;
        int bidir;
        int64_t n;
        float v;
        uint32_t bucket;
    } ints[] = {{32, 128, 1, 16, 2, 10},   {32, 128, 1, 32, 4, 12},  {32, 128, 1, 64, 6, 14},
                {32, 256, 0, 32, 4, 20},   {32, 256, 0, 64, 8, 24},  {32, 256, 0, 128, 12, 28},
                {128, 128, 1, 64, 16, 48}};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        CHECK(posenc_t5_bucket_explain(ints[i].n, 0, ints[i].nb, ints[i].md, ints[i].bidir,
                                       &t) == POSENC_OK);
        CHECK(t.scaled == ints[i].v);
        CHECK(t.exact_value > ints[i].v - 1e-12 && t.exact_value < ints[i].v + 1e-12);
        CHECK_EQ_INT(t.bucket, ints[i].bucket);
    }
}

TEST(bucket_arguments_are_checked)
{
    uint32_t b = 77;
    posenc_t5_trace t;
    CHECK_EQ_INT(posenc_t5_bucket(0, 0, 32, 128, 1, NULL), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_t5_bucket_explain(0, 0, 32, 128, 1, NULL), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_t5_bucket(-1, 0, 32, 128, 1, &b), POSENC_ERR_POS);
    CHECK_EQ_INT(posenc_t5_bucket(0, -1, 32, 128, 1, &b), POSENC_ERR_POS);
    CHECK_EQ_INT(posenc_t5_bucket(POSENC_MAX_POS + 1, 0, 32, 128, 1, &b), POSENC_ERR_POS);
    CHECK_EQ_INT(posenc_t5_bucket(0, POSENC_MAX_POS + 1, 32, 128, 1, &b), POSENC_ERR_POS);
    CHECK_EQ_INT(posenc_t5_bucket_explain(-1, 0, 32, 128, 1, &t), POSENC_ERR_POS);
    /* max_exact must be >= 1: 2 causal buckets is the least, 4 bidirectional */
    CHECK_EQ_INT(posenc_t5_bucket(0, 0, 1, 128, 0, &b), POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_t5_bucket(0, 0, 0, 128, 0, &b), POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_t5_bucket(0, 0, 3, 128, 1, &b), POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_t5_bucket(0, 0, 2, 128, 0, &b), POSENC_OK);
    CHECK_EQ_INT(posenc_t5_bucket(0, 0, 4, 128, 1, &b), POSENC_OK);
    /* max_distance must pass max_exact (else the log divides by <= 0) */
    CHECK_EQ_INT(posenc_t5_bucket(0, 0, 32, 8, 1, &b), POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_t5_bucket(0, 0, 32, 9, 1, &b), POSENC_OK);
    CHECK_EQ_INT(posenc_t5_bucket(0, 0, 32, 0, 0, &b), POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_t5_bucket(0, 0, 32, (uint32_t)POSENC_MAX_POS + 1u, 0, &b),
                 POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_t5_bucket(0, 0, POSENC_T5_MAX_BUCKETS + 1, POSENC_MAX_POS, 0, &b),
                 POSENC_ERR_RANGE);
    b = 77;
    CHECK_EQ_INT(posenc_t5_bucket(0, 0, 32, 8, 1, &b), POSENC_ERR_RANGE);
    CHECK_EQ_INT(b, 77); /* nothing written on error */
    /* the largest table works at the far end */
    CHECK_EQ_INT(posenc_t5_bucket(POSENC_MAX_POS, 0, POSENC_T5_MAX_BUCKETS, POSENC_MAX_POS, 0,
                                  &b), POSENC_OK);
    CHECK(b < POSENC_T5_MAX_BUCKETS && b >= POSENC_T5_MAX_BUCKETS / 2);
}

/* ---- the bias tensor --------------------------------------------------------- */

static float *random_table(uint32_t nb, uint32_t H)
{
    float *t = malloc((size_t)nb * H * sizeof *t);
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (size_t i = 0; t && i < (size_t)nb * H; i++) {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        t[i] = (float)((double)((x * 0x2545F4914F6CDD1Du) >> 40) / (double)(1u << 24) - 0.5);
    }
    return t;
}

/* out[h][i][j] == table[bucket(q_offset + i, j)][h] for every element */
static int bias_matches(const float *out, const float *table, uint32_t nb, uint32_t H,
                        uint32_t md, int bidir, uint32_t nq, uint32_t nk, int64_t q_offset)
{
    for (uint32_t h = 0; h < H; h++)
        for (uint32_t i = 0; i < nq; i++)
            for (uint32_t j = 0; j < nk; j++) {
                uint32_t b = ref_bucket((int64_t)j - (q_offset + i), nb, md, bidir, 0);
                if (out[((size_t)h * nq + i) * nk + j] != table[(size_t)b * H + h])
                    return 0;
            }
    return 1;
}

TEST(bias_tensor_gathers_the_table)
{
    const uint32_t nb = 32, H = 6, md = 128, nq = 40, nk = 2500; /* keys in 3 chunks */
    float *table = random_table(nb, H);
    float *out = malloc((size_t)H * nq * nk * sizeof *out);
    float *again = malloc((size_t)H * nq * nk * sizeof *again);
    CHECK(table && out && again);
    if (!table || !out || !again)
        return;
    for (int bidir = 0; bidir <= 1; bidir++) {
        CHECK(posenc_t5_bias_f32(table, nb, H, md, bidir, nq, nk, 1200, 1, out) == POSENC_OK);
        CHECK(bias_matches(out, table, nb, H, md, bidir, nq, nk, 1200));
        /* threads change nothing, more threads than queries included */
        unsigned threads[] = {2, 3, 7, 64};
        for (size_t t = 0; t < 4; t++) {
            CHECK(posenc_t5_bias_f32(table, nb, H, md, bidir, nq, nk, 1200, threads[t], again) ==
                  POSENC_OK);
            CHECK(memcmp(out, again, (size_t)H * nq * nk * sizeof *out) == 0);
        }
    }
    /* the KV cache: 3 new queries after 1237 cached tokens are rows 1237..1239
     * of the full prefill's bias (q_offset 0, 1240 queries) */
    const uint32_t full_q = 1240, nk2 = 1240;
    float *full = malloc((size_t)H * full_q * nk2 * sizeof *full);
    float *step = malloc((size_t)H * 3 * nk2 * sizeof *step);
    CHECK(full && step);
    if (full && step) {
        CHECK(posenc_t5_bias_f32(table, nb, H, md, 0, full_q, nk2, 0, 4, full) == POSENC_OK);
        CHECK(posenc_t5_bias_f32(table, nb, H, md, 0, 3, nk2, 1237, 1, step) == POSENC_OK);
        for (uint32_t h = 0; h < H; h++)
            CHECK(memcmp(step + (size_t)h * 3 * nk2, full + ((size_t)h * full_q + 1237) * nk2,
                         3 * nk2 * sizeof *step) == 0);
        /* the prefill's last row, head 2, against the table directly */
        CHECK(full[((size_t)2 * full_q + 1239) * nk2 + 1239] == table[0 * H + 2]);
        CHECK(full[((size_t)2 * full_q + 1239) * nk2 + 1234] == table[5 * H + 2]);
        CHECK(full[((size_t)2 * full_q + 1239) * nk2 + 0] == table[31 * H + 2]);
        CHECK(full[((size_t)2 * full_q + 0) * nk2 + 1239] == table[0 * H + 2]); /* future: 0 */
    }
    free(full);
    free(step);
    free(table);
    free(out);
    free(again);
}

TEST(bias_arguments_are_checked)
{
    float table[32 * 2], out[16];
    memset(table, 0, sizeof table);
    for (int i = 0; i < 16; i++)
        out[i] = 42.0f;
    CHECK_EQ_INT(posenc_t5_bias_f32(NULL, 32, 2, 128, 1, 2, 2, 0, 1, out), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_t5_bias_f32(table, 32, 2, 128, 1, 2, 2, 0, 1, NULL), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_t5_bias_f32(table, 32, 0, 128, 1, 2, 2, 0, 1, out), POSENC_ERR_DIM);
    CHECK_EQ_INT(posenc_t5_bias_f32(table, 32, POSENC_MAX_DIM + 1, 128, 1, 2, 2, 0, 1, out),
                 POSENC_ERR_DIM);
    CHECK_EQ_INT(posenc_t5_bias_f32(table, 32, 2, 128, 1, 0, 2, 0, 1, out), POSENC_ERR_DIM);
    CHECK_EQ_INT(posenc_t5_bias_f32(table, 32, 2, 128, 1, 2, 0, 0, 1, out), POSENC_ERR_DIM);
    CHECK_EQ_INT(posenc_t5_bias_f32(table, 3, 2, 128, 1, 2, 2, 0, 1, out), POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_t5_bias_f32(table, 32, 2, 8, 1, 2, 2, 0, 1, out), POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_t5_bias_f32(table, 32, 2, 128, 1, 2, 2, -1, 1, out), POSENC_ERR_POS);
    CHECK_EQ_INT(posenc_t5_bias_f32(table, 32, 2, 128, 1, 2, 2, POSENC_MAX_POS, 1, out),
                 POSENC_ERR_POS);
    CHECK_EQ_INT(posenc_t5_bias_f32(table, 32, 2, 128, 1, 1, (uint32_t)POSENC_MAX_POS + 2u, 0,
                                    1, out), POSENC_ERR_POS);
    CHECK_EQ_INT(posenc_t5_bias_f32(table, 32, 2, 128, 1, 2, 2, 0, 0, out), POSENC_ERR_RANGE);
    CHECK_EQ_INT(posenc_t5_bias_f32(table, 32, 2, 128, 1, 2, 2, 0, 65, out), POSENC_ERR_RANGE);
    if (sizeof(size_t) == 8)
        CHECK_EQ_INT(posenc_t5_bias_f32(table, 32, POSENC_MAX_DIM, 128, 1, 2000000000u,
                                        2000000000u, 0, 1, out), POSENC_ERR_OVERFLOW);
    for (int i = 0; i < 16; i++)
        CHECK(out[i] == 42.0f); /* nothing written on error */
    /* the last query position POSENC_MAX_POS itself is fine */
    CHECK_EQ_INT(posenc_t5_bias_f32(table, 32, 2, 128, 1, 1, 2, POSENC_MAX_POS, 1, out),
                 POSENC_OK);
    CHECK(out[0] == table[15 * 2 + 0] && out[3] == table[15 * 2 + 1]);
}

static void *noop_thread(void *arg) { return arg; }

static int bias_without_threads(void *arg)
{
    (void)arg;
    static float table[32 * 4], out[4 * 50 * 70];
    pthread_t th;
    if (pthread_create(&th, NULL, noop_thread, NULL) == 0) {
        pthread_join(th, NULL);
        fprintf(stderr, "bias_without_threads: a thread started under the cap\n");
        return 0;
    }
    for (int i = 0; i < 32 * 4; i++)
        table[i] = (float)i;
    return posenc_t5_bias_f32(table, 32, 4, 128, 1, 50, 70, 30, 8, out) == POSENC_OK &&
           bias_matches(out, table, 32, 4, 128, 1, 50, 70, 30);
}

TEST(threads_that_cannot_start_leave_the_queries_to_the_caller)
{
    CHECK_CAPPED(bias_without_threads, NULL);
}

int main(void)
{
    capped_setup();
    RUN(threads_that_cannot_start_leave_the_queries_to_the_caller); /* before any thread */
    RUN(hand_worked_buckets);
    RUN(the_trace_shows_each_step);
    RUN(bucket_arguments_are_checked);
    RUN(every_distance_matches_the_mpmath_golden_file);
    RUN(every_distance_matches_the_long_double_reference);
    RUN(the_float_log_is_correctly_rounded_where_it_is_used);
    RUN(bias_tensor_gathers_the_table);
    RUN(bias_arguments_are_checked);
    if (skipped_capped)
        fprintf(stderr, "test_t5: %d thread-start checks skipped (%s)\n", skipped_capped,
                UNDER_ASAN ? "AddressSanitizer maps memory of its own" : "no /proc/self/statm");
    return check_summary("t5");
}
