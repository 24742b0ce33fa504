/* rope_golden.h - reads tests/data/rope_golden.txt (tools/gen_rope_golden.py):
 * per case the scaling's parameters, the attention factor, each pair's
 * inverse frequency as a double-double, and a few rotations. Shared by
 * test_scalings.c, test_config.c and test_plot_pictures.c. */
#ifndef POSENC_ROPE_GOLDEN_H
#define POSENC_ROPE_GOLDEN_H

#include "posenc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GOLDEN_MAGIC "posenc-rope-golden 1"
#define GOLDEN_MAX_CASES 32
#define GOLDEN_MAX_ROT 16

typedef struct golden_rot {
    int64_t pos;
    uint32_t k;
    double c, s; /* a cos(pos f_k), a sin(pos f_k) */
} golden_rot;

typedef struct golden_case {
    char name[64], source[64];
    posenc_layout layout;
    uint32_t head_dim, rotary_dim;
    double base;
    posenc_rope_config cfg; /* the parameters, lists inside */
    int64_t cur_len;
    double attn_hi, attn_lo;
    uint32_t n_freqs;
    double f_hi[POSENC_ROPE_MAX_HEAD_DIM / 2], f_lo[POSENC_ROPE_MAX_HEAD_DIM / 2];
    size_t n_rot;
    golden_rot rot[GOLDEN_MAX_ROT];
} golden_case;

static int golden__list(char *rest, double *v, size_t *n)
{
    char *end;
    long cnt = strtol(rest, &end, 10);
    if (cnt < 0 || cnt > (long)(POSENC_ROPE_MAX_HEAD_DIM / 2))
        return 0;
    for (long i = 0; i < cnt; i++) {
        char *p = end;
        v[i] = strtod(p, &end);
        if (end == p)
            return 0;
    }
    *n = (size_t)cnt;
    return 1;
}

/* Reads every case; returns the count, or -1 with a message on a malformed
 * file (wrong magic, unknown line, a total that does not match). */
static int golden_read(const char *path, golden_case *cases, int max)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "golden: cannot open %s\n", path);
        return -1;
    }
    static char line[1 << 16];
    int n = 0, total = -1, ok = 1;
    golden_case *c = NULL;
    if (!fgets(line, sizeof line, f) || strncmp(line, GOLDEN_MAGIC, strlen(GOLDEN_MAGIC)) != 0) {
        fprintf(stderr, "golden: %s: bad magic line\n", path);
        fclose(f);
        return -1;
    }
    while (ok && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char key[32] = "";
        int used = 0;
        if (line[0] == '#' || line[0] == 0)
            continue;
        if (sscanf(line, "%31s %n", key, &used) < 1)
            ok = 0;
        char *rest = line + used;
        if (!ok)
            break;
        if (strcmp(key, "case") == 0) {
            if (n == max) {
                ok = 0;
                break;
            }
            c = &cases[n++];
            memset(c, 0, sizeof *c);
            snprintf(c->name, sizeof c->name, "%s", rest);
            CHECK(posenc_rope_scaling_init(&c->cfg.scaling, POSENC_ROPE_DEFAULT) == POSENC_OK);
        } else if (strcmp(key, "total") == 0) {
            total = atoi(rest);
        } else if (!c) {
            ok = 0;
        } else if (strcmp(key, "source") == 0) {
            snprintf(c->source, sizeof c->source, "%s", rest);
        } else if (strcmp(key, "type") == 0) {
            ok = posenc_rope_type_parse(rest, &c->cfg.scaling.type) == POSENC_OK;
        } else if (strcmp(key, "layout") == 0) {
            c->layout = strcmp(rest, "half") == 0 ? POSENC_LAYOUT_HALF : POSENC_LAYOUT_INTERLEAVED;
        } else if (strcmp(key, "head_dim") == 0) {
            c->head_dim = (uint32_t)atoi(rest);
        } else if (strcmp(key, "rotary_dim") == 0) {
            c->rotary_dim = (uint32_t)atoi(rest);
        } else if (strcmp(key, "truncate") == 0) {
            c->cfg.scaling.truncate = atoi(rest);
        } else if (strcmp(key, "base") == 0) {
            c->base = strtod(rest, NULL);
        } else if (strcmp(key, "factor") == 0) {
            c->cfg.scaling.factor = strtod(rest, NULL);
        } else if (strcmp(key, "original") == 0) {
            c->cfg.scaling.original_max_position_embeddings = strtod(rest, NULL);
        } else if (strcmp(key, "beta_fast") == 0) {
            c->cfg.scaling.beta_fast = strtod(rest, NULL);
        } else if (strcmp(key, "beta_slow") == 0) {
            c->cfg.scaling.beta_slow = strtod(rest, NULL);
        } else if (strcmp(key, "mscale") == 0) {
            c->cfg.scaling.mscale = strtod(rest, NULL);
        } else if (strcmp(key, "mscale_all_dim") == 0) {
            c->cfg.scaling.mscale_all_dim = strtod(rest, NULL);
        } else if (strcmp(key, "attention_factor") == 0) {
            c->cfg.scaling.attention_factor = strtod(rest, NULL);
        } else if (strcmp(key, "low_freq_factor") == 0) {
            c->cfg.scaling.low_freq_factor = strtod(rest, NULL);
        } else if (strcmp(key, "high_freq_factor") == 0) {
            c->cfg.scaling.high_freq_factor = strtod(rest, NULL);
        } else if (strcmp(key, "partial_rotary_factor") == 0) { /* proportional only */
            c->cfg.scaling.partial_rotary_factor = strtod(rest, NULL);
        } else if (strcmp(key, "short_factor") == 0) {
            ok = golden__list(rest, c->cfg.short_factor, &c->cfg.scaling.n_short_factor);
        } else if (strcmp(key, "long_factor") == 0) {
            ok = golden__list(rest, c->cfg.long_factor, &c->cfg.scaling.n_long_factor);
        } else if (strcmp(key, "freq_factors") == 0) {
            ok = golden__list(rest, c->cfg.freq_factors, &c->cfg.scaling.n_freq_factors);
        } else if (strcmp(key, "cur_len") == 0) {
            c->cur_len = strtoll(rest, NULL, 10);
        } else if (strcmp(key, "attn") == 0) {
            ok = sscanf(rest, "%lf %lf", &c->attn_hi, &c->attn_lo) == 2;
        } else if (strcmp(key, "freqs") == 0) {
            c->n_freqs = (uint32_t)atoi(rest);
            if (c->n_freqs > POSENC_ROPE_MAX_HEAD_DIM / 2)
                ok = 0;
            for (uint32_t k = 0; ok && k < c->n_freqs; k++) {
                unsigned kk;
                ok = fgets(line, sizeof line, f) &&
                     sscanf(line, "%u %lf %lf", &kk, &c->f_hi[k], &c->f_lo[k]) == 3 && kk == k;
            }
        } else if (strcmp(key, "rot") == 0) {
            long long pos = 0;
            ok = c->n_rot < GOLDEN_MAX_ROT;
            if (ok) {
                golden_rot *r = &c->rot[c->n_rot];
                ok = sscanf(rest, "%lld %u %lf %lf", &pos, &r->k, &r->c, &r->s) == 4;
                r->pos = pos;
                c->n_rot++;
            }
        } else if (strcmp(key, "end") == 0) {
            c->cfg.head_dim = c->head_dim;
            c->cfg.rotary_dim = c->rotary_dim;
            c->cfg.base = c->base;
            c->cfg.layout = c->layout;
            c = NULL;
        } else {
            ok = 0;
        }
    }
    fclose(f);
    if (!ok || total != n || c != NULL) {
        fprintf(stderr, "golden: %s: malformed near '%.60s' (total %d, read %d)\n", path, line,
                total, n);
        return -1;
    }
    return n;
}

#endif
