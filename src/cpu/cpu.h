/*
 * cpu.h - the one CPU layer of the library: which instruction set runs the
 * vector loops (the tensor kernels and the cos/sin fills alike), the build
 * switch and the run-time override that force the plain C path, and the
 * fork/join of worker threads. Not installed.
 *
 *   build switch   make POSENC_SCALAR_ONLY=1 (-DPOSENC_SCALAR_ONLY), or a
 *                  compiler that does not target x86-64: plain C only.
 *   override       POSENC_ISA=scalar|avx2|avx512, read once at the first
 *                  call; a path the machine cannot run, or an unknown
 *                  value, is ignored.
 *   detection      cpuid and xgetbv (the OS must save the vector state):
 *                  AVX-512F, else AVX2 with FMA and F16C, else plain C.
 *
 * Every instruction set provides the same four functions (posenc__isa_ops),
 * written once as vector bodies (kernels_body.h for the rotation, fill_body.h
 * for the cos/sin values) and compiled per instruction set; they give the
 * same bits on every path.
 */
#ifndef POSENC_CPU_H
#define POSENC_CPU_H

#include <stddef.h>
#include <stdint.h>

/* Instruction sets, best last. */
enum { POSENC__ISA_SCALAR = 0, POSENC__ISA_AVX2 = 1, POSENC__ISA_AVX512 = 2, POSENC__ISA_N = 3 };

#if defined(__x86_64__) && !defined(POSENC_SCALAR_ONLY)
#define POSENC__HAVE_X86 1
#else
#define POSENC__HAVE_X86 0
#endif

/* Rotates the rotary part of n_head heads of one token (kernels_body.h).
 *   dt      posenc_dtype of src and dst
 *   layout  pair layout; P pairs, rotary_dim = 2P
 *   c, s    P values each, forward sign; inverse != 0 uses -s
 *   src, dst  first element of head 0; head h at + h * src_hs (dst_hs)
 *           elements. src may equal dst (in place). */
typedef void (*posenc__heads_fn)(int dt, int layout, size_t P, const float *c, const float *s,
                                 int inverse, const void *src, size_t src_hs, void *dst,
                                 size_t dst_hs, size_t n_head);

/* Where the fill writes (posenc__fill_fn). */
enum {
    POSENC__FILL_SPLIT = 0, /* cos_out[t*ld + k], sin_out[t*ld + k] */
    POSENC__FILL_ZIP = 1    /* sinusoid rows: sin_out[t*ld + 2k] = sin,
                               sin_out[t*ld + 2k + 1] = cos; cos_out unused */
};

/* The float cos/sin block fill (fill_body.h, contract in internal.h at
 * posenc__sincos_table_f32). */
typedef void (*posenc__fill_fn)(int64_t pos0, size_t n_pos, const double *f_hi,
                                const double *f_lo, size_t n_pairs, double scale,
                                float *cos_out, float *sin_out, size_t ld, int mode);

/* Most pairs posenc__fill_t_fn takes (one strip of the fill). */
#define POSENC__FILL_T_PAIRS 64

/* The fill of posenc__fill_fn with T(j) = cos jf + i sin jf for every j <
 * POSENC__FILL_ANCHOR_EVERY already computed by the caller (posenc__sincos_fn
 * at position j: tc[j*tld + k], ts[j*tld + k], k < n_pairs <=
 * POSENC__FILL_T_PAIRS): the same values, bit for bit, without computing T
 * again on every call (the tensor kernels fill many short runs of rows). */
typedef void (*posenc__fill_t_fn)(int64_t pos0, size_t n_pos, const double *f_hi,
                                  const double *f_lo, size_t n_pairs, double scale,
                                  const double *tc, const double *ts, size_t tld, float *cos_out,
                                  float *sin_out, size_t ld, int mode);

/* s[k], c[k] = sin, cos of the exact angle pos * (f_hi[k] + f_lo[k]) in
 * double, k < n (fill_body.h; the same bits as posenc__sincos_dd). */
typedef void (*posenc__sincos_fn)(int64_t pos, const double *f_hi, const double *f_lo,
                                  size_t n, double *s, double *c);

/* M-RoPE's row of a vision token from three cache rows, a vector select
 * per element (kernels_body.h): out[i] = w[i] where mw[i] is all ones,
 * else h[i] where mh[i] is all ones, else t[i]; i < n. Masks are 0 or
 * 0xFFFFFFFF; the floats are copied as bits. */
typedef void (*posenc__select_fn)(size_t n, const float *t, const float *h, const float *w,
                                  const uint32_t *mh, const uint32_t *mw, float *out);

typedef struct posenc__isa_ops {
    posenc__heads_fn heads;
    posenc__fill_fn fill;
    posenc__sincos_fn sincos;
    posenc__select_fn select;
    posenc__fill_t_fn fill_t;
} posenc__isa_ops;

/* The functions of each instruction set. */
#define POSENC__ISA_DECLARE(NAME)                                                            \
    void posenc__heads_##NAME(int dt, int layout, size_t P, const float *c, const float *s,  \
                              int inverse, const void *src, size_t src_hs, void *dst,         \
                              size_t dst_hs, size_t n_head);                                  \
    void posenc__fill_##NAME(int64_t pos0, size_t n_pos, const double *f_hi,                  \
                             const double *f_lo, size_t n_pairs, double scale,                \
                             float *cos_out, float *sin_out, size_t ld, int mode);            \
    void posenc__sincos_##NAME(int64_t pos, const double *f_hi, const double *f_lo, size_t n, \
                               double *s, double *c);                                         \
    void posenc__select_##NAME(size_t n, const float *t, const float *h, const float *w,      \
                               const uint32_t *mh, const uint32_t *mw, float *out);           \
    void posenc__fill_t_##NAME(int64_t pos0, size_t n_pos, const double *f_hi,                \
                               const double *f_lo, size_t n_pairs, double scale,              \
                               const double *tc, const double *ts, size_t tld,                \
                               float *cos_out, float *sin_out, size_t ld, int mode);
POSENC__ISA_DECLARE(scalar)
#if POSENC__HAVE_X86
POSENC__ISA_DECLARE(avx2)
POSENC__ISA_DECLARE(avx512)
#endif

/* Whether this build and machine can run isa; the one chosen once per
 * process (detection, then POSENC_ISA); its name ("scalar", "avx2",
 * "avx512", "unknown" outside the enum). */
int posenc__isa_available(int isa);
int posenc__isa_selected(void);
const char *posenc__isa_name(int isa);

/* The functions of isa (which must be available), and of the chosen one. */
const posenc__isa_ops *posenc__isa_ops_of(int isa);
static inline const posenc__isa_ops *posenc__cpu(void)
{
    return posenc__isa_ops_of(posenc__isa_selected());
}

/* Fork/join: runs fn on n_tasks argument blocks of task_size bytes each
 * (tasks[0], tasks[1], ...), block 0 on the calling thread and the others on
 * POSIX threads started here and joined before returning; a block whose
 * thread cannot be started runs on the calling thread, so the result never
 * depends on how many threads started. 1 <= n_tasks <= POSENC__MAX_TASKS. */
#define POSENC__MAX_TASKS 64u
void posenc__parallel(size_t n_tasks, void (*fn)(void *), void *tasks, size_t task_size);

/* The same over a range: items [0, n_items) split evenly into n_tasks
 * consecutive slices, fn(arg, i0, i1) called once per slice (the first on
 * the calling thread; with one task, directly, no thread started). arg is
 * shared read-only by all slices. 1 <= n_tasks <= min(n_items,
 * POSENC__MAX_TASKS); n_items >= 1. */
typedef void (*posenc__range_fn)(const void *arg, size_t i0, size_t i1);
void posenc__parallel_range(size_t n_items, size_t n_tasks, posenc__range_fn fn, const void *arg);

/* A caller-owned pool (posenc_pool_create, include/posenc.h): n - 1 worker
 * threads that persist between calls, and the caller. posenc__pool_range
 * is posenc__parallel_range on it (pool NULL: posenc__parallel_range
 * itself): slice i of n_tasks always runs on worker
 * i (slice 0 on the calling thread), so a call over the same items with the
 * same n_tasks gives each thread the same slice every time.
 * 1 <= n_tasks <= posenc__pool_threads(pool); one call at a time per pool
 * (concurrent calls on one pool wait for each other). */
typedef struct posenc_pool posenc_pool;
unsigned posenc__pool_threads(const posenc_pool *pool);
void posenc__pool_range(posenc_pool *pool, size_t n_items, size_t n_tasks, posenc__range_fn fn,
                        const void *arg);

/* How many threads a tensor call over n_items items (tokens, rows) and
 * elems elements in all uses when the caller allows n_threads: a thread is
 * used only for at least min_elems elements of work (below that, starting or
 * waking it costs more than it saves), never more threads than items, at
 * least 1 (1: on the calling thread alone).
 *   POSENC__MIN_ELEMS_PER_THREAD       threads started and joined in the call:
 *                                      8 Mi elements (Llama's q + k at T 4096
 *                                      gets 2 threads, T 2048 one; at T 512 a
 *                                      started thread made the call slower)
 *   POSENC__MIN_ELEMS_PER_POOL_THREAD  a pool's threads, already running:
 *                                      512 Ki elements (~100 us of work,
 *                                      against a wake-up of 1-20 us, more on
 *                                      a machine with no idle core)
 * bench/NOTES.md has the measurements. */
#define POSENC__MIN_ELEMS_PER_THREAD ((size_t)8 << 20)
#define POSENC__MIN_ELEMS_PER_POOL_THREAD ((size_t)512 << 10)
static inline size_t posenc__threads_for(size_t n_items, size_t elems, size_t n_threads,
                                         size_t min_elems)
{
    size_t nt = n_threads;
    if (nt > elems / min_elems)
        nt = elems / min_elems;
    if (nt > n_items)
        nt = n_items;
    return nt ? nt : 1;
}

#endif
