/* interp_main.c - `posenc [OPTIONS] [FILE...]`: the interpreter's command
 * line (the option kit, options.h), its input files, its exit status. */
#include "cli.h"
#include "options.h"
#include "rope_spec.h"

#include <errno.h>
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
          "  --gguf FILE       use the RoPE llama.cpp runs for a GGUF file (its metadata\n"
          "                    and rope_freqs / rope_factors_* tensors); EXPLAIN MODEL\n"
          "                    states the keys and llama.cpp's arguments per layer\n"
          "  --ctx N           with --gguf: the context size llama.cpp runs with (its -c;\n"
          "                    default the file's context_length)\n"
          "  --layer N         the model layer ROPE, DOT, EXPLAIN FREQS, PLOT, LEARNED\n"
          "                    (its offset) and T5BUCKET (its stack) use (default 0)\n"
          "  --models          list the model registry: type, scheme, layout, source\n"
          "  --features        list optional parts built in (config-json, plot, line-editing)\n"
          "  -u                flush standard output after every command\n"
          "  --comments        print the comment lines ('#') and blank lines of the input\n"
          "                    as they come, each result under the comment above it\n"
          "  -h, --help        show this help and the command summary\n"
          "  -V, --version     show the version\n"
          "\n"
          "Exit status: 0 if every line ran, 1 if any line failed, 2 for bad options\n"
          "or an input file that cannot be opened.\n"
          "\n",
          out);
    cli_print_help(out);
}

/* The interpreter's options. The settings (--base, --layout, --precision,
 * --config...) are read first, so that every -c string runs with all of
 * them; the -c strings then run in order. */
enum {
    O_HELP, O_VERSION, O_MODELS, O_FEATURES, O_MODEL_TYPE, O_LAYER, O_CONFIG, O_U, O_C,
    O_BASE, O_LAYOUT, O_PRECISION, O_GGUF, O_CTX, O_COMMENTS
};
static const cli_option INTERP_OPTIONS[] = {
    {"--help", "-h", 0, NULL},
    {"--version", "-V", 0, NULL},
    {"--models", NULL, 0, NULL},
    {"--features", NULL, 0, NULL},
    {"--model-type", NULL, 1, NULL},
    {"--layer", NULL, 1, NULL},
    {"--config", NULL, 1, "%s needs a file name"},
    {"-u", NULL, 0, NULL},
    {"-c", NULL, 1, "%s needs a string of commands"},
    {"--base", NULL, 1, "%s: needs a value"},
    {"--layout", NULL, 1, "%s: needs a value"},
    {"--precision", NULL, 1, "%s: needs a value"},
    {"--gguf", NULL, 1, "%s needs a file name"},
    {"--ctx", NULL, 1, "%s: needs a value"},
    {"--comments", NULL, 0, NULL},
};
#define N_INTERP_OPTIONS (sizeof INTERP_OPTIONS / sizeof INTERP_OPTIONS[0])

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

static void print_features(void)
{
    if (rope_spec_have_config_reader())
        puts("config-json");
    if (have_plot())
        puts("plot");
    if (cli_have_line_editing())
        puts("line-editing");
}

/* What the first pass found besides the settings in st. */
typedef struct interp_opts {
    int first_file; /* argv index of the first FILE (argc: none) */
    int layout_given;
    const char *config, *model_type, *layer, *gguf, *ctx;
} interp_opts;

/* One setting (--base, --layout, --precision) into st; 0 after its message. */
static int setting(cli_state *st, interp_opts *o, int r, const char *name, const char *v)
{
    char why[256];
    int ok;
    if (r == O_BASE)
        ok = cli_parse_base(v, strlen(v), &st->base, why, sizeof why);
    else if (r == O_LAYOUT)
        ok = o->layout_given = cli_parse_layout(v, strlen(v), &st->layout, why, sizeof why);
    else
        ok = cli_parse_precision(v, strlen(v), &st->precision, why, sizeof why);
    if (!ok)
        cli_fail(stderr, NULL, 1, "%s: %s", name, why);
    return ok;
}

/* The first pass: every setting into st and o. Returns -1 to go on, else
 * the exit status (help, version, a listing: 0; a bad option: 2). */
static int read_settings(cli_state *st, interp_opts *o, int argc, char **argv)
{
    cli_args args;
    char why[256];
    cli_args_start(&args, argc, argv, 1, INTERP_OPTIONS, N_INTERP_OPTIONS);
    for (int r; (r = cli_args_next(&args)) != CLI_ARG_END;) {
        const char *v = args.value;
        switch (r) {
        case O_HELP: usage(stdout); return 0;
        case O_VERSION: printf("posenc %s\n", posenc_version_string()); return 0;
        case O_MODELS: cli_list_models(stdout); return 0;
        case O_FEATURES: print_features(); return 0;
        case O_MODEL_TYPE: o->model_type = v; break;
        case O_LAYER: o->layer = v; break;
        case O_CONFIG: o->config = v; break;
        case O_GGUF: o->gguf = v; break;
        case O_CTX: o->ctx = v; break;
        case O_U: st->flush_each = 1; break;
        case O_COMMENTS: st->show_comments = 1; break;
        case O_C: break; /* run in the second pass */
        case O_BASE:
        case O_LAYOUT:
        case O_PRECISION:
            if (!setting(st, o, r, INTERP_OPTIONS[r].name, v))
                return CLI_EXIT_USAGE;
            break;
        case CLI_ARG_DASHDASH: o->first_file = args.i; return -1;
        case CLI_ARG_OPERAND: o->first_file = args.i - 1; return -1;
        default:
            cli_args_why(&args, r, why, sizeof why);
            return cli_fail(stderr, NULL, 1, "%s", why);
        }
    }
    return -1;
}

/* --gguf FILE and --ctx N (after --layer). 0 after a message. */
static int load_gguf(cli_state *st, const interp_opts *o)
{
    char why[1400];
    int64_t ctx = 0;
    if (o->ctx && (posenc_parse_int64(o->ctx, strlen(o->ctx), &ctx) != POSENC_OK || ctx < 1 ||
                   ctx > (int64_t)UINT32_MAX - 255)) {
        cli_message(stderr, "posenc: --ctx: must be an integer from 1 to %lld, got '%s'",
                    (long long)UINT32_MAX - 255, o->ctx);
        return 0;
    }
    if (o->ctx && !o->gguf) {
        cli_fail(stderr, NULL, 1, "%s needs --gguf FILE", "--ctx");
        return 0;
    }
    if (o->gguf && o->config) {
        cli_fail(stderr, NULL, 1, "--gguf and --config name two models: give one "
                                  "(posenc check --gguf FILE --config FILE compares them)");
        return 0;
    }
    if (o->gguf && !cli_gguf_load(st, o->gguf, (uint64_t)ctx, why, sizeof why)) {
        cli_message(stderr, "posenc: --gguf: %s", why);
        return 0;
    }
    return 1;
}

/* --layer and --config, once every setting is known. 0 after a message. */
static int load_model(cli_state *st, const interp_opts *o)
{
    char why[1400];
    if (o->layer) {
        int64_t lv;
        if (posenc_parse_int64(o->layer, strlen(o->layer), &lv) != POSENC_OK || lv < 0 ||
            lv >= POSENC_MODEL_MAX_LAYERS) {
            cli_message(stderr, "posenc: --layer: must be an integer from 0 to %u, got '%s'",
                        POSENC_MODEL_MAX_LAYERS - 1, o->layer);
            return 0;
        }
        st->layer = (uint32_t)lv;
    }
    if (o->model_type && !o->config) {
        cli_fail(stderr, NULL, 1, "%s needs --config FILE", "--model-type");
        return 0;
    }
    if (o->config &&
        !cli_model_load(st, o->config, o->model_type, o->layout_given, why, sizeof why)) {
        cli_message(stderr, "posenc: --config: %s", why);
        return 0;
    }
    return load_gguf(st, o);
}

static int worst(int a, int b) { return a > b ? a : b; }

/* The second pass: the -c strings, in order, up to the first FILE. */
static int run_strings(cli_state *st, char **argv, int first_file, int *ran)
{
    cli_args args;
    int status = 0;
    cli_args_start(&args, first_file, argv, 1, INTERP_OPTIONS, N_INTERP_OPTIONS);
    for (int r; (r = cli_args_next(&args)) >= 0 || r == CLI_ARG_OPERAND;)
        if (r == O_C) {
            status = worst(status, cli_run_string(st, args.value));
            *ran = 1;
        }
    return status;
}

int cli_interp_main(int argc, char **argv)
{
    cli_state st;
    cli_init(&st, stdout, stderr);
    interp_opts o = {argc, 0, NULL, NULL, NULL, NULL, NULL};
    int status = read_settings(&st, &o, argc, argv), ran_string = 0;
    if (status >= 0 || !load_model(&st, &o)) {
        cli_free(&st);
        return status >= 0 ? status : CLI_EXIT_USAGE;
    }
    status = run_strings(&st, argv, o.first_file, &ran_string);
    if (o.first_file < argc) {
        for (int i = o.first_file; i < argc; i++)
            status = worst(status, run_file(&st, argv[i]));
    } else if (!ran_string) {
        st.source = NULL;
        status = worst(status, isatty(STDIN_FILENO) ? cli_run_terminal(&st)
                                                    : cli_run_stream(&st, stdin, 0));
    }
    if (fflush(stdout) != 0) {
        cli_message(stderr, "posenc: error writing output: %s", strerror(errno));
        status = worst(status, 1);
    }
    cli_free(&st);
    return status;
}
