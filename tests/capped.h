/* capped.h - out of memory made real for tests: a function run in a child
 * process whose address space is capped just above what it already uses
 * (setrlimit RLIMIT_AS), so that large allocations and thread stacks fail.
 * The sanitizers reserve and map memory of their own, so under ASan the
 * checks count themselves skipped (skipped_capped). Shared by
 * tests/test_resources.c (the library) and tests/test_interpreter.c (the
 * program's interpreter). Include after check.h. */
#ifndef POSENC_TEST_CAPPED_H
#define POSENC_TEST_CAPPED_H

#include "posenc.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

/* Runs fn in a child process whose address space may grow by only 1 MiB
 * more than it has now; fn returns 1 when every expectation held. Returns
 * 1 (pass), 0 (fail), or -1 (skipped: under ASan, or no /proc). */
static int in_capped_child(int (*fn)(void *), void *arg)
{
    if (UNDER_ASAN)
        return -1;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return -1;
    unsigned long pages = 0;
    int got = fscanf(f, "%lu", &pages);
    fclose(f);
    if (got != 1 || pages == 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return 0;
    if (pid == 0) {
        struct rlimit old, cap;
        getrlimit(RLIMIT_AS, &old);
        /* the child's size now (a little more than the parent's) + 1 MiB */
        FILE *g = fopen("/proc/self/statm", "r");
        unsigned long now = pages;
        if (g) {
            if (fscanf(g, "%lu", &now) != 1)
                now = pages;
            fclose(g);
        }
        cap = old;
        cap.rlim_cur = (rlim_t)now * (rlim_t)sysconf(_SC_PAGESIZE) + (1u << 20);
        if (setrlimit(RLIMIT_AS, &cap) != 0)
            _exit(3);
        int ok = fn(arg);
        setrlimit(RLIMIT_AS, &old); /* room again for exit (coverage data) */
        exit(ok ? 0 : 1);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid)
        return 0;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int skipped_capped;
#define CHECK_CAPPED(fn, arg)                                   \
    do {                                                        \
        int capped__r = in_capped_child(fn, arg);               \
        if (capped__r < 0)                                      \
            skipped_capped++;                                   \
        else                                                    \
            CHECK(capped__r == 1);                              \
    } while (0)

/* One row of 2^20 numbers "1": 8 MiB of doubles, past the cap. */
static inline char *million_ones(void)
{
    size_t n = POSENC_MAX_DIM;
    char *s = malloc(2 * n + 2);
    if (!s)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        s[2 * i] = '1';
        s[2 * i + 1] = ' ';
    }
    s[2 * n] = '\n';
    s[2 * n + 1] = '\0';
    return s;
}

/* Keeps glibc from raising its mmap threshold as big blocks are freed: big
 * blocks then always come from (and go back to) mmap, so a capped child
 * cannot find megabytes already free in the heap. Call first in main. */
static void capped_setup(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    mallopt(M_TRIM_THRESHOLD, 128 * 1024);
#endif
}

#endif
