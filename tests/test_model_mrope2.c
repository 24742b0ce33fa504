/* test_model_mrope2.c - the hw-alternating M-RoPE rule (posenc_mrope_init
 * POSENC_MROPE_HW_ALTERNATING: h and w pair by pair, then t) by hand, and
 * ERNIE 4.5 VL (ernie4_5_vl_moe, ernie4_5_vl_moe_text) through the registry:
 * the section written [h, w, t], the code's defaults, the rotation against
 * a double-precision replay of transformers' own steps (the pre-permuted
 * inv_freq, the split, stack and flatten, repeat_interleave, rotate_half_text:
 * transformers 5.23.0 models/ernie4_5_vl_moe/modeling_ernie4_5_vl_moe.py
 * L75-126, L166-197), and the refusals; NeoMME (neomme) the same way: its
 * per-type sets, rows and columns at even and odd pairs (sections [0, P/2,
 * P/2]) against a replay of its recomposition_frequencies and rotate_half
 * (models/neomme/modeling_neomme.py L90-169, L209-249), and the keys its
 * config class would fill in refused. Checked against transformers'
 * running code in tests/hf/test_mrope2_hf.py. Needs jansson for the
 * registry part. */
#include "check.h"

#include "posenc.h"

#include <math.h>
#include <string.h>

TEST(hw_alternating_by_hand)
{
    posenc_mrope m;
    /* ERNIE's default [h, w, t] = [22, 22, 20], posenc's [t, h, w] = [20, 22, 22]:
     * H W H W .. (44 pairs) then 20 T */
    const uint32_t e[3] = {20, 22, 22};
    CHECK(posenc_mrope_init(&m, 64, e, POSENC_MROPE_HW_ALTERNATING) == POSENC_OK);
    static const char want[] = "HWHWHWHWHWHWHWHWHWHWHWHWHWHWHWHWHWHWHWHWHWHW"
                               "TTTTTTTTTTTTTTTTTTTT";
    int bad = 0;
    for (int k = 0; k < 64; k++)
        bad += "THW"[m.axis[k]] != want[k];
    CHECK_EQ_INT(bad, 0);
    CHECK(m.rule == POSENC_MROPE_HW_ALTERNATING && m.section[0] == 20);
    /* two axes only (NeoMME's shape): [0, 4, 4] over 8 pairs */
    const uint32_t n[3] = {0, 4, 4};
    CHECK(posenc_mrope_init(&m, 8, n, POSENC_MROPE_HW_ALTERNATING) == POSENC_OK);
    static const uint8_t w8[8] = {1, 2, 1, 2, 1, 2, 1, 2};
    CHECK(memcmp(m.axis, w8, 8) == 0);
    /* t only */
    const uint32_t t[3] = {3, 0, 0};
    CHECK(posenc_mrope_init(&m, 3, t, POSENC_MROPE_HW_ALTERNATING) == POSENC_OK);
    CHECK(m.axis[0] == 0 && m.axis[1] == 0 && m.axis[2] == 0);
    /* h != w (torch.stack needs equal sizes), a wrong sum: refused, *m kept */
    posenc_mrope keep = m;
    const uint32_t uneq[3] = {20, 24, 20};
    CHECK(posenc_mrope_init(&m, 64, uneq, POSENC_MROPE_HW_ALTERNATING) == POSENC_ERR_RANGE);
    CHECK(posenc_mrope_init(&m, 63, e, POSENC_MROPE_HW_ALTERNATING) == POSENC_ERR_RANGE);
    CHECK(memcmp(&m, &keep, sizeof m) == 0);
    CHECK(strcmp(posenc_mrope_rule_name(POSENC_MROPE_HW_ALTERNATING), "hw-alternating") == 0);
    CHECK(strcmp(posenc_mrope_rule_name((posenc_mrope_rule)3), "unknown") == 0);
}

TEST(text_positions_are_plain_rope)
{
    /* t = h = w: every pair turns by the one position, exactly RoPE's */
    posenc_rope r;
    CHECK(posenc_rope_init(&r, 128, 128, 500000.0, POSENC_LAYOUT_INTERLEAVED) == POSENC_OK);
    posenc_mrope m;
    const uint32_t e[3] = {20, 22, 22};
    CHECK(posenc_mrope_init(&m, 64, e, POSENC_MROPE_HW_ALTERNATING) == POSENC_OK);
    static const int64_t P[] = {0, 1, 7, 4095, 131071, 999999};
    for (size_t p = 0; p < sizeof P / sizeof P[0]; p++) {
        double a[128], b[128];
        float af[128], bf[128];
        for (int i = 0; i < 128; i++)
            af[i] = bf[i] = (float)(a[i] = b[i] = cos(0.3 * i + (double)p) - 0.1);
        CHECK(posenc_mrope_vec_f64(&r, &m, P[p], P[p], P[p], POSENC_FORWARD, a) == POSENC_OK);
        CHECK(posenc_rope_vec_f64(&r, P[p], POSENC_FORWARD, b) == POSENC_OK);
        CHECK(memcmp(a, b, sizeof a) == 0);
        CHECK(posenc_mrope_vec_f32(&r, &m, P[p], P[p], P[p], POSENC_FORWARD, af) == POSENC_OK);
        CHECK(posenc_rope_vec_f32(&r, P[p], POSENC_FORWARD, bf) == POSENC_OK);
        CHECK(memcmp(af, bf, sizeof af) == 0);
    }
}

#ifdef POSENC_HAVE_JSON

#include "model_harness.h"

/* ERNIE 4.5 VL's rotation of one head as transformers computes it, in
 * double, step by step (modeling_ernie4_5_vl_moe.py):
 *   L91      inv_freq[j] = base^(-2j/d), j < d/2
 *   L94-100  inv_freq_3d[:s_h+s_w] = cat(inv_freq[:-s_t][0::2],
 *            inv_freq[:-s_t][1::2]); inv_freq_3d[-s_t:] = inv_freq[-s_t:]
 *   L110     freqs[a][j] = pos[a] * inv_freq_3d[j] for the axes a = t, h, w
 *   L123     split freqs by [s_h, s_w, s_t]; chunk i from axis (i + 1) % 3
 *   L124-126 stack([f_h, f_w]).flatten(), cat f_t, repeat_interleave(2)
 *   L169-197 q * cos + rotate_half_text(q) * sin, rotate_half_text(x) =
 *            stack(-x[1::2], x[0::2]).flatten()
 * Never posenc's pair table. sec is the config's [h, w, t]. */
static void ernie_reference(const double *x, double *out, int d, double base,
                            const int sec[3], const int64_t pos[3])
{
    int P = d / 2, hw = sec[0] + sec[1];
    double inv[256], inv3[256], f[3][256], comp[256], cosv[512], sinv[512], rh[512];
    for (int j = 0; j < P; j++)
        inv[j] = 1.0 / pow(base, (double)(2 * j) / d);
    for (int j = 0; j < hw / 2; j++) {
        inv3[j] = inv[2 * j];               /* inv_freq[:-t][0::2] */
        inv3[hw / 2 + j] = inv[2 * j + 1];  /* inv_freq[:-t][1::2] */
    }
    for (int j = hw; j < P; j++)
        inv3[j] = inv[j];
    for (int a = 0; a < 3; a++)
        for (int j = 0; j < P; j++)
            f[a][j] = (double)pos[a] * inv3[j];
    /* chunks: [0, s_h) from axis 1 (h), [s_h, hw) from axis 2 (w), [hw, P) from 0 (t) */
    for (int j = 0; j < sec[0]; j++) {
        comp[2 * j] = f[1][j];
        comp[2 * j + 1] = f[2][sec[0] + j];
    }
    for (int j = hw; j < P; j++)
        comp[j] = f[0][j];
    for (int j = 0; j < P; j++) {
        cosv[2 * j] = cosv[2 * j + 1] = cos(comp[j]);
        sinv[2 * j] = sinv[2 * j + 1] = sin(comp[j]);
        rh[2 * j] = -x[2 * j + 1];
        rh[2 * j + 1] = x[2 * j];
    }
    for (int i = 0; i < d; i++)
        out[i] = x[i] * cosv[i] + rh[i] * sinv[i];
}

/* baidu/ERNIE-4.5-VL-28B-A3B-PT's text model as transformers' config class
 * has it (configuration_ernie4_5_vl_moe.py L84, L118-131; the rotary
 * module's default section, modeling L72) */
static const char ERNIE[] =
    "{\"model_type\": \"ernie4_5_vl_moe\", \"architectures\": "
    "[\"Ernie4_5_VLMoeForConditionalGeneration\"], \"text_config\": {\"hidden_size\": 2560, "
    "\"num_attention_heads\": 20, \"num_key_value_heads\": 4, \"num_hidden_layers\": 28, "
    "\"max_position_embeddings\": 131072, \"rope_parameters\": {\"rope_type\": \"default\", "
    "\"rope_theta\": 500000.0, \"mrope_section\": [22, 22, 20]}}}";

TEST(ernie_reads_and_rotates_as_its_code)
{
    const posenc_model_group *g;
    CHECK(read_text(ERNIE, NULL) == POSENC_OK);
    CHECK(strcmp(posenc_model_type(&model), "ernie4_5_vl_moe_text") == 0);
    CHECK(strcmp(posenc_model_part(&model), "text_config") == 0 &&
          posenc_model_n_layer(&model) == 28);
    CHECK(group_at(&model, 27, &g) == POSENC_OK && g->mrope &&
          g->mrope_rule == POSENC_MROPE_HW_ALTERNATING && g->mrope_section[0] == 20 &&
          g->mrope_section[1] == 22 && g->mrope_section[2] == 22);
    posenc_rope r;
    CHECK(posenc_model_layer_rope(&model, 0, 0, &r) == POSENC_OK);
    CHECK(r.head_dim == 128 && r.rotary_dim == 128 && r.layout == POSENC_LAYOUT_INTERLEAVED &&
          r.base == 500000.0);
    posenc_mrope mr;
    CHECK(posenc_model_layer_mrope(&model, 0, &mr, NULL, NULL) == POSENC_OK);
    CHECK(mr.axis[0] == POSENC_AXIS_H && mr.axis[1] == POSENC_AXIS_W &&
          mr.axis[43] == POSENC_AXIS_W && mr.axis[44] == POSENC_AXIS_T);
    char line[512];
    CHECK(posenc_model_layer_describe(&model, 0, line, sizeof line) == POSENC_OK);
    CHECK(strstr(line, "mrope_section=20:22:22 mrope_rule=hw-alternating") != NULL);
    static const int sec[3] = {22, 22, 20};
    static const int64_t P3[][3] = {{5, 2, 7}, {0, 11, 3}, {4096, 17, 29}, {999999, 12345, 54321}};
    for (size_t p = 0; p < sizeof P3 / sizeof P3[0]; p++) {
        double x[128], want[128];
        for (int i = 0; i < 128; i++)
            x[i] = sin(0.41 * i + 0.13 * (double)p) - 0.2;
        ernie_reference(x, want, 128, 500000.0, sec, P3[p]);
        CHECK(posenc_mrope_vec_f64(&r, &mr, P3[p][0], P3[p][1], P3[p][2], POSENC_FORWARD, x) ==
              POSENC_OK);
        /* libm's cos/sin of a double angle against posenc's double-double
         * angle: the angle's rounding, |p| 2^-52 relative */
        double tol = 4e-16 * (1.0 + (double)(P3[p][0] + P3[p][1] + P3[p][2]));
        for (int i = 0; i < 128; i++)
            CHECK_NEAR(x[i], want[i], tol);
    }
    /* another section, and the replay rejects a wrong table: [16, 16, 32] */
    CHECK(read_text("{\"model_type\": \"ernie4_5_vl_moe_text\", \"rope_parameters\": "
                    "{\"rope_type\": \"default\", \"rope_theta\": 10000.0, "
                    "\"mrope_section\": [16, 16, 32]}}",
                    NULL) == POSENC_OK);
    CHECK(posenc_model_layer_rope(&model, 0, 0, &r) == POSENC_OK);
    CHECK(posenc_model_layer_mrope(&model, 0, &mr, NULL, NULL) == POSENC_OK);
    static const int sec2[3] = {16, 16, 32};
    const int64_t pos[3] = {40, 3, 9};
    double x[128], want[128], y[128];
    for (int i = 0; i < 128; i++)
        x[i] = y[i] = cos(0.29 * i) + 0.5;
    ernie_reference(x, want, 128, 10000.0, sec2, pos);
    CHECK(posenc_mrope_vec_f64(&r, &mr, pos[0], pos[1], pos[2], POSENC_FORWARD, x) == POSENC_OK);
    double err = 0;
    for (int i = 0; i < 128; i++)
        err = fmax(err, fabs(x[i] - want[i]));
    CHECK(err < 1e-13);
    /* the chunk rule on the same sections misses the replay */
    const uint32_t thw[3] = {32, 16, 16};
    posenc_mrope wrong;
    CHECK(posenc_mrope_init(&wrong, 64, thw, POSENC_MROPE_CONTIGUOUS) == POSENC_OK);
    CHECK(posenc_mrope_vec_f64(&r, &wrong, pos[0], pos[1], pos[2], POSENC_FORWARD, y) ==
          POSENC_OK);
    err = 0;
    for (int i = 0; i < 128; i++)
        err = fmax(err, fabs(y[i] - want[i]));
    CHECK(err > 1e-3);
}

TEST(ernie_defaults)
{
    /* no text_config keys: the config class's defaults (2560 / 20 = 128,
     * 28 layers, theta 500000) and the module's section [22, 22, 20] */
    const posenc_model_group *g;
    CHECK(read_text("{\"model_type\": \"ernie4_5_vl_moe\", \"text_config\": {}}", NULL) ==
          POSENC_OK);
    CHECK(posenc_model_n_layer(&model) == 28);
    CHECK(group_at(&model, 0, &g) == POSENC_OK && g->mrope && g->mrope_section[0] == 20 &&
          g->mrope_section[1] == 22 && g->rope.head_dim == 128 && g->rope.base == 500000.0);
}

static void refused(const char *json, const char *key, const char *word)
{
    posenc_config_error err;
    CHECK(posenc_model_from_config_text(json, strlen(json), NULL, &model, &err) != POSENC_OK);
    CHECK(strcmp(err.key, key) == 0);
    CHECK(strstr(err.detail, word) != NULL);
    if (strcmp(err.key, key) != 0 || !strstr(err.detail, word))
        fprintf(stderr, "refused: key %s: %s\n", err.key, err.detail);
}

#define ERNIE_RP(rp) "{\"model_type\": \"ernie4_5_vl_moe_text\", \"rope_parameters\": " rp "}"

TEST(ernie_refusals)
{
    /* L63-66: another rope type raises ValueError ("mrope" too) */
    refused(ERNIE_RP("{\"rope_type\": \"linear\", \"factor\": 2.0, \"rope_theta\": 1e4}"),
            "rope_parameters.rope_type", "default type only");
    refused(ERNIE_RP("{\"rope_type\": \"mrope\", \"rope_theta\": 1e4}"),
            "rope_parameters.rope_type", "default type only");
    refused(ERNIE_RP("{\"type\": 3, \"rope_theta\": 1e4}"), "rope_parameters.type",
            "an integer");
    /* L97-99: a t section of 0 */
    refused(ERNIE_RP("{\"rope_type\": \"default\", \"rope_theta\": 1e4, "
                     "\"mrope_section\": [32, 32, 0]}"),
            "rope_parameters.mrope_section", "inv_freq[:-0]");
    /* L124: torch.stack of h and w needs equal sections; the message shows
     * the config's own order */
    refused(ERNIE_RP("{\"rope_type\": \"default\", \"rope_theta\": 1e4, "
                     "\"mrope_section\": [20, 24, 20]}"),
            "rope_parameters.mrope_section", "[20, 24, 20] does not split the 64 rotary pairs "
                                             "under the hw-alternating rule");
    refused(ERNIE_RP("{\"rope_type\": \"default\", \"rope_theta\": 1e4, "
                     "\"mrope_section\": [22, 22]}"),
            "rope_parameters.mrope_section", "three pair counts [h, w, t]");
    refused(ERNIE_RP("{\"rope_type\": \"default\", \"rope_theta\": 1e4, "
                     "\"mrope_section\": [22, 22, -1]}"),
            "rope_parameters.mrope_section", "[h, w, t], each 0 to");
    refused(ERNIE_RP("{\"rope_type\": \"default\", \"rope_theta\": 1e4, "
                     "\"mrope_interleaved\": true}"),
            "rope_parameters.mrope_interleaved", "always takes the hw-alternating rule");
}

/* NeoMME's rotation of one head as transformers computes it, in double
 * (modeling_neomme.py): inv_freq over dim = rotary_dim (L135-144), freqs
 * per axis (rows, columns: L153-155), recomposition_frequencies (L161-169:
 * freq[0][..., 0::2] and freq[1][..., 1::2] stacked and flattened, then
 * cat([angles, angles])), apply_rotary_pos_emb (L216-249: rotate_half on
 * the first rotary_dim elements, the rest passed through). */
static void neomme_reference(const double *x, double *out, int d, int rot, double base,
                             int64_t row, int64_t col)
{
    int P = rot / 2;
    double ang[128], cosv[256], sinv[256], rh[256];
    for (int j = 0; j < P / 2; j++) {
        ang[2 * j] = (double)row / pow(base, (double)(2 * (2 * j)) / rot);
        ang[2 * j + 1] = (double)col / pow(base, (double)(2 * (2 * j + 1)) / rot);
    }
    for (int i = 0; i < rot; i++) {
        cosv[i] = cos(ang[i % P]);
        sinv[i] = sin(ang[i % P]);
        rh[i] = i < P ? -x[i + P] : x[i - P];
    }
    for (int i = 0; i < d; i++)
        out[i] = i < rot ? x[i] * cosv[i] + rh[i] * sinv[i] : x[i];
}

TEST(neomme_reads_and_rotates_as_its_code)
{
    /* no rope_parameters: the class's sets (full 1e6 and a quarter, sliding
     * 1e4 and the whole head); 17 layers, full at 5, 11 and the last */
    const posenc_model_group *g;
    CHECK(read_text("{\"model_type\": \"neomme\"}", NULL) == POSENC_OK);
    CHECK(posenc_model_n_layer(&model) == 17);
    CHECK(group_at(&model, 16, &g) == POSENC_OK && g->mrope &&
          g->mrope_rule == POSENC_MROPE_HW_ALTERNATING && g->mrope_section[0] == 0 &&
          g->mrope_section[1] == 4 && g->mrope_section[2] == 4);
    CHECK(group_at(&model, 4, &g) == POSENC_OK && g->mrope_section[1] == 16);
    static const struct {
        uint32_t layer, rot;
        double base;
    } L[] = {{0, 64, 10000.0}, {5, 16, 1e6}, {11, 16, 1e6}, {12, 64, 10000.0}};
    static const int64_t RC[][2] = {{3, 9}, {0, 17}, {4095, 7}, {999999, 123456}};
    for (size_t l = 0; l < sizeof L / sizeof L[0]; l++) {
        posenc_rope r;
        posenc_mrope mr;
        CHECK(posenc_model_layer_rope(&model, L[l].layer, 0, &r) == POSENC_OK);
        CHECK(r.head_dim == 64 && r.rotary_dim == L[l].rot && r.layout == POSENC_LAYOUT_HALF &&
              r.base == L[l].base);
        CHECK(posenc_model_layer_mrope(&model, L[l].layer, &mr, NULL, NULL) == POSENC_OK);
        for (size_t p = 0; p < sizeof RC / sizeof RC[0]; p++) {
            double x[64], want[64];
            for (int i = 0; i < 64; i++)
                x[i] = cos(0.23 * i + 0.7 * (double)p) + 0.1;
            neomme_reference(x, want, 64, (int)L[l].rot, L[l].base, RC[p][0], RC[p][1]);
            /* t is no axis of NeoMME's: any value */
            CHECK(posenc_mrope_vec_f64(&r, &mr, 77, RC[p][0], RC[p][1], POSENC_FORWARD, x) ==
                  POSENC_OK);
            double tol = 4e-16 * (1.0 + (double)(RC[p][0] + RC[p][1]));
            for (int i = 0; i < 64; i++)
                CHECK_NEAR(x[i], want[i], tol);
        }
    }
    /* a set's mrope_section is not read by the code: ignored */
    CHECK(read_text("{\"model_type\": \"neomme\", \"num_hidden_layers\": 2, "
                    "\"rope_parameters\": {\"full_attention\": {\"rope_type\": \"default\", "
                    "\"rope_theta\": 5e5, \"partial_rotary_factor\": 0.5, "
                    "\"mrope_section\": [8, 8]}, \"sliding_attention\": {\"rope_type\": "
                    "\"default\", \"rope_theta\": 1e4, \"partial_rotary_factor\": 1.0}}}",
                    NULL) == POSENC_OK);
    CHECK(group_at(&model, 1, &g) == POSENC_OK && g->rope.base == 5e5 &&
          g->rope.rotary_dim == 32 && g->mrope_section[1] == 8);
    CHECK(strstr(posenc_model_ignored(&model), "mrope_section") != NULL);
}

#define NEOMME_SETS(full_prf)                                                                  \
    "{\"model_type\": \"neomme\", \"num_hidden_layers\": 2, \"rope_parameters\": "           \
    "{\"full_attention\": {\"rope_type\": \"default\", \"rope_theta\": 1e6" full_prf "}, "    \
    "\"sliding_attention\": {\"rope_type\": \"default\", \"rope_theta\": 1e4, "               \
    "\"partial_rotary_factor\": 1.0}}}"

TEST(neomme_refusals)
{
    /* the class would fill these in (configuration_neomme.py L141-154) */
    refused("{\"model_type\": \"neomme\", \"rope_theta\": 5e5}", "rope_theta",
            "both layer types");
    refused(NEOMME_SETS(""), "rope_parameters.full_attention.partial_rotary_factor",
            "per-type default");
    /* 26 rotated dims, 13 pairs: rows 0::2 (7) and columns 1::2 (6) do not stack */
    refused(NEOMME_SETS(", \"partial_rotary_factor\": 0.40625"),
            "rope_parameters.full_attention.partial_rotary_factor", "13 rotary pairs");
}

#endif /* POSENC_HAVE_JSON */

int main(void)
{
    RUN(hw_alternating_by_hand);
    RUN(text_positions_are_plain_rope);
#ifdef POSENC_HAVE_JSON
    RUN(ernie_reads_and_rotates_as_its_code);
    RUN(ernie_defaults);
    RUN(ernie_refusals);
    RUN(neomme_reads_and_rotates_as_its_code);
    RUN(neomme_refusals);
#else
    check_skip("model_mrope2", 5, "ERNIE 4.5 VL's and NeoMME's registry entries: built without jansson",
               "libjansson-dev");
#endif
    return check_summary("model_mrope2");
}
