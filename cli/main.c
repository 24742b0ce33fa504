/* main.c - the posenc program: options, input files, exit status. */
#include "check_cmd.h"
#include "cli.h"
#include "grade.h"
#include "plot_options.h"
#include "rope_spec.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *out)
{
    fputs("usage: posenc [OPTIONS] [FILE...]\n"
          "       posenc plot KIND [OPTIONS] -o FILE   (see 'posenc plot --help')\n"
          "       posenc grade [OPTIONS] -- PROGRAM    (see 'posenc grade --help')\n"
          "       posenc check [--config FILE [--layer N] | --rope 'WORDS'] DUMP\n"
          "       posenc golden (--config FILE | --rope 'WORDS') -o FILE\n"
          "Reads posenc commands from the files, or from standard input when there are\n"
          "none, and prints their results. '-' names standard input.\n"
          "\n"
          "Options:\n"
          "  -c COMMANDS       run COMMANDS (lines separated by newlines or ';') instead\n"
          "                    of reading standard input; may be repeated\n"
          "  --base B          base of the frequencies (finite, > 1; default 10000)\n"
          "  --layout L        RoPE pair layout: interleaved (default) or half\n"
          "  --precision N     digits after the decimal point, 0 to 17 (default 4)\n"
          "  --config FILE     use the RoPE of a Hugging Face config.json (rope_theta,\n"
          "                    rope_scaling, head_dim...): ROPE and DOT then take heads of\n"
          "                    its head_dim; implies --layout half unless --layout is given\n"
          "                    (read through the model registry when it names a model_type:\n"
          "                    the family's layout and per-layer RoPE; EXPLAIN MODEL)\n"
          "  --model-type TYPE read the --config as family TYPE (see --models)\n"
          "  --layer N         the model layer ROPE, DOT, EXPLAIN FREQS, PLOT, LEARNED\n"
          "                    (its offset) and T5BUCKET (its stack) use (default 0)\n"
          "  --models          list the model registry: type, scheme, layout, source\n"
          "  --features        list optional parts built in (config-json, plot, line-editing)\n"
          "  -u                flush standard output after every command\n"
          "  -h, --help        show this help and the command summary\n"
          "  -V, --version     show the version\n"
          "\n"
          "Exit status: 0 if every line ran, 1 if any line failed, 2 for bad options\n"
          "or an input file that cannot be opened.\n"
          "\n",
          out);
    cli_print_help(out);
}

/* "--name=value" or "--name value": the value, or NULL if missing. */
static const char *option_value(const char *arg, const char *name, int argc, char **argv, int *i)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return NULL;
    if (arg[n] == '=')
        return arg + n + 1;
    if (arg[n] == '\0' && *i + 1 < argc)
        return argv[++*i];
    return NULL;
}

static int is_option(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static int bad_option(const char *fmt, ...)
{
    fputs("posenc: ", stderr);
    va_list ap;
    va_start(ap, fmt);
    cli_vmessage(stderr, fmt, ap);
    va_end(ap);
    fputs(" (try 'posenc --help')\n", stderr);
    return 2;
}

/* Runs one input file; "-" is standard input. Returns 0, 1, or 2 (cannot open). */
static int run_file(cli_state *st, const char *path)
{
    if (strcmp(path, "-") == 0) {
        st->source = NULL;
        return cli_run_stream(st, stdin, 0);
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_message(stderr, "posenc: cannot open '%s': %s", path, strerror(errno));
        return 2;
    }
    st->source = path;
    int r = cli_run_stream(st, f, 0);
    if (ferror(f)) {
        cli_message(stderr, "posenc: error reading '%s'", path);
        r = 2;
    }
    fclose(f);
    st->source = NULL;
    return r;
}

/* Whether posenc plot was built in (Cairo). */
static int have_plot(void)
{
#ifdef POSENC_HAVE_CAIRO
    return 1;
#else
    return 0;
#endif
}

static int worst(int a, int b) { return a > b ? a : b; }

int main(int argc, char **argv)
{
    cli_state st;
    cli_init(&st, stdout, stderr);
    int first_file = argc, status = 0, ran_string = 0, layout_given = 0;
    const char *config = NULL, *model_type = NULL, *layer = NULL;
    char why[1400];

    /* `posenc plot ...` draws a picture (a file named plot runs as ./plot). */
    if (argc > 1 && strcmp(argv[1], "plot") == 0) {
        cli_free(&st);
        return cli_plot_main(argc - 1, argv + 1, stderr);
    }
    /* `posenc grade ... -- PROGRAM` grades a solution of the exercise. */
    if (argc > 1 && strcmp(argv[1], "grade") == 0) {
        cli_free(&st);
        return cli_grade_main(argc - 1, argv + 1, stdout, stderr);
    }
    /* `posenc check` / `posenc golden`: an engine's RoPE against the model's. */
    if (argc > 1 && (strcmp(argv[1], "check") == 0 || strcmp(argv[1], "golden") == 0)) {
        cli_free(&st);
        return argv[1][0] == 'c' ? cli_check_main(argc - 1, argv + 1)
                                 : cli_golden_main(argc - 1, argv + 1);
    }

    /* First pass: settings, so that -c strings run with all of them. */
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v;
        if (strcmp(arg, "--") == 0) {
            first_file = i + 1;
            break;
        }
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage(stdout);
            cli_free(&st);
            return 0;
        }
        if (strcmp(arg, "-V") == 0 || strcmp(arg, "--version") == 0) {
            printf("posenc %s\n", posenc_version_string());
            cli_free(&st);
            return 0;
        }
        if (strcmp(arg, "--models") == 0) {
            cli_list_models(stdout);
            cli_free(&st);
            return 0;
        }
        if (is_option(arg, "--model-type") || is_option(arg, "--layer")) {
            int is_type = is_option(arg, "--model-type");
            const char *name = is_type ? "--model-type" : "--layer";
            v = option_value(arg, name, argc, argv, &i);
            if (!v) {
                cli_free(&st);
                return bad_option("%s needs a value", name);
            }
            *(is_type ? &model_type : &layer) = v;
            continue;
        }
        if (strcmp(arg, "--features") == 0) {
            if (rope_spec_have_config_reader())
                puts("config-json");
            if (have_plot())
                puts("plot");
            if (cli_have_line_editing())
                puts("line-editing");
            cli_free(&st);
            return 0;
        }
        if (is_option(arg, "--config")) {
            config = option_value(arg, "--config", argc, argv, &i);
            if (!config) {
                cli_free(&st);
                return bad_option("%s needs a file name", "--config");
            }
        } else if (strcmp(arg, "-u") == 0) {
            st.flush_each = 1;
        } else if (strcmp(arg, "-c") == 0) {
            if (i + 1 >= argc) {
                cli_free(&st);
                return bad_option("%s needs a string of commands", "-c");
            }
            i++;
        } else if (is_option(arg, "--base") || is_option(arg, "--layout") ||
                   is_option(arg, "--precision")) {
            const char *name = is_option(arg, "--base")     ? "--base"
                               : is_option(arg, "--layout") ? "--layout"
                                                            : "--precision";
            v = option_value(arg, name, argc, argv, &i);
            int ok = 0;
            if (!v)
                snprintf(why, sizeof why, "needs a value");
            else if (name[2] == 'b')
                ok = cli_parse_base(v, strlen(v), &st.base, why, sizeof why);
            else if (name[2] == 'l')
                ok = layout_given = cli_parse_layout(v, strlen(v), &st.layout, why, sizeof why);
            else
                ok = cli_parse_precision(v, strlen(v), &st.precision, why, sizeof why);
            if (!ok) {
                cli_message(stderr, "posenc: %s: %s (try 'posenc --help')", name, why);
                cli_free(&st);
                return 2;
            }
        } else if (arg[0] == '-' && arg[1] != '\0') {
            cli_free(&st);
            return bad_option("unknown option '%s'", arg);
        } else {
            first_file = i;
            break;
        }
    }

    if (layer) {
        int64_t lv;
        if (posenc_parse_int64(layer, strlen(layer), &lv) == POSENC_OK && lv >= 0 &&
            lv < POSENC_MODEL_MAX_LAYERS) {
            st.layer = (uint32_t)lv;
        } else {
            cli_message(stderr, "posenc: --layer: must be an integer from 0 to %u, got '%s'",
                        POSENC_MODEL_MAX_LAYERS - 1, layer);
            cli_free(&st);
            return 2;
        }
    }
    if (model_type && !config) {
        cli_free(&st);
        return bad_option("%s needs --config FILE", "--model-type");
    }
    if (config && !cli_model_load(&st, config, model_type, layout_given, why, sizeof why)) {
        cli_message(stderr, "posenc: --config: %s", why);
        cli_free(&st);
        return 2;
    }

    /* Second pass: the -c strings, in order. */
    for (int i = 1; i < first_file && i < argc; i++) {
        if (strcmp(argv[i], "-c") == 0) {
            status = worst(status, cli_run_string(&st, argv[++i]));
            ran_string = 1;
        } else if (is_option(argv[i], "--base") || is_option(argv[i], "--layout") ||
                   is_option(argv[i], "--precision") || is_option(argv[i], "--config") ||
                   is_option(argv[i], "--model-type") || is_option(argv[i], "--layer")) {
            if (!strchr(argv[i], '='))
                i++;
        }
    }

    if (first_file < argc) {
        for (int i = first_file; i < argc; i++)
            status = worst(status, run_file(&st, argv[i]));
    } else if (!ran_string) {
        st.source = NULL;
        status = worst(status, isatty(STDIN_FILENO) ? cli_run_terminal(&st)
                                                    : cli_run_stream(&st, stdin, 0));
    }
    if (fflush(stdout) != 0) {
        fprintf(stderr, "posenc: error writing output: %s\n", strerror(errno));
        status = worst(status, 1);
    }
    cli_free(&st);
    return status;
}
