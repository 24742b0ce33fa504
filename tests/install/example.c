/* Built against an installed libposenc with pkg-config by tests/install_test.sh. */
#include <posenc.h>
#include <stdio.h>

int main(void)
{
    double pe[4];
    float x[2] = {1.0f, 0.0f};
    if (posenc_sinusoid_fill_f64(2, 4, POSENC_DEFAULT_BASE, pe) != POSENC_OK)
        return 1;
    if (posenc_rope_apply_f32(1, 2, POSENC_DEFAULT_BASE, POSENC_LAYOUT_INTERLEAVED, POSENC_FORWARD,
                              x) != POSENC_OK)
        return 1;
    printf("%.4f %.4f %.4f %.4f\n", pe[0], pe[1], pe[2], pe[3]);
    printf("%.4f %.4f\n", (double)x[0], (double)x[1]);
    printf("%s\n", posenc_version_string());
    return posenc_version_number() == POSENC_VERSION_NUMBER ? 0 : 1;
}
