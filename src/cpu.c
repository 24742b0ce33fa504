/* cpu.c - the CPU layer (see cpu.h): instruction-set detection, the
 * POSENC_ISA override, the table of per-ISA functions, and fork/join. */
#include "cpu.h"

#include "posenc.h"

#include <pthread.h>
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
        {posenc__heads_scalar, posenc__fill_scalar, posenc__sincos_scalar},
#if POSENC__HAVE_X86
        {posenc__heads_avx2, posenc__fill_avx2, posenc__sincos_avx2},
        {posenc__heads_avx512, posenc__fill_avx512, posenc__sincos_avx512},
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
