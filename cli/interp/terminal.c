/* terminal.c - the interactive prompt: line editing, history (arrows,
 * Ctrl-R) and a history file through libedit when the program is built with
 * it (EDIT=1, libedit-dev); without it the prompt reads plain lines. Only
 * used when standard input is a terminal. */
#include "cli.h"

#ifdef POSENC_HAVE_EDIT
#include <editline/readline.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lines kept in the history file. */
#define HISTORY_LINES 1000
/* The history file is read back at every start: only its last
 * HISTORY_MAX_BYTES, cut at a line start, and only lines of at most
 * HISTORY_MAX_LINE bytes go into it, so that a huge file (or a 64 MiB line
 * typed once) cannot make the prompt slow to start or large in memory. */
#define HISTORY_MAX_BYTES (1024L * 1024L)
#define HISTORY_MAX_LINE (64u * 1024u)

/* $HOME/.posenc_history, or "" when there is no home; fits in out[n]. */
static void history_path(char *out, size_t n)
{
    const char *home = getenv("HOME");
    out[0] = '\0';
    if (home && *home && strlen(home) + sizeof "/.posenc_history" <= n)
        snprintf(out, n, "%s/.posenc_history", home);
}

/* Cuts the history file at path to its last HISTORY_MAX_BYTES of whole
 * lines (keeping libedit's first line, its format marker), through a
 * temporary file renamed over it. Anything that fails leaves it as it was. */
static void trim_history(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return; /* the first run */
    char head[64] = "", *buf = NULL, tmp[4200];
    long size = -1;
    if (fgets(head, sizeof head, f) && strchr(head, '\n') && fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    if (size > HISTORY_MAX_BYTES && fseek(f, size - HISTORY_MAX_BYTES, SEEK_SET) == 0 &&
        (buf = malloc(HISTORY_MAX_BYTES)) != NULL) {
        size_t n = fread(buf, 1, HISTORY_MAX_BYTES, f);
        char *nl = memchr(buf, '\n', n); /* the first whole line starts after it */
        size_t from = nl ? (size_t)(nl - buf) + 1 : n;
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        FILE *o = strlen(path) + 5 < sizeof tmp ? fopen(tmp, "wb") : NULL;
        if (o) {
            int ok = strncmp(head, "_HiStOrY_", 9) != 0 || fputs(head, o) >= 0;
            ok = ok && fwrite(buf + from, 1, n - from, o) == n - from;
            ok = (fclose(o) == 0) && ok;
            if (!ok || rename(tmp, path) != 0)
                remove(tmp);
        }
    }
    free(buf);
    fclose(f);
}

int cli_run_terminal(cli_state *st)
{
    char path[4096];
    history_path(path, sizeof path);
    using_history();
    stifle_history(HISTORY_LINES);
    if (path[0]) {
        trim_history(path);
        read_history(path); /* a missing file is the first run */
    }
    int failed = 0;
    st->line_no = 0;
    char *line;
    while ((line = readline("posenc> ")) != NULL) {
        size_t len = strlen(line);
        st->line_no++;
        if (len > CLI_MAX_LINE) {
            cli_error(st, "line longer than %u bytes, skipped", CLI_MAX_LINE);
            failed = 1;
        } else {
            if (len > 0 && len <= HISTORY_MAX_LINE)
                add_history(line);
            failed |= cli_run_line(st, line, len);
        }
        free(line);
        fflush(st->out);
    }
    fputc('\n', st->out);
    if (path[0])
        write_history(path);
    return failed;
}

int cli_have_line_editing(void) { return 1; }
#else
int cli_run_terminal(cli_state *st) { return cli_run_stream(st, stdin, 1); }
int cli_have_line_editing(void) { return 0; }
#endif
