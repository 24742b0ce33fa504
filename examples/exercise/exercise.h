/* exercise.h - the two functions you write (in mine.c) and pe.c calls.
 *
 * Each returns 0 once written. The shipped versions return NOT_WRITTEN, and
 * the program then says which functions are left to write. */
#ifndef EXERCISE_H
#define EXERCISE_H

#define NOT_WRITTEN (-1)

/* out[0..D) = PE(pos), the sinusoid of position pos in D dimensions. */
int sinusoid(long pos, int D, double base, double *out);

/* Rotates x[0..D) in place by position pos (RoPE, adjacent pairs). */
int rotate(long pos, int D, double base, double *x);

#endif
