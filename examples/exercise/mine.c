/* mine.c - the exercise: write these two functions, nothing else.
 *
 * pe.c reads the lesson's commands and calls them: PE prints your sinusoid,
 * ADD adds it to a vector, ROPE prints your rotation, and DOT is built on
 * your rotation (ROPE(m, q) . ROPE(n, k)), so a wrong rotation shows up
 * there too. Build with `make`, try `echo 'PE 2 4' | ./pe`, and grade with
 * `posenc grade -- ./pe` (docs/EXERCISE.md).
 *
 * The definitions (the same for both functions):
 *
 *   D is the length of the vector being encoded or rotated (the D passed
 *   in, never a fixed "model" size). Element i belongs to pair k = i / 2
 *   (integer division), and pair k's angle at position pos is
 *
 *       theta(pos, k) = pos / base^(2k / D)
 *
 *   with base the argument you are given (10000, the lesson's, unless a
 *   `SET base B` line changed it), so pair 0 turns 1 radian per position,
 *   and later pairs ever slower. Compute in double: pow(base, 2.0 * k / D)
 *   (2.0, not 2: 2 * k / D in int is 0), sin() and cos() of <math.h>.
 *
 * One function at a time: while a function returns NOT_WRITTEN, the
 * commands that need it print nothing and pe says on standard error that it
 * is not written yet; `posenc grade` grades the rest and names what is left.
 */
#include "exercise.h"

#include <math.h>

/* The sinusoid: for each pair k,
 *
 *     out[2k]   = sin(theta(pos, k))
 *     out[2k+1] = cos(theta(pos, k))
 *
 * With odd D the last element, out[D-1], is the sine of a pair that lost
 * its cosine: out[D-1] = sin(theta(pos, (D-1)/2)).
 *
 * Worked trace, PE 2 4 (pos = 2, D = 4):
 *   pair 0: theta = 2 / 10000^(0/4) = 2 / 1   = 2      sin 2 =  0.9093, cos 2 = -0.4161
 *   pair 1: theta = 2 / 10000^(2/4) = 2 / 100 = 0.02   sin   =  0.0200, cos   =  0.9998
 *   PE 2 4 prints  0.9093 -0.4161 0.0200 0.9998
 * and PE 2 5 (odd D) prints 0.9093 -0.4161 0.0502 0.9987 0.0013: pair 1
 * turns by 2 / 10000^(2/5) = 0.0502, the lone sine by 2 / 10000^(4/5).
 *
 * Return 0 when written. */
int sinusoid(long pos, int D, double base, double *out)
{
    (void)pos;
    (void)D;
    (void)base;
    (void)out;
    return NOT_WRITTEN; /* write the sinusoid here, then return 0 */
}

/* The rotation: turn each pair (a, b) = (x[2k], x[2k+1]) by theta(pos, k):
 *
 *     x[2k]   = a cos(theta) - b sin(theta)
 *     x[2k+1] = a sin(theta) + b cos(theta)
 *
 * (take a and b before writing either). With odd D the last element has no
 * partner and stays as it is.
 *
 * Worked trace, ROPE 1 1 0 (pos = 1, x = (1, 0), D = 2):
 *   pair 0: theta = 1 / 10000^(0/2) = 1
 *   (1, 0) becomes (1 cos 1 - 0 sin 1, 1 sin 1 + 0 cos 1) = (0.5403, 0.8415)
 *   ROPE 1 1 0 prints  0.5403 0.8415
 * (1, 0) turned by a small positive angle gains a positive second
 * coordinate. Then DOT 5 3 [1 0] [1 0] and DOT 9 7 [1 0] [1 0] both print
 * cos(2) = -0.4161: the rotated dot product depends only on m - n.
 *
 * Return 0 when written. */
int rotate(long pos, int D, double base, double *x)
{
    (void)pos;
    (void)D;
    (void)base;
    (void)x;
    return NOT_WRITTEN; /* write the rotation here, then return 0 */
}
