/* fuzz_sandbox.c - the file sandbox of the fuzz targets (see fuzz_util.h).
 * Compiled without -Dfopen=..., so fopen here is the real one. */
#include "fuzz_util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Table files the sandbox holds, so that LOAD and LEARNED get exercised. */
static const struct {
    const char *name, *text;
} fuzz_tables[] = {
    {"t", "0.1 0.2\n0.3 0.4\n0.5 0.6\n"},
    {"t1", "1\n2\n3\n"},
    {"wide", "1,2,3,4,5,6,7,8\n# comment\n\n-1 -2 -3 -4 -5 -6 -7 -8\r\n"},
    {"ragged", "1 2\n3\n"},
    {"bad", "1 x\n"},
    {"empty", ""},
    {"nan", "nan 1\n"},
};

static char fuzz_dir[64];

/* Creates the sandbox directory and its tables once; chdir()s into it so that
 * relative names resolve there. */
/* Removes the sandbox when the fuzzer exits. */
static void fuzz_sandbox_remove(void)
{
    for (size_t i = 0; i < sizeof fuzz_tables / sizeof fuzz_tables[0]; i++) {
        char path[128];
        snprintf(path, sizeof path, "%s/%s", fuzz_dir, fuzz_tables[i].name);
        unlink(path);
    }
    rmdir(fuzz_dir);
}

void fuzz_sandbox_init(void)
{
    if (fuzz_dir[0])
        return;
    snprintf(fuzz_dir, sizeof fuzz_dir, "/tmp/posenc-fuzz-XXXXXX");
    if (!mkdtemp(fuzz_dir))
        abort();
    atexit(fuzz_sandbox_remove);
    if (chdir(fuzz_dir) != 0)
        abort();
    for (size_t i = 0; i < sizeof fuzz_tables / sizeof fuzz_tables[0]; i++) {
        FILE *f = fopen(fuzz_tables[i].name, "w");
        if (!f)
            abort();
        fputs(fuzz_tables[i].text, f);
        fclose(f);
    }
}

FILE *posenc_fuzz_fopen(const char *path, const char *mode)
{
    int ok = path[0] != '\0' && path[0] != '.' && strcmp(mode, "r") == 0;
    for (const char *p = path; ok && *p; p++)
        ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
             *p == '_' || *p == '-' || *p == '.';
    if (!ok) {
        errno = ENOENT;
        return NULL;
    }
    return fopen(path, mode);
}

