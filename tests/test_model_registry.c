/* test_model_registry.c - the family registry (src/config/config_families.c):
 * sorted, cited, found by model type and by architecture; then every model
 * fixture in tests/data/models/ read by the model reader
 * (src/config/config_model.c) and checked against tests/data/model_golden.txt,
 * which tools/gen_rope_golden.py --models derives from the same JSON with its
 * own reading of each family's modeling code: the scheme of every layer, the
 * RoPE dimensions, layout, base, frequencies (double-double) and attention
 * factor, ALiBi slopes, absolute tables, T5 buckets and query scalings. (The
 * program's EXPLAIN MODEL text of the fixtures is tests/data/
 * model_explain_golden.txt, checked by tests/cli_tests.sh.) Needs jansson. */
#include "check.h"

#ifndef POSENC_HAVE_JSON

int main(void)
{
    (void)check__failed_checks;
    check_skip("model_registry", 3, "the family registry and the fixtures against model_golden.txt: built without jansson", "libjansson-dev");
    return check_summary("model_registry");
}

#else

#include "model_harness.h"

/* ---- the registry ------------------------------------------------------------------ */

TEST(registry_sorted_and_cited)
{
    const posenc_model_family *t;
    size_t n = posenc__families(&t);
    CHECK(n >= 55);
    CHECK(posenc__families(NULL) == n);
    for (size_t i = 0; i < n; i++) {
        CHECK(t[i].model_type && t[i].source && strlen(t[i].source) > 10);
        if (i > 0)
            CHECK(strcmp(t[i - 1].model_type, t[i].model_type) < 0);
        CHECK(posenc__family_find(t[i].model_type) == &t[i]);
        /* a wrapper of transformers names its part's default type; only a
         * remote-code wrapper (InternVL chat, VILA) may leave it to the part */
        CHECK(t[i].nested == NULL || t[i].nested_type != NULL ||
              strncmp(t[i].source, "models/", 7) != 0);
    }
    /* the families the issue names, at least */
    static const char *const need[] = {
        "llama", "llama4", "llama4_text", "mistral", "mistral3", "ministral3", "mixtral", "qwen",
        "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "gemma", "gemma2", "gemma3", "gemma3_text",
        "phi", "phi3", "phimoe", "deepseek_v2", "deepseek_v3", "glm", "glm4", "glm4_moe",
        "chatglm", "gptj", "gpt_neox", "stablelm", "falcon", "RefinedWeb", "RefinedWebModel",
        "olmo", "olmo2", "olmo3", "cohere", "cohere2", "exaone4", "minicpm", "minicpm3",
        "internlm2", "starcoder2", "granite", "smollm3", "gpt_oss", "baichuan", "gpt2", "opt",
        "bert", "roberta", "distilbert", "bloom", "mpt", "t5", "mt5", "bart", "whisper",
        "qwen2_vl", "qwen2_5_vl", "qwen3_vl", NULL};
    for (int i = 0; need[i]; i++) {
        const posenc_model_family *f = posenc__family_find(need[i]);
        CHECK(f != NULL);
        if (!f)
            fprintf(stderr, "registry lacks %s\n", need[i]);
    }
    CHECK(posenc__family_find("no_such_type") == NULL);
    CHECK(posenc__family_find(NULL) == NULL);
    /* facts from the modeling code (see src/config/config_families_table.h) */
    CHECK(posenc__family_find("llama4_text")->layout == POSENC_LAYOUT_INTERLEAVED);
    CHECK(posenc__family_find("llama")->layout == POSENC_LAYOUT_HALF);
    CHECK(posenc__family_find("minicpm3")->layout == POSENC_LAYOUT_HALF);
    CHECK(posenc__family_find("minicpm3")->rotary == POSENC_ROTARY_QK_ROPE);
    CHECK(posenc__family_find("chatglm")->rotary == POSENC_ROTARY_HALF_HEAD);
    CHECK(posenc__family_find("glm4_moe")->layout == POSENC_LAYOUT_HALF);
    CHECK(posenc__family_find("glm4")->layout == POSENC_LAYOUT_INTERLEAVED);
    CHECK(posenc__family_find("bert")->scheme == POSENC_SCHEME_LEARNED);
    CHECK(posenc__family_find("opt")->pos_offset == 2);
    CHECK(posenc__family_find("roberta")->pos_offset == -1);
    CHECK(posenc__family_find("bloom")->scheme == POSENC_SCHEME_ALIBI);
    CHECK(posenc__family_find("t5")->scheme == POSENC_SCHEME_RELATIVE_BUCKETS);
    CHECK(posenc__family_find("qwen2_vl")->flags & POSENC_FAMILY_PART_OPTIONAL);
    CHECK(posenc__family_find("qwen2_vl_text")->flags & POSENC_FAMILY_MROPE);
    CHECK(posenc__family_find("qwen3_vl_text")->flags & POSENC_FAMILY_MROPE_ROUND_ROBIN);
    CHECK(!(posenc__family_find("glm4v_text")->flags & POSENC_FAMILY_MROPE_ROUND_ROBIN));
    CHECK(posenc__family_find("glm4v_text")->layout == POSENC_LAYOUT_INTERLEAVED);
    CHECK(posenc__family_find("glm4v_moe_text")->layout == POSENC_LAYOUT_HALF);
    CHECK(strcmp(posenc__family_find("qwen2_5_omni")->nested, "thinker_config.text_config") == 0);
    CHECK(posenc__family_find("qwen3_vl_text")->flags & POSENC_FAMILY_MROPE);
    CHECK(strcmp(posenc__family_find("qwen3_vl")->nested, "text_config") == 0);
    CHECK(posenc__family_find("gemma3_text")->base_default == 1000000.0);
    CHECK(posenc__family_find("gemma3_text")->local_base_default == 10000.0);
    /* families added from transformers 5.23.0 (issue 20; tests/hf probes them) */
    CHECK(posenc__family_find("ernie4_5")->layout == POSENC_LAYOUT_INTERLEAVED);
    CHECK(posenc__family_find("helium")->base_default == 100000.0);
    CHECK(posenc__family_find("nemotron")->partial_default == 0.5);
    CHECK(posenc__family_find("minimax_m2")->flags & POSENC_FAMILY_ROTARY_DIM);
    CHECK(posenc__family_find("mistral4")->qscale == POSENC_QSCALE_BETA);
    CHECK(posenc__family_find("youtu")->rotary == POSENC_ROTARY_QK_ROPE);
    CHECK(posenc__family_find("laguna")->flags & POSENC_FAMILY_TYPE_SETS);
    CHECK(posenc__family_find("modernbert")->flags & POSENC_FAMILY_GLOBAL_EVERY_N);
    CHECK(posenc__family_find("cohere2_moe")->full_rope == POSENC_TROPE_NONE);
    CHECK(posenc__family_find("hunyuan_v1_moe")->flags & POSENC_FAMILY_NTK_ALPHA);
    CHECK(posenc__family_find("dbrx")->refused != NULL);
    /* issue 36: layer_rope_theta read (quirk_granite_swa), two-config stacks */
    CHECK(posenc__family_find("granite_swa")->refused == NULL &&
          posenc__family_find("granite_swa")->quirks != NULL &&
          posenc__family_find("granite_swa")->quirks ==
              posenc__family_find("granitemoe_swa")->quirks);
    CHECK(posenc__family_find("t5gemma2")->stacks &&
          strcmp(posenc__family_find("t5gemma2")->stacks->part[1], "decoder") == 0);
    CHECK(posenc__family_by_arch("DiaForConditionalGeneration") == posenc__family_find("dia"));
    CHECK(posenc__family_by_arch("GraniteMoeForCausalLM") == posenc__family_find("granitemoe"));
    CHECK(posenc__family_by_arch("Ernie4_5_MoeForCausalLM") == posenc__family_find("ernie4_5_moe"));
}

TEST(registry_by_arch)
{
    CHECK(posenc__family_by_arch("LlamaForCausalLM") == posenc__family_find("llama"));
    CHECK(posenc__family_by_arch("RWForCausalLM") == posenc__family_find("RefinedWeb"));
    CHECK(posenc__family_by_arch("QWenLMHeadModel") == posenc__family_find("qwen"));
    CHECK(posenc__family_by_arch("ChatGLMModel") == posenc__family_find("chatglm"));
    CHECK(posenc__family_by_arch("GPT2LMHeadModel") == posenc__family_find("gpt2"));
    CHECK(posenc__family_by_arch("Gemma3ForCausalLM") ==
          posenc__family_find("gemma3_text"));
    CHECK(posenc__family_by_arch("Llama4ForCausalLM") ==
          posenc__family_find("llama4_text"));
    CHECK(posenc__family_by_arch("LlamaTokenizer") == NULL);
    CHECK(posenc__family_by_arch("Nothing") == NULL);
    CHECK(posenc__family_by_arch(NULL) == NULL);
}

/* ---- every fixture against the golden file -------------------------------------- */

#define MODEL_MAGIC "posenc-model-golden 1"

/* "0-2,4,6-8" -> in[i] = 1 for those layers; 0 on a malformed list. */
static int parse_layers(const char *s, unsigned char *in, uint32_t n)
{
    memset(in, 0, n);
    while (*s) {
        char *e;
        long a = strtol(s, &e, 10), b = a;
        if (e == s)
            return 0;
        if (*e == '-')
            b = strtol(e + 1, &e, 10);
        if (a < 0 || b < a || (uint32_t)b >= n)
            return 0;
        for (long i = a; i <= b; i++)
            in[i] = 1;
        s = *e == ',' ? e + 1 : e;
        if (*e && *e != ',')
            return 0;
    }
    return 1;
}

static const char *scheme_word(posenc_scheme s)
{
    return s == POSENC_SCHEME_RELATIVE_BUCKETS ? "buckets" : posenc_scheme_name(s);
}

TEST(fixtures_match_golden)
{
    FILE *f = fopen("tests/data/model_golden.txt", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    static char line[1 << 16];
    static unsigned char in[POSENC_MODEL_MAX_LAYERS], has_q[POSENC_MODEL_MAX_LAYERS];
    static posenc_rope r;
    CHECK(fgets(line, sizeof line, f) && strncmp(line, MODEL_MAGIC, strlen(MODEL_MAGIC)) == 0);
    int models = 0, total = -1, loaded = 0, rope_lines = 0, freqs = 0;
    char cur_list[4096] = "";
    uint32_t n_freq = 0, fk = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char w[32], a[4096] = "";
        if (line[0] == '#' || sscanf(line, "%31s", w) != 1)
            continue;
        const char *rest = line + strlen(w) + (line[strlen(w)] ? 1 : 0);
        if (strcmp(w, "model") == 0) {
            char path[512];
            snprintf(path, sizeof path, "tests/data/models/%s", rest);
            posenc_config_error err;
            posenc_status st = posenc_model_from_config(path, NULL, &model, &err);
            if (st != POSENC_OK)
                fprintf(stderr, "%s: %s\n", path, err.detail);
            CHECK(st == POSENC_OK);
            loaded = st == POSENC_OK;
            models++;
            memset(has_q, 0, sizeof has_q);
        } else if (!loaded) {
            continue;
        } else if (strcmp(w, "type") == 0) {
            CHECK(strcmp(model.model_type, rest) == 0);
        } else if (strcmp(w, "part") == 0) {
            CHECK(strcmp(model.part[0] ? model.part : "-", rest) == 0);
        } else if (strcmp(w, "layers") == 0) {
            CHECK_EQ_INT(model.n_layer, atoi(rest));
        } else if (strcmp(w, "schemes") == 0) {
            char *save = NULL, *tok = strtok_r((char *)rest, " ", &save);
            for (uint32_t i = 0; i < model.n_layer; i++) {
                const posenc_model_group *g;
                CHECK(tok && group_at(&model, i, &g) == POSENC_OK);
                if (tok && group_at(&model, i, &g) == POSENC_OK &&
                    strcmp(scheme_word(g->scheme), tok) != 0) {
                    fprintf(stderr, "%s layer %u: %s, golden %s\n", model.model_type, i,
                            scheme_word(g->scheme), tok);
                    CHECK(0);
                }
                tok = strtok_r(NULL, " ", &save);
            }
            CHECK(tok == NULL);
        } else if (strcmp(w, "rope") == 0) {
            long long cur;
            unsigned hd, rd;
            char lay[16];
            double base;
            CHECK(sscanf(rest, "%4095s %lld %u %u %15s %lf", a, &cur, &hd, &rd, lay, &base) == 6);
            snprintf(cur_list, sizeof cur_list, "%s", a);
            CHECK(parse_layers(a, in, model.n_layer));
            /* check the first layer of the list fully, the others' frequencies
             * against it (they share a group) */
            uint32_t first = 0;
            while (first < model.n_layer && !in[first])
                first++;
            CHECK(posenc_model_layer_rope(&model, first, cur, &r) == POSENC_OK);
            CHECK_EQ_INT(r.head_dim, hd);
            CHECK_EQ_INT(r.rotary_dim, rd);
            CHECK_EQ_INT(r.layout, strcmp(lay, "half") == 0 ? POSENC_LAYOUT_HALF
                                                             : POSENC_LAYOUT_INTERLEAVED);
            CHECK(r.base == base);
            for (uint32_t i = first + 1; i < model.n_layer; i++) {
                static posenc_rope o;
                if (!in[i])
                    continue;
                CHECK(posenc_model_layer_rope(&model, i, cur, &o) == POSENC_OK);
                CHECK(memcmp(o.inv_freq_hi, r.inv_freq_hi, sizeof o.inv_freq_hi) == 0);
            }
            n_freq = rd / 2;
            fk = 0;
            rope_lines++;
        } else if (strcmp(w, "attn") == 0) {
            double hi, lo;
            CHECK(sscanf(rest, "%lf %lf", &hi, &lo) == 2);
            CHECK_NEAR(r.attn_factor, hi, 4e-16 * hi);
        } else if (strcmp(w, "f") == 0) {
            unsigned k;
            double hi, lo;
            CHECK(sscanf(rest, "%u %lf %lf", &k, &hi, &lo) == 3 && k == fk && k < n_freq);
            if (k < n_freq)
                CHECK(fabs((r.inv_freq_hi[k] - hi) + (r.inv_freq_lo[k] - lo)) <= 1e-28 * hi);
            fk++;
            freqs++;
        } else if (strcmp(w, "alibi") == 0) {
            unsigned H;
            CHECK(sscanf(rest, "%4095s %u", a, &H) == 2 && parse_layers(a, in, model.n_layer));
            for (uint32_t i = 0; i < model.n_layer; i++) {
                const posenc_model_group *g;
                if (in[i])
                    CHECK(group_at(&model, i, &g) == POSENC_OK && g->n_head == H &&
                          g->alibi_bias_max == 8.0);
            }
            snprintf(cur_list, sizeof cur_list, "%s", a);
        } else if (strcmp(w, "slope") == 0) {
            unsigned h;
            double v, s[1024];
            uint32_t first = 0;
            parse_layers(cur_list, in, model.n_layer);
            while (first < model.n_layer && !in[first])
                first++;
            CHECK(sscanf(rest, "%u %lf", &h, &v) == 2 && h < 1024);
            CHECK(posenc_model_alibi_slopes(&model, first, s) == POSENC_OK);
            if (h < 1024)
                CHECK_NEAR(s[h], v, 4e-16 * v);
        } else if (strcmp(w, "learned") == 0 || strcmp(w, "sinusoid") == 0 ||
                   strcmp(w, "buckets") == 0) {
            long long p1, p2, p3 = 0;
            int got = sscanf(rest, "%4095s %lld %lld %lld", a, &p1, &p2, &p3);
            CHECK(got >= 3 && parse_layers(a, in, model.n_layer));
            for (uint32_t i = 0; i < model.n_layer; i++) {
                const posenc_model_group *g;
                if (!in[i] || group_at(&model, i, &g) != POSENC_OK)
                    continue;
                if (w[0] == 'l')
                    CHECK(g->scheme == POSENC_SCHEME_LEARNED && g->positions == p1 &&
                          g->offset == p2 && g->dim == p3);
                else if (w[0] == 's')
                    CHECK(g->scheme == POSENC_SCHEME_SINUSOID && g->positions == p1 &&
                          g->dim == p2 && (long long)g->sinusoid.order == p3);
                else
                    CHECK(g->scheme == POSENC_SCHEME_RELATIVE_BUCKETS && g->buckets == p1 &&
                          g->max_distance == p2 && g->bidirectional == p3);
            }
        } else if (strcmp(w, "qscale") == 0) {
            long long pos;
            double v, got = 0;
            CHECK(sscanf(rest, "%4095s %lld %lf", a, &pos, &v) == 3 &&
                  parse_layers(a, in, model.n_layer));
            for (uint32_t i = 0; i < model.n_layer; i++) {
                if (!in[i])
                    continue;
                has_q[i] = 1;
                CHECK(posenc_model_query_scale(&model, i, pos, &got) == POSENC_OK);
                CHECK_NEAR(got, v, 4e-16 * v);
            }
        } else if (strcmp(w, "end") == 0) {
            /* every layer without a qscale line has none */
            for (uint32_t i = 0; i < model.n_layer; i++) {
                double v = 0;
                if (!has_q[i])
                    CHECK(posenc_model_query_scale(&model, i, 1000000, &v) == POSENC_OK &&
                          v == 1.0);
            }
            CHECK(fk == n_freq || n_freq == 0);
            n_freq = fk = 0;
        } else if (strcmp(w, "total") == 0) {
            total = atoi(rest);
        } else {
            fprintf(stderr, "model_golden.txt: unknown line '%s'\n", line);
            CHECK(0);
        }
    }
    fclose(f);
    CHECK_EQ_INT(models, total);
    CHECK(models >= 60 && rope_lines >= 50 && freqs >= 2000);
}


int main(void)
{
    RUN(registry_sorted_and_cited);
    RUN(registry_by_arch);
    RUN(fixtures_match_golden);
    return check_summary("model_registry");
}

#endif
