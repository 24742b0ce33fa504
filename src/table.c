/* table.c - blocks of cos/sin values for many positions and pairs, shared by
 * sinusoid tables, the RoPE cache and the tensor kernels.
 *
 * This is the plain reference: every value from the accurate single-angle
 * routine. (A faster fill that keeps the same accuracy replaces the body.) */
#include "internal.h"

void posenc__sincos_table_f32(int64_t pos0, size_t n_pos, const double *f_hi,
                              const double *f_lo, size_t n_pairs, double scale,
                              float *cos_out, float *sin_out, size_t ld)
{
    for (size_t t = 0; t < n_pos; t++) {
        for (size_t k = 0; k < n_pairs; k++) {
            double s, c;
            posenc__sincos_dd(pos0 + (int64_t)t, (posenc__dd){f_hi[k], f_lo[k]}, &s, &c);
            cos_out[t * ld + k] = (float)(scale * c);
            sin_out[t * ld + k] = (float)(scale * s);
        }
    }
}
