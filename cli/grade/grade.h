/* grade.h - `posenc grade`: runs a learner's solution of the lesson's
 * exercise (examples/exercise/, docs/EXERCISE.md) on the lesson's commands
 * and says whether it is right, and if not, which mistake of the lesson's
 * list explains what it printed.
 *
 * Three layers, each seeing only posenc.h and this header:
 *   grade_cases.c  the commands: the lesson's worked examples, generated
 *                  cases (seeded), and the parser of a --cases file;
 *   grade_math.c   the numbers: posenc's exact answer to each command (the
 *                  library), the learner's line read back, the comparison at
 *                  the printed precision, and the mistakes recomputed;
 *   grade_run.c    the learner's program: fork/exec, pipes, poll, a time
 *                  limit and a cap on what it may print;
 *   grade_main.c   the command line and the report (the only one printing). */
#ifndef POSENC_CLI_GRADE_H
#define POSENC_CLI_GRADE_H

#include "posenc.h"
#include "posenc_lesson.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* `posenc grade ARGS`: argv[0] is "grade". Returns the exit status: 0 pass,
 * 1 fail, 2 bad arguments or a program that cannot be graded. */
int cli_grade_main(int argc, char **argv, FILE *out, FILE *err);

/* ---- the commands (grade_cases.c) ------------------------------------------ */

#define GRADE_MAX_DIM 4096u          /* D of PE, length of a vector */
#define GRADE_MAX_CASES 10000u       /* commands in one grading */
#define GRADE_MAX_NUMBERS (1u << 20) /* vector numbers in all the commands */
#define GRADE_MAX_CASE_LINE 65536u   /* bytes of one line of a --cases file */
#define GRADE_MAX_CASE_FILE (16u << 20)
#define GRADE_MAX_NUMBER_WORD 64u    /* bytes of one number of a --cases file */
#define GRADE_MAX_ABS 1e6            /* largest |x| of a vector element */

/* One command: the library's (posenc_lesson.h), its text the line as sent. */
typedef posenc_lesson_kind grade_kind;
#define GRADE_PE POSENC_LESSON_PE
#define GRADE_ROPE POSENC_LESSON_ROPE
#define GRADE_DOT POSENC_LESSON_DOT
#define GRADE_ADD POSENC_LESSON_ADD
typedef posenc_lesson_case grade_case;

typedef struct {
    grade_case *v;
    size_t n, cap;
    size_t numbers; /* vector numbers in all */
} grade_cases;

void grade_cases_free(grade_cases *c);

/* Appends the commands of a --cases file, len bytes of text (need not be
 * NUL-terminated): one command per line, PE pos D, ROPE pos x..., ADD pos
 * x..., DOT m n [q...] [k...] (or an even count of numbers split in half),
 * names in any case, words separated by spaces, tabs or commas, '#' to the
 * end of a line a comment, blank lines skipped. Positions are integers 0 to
 * POSENC_MAX_POS; numbers are decimal ([+-] digits [. digits] [e [+-]
 * digits]) of at most GRADE_MAX_NUMBER_WORD bytes and |x| <= GRADE_MAX_ABS;
 * D is 1 to GRADE_MAX_DIM. Each case's text is the line rewritten with
 * single spaces, the name in capitals, DOT's vectors bracketed and each
 * number as written. Returns 1, or 0 with why = "line N: what is wrong"
 * (c then holds the cases of the lines before). */
int grade_cases_parse(const char *text, size_t len, grade_cases *c, char *why, size_t why_len);

/* Appends the lesson's worked examples, then cases generated from seed:
 * positions 0 to 100000, even and odd D from 1 to 64, vectors of two
 * decimals in [-2, 2] with no zero pair. Returns 1, or 0 when out of memory. */
int grade_cases_default(uint64_t seed, grade_cases *c);

/* ---- the numbers (grade_math.c) ------------------------------------------- */

#define GRADE_DECIMALS 4

/* How many numbers a command's answer has: 1 for DOT, else D. */
size_t grade_answer_len(const grade_case *c);

/* out[0..grade_answer_len) = posenc's exact answer (the library's
 * posenc_sinusoid_fill_f64, posenc_rope_apply_f64, posenc_rope_dot_f64,
 * posenc_sinusoid_add_f64 with base 10000 and adjacent pairs). 1, or 0 when
 * the library refuses (never for cases the parser made). */
int grade_answer(const grade_case *c, double *out);

/* v with GRADE_DECIMALS decimals as posenc prints it ("%.4f", never -0.0000). */
void grade_format(double v, char *buf, size_t len);

/* Whether a printed value got agrees with the exact value want at the printed
 * precision: |got - want| <= 0.5e-4 (half the last printed digit) plus
 * 1e-9 (1 + |want|) for the learner's rounding in double. */
int grade_close(double got, double want);

/* The numbers of one output line (len bytes): words separated by spaces or
 * tabs, each a decimal number (strtod's syntax, finite). Returns the count
 * (at most max are stored, out may be NULL when max is 0; a longer line
 * counts on), -1 when a word is not a number, or -2 when every word is a
 * number and one of them is not finite ("nan", "inf": a division by zero). */
long grade_read_line(const char *line, size_t len, double *out, size_t max);

/* ---- the mistakes (the library's, posenc_lesson.h) ---------------------------- */

/* The names of the first round, kept for the callers of the grader. */
typedef posenc_lesson_mistake grade_mistake;
#define GRADE_ELEMENT_INDEX POSENC_SLIP_ELEMENT_INDEX
#define GRADE_EXPONENT_K_OVER_D POSENC_SLIP_EXPONENT_K_OVER_D
#define GRADE_ROTATION_SIGN POSENC_SLIP_ROTATION_SIGN
#define GRADE_SIN_COS_SWAPPED POSENC_SLIP_SIN_COS_SWAPPED
#define GRADE_ODD_D POSENC_SLIP_ODD_D
#define GRADE_LAYOUT POSENC_SLIP_LAYOUT
#define GRADE_POSITION_OFFSET POSENC_SLIP_POSITION_OFFSET
#define GRADE_MODEL_DIM POSENC_SLIP_MODEL_DIM
#define GRADE_BASE POSENC_SLIP_BASE
#define GRADE_MISTAKES POSENC_SLIPS
#define GRADE_SINUSOID POSENC_LESSON_SINUSOID
#define GRADE_ROTATION POSENC_LESSON_ROTATION
typedef posenc_lesson_got grade_got;
typedef posenc_lesson_fit grade_fit;
typedef posenc_lesson_explanation grade_explanation;
#define GRADE_MAX_WORK POSENC_LESSON_MAX_WORK

const char *grade_mistake_name(grade_mistake m);
const char *grade_mistake_sentence(grade_mistake m);

/* posenc_lesson_explain over c's cases (skip may be NULL). */
size_t grade_explain(const grade_cases *c, const grade_got *got, const unsigned char *failed,
                     size_t max_work, grade_explanation *e);

/* ---- the learner's program (grade_run.c) ------------------------------------ */

#define GRADE_ERR_KEEP 16384u /* bytes of standard error kept: the last ones */
#define GRADE_MAX_MEMORY (2048ul << 20) /* bytes of address space of the program */
#define GRADE_MAX_FILE (64ul << 20)     /* bytes a file it writes may grow to */
#define GRADE_MAX_PROCS 64              /* processes it may start */

typedef struct {
    int started;        /* 0: it could not be run; exec_errno says why */
    int exec_errno;
    char *out;          /* standard output (NUL-terminated), at most max_out bytes */
    size_t out_len;
    char *err;          /* the last GRADE_ERR_KEEP bytes of standard error */
    size_t err_len;
    int timed_out;      /* stopped at the time limit */
    int too_much;       /* stopped: printed more than max_out bytes */
    int oom;            /* stopped: no memory to keep what it printed */
    int exited, status; /* exited with status ... */
    int signo;          /* ... or was killed by signal signo (not ours) */
} grade_run_result;

/* Runs argv (PATH searched) in a process group of its own with in[0..in_len)
 * on its standard input, then end of file, and reads its standard output and
 * error through pipes (poll) until both end, it exits, timeout_ms pass or it
 * prints more than max_out bytes (then the group is killed). SIGPIPE is
 * ignored meanwhile, so a program that stops reading early is no danger.
 * Returns 1, or 0 when pipes or a process cannot be made (errno set). When
 * exec fails (started = 0) the child exits 127 and nothing is read. */
int grade_run(char *const argv[], const char *in, size_t in_len, int timeout_ms, size_t max_out,
              grade_run_result *r);
void grade_run_free(grade_run_result *r);

/* ---- the lines of the runs (grade_lines.c) ---------------------------------- */

/* What the program printed for each case, from its runs. */
typedef struct {
    const char **at;     /* case i's line in a run's output (NULL: not answered) */
    size_t *len;
    unsigned char *skip; /* not graded: its function is not written, or SET base refused */
    char missing[128];   /* "sinusoid,rotate": the functions the program says are left */
    int base_refused;    /* the other bases' cases skipped: 1 SET base not accepted, 2 that
                            run failed (base_why says how) */
    char base_why[400];
} grade_lines;

/* The input of one run: the commands of the lesson's base (other_bases 0),
 * or those of other bases with a `SET base B` line before each change.
 * *line_case[j] is the case of input line j + 1 (SIZE_MAX for a SET line).
 * NULL when out of memory. */
char *grade_run_text(const grade_cases *c, int other_bases, size_t *len, size_t **line_case,
                     size_t *n_lines);

/* Reads the run's standard error: "line N: NAME() is not written yet"
 * skips the command of line N and lists NAME in L->missing; a message on a
 * SET line (or naming SET) sets *set_refused. Returns how many lines of
 * numbers the run owes (its commands not skipped). */
size_t grade_lines_read_err(const grade_run_result *r, const size_t *line_case, size_t n_lines,
                            grade_lines *L, int *set_refused);

/* Gives each command of the run not skipped the next line of its output. */
void grade_lines_take_out(const grade_run_result *r, const size_t *line_case, size_t n_lines,
                          grade_lines *L);

#endif
