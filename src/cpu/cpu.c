/* cpu.c - the CPU layer (see cpu.h): instruction-set detection, the
 * POSENC_ISA override, the table of per-ISA functions, fork/join, and the
 * caller's thread pool. */
#include "cpu.h"

#include "posenc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#if POSENC__HAVE_X86
#include <cpuid.h>
#endif

static int isa_ok[POSENC__ISA_N];
static int isa_chosen;
static pthread_once_t isa_once = PTHREAD_ONCE_INIT;

#if POSENC__HAVE_X86
/* XCR0: which register states the OS saves (and so lets programs use). */
static uint64_t read_xcr0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}
#endif

static void isa_detect(void)
{
    isa_ok[POSENC__ISA_SCALAR] = 1;
#if POSENC__HAVE_X86
    unsigned a, b, c, d;
    if (__get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 27))) { /* OSXSAVE */
        int fma3 = (c >> 12) & 1, avx = (c >> 28) & 1, f16c = (c >> 29) & 1;
        uint64_t xcr0 = read_xcr0();
        int ymm_os = (xcr0 & 0x6) == 0x6;   /* SSE and AVX state */
        int zmm_os = (xcr0 & 0xE6) == 0xE6; /* plus opmask, ZMM0-15 hi, ZMM16-31 */
        unsigned b7 = 0;
        if (__get_cpuid_count(7, 0, &a, &b7, &c, &d)) {
            int avx2 = (b7 >> 5) & 1, avx512f = (b7 >> 16) & 1;
            isa_ok[POSENC__ISA_AVX2] = avx && avx2 && fma3 && f16c && ymm_os;
            isa_ok[POSENC__ISA_AVX512] = isa_ok[POSENC__ISA_AVX2] && avx512f && zmm_os;
        }
    }
#endif
    isa_chosen = POSENC__ISA_SCALAR;
    for (int i = 0; i < POSENC__ISA_N; i++)
        if (isa_ok[i])
            isa_chosen = i;
    const char *env = getenv("POSENC_ISA");
    if (env)
        for (int i = 0; i < POSENC__ISA_N; i++)
            if (strcmp(env, posenc__isa_name(i)) == 0 && isa_ok[i])
                isa_chosen = i;
}

int posenc__isa_available(int isa)
{
    pthread_once(&isa_once, isa_detect);
    return isa >= 0 && isa < POSENC__ISA_N && isa_ok[isa];
}

int posenc__isa_selected(void)
{
    pthread_once(&isa_once, isa_detect);
    return isa_chosen;
}

const char *posenc__isa_name(int isa)
{
    static const char *const names[POSENC__ISA_N] = {"scalar", "avx2", "avx512"};
    return isa >= 0 && isa < POSENC__ISA_N ? names[isa] : "unknown";
}

const char *posenc_rope_isa(void) { return posenc__isa_name(posenc__isa_selected()); }

const posenc__isa_ops *posenc__isa_ops_of(int isa)
{
    static const posenc__isa_ops ops[POSENC__ISA_N] = {
        {posenc__heads_scalar, posenc__fill_scalar, posenc__sincos_scalar, posenc__select_scalar,
         posenc__fill_t_scalar},
#if POSENC__HAVE_X86
        {posenc__heads_avx2, posenc__fill_avx2, posenc__sincos_avx2, posenc__select_avx2,
         posenc__fill_t_avx2},
        {posenc__heads_avx512, posenc__fill_avx512, posenc__sincos_avx512,
         posenc__select_avx512, posenc__fill_t_avx512},
#endif
    };
#if POSENC__HAVE_X86
    return &ops[isa];
#else
    (void)isa;
    return &ops[0];
#endif
}

/* ---- fork/join ------------------------------------------------------------ */

typedef struct task_ref {
    void (*fn)(void *);
    void *arg;
} task_ref;

static void *thread_main(void *p)
{
    task_ref *t = p;
    t->fn(t->arg);
    return NULL;
}

void posenc__parallel(size_t n_tasks, void (*fn)(void *), void *tasks, size_t task_size)
{
    pthread_t th[POSENC__MAX_TASKS];
    task_ref refs[POSENC__MAX_TASKS];
    int started[POSENC__MAX_TASKS] = {0};
    char *base = tasks;
    for (size_t i = 1; i < n_tasks; i++) {
        refs[i] = (task_ref){fn, base + i * task_size};
        started[i] = pthread_create(&th[i], NULL, thread_main, &refs[i]) == 0;
    }
    fn(base);
    for (size_t i = 1; i < n_tasks; i++) {
        if (started[i])
            pthread_join(th[i], NULL);
        else
            fn(base + i * task_size); /* could not start: do it here */
    }
}

/* One slice of posenc__parallel_range. */
typedef struct range_task {
    posenc__range_fn fn;
    const void *arg;
    size_t i0, i1;
} range_task;

static void run_range_task(void *p)
{
    const range_task *t = p;
    t->fn(t->arg, t->i0, t->i1);
}

void posenc__parallel_range(size_t n_items, size_t n_tasks, posenc__range_fn fn, const void *arg)
{
    if (n_tasks <= 1) {
        fn(arg, 0, n_items);
        return;
    }
    range_task tasks[POSENC__MAX_TASKS];
    for (size_t i = 0; i < n_tasks; i++)
        tasks[i] = (range_task){fn, arg, n_items * i / n_tasks, n_items * (i + 1) / n_tasks};
    posenc__parallel(n_tasks, run_range_task, tasks, sizeof tasks[0]);
}

/* ---- the caller's pool ------------------------------------------------------ */

/* Workers wait for a new generation number: first spinning on it for a
 * short while (a call that follows soon after the last one finds them
 * awake), then asleep on the condition variable. The caller publishes a
 * job under the mutex, runs slice 0, and waits until every worker has
 * counted itself out of the job (left == 0). */
#define POOL_SPIN 2048

struct posenc_pool {
    unsigned n;              /* threads in all, the caller's included */
    pthread_mutex_t call_mu; /* one call at a time */
    pthread_mutex_t mu;      /* the job fields and quit */
    pthread_cond_t wake, done;
    atomic_uint gen;   /* job number, written under mu */
    atomic_uint left;  /* workers not yet done with the current job */
    int quit;          /* under mu */
    posenc__range_fn fn; /* the current job (under mu) */
    const void *arg;
    size_t n_items, n_tasks;
    struct pool_worker {
        posenc_pool *pool;
        unsigned idx;
        pthread_t th;
    } w[POSENC_MAX_THREADS];
};

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void *pool_main(void *p)
{
    struct pool_worker *w = p;
    posenc_pool *pl = w->pool;
    unsigned seen = 0;
    for (;;) {
        for (int i = 0; i < POOL_SPIN && atomic_load_explicit(&pl->gen, memory_order_acquire) == seen;
             i++)
            cpu_relax();
        pthread_mutex_lock(&pl->mu);
        while (atomic_load_explicit(&pl->gen, memory_order_relaxed) == seen && !pl->quit)
            pthread_cond_wait(&pl->wake, &pl->mu);
        if (pl->quit) {
            pthread_mutex_unlock(&pl->mu);
            return NULL;
        }
        seen = atomic_load_explicit(&pl->gen, memory_order_relaxed);
        posenc__range_fn fn = pl->fn;
        const void *arg = pl->arg;
        size_t n_items = pl->n_items, n_tasks = pl->n_tasks;
        pthread_mutex_unlock(&pl->mu);
        if (w->idx < n_tasks) /* slice idx of n_tasks */
            fn(arg, n_items * w->idx / n_tasks, n_items * (w->idx + 1) / n_tasks);
        if (atomic_fetch_sub_explicit(&pl->left, 1, memory_order_acq_rel) == 1) {
            pthread_mutex_lock(&pl->mu);
            pthread_cond_signal(&pl->done);
            pthread_mutex_unlock(&pl->mu);
        }
    }
}

static void pool_stop(posenc_pool *p, unsigned started)
{
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 1; i <= started; i++)
        pthread_join(p->w[i].th, NULL);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->mu);
    pthread_mutex_destroy(&p->call_mu);
    free(p);
}

posenc_status posenc_pool_create(unsigned n_threads, posenc_pool **out)
{
    if (!out)
        return POSENC_ERR_NULL;
    if (n_threads < 1 || n_threads > POSENC_MAX_THREADS)
        return POSENC_ERR_RANGE;
    posenc_pool *p = calloc(1, sizeof *p);
    if (!p)
        return POSENC_ERR_NOMEM;
    p->n = n_threads;
    atomic_init(&p->gen, 0u);
    atomic_init(&p->left, 0u);
    /* default attributes: glibc's inits allocate nothing and cannot fail */
    if (pthread_mutex_init(&p->call_mu, NULL) != 0 || pthread_mutex_init(&p->mu, NULL) != 0 ||
        pthread_cond_init(&p->wake, NULL) != 0 || pthread_cond_init(&p->done, NULL) != 0) {
        free(p);
        return POSENC_ERR_NOMEM;
    }
    for (unsigned i = 1; i < n_threads; i++) {
        p->w[i] = (struct pool_worker){.pool = p, .idx = i};
        if (pthread_create(&p->w[i].th, NULL, pool_main, &p->w[i]) != 0) {
            pool_stop(p, i - 1); /* the workers started so far */
            return POSENC_ERR_NOMEM;
        }
    }
    *out = p;
    return POSENC_OK;
}

void posenc_pool_free(posenc_pool *pool)
{
    if (pool)
        pool_stop(pool, pool->n - 1);
}

unsigned posenc__pool_threads(const posenc_pool *pool) { return pool->n; }

void posenc__pool_range(posenc_pool *p, size_t n_items, size_t n_tasks, posenc__range_fn fn,
                        const void *arg)
{
    if (!p) { /* no pool: threads started and joined here */
        posenc__parallel_range(n_items, n_tasks, fn, arg);
        return;
    }
    if (n_tasks <= 1 || p->n <= 1) {
        fn(arg, 0, n_items);
        return;
    }
    pthread_mutex_lock(&p->call_mu);
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->arg = arg;
    p->n_items = n_items;
    p->n_tasks = n_tasks;
    atomic_store_explicit(&p->left, p->n - 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&p->gen, 1u, memory_order_release);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    fn(arg, 0, n_items / n_tasks); /* slice 0 */
    for (int i = 0; i < POOL_SPIN && atomic_load_explicit(&p->left, memory_order_acquire) != 0; i++)
        cpu_relax();
    pthread_mutex_lock(&p->mu);
    while (atomic_load_explicit(&p->left, memory_order_acquire) != 0)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
    pthread_mutex_unlock(&p->call_mu);
}
