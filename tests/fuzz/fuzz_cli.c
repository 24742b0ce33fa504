/* fuzz_cli.c - libFuzzer target: whole scripts through the command
 * interpreter, both as a stream (a file or standard input) and as a -c string
 * (where ';' also ends a line). Output and messages go to /dev/null; LOAD can
 * only open the sandbox's tables (fuzz_util.h).
 *
 * What it finds: crashes, reads or writes out of bounds, undefined behaviour,
 * leaks (the state is freed after each script), and hangs. */
#include "cli.h"
#include "fuzz_util.h"

#include <stdlib.h>
#include <string.h>

#include <stdint.h>

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!devnull) {
        fuzz_sandbox_init();
        devnull = fopen("/dev/null", "w");
        if (!devnull)
            abort();
    }

    /* As a stream: every byte, NULs included. */
    if (size > 0) {
        FILE *in = fmemopen((void *)data, size, "r");
        if (!in)
            abort();
        cli_state st;
        cli_init(&st, devnull, devnull);
        int r = cli_run_stream(&st, in, 0);
        if (r != 0 && r != 1)
            abort();
        if (r != st.failed) /* the status and the sticky flag agree */
            abort();
        cli_free(&st);
        fclose(in);
    }

    /* As a -c string: up to the first NUL, like a C string from argv. */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    cli_state st;
    cli_init(&st, devnull, devnull);
    st.flush_each = 1;
    int r = cli_run_string(&st, text);
    if (r != 0 && r != 1)
        abort();
    cli_free(&st);
    free(text);
    return 0;
}
