/* options.c - the option kit (options.h). */
#include "options.h"

#include <stdio.h>
#include <string.h>

void cli_args_start(cli_args *p, int argc, char **argv, int first, const cli_option *opt,
                    size_t n_opt)
{
    p->argc = argc;
    p->argv = argv;
    p->i = first;
    p->opt = opt;
    p->n_opt = n_opt;
    p->word = p->value = NULL;
}

/* The value after name in word: "" for "--name" alone, the rest after
 * "--name=" for a long option with a value, NULL when word is not name. */
static const char *match(const cli_option *o, const char *name, const char *word)
{
    if (!name)
        return NULL;
    size_t n = strlen(name);
    if (strncmp(word, name, n) != 0)
        return NULL;
    if (word[n] == '\0')
        return word + n;
    if (word[n] == '=' && o->value && name[1] == '-')
        return word + n + 1;
    return NULL;
}

int cli_args_next(cli_args *p)
{
    p->value = NULL;
    if (p->i >= p->argc) {
        p->word = NULL;
        return CLI_ARG_END;
    }
    const char *w = p->word = p->argv[p->i++];
    if (strcmp(w, "--") == 0)
        return CLI_ARG_DASHDASH;
    if (w[0] != '-' || w[1] == '\0')
        return CLI_ARG_OPERAND;
    for (size_t k = 0; k < p->n_opt; k++) {
        const cli_option *o = &p->opt[k];
        const char *rest = match(o, o->name, w);
        if (!rest)
            rest = match(o, o->alias, w);
        if (!rest)
            continue;
        if (!o->value)
            return (int)k;
        if (*rest || rest[-1] == '=')
            p->value = rest;
        else if (p->i < p->argc)
            p->value = p->argv[p->i++];
        else
            return CLI_ARG_NO_VALUE;
        return (int)k;
    }
    return CLI_ARG_UNKNOWN;
}

void cli_args_why(const cli_args *p, int r, char *why, size_t n)
{
    if (r != CLI_ARG_NO_VALUE) {
        snprintf(why, n, "unknown option '%s'", p->word ? p->word : "");
        return;
    }
    /* the option whose value is missing: the word is its name */
    for (size_t k = 0; k < p->n_opt; k++) {
        const cli_option *o = &p->opt[k];
        if (strcmp(p->word, o->name) == 0 || (o->alias && strcmp(p->word, o->alias) == 0)) {
            snprintf(why, n, o->missing ? o->missing : "%s needs a value", p->word);
            return;
        }
    }
    snprintf(why, n, "%s needs a value", p->word);
}
