/* terminal.c - the interactive prompt: line editing, history (arrows,
 * Ctrl-R) and a history file through libedit when the program is built with
 * it (EDIT=1, libedit-dev); without it the prompt reads plain lines. Only
 * used when standard input is a terminal. */
#include "cli.h"

#ifdef POSENC_HAVE_EDIT
#include <editline/readline.h>
#include <stdlib.h>
#include <string.h>

/* Lines kept in the history file. */
#define HISTORY_LINES 1000

/* $HOME/.posenc_history, or "" when there is no home; fits in out[n]. */
static void history_path(char *out, size_t n)
{
    const char *home = getenv("HOME");
    out[0] = '\0';
    if (home && *home && strlen(home) + sizeof "/.posenc_history" <= n)
        snprintf(out, n, "%s/.posenc_history", home);
}

int cli_run_terminal(cli_state *st)
{
    char path[4096];
    history_path(path, sizeof path);
    using_history();
    stifle_history(HISTORY_LINES);
    if (path[0])
        read_history(path); /* a missing file is the first run */
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
            if (len > 0)
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
