/* bytes.h - the binary readers' shared helpers (safetensors.c, gguf.c):
 * little-endian numbers from bytes, and a growing array. Not installed. */
#ifndef POSENC_FORMATS_BYTES_H
#define POSENC_FORMATS_BYTES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Unsigned little-endian integers of 2, 4 and 8 bytes at b. */
static inline uint16_t posenc__le16(const unsigned char *b)
{
    return (uint16_t)(b[0] | b[1] << 8);
}
static inline uint32_t posenc__le32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}
static inline uint64_t posenc__le64(const unsigned char *b)
{
    return (uint64_t)posenc__le32(b) | (uint64_t)posenc__le32(b + 4) << 32;
}

/* IEEE binary32 and binary64, little-endian, at b. */
static inline float posenc__le_f32(const unsigned char *b)
{
    uint32_t w = posenc__le32(b);
    float f;
    memcpy(&f, &w, sizeof f);
    return f;
}
static inline double posenc__le_f64(const unsigned char *b)
{
    uint64_t w = posenc__le64(b);
    double d;
    memcpy(&d, &w, sizeof d);
    return d;
}

/* Makes room for one more element of size bytes in the array *p holding n
 * of *cap: doubles the capacity (16 at first) when full. Returns 0 when out
 * of memory (the array is then unchanged), else 1. */
static inline int posenc__grow(void **p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 1;
    size_t c = *cap ? *cap * 2 : 16;
    if (c > SIZE_MAX / size)
        return 0;
    void *q = realloc(*p, c * size);
    if (!q)
        return 0;
    *p = q;
    *cap = c;
    return 1;
}

#endif
