/* grade_run.c - runs the learner's program for `posenc grade`: fork and
 * exec, three pipes, poll with a deadline, a cap on what it may print, and
 * the program contained: a session of its own, limits on CPU time, memory,
 * processes and file size (setrlimit in the child), a private working
 * directory (mkdtemp, removed after), and every descendant killed when the
 * run ends, on every path: the session's group, and on Linux, as a child
 * subreaper (PR_SET_CHILD_SUBREAPER), every orphan that left the group
 * (setsid) found through /proc/self/task/T/children. */
#define _GNU_SOURCE 1 /* nftw's FTW_DEPTH, dirent */
#include "grade.h"

#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Closes the descriptors fd[0..n) that are open (-1: closed). */
static void close_fds(int *fd, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (fd[i] >= 0)
            close(fd[i]);
        fd[i] = -1;
    }
}

/* Appends n bytes to *buf (capacity *cap), keeping only its last `keep`
 * bytes when keep is nonzero. 0 when out of memory. */
static int append(char **buf, size_t *len, size_t *cap, const char *s, size_t n, size_t keep)
{
    if (keep && *len + n > keep) { /* drop the oldest bytes: new ones past keep, then old */
        size_t skip = n > keep ? n - keep : 0, drop = *len + n - skip - keep;
        if (drop < *len) /* (else nothing stays, and *buf may be NULL yet) */
            memmove(*buf, *buf + drop, *len - drop);
        *len -= drop;
        s += skip;
        n -= skip;
    }
    if (*len + n + 1 > *cap) {
        size_t c = *cap ? *cap : 4096;
        while (c < *len + n + 1)
            c *= 2;
        char *p = realloc(*buf, c);
        if (!p)
            return 0;
        *buf = p;
        *cap = c;
    }
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[*len] = '\0';
    return 1;
}

/* The pipes, by role: fd[IN_R], fd[IN_W] the program's standard input ... */
enum { IN_R, IN_W, OUT_R, OUT_W, ERR_R, ERR_W, EX_R, EX_W, N_FD };

/* The pipes into fd, their ends closing on exec (the child's copies on 0,
 * 1, 2 are new descriptors, which do not: a program that closes its
 * standard output really closes it), ours non-blocking. 0 when they cannot
 * all be made. */
static int open_pipes(int fd[N_FD])
{
    /* Descriptors 0, 1 and 2 open (on /dev/null if they were closed), so that
     * no pipe lands there and the child's dup2 cannot clobber one. */
    int null = open("/dev/null", O_RDWR);
    while (null >= 0 && null <= 2)
        null = open("/dev/null", O_RDWR);
    if (null > 2)
        close(null);
    int made = 1;
    for (int i = 0; i < N_FD; i += 2)
        made = made && pipe(fd + i) == 0;
    for (int i = 0; made && i < N_FD; i++) {
        int fl = fcntl(fd[i], F_GETFL), ours = i == IN_W || i == OUT_R || i == ERR_R;
        made = fcntl(fd[i], F_SETFD, FD_CLOEXEC) == 0 &&
               (!ours || fcntl(fd[i], F_SETFL, fl | O_NONBLOCK) == 0);
    }
    return made;
}

/* Feeds in[0..in_len) to the program and reads its output and standard
 * error until both end, the deadline passes, it prints more than max_out
 * bytes, or memory runs out (r says which). */
static void pump(int fd[N_FD], const char *in, size_t in_len, long long deadline, size_t max_out,
                 grade_run_result *r, size_t *out_cap_p, pid_t pid, int *status, int *reaped)
{
    size_t sent = 0, out_cap = *out_cap_p, err_cap = 0;
    char buf[65536];
    while (fd[OUT_R] >= 0 || fd[ERR_R] >= 0) {
        /* Once the program has exited, what a child of it keeps open is
         * read for a moment more, not waited on. */
        if (!*reaped && waitpid(pid, status, WNOHANG) == pid) {
            *reaped = 1;
            long long grace = now_ms() + 300;
            if (grace < deadline)
                deadline = grace;
        }
        long long left = deadline - now_ms();
        if (left <= 0 && *reaped)
            break;
        if (left <= 0) {
            r->timed_out = 1;
            break;
        }
        struct pollfd p[3] = {{fd[IN_W], POLLOUT, 0}, {fd[OUT_R], POLLIN, 0}, {fd[ERR_R], POLLIN, 0}};
        if (poll(p, 3, (int)(left > 50 ? 50 : left)) <= 0)
            continue; /* a signal, or a second more */
        if (p[0].revents) {
            ssize_t w = write(fd[IN_W], in + sent, in_len - sent);
            sent += w > 0 ? (size_t)w : 0;
            if ((w < 0 && errno != EAGAIN && errno != EINTR) || sent == in_len)
                close_fds(&fd[IN_W], 1); /* all sent, or it stopped reading (EPIPE) */
        }
        for (int k = 1; k <= 2; k++) {
            if (!p[k].revents)
                continue;
            int *f = &fd[k == 1 ? OUT_R : ERR_R];
            ssize_t n = read(*f, buf, sizeof buf);
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
                close_fds(f, 1);
            else if (n > 0 && k == 2)
                r->oom |= !append(&r->err, &r->err_len, &err_cap, buf, (size_t)n, GRADE_ERR_KEEP);
            else if (n > 0 && r->out_len + (size_t)n > max_out)
                r->too_much = 1;
            else if (n > 0)
                r->oom |= !append(&r->out, &r->out_len, &out_cap, buf, (size_t)n, 0);
        }
        if (r->too_much || r->oom)
            break;
    }
    *out_cap_p = out_cap;
}

/* The limits of the program (in the child, before exec): CPU seconds a
 * little over the time limit, GRADE_MAX_MEMORY of address space, nproc
 * processes of the user, GRADE_MAX_FILE bytes a file may grow to, no core. */
static void limit_child(int timeout_ms, long nproc)
{
    struct rlimit l;
    l.rlim_cur = l.rlim_max = (rlim_t)(timeout_ms / 1000 + 2);
    setrlimit(RLIMIT_CPU, &l);
    l.rlim_cur = l.rlim_max = (rlim_t)GRADE_MAX_MEMORY;
    setrlimit(RLIMIT_AS, &l);
    l.rlim_cur = l.rlim_max = (rlim_t)GRADE_MAX_FILE;
    setrlimit(RLIMIT_FSIZE, &l);
    l.rlim_cur = l.rlim_max = 0;
    setrlimit(RLIMIT_CORE, &l);
#if defined(RLIMIT_NPROC)
    if (nproc > 0) {
        l.rlim_cur = l.rlim_max = (rlim_t)nproc;
        setrlimit(RLIMIT_NPROC, &l);
    }
#else
    (void)nproc;
#endif
}

/* How many processes run now (the machine's, /proc/loadavg's total): the
 * user's are among them, so this plus GRADE_MAX_PROCS lets the program
 * start that many. 0 when unknown (no limit then). */
static long process_count(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    long running = 0, total = 0;
    double a, b, c;
    if (!f)
        return 0;
    if (fscanf(f, "%lf %lf %lf %ld/%ld", &a, &b, &c, &running, &total) != 5)
        total = 0;
    fclose(f);
    return total;
}

static void free_args(char **args)
{
    if (!args)
        return;
    for (size_t i = 0; args[i]; i++)
        free(args[i]);
    free(args);
}

/* argv with each word that names an existing file by a relative path made
 * absolute (the program runs in a directory of its own), or NULL. */
static char **absolute_args(char *const argv[])
{
    size_t n = 0;
    while (argv[n])
        n++;
    char **a = calloc(n + 1, sizeof *a);
    char cwd[PATH_MAX];
    if (!a || !getcwd(cwd, sizeof cwd)) {
        free(a);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        int rel = argv[i][0] != '/' && argv[i][0] != '\0' && stat(argv[i], &st) == 0 &&
                  (i > 0 || strchr(argv[i], '/'));
        size_t len = strlen(cwd) + strlen(argv[i]) + 2;
        a[i] = malloc(len);
        if (!a[i]) {
            free_args(a);
            return NULL;
        }
        if (rel)
            snprintf(a[i], len, "%s/%s", cwd, argv[i]);
        else
            snprintf(a[i], len, "%s", argv[i]);
    }
    return a;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

/* Removes the private directory and what the program left in it. */
static void remove_dir(const char *dir)
{
    if (dir[0]) {
        chmod(dir, 0700);
        nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    }
}

#define MAX_KNOWN 256 /* children of ours from before the run, left alone */

/* Our children now (up to max) from /proc/self/task/T/children; 0 where
 * there is no /proc. */
static size_t children(long *pid, size_t max)
{
    size_t n = 0;
#if defined(__linux__)
    DIR *d = opendir("/proc/self/task");
    struct dirent *t;
    while (d && (t = readdir(d)) != NULL) {
        if (t->d_name[0] == '.')
            continue;
        char path[64];
        snprintf(path, sizeof path, "/proc/self/task/%.20s/children", t->d_name);
        FILE *f = fopen(path, "r");
        long child;
        while (f && n < max && fscanf(f, "%ld", &child) == 1)
            pid[n++] = child;
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
#else
    (void)pid, (void)max;
#endif
    return n;
}

/* Kills and reaps every child of ours that was not one before the run
 * (known[0..n_known)): what the program left behind came to us as an
 * orphan (we are a subreaper), whatever group or session it moved to; its
 * own children come to us when it dies, so round after round. */
static void kill_orphans(const long *known, size_t n_known)
{
    long now[MAX_KNOWN];
    for (int round = 0; round < 400; round++) {
        size_t n = children(now, MAX_KNOWN), killed = 0;
        for (size_t i = 0; i < n; i++) {
            int old = 0;
            for (size_t j = 0; j < n_known && !old; j++)
                old = known[j] == now[i];
            if (old)
                continue;
            kill((pid_t)now[i], SIGKILL);
            now[killed++] = now[i];
        }
        for (size_t i = 0; i < killed; i++) {
            int st;
            while (waitpid((pid_t)now[i], &st, 0) < 0 && errno == EINTR)
                ;
        }
        if (killed == 0)
            break;
    }
}

int grade_run(char *const argv[], const char *in, size_t in_len, int timeout_ms, size_t max_out,
              grade_run_result *r)
{
    memset(r, 0, sizeof *r);
#if defined(__linux__)
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); /* orphans of the program come to us */
#endif
    char dir[64] = "";
    const char *tmpdir = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/posenc-grade-XXXXXX",
             tmpdir && *tmpdir && strlen(tmpdir) < 40 ? tmpdir : "/tmp");
    if (!mkdtemp(dir))
        dir[0] = '\0'; /* then it runs where we are */
    char **args = absolute_args(argv);
    if (args)
        argv = args;
    long nproc = process_count() + GRADE_MAX_PROCS, known[MAX_KNOWN];
    size_t n_known = children(known, MAX_KNOWN);
    int fd[N_FD] = {-1, -1, -1, -1, -1, -1, -1, -1}, made = open_pipes(fd);
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = made ? fork() : -1;
    if (pid == 0) { /* the program: pipes on 0, 1, 2, SIGPIPE as usual */
        setsid(); /* a session and group of its own, id = pid */
        signal(SIGPIPE, SIG_DFL);
        limit_child(timeout_ms, nproc);
        if (dir[0] && chdir(dir) != 0)
            _exit(126);
        if (dup2(fd[IN_R], 0) >= 0 && dup2(fd[OUT_W], 1) >= 0 && dup2(fd[ERR_W], 2) >= 0)
            execvp(argv[0], argv);
        int e = errno; /* report why through the pipe exec would have closed */
        _exit(write(fd[EX_W], &e, sizeof e) == (ssize_t)sizeof e ? 127 : 126);
    }
    int saved = errno;
    int theirs[] = {fd[IN_R], fd[OUT_W], fd[ERR_W], fd[EX_W]};
    close_fds(theirs, 4);
    fd[IN_R] = fd[OUT_W] = fd[ERR_W] = fd[EX_W] = -1;
    if (pid < 0) {
        close_fds(fd, N_FD);
        remove_dir(dir);
        free_args(args);
        errno = saved;
        return 0;
    }
    sigaction(SIGPIPE, &ign, &old); /* a program that stops reading is no danger */
    int e = 0, status = 0, reaped = 0;
    ssize_t got;
    while ((got = read(fd[EX_R], &e, sizeof e)) < 0 && errno == EINTR)
        ;
    r->started = got != (ssize_t)sizeof e;
    r->exec_errno = r->started ? 0 : e;
    if (!r->started)
        close_fds(fd, N_FD); /* exec failed: nothing to read */

    long long deadline = now_ms() + timeout_ms;
    size_t out_cap = 0;
    pump(fd, in, in_len, deadline, max_out, r, &out_cap, pid, &status, &reaped);
    close_fds(fd, N_FD);
    /* Both pipes ended (or it exited): wait for the exit, within the deadline. */
    while (!r->timed_out && !r->too_much && !r->oom && !reaped) {
        reaped = waitpid(pid, &status, WNOHANG) == pid;
        if (!reaped && now_ms() >= deadline)
            r->timed_out = 1;
        else if (!reaped)
            poll(NULL, 0, 5);
    }
    if (!reaped) { /* over time or output: the whole group goes */
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    }
    kill(-pid, SIGKILL); /* whatever it left in its group, on every path */
    kill_orphans(known, n_known);
    remove_dir(dir);
    free_args(args);
    sigaction(SIGPIPE, &old, NULL);
    r->exited = reaped && WIFEXITED(status);
    r->status = r->exited ? WEXITSTATUS(status) : 0;
    r->signo = reaped && WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    if (!r->out)
        r->oom |= !append(&r->out, &r->out_len, &out_cap, "", 0, 0);
    return 1;
}

void grade_run_free(grade_run_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}
