/* fault.h - allocation failures on demand, for the tests that check every
 * error path of code that allocates (test_interpreter, test_model_reader,
 * test_plot_draw, test_safetensors, test_grade, test_check). The Makefile links those tests with
 * FAULT_LDFLAGS (-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc), so each
 * malloc, calloc and realloc of the objects linked into the program (posenc's
 * and the test's own) goes through the wrappers below; Cairo, jansson's own
 * calls inside its shared library and libc do not.
 *
 *     alloc_countdown = k;   k more allocations succeed, then one fails
 *     ...code under test...
 *     alloc_countdown = -1;  none fails (the default)
 *     alloc_failed           how many failed since it was last set to 0
 *
 * Include it once, in the test's main file. */
#ifndef POSENC_TESTS_FAULT_H
#define POSENC_TESTS_FAULT_H

#include <stddef.h>

static long alloc_countdown = -1;
static long alloc_failed;

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);

/* 1 when the allocation being made is the one to fail. */
static int alloc_fails_now(void)
{
    if (alloc_countdown < 0 || alloc_countdown-- > 0)
        return 0;
    alloc_failed++;
    return 1; /* countdown now -1: only this one fails */
}

void *__wrap_malloc(size_t n) { return alloc_fails_now() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t k, size_t n) { return alloc_fails_now() ? NULL : __real_calloc(k, n); }
void *__wrap_realloc(void *p, size_t n) { return alloc_fails_now() ? NULL : __real_realloc(p, n); }

/* For a build where no test of the file uses them. */
static inline void fault_unused(void)
{
    (void)alloc_countdown;
    (void)alloc_failed;
}

#endif
