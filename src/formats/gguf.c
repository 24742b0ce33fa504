/* gguf.c - GGUF v2/v3 files read strictly and within bounds: the header,
 * every key/value pair, every tensor description, and the values of the
 * three RoPE tensors (posenc_gguf.h, tier 1).
 *
 * The format, as llama-cpp-python 0.3.36's vendor/llama.cpp writes and reads
 * it (ggml/include/gguf.h:1-31, ggml/src/gguf.cpp:460-830), all numbers
 * little-endian:
 *   "GGUF", u32 version, i64 n_tensors, i64 n_kv,
 *   n_kv x { string key, i32 type, value }       value: the type's bytes;
 *       a string is u64 length + bytes; an array is i32 element type,
 *       u64 count, the elements (no arrays of arrays: gguf.cpp:606-611)
 *   n_tensors x { string name, u32 n_dims, i64 ne[n_dims], i32 ggml type,
 *       u64 offset }
 *   padding to general.alignment (u32, default 32), then the data: tensor i
 *   at offset sum of the padded sizes of tensors 0..i-1 (gguf.cpp:790-822).
 * v2 and v3 have the same layout (v1's 32-bit counts are refused, as
 * llama.cpp refuses v1: gguf.cpp:510). */
#include "posenc_gguf.h"

#include "bytes.h"
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define GGUF_DEFAULT_ALIGNMENT 32u /* gguf.h:45 */
#define GGML_MAX_DIMS 4u           /* ggml.h */
#define GGML_MAX_NAME 64u          /* ggml.h:229: a name is shorter */

/* ---- types ------------------------------------------------------------------- */

static const char *const TYPE_NAMES[] = {"u8", "i8",  "u16", "i16", "u32", "i32", "f32",
                                         "bool", "str", "arr", "u64", "i64", "f64"};
static const unsigned TYPE_SIZES[] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};
#define N_TYPES 13u

const char *posenc_gguf_type_name(posenc_gguf_type t)
{
    return (unsigned)t < N_TYPES ? TYPE_NAMES[t] : "unknown";
}

/* ggml's tensor types: name, elements per block, bytes per block
 * (ggml/src/ggml.c type_traits; the block sizes from the static_asserts of
 * ggml/src/ggml-common.h:180-460). Removed types have block 0. */
static const struct {
    const char *name;
    unsigned blck, size;
} GGML_TYPES[] = {
    {"f32", 1, 4},        {"f16", 1, 2},        {"q4_0", 32, 18},     {"q4_1", 32, 20},
    {NULL, 0, 0},         {NULL, 0, 0},         {"q5_0", 32, 22},     {"q5_1", 32, 24},
    {"q8_0", 32, 34},     {"q8_1", 32, 36},     {"q2_K", 256, 84},    {"q3_K", 256, 110},
    {"q4_K", 256, 144},   {"q5_K", 256, 176},   {"q6_K", 256, 210},   {"q8_K", 256, 292},
    {"iq2_xxs", 256, 66}, {"iq2_xs", 256, 74},  {"iq3_xxs", 256, 98}, {"iq1_s", 256, 50},
    {"iq4_nl", 32, 18},   {"iq3_s", 256, 110},  {"iq2_s", 256, 82},   {"iq4_xs", 256, 136},
    {"i8", 1, 1},         {"i16", 1, 2},        {"i32", 1, 4},        {"i64", 1, 8},
    {"f64", 1, 8},        {"iq1_m", 256, 56},   {"bf16", 1, 2},       {NULL, 0, 0},
    {NULL, 0, 0},         {NULL, 0, 0},         {"tq1_0", 256, 54},   {"tq2_0", 256, 66},
    {NULL, 0, 0},         {NULL, 0, 0},         {NULL, 0, 0},         {"mxfp4", 32, 17},
    {"nvfp4", 64, 36},    {"q1_0", 128, 18},    {"q2_0", 64, 18},
};
#define N_GGML_TYPES (sizeof GGML_TYPES / sizeof GGML_TYPES[0]) /* GGML_TYPE_COUNT 43 */

const char *posenc_gguf_ggml_type_name(uint32_t type)
{
    return type < N_GGML_TYPES && GGML_TYPES[type].name ? GGML_TYPES[type].name : "unknown";
}

static const char *const FACTOR_NAMES[] = {"rope_freqs.weight", "rope_factors_long.weight",
                                           "rope_factors_short.weight"};
#define N_FACTORS 3u

const char *posenc_gguf_factors_name(posenc_gguf_factors which)
{
    return (unsigned)which < N_FACTORS ? FACTOR_NAMES[which] : "unknown";
}

/* ---- the object ---------------------------------------------------------------- */

/* A key or a tensor name and where its entry begins in the file. */
typedef struct named {
    char *name;
    uint64_t at;
} named;

typedef struct kv {
    named id;
    posenc_gguf_value v;
    void *owned; /* str or data */
} kv;

typedef struct tensor {
    named id;
    posenc_gguf_tensor t;
} tensor;

struct posenc_gguf {
    uint32_t version, alignment;
    uint64_t data_offset, n_kv, n_tensors;
    kv *kvs;
    tensor *ts;
    float *factors[N_FACTORS];
    size_t n_factors[N_FACTORS];
};

void posenc_gguf_free(posenc_gguf *g)
{
    if (!g)
        return;
    for (uint64_t i = 0; g->kvs && i < g->n_kv; i++) {
        free(g->kvs[i].id.name);
        free(g->kvs[i].owned);
    }
    for (uint64_t i = 0; g->ts && i < g->n_tensors; i++)
        free(g->ts[i].id.name);
    for (unsigned k = 0; k < N_FACTORS; k++)
        free(g->factors[k]);
    free(g->kvs);
    free(g->ts);
    free(g);
}

posenc_status posenc_gguf_limits_default(posenc_gguf_limits *l)
{
    if (!l)
        return POSENC_ERR_NULL;
    l->max_kv = 65536;
    l->max_tensors = 1048576;
    l->max_string = 16u << 20;
    l->max_array = 1u << 28;
    return POSENC_OK;
}

/* ---- the cursor ------------------------------------------------------------------ */

typedef struct rd {
    FILE *in;
    uint64_t pos, size;
    const posenc_gguf_limits *lim;
    posenc_load_error *err;
} rd;

#define ULL(x) ((unsigned long long)(x))

/* A short quotation of a key or name for messages. */
#define NAME_SHOW 80
#define NAME_ARGS(s) (int)(strlen(s) > NAME_SHOW ? NAME_SHOW : strlen(s)), (s), \
                     (strlen(s) > NAME_SHOW ? "..." : "")

/* n bytes at the cursor into dst (NULL: skipped); what says what they are. */
static posenc_status rd_bytes(rd *r, void *dst, uint64_t n, const char *what)
{
    if (n > r->size - r->pos)
        return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "byte %llu: %s needs %llu bytes, "
                                 "past the end of the file (%llu bytes)", ULL(r->pos), what,
                                 ULL(n), ULL(r->size));
    unsigned char scratch[4096];
    if (!dst && n <= sizeof scratch) /* short skips (a vocabulary's strings) read through */
        dst = scratch;
    if (!dst) {
        if (fseeko(r->in, (off_t)(r->pos + n), SEEK_SET) != 0)
            return posenc__load_fail(r->err, POSENC_ERR_IO, "byte %llu: cannot seek: %s",
                                     ULL(r->pos), strerror(errno));
    } else if (n && fread(dst, 1, (size_t)n, r->in) != n) {
        return posenc__load_fail(r->err, POSENC_ERR_IO, "byte %llu: read error in %s", ULL(r->pos),
                                 what);
    }
    r->pos += n;
    return POSENC_OK;
}

static posenc_status rd_u32(rd *r, uint32_t *v, const char *what)
{
    unsigned char b[4];
    posenc_status s = rd_bytes(r, b, 4, what);
    if (s == POSENC_OK)
        *v = posenc__le32(b);
    return s;
}

static posenc_status rd_u64(rd *r, uint64_t *v, const char *what)
{
    unsigned char b[8];
    posenc_status s = rd_bytes(r, b, 8, what);
    if (s == POSENC_OK)
        *v = posenc__le64(b);
    return s;
}

/* A string's length, checked against the limit and the file. */
static posenc_status rd_string_len(rd *r, uint64_t *len, const char *what)
{
    uint64_t at = r->pos;
    posenc_status s = rd_u64(r, len, what);
    if (s != POSENC_OK)
        return s;
    if (*len > r->lim->max_string)
        return posenc__load_fail(r->err, POSENC_ERR_RANGE, "byte %llu: %s of %llu bytes, above "
                                 "the limit of %llu", ULL(at), what, ULL(*len),
                                 ULL(r->lim->max_string));
    if (*len > r->size - r->pos)
        return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "byte %llu: %s of %llu bytes runs "
                                 "past the end of the file (%llu bytes)", ULL(at), what,
                                 ULL(*len), ULL(r->size));
    return POSENC_OK;
}

/* A string into a new NUL-terminated buffer *out. */
static posenc_status rd_string(rd *r, char **out, uint64_t *len, const char *what)
{
    posenc_status s = rd_string_len(r, len, what);
    if (s != POSENC_OK)
        return s;
    char *p = malloc((size_t)*len + 1);
    if (!p)
        return posenc__load_fail(r->err, POSENC_ERR_NOMEM, "out of memory for %s", what);
    if ((s = rd_bytes(r, p, *len, what)) != POSENC_OK) {
        free(p);
        return s;
    }
    p[*len] = '\0';
    *out = p;
    return POSENC_OK;
}

/* ---- key/value pairs ------------------------------------------------------------- */

/* A scalar of type t (not string, not array) from its bytes. */
static void decode_scalar(posenc_gguf_type t, const unsigned char *b, posenc_gguf_value *v)
{
    switch (t) {
    case POSENC_GGUF_U8:
    case POSENC_GGUF_BOOL:
        v->u = b[0];
        break;
    case POSENC_GGUF_I8:
        v->i = (int8_t)b[0];
        break;
    case POSENC_GGUF_U16:
        v->u = posenc__le16(b);
        break;
    case POSENC_GGUF_I16:
        v->i = (int16_t)posenc__le16(b);
        break;
    case POSENC_GGUF_U32:
        v->u = posenc__le32(b);
        break;
    case POSENC_GGUF_I32:
        v->i = (int32_t)posenc__le32(b);
        break;
    case POSENC_GGUF_F32:
        v->f = posenc__le_f32(b);
        break;
    case POSENC_GGUF_U64:
        v->u = posenc__le64(b);
        break;
    case POSENC_GGUF_I64:
        v->i = (int64_t)posenc__le64(b);
        break;
    default: /* POSENC_GGUF_F64 */
        v->f = posenc__le_f64(b);
        break;
    }
}

/* The value of pair e (its key read), of type code t. */
static posenc_status read_value(rd *r, kv *e, uint32_t t)
{
    posenc_gguf_value *v = &e->v;
    posenc_status s;
    char what[NAME_SHOW + 64];
    snprintf(what, sizeof what, "the value of key '%.*s%s'", NAME_ARGS(e->id.name));
    if (t >= N_TYPES)
        return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "byte %llu: key '%.*s%s' has value "
                                 "type %u, not a GGUF type (0..12)", ULL(r->pos - 4),
                                 NAME_ARGS(e->id.name), t);
    v->type = (posenc_gguf_type)t;
    v->n = 1;
    if (t == POSENC_GGUF_STRING) {
        char *str = NULL;
        if ((s = rd_string(r, &str, &v->len, what)) != POSENC_OK)
            return s;
        e->owned = str;
        v->str = str;
        return POSENC_OK;
    }
    if (t != POSENC_GGUF_ARRAY) {
        unsigned char b[8];
        if ((s = rd_bytes(r, b, TYPE_SIZES[t], what)) != POSENC_OK)
            return s;
        decode_scalar(v->type, b, v);
        return POSENC_OK;
    }
    uint32_t et;
    uint64_t at = r->pos;
    if ((s = rd_u32(r, &et, what)) != POSENC_OK || (s = rd_u64(r, &v->n, what)) != POSENC_OK)
        return s;
    if (et >= N_TYPES || et == POSENC_GGUF_ARRAY)
        return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "byte %llu: key '%.*s%s' is an array "
                                 "of type %u, %s", ULL(at), NAME_ARGS(e->id.name), et,
                                 et == POSENC_GGUF_ARRAY ? "arrays of arrays are not GGUF"
                                                         : "not a GGUF type (0..12)");
    v->elem = (posenc_gguf_type)et;
    if (v->n > r->lim->max_array)
        return posenc__load_fail(r->err, POSENC_ERR_RANGE, "byte %llu: key '%.*s%s': array of "
                                 "%llu elements, above the limit of %llu", ULL(at),
                                 NAME_ARGS(e->id.name), ULL(v->n), ULL(r->lim->max_array));
    /* each element needs at least its size (a string its 8-byte length) */
    uint64_t least = et == POSENC_GGUF_STRING ? 8 : TYPE_SIZES[et];
    if (v->n > (r->size - r->pos) / least)
        return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "byte %llu: key '%.*s%s': array of "
                                 "%llu %s runs past the end of the file (%llu bytes)", ULL(at),
                                 NAME_ARGS(e->id.name), ULL(v->n), TYPE_NAMES[et], ULL(r->size));
    if (et == POSENC_GGUF_STRING) {
        for (uint64_t k = 0; k < v->n; k++) {
            uint64_t len;
            snprintf(what, sizeof what, "string %llu of key '%.*s%s'", ULL(k), NAME_ARGS(e->id.name));
            if ((s = rd_string_len(r, &len, what)) != POSENC_OK ||
                (s = rd_bytes(r, NULL, len, what)) != POSENC_OK)
                return s;
        }
        return POSENC_OK;
    }
    size_t bytes = (size_t)(v->n * least);
    e->owned = malloc(bytes ? bytes : 1);
    if (!e->owned)
        return posenc__load_fail(r->err, POSENC_ERR_NOMEM, "out of memory for %s", what);
    v->data = e->owned;
    return rd_bytes(r, e->owned, bytes, what);
}

static int cmp_named(const void *a, const void *b)
{
    const named *x = *(const named *const *)a, *y = *(const named *const *)b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* Two of the n entries at base (stride bytes apart, each beginning with its
 * named) with the same name (a name holding a NUL byte is refused before).
 * The message names the second, as llama.cpp does (gguf.cpp:575, 666). */
static posenc_status check_unique(const void *base, size_t stride, uint64_t n, const char *what,
                                  posenc_load_error *err)
{
    if (n < 2)
        return POSENC_OK;
    const named **p = malloc((size_t)n * sizeof *p);
    if (!p)
        return posenc__load_fail(err, POSENC_ERR_NOMEM, "out of memory checking each %s", what);
    for (uint64_t i = 0; i < n; i++)
        p[i] = (const named *)(const void *)((const char *)base + i * stride);
    qsort(p, (size_t)n, sizeof *p, cmp_named);
    posenc_status s = POSENC_OK;
    for (uint64_t i = 1; i < n && s == POSENC_OK; i++)
        if (!strcmp(p[i - 1]->name, p[i]->name))
            s = posenc__load_fail(err, POSENC_ERR_FORMAT, "byte %llu: duplicate %s '%.*s%s' "
                                  "(first at byte %llu)", ULL(p[i]->at), what,
                                  NAME_ARGS(p[i]->name), ULL(p[i - 1]->at));
    free(p);
    return s;
}

static posenc_status read_kvs(rd *r, posenc_gguf *g)
{
    posenc_status s;
    for (uint64_t i = 0; i < g->n_kv; i++) {
        kv *e = &g->kvs[i];
        char what[64];
        uint64_t len;
        uint32_t t;
        e->id.at = r->pos;
        snprintf(what, sizeof what, "key %llu", ULL(i));
        if ((s = rd_string(r, &e->id.name, &len, what)) != POSENC_OK)
            return s;
        if (len == 0) /* gguf.cpp:570 */
            return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "byte %llu: key %llu is empty",
                                     ULL(e->id.at), ULL(i));
        if (strlen(e->id.name) != len)
            return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "byte %llu: key %llu holds a NUL "
                                     "byte", ULL(e->id.at), ULL(i));
        if ((s = rd_u32(r, &t, "a value type")) != POSENC_OK || (s = read_value(r, e, t)) != POSENC_OK)
            return s;
    }
    if ((s = check_unique(g->kvs, sizeof *g->kvs, g->n_kv, "key", r->err)) != POSENC_OK)
        return s;
    /* general.alignment: a u32 power of two (gguf.cpp:622-636) */
    g->alignment = GGUF_DEFAULT_ALIGNMENT;
    int64_t a = posenc_gguf_find_key(g, "general.alignment");
    if (a >= 0) {
        const posenc_gguf_value *v = &g->kvs[a].v;
        if (v->type != POSENC_GGUF_U32)
            return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "key 'general.alignment' must be "
                                     "of type u32 but is %s", TYPE_NAMES[v->type]);
        if (v->u == 0 || (v->u & (v->u - 1)) != 0)
            return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "key 'general.alignment': %llu is "
                                     "not a power of 2", ULL(v->u));
        g->alignment = (uint32_t)v->u;
    }
    return POSENC_OK;
}

/* ---- tensors ------------------------------------------------------------------- */

/* One tensor's description (gguf.cpp:644-775); *expect is where its data
 * must begin, moved past its padded data. */
static posenc_status read_tensor(rd *r, posenc_gguf *g, uint64_t i, uint64_t *expect)
{
    tensor *e = &g->ts[i];
    posenc_gguf_tensor *t = &e->t;
    posenc_status s;
    char what[64];
    uint64_t len;
    e->id.at = r->pos;
    snprintf(what, sizeof what, "the name of tensor %llu", ULL(i));
    if ((s = rd_string(r, &e->id.name, &len, what)) != POSENC_OK)
        return s;
    t->name = e->id.name;
    if (len >= GGML_MAX_NAME || strlen(e->id.name) != len)
        return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "byte %llu: tensor %llu: name of %llu "
                                 "bytes%s (ggml's names are shorter than %u bytes, without NUL)",
                                 ULL(e->id.at), ULL(i), ULL(len),
                                 strlen(e->id.name) != len ? " holding a NUL byte" : "", GGML_MAX_NAME);
    uint64_t at = r->pos;
    if ((s = rd_u32(r, &t->n_dims, "a tensor's dimension count")) != POSENC_OK)
        return s;
    if (t->n_dims > GGML_MAX_DIMS)
        return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "byte %llu: tensor '%s': %u "
                                 "dimensions, ggml has at most %u", ULL(at), e->id.name, t->n_dims,
                                 GGML_MAX_DIMS);
    uint64_t elems = 1;
    int zero = 0;
    for (uint32_t d = 0; d < GGML_MAX_DIMS; d++) {
        uint64_t u = 1;
        at = r->pos;
        if (d < t->n_dims && (s = rd_u64(r, &u, "a tensor's dimension")) != POSENC_OK)
            return s;
        t->ne[d] = (int64_t)u;
        if (t->ne[d] < 0)
            return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "byte %llu: tensor '%s': "
                                     "dimension %u is %lld, negative", ULL(at), e->id.name, d,
                                     (long long)t->ne[d]);
        zero |= u == 0;
        if (u > 1 && elems > (uint64_t)INT64_MAX / u && !zero)
            return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "byte %llu: tensor '%s': the "
                                     "element count overflows 63 bits", ULL(at), e->id.name);
        elems = zero ? 0 : elems * u;
    }
    at = r->pos;
    if ((s = rd_u32(r, &t->type, "a tensor's type")) != POSENC_OK)
        return s;
    if (t->type >= N_GGML_TYPES || GGML_TYPES[t->type].blck == 0)
        return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "byte %llu: tensor '%s': ggml type "
                                 "%u %s", ULL(at), e->id.name, t->type,
                                 t->type >= N_GGML_TYPES ? "does not exist (0..42)"
                                                         : "was removed from GGUF");
    unsigned blck = GGML_TYPES[t->type].blck, size = GGML_TYPES[t->type].size;
    if ((uint64_t)t->ne[0] % blck != 0)
        return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "tensor '%s': rows of %lld elements "
                                 "are not whole blocks of %u (%s)", e->id.name, (long long)t->ne[0],
                                 blck, GGML_TYPES[t->type].name);
    /* elems / blck blocks of size bytes: below 2^63 * 292 / 256? checked */
    uint64_t blocks = elems / blck;
    if (blocks > UINT64_MAX / 2 / size)
        return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "tensor '%s': its size in bytes "
                                 "overflows 63 bits", e->id.name);
    t->n_bytes = blocks * size;
    at = r->pos;
    if ((s = rd_u64(r, &t->offset, "a tensor's data offset")) != POSENC_OK)
        return s;
    if (t->offset != *expect) /* gguf.cpp:792-798 */
        return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "byte %llu: tensor '%s': data offset "
                                 "%llu, expected %llu (each tensor's data begins where the "
                                 "previous one's ends, padded to %u)", ULL(at), e->id.name,
                                 ULL(t->offset), ULL(*expect), g->alignment);
    uint64_t padded = t->n_bytes + (g->alignment - t->n_bytes % g->alignment) % g->alignment;
    if (padded < t->n_bytes || padded > r->size || *expect > r->size - padded)
        return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "tensor '%s': %llu bytes of data "
                                 "at data offset %llu do not fit in the file (%llu bytes)",
                                 e->id.name, ULL(t->n_bytes), ULL(t->offset), ULL(r->size));
    *expect += padded;
    return POSENC_OK;
}

static posenc_status read_tensors(rd *r, posenc_gguf *g)
{
    posenc_status s;
    uint64_t expect = 0;
    for (uint64_t i = 0; i < g->n_tensors; i++)
        if ((s = read_tensor(r, g, i, &expect)) != POSENC_OK)
            return s;
    if ((s = check_unique(g->ts, sizeof *g->ts, g->n_tensors, "tensor name", r->err)) !=
        POSENC_OK)
        return s;
    /* the data section: at the next multiple of the alignment (gguf.cpp:781) */
    uint64_t pad = (g->alignment - r->pos % g->alignment) % g->alignment;
    g->data_offset = g->n_tensors ? r->pos + pad : r->pos;
    for (uint64_t i = 0; i < g->n_tensors; i++) {
        const posenc_gguf_tensor *t = &g->ts[i].t;
        if (g->data_offset > r->size || t->offset > r->size - g->data_offset ||
            t->n_bytes > r->size - g->data_offset - t->offset)
            return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "tensor '%s': its data (%llu "
                                     "bytes at file byte %llu) runs past the end of the file "
                                     "(%llu bytes)", t->name, ULL(t->n_bytes),
                                     ULL(g->data_offset + t->offset), ULL(r->size));
    }
    return POSENC_OK;
}

/* The values of the RoPE factor tensors: F32 vectors of finite values > 0
 * (ggml.c ggml_rope_impl asserts F32; a factor divides the angle). */
static posenc_status read_factors(rd *r, posenc_gguf *g)
{
    for (unsigned k = 0; k < N_FACTORS; k++) {
        int64_t i = posenc_gguf_find_tensor(g, FACTOR_NAMES[k]);
        if (i < 0)
            continue;
        const posenc_gguf_tensor *t = &g->ts[i].t;
        if (t->type != 0)
            return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "tensor '%s' is %s: ggml_rope_ext "
                                     "takes F32 frequency factors", t->name,
                                     posenc_gguf_ggml_type_name(t->type));
        if (t->ne[1] != 1 || t->ne[2] != 1 || t->ne[3] != 1 || t->ne[0] < 1 ||
            t->ne[0] > (int64_t)POSENC_MAX_DIM)
            return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "tensor '%s' has shape [%lld, "
                                     "%lld, %lld, %lld]: a vector of 1 to %u factors is needed",
                                     t->name, (long long)t->ne[0], (long long)t->ne[1],
                                     (long long)t->ne[2], (long long)t->ne[3], POSENC_MAX_DIM);
        size_t n = (size_t)t->ne[0];
        unsigned char *b = malloc(n * 4);
        float *f = malloc(n * sizeof *f);
        posenc_status s = POSENC_OK;
        if (!b || !f)
            s = posenc__load_fail(r->err, POSENC_ERR_NOMEM, "out of memory for tensor '%s'",
                                  t->name);
        if (s == POSENC_OK && fseeko(r->in, (off_t)(g->data_offset + t->offset), SEEK_SET) != 0)
            s = posenc__load_fail(r->err, POSENC_ERR_IO, "tensor '%s': cannot seek: %s", t->name,
                                  strerror(errno));
        if (s == POSENC_OK && fread(b, 4, n, r->in) != n)
            s = posenc__load_fail(r->err, POSENC_ERR_IO, "tensor '%s': read error", t->name);
        for (size_t j = 0; s == POSENC_OK && j < n; j++) {
            f[j] = posenc__le_f32(b + 4 * j);
            if (!isfinite(f[j]) || !(f[j] > 0))
                s = posenc__load_fail(r->err, POSENC_ERR_FORMAT, "tensor '%s': factor %zu is %g, "
                                      "not a finite number > 0", t->name, j, (double)f[j]);
        }
        free(b);
        if (s != POSENC_OK) {
            free(f);
            return s;
        }
        g->factors[k] = f;
        g->n_factors[k] = n;
    }
    return POSENC_OK;
}

/* ---- the header and the entry points ------------------------------------------- */

static posenc_status read_header(rd *r, posenc_gguf *g)
{
    unsigned char magic[4];
    posenc_status s = rd_bytes(r, magic, 4, "the magic \"GGUF\"");
    if (s != POSENC_OK)
        return s;
    if (memcmp(magic, "GGUF", 4) != 0)
        return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "byte 0: magic %02x %02x %02x %02x, "
                                 "not \"GGUF\"", magic[0], magic[1], magic[2], magic[3]);
    if ((s = rd_u32(r, &g->version, "the version")) != POSENC_OK)
        return s;
    if ((g->version & 0xFFFF) == 0 && g->version != 0) /* gguf.cpp:505 */
        return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "byte 4: version %u (0x%08x): a "
                                 "big-endian file? only little-endian GGUF is read",
                                 g->version, g->version);
    if (g->version < 2 || g->version > 3)
        return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "byte 4: GGUF version %u, only 2 and "
                                 "3 are read", g->version);
    uint64_t nt, nk;
    if ((s = rd_u64(r, &nt, "the tensor count")) != POSENC_OK ||
        (s = rd_u64(r, &nk, "the key/value count")) != POSENC_OK)
        return s;
    if (nt > r->lim->max_tensors)
        return posenc__load_fail(r->err, (int64_t)nt < 0 ? POSENC_ERR_FORMAT : POSENC_ERR_RANGE,
                                 "byte 8: %lld tensors, outside 0 .. %llu", (long long)nt,
                                 ULL(r->lim->max_tensors));
    if (nk > r->lim->max_kv)
        return posenc__load_fail(r->err, (int64_t)nk < 0 ? POSENC_ERR_FORMAT : POSENC_ERR_RANGE,
                                 "byte 16: %lld key/value pairs, outside 0 .. %llu",
                                 (long long)nk, ULL(r->lim->max_kv));
    /* a pair takes at least 8 + 1 + 4 + 1 bytes, a tensor 8 + 4 + 4 + 8 */
    if (nk > (r->size - r->pos) / 14 || nt > (r->size - r->pos - nk * 14) / 24)
        return posenc__load_fail(r->err, POSENC_ERR_FORMAT, "byte 8: %llu tensors and %llu "
                                 "key/value pairs cannot fit in the file (%llu bytes)", ULL(nt),
                                 ULL(nk), ULL(r->size));
    g->kvs = calloc(nk ? (size_t)nk : 1, sizeof *g->kvs);
    g->ts = calloc(nt ? (size_t)nt : 1, sizeof *g->ts);
    if (!g->kvs || !g->ts)
        return posenc__load_fail(r->err, POSENC_ERR_NOMEM, "out of memory for %llu pairs and %llu "
                                 "tensors", ULL(nk), ULL(nt));
    g->n_kv = nk;
    g->n_tensors = nt;
    return POSENC_OK;
}

posenc_status posenc_gguf_read(FILE *in, const posenc_gguf_limits *lim, posenc_gguf **out,
                               posenc_load_error *err)
{
    posenc_status s = posenc__load_start(err, in && out);
    if (s != POSENC_OK)
        return s;
    posenc_gguf_limits def;
    if (!lim && posenc_gguf_limits_default(&def) == POSENC_OK)
        lim = &def;
    if (!lim->max_kv || !lim->max_tensors || !lim->max_string || !lim->max_array)
        return posenc__load_fail(err, POSENC_ERR_RANGE, "a limit of posenc_gguf_limits is 0");
    off_t fsize;
    if (fseeko(in, 0, SEEK_END) != 0 || (fsize = ftello(in)) < 0 || fseeko(in, 0, SEEK_SET) != 0)
        return posenc__load_fail(err, POSENC_ERR_IO, "cannot seek in the file: %s", strerror(errno));
    rd r = {in, 0, (uint64_t)fsize, lim, err};
    posenc_gguf *g = calloc(1, sizeof *g);
    if (!g)
        return posenc__load_fail(err, POSENC_ERR_NOMEM, "out of memory");
    s = read_header(&r, g);
    if (s == POSENC_OK)
        s = read_kvs(&r, g);
    if (s == POSENC_OK)
        s = read_tensors(&r, g);
    if (s == POSENC_OK)
        s = read_factors(&r, g);
    if (s != POSENC_OK) {
        posenc_gguf_free(g);
        return s;
    }
    *out = g;
    return POSENC_OK;
}

posenc_status posenc_gguf_load(const char *path, const posenc_gguf_limits *lim, posenc_gguf **out,
                               posenc_load_error *err)
{
    FILE *f;
    posenc_status s = posenc__load_open(path, out != NULL, &f, err);
    return s == POSENC_OK ? posenc__load_close(f, posenc_gguf_read(f, lim, out, err)) : s;
}

/* ---- queries -------------------------------------------------------------------- */

uint32_t posenc_gguf_version(const posenc_gguf *g) { return g ? g->version : 0; }
uint32_t posenc_gguf_alignment(const posenc_gguf *g) { return g ? g->alignment : 0; }
uint64_t posenc_gguf_data_offset(const posenc_gguf *g) { return g ? g->data_offset : 0; }
uint64_t posenc_gguf_n_kv(const posenc_gguf *g) { return g ? g->n_kv : 0; }
uint64_t posenc_gguf_n_tensors(const posenc_gguf *g) { return g ? g->n_tensors : 0; }

int64_t posenc_gguf_find_key(const posenc_gguf *g, const char *key)
{
    if (!g || !key)
        return -1;
    for (uint64_t i = 0; i < g->n_kv; i++)
        if (g->kvs[i].id.name && !strcmp(g->kvs[i].id.name, key))
            return (int64_t)i;
    return -1;
}

const char *posenc_gguf_key(const posenc_gguf *g, uint64_t i)
{
    return g && i < g->n_kv ? g->kvs[i].id.name : NULL;
}

posenc_status posenc_gguf_value_at(const posenc_gguf *g, uint64_t i, posenc_gguf_value *v)
{
    if (!g || !v)
        return POSENC_ERR_NULL;
    if (i >= g->n_kv)
        return POSENC_ERR_RANGE;
    *v = g->kvs[i].v;
    return POSENC_OK;
}

int64_t posenc_gguf_find_tensor(const posenc_gguf *g, const char *name)
{
    if (!g || !name)
        return -1;
    for (uint64_t i = 0; i < g->n_tensors; i++)
        if (g->ts[i].id.name && !strcmp(g->ts[i].id.name, name))
            return (int64_t)i;
    return -1;
}

posenc_status posenc_gguf_tensor_at(const posenc_gguf *g, uint64_t i, posenc_gguf_tensor *t)
{
    if (!g || !t)
        return POSENC_ERR_NULL;
    if (i >= g->n_tensors)
        return POSENC_ERR_RANGE;
    *t = g->ts[i].t;
    return POSENC_OK;
}

posenc_status posenc_gguf_factors_get(const posenc_gguf *g, posenc_gguf_factors which,
                                      const float **values, size_t *n)
{
    if (!g || !values || !n)
        return POSENC_ERR_NULL;
    if ((unsigned)which >= N_FACTORS)
        return POSENC_ERR_RANGE;
    *values = g->factors[which];
    *n = g->n_factors[which];
    return POSENC_OK;
}
