/* fuzz_util.h - shared by the libFuzzer targets in tests/fuzz/.
 *
 * The library and the interpreter are compiled for fuzzing with
 * -Dfopen=posenc_fuzz_fopen (see the Makefile's fuzz rules), so every file the
 * code under test opens goes through fuzz_sandbox_fopen() below: only plain
 * names (letters, digits, '_', '-', '.', not starting with '.') inside a
 * private temporary directory can be opened. A fuzzed "LOAD /dev/zero" or
 * "LOAD /etc/shadow" then fails like a missing file instead of reading the
 * machine. Harnesses themselves are compiled without the macro. */
#ifndef POSENC_FUZZ_UTIL_H
#define POSENC_FUZZ_UTIL_H

#include <stdio.h>

/* Creates the sandbox directory (once) with a few table files, and chdir()s
 * into it so that LOAD's relative names resolve there. */
void fuzz_sandbox_init(void);

/* The fopen() the code under test calls: real fopen for a plain name opened
 * for reading, otherwise NULL with errno = ENOENT. */
FILE *posenc_fuzz_fopen(const char *path, const char *mode);

#endif
