/* gguf_writer.h - a tiny GGUF v2/v3 writer for the tests (included once
 * per program): metadata pairs of every type the tests need, tensors with
 * their data padded to the alignment, the file as a buffer. The format
 * follows ggml/include/gguf.h (llama-cpp-python 0.3.36's vendor/llama.cpp):
 * "GGUF", version, tensor count, pair count, the pairs, the tensor
 * descriptions, padding to the alignment, the data. */
#ifndef POSENC_TESTS_GGUF_WRITER_H
#define POSENC_TESTS_GGUF_WRITER_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a tiny GGUF writer ------------------------------------------------------ */

typedef struct buf {
    unsigned char *p;
    size_t n, cap;
} buf;

static inline void put(buf *b, const void *src, size_t n)
{
    if (b->n + n > b->cap) {
        size_t c = b->cap ? b->cap : 256;
        while (c < b->n + n)
            c *= 2;
        unsigned char *q = realloc(b->p, c);
        if (!q)
            abort();
        b->p = q;
        b->cap = c;
    }
    if (n)
        memcpy(b->p + b->n, src, n);
    b->n += n;
}
static inline void put_le(buf *b, uint64_t v, int bytes)
{
    unsigned char t[8];
    for (int k = 0; k < bytes; k++)
        t[k] = (unsigned char)(v >> (8 * k));
    put(b, t, (size_t)bytes);
}
static inline void put_u32(buf *b, uint32_t v) { put_le(b, v, 4); }
static inline void put_u64(buf *b, uint64_t v) { put_le(b, v, 8); }
static inline void put_f32(buf *b, float f)
{
    uint32_t w;
    memcpy(&w, &f, 4);
    put_u32(b, w);
}
static inline void put_str(buf *b, const char *s)
{
    put_u64(b, strlen(s));
    put(b, s, strlen(s));
}

typedef struct gw {
    uint32_t version, align;
    uint64_t n_kv, n_t;
    buf kv, ti, data;
} gw;

static inline gw gw_new(uint32_t version) { gw w = {version, 32, 0, 0, {0}, {0}, {0}}; return w; }

static inline void kv_head(gw *w, const char *key, uint32_t type)
{
    put_str(&w->kv, key);
    put_u32(&w->kv, type);
    w->n_kv++;
}
static inline void kv_u32(gw *w, const char *key, uint32_t v) { kv_head(w, key, 4); put_u32(&w->kv, v); }
static inline void kv_f32(gw *w, const char *key, float v) { kv_head(w, key, 6); put_f32(&w->kv, v); }
static inline void kv_bool(gw *w, const char *key, int v)
{
    kv_head(w, key, 7);
    unsigned char c = (unsigned char)v;
    put(&w->kv, &c, 1);
}
static inline void kv_str(gw *w, const char *key, const char *v) { kv_head(w, key, 8); put_str(&w->kv, v); }
static inline void kv_u64(gw *w, const char *key, uint64_t v) { kv_head(w, key, 10); put_u64(&w->kv, v); }
static inline void kv_f64(gw *w, const char *key, double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    kv_head(w, key, 12);
    put_u64(&w->kv, u);
}
static inline void kv_arr_i32(gw *w, const char *key, const int32_t *v, size_t n)
{
    kv_head(w, key, 9);
    put_u32(&w->kv, 5);
    put_u64(&w->kv, n);
    for (size_t i = 0; i < n; i++)
        put_u32(&w->kv, (uint32_t)v[i]);
}
static inline void kv_arr_bool(gw *w, const char *key, const unsigned char *v, size_t n)
{
    kv_head(w, key, 9);
    put_u32(&w->kv, 7);
    put_u64(&w->kv, n);
    put(&w->kv, v, n);
}
static inline void kv_arr_str(gw *w, const char *key, const char *const *v, size_t n)
{
    kv_head(w, key, 9);
    put_u32(&w->kv, 8);
    put_u64(&w->kv, n);
    for (size_t i = 0; i < n; i++)
        put_str(&w->kv, v[i]);
}

/* A tensor description and its data, padded to the alignment. */
static inline void tensor(gw *w, const char *name, uint32_t n_dims, const int64_t *ne, uint32_t type,
                   const void *data, size_t n_bytes)
{
    put_str(&w->ti, name);
    put_u32(&w->ti, n_dims);
    for (uint32_t d = 0; d < n_dims; d++)
        put_u64(&w->ti, (uint64_t)ne[d]);
    put_u32(&w->ti, type);
    put_u64(&w->ti, w->data.n);
    put(&w->data, data, n_bytes);
    while (w->data.n % w->align)
        put(&w->data, "", 1);
    w->n_t++;
}
static inline void tensor_f32(gw *w, const char *name, const float *v, size_t n)
{
    buf b = {0};
    for (size_t i = 0; i < n; i++)
        put_f32(&b, v[i]);
    int64_t ne[1] = {(int64_t)n};
    tensor(w, name, 1, ne, 0, b.p, b.n);
    free(b.p);
}

/* The file: header, pairs, tensor descriptions, padding, data. */
static inline buf gw_finish(gw *w)
{
    buf f = {0};
    put(&f, "GGUF", 4);
    put_u32(&f, w->version);
    put_u64(&f, w->n_t);
    put_u64(&f, w->n_kv);
    put(&f, w->kv.p, w->kv.n);
    put(&f, w->ti.p, w->ti.n);
    if (w->n_t)
        while (f.n % w->align)
            put(&f, "", 1);
    put(&f, w->data.p, w->data.n);
    free(w->kv.p);
    free(w->ti.p);
    free(w->data.p);
    return f;
}

/* Writes f to path; 1 on success. */
static inline int gw_save(const buf *f, const char *path)
{
    FILE *o = fopen(path, "wb");
    if (!o)
        return 0;
    int ok = fwrite(f->p, 1, f->n, o) == f->n;
    return fclose(o) == 0 && ok;
}

#endif
