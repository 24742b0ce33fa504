/* cache.c - the cos/sin cache: c and s of every pair for positions
 * 0 .. max_pos - 1, built once from a posenc_rope and shared read-only by
 * every layer, head and thread. Row p holds c[0..P) then s[0..P). */
#include "kernels.h"

#include <stdlib.h>

#define CACHE_ALIGN 64u

posenc_status posenc_rope_cache_size(const posenc_rope *r, int64_t max_pos, size_t *bytes)
{
    if (!r || !bytes)
        return POSENC_ERR_NULL;
    posenc_status st = posenc__rope_check(r);
    if (st != POSENC_OK)
        return st;
    if (max_pos < 1 || max_pos > POSENC_MAX_POS + 1)
        return POSENC_ERR_POS;
    /* header + alignment slack + max_pos * rotary_dim floats */
    size_t row = (size_t)r->rotary_dim * sizeof(float);
    if ((uint64_t)max_pos > (SIZE_MAX - sizeof(posenc_rope_cache) - CACHE_ALIGN) / row)
        return POSENC_ERR_OVERFLOW;
    *bytes = sizeof(posenc_rope_cache) + CACHE_ALIGN + (size_t)max_pos * row;
    return POSENC_OK;
}

/* Builds the cache in buf, which the callers checked: size and alignment. */
static posenc_rope_cache *build(const posenc_rope *r, int64_t max_pos, void *buf)
{
    posenc_rope_cache *c = buf;
    memset(c, 0, sizeof *c);
    c->magic = POSENC__CACHE_MAGIC;
    c->max_pos = max_pos;
    c->n_pairs = r->rotary_dim / 2;
    c->attn_factor = r->attn_factor;
    memcpy(c->inv_freq_hi, r->inv_freq_hi, c->n_pairs * sizeof(double));
    memcpy(c->inv_freq_lo, r->inv_freq_lo, c->n_pairs * sizeof(double));
    uintptr_t t = (uintptr_t)((char *)buf + sizeof *c);
    t = (t + CACHE_ALIGN - 1) & ~(uintptr_t)(CACHE_ALIGN - 1);
    c->table = (float *)t;
    size_t P = c->n_pairs;
    /* table[p][0..P) = c, table[p][P..2P) = s, for p < max_pos */
    posenc__sincos_table_f32(0, (size_t)max_pos, c->inv_freq_hi, c->inv_freq_lo, P,
                             c->attn_factor, c->table, c->table + P, 2 * P);
    return c;
}

posenc_status posenc_rope_cache_init(const posenc_rope *r, int64_t max_pos, void *buf,
                                     size_t buf_size, posenc_rope_cache **out)
{
    size_t need;
    posenc_status st = posenc_rope_cache_size(r, max_pos, &need);
    if (st != POSENC_OK)
        return st;
    if (!buf || !out)
        return POSENC_ERR_NULL;
    if (buf_size < need || (uintptr_t)buf % 16u)
        return POSENC_ERR_RANGE;
    *out = build(r, max_pos, buf);
    return POSENC_OK;
}

posenc_status posenc_rope_cache_create(const posenc_rope *r, int64_t max_pos,
                                       posenc_rope_cache **out)
{
    size_t need;
    posenc_status st = posenc_rope_cache_size(r, max_pos, &need);
    if (st != POSENC_OK)
        return st;
    if (!out)
        return POSENC_ERR_NULL;
    void *buf = malloc(need); /* malloc aligns for double, all the header needs */
    if (!buf)
        return POSENC_ERR_NOMEM;
    posenc_rope_cache *c = build(r, max_pos, buf);
    c->owned = 1;
    *out = c;
    return POSENC_OK;
}

void posenc_rope_cache_free(posenc_rope_cache *cache)
{
    if (cache && cache->owned) {
        cache->magic = 0;
        free(cache);
    }
}

int64_t posenc_rope_cache_max_pos(const posenc_rope_cache *cache)
{
    return cache ? cache->max_pos : 0;
}

posenc_status posenc_rope_cache_row(const posenc_rope_cache *cache, int64_t pos,
                                    const float **cos_row, const float **sin_row)
{
    if (!cache || !cos_row || !sin_row)
        return POSENC_ERR_NULL;
    if (pos < 0 || pos >= cache->max_pos)
        return POSENC_ERR_POS;
    const float *row = cache->table + (size_t)pos * 2 * cache->n_pairs;
    *cos_row = row;
    *sin_row = row + cache->n_pairs;
    return POSENC_OK;
}
