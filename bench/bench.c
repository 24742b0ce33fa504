/* bench.c - how fast posenc_rope_qk rotates q and k of a Llama-like model
 * (head_dim 128, 32 query heads, 8 key heads), against memcpy of the same
 * bytes and against the naive loop most C code uses, all in one run.
 *
 *   build/bench/bench [CSV_PATH]        (make bench)
 *
 * Method: random data (never zeros); each sample times a sweep over several
 * buffers (enough that the sweep does not fit in the last-level cache, at
 * most 2 x 335 MB), after warm-up; the table shows medians of the samples.
 * In-place rotation; bytes = q and k read and written (plus the cache rows
 * read, when the cache is used). memcpy copies the same q/k bytes from one
 * buffer to the next, split between the same number of threads (started per
 * call, as the library does, and only for work that big). naive: one
 * thread, powf + cosf + sinf for every pair of every head of every token.
 * ratio_memcpy = time / memcpy time (lower is better, 1 = as fast as a copy);
 * ratio_naive = naive time / time (higher is better). */
#include "posenc.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { HD = 128, NQ = 32, NK = 8, NH = NQ + NK, DECODE_POS = 4000, MAX_POS = 16384 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static uint64_t rng = 0x9E3779B97F4A7C15u;
static float rand_val(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    float v = (float)((double)((rng * 0x2545F4914F6CDD1Du) >> 11) * 0x1p-53 * 2.0 - 1.0);
    return v == 0.0f ? 0.25f : v;
}

/* A set of nbuf buffers, each q [n_tok][32][128] followed by k [n_tok][8][128]. */
typedef struct bufs {
    float **b;
    size_t nbuf, n_tok, elems;
    int64_t *pos;
} bufs;

/* ---- memcpy split between threads ---------------------------------------- */

typedef struct cp_arg { char *dst; const char *src; size_t n; } cp_arg;
static void *cp_main(void *a)
{
    cp_arg *c = a;
    memcpy(c->dst, c->src, c->n);
    return NULL;
}
static void memcpy_threads(void *dst, const void *src, size_t bytes, size_t elems, unsigned nt)
{
    if (elems < 65536u * nt) /* the library's rule: no thread for small work */
        nt = 1;
    if (nt == 1) {
        memcpy(dst, src, bytes);
        return;
    }
    pthread_t th[8];
    cp_arg a[8] = {{0}};
    if (nt > 8)
        nt = 8;
    for (unsigned i = 0; i < nt; i++) {
        size_t lo = bytes * i / nt / 64 * 64, hi = i + 1 == nt ? bytes : bytes * (i + 1) / nt / 64 * 64;
        a[i] = (cp_arg){(char *)dst + lo, (const char *)src + lo, hi - lo};
    }
    for (unsigned i = 1; i < nt; i++)
        pthread_create(&th[i], NULL, cp_main, &a[i]);
    cp_main(&a[0]);
    for (unsigned i = 1; i < nt; i++)
        pthread_join(th[i], NULL);
}

/* ---- the naive loop ----------------------------------------------------------- */

static void naive_rope(float *x, size_t n_tok, size_t n_head, const int64_t *pos, int layout)
{
    for (size_t t = 0; t < n_tok; t++)
        for (size_t h = 0; h < n_head; h++) {
            float *v = x + (t * n_head + h) * HD;
            for (int i = 0; i < HD / 2; i++) {
                float inv_freq = powf(10000.0f, -2.0f * (float)i / (float)HD);
                float theta = (float)pos[t] * inv_freq;
                float c = cosf(theta), s = sinf(theta);
                int i0 = layout == POSENC_LAYOUT_INTERLEAVED ? 2 * i : i;
                int i1 = layout == POSENC_LAYOUT_INTERLEAVED ? 2 * i + 1 : i + HD / 2;
                float a = v[i0], b = v[i1];
                v[i0] = a * c - b * s;
                v[i1] = a * s + b * c;
            }
        }
}

/* ---- timing ----------------------------------------------------------------------- */

enum { K_POSENC, K_MEMCPY, K_NAIVE };
typedef struct cfg {
    int kind, layout, use_cache;
    unsigned threads;
    const posenc_rope *r;
    const posenc_rope_cache *cache;
} cfg;

static int run_once(const cfg *c, bufs *B, size_t i)
{
    float *x = B->b[i % B->nbuf];
    size_t n = B->n_tok;
    if (c->kind == K_MEMCPY) {
        memcpy_threads(B->b[(i + 1) % B->nbuf], x, B->elems * sizeof(float), B->elems, c->threads);
        return 0;
    }
    if (c->kind == K_NAIVE) {
        naive_rope(x, n, NQ, B->pos, c->layout);
        naive_rope(x + n * NQ * HD, n, NK, B->pos, c->layout);
        return 0;
    }
    posenc_rope_view q = {x, NULL, NQ, NQ * HD, HD, 0, 0};
    posenc_rope_view k = {x + n * NQ * HD, NULL, NK, NK * HD, HD, 0, 0};
    return posenc_rope_qk(c->r, c->use_cache ? c->cache : NULL, POSENC_DTYPE_F32, n, B->pos, 0,
                          &q, &k, 0, c->threads) != POSENC_OK;
}

/* Median over reps samples of the time per call; each sample is a sweep of
 * `calls` calls over the buffers. */
static double median_time(const cfg *c, bufs *B, int warm, int reps, size_t calls)
{
    double s[64];
    size_t i = 0;
    for (int w = 0; w < warm; w++)
        for (size_t j = 0; j < calls; j++)
            if (run_once(c, B, i++)) {
                fprintf(stderr, "bench: posenc_rope_qk failed\n");
                exit(1);
            }
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        for (size_t j = 0; j < calls; j++)
            run_once(c, B, i++);
        s[r] = (now() - t0) / (double)calls;
    }
    qsort(s, (size_t)reps, sizeof s[0], cmp_d);
    return s[reps / 2];
}

int main(int argc, char **argv)
{
    const char *csv_path = argc > 1 ? argv[1] : "build/bench.csv";
    FILE *csv = fopen(csv_path, "w");
    if (!csv) {
        perror(csv_path);
        return 1;
    }
    fprintf(csv, "kernel,layout,n_tok,threads,cache,ns_per_elem,gbps,ratio_memcpy,ratio_naive\n");
    char kname[32];
    snprintf(kname, sizeof kname, "posenc_%s", posenc_rope_isa());
    printf("posenc %s, path %s; head_dim %d, %d q heads, %d k heads, float32, in place\n",
           posenc_version_string(), posenc_rope_isa(), HD, NQ, NK);
    printf("%-14s %-11s %6s %3s %5s %10s %8s %9s %9s\n", "kernel", "layout", "n_tok", "thr",
           "cache", "ns/elem", "GB/s", "x memcpy", "naive/x");

    posenc_rope r[2];
    posenc_rope_cache *cache[2];
    for (int l = 0; l < 2; l++) {
        if (posenc_rope_init(&r[l], HD, HD, POSENC_DEFAULT_BASE, (posenc_layout)l) != POSENC_OK ||
            posenc_rope_cache_create(&r[l], MAX_POS, &cache[l]) != POSENC_OK) {
            fprintf(stderr, "bench: cannot build the cache\n");
            return 1;
        }
    }
    static const size_t toks[] = {1, 512, 4096, 16384};
    static const char *const lname[2] = {"interleaved", "half"};
    int targets_ok = 1;
    for (size_t ti = 0; ti < sizeof toks / sizeof toks[0]; ti++) {
        bufs B;
        B.n_tok = toks[ti];
        B.elems = B.n_tok * NH * HD;
        size_t bytes = B.elems * sizeof(float);
        B.nbuf = (256u << 20) / bytes + 1; /* the sweep exceeds 256 MiB... */
        if (B.nbuf > 256)
            B.nbuf = 256;  /* ...except decode: 256 x 20 KiB = 5 MiB */
        if (B.nbuf < 2)
            B.nbuf = 2;
        B.b = malloc(B.nbuf * sizeof *B.b);
        B.pos = malloc(B.n_tok * sizeof *B.pos);
        for (size_t t = 0; t < B.n_tok; t++)
            B.pos[t] = B.n_tok == 1 ? DECODE_POS : (int64_t)t;
        for (size_t i = 0; i < B.nbuf; i++) {
            B.b[i] = malloc(bytes);
            if (!B.b[i]) {
                fprintf(stderr, "bench: out of memory\n");
                return 1;
            }
            for (size_t e = 0; e < B.elems; e++)
                B.b[i][e] = rand_val();
        }
        int reps = B.n_tok >= 16384 ? 5 : B.n_tok >= 4096 ? 7 : 11;
        size_t calls = B.nbuf;
        double elems = (double)B.elems;
        for (int l = 0; l < 2; l++) {
            cfg nv = {K_NAIVE, l, 0, 1, &r[l], NULL};
            double t_naive = median_time(&nv, &B, B.n_tok >= 4096 ? 0 : 1,
                                         B.n_tok >= 16384 ? 1 : B.n_tok >= 4096 ? 3 : 5,
                                         B.n_tok >= 4096 ? 1 : calls);
            fprintf(csv, "naive,%s,%zu,1,-,%.4f,%.3f,nan,1\n", lname[l], B.n_tok,
                    t_naive * 1e9 / elems, 2 * (double)bytes / t_naive * 1e-9);
            for (unsigned th = 1; th <= 2; th++) {
                cfg mc = {K_MEMCPY, l, 0, th, NULL, NULL};
                double t_mc = median_time(&mc, &B, 2, reps, calls);
                if (l == 0)
                    fprintf(csv, "memcpy,-,%zu,%u,-,%.4f,%.3f,1,nan\n", B.n_tok, th,
                            t_mc * 1e9 / elems, 2 * (double)bytes / t_mc * 1e-9);
                for (int uc = 1; uc >= 0; uc--) {
                    cfg pc = {K_POSENC, l, uc, th, &r[l], cache[l]};
                    double t = median_time(&pc, &B, 2, reps, calls);
                    double moved = 2 * (double)bytes + (uc ? (double)B.n_tok * HD * 4 : 0);
                    double rm = t / t_mc, rn = t_naive / t;
                    printf("%-14s %-11s %6zu %3u %5s %10.4f %8.2f %9.3f %9.1f\n", kname, lname[l],
                           B.n_tok, th, uc ? "yes" : "no", t * 1e9 / elems, moved / t * 1e-9, rm,
                           rn);
                    fprintf(csv, "%s,%s,%zu,%u,%s,%.4f,%.3f,%.4f,%.2f\n", kname, lname[l], B.n_tok,
                            th, uc ? "yes" : "no", t * 1e9 / elems, moved / t * 1e-9, rm, rn);
                    /* the targets */
                    int ok = 1;
                    if (B.n_tok >= 4096)
                        ok &= rm <= (uc ? 1.15 : 1.3);
                    if (B.n_tok >= 512 && th == 1)
                        ok &= rn >= 20;
                    if (B.n_tok == 1 && uc)
                        ok &= rm <= 3;
                    if (!ok) {
                        printf("  ^ misses its target\n");
                        targets_ok = 0;
                    }
                }
            }
            printf("%-14s %-11s %6zu %3u %5s %10.4f  (single thread, the naive/x baseline)\n",
                   "naive", lname[l], B.n_tok, 1, "-", t_naive * 1e9 / elems);
        }
        for (size_t i = 0; i < B.nbuf; i++)
            free(B.b[i]);
        free(B.b);
        free(B.pos);
    }
    for (int l = 0; l < 2; l++)
        posenc_rope_cache_free(cache[l]);
    fclose(csv);
    printf("targets (cache <= 1.15x memcpy, no cache <= 1.3x at n_tok >= 4096; >= 20x naive at "
           "n_tok >= 512, 1 thread; decode with cache <= 3x memcpy): %s\n",
           targets_ok ? "all met" : "NOT all met");
    printf("rows written to %s\n", csv_path);
    return 0;
}
