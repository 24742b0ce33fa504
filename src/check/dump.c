/* dump.c - the exchange format of posenc check and posenc golden: a
 * safetensors file with positions and x, y (or cos, sin), read through the
 * library's strict header reader (src/formats/safetensors.c) and written by the small
 * writer below (header padded with spaces to a multiple of 8 bytes, as the
 * reference writer does, so every tensor's data is aligned). */
#include "halfs.h"
#include "internal.h"
#include "posenc_check.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static const char *dtype_name(posenc_dtype d)
{
    return d == POSENC_DTYPE_F32 ? "F32" : d == POSENC_DTYPE_BF16 ? "BF16" : "F16";
}

static unsigned dtype_size(posenc_dtype d) { return d == POSENC_DTYPE_F32 ? 4 : 2; }

/* ---- reading -------------------------------------------------------------------- */

/* Reads n_bytes at offset into a new buffer. */
static posenc_status read_bytes(FILE *f, const char *name, const posenc__st_tensor *t,
                                unsigned char **out, posenc_load_error *err)
{
    if (t->n_bytes > SIZE_MAX)
        return posenc__load_fail(err, POSENC_ERR_OVERFLOW, "tensor '%s' is too large", name);
    unsigned char *b = malloc(t->n_bytes ? (size_t)t->n_bytes : 1);
    if (!b)
        return posenc__load_fail(err, POSENC_ERR_NOMEM, "out of memory for tensor '%s'", name);
    if (fseeko(f, (off_t)t->offset, SEEK_SET) != 0 ||
        fread(b, 1, (size_t)t->n_bytes, f) != (size_t)t->n_bytes) {
        free(b);
        return posenc__load_fail(err, POSENC_ERR_IO, "tensor '%s': read error or early end of file", name);
    }
    *out = b;
    return POSENC_OK;
}

static posenc_status float_dtype(const char *name, const char *dt, posenc_dtype *d,
                                 posenc_load_error *err)
{
    if (!strcmp(dt, "F32"))
        *d = POSENC_DTYPE_F32;
    else if (!strcmp(dt, "F16"))
        *d = POSENC_DTYPE_F16;
    else if (!strcmp(dt, "BF16"))
        *d = POSENC_DTYPE_BF16;
    else
        return posenc__load_fail(err, POSENC_ERR_FORMAT, "tensor '%s' is %s: it must be F32, F16 or BF16",
                    name, dt);
    return POSENC_OK;
}

/* Tensor t of dtype d with n elements into new floats (all finite), read in
 * chunks of 64 KiB. */
static posenc_status read_floats(FILE *f, const char *name, const posenc__st_tensor *t,
                                 posenc_dtype d, size_t n, float **out, posenc_load_error *err)
{
    float *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return posenc__load_fail(err, POSENC_ERR_NOMEM, "out of memory for tensor '%s'", name);
    if (fseeko(f, (off_t)t->offset, SEEK_SET) != 0) {
        free(v);
        return posenc__load_fail(err, POSENC_ERR_IO, "cannot seek to tensor '%s': %s", name, strerror(errno));
    }
    unsigned char b[65536];
    size_t size = dtype_size(d), per = sizeof b / size;
    for (size_t done = 0; done < n;) {
        size_t m = n - done < per ? n - done : per;
        if (fread(b, size, m, f) != m) {
            free(v);
            return posenc__load_fail(err, POSENC_ERR_IO, "tensor '%s': read error or early end of file",
                        name);
        }
        for (size_t k = 0; k < m; k++) {
            const unsigned char *p = b + k * size;
            size_t i = done + k;
            if (d == POSENC_DTYPE_F32) {
                uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                             (uint32_t)p[3] << 24;
                memcpy(&v[i], &w, sizeof w);
            } else {
                unsigned h = (unsigned)p[0] | (unsigned)p[1] << 8;
                v[i] = d == POSENC_DTYPE_F16 ? posenc__f16_to_f32((uint16_t)h)
                                              : posenc__bf16_to_f32((uint16_t)h);
            }
            if (!isfinite(v[i])) {
                free(v);
                return posenc__load_fail(err, POSENC_ERR_FORMAT, "tensor '%s': element %zu is not finite",
                            name, i);
            }
        }
        done += m;
    }
    *out = v;
    return POSENC_OK;
}

static posenc_status read_positions(FILE *f, const posenc__st_tensor *t, size_t n,
                                    int64_t **out, posenc_load_error *err)
{
    unsigned size = !strcmp(t->dtype, "I64") ? 8 : !strcmp(t->dtype, "I32") ? 4 : 0;
    if (!size)
        return posenc__load_fail(err, POSENC_ERR_FORMAT, "tensor 'positions' is %s: it must be I64 or I32",
                    t->dtype);
    unsigned char *b = NULL;
    posenc_status s = read_bytes(f, "positions", t, &b, err);
    if (s != POSENC_OK)
        return s;
    int64_t *p = malloc(n * sizeof *p);
    if (!p) {
        free(b);
        return posenc__load_fail(err, POSENC_ERR_NOMEM, "out of memory for the positions");
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t u = 0;
        for (unsigned k = size; k-- > 0;)
            u = (u << 8) | b[i * size + k];
        if (size == 4)
            u = (u & 0x80000000u) ? u | 0xFFFFFFFF00000000u : u; /* sign-extend */
        int64_t v;
        memcpy(&v, &u, sizeof v);
        if (!posenc__pos_ok(v)) {
            free(b);
            free(p);
            return posenc__load_fail(err, POSENC_ERR_POS, "positions[%zu] = %lld is outside 0 .. %lld", i,
                        (long long)v, (long long)POSENC_MAX_POS);
        }
        p[i] = v;
    }
    free(b);
    *out = p;
    return POSENC_OK;
}

static posenc_status load_file(FILE *f, posenc_check_input *in, posenc_load_error *err)
{
    static const char *const names[] = {"positions", "x", "y", "cos", "sin"};
    posenc__st_tensor t[5];
    posenc_status s = posenc__safetensors_find(f, 5, names, t, err);
    if (s != POSENC_OK)
        return s;
    if (!t[0].dtype)
        return posenc__load_fail(err, POSENC_ERR_FORMAT, "no tensor 'positions' in the dump");
    if (t[0].rank != 1 || t[0].shape[0] == 0)
        return posenc__load_fail(err, POSENC_ERR_FORMAT, "tensor 'positions' must have shape [n_tok], "
                    "n_tok >= 1");
    size_t n_tok = (size_t)t[0].shape[0];
    int tables = !t[1].dtype && !t[2].dtype;
    int a = tables ? 3 : 1, b = a + 1;
    if (tables && (!t[3].dtype || !t[4].dtype))
        return posenc__load_fail(err, POSENC_ERR_FORMAT, "the dump needs tensors 'x' and 'y' (or 'cos' and "
                    "'sin')");
    if (!t[a].dtype || !t[b].dtype)
        return posenc__load_fail(err, POSENC_ERR_FORMAT, "tensor '%s' is missing", names[t[a].dtype ? b : a]);
    if (!tables && (t[3].dtype || t[4].dtype))
        return posenc__load_fail(err, POSENC_ERR_FORMAT, "the dump has both x/y and cos/sin: give one");
    posenc_dtype d, d2;
    if ((s = float_dtype(names[a], t[a].dtype, &d, err)) != POSENC_OK ||
        (s = float_dtype(names[b], t[b].dtype, &d2, err)) != POSENC_OK)
        return s;
    if (d != d2)
        return posenc__load_fail(err, POSENC_ERR_FORMAT, "'%s' is %s but '%s' is %s: they must be the same",
                    names[a], t[a].dtype, names[b], t[b].dtype);
    size_t want_rank = tables ? 2 : 3;
    for (int i = a; i <= b; i++) {
        int ok = t[i].rank == want_rank && t[i].shape[0] == n_tok;
        for (size_t r = 1; r < want_rank; r++)
            ok = ok && t[i].shape[r] >= 1 && t[i].shape[r] <= POSENC_MAX_DIM &&
                 t[i].shape[r] == t[a].shape[r];
        if (!ok)
            return posenc__load_fail(err, POSENC_ERR_FORMAT, "tensor '%s' must have shape %s with n_tok = "
                        "%zu (from 'positions'), both tensors alike", names[i],
                        tables ? "[n_tok, table_dim]" : "[n_tok, n_head, head_dim]", n_tok);
    }
    uint64_t per = tables ? t[a].shape[1] : t[a].shape[1] * t[a].shape[2];
    if (n_tok > POSENC_CHECK_MAX_ELEMS / per)
        return posenc__load_fail(err, POSENC_ERR_OVERFLOW, "the dump has more than %llu elements",
                    (unsigned long long)POSENC_CHECK_MAX_ELEMS);
    posenc_check_input r = {0};
    r.dtype = d;
    r.n_tok = n_tok;
    int64_t *pos = NULL;
    float *va = NULL, *vb = NULL;
    s = read_positions(f, &t[0], n_tok, &pos, err);
    if (s == POSENC_OK)
        s = read_floats(f, names[a], &t[a], d, (size_t)(n_tok * per), &va, err);
    if (s == POSENC_OK)
        s = read_floats(f, names[b], &t[b], d, (size_t)(n_tok * per), &vb, err);
    if (s != POSENC_OK) {
        free(pos);
        free(va);
        free(vb);
        return s;
    }
    r.pos = pos;
    if (tables) {
        r.table_dim = (uint32_t)t[a].shape[1];
        r.cos = va;
        r.sin = vb;
    } else {
        r.n_head = (uint32_t)t[a].shape[1];
        r.head_dim = (uint32_t)t[a].shape[2];
        r.x = va;
        r.y = vb;
    }
    *in = r;
    return POSENC_OK;
}

posenc_status posenc_dump_read(FILE *in, posenc_check_input *out, posenc_load_error *err)
{
    posenc_status s = posenc__load_start(err, in && out);
    return s == POSENC_OK ? load_file(in, out, err) : s;
}

posenc_status posenc_dump_load(const char *path, posenc_check_input *out, posenc_load_error *err)
{
    FILE *f;
    posenc_status s = posenc__load_open(path, out != NULL, &f, err);
    return s == POSENC_OK ? posenc__load_close(f, load_file(f, out, err)) : s;
}

void posenc_dump_free(posenc_check_input *in)
{
    if (!in)
        return;
    free((void *)in->pos);
    free((void *)in->x);
    free((void *)in->y);
    free((void *)in->cos);
    free((void *)in->sin);
    memset(in, 0, sizeof *in);
}

/* ---- writing -------------------------------------------------------------------- */

static int meta_ok(const char *s)
{
    if (!s || strlen(s) > 200)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              strchr(" .,:=_-/+", *s)))
            return 0;
    return 1;
}

static int put_floats(FILE *f, const float *v, size_t n, posenc_dtype d)
{
    unsigned char buf[4096];
    size_t per = sizeof buf / 4, done = 0, size = dtype_size(d);
    while (done < n) {
        size_t m = n - done < per ? n - done : per;
        for (size_t i = 0; i < m; i++) {
            unsigned char *p = buf + i * size;
            if (d == POSENC_DTYPE_F32) {
                uint32_t w;
                memcpy(&w, &v[done + i], sizeof w);
                p[0] = (unsigned char)w, p[1] = (unsigned char)(w >> 8);
                p[2] = (unsigned char)(w >> 16), p[3] = (unsigned char)(w >> 24);
            } else {
                unsigned h = d == POSENC_DTYPE_F16 ? posenc__f32_to_f16(v[done + i])
                                                   : posenc__f32_to_bf16(v[done + i]);
                p[0] = (unsigned char)h, p[1] = (unsigned char)(h >> 8);
            }
        }
        if (fwrite(buf, size, m, f) != m)
            return 0;
        done += m;
    }
    return 1;
}

posenc_status posenc_dump_save(const char *path, const posenc_check_input *in,
                               const char *const *meta, posenc_load_error *err)
{
    posenc_status s = posenc__load_start(err, path && in && in->pos);
    if (s != POSENC_OK)
        return s;
    int tables = !in->x;
    if ((tables && (!in->cos || !in->sin)) || (!tables && !in->y))
        return POSENC_ERR_NULL;
    if (in->n_tok == 0 || (unsigned)in->dtype > POSENC_DTYPE_F16 ||
        (tables ? in->table_dim == 0 : (in->n_head == 0 || in->head_dim == 0)))
        return posenc__load_fail(err, POSENC_ERR_RANGE, "a dump needs n_tok, n_head and head_dim (or "
                    "table_dim) >= 1 and a dtype F32, F16 or BF16");
    size_t n_meta = 0;
    while (meta && meta[2 * n_meta]) {
        if (!meta_ok(meta[2 * n_meta]) || !meta_ok(meta[2 * n_meta + 1]))
            return posenc__load_fail(err, POSENC_ERR_RANGE, "metadata strings must be short ASCII words");
        n_meta++;
    }
    size_t per = tables ? in->table_dim : (size_t)in->n_head * in->head_dim;
    size_t n = in->n_tok * per;
    uint64_t pos_bytes = (uint64_t)in->n_tok * 8, val_bytes = (uint64_t)n * dtype_size(in->dtype);
    /* the header: tensors in data order positions, a, b */
    char shape[64];
    if (tables)
        snprintf(shape, sizeof shape, "[%zu,%u]", in->n_tok, in->table_dim);
    else
        snprintf(shape, sizeof shape, "[%zu,%u,%u]", in->n_tok, in->n_head, in->head_dim);
    const char *na = tables ? "cos" : "x", *nb = tables ? "sin" : "y";
    size_t cap = 512 + n_meta * 420;
    char *h = malloc(cap);
    if (!h)
        return posenc__load_fail(err, POSENC_ERR_NOMEM, "out of memory");
    int len = snprintf(h, cap,
                       "{\"positions\":{\"dtype\":\"I64\",\"shape\":[%zu],\"data_offsets\":[0,%llu]},"
                       "\"%s\":{\"dtype\":\"%s\",\"shape\":%s,\"data_offsets\":[%llu,%llu]},"
                       "\"%s\":{\"dtype\":\"%s\",\"shape\":%s,\"data_offsets\":[%llu,%llu]}",
                       in->n_tok, (unsigned long long)pos_bytes, na, dtype_name(in->dtype), shape,
                       (unsigned long long)pos_bytes, (unsigned long long)(pos_bytes + val_bytes),
                       nb, dtype_name(in->dtype), shape,
                       (unsigned long long)(pos_bytes + val_bytes),
                       (unsigned long long)(pos_bytes + 2 * val_bytes));
    if (n_meta) {
        len += snprintf(h + len, cap - (size_t)len, ",\"__metadata__\":{");
        for (size_t i = 0; i < n_meta; i++)
            len += snprintf(h + len, cap - (size_t)len, "%s\"%s\":\"%s\"", i ? "," : "",
                            meta[2 * i], meta[2 * i + 1]);
        len += snprintf(h + len, cap - (size_t)len, "}");
    }
    len += snprintf(h + len, cap - (size_t)len, "}");
    while (len % 8)
        h[len++] = ' ';
    FILE *f = fopen(path, "wb");
    if (!f) {
        free(h);
        return posenc__load_fail(err, POSENC_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    }
    unsigned char len8[8];
    for (int k = 0; k < 8; k++)
        len8[k] = (unsigned char)((uint64_t)len >> (8 * k));
    int ok = fwrite(len8, 1, 8, f) == 8 && fwrite(h, 1, (size_t)len, f) == (size_t)len;
    free(h);
    for (size_t t = 0; ok && t < in->n_tok; t++) {
        unsigned char b[8];
        uint64_t u = (uint64_t)in->pos[t];
        for (int k = 0; k < 8; k++)
            b[k] = (unsigned char)(u >> (8 * k));
        ok = fwrite(b, 1, 8, f) == 8;
    }
    ok = ok && put_floats(f, tables ? in->cos : in->x, n, in->dtype) &&
         put_floats(f, tables ? in->sin : in->y, n, in->dtype);
    if (fclose(f) != 0)
        ok = 0;
    if (!ok)
        return posenc__load_fail(err, POSENC_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    return POSENC_OK;
}
