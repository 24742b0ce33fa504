/* plot_main.c - `posenc plot KIND [options] -o FILE`: the front end of the
 * plot module, as zstd's zstdcli.c is of its engine: plot_args_parse turns
 * argv into a plot_request, plot_run draws it, and only this file prints
 * (through the escaping printer, message.h). */
#include "message.h"
#include "plot_options.h"

int cli_plot_main(int argc, char **argv, FILE *err)
{
    plot_args pa;
    char why[4096];
    plot_args_status s = plot_args_parse(argc, argv, &pa, why, sizeof why);
    if (s == PLOT_ARGS_HELP)
        plot_print_usage(stdout);
    else if (s == PLOT_ARGS_BAD)
        cli_fail(err, "plot", 0, "%s", why);
    else if (!plot_run(&pa.rq, why, sizeof why)) {
        cli_fail(err, "plot", 0, "%s", why);
        s = PLOT_ARGS_BAD;
    }
    plot_args_free(&pa);
    return s == PLOT_ARGS_BAD ? 2 : 0;
}
