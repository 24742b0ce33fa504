/* bench_tables.c - speed of the accurate table fills, one thread.
 *
 *   sinusoid tables  P x D = 8192 x 1024 and 65536 x 128, base 10000, float32
 *                    (posenc_sinusoid_table_f32)
 *   RoPE cos/sin     the same sizes: P x D/2 cos plus P x D/2 sin
 *                    (posenc__sincos_table_f32, what the cache and kernels call)
 *
 * For each: the median of REPS runs in ns per element, the ratio to memset of
 * the same bytes and to the naive float32 formula (NumPy style:
 * angle = (float)pos * powf(base, -2k/D), then sinf/cosf), all measured in
 * this run. Prints a table and appends rows to build/bench.csv. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REPS 7

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct job {
    int kind; /* 0 sinusoid, 1 rope, 2 memset, 3 naive sinusoid, 4 naive rope */
    size_t P;
    uint32_t D;
    float *buf;
    const double *f_hi, *f_lo;
    const float *f32;
} job;

static volatile float sink;

static void run_job(const job *j)
{
    size_t P = j->P, D = j->D, half = D / 2;
    switch (j->kind) {
    case 0:
        if (posenc_sinusoid_table_f32(0, P, (uint32_t)D, 10000.0, j->buf) != POSENC_OK)
            abort();
        break;
    case 1:
        posenc__sincos_table_f32(0, P, j->f_hi, j->f_lo, half, 1.0, j->buf, j->buf + P * half,
                                 half);
        break;
    case 2:
        memset(j->buf, 0, P * D * sizeof(float));
        break;
    case 3:
        for (size_t t = 0; t < P; t++)
            for (size_t k = 0; k < half; k++) {
                float a = (float)t * j->f32[k];
                j->buf[t * D + 2 * k] = sinf(a);
                j->buf[t * D + 2 * k + 1] = cosf(a);
            }
        break;
    default:
        for (size_t t = 0; t < P; t++)
            for (size_t k = 0; k < half; k++) {
                float a = (float)t * j->f32[k];
                j->buf[t * half + k] = cosf(a);
                j->buf[P * half + t * half + k] = sinf(a);
            }
        break;
    }
    sink = j->buf[P * D - 1];
}

/* Median ns per element over REPS runs (one untimed warm-up). */
static double time_job(const job *j)
{
    double t[REPS];
    run_job(j);
    for (int r = 0; r < REPS; r++) {
        double t0 = now_ns();
        run_job(j);
        t[r] = (now_ns() - t0) / ((double)j->P * j->D);
    }
    qsort(t, REPS, sizeof t[0], cmp_double);
    return t[REPS / 2];
}

int main(void)
{
    static const struct { size_t P; uint32_t D; } sizes[] = {{8192, 1024}, {65536, 128}};
    FILE *csv = NULL;
    int new_file = 0;
    FILE *probe = fopen("build/bench.csv", "r");
    if (probe)
        fclose(probe);
    else
        new_file = 1;
    csv = fopen("build/bench.csv", "a");
    if (!csv) {
        fprintf(stderr, "bench_tables: cannot open build/bench.csv\n");
        return 1;
    }
    if (new_file)
        fprintf(csv, "kernel,layout,n_tok,threads,cache,ns_per_elem,gbps,ratio_memcpy,ratio_naive\n");

    printf("%-26s %8s %6s %10s %8s %10s %10s\n", "table (float32, 1 thread)", "P", "D",
           "ns/elem", "GB/s", "x memset", "x naive");
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t P = sizes[s].P;
        uint32_t D = sizes[s].D;
        float *buf = malloc(P * D * sizeof(float));
        double *f_hi = malloc(D / 2 * sizeof(double)), *f_lo = malloc(D / 2 * sizeof(double));
        float *f32 = malloc(D / 2 * sizeof(float));
        if (!buf || !f_hi || !f_lo || !f32) {
            fprintf(stderr, "bench_tables: out of memory\n");
            return 1;
        }
        for (uint32_t k = 0; k < D / 2; k++) {
            posenc__dd f = posenc__inv_freq_dd(k, D, 10000.0);
            f_hi[k] = f.hi;
            f_lo[k] = f.lo;
            f32[k] = powf(10000.0f, -2.0f * (float)k / (float)D);
        }
        job j = {2, P, D, buf, f_hi, f_lo, f32};
        double t_memset = time_job(&j);
        static const char *names[] = {"table_sinusoid_f32", "table_rope_f32"};
        static const char *layouts[] = {"interleaved", "half"};
        for (int kind = 0; kind < 2; kind++) {
            j.kind = kind;
            double t = time_job(&j);
            j.kind = 3 + kind;
            double t_naive = time_job(&j);
            double gbps = 4.0 / t; /* bytes per ns = GB/s */
            char name[64];
            snprintf(name, sizeof name, "%s_d%u", names[kind], D);
            printf("%-26s %8zu %6u %10.3f %8.2f %10.2f %10.3f   (memset %.3f, naive %.3f ns/elem)\n",
                   name, P, D, t, gbps, t / t_memset, t / t_naive, t_memset, t_naive);
            fprintf(csv, "%s,%s,%zu,1,none,%.4f,%.3f,%.3f,%.4f\n", name, layouts[kind], P, t,
                    gbps, t / t_memset, t / t_naive);
        }
        free(buf);
        free(f_hi);
        free(f_lo);
        free(f32);
    }
    fclose(csv);
    return 0;
}
