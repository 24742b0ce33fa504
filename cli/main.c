/* main.c - the posenc program's front door: the subcommand table. Each
 * subcommand lives in a folder of its own (cli/interp, cli/plot,
 * cli/grade, cli/check) and parses its argv with the option kit
 * (cli/common/options.h); every message goes out through the one escaping
 * printer (cli/common/message.h). `posenc` without a subcommand's name is
 * the interpreter (a file named plot runs as ./plot). */
#include "check_cmd.h"
#include "cli.h"
#include "grade.h"
#include "plot_options.h"

#include <string.h>

static int run_plot(int argc, char **argv) { return cli_plot_main(argc, argv, stderr); }
static int run_grade(int argc, char **argv) { return cli_grade_main(argc, argv, stdout, stderr); }

/* A subcommand: its name (argv[1]) and its main, called with argv[0] its name. */
typedef struct cli_subcommand {
    const char *name;
    int (*main)(int argc, char **argv);
} cli_subcommand;

static const cli_subcommand SUBCOMMANDS[] = {
    {"plot", run_plot},              /* draws a picture (plot_main.c) */
    {"grade", run_grade},            /* grades a solution of the exercise */
    {"check", cli_check_main},       /* an engine's RoPE against the model's */
    {"golden", cli_golden_main},     /* reference dumps for an engine's tests */
};

int main(int argc, char **argv)
{
    for (size_t i = 0; argc > 1 && i < sizeof SUBCOMMANDS / sizeof SUBCOMMANDS[0]; i++)
        if (strcmp(argv[1], SUBCOMMANDS[i].name) == 0)
            return SUBCOMMANDS[i].main(argc - 1, argv + 1);
    return cli_interp_main(argc, argv);
}
