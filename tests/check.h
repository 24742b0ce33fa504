/* check.h - the smallest test harness that fails loudly.
 *
 *   TEST(name) { CHECK(cond); CHECK_NEAR(a, b, tol); ... }
 *   int main(void) { RUN(name); ...; return check_summary("file"); }
 *
 * A test fails if any of its checks fails; every failed check prints its
 * file, line and values. check_summary prints "N passed, M failed" for the
 * runner to add up and returns nonzero when anything failed. */
#ifndef POSENC_CHECK_H
#define POSENC_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check__failed_checks;  /* in the current test */
static int check__passed, check__failed, check__skipped;

#define TEST(name) static void name(void)

#define CHECK(cond)                                                                \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            check__failed_checks++;                                                \
        }                                                                          \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                         \
    do {                                                                              \
        double check__a = (double)(a), check__b = (double)(b);                        \
        if (!(fabs(check__a - check__b) <= (tol))) {                                  \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.17g, %s = %.17g, tol %g\n", \
                    __FILE__, __LINE__, #a, check__a, #b, check__b, (double)(tol));   \
            check__failed_checks++;                                                   \
        }                                                                             \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                             \
    do {                                                                               \
        long long check__a = (long long)(a), check__b = (long long)(b);                \
        if (check__a != check__b) {                                                    \
            fprintf(stderr, "%s:%d: CHECK_EQ failed: %s = %lld, %s = %lld\n", __FILE__, \
                    __LINE__, #a, check__a, #b, check__b);                             \
            check__failed_checks++;                                                    \
        }                                                                              \
    } while (0)

#define RUN(name)                                                     \
    do {                                                              \
        check__failed_checks = 0;                                     \
        name();                                                       \
        if (check__failed_checks) {                                   \
            fprintf(stderr, "FAIL %s (%d checks)\n", #name, check__failed_checks); \
            check__failed++;                                          \
        } else {                                                      \
            check__passed++;                                          \
        }                                                             \
    } while (0)

/* Records n tests of file that cannot run because an optional part was not
 * built, with one line naming what is skipped and the Debian packages that
 * enable it; tests/run_all.sh shows these lines and adds up the packages. */
static inline void check_skip(const char *file, int n, const char *what, const char *packages)
{
    check__skipped += n;
    printf("%s: skipped %s (apt-get install %s)\n", file, what, packages);
}

/* The closing line: "file: N passed, M failed[, K skipped]". */
static inline int check_summary(const char *file)
{
    printf("%s: %d passed, %d failed", file, check__passed, check__failed);
    if (check__skipped)
        printf(", %d skipped", check__skipped);
    printf("\n");
    return check__failed != 0;
}

/* Distance in units in the last place between two floats (finite). */
static inline double check_ulp_f32(float got, double exact)
{
    float e = (float)exact;
    double ulp = (double)nextafterf(fabsf(e), INFINITY) - (double)fabsf(e);
    return fabs((double)got - exact) / ulp;
}

#endif
