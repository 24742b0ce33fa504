/* status.c - status messages and the library version. */
#include "internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define POSENC__STR2(x) #x
#define POSENC__STR(x) POSENC__STR2(x)

unsigned posenc_version_number(void) { return POSENC_VERSION_NUMBER; }

const char *posenc_version_string(void)
{
    return POSENC__STR(POSENC_VERSION_MAJOR) "." POSENC__STR(POSENC_VERSION_MINOR) "." POSENC__STR(
        POSENC_VERSION_PATCH);
}

const char *posenc_strerror(posenc_status s)
{
    switch (s) {
    case POSENC_OK: return "success";
    case POSENC_ERR_NULL: return "a required pointer was NULL";
    case POSENC_ERR_DIM: return "dimension out of range (must be 1 to 1048576)";
    case POSENC_ERR_POS: return "position out of range";
    case POSENC_ERR_BASE: return "base must be finite and greater than 1";
    case POSENC_ERR_LAYOUT: return "unknown layout";
    case POSENC_ERR_RANGE: return "argument out of range";
    case POSENC_ERR_NOMEM: return "out of memory";
    case POSENC_ERR_IO: return "cannot read file";
    case POSENC_ERR_FORMAT: return "malformed file";
    case POSENC_ERR_OVERFLOW: return "size too large";
    case POSENC_ERR_NOT_FINITE: return "value is not finite";
    }
    return "unknown status";
}

/* The message of a failed read of a binary file (dump, safetensors): detail
 * from fmt, no line (0). Returns s, so a reader can return fail(...). */
posenc_status posenc__load_fail(posenc_load_error *err, posenc_status s, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->detail, sizeof err->detail, fmt, ap);
        va_end(ap);
        err->line = 0;
    }
    return s;
}

posenc_status posenc__load_start(posenc_load_error *err, int args_ok)
{
    if (err)
        memset(err, 0, sizeof *err);
    return args_ok ? POSENC_OK : POSENC_ERR_NULL;
}

posenc_status posenc__load_open(const char *path, int args_ok, FILE **f, posenc_load_error *err)
{
    posenc_status s = posenc__load_start(err, path && args_ok);
    if (s != POSENC_OK)
        return s;
    if (!(*f = fopen(path, "rb")))
        return posenc__load_fail(err, POSENC_ERR_IO, "%s", strerror(errno));
    return POSENC_OK;
}

posenc_status posenc__load_close(FILE *f, posenc_status s)
{
    fclose(f);
    return s;
}
