/* bytes.h - the binary readers' shared helpers (safetensors.c, gguf.c):
 * little-endian numbers from bytes (the growing array is posenc__array_grow,
 * internal.h). Not installed. */
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

#endif
