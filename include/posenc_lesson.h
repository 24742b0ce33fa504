/* posenc_lesson.h - the learner's side of posenc's diagnosis room: the
 * lesson's exercise (a sinusoid and a rotation written by hand, graded by
 * `posenc grade`) as commands with exact answers, and the learner's slips as
 * hypotheses that are recomputed and kept when they give what the learner
 * printed, at the printed precision.
 *
 * It is the same idea as posenc_check.h (an engine's numbers against the
 * exact RoPE, each known cause refitted), for the lesson's small commands
 * and a learner's plain-double arithmetic: a hypothesis is a recipe with one
 * knob turned (posenc_lesson_mistake), a combination of knobs is tried one,
 * then two, then three at a time per function, and the first that explains
 * every case (failed and passed alike) is named. Where none does,
 * posenc_lesson_localize says what the failed numbers have in common
 * (which command, which elements, which positions, how they differ).
 *
 * The program that runs the learner (cli/grade) only collects the printed
 * lines and prints the report; every number is decided here. */
#ifndef POSENC_LESSON_H
#define POSENC_LESSON_H

#include "posenc.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    POSENC_LESSON_PE,   /* PE pos D: the sinusoid */
    POSENC_LESSON_ROPE, /* ROPE pos x...: the rotation */
    POSENC_LESSON_DOT,  /* DOT m n [q...] [k...]: rotate(m, q) . rotate(n, k) */
    POSENC_LESSON_ADD   /* ADD pos x...: x + sinusoid(pos) */
} posenc_lesson_kind;

/* One command. x holds D numbers (ROPE, ADD) or q then k (DOT), NULL for PE;
 * base is the base the command runs under (`SET base B` before it; the
 * lesson's 10000 otherwise, 0 meaning 10000); text is the caller's (the
 * library never reads it). */
typedef struct {
    posenc_lesson_kind kind;
    int64_t pos, pos2;
    uint32_t D;
    double *x;
    char *text;
    double base;
} posenc_lesson_case;

/* The base of c (10000 when c->base is 0). */
double posenc_lesson_base(const posenc_lesson_case *c);

/* How many numbers a command's answer has: 1 for DOT, else D. */
size_t posenc_lesson_answer_len(const posenc_lesson_case *c);

/* out[0..answer_len) = the exact answer (posenc_sinusoid_fill_f64,
 * posenc_rope_apply_f64, posenc_rope_dot_f64, posenc_sinusoid_add_f64 with
 * the case's base and adjacent pairs). 1, or 0 when the library refuses. */
int posenc_lesson_answer(const posenc_lesson_case *c, double *out);

/* Whether a value printed with 4 decimals agrees with the exact one:
 * |got - want| <= 0.5e-4 + 1e-9 (1 + |want|). */
int posenc_lesson_close(double got, double want);

/* The slips, in the order a fit is preferred when several give the same
 * numbers (the likelier slip first; docs/EXERCISE.md). The first nine are
 * the lesson's list of the first round, kept first so that their learners
 * are named as before. */
typedef enum {
    POSENC_SLIP_ELEMENT_INDEX,     /* the element index i in the exponent, not k = i // 2 */
    POSENC_SLIP_EXPONENT_K_OVER_D, /* k / D instead of 2k / D */
    POSENC_SLIP_ROTATION_SIGN,     /* the rotation's signs swapped */
    POSENC_SLIP_SIN_COS_SWAPPED,   /* cos at 2k and sin at 2k+1 */
    POSENC_SLIP_ODD_D,             /* the lone element of an odd D missing or wrong */
    POSENC_SLIP_LAYOUT,            /* half pairs (or sines then cosines) */
    POSENC_SLIP_POSITION_OFFSET,   /* pos + 1 or pos - 1 */
    POSENC_SLIP_MODEL_DIM,         /* the exponent's D fixed to another number */
    POSENC_SLIP_BASE,              /* another base, fixed */
    POSENC_SLIP_INTEGER_EXPONENT,  /* 2*k/D in integer arithmetic: 0, every pair turns by pos */
    POSENC_SLIP_PAIR_SHIFT,        /* the exponent of pair k+1 or k-1 */
    POSENC_SLIP_MULTIPLY,          /* pos * base^(2k/D): multiplied by the divisor */
    POSENC_SLIP_COORDINATE_SIGN,   /* one sine term of the rotation with the wrong sign */
    POSENC_SLIP_OVERWRITTEN,       /* x[2k+1] from the already updated x[2k] */
    POSENC_SLIP_ODD_D_EXPONENT,    /* odd D's exponent over D - 1 */
    POSENC_SLIP_BASE_IGNORED,      /* `SET base` accepted, 10000 used anyway */
    POSENC_SLIP_SINGLE_PRECISION,  /* the angle in float: wrong by float's rounding */
    POSENC_SLIPS
} posenc_lesson_mistake;

/* "element-index", ... as the report prints them ("none" past the list). */
const char *posenc_lesson_mistake_name(posenc_lesson_mistake m);
/* Plain-word lines for a learner (separated by '\n'): what the slip is, at
 * which line of the formula, and a worked example. */
const char *posenc_lesson_mistake_sentence(posenc_lesson_mistake m);

/* What the learner printed for one command. */
typedef struct {
    double *v; /* the numbers read (up to the answer's length + 1) */
    long n;    /* how many; -1 when a word is not a number, -2 when the words are
                * numbers and one is "nan" or "inf" (a slip that divides by zero) */
} posenc_lesson_got;

enum { POSENC_LESSON_SINUSOID = 1, POSENC_LESSON_ROTATION = 2 };

typedef struct {
    posenc_lesson_mistake m;
    unsigned in;     /* POSENC_LESSON_SINUSOID | POSENC_LESSON_ROTATION */
    char what[64];   /* "base=1000", "D=512", "offset=+1", "exponent=2(k+1)/D" or "" */
    size_t explains; /* failed cases it is needed for */
} posenc_lesson_fit;

#define POSENC_LESSON_MAX_FITS 6
#define POSENC_LESSON_MAX_WORK 300000000u

typedef struct {
    size_t n; /* 0: none fits */
    posenc_lesson_fit fit[POSENC_LESSON_MAX_FITS];
    int partial; /* the search stopped at max_work before trying every combination */
    int oom;
    unsigned unexplained; /* the functions (POSENC_LESSON_SINUSOID, _ROTATION) with failed
                             cases no combination explains; fit[] holds the other's slips */
} posenc_lesson_explanation;

/* Which slips explain what the learner printed for the n cases (got[i] for
 * c[i]; skip[i] nonzero for a case the learner did not run, which no
 * hypothesis has to explain, skip may be NULL; failed[i] nonzero for the
 * failed ones). A combination (one slip, else two, else three per function,
 * the sinusoid's (PE, ADD) and the rotation's (ROPE, DOT) found apart)
 * explains when recomputing every case under it gives what was printed.
 * When one function's failures are explained and the other's are not, the
 * first's slips are in e->fit and the second is in e->unexplained.
 * Returns e->n. max_work 0 means POSENC_LESSON_MAX_WORK numbers. */
size_t posenc_lesson_explain(const posenc_lesson_case *c, size_t n, const posenc_lesson_got *got,
                             const unsigned char *skip, const unsigned char *failed,
                             size_t max_work, posenc_lesson_explanation *e);

/* ---- localizing --------------------------------------------------------------- */

/* Where the failed cases differ from the exact answer and how. */
typedef struct {
    unsigned kinds;           /* bit (1 << kind) for each command with a failed case */
    unsigned kinds_passed;    /* bit for each command with every case passed */
    size_t elements_checked;  /* numbers compared (PE, ROPE, ADD: element by element) */
    unsigned where;           /* POSENC_LESSON_AT_* bits of the elements that differ */
    unsigned where_right;     /* the same bits of elements that agree */
    int64_t min_failed_pos;   /* the smallest position of a failed case */
    int64_t max_passed_pos;   /* the largest position of a passed case of those commands (-1) */
    int odd_only;             /* every failed case has an odd D */
    int count_wrong;          /* some failed line has another count of numbers */
    unsigned relation;        /* POSENC_LESSON_REL_* that hold for every differing element */
    double scale;             /* got / want when REL_SCALE holds */
    int base_only;            /* only cases with another base than 10000 failed */
} posenc_lesson_where;

enum {
    POSENC_LESSON_AT_EVEN = 1,  /* an element 2k */
    POSENC_LESSON_AT_ODD = 2,   /* an element 2k+1 */
    POSENC_LESSON_AT_FIRST = 4, /* pair 0 */
    POSENC_LESSON_AT_LATER = 8, /* pairs 1 and on */
    POSENC_LESSON_AT_LONE = 16  /* the lone last element of an odd D */
};
enum {
    POSENC_LESSON_REL_SIGN = 1,  /* got = -want */
    POSENC_LESSON_REL_SWAP = 2,  /* got[2k] = want[2k+1] and the other way */
    POSENC_LESSON_REL_SCALE = 4, /* got = s * want, one s */
    POSENC_LESSON_REL_ROUND = 8  /* the difference within float's rounding of the angle */
};

void posenc_lesson_localize(const posenc_lesson_case *c, size_t n, const posenc_lesson_got *got,
                            const unsigned char *skip, const unsigned char *failed,
                            posenc_lesson_where *w);

#ifdef __cplusplus
}
#endif
#endif
