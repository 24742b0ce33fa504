/* test_grade.c - the numeric and parsing parts of `posenc grade`
 * (cli/grade_cases.c, cli/grade_math.c) alone: the --cases parser with every
 * refusal, the generated cases, posenc's answers against the lesson's hand
 * traces, the comparison at 4 decimals, and the mistake search on learners'
 * lines derived by hand (each value below is the lesson's formula worked out
 * on paper with a wrong knob, e.g. sin 0.2 = 0.1987 for k/D in PE 2 4). The
 * whole grader, with real programs, is tests/exercise_test.sh. */
#include "check.h"
#include "grade.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char why[512];

/* ---- allocation failures on demand (-Wl,--wrap, see the Makefile) -------------- */

#include "fault.h" /* alloc_countdown, alloc_failed */

/* Runs fn with the k-th allocation failing, for k = 0, 1, ... until a run
 * makes no allocation fail; fn(failed) checks the outcome either way.
 * Returns the number of runs. */
static long each_allocation(void (*fn)(int failed))
{
    long k = 0;
    for (;; k++) {
        alloc_failed = 0;
        alloc_countdown = k;
        fn(0);
        int failed = alloc_failed != 0;
        alloc_countdown = -1;
        if (!failed)
            break;
    }
    return k + 1;
}

static int parse(const char *text, grade_cases *c)
{
    memset(c, 0, sizeof *c);
    return grade_cases_parse(text, strlen(text), c, why, sizeof why);
}

/* The refusal of one case file: its message. */
static const char *refusal(const char *text)
{
    grade_cases c;
    int ok = parse(text, &c);
    grade_cases_free(&c);
    return ok ? "(accepted)" : why;
}

TEST(parse_good)
{
    grade_cases c;
    CHECK(parse("# the lesson\n\npe 2 4\nRope 1, 1, 0   # a comment\n"
                "DOT 5 3 [1 0] [1 0]\ndot 9 7 1 0 1 0\nADD 2\t1 1 1 1\r\nDOT 0 1 [+1.5e0 .5][-2. 3]",
                &c));
    CHECK_EQ_INT(c.n, 6);
    if (c.n == 6) {
        CHECK(strcmp(c.v[0].text, "PE 2 4") == 0);
        CHECK(c.v[0].kind == GRADE_PE && c.v[0].pos == 2 && c.v[0].D == 4 && !c.v[0].x);
        CHECK(strcmp(c.v[1].text, "ROPE 1 1 0") == 0);
        CHECK(c.v[1].kind == GRADE_ROPE && c.v[1].D == 2 && c.v[1].x[0] == 1 && c.v[1].x[1] == 0);
        CHECK(strcmp(c.v[2].text, "DOT 5 3 [1 0] [1 0]") == 0);
        CHECK(strcmp(c.v[3].text, "DOT 9 7 [1 0] [1 0]") == 0);
        CHECK(c.v[3].kind == GRADE_DOT && c.v[3].pos == 9 && c.v[3].pos2 == 7 && c.v[3].D == 2);
        CHECK(strcmp(c.v[4].text, "ADD 2 1 1 1 1") == 0);
        CHECK(strcmp(c.v[5].text, "DOT 0 1 [+1.5e0 .5] [-2. 3]") == 0);
        CHECK(c.v[5].x[0] == 1.5 && c.v[5].x[1] == 0.5 && c.v[5].x[2] == -2 && c.v[5].x[3] == 3);
        CHECK_EQ_INT(c.numbers, 2 + 4 + 4 + 4 + 4);
    }
    grade_cases_free(&c);
    /* the limits themselves are accepted */
    CHECK(parse("PE 2147483647 4096\nROPE 0 1e6 -1e6\n", &c));
    CHECK_EQ_INT(c.n, 2);
    grade_cases_free(&c);
}

TEST(parse_refusals)
{
    CHECK(strcmp(refusal("PE 2 4\nALIBI 8 5 2"),
                 "line 2: 'ALIBI' is not a command (PE, ROPE, DOT or ADD)") == 0);
    CHECK(strcmp(refusal("PE 2"), "line 1: PE needs a position and a dimension, got 1 word") == 0);
    CHECK(strcmp(refusal("PE -1 4"), "line 1: '-1' is not a position (0 to 2147483647)") == 0);
    CHECK(strcmp(refusal("PE 2147483648 4"),
                 "line 1: '2147483648' is not a position (0 to 2147483647)") == 0);
    CHECK(strcmp(refusal("PE 2 0"), "line 1: '0' is not a dimension (1 to 4096)") == 0);
    CHECK(strcmp(refusal("PE 2 4097"), "line 1: '4097' is not a dimension (1 to 4096)") == 0);
    CHECK(strcmp(refusal("ROPE 1"), "line 1: ROPE needs a position and at least one number") == 0);
    CHECK(strcmp(refusal("ROPE 1 0x10"),
                 "line 1: '0x10' is not a number (decimal, at most 64 characters, |x| <= 1e6)") == 0);
    CHECK(strcmp(refusal("ADD 1 nan"),
                 "line 1: 'nan' is not a number (decimal, at most 64 characters, |x| <= 1e6)") == 0);
    CHECK(strcmp(refusal("ADD 1 1e999"),
                 "line 1: '1e999' is not a number (decimal, at most 64 characters, |x| <= 1e6)") == 0);
    CHECK(strcmp(refusal("ADD 1 1000001"),
                 "line 1: '1000001' is not a number (decimal, at most 64 characters, |x| <= 1e6)") == 0);
    CHECK(strcmp(refusal("ADD 1 1e"),
                 "line 1: '1e' is not a number (decimal, at most 64 characters, |x| <= 1e6)") == 0);
    CHECK(strcmp(refusal("ROPE 1 [1 0]"), "line 1: brackets belong to DOT's vectors only") == 0);
    CHECK(strcmp(refusal("DOT 1 2 [1 0] [1]"),
                 "line 1: DOT needs two bracketed vectors of one length: [q...] [k...]") == 0);
    CHECK(strcmp(refusal("DOT 1 2 [] []"),
                 "line 1: DOT needs two bracketed vectors of one length: [q...] [k...]") == 0);
    CHECK(strcmp(refusal("DOT 1 2 1 0 1"), "line 1: DOT's 3 numbers do not split into two halves") ==
          0);
    CHECK(strcmp(refusal("DOT 1 x [1] [1]"), "line 1: 'x' is not a position (0 to 2147483647)") == 0);
    CHECK(strcmp(refusal("PE 12345678901234 4"),
                 "line 1: '12345678901234' is not a position (0 to 2147483647)") == 0);
    CHECK(strcmp(refusal("ROPE x 1"), "line 1: 'x' is not a position (0 to 2147483647)") == 0);
    CHECK(strcmp(refusal("DOT 1 2 3"), "line 1: DOT needs two positions and two vectors") == 0);
    CHECK(strcmp(refusal("PE 2 " "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
                 "line 1: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' is not a dimension (1 to "
                 "4096)") == 0);
    CHECK(strcmp(refusal("ADD 1 1.00000000000000000000000000000000000000000000000000000000000000001"),
                 "line 1: '1.00000000000000000000000000000000000000...' is not a number (decimal, "
                 "at most 64 characters, |x| <= 1e6)") == 0);
    CHECK(strcmp(refusal("ADD 1 1e+"),
                 "line 1: '1e+' is not a number (decimal, at most 64 characters, |x| <= 1e6)") == 0);
    static const char *const dots[] = {"DOT 1 2 [1 0", "DOT 1 2 [1 [0] [1 0]", "DOT 1 2 [1 0] 1 0]",
                                       "DOT 1 2 [1 0] [1 0", "DOT 1 2 [1 0] [1 0 0]",
                                       "DOT 1 2 [1 0] [1 ] 0]"};
    for (size_t i = 0; i < sizeof dots / sizeof dots[0]; i++)
        CHECK(strcmp(refusal(dots[i]),
                     "line 1: DOT needs two bracketed vectors of one length: [q...] [k...]") == 0);
    CHECK(strcmp(refusal("DOT 1 2 [1 0] [1 x]"),
                 "line 1: 'x' is not a number (decimal, at most 64 characters, |x| <= 1e6)") == 0);
    CHECK(strcmp(refusal("ADD"), "line 1: ADD needs a position and at least one number") == 0);
    CHECK(strcmp(refusal("ROPE 1 1e5x"),
                 "line 1: '1e5x' is not a number (decimal, at most 64 characters, |x| <= 1e6)") == 0);
    CHECK(strcmp(refusal("ROPE 1 -1000001"),
                 "line 1: '-1000001' is not a number (decimal, at most 64 characters, |x| <= 1e6)") ==
          0);
    CHECK(strcmp(refusal("pe~ 1 1"), "line 1: 'pe~' is not a command (PE, ROPE, DOT or ADD)") == 0);
    CHECK(strcmp(refusal("PE 2 4# a comment\nROPE 1 1]"),
                 "line 2: brackets belong to DOT's vectors only") == 0);
    grade_cases c;
    memset(&c, 0, sizeof c);
    /* a message cut to the room given */
    CHECK(!grade_cases_parse("PE", 2, &c, why, 5) && strcmp(why, "line") == 0);
    grade_cases_free(&c);
    CHECK(parse("ADD 1 1e+0 2E-1 -3.5e2", &c) && c.n == 1 && c.v[0].x[1] == 0.2 &&
          c.v[0].x[2] == -350);
    grade_cases_free(&c);
    /* no room for a message: the refusal alone */
    CHECK(!grade_cases_parse("PE", 2, &c, why, 0));
    grade_cases_free(&c);
    CHECK(!grade_cases_parse("PE 1 1\nPE 1\0002\n", 14, &c, why, sizeof why));
    CHECK(strcmp(why, "line 2: a NUL byte") == 0);
    CHECK_EQ_INT(c.n, 1); /* the cases before stay */
    grade_cases_free(&c);
    /* a line over the limit, and one case too many */
    size_t big = GRADE_MAX_CASE_LINE + 10;
    char *s = malloc(129u * 2u * (2u * GRADE_MAX_DIM + 8u));
    if (s) {
        memset(s, ' ', big);
        memcpy(s, "PE 1 1\n", 7);
        s[big - 1] = '\0';
        CHECK(strcmp(refusal(s), "line 2: longer than 65536 bytes") == 0);
        size_t n = 0;
        for (unsigned i = 0; i <= GRADE_MAX_CASES; i++)
            n += (size_t)sprintf(s + n, "PE %u 1\n", i);
        CHECK(strcmp(refusal(s), "line 10001: more than 10000 commands") == 0);
        /* a vector too long, and too many numbers in all */
        n = (size_t)sprintf(s, "ROPE 1");
        for (unsigned i = 0; i <= GRADE_MAX_DIM; i++)
            n += (size_t)sprintf(s + n, " 1");
        CHECK(strcmp(refusal(s), "line 1: a vector of 4097 numbers: at most 4096") == 0);
        n = 0;
        for (unsigned line = 0; line < 129; line++) {
            n += (size_t)sprintf(s + n, "DOT 1 2");
            for (unsigned i = 0; i < 2 * GRADE_MAX_DIM; i++)
                n += (size_t)sprintf(s + n, " 1");
            s[n++] = '\n';
        }
        s[n] = '\0';
        CHECK(strcmp(refusal(s), "line 129: more than 1048576 numbers in all the commands") == 0);
        free(s);
    }
}

TEST(default_cases)
{
    grade_cases a, b, c;
    memset(&a, 0, sizeof a), memset(&b, 0, sizeof b), memset(&c, 0, sizeof c);
    CHECK(grade_cases_default(1, &a) && grade_cases_default(1, &b) && grade_cases_default(2, &c));
    static const char *const lesson[] = {"PE 2 4",
                                         "ROPE 1 1 0",
                                         "DOT 5 3 [1 0] [1 0]",
                                         "DOT 9 7 [1 0] [1 0]",
                                         "ADD 2 1 1 1 1",
                                         "PE 2 5"};
    CHECK(a.n > 100 && a.n == b.n && a.n == c.n);
    for (size_t i = 0; i < 6 && i < a.n; i++)
        CHECK(strcmp(a.v[i].text, lesson[i]) == 0);
    int same = 1, differ = 0;
    int odd[4] = {0}, even[4] = {0}, at_max = 0, at_zero = 0;
    for (size_t i = 0; i < a.n && i < b.n; i++) {
        same &= strcmp(a.v[i].text, b.v[i].text) == 0;
        differ |= strcmp(a.v[i].text, c.v[i].text) != 0;
        /* the edges go to D 1024 and position 999999, the generated to 64 and 10^5 */
        CHECK(a.v[i].D >= 1 && a.v[i].D <= 1024);
        CHECK(a.v[i].pos <= 999999 && a.v[i].pos2 <= 999999);
        (a.v[i].D % 2 ? odd : even)[a.v[i].kind]++;
        at_max |= a.v[i].pos == 100000;
        at_zero |= a.v[i].pos == 0;
        /* no pair of a generated vector (the 88 cases before the 7 of other
         * bases, which come last) is all zeros */
        CHECK((i + 7 >= a.n) == (a.v[i].base > 0));
        if (i + 88 + 7 >= a.n && i + 7 < a.n && a.v[i].x)
            for (uint32_t k = 0; k + 1 < a.v[i].D; k += 2)
                CHECK(a.v[i].x[k] != 0 || a.v[i].x[k + 1] != 0);
    }
    CHECK(same && differ && at_max && at_zero);
    for (int k = 0; k < 4; k++)
        CHECK(odd[k] >= 5 && even[k] >= 5);
    grade_cases_free(&a), grade_cases_free(&b), grade_cases_free(&c);
}

/* The lesson's worked traces (docs/LANGUAGE.md, examples/lesson.pe), as
 * printed by posenc, from posenc's answers. */
TEST(answers_are_the_lesson_traces)
{
    static const char *const want[] = {"0.9093 -0.4161 0.0200 0.9998", "0.5403 0.8415", "-0.4161",
                                       "-0.4161", "1.9093 0.5839 1.0200 1.9998",
                                       "0.9093 -0.4161 0.0502 0.9987 0.0013"};
    grade_cases c;
    memset(&c, 0, sizeof c);
    CHECK(grade_cases_default(1, &c));
    for (size_t i = 0; i < 6 && i < c.n; i++) {
        double v[8];
        char line[128] = "", num[32];
        CHECK(grade_answer(&c.v[i], v));
        for (size_t j = 0; j < grade_answer_len(&c.v[i]); j++) {
            grade_format(v[j], num, sizeof num);
            if (j)
                strcat(line, " ");
            strcat(line, num);
        }
        CHECK(strcmp(line, want[i]) == 0);
    }
    grade_cases_free(&c);
}

TEST(format_close_read)
{
    char s[32];
    grade_format(-0.00004, s, sizeof s);
    CHECK(strcmp(s, "0.0000") == 0);
    grade_format(-1.5, s, sizeof s);
    CHECK(strcmp(s, "-1.5000") == 0);
    /* half the last printed digit either way, not more */
    CHECK(grade_close(0.1234, 0.12345) && grade_close(0.1235, 0.12345));
    CHECK(!grade_close(0.1233, 0.12345) && !grade_close(0.1236, 0.12345));
    CHECK(grade_close(-0.0, 0.00004) && !grade_close(0.0001, -0.00001));
    double v[3];
    CHECK_EQ_INT(grade_read_line("1.0000 -2.5000", 14, v, 3), 2);
    CHECK(v[0] == 1 && v[1] == -2.5);
    CHECK_EQ_INT(grade_read_line("", 0, v, 3), 0);
    CHECK_EQ_INT(grade_read_line("1 2 3 4", 7, v, 3), 4); /* counts past max */
    /* a printed non-finite value (a slip that divides by zero) is -2, which a
     * slip's own inf or nan may explain; a word that is no number is -1,
     * which nothing explains */
    CHECK_EQ_INT(grade_read_line("nan", 3, v, 3), -2);
    CHECK_EQ_INT(grade_read_line("inf", 3, v, 3), -2);
    CHECK_EQ_INT(grade_read_line("0.5 -inf", 8, v, 3), -2);
    CHECK_EQ_INT(grade_read_line("nan \xc3\xa9", 6, v, 3), -1);
    CHECK_EQ_INT(grade_read_line("0.8415 0.5403 \xc3\xa9", 16, v, 3), -1);
    CHECK_EQ_INT(grade_read_line("0x1p3", 5, v, 3), -1);
    CHECK_EQ_INT(grade_read_line("0.5 ok", 6, v, 3), -1);
    CHECK_EQ_INT(grade_read_line("1,2", 3, v, 3), -1);
    /* tabs and carriage returns separate too, around and between */
    CHECK_EQ_INT(grade_read_line("\t1\r\t2 \r", 7, v, 3), 2);
    CHECK_EQ_INT(grade_read_line("1\0002", 3, v, 3), -1); /* a NUL byte ends no word early */
    CHECK(v[0] == 1 && v[1] == 2);
    /* a word of 80 bytes or more is no number; 79 bytes are read */
    char w[90];
    memset(w, '0', sizeof w);
    w[0] = '1', w[1] = '.';
    CHECK_EQ_INT(grade_read_line(w, 80, v, 3), -1);
    CHECK_EQ_INT(grade_read_line(w, 79, v, 3), 1);
    CHECK(v[0] == 1);
    /* "-" and "." alone read nothing */
    CHECK_EQ_INT(grade_read_line("-", 1, v, 3), -1);
    CHECK_EQ_INT(grade_read_line(".", 1, v, 3), -1);
}

/* Grades hand-written lines for the commands of text: which mistakes. */
static size_t explain(const char *text, const char *const *lines, grade_explanation *e)
{
    grade_cases c;
    CHECK(parse(text, &c));
    grade_got *got = calloc(c.n, sizeof *got);
    unsigned char *failed = calloc(c.n, 1);
    double *vals = calloc(c.n * 16, sizeof *vals);
    size_t n = 0;
    if (got && failed && vals) {
        for (size_t i = 0; i < c.n; i++) {
            double want[16];
            got[i].v = vals + 16 * i;
            got[i].n = grade_read_line(lines[i], strlen(lines[i]), got[i].v, 16);
            CHECK(grade_answer(&c.v[i], want));
            int ok = got[i].n == (long)grade_answer_len(&c.v[i]);
            for (size_t j = 0; ok && j < grade_answer_len(&c.v[i]); j++)
                ok = grade_close(got[i].v[j], want[j]);
            failed[i] = !ok;
        }
        n = grade_explain(&c, got, failed, 0, e);
    }
    free(got), free(failed), free(vals);
    grade_cases_free(&c);
    return n;
}

TEST(mistakes_named)
{
    static const char lesson[] = "PE 2 4\nROPE 1 1 0\nDOT 5 3 [1 0] [1 0]\nPE 2 5\n";
    grade_explanation e;
    /* (1, 0) turned by -1: (cos 1, -sin 1); DOT unchanged */
    const char *sign[] = {"0.9093 -0.4161 0.0200 0.9998", "0.5403 -0.8415", "-0.4161",
                          "0.9093 -0.4161 0.0502 0.9987 0.0013"};
    CHECK_EQ_INT(explain(lesson, sign, &e), 1);
    CHECK(e.fit[0].m == GRADE_ROTATION_SIGN && e.fit[0].in == GRADE_ROTATION &&
          e.fit[0].explains == 1);
    /* k/D: pair 1 of PE 2 4 turns by 2 / 10000^(1/4) = 0.2: sin 0.1987, cos
     * 0.9801; PE 2 5: 2 / 10000^(1/5) = 0.3170 and 2 / 10000^(2/5) = 0.0502.
     * base 100 with 2k/D gives the same numbers: the exponent is named. */
    const char *k_over_d[] = {"0.9093 -0.4161 0.1987 0.9801", "0.5403 0.8415", "-0.4161",
                              "0.9093 -0.4161 0.3117 0.9502 0.0502"};
    CHECK_EQ_INT(explain(lesson, k_over_d, &e), 1);
    CHECK(e.fit[0].m == GRADE_EXPONENT_K_OVER_D && e.fit[0].in == GRADE_SINUSOID &&
          e.fit[0].explains == 2 && strcmp(e.fit[0].what, "exponent=k/D") == 0);
    /* the lone sine of PE 2 5 missing */
    const char *odd[] = {"0.9093 -0.4161 0.0200 0.9998", "0.5403 0.8415", "-0.4161",
                         "0.9093 -0.4161 0.0502 0.9987"};
    CHECK_EQ_INT(explain(lesson, odd, &e), 1);
    CHECK(e.fit[0].m == GRADE_ODD_D && e.fit[0].in == GRADE_SINUSOID);
    /* two at once: sin and cos swapped (cos 2, sin 2, cos 0.02, sin 0.02) and
     * the rotation's sign: both named, in the list's order */
    const char *two[] = {"-0.4161 0.9093 0.9998 0.0200", "0.5403 -0.8415", "-0.4161",
                         "-0.4161 0.9093 0.9987 0.0502 1.0000"};
    CHECK_EQ_INT(explain(lesson, two, &e), 2);
    CHECK(e.fit[0].m == GRADE_ROTATION_SIGN && e.fit[0].explains == 1);
    CHECK(e.fit[1].m == GRADE_SIN_COS_SWAPPED && e.fit[1].explains == 2);
    /* base 1000: pair 1 of PE 2 4 turns by 2 / 1000^(1/2) = 0.0632 */
    const char *base[] = {"0.9093 -0.4161 0.0632 0.9980", "0.5403 0.8415", "-0.4161",
                          "0.9093 -0.4161 0.1259 0.9920 0.0080"};
    CHECK_EQ_INT(explain(lesson, base, &e), 1);
    CHECK(e.fit[0].m == GRADE_BASE && strcmp(e.fit[0].what, "base=1000") == 0);
    /* positions from 1: PE 3 4 = sin 3, cos 3, sin 0.03, cos 0.03 */
    const char *offset[] = {"0.1411 -0.9900 0.0300 0.9996", "-0.4161 0.9093", "-0.4161",
                            "0.1411 -0.9900 0.0753 0.9972 0.0019"};
    CHECK_EQ_INT(explain(lesson, offset, &e), 1);
    CHECK(e.fit[0].m == GRADE_POSITION_OFFSET && strcmp(e.fit[0].what, "offset=+1") == 0 &&
          e.fit[0].in == (GRADE_SINUSOID | GRADE_ROTATION) && e.fit[0].explains == 3);
    /* nothing of the list prints ones */
    const char *none[] = {"1 1 1 1", "0.5403 0.8415", "-0.4161", "1 1 1 1 1"};
    CHECK_EQ_INT(explain(lesson, none, &e), 0);
    /* a half-pair rotation: ROPE 1 1 2 0 0 pairs (1, 0) and (2, 0):
     * (cos 1, 2 cos 0.01, sin 1, 2 sin 0.01) = 0.5403 1.9999 0.8415 0.0200 */
    const char *half[] = {"0.5403 1.9999 0.8415 0.0200"};
    CHECK_EQ_INT(explain("ROPE 1 1 2 0 0\n", half, &e), 1);
    CHECK(e.fit[0].m == GRADE_LAYOUT && e.fit[0].in == GRADE_ROTATION);
    CHECK(strcmp(grade_mistake_name(GRADE_MODEL_DIM), "model-dim") == 0);
    CHECK(strcmp(grade_mistake_name(GRADE_MISTAKES), "none") == 0);
    /* no sentence past the list; the first is element-index's */
    CHECK(strcmp(grade_mistake_sentence(GRADE_MISTAKES), "") == 0);
    CHECK(strcmp(grade_mistake_sentence((grade_mistake)-1), "") == 0);
    CHECK(strncmp(grade_mistake_sentence((grade_mistake)0), "", 1) != 0);
}

TEST(mistakes_more)
{
    grade_explanation e;
    /* the rotation zeroes the lone element: DOT 3 3 keeps q . k = 1 + 2 * 3
     * but for the lone term (a rotation at one position preserves the dot
     * product), so 1 */
    const char *zero[] = {"0.5403 0.8415 0", "1.0000"};
    CHECK_EQ_INT(explain("ROPE 1 1 0 5\nDOT 3 3 [1 0 2] [1 0 3]\n", zero, &e), 1);
    CHECK(e.fit[0].m == GRADE_ODD_D && e.fit[0].in == GRADE_ROTATION && e.fit[0].explains == 2);
    /* the lone element turned as (a, 0): a cos theta, theta = 1000 / 10000^(2/3)
     * = 2.1544, so DOT 1000 1000 [0 0 2] [0 0 3] = 6 cos^2 2.1544 = 1.8220 */
    const char *cosine[] = {"1.8220"};
    CHECK_EQ_INT(explain("DOT 1000 1000 [0 0 2] [0 0 3]\n", cosine, &e), 1);
    CHECK(e.fit[0].m == GRADE_ODD_D && e.fit[0].in == GRADE_ROTATION);
    /* two mistakes in the sinusoid: cos first and base 1000; PE 3 6 turns its
     * pairs by 3, 3 / 1000^(2/6) = 0.3 and 3 / 1000^(4/6) = 0.03 */
    const char *two[] = {"-0.4161 0.9093 0.9980 0.0632", "-0.9900 0.1411 0.9553 0.2955 0.9996 0.0300"};
    CHECK_EQ_INT(explain("PE 2 4\nPE 3 6\n", two, &e), 2);
    CHECK(e.fit[0].m == GRADE_SIN_COS_SWAPPED && e.fit[0].explains == 2);
    CHECK(e.fit[1].m == GRADE_BASE && e.fit[1].explains == 2 &&
          strcmp(e.fit[1].what, "base=1000") == 0);
    /* a word that is not a number, and a lone sine short by two: nothing fits */
    const char *words[] = {"0.9093 -0.4161 ok 0.9998"};
    CHECK_EQ_INT(explain("PE 2 4\n", words, &e), 0);
    const char *short_by_two[] = {"0.9093 -0.4161 0.0502"};
    CHECK_EQ_INT(explain("PE 2 5\n", short_by_two, &e), 0);
    CHECK(!e.partial && !e.oom);
}

/* The second round's slips, each on hand-worked lines (docs/EXERCISE.md). */
TEST(new_slips_named)
{
    grade_explanation e;
    /* 2 * k / D in int: every pair turns by pos */
    const char *integer[] = {"0.9093 -0.4161 0.9093 -0.4161"};
    CHECK_EQ_INT(explain("PE 2 4\n", integer, &e), 1);
    CHECK(e.fit[0].m == POSENC_SLIP_INTEGER_EXPONENT);
    /* k + 1: pair 0 has pair 1's numbers */
    const char *shift[] = {"0.0200 0.9998 0.0002 1.0000"};
    CHECK_EQ_INT(explain("PE 2 4\n", shift, &e), 1);
    CHECK(e.fit[0].m == POSENC_SLIP_PAIR_SHIFT && strcmp(e.fit[0].what, "exponent=2(k+1)/D") == 0);
    /* pos * base^(2k/D): pair 1 of PE 2 4 turns by 200 */
    const char *mult[] = {"0.9093 -0.4161 -0.8733 0.4872"};
    CHECK_EQ_INT(explain("PE 2 4\n", mult, &e), 1);
    CHECK(e.fit[0].m == POSENC_SLIP_MULTIPLY);
    /* x[2k+1] from the new x[2k]; the second coordinate's sign */
    const char *over[] = {"0.5403 0.4546", "-0.3012 0.2869"};
    CHECK_EQ_INT(explain("ROPE 1 1 0\nROPE 1 1 1\n", over, &e), 1);
    CHECK(e.fit[0].m == POSENC_SLIP_OVERWRITTEN && e.fit[0].explains == 2);
    const char *sign[] = {"0.5403 -0.8415", "-0.3012 -0.3012"};
    CHECK_EQ_INT(explain("ROPE 1 1 0\nROPE 1 1 1\n", sign, &e), 1);
    CHECK(e.fit[0].m == POSENC_SLIP_COORDINATE_SIGN && e.fit[0].in == GRADE_ROTATION);
    /* odd D over D - 1 */
    const char *odd[] = {"0.9093 -0.4161 0.0200 0.9998 0.0002", "0.9093 -0.4161 0.0200 0.9998",
                         "0.9093 -0.4161 0.0002"};
    CHECK_EQ_INT(explain("PE 2 5\nPE 2 4\nPE 2 3\n", odd, &e), 1);
    CHECK(e.fit[0].m == POSENC_SLIP_ODD_D_EXPONENT);
    /* SET base 100 ignored */
    const char *ignored[] = {"0.9093 -0.4161 0.0200 0.9998", "0.8415 0.5403 0.0100 1.0000"};
    CHECK_EQ_INT(explain("PE 2 4\nSET base 100\nPE 1 4\n", ignored, &e), 1);
    CHECK(e.fit[0].m == POSENC_SLIP_BASE_IGNORED && e.fit[0].explains == 1);
    CHECK(strcmp(grade_mistake_name(POSENC_SLIP_SINGLE_PRECISION), "single-precision") == 0);
}

/* Where the failed numbers differ when no slip fits: the command, the
 * elements, the relation. */
TEST(localize_plain_words)
{
    grade_cases c;
    CHECK(parse("PE 2 4\nROPE 1 1 0\n", &c));
    /* PE 2 4 with its sines times 1.5 (0.9093 * 1.5 = 1.3639, 0.0200 * 1.5 = 0.0300) */
    double pe[4] = {1.3639, -0.4161, 0.0300, 0.9998}, rope[2] = {0.5403, 0.8415};
    grade_got got[2] = {{pe, 4}, {rope, 2}};
    unsigned char failed[2] = {1, 0};
    posenc_lesson_where w;
    posenc_lesson_localize(c.v, c.n, got, NULL, failed, &w);
    CHECK(w.kinds == 1u << GRADE_PE && w.kinds_passed == 1u << GRADE_ROPE);
    CHECK(w.where == (POSENC_LESSON_AT_EVEN | POSENC_LESSON_AT_FIRST | POSENC_LESSON_AT_LATER));
    CHECK((w.relation & POSENC_LESSON_REL_SCALE) && fabs(w.scale - 1.5) < 1e-3);
    CHECK(!(w.relation & POSENC_LESSON_REL_SIGN) && !w.count_wrong && !w.odd_only);
    /* the second coordinate negated: a sign, at odd elements */
    double neg[2] = {0.5403, -0.8415};
    got[1].v = neg;
    failed[0] = 0, failed[1] = 1;
    got[0].v = (double[]){0.9093, -0.4161, 0.0200, 0.9998};
    posenc_lesson_localize(c.v, c.n, got, NULL, failed, &w);
    CHECK(w.where == (POSENC_LESSON_AT_ODD | POSENC_LESSON_AT_FIRST));
    CHECK(w.relation & POSENC_LESSON_REL_SIGN);
    grade_cases_free(&c);
}

/* localize: the positions, bases and D of the failed cases, ADD's
 * sinusoid part, DOT's elements, and one scale for every wrong number */
TEST(localize_more)
{
    grade_cases c;
    CHECK(parse("PE 5 2\nPE 2 2\nPE 9 2\nADD 1 1 1\nDOT 1 2 [1 0] [1 0]\nPE 2 4\nPE 2 5\n"
                "SET base 100\nPE 1 4\n",
                &c));
    CHECK_EQ_INT(c.n, 8);
    double bad[2] = {3, 3}, pe9[2] = {0.4121, -0.9111}; /* sin 9, cos 9 */
    /* ADD 1 1 1 with the sinusoid part doubled: 1 + 2 sin 1, 1 + 2 cos 1 */
    double add[2] = {2.682942, 2.080605}, dot[1] = {0.1};
    double pe4[4] = {0.9093, -0.4161, 0.0200, 0.9998}, pe5[5] = {0.9093, -0.4161, 0.0502, 0.9987, 7};
    double b100[4] = {0.8415, 0.5403, 0.0998, 0.9950};
    grade_got got[8] = {{bad, 2}, {bad, 2}, {pe9, 2}, {add, 2}, {dot, 1}, {pe4, 4}, {pe5, 5},
                        {b100, 4}};
    posenc_lesson_where w;
    /* PE 5 and PE 2 fail, PE 9 passes: the failed ones from 2, a later one right */
    unsigned char failed[8] = {1, 1, 0, 0, 0, 0, 0, 0};
    posenc_lesson_localize(c.v, c.n, got, NULL, failed, &w);
    CHECK(w.kinds == 1u << GRADE_PE && w.min_failed_pos == 2 && w.max_passed_pos == 9);
    CHECK(!w.odd_only && !w.base_only && !w.count_wrong);
    CHECK(w.where == (POSENC_LESSON_AT_EVEN | POSENC_LESSON_AT_ODD | POSENC_LESSON_AT_FIRST));
    /* a skipped case is not looked at: PE 2 alone fails, PE 5 and 9 pass */
    unsigned char skip[8] = {1, 0, 0, 0, 0, 0, 0, 0};
    failed[0] = 1;
    posenc_lesson_localize(c.v, c.n, got, skip, failed, &w);
    CHECK(w.min_failed_pos == 2 && w.max_passed_pos == 9);
    /* ADD: its sinusoid part, times 2 */
    memset(failed, 0, sizeof failed);
    failed[3] = 1;
    posenc_lesson_localize(c.v, c.n, got, NULL, failed, &w);
    CHECK(w.kinds == 1u << GRADE_ADD && (w.relation & POSENC_LESSON_REL_SCALE));
    CHECK(fabs(w.scale - 2) < 1e-4);
    /* DOT: one number, no element of a pair */
    memset(failed, 0, sizeof failed);
    failed[4] = 1;
    posenc_lesson_localize(c.v, c.n, got, NULL, failed, &w);
    CHECK(w.kinds == 1u << GRADE_DOT && w.where == 0 && w.elements_checked == 1);
    CHECK(fabs(w.scale - 0.1 / cos(1.0)) < 1e-9);
    /* PE 2 4: sin 2 twice, cos 2 three times: no one scale */
    memset(failed, 0, sizeof failed);
    failed[5] = 1;
    pe4[0] = 2 * 0.909297, pe4[1] = 3 * -0.416147;
    posenc_lesson_localize(c.v, c.n, got, NULL, failed, &w);
    CHECK(!(w.relation & POSENC_LESSON_REL_SCALE));
    /* all four doubled, the small third (0.02) too: one scale, 2 */
    pe4[1] = 2 * -0.416147, pe4[2] = 2 * 0.0199987, pe4[3] = 2 * 0.9998;
    posenc_lesson_localize(c.v, c.n, got, NULL, failed, &w);
    CHECK((w.relation & POSENC_LESSON_REL_SCALE) && fabs(w.scale - 2) < 1e-4);
    CHECK(w.where == (POSENC_LESSON_AT_EVEN | POSENC_LESSON_AT_ODD | POSENC_LESSON_AT_FIRST |
                      POSENC_LESSON_AT_LATER));
    /* the small third not doubled but 0.5: no one scale */
    pe4[2] = 0.5;
    posenc_lesson_localize(c.v, c.n, got, NULL, failed, &w);
    CHECK(!(w.relation & POSENC_LESSON_REL_SCALE));
    /* PE 2 5 alone, its lone element: odd D only */
    memset(failed, 0, sizeof failed);
    failed[6] = 1;
    posenc_lesson_localize(c.v, c.n, got, NULL, failed, &w);
    CHECK(w.odd_only && w.where == POSENC_LESSON_AT_LONE && !w.base_only);
    /* the case after SET base 100 alone: base only */
    memset(failed, 0, sizeof failed);
    failed[7] = 1;
    b100[2] = 0.0100, b100[3] = 1.0000;
    posenc_lesson_localize(c.v, c.n, got, NULL, failed, &w);
    CHECK(w.base_only && !w.odd_only &&
          w.where == (POSENC_LESSON_AT_EVEN | POSENC_LESSON_AT_ODD | POSENC_LESSON_AT_LATER));
    grade_cases_free(&c);
}

/* The search stops after max_work numbers, and says so. */
TEST(search_work_cap)
{
    grade_cases c;
    CHECK(parse("PE 2 4\n", &c));
    double v[4] = {1, 1, 1, 1};
    grade_got got = {v, 4};
    unsigned char failed = 1;
    grade_explanation e;
    CHECK_EQ_INT(grade_explain(&c, &got, &failed, 100, &e), 0);
    CHECK(e.partial && !e.oom);
    CHECK_EQ_INT(grade_explain(&c, &got, &failed, 0, &e), 0);
    CHECK(!e.partial);
    grade_cases_free(&c);
}

/* Out of memory anywhere in the parser, the generator and the search: a
 * refusal that says so, nothing leaked (SANITIZE=1), then success. */
static void parse_under(int unused)
{
    (void)unused;
    grade_cases c;
    memset(&c, 0, sizeof c);
    int ok = grade_cases_parse("PE 1 2\nROPE 1 1 0\nDOT 1 2 [1 0] [0 1]\nADD 3 1 2 3\n", 47, &c,
                               why, sizeof why);
    CHECK(ok ? c.n == 4 : strstr(why, "out of memory") != NULL && alloc_failed);
    grade_cases_free(&c);
    memset(&c, 0, sizeof c);
    alloc_countdown = alloc_failed ? -1 : alloc_countdown;
    ok = grade_cases_default(7, &c);
    CHECK(ok ? c.n > 100 : alloc_failed != 0);
    grade_cases_free(&c);
}

static void explain_under(int unused)
{
    (void)unused;
    long k = alloc_countdown;
    grade_cases c;
    alloc_countdown = -1;
    CHECK(parse("ROPE 1 1 0\n", &c));
    alloc_countdown = k;
    double v[2] = {0.5403, -0.8415};
    grade_got got = {v, 2};
    unsigned char failed = 1;
    grade_explanation e;
    size_t n = grade_explain(&c, &got, &failed, 0, &e);
    /* (a failed sort of the cases leaves them in their order: the same fit) */
    CHECK((alloc_failed && n == 0 && e.oom) || (n == 1 && e.fit[0].m == GRADE_ROTATION_SIGN));
    alloc_countdown = -1;
    grade_cases_free(&c);
}

TEST(out_of_memory)
{
    CHECK(each_allocation(parse_under) > 5);
    CHECK(each_allocation(explain_under) > 2);
}

/* ---- the whole grader, in-process: cli_grade_main ------------------------------- */

static char tmp_cases[64], tmp_answers[64], tmp_answers_base[64];

static void write_file(char *path, const char *text)
{
    strcpy(path, "/tmp/posenc-grade-XXXXXX");
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0) {
        CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
        close(fd);
    }
}

/* Runs posenc grade ARGS; its standard output and error in out, err. */
static int grade_main(char **argv, int argc, char *out, char *err, size_t cap)
{
    FILE *fo = tmpfile(), *fe = tmpfile();
    int status = -1;
    out[0] = err[0] = '\0';
    if (fo && fe) {
        status = cli_grade_main(argc, argv, fo, fe);
        rewind(fo), rewind(fe);
        out[fread(out, 1, cap - 1, fo)] = '\0';
        err[fread(err, 1, cap - 1, fe)] = '\0';
    }
    if (fo)
        fclose(fo);
    if (fe)
        fclose(fe);
    return status;
}

static const char sign_report[] =
    "GRADE verdict=fail cases=6 failed=1\n"
    "CASE cmd=\"ROPE 1 1 0\" got=\"0.5403 -0.8415\" want=\"0.5403 0.8415\"\n"
    "MISTAKE name=rotation-sign explains=1/1 in=rotation\n";

static void grade_main_under(int unused)
{
    (void)unused;
    char cat[96], out[4096], err[4096];
    snprintf(cat, sizeof cat, "cat %s", tmp_answers);
    char *argv[] = {"grade", "--cases", tmp_cases, "--", "sh", "-c", cat, NULL};
    int status = grade_main(argv, 7, out, err, sizeof out);
    if (alloc_failed && status == 2) {
        CHECK(strstr(err, "out of memory") != NULL);
    } else { /* no allocation failed, or only a sort's */
        CHECK_EQ_INT(status, 1);
        CHECK(strncmp(out, sign_report, strlen(sign_report)) == 0 && err[0] == '\0');
    }
}

TEST(whole_grader)
{
    write_file(tmp_cases, "PE 2 4\nROPE 1 1 0\nDOT 5 3 [1 0] [1 0]\nDOT 9 7 [1 0] [1 0]\n"
                          "ADD 2 1 1 1 1\nPE 2 5\n");
    write_file(tmp_answers, "0.9093 -0.4161 0.0200 0.9998\n0.5403 -0.8415\n-0.4161\n-0.4161\n"
                            "1.9093 0.5839 1.0200 1.9998\n0.9093 -0.4161 0.0502 0.9987 0.0013\n");
    CHECK(each_allocation(grade_main_under) > 5);
    /* the learner's whole standard error kept to its last 16 KiB, its last
     * lines shown */
    char out[4096], err[4096];
    char *noisy[] = {"grade", "--", "sh", "-c",
                     "i=0; while [ $i -lt 3000 ]; do echo \"noise $i\"; i=$((i+1)); done >&2; "
                     "exit 4",
                     NULL};
    CHECK_EQ_INT(grade_main(noisy, 5, out, err, sizeof out), 2);
    CHECK(strstr(err, "exited with status 4 after 0 lines for 111 commands\n"
                      "posenc grade: its standard error:\n  noise 2980\n") != NULL);
    CHECK(strstr(err, "  noise 2999\n") != NULL && !strstr(err, "noise 2979"));
    /* more than the 16 KiB kept in one read: its end */
    char *flood[] = {"grade", "--", "sh", "-c",
                     "{ head -c 100000 /dev/zero | tr '\\0' x; echo; echo last; } >&2; exit 5",
                     NULL};
    static char big[1 << 16];
    CHECK_EQ_INT(grade_main(flood, 5, out, big, sizeof big), 2);
    CHECK(strstr(big, "exited with status 5") != NULL && strstr(big, "xxxx\n  last\n") != NULL);
    CHECK(strlen(big) < GRADE_ERR_KEEP + 200);
    unlink(tmp_cases);
    unlink(tmp_answers);
}

/* The generated cases, answered by a learner whose rotation turns the other
 * way: posenc's own inverse rotation (POSENC_INVERSE, the transpose) for
 * ROPE and under DOT, posenc's answers for PE and ADD. Graded with each
 * allocation failing in turn. */
static void inverse_under(int unused)
{
    (void)unused;
    char cat[256], out[8192], err[4096];
    /* the run of other bases (SET base lines) answered from its own file */
    snprintf(cat, sizeof cat, "if grep -q SET; then cat %s; else cat %s; fi", tmp_answers_base,
             tmp_answers);
    char *argv[] = {"grade", "--show", "2", "--", "sh", "-c", cat, NULL};
    int status = grade_main(argv, 7, out, err, sizeof out);
    if (alloc_failed && status == 2) {
        CHECK(strstr(err, "out of memory") != NULL);
    } else {
        CHECK_EQ_INT(status, 1);
        CHECK(strncmp(out, "GRADE verdict=fail cases=118 failed=", 36) == 0);
        /* the two shortest failed commands: the lesson's, then ROPE 1 1 1 (turned by
         * -1: (cos 1 + sin 1, cos 1 - sin 1)) */
        CHECK(strstr(out, "\nCASE cmd=\"ROPE 1 1 0\" got=\"0.5403 -0.8415\" want=\"0.5403 "
                          "0.8415\"\nCASE cmd=\"ROPE 1 1 1\" got=\"1.3818 -0.3012\" "
                          "want=\"-0.3012 1.3818\"\nMISTAKE name=rotation-sign ") != NULL);
    }
}

TEST(whole_grader_generated)
{
    grade_cases c;
    memset(&c, 0, sizeof c);
    CHECK(grade_cases_default(1, &c));
    size_t cap = 1u << 20, len[2] = {0, 0};
    char *text[2] = {malloc(cap), malloc(cap)}; /* the lesson's base; the other bases */
    double *v = malloc((1 + 2 * GRADE_MAX_DIM) * sizeof *v);
    for (size_t i = 0; text[0] && text[1] && v && i < c.n; i++) {
        const grade_case *g = &c.v[i];
        double base = posenc_lesson_base(g);
        int t = g->base > 0;
        CHECK(grade_answer(g, v));
        if (g->kind == GRADE_ROPE || g->kind == GRADE_DOT) {
            double *q = v + 1, *k = q + g->D;
            memcpy(q, g->x, (g->kind == GRADE_DOT ? 2u : 1u) * g->D * sizeof *v);
            CHECK(posenc_rope_apply_f64(g->pos, g->D, base, POSENC_LAYOUT_INTERLEAVED,
                                        POSENC_INVERSE, q) == POSENC_OK);
            if (g->kind == GRADE_ROPE)
                memmove(v, q, g->D * sizeof *v);
            if (g->kind == GRADE_DOT) {
                CHECK(posenc_rope_apply_f64(g->pos2, g->D, base, POSENC_LAYOUT_INTERLEAVED,
                                            POSENC_INVERSE, k) == POSENC_OK);
                v[0] = 0;
                for (uint32_t j = 0; j < g->D; j++)
                    v[0] += q[j] * k[j];
            }
        }
        for (size_t j = 0; j < grade_answer_len(g); j++) {
            char num[64];
            grade_format(v[j], num, sizeof num);
            len[t] += (size_t)snprintf(text[t] + len[t], cap - len[t], "%s%s", j ? " " : "", num);
        }
        len[t] += (size_t)snprintf(text[t] + len[t], cap - len[t], "\n");
    }
    grade_cases_free(&c);
    if (text[0] && text[1]) {
        write_file(tmp_answers, text[0]);
        write_file(tmp_answers_base, text[1]);
    }
    free(text[0]), free(text[1]), free(v);
    /* ROPE 2 -1 2 turned by -2: (a cos + b sin, -a sin + b cos) = (-cos 2 + 2 sin 2,
     * sin 2 + 2 cos 2) = (2.2347, 0.0770); by +2, the lesson's: (-cos 2 - 2 sin 2,
     * -sin 2 + 2 cos 2) = (-1.4024, -1.7416) */
    CHECK(each_allocation(inverse_under) > 5);
    unlink(tmp_answers);
    unlink(tmp_answers_base);
}

/* No descriptors left for the pipes: grade_run says so; and with its
 * standard input closed it still works (each in a child process, so the
 * limit and the closing stay there). */
TEST(no_descriptors)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit was, rl;
        char *argv[] = {"true", NULL};
        grade_run_result r;
        int ok = getrlimit(RLIMIT_NOFILE, &was) == 0;
        rl = was;
        rl.rlim_cur = 3; /* standard input, output, error and no more */
        ok = ok && setrlimit(RLIMIT_NOFILE, &rl) == 0 &&
             grade_run(argv, "PE 1 1\n", 7, 1000, 1024, &r) == 0 && errno == EMFILE;
        ok = setrlimit(RLIMIT_NOFILE, &was) == 0 && ok; /* (room for coverage data at exit) */
        exit(ok ? 0 : 1);
    }
    int status = -1;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    /* the whole grader with no descriptors for the pipes: "cannot run", status 2 */
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        struct rlimit was, rl;
        char *argv[] = {"grade", "--", "true", NULL};
        char *text = NULL, *text_out = NULL, want[200];
        size_t len = 0, len_out = 0;
        FILE *fe = open_memstream(&text, &len); /* (no descriptor) */
        FILE *fo = open_memstream(&text_out, &len_out);
        int ok = getrlimit(RLIMIT_NOFILE, &was) == 0 && fe && fo;
        rl = was;
        rl.rlim_cur = 3;
        ok = ok && setrlimit(RLIMIT_NOFILE, &rl) == 0 && cli_grade_main(3, argv, fo, fe) == 2;
        ok = setrlimit(RLIMIT_NOFILE, &was) == 0 && ok;
        if (fe)
            fclose(fe);
        if (fo)
            fclose(fo);
        snprintf(want, sizeof want, "posenc grade: cannot run 'true': %s\n", strerror(EMFILE));
        ok = ok && text && strcmp(text, want) == 0 && len_out == 0;
        exit(ok ? 0 : 1);
    }
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    /* posenc's own standard input closed: the program still gets its
     * commands on its standard input (no pipe lands on descriptor 0) */
    pid = fork();
    if (pid == 0) {
        char *argv[] = {"cat", NULL};
        grade_run_result r;
        close(0);
        int ok = grade_run(argv, "PE 1 1\n", 7, 5000, 1024, &r) == 1 && r.started && r.exited &&
                 r.status == 0 && strcmp(r.out, "PE 1 1\n") == 0;
        grade_run_free(&r);
        exit(ok ? 0 : 1);
    }
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* ---- grade_run: where the program runs, and its arguments ---- */

/* Runs argv with TMPDIR set to tmpdir (NULL: unset); its standard output in
 * out (at most n bytes, without the last newline). 1 when it ran and exited 0. */
static int run_in(const char *tmpdir, char *const argv[], char *out, size_t n)
{
    const char *was = getenv("TMPDIR");
    char keep[4096] = "";
    if (was)
        snprintf(keep, sizeof keep, "%s", was);
    if (tmpdir)
        setenv("TMPDIR", tmpdir, 1);
    else
        unsetenv("TMPDIR");
    grade_run_result r;
    int ok = grade_run(argv, "", 0, 5000, 8192, &r) == 1 && r.started && r.exited && r.status == 0;
    snprintf(out, n, "%s", ok ? r.out : "");
    out[strcspn(out, "\n")] = '\0';
    grade_run_free(&r);
    if (was)
        setenv("TMPDIR", keep, 1);
    else
        unsetenv("TMPDIR");
    return ok;
}

/* Whether path a and b are one directory; with parent, a's parent. */
static int same_dir(const char *a, const char *b, int parent)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", a);
    char *slash = strrchr(p, '/');
    if (parent && slash)
        *slash = '\0';
    struct stat x, y;
    return stat(p, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* "/posenc-grade-XXXXXX" ends path */
static int named_private(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && strncmp(s, "/posenc-grade-", 14) == 0 && strlen(s) == 20;
}

TEST(run_where)
{
    char cwd[4096], out[8192], want[8300];
    char *pwd[] = {"sh", "-c", "pwd -P", NULL};
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    /* a directory of its own under TMPDIR */
    CHECK(run_in("/tmp", pwd, out, sizeof out));
    CHECK(named_private(out) && same_dir(out, "/tmp", 1));
    /* TMPDIR unset, empty or too long (40 bytes or more): /tmp */
    CHECK(run_in(NULL, pwd, out, sizeof out) && named_private(out) && same_dir(out, "/tmp", 1));
    CHECK(run_in("", pwd, out, sizeof out) && named_private(out) && same_dir(out, "/tmp", 1));
    CHECK(run_in("/tmp/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", pwd, out, sizeof out) &&
          named_private(out) && same_dir(out, "/tmp", 1));
    /* no directory can be made there: it runs where we are */
    CHECK(run_in("/nonexistent-posenc", pwd, out, sizeof out) && same_dir(out, cwd, 0));
    /* the directory is gone after the run (what the program left in it too) */
    char *leave[] = {"sh", "-c", "pwd -P; mkdir sub; echo x > sub/f; chmod 000 .", NULL};
    CHECK(run_in("/tmp", leave, out, sizeof out));
    struct stat st;
    CHECK(named_private(out) && stat(out, &st) != 0 && errno == ENOENT);
    /* an argument naming a file by a relative path is made absolute; others,
     * absolute paths and the program's own bare name are not */
    char *echo[] = {"echo", "Makefile", "no-such-file", "/", "", NULL};
    CHECK(run_in("/tmp", echo, out, sizeof out));
    snprintf(want, sizeof want, "%s/Makefile no-such-file / ", cwd);
    CHECK(strcmp(out, want) == 0);
}

/* ---- grade_lines: which line of standard error/output answers which command ---- */

/* Reads err (as the run's standard error) against the input lines whose
 * cases are line_case[0..n_lines) (SIZE_MAX: a SET line), for 4 cases. */
static size_t read_err(const char *err, const size_t *line_case, size_t n_lines, grade_lines *L,
                       unsigned char *skip, int *set_refused)
{
    grade_run_result r;
    memset(&r, 0, sizeof r);
    memset(L, 0, sizeof *L);
    memset(skip, 0, 4);
    L->skip = skip;
    r.err = (char *)err;
    r.err_len = strlen(err);
    return grade_lines_read_err(&r, line_case, n_lines, L, set_refused);
}

TEST(lines_read_err)
{
    const size_t map[5] = {0, 1, SIZE_MAX, 2, 3};
    grade_lines L;
    unsigned char skip[4];
    int set = -1;
    /* nothing on standard error: every command owes a line */
    CHECK_EQ_INT(read_err("", map, 5, &L, skip, &set), 4);
    CHECK(set == 0 && L.missing[0] == '\0');
    /* one function left, named twice; the second without a newline at the end */
    CHECK_EQ_INT(read_err("prog: line 1: sinusoid() is not written yet\n"
                          "line 2: sinusoid() is not written yet",
                          map, 5, &L, skip, &set),
                 2);
    CHECK(strcmp(L.missing, "sinusoid") == 0 && skip[0] && skip[1] && !skip[2] && !skip[3]);
    CHECK(set == 0);
    /* two functions, in the order named; line 3 is the SET line: refused */
    CHECK_EQ_INT(read_err("line 4:rotate() is not written yet\nline 5: dot() is not written yet\n"
                          "line 1: sinusoid() is not written yet\n",
                          map, 5, &L, skip, &set),
                 1);
    CHECK(strcmp(L.missing, "rotate,dot,sinusoid") == 0 && skip[2] && skip[3] && skip[0]);
    /* names that are not C names, empty or too long are not listed, but skipped */
    CHECK_EQ_INT(read_err("line 1: a-b() is not written yet\nline 2: () is not written yet\n"
                          "line 4: abcdefghijabcdefghijabcdefghijabcdefghij() is not written yet\n",
                          map, 5, &L, skip, &set),
                 1);
    CHECK(L.missing[0] == '\0' && skip[0] && skip[1] && skip[2] && !skip[3]);
    /* a line number out of range, 0, or not a number: nothing skipped */
    CHECK_EQ_INT(read_err("line 6: pe() is not written yet\nline 0: pe() is not written yet\n"
                          "line x: pe() is not written yet\nline 99999999999999999999999: "
                          "pe() is not written yet\npe() is not written yet\n",
                          map, 5, &L, skip, &set),
                 4);
    CHECK(set == 0 && L.missing[0] == '\0');
    /* a message on the SET line (line 3), or naming SET: refused */
    read_err("line 3: unknown command\n", map, 5, &L, skip, &set);
    CHECK(set == 1);
    read_err("SET base is not supported\n", map, 5, &L, skip, &set);
    CHECK(set == 1);
    read_err("no SET", map, 5, &L, skip, &set);
    CHECK(set == 1);
    read_err("cannot (SET) that\n", map, 5, &L, skip, &set);
    CHECK(set == 1);
    /* the word inside others (RESET, OFFSET, SETTING) is not SET */
    read_err("RESET OFFSET SETTING\nline 2: warning\n", map, 5, &L, skip, &set);
    CHECK(set == 0);
    /* "not written yet" on the SET line itself: SET refused, nothing skipped */
    CHECK_EQ_INT(read_err("line 3: base() is not written yet\n", map, 5, &L, skip, &set), 4);
    CHECK(set == 1 && L.missing[0] == '\0');
    /* the list of names stops before it overflows (128 bytes) */
    static const size_t one[1] = {0};
    char err[2048] = "";
    for (int i = 0; i < 6; i++) {
        char line[100];
        snprintf(line, sizeof line, "line 1: f%d_abcdefghijabcdefghijabcdefgh() is not written yet\n",
                 i);
        strcat(err, line);
    }
    read_err(err, one, 1, &L, skip, &set);
    /* names of 32 bytes: three fit with their commas (98 bytes), a fourth would
     * need 131 > 127 */
    CHECK(strcmp(L.missing, "f0_abcdefghijabcdefghijabcdefgh,f1_abcdefghijabcdefghijabcdefgh,"
                            "f2_abcdefghijabcdefghijabcdefgh") == 0);
}

TEST(lines_take_out)
{
    const size_t map[5] = {0, SIZE_MAX, 1, 2, 3};
    const char *at[4];
    size_t len[4];
    unsigned char skip[4] = {0, 0, 1, 0};
    grade_lines L;
    memset(&L, 0, sizeof L);
    L.at = at;
    L.len = len;
    L.skip = skip;
    for (int i = 0; i < 4; i++)
        at[i] = NULL, len[i] = 99;
    grade_run_result r;
    memset(&r, 0, sizeof r);
    char out[] = "1 2\n3 4";
    r.out = out;
    r.out_len = strlen(out);
    grade_lines_take_out(&r, map, 5, &L);
    /* the SET line and the skipped case take no line; the last line has no
     * newline; a case beyond the output gets an empty line at its end */
    CHECK(at[0] == out && len[0] == 3);
    CHECK(at[1] == out + 4 && len[1] == 3);
    CHECK(at[2] == NULL && len[2] == 99);
    CHECK(at[3] == out + 7 && len[3] == 0);
}

int main(void)
{
    RUN(parse_good);
    RUN(parse_refusals);
    RUN(default_cases);
    RUN(answers_are_the_lesson_traces);
    RUN(format_close_read);
    RUN(mistakes_named);
    RUN(new_slips_named);
    RUN(localize_plain_words);
    RUN(localize_more);
    RUN(mistakes_more);
    RUN(search_work_cap);
    RUN(out_of_memory);
    RUN(whole_grader);
    RUN(whole_grader_generated);
    RUN(no_descriptors);
    RUN(run_where);
    RUN(lines_read_err);
    RUN(lines_take_out);
    return check_summary("grade");
}
