/* options.h - the option kit every subcommand parses its argv with: a
 * table of options (a flag, or an option with a value given as
 * "--name value" or "--name=value"; a short one such as -o only as "-o
 * value"), read one word at a time. The kit reports; it never prints (the
 * subcommand hands its message to cli_fail, message.h). Adding an option to
 * a subcommand is a row in its table and a case in its switch. */
#ifndef POSENC_CLI_OPTIONS_H
#define POSENC_CLI_OPTIONS_H

#include <stddef.h>

/* One option of a subcommand. */
typedef struct cli_option {
    const char *name;    /* "--seed", "-c" */
    const char *alias;   /* a second name ("-h" beside "--help"), or NULL */
    int value;           /* 1: it takes a value */
    const char *missing; /* the message when its value is missing, %s its name
                            (NULL: "%s needs a value") */
} cli_option;

/* What cli_args_next read, when it is not an option of the table. */
enum {
    CLI_ARG_END = -1,      /* no word left */
    CLI_ARG_OPERAND = -2,  /* a word that is not an option ("-" included) */
    CLI_ARG_DASHDASH = -3, /* "--" */
    CLI_ARG_UNKNOWN = -4,  /* an option not in the table */
    CLI_ARG_NO_VALUE = -5  /* an option of the table without its value */
};

/* The words of argv from first on, read against a table. */
typedef struct cli_args {
    int argc;
    char **argv;
    int i; /* the next word */
    const cli_option *opt;
    size_t n_opt;
    const char *word;  /* the word just read, as given */
    const char *value; /* the value of the option just read */
} cli_args;

void cli_args_start(cli_args *p, int argc, char **argv, int first, const cli_option *opt,
                    size_t n_opt);

/* The next word: the index of its option in the table (with p->value when
 * it takes one; "--name value" also consumes the value's word), or one of
 * CLI_ARG_*. */
int cli_args_next(cli_args *p);

/* The message for CLI_ARG_UNKNOWN ("unknown option 'WORD'") or
 * CLI_ARG_NO_VALUE (the option's missing text) into why. */
void cli_args_why(const cli_args *p, int r, char *why, size_t n);

#endif
