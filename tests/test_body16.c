/* test_body16.c - the 16-lane vector body (kernels_body.h as AVX-512 uses
 * it: VW 16, c and s of 64 pairs held in registers) run on any machine.
 *
 * kernels_avx512.c compiles kernels_body.h with AVX-512 intrinsics, and
 * test_kernels compares that object with the reference only where the
 * machine has AVX-512. Here the same body is compiled once more with a
 * 16-float vocabulary written in plain C (the compiler's generic vectors,
 * each operation defined lane by lane), so its control flow (the one-chunk
 * path at P == 64, the per-head path, the vector and scalar tails, the M-RoPE
 * row select) is checked against the scalar reference posenc__heads_scalar
 * (and posenc__select_scalar) bit for bit on every machine. The AVX-512
 * macros themselves are one intrinsic each (kernels_avx512.c). */
#include "check.h"
#include "kernels.h"

#include <stdint.h>
#include <string.h>

/* 64-byte vectors passed and returned by value between these static
 * functions: the compilers warn that the ABI for that differs with and
 * without AVX-512, which cannot matter to functions that never leave this
 * file. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

typedef float VF __attribute__((vector_size(64)));
typedef int32_t VI __attribute__((vector_size(64)));
#define VW 16
#define NCS 16

static VF ld16(const float *p)
{
    VF v;
    memcpy(&v, p, sizeof v);
    return v;
}
static void st16(float *p, VF v) { memcpy(p, &v, sizeof v); }
static VF ld16_bf16(const uint16_t *p)
{
    VF v;
    for (int i = 0; i < 16; i++)
        v[i] = posenc__bf16_to_f32(p[i]);
    return v;
}
static void st16_bf16(uint16_t *p, VF v)
{
    for (int i = 0; i < 16; i++)
        p[i] = posenc__f32_to_bf16(v[i]);
}
static VF ld16_f16(const uint16_t *p)
{
    VF v;
    for (int i = 0; i < 16; i++)
        v[i] = posenc__f16_to_f32(p[i]);
    return v;
}
static void st16_f16(uint16_t *p, VF v)
{
    for (int i = 0; i < 16; i++)
        p[i] = posenc__f32_to_f16(v[i]);
}
static VF dup16(const float *p) /* [p0 p0 p1 p1 .. p7 p7] */
{
    VF v;
    for (int i = 0; i < 16; i++)
        v[i] = p[i / 2];
    return v;
}
static VF swap16(VF a) /* [a1 a0 a3 a2 ..] */
{
    VF v;
    for (int i = 0; i < 16; i++)
        v[i] = a[i ^ 1];
    return v;
}
static VF xor16(VF a, VF b) { return (VF)((VI)a ^ (VI)b); }
static VF set16(float f)
{
    VF v;
    for (int i = 0; i < 16; i++)
        v[i] = f;
    return v;
}
static VF alt16(void) /* [-0 +0 -0 +0 ..] */
{
    VF v;
    for (int i = 0; i < 16; i++)
        v[i] = i % 2 ? 0.0f : -0.0f;
    return v;
}
static VF ldmask16(const uint32_t *p)
{
    VF v;
    memcpy(&v, p, sizeof v);
    return v;
}
static VF sel16(VF m, VF a, VF b) { return (VF)(((VI)a & ~(VI)m) | ((VI)b & (VI)m)); }

#define V_LD_F32(p) ld16(p)
#define V_ST_F32(p, v) st16(p, v)
#define V_LD_BF16(p) ld16_bf16(p)
#define V_ST_BF16(p, v) st16_bf16(p, v)
#define V_LD_F16(p) ld16_f16(p)
#define V_ST_F16(p, v) st16_f16(p, v)
#define V_MUL(a, b) ((a) * (b))
#define V_ADD(a, b) ((a) + (b))
#define V_SUB(a, b) ((a) - (b))
#define V_XOR(a, b) xor16(a, b)
#define V_SET1(f) set16(f)
#define V_DUP_PAIRS(p) dup16(p)
#define V_SWAP_PAIRS(v) swap16(v)
#define V_ALT_SIGN alt16()
#define V_KEEP(v) ((void)(v))
#define V_LD_MASK(p) ldmask16(p)
#define V_SEL(m, a, b) sel16(m, a, b)
#define HEADS_NAME body16_heads
#define SELECT_NAME body16_select
void body16_heads(int dt, int layout, size_t P, const float *c, const float *s, int inverse,
                  const void *src, size_t src_hs, void *dst, size_t dst_hs, size_t n_head);
void body16_select(size_t n, const float *t, const float *h, const float *w, const uint32_t *mh,
                   const uint32_t *mw, float *out);
#include "kernels_body.h"

static uint64_t rng = 88172645463325252ull;
static uint32_t next32(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}
static float unit(void) { return (float)(next32() % 20001u) / 10000.0f - 1.0f; }

/* Every pair count from 1 to 65 and a few wider, every storage type and
 * layout, both directions, out of place and in place, heads with gaps. */
TEST(body16_equals_the_reference)
{
    static uint32_t in[8 * 300], a[8 * 300], b[8 * 300];
    float c[128], s[128];
    int runs = 0, bad = 0;
    for (size_t P = 1; P <= 128; P += P < 65 ? 1 : 21)
        for (int dt = 0; dt < 3; dt++)
            for (int layout = 0; layout < 2; layout++)
                for (int inv = 0; inv < 2; inv++) {
                    size_t nh = 1 + next32() % 7, hs = 2 * P + next32() % 3;
                    size_t es = posenc__dtype_size(dt), n = nh * hs;
                    for (size_t i = 0; i < n; i++) {
                        float f = unit() * 3.0f;
                        if (es == 4)
                            memcpy(&in[i], &f, 4);
                        else
                            ((uint16_t *)in)[i] = dt == POSENC_DTYPE_BF16 ? posenc__f32_to_bf16(f)
                                                                          : posenc__f32_to_f16(f);
                    }
                    for (size_t k = 0; k < P; k++) {
                        c[k] = unit();
                        s[k] = unit();
                    }
                    memset(a, 0, sizeof a);
                    memset(b, 0, sizeof b);
                    posenc__heads_scalar(dt, layout, P, c, s, inv, in, hs, a, hs, nh);
                    body16_heads(dt, layout, P, c, s, inv, in, hs, b, hs, nh);
                    bad += memcmp(a, b, n * es) != 0;
                    memcpy(a, in, n * es);
                    memcpy(b, in, n * es);
                    posenc__heads_scalar(dt, layout, P, c, s, inv, a, hs, a, hs, nh);
                    body16_heads(dt, layout, P, c, s, inv, b, hs, b, hs, nh);
                    bad += memcmp(a, b, n * es) != 0;
                    runs += 2;
                }
    CHECK(runs > 700);
    CHECK_EQ_INT(bad, 0);
}

/* The row select against its definition, every length up to 256. */
TEST(select16_equals_its_definition)
{
    static float t[256], h[256], w[256], o1[256], o2[256];
    static uint32_t mh[256], mw[256];
    int bad = 0;
    for (size_t n = 0; n <= 256; n++) {
        for (size_t i = 0; i < n; i++) {
            t[i] = unit();
            h[i] = unit();
            w[i] = unit();
            uint32_t q = next32() % 3;
            mh[i] = q == 1 ? 0xFFFFFFFFu : 0u;
            mw[i] = q == 2 ? 0xFFFFFFFFu : 0u;
        }
        posenc__select_scalar(n, t, h, w, mh, mw, o1);
        body16_select(n, t, h, w, mh, mw, o2);
        for (size_t i = 0; i < n; i++) {
            float want = mw[i] ? w[i] : mh[i] ? h[i] : t[i];
            bad += memcmp(&want, &o1[i], 4) != 0 || memcmp(&want, &o2[i], 4) != 0;
        }
    }
    CHECK_EQ_INT(bad, 0);
}

int main(void)
{
    RUN(body16_equals_the_reference);
    RUN(select16_equals_its_definition);
    return check_summary("body16");
}
