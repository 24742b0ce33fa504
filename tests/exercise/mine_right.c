/* mine_right.c - a learner's mine.c for the starter (examples/exercise/),
 * written plainly as a new learner would, right. tests/exercise_test.sh
 * copies it into a fresh starter, builds it with the starter's Makefile and
 * grades it, then makes each slip of the lesson's list in it (sed) and
 * checks that the slip is named and explains every failed case. The lines
 * the slips change are marked. */
#include "exercise.h"

#include <math.h>

int sinusoid(long pos, int D, double base, double *out)
{
    for (int i = 0; i < D; i++) {
        int k = i / 2;
        double theta = pos / pow(base, 2.0 * k / D); /* S-ANGLE */
        if (i % 2 == 0)
            out[i] = sin(theta); /* S-EVEN */
        else
            out[i] = cos(theta); /* S-ODD */
    }
    return 0;
}

int rotate(long pos, int D, double base, double *x)
{
    for (int k = 0; k < D / 2; k++) {
        double theta = pos / pow(base, 2.0 * k / D); /* R-ANGLE */
        double a = x[2 * k], b = x[2 * k + 1];
        x[2 * k] = a * cos(theta) - b * sin(theta);     /* R-FIRST */
        x[2 * k + 1] = a * sin(theta) + b * cos(theta); /* R-SECOND */
    }
    return 0;
}
