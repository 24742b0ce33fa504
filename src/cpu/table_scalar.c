/* table_scalar.c - the cos/sin fill of fill_body.h in plain C, one double
 * per "vector". Beside kernels_avx2.c and kernels_avx512.c, it is reached
 * only through the CPU layer's table (cpu.c), so that cpu.c and the public
 * entry points of table.c depend on it and it on neither. */
#include "cpu.h"
#include "internal.h"

/* ---- the plain C instance of fill_body.h ------------------------------- */

#define VD double
#define VDW 1
#define VD_LD(p) (*(p))
#define VD_ST(p, v) (*(p) = (v))
#define VD_SET1(x) ((double)(x))
#define VD_ADD(a, b) ((a) + (b))
#define VD_SUB(a, b) ((a) - (b))
#define VD_MUL(a, b) ((a) * (b))
/* p = a * b rounded, so a * b - p is exact: Dekker's product gives it
 * without a call to fma() (internal.h, posenc__two_prod) */
#define VD_FMS(a, b, p) posenc__two_prod(a, b).lo
#define VD_FLOOR(v) floor(v)
#define VD_ST_F32(p, v) (*(p) = (float)(v))
#define VD_ST_F32_ZIP(p, a, b) ((p)[0] = (float)(a), (p)[1] = (float)(b))
#define FILL_NAME posenc__fill_scalar
#define SINCOS_NAME posenc__sincos_scalar
#define FILL_T_NAME posenc__fill_t_scalar
#include "fill_body.h"

