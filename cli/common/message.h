/* message.h - the program's one error printer. Every message of every
 * subcommand goes out through these: the formatted text is written with
 * control characters (C0, DEL, C1) and bytes that are not well-formed UTF-8
 * shown as \xHH, so that no input file, argument or pipe can drive the
 * user's terminal through posenc's messages (an option named
 * "--bogus<ESC>[31m" prints as "--bogus\x1b[31m"). Uses libc only. */
#ifndef POSENC_CLI_MESSAGE_H
#define POSENC_CLI_MESSAGE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* The exit status of a bad command line (every subcommand). */
#define CLI_EXIT_USAGE 2

/* s[0..n) escaped as above. */
void cli_write_escaped(FILE *f, const char *s, size_t n);
/* The formatted text escaped; cli_message adds a newline. */
void cli_vmessage(FILE *f, const char *fmt, va_list ap);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void cli_message(FILE *f, const char *fmt, ...);

/* "posenc CMD: MESSAGE (try 'posenc CMD --help')\n" on f, the message
 * escaped: cmd NULL for the interpreter ("posenc: ..."), hint 0 without the
 * "(try ...)". Returns CLI_EXIT_USAGE. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
int cli_fail(FILE *f, const char *cmd, int hint, const char *fmt, ...);

#endif
