/* solution.c - the reference solution of the exercise (examples/exercise/
 * mine.c written), kept out of the learner's way. tests/exercise_test.sh
 * builds it with the starter's pe.c and checks that `posenc grade` passes
 * it; built with -DPLANT=NAME it makes one mistake of the lesson's list on
 * purpose, and the test checks that the grader names that mistake first:
 *
 *   element_index      the element index i in the exponent (2i/D) where
 *                      the pair index k = i / 2 belongs (2k/D)
 *   exponent_k_over_d  k/D instead of 2k/D
 *   rotation_sign      the rotation's signs swapped (turns by -theta)
 *   sin_cos_swapped    cos at 2k and sin at 2k+1
 *   model_dim          the exponent's D fixed at 512, a model's width
 *   odd_d              the lone sine of an odd D never written
 *   base               base 1000 instead of 10000
 *   layout             half pairs (x[k], x[k + D/2]) instead of adjacent ones
 *   position_offset    positions counted from 1 (pos + 1)
 */
#include "exercise.h"

#include <math.h>

/* The mistakes' numbers, so that #if PLANT == rotation_sign works (no
 * identifier below is spelled like one of them). */
#define element_index 1
#define exponent_k_over_d 2
#define rotation_sign 3
#define sin_cos_swapped 4
#define model_dim 5
#define odd_d 6
#define base 7
#define layout 8
#define position_offset 9
#ifndef PLANT
#define PLANT 0
#endif

#if PLANT == base
#define BASE_USED 1000.0
#else
#define BASE_USED b
#endif

/* theta(pos, k) = pos / base^(2k / D); e is the exponent's numerator 2k,
 * D the length of the vector. */
static double angle(long pos, double e, int D, double b)
{
#if PLANT == exponent_k_over_d
    e /= 2; /* k/D */
#endif
#if PLANT == model_dim
    D = 512;
#endif
#if PLANT == position_offset
    pos += 1;
#endif
    (void)b;
    return (double)pos / pow(BASE_USED, e / D);
}

int sinusoid(long pos, int D, double b, double *out)
{
#if PLANT == element_index
    for (int i = 0; i < D; i++) /* 2i/D: each element its own angle */
        out[i] = i % 2 ? cos(angle(pos, 2.0 * i, D, b)) : sin(angle(pos, 2.0 * i, D, b));
    return 0;
#endif
    for (int k = 0; 2 * k < D; k++) {
        double t = angle(pos, 2.0 * k, D, b);
#if PLANT == odd_d
        if (2 * k + 1 == D)
            break; /* the lone sine left unwritten */
#endif
#if PLANT == sin_cos_swapped
        out[2 * k] = cos(t);
        if (2 * k + 1 < D)
            out[2 * k + 1] = sin(t);
#else
        out[2 * k] = sin(t); /* PE[2k] = sin(theta) */
        if (2 * k + 1 < D)
            out[2 * k + 1] = cos(t); /* PE[2k+1] = cos(theta) */
#endif
    }
    return 0;
}

int rotate(long pos, int D, double b, double *x)
{
    for (int k = 0; k < D / 2; k++) {
#if PLANT == element_index
        int i = 2 * k; /* the pair's first element, used as if it were k */
        double t = angle(pos, 2.0 * i, D, b);
#else
        double t = angle(pos, 2.0 * k, D, b);
#endif
#if PLANT == layout
        int i0 = k, i1 = k + D / 2; /* half pairs */
#else
        int i0 = 2 * k, i1 = 2 * k + 1; /* adjacent pairs */
#endif
        double a = x[i0], c = x[i1];
#if PLANT == rotation_sign
        x[i0] = a * cos(t) + c * sin(t);
        x[i1] = -a * sin(t) + c * cos(t);
#else
        x[i0] = a * cos(t) - c * sin(t); /* a cos - b sin */
        x[i1] = a * sin(t) + c * cos(t); /* a sin + b cos */
#endif
    }
    return 0;
}
