/* grade_run.c - runs the learner's program for `posenc grade`: fork and
 * exec, three pipes, poll with a deadline, a cap on what it may print, and
 * the whole process group killed when it runs over. */
#include "grade.h"

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

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static int set_flags(int fd, int cloexec, int nonblock)
{
    if (cloexec && fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
        return 0;
    int fl = fcntl(fd, F_GETFL);
    return !nonblock || (fl >= 0 && fcntl(fd, F_SETFL, fl | O_NONBLOCK) >= 0);
}

/* Appends n bytes to *buf (capacity *cap), or keeps its last `keep` bytes
 * when keep is nonzero. 0 when out of memory. */
static int append(char **buf, size_t *len, size_t *cap, const char *s, size_t n, size_t keep)
{
    if (keep && *len + n > keep) {
        if (n >= keep) {
            s += n - keep;
            n = keep;
            *len = 0;
        } else {
            size_t drop = *len + n - keep;
            memmove(*buf, *buf + drop, *len - drop);
            *len -= drop;
        }
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

/* The child: its pipes on 0, 1, 2, default SIGPIPE, then the program; on
 * failure errno goes back through report. */
static void child(char *const argv[], int in, int out, int err, int report)
{
    setpgid(0, 0);
    signal(SIGPIPE, SIG_DFL);
    if (dup2(in, 0) >= 0 && dup2(out, 1) >= 0 && dup2(err, 2) >= 0) {
        close(in);
        close(out);
        close(err);
        execvp(argv[0], argv);
    }
    int e = errno;
    ssize_t w = write(report, &e, sizeof e);
    (void)w;
    _exit(127);
}

int grade_run(char *const argv[], const char *in, size_t in_len, int timeout_ms, size_t max_out,
              grade_run_result *r)
{
    memset(r, 0, sizeof *r);
    int p_in[2] = {-1, -1}, p_out[2] = {-1, -1}, p_err[2] = {-1, -1}, p_ex[2] = {-1, -1};
    if (pipe(p_in) < 0 || pipe(p_out) < 0 || pipe(p_err) < 0 || pipe(p_ex) < 0 ||
        !set_flags(p_in[1], 1, 1) || !set_flags(p_out[0], 1, 1) || !set_flags(p_err[0], 1, 1) ||
        !set_flags(p_ex[0], 1, 0) || !set_flags(p_ex[1], 1, 0)) {
        int e = errno;
        for (int i = 0; i < 2; i++) {
            close_fd(&p_in[i]);
            close_fd(&p_out[i]);
            close_fd(&p_err[i]);
            close_fd(&p_ex[i]);
        }
        errno = e;
        return 0;
    }
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old);
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid == 0)
        child(argv, p_in[0], p_out[1], p_err[1], p_ex[1]);
    int fork_errno = errno;
    close_fd(&p_in[0]);
    close_fd(&p_out[1]);
    close_fd(&p_err[1]);
    close_fd(&p_ex[1]);
    if (pid < 0) {
        close_fd(&p_in[1]);
        close_fd(&p_out[0]);
        close_fd(&p_err[0]);
        close_fd(&p_ex[0]);
        sigaction(SIGPIPE, &old, NULL);
        errno = fork_errno;
        return 0;
    }
    setpgid(pid, pid); /* also here, so the group exists before any kill */
    int e = 0;
    ssize_t got;
    do
        got = read(p_ex[0], &e, sizeof e);
    while (got < 0 && errno == EINTR);
    close_fd(&p_ex[0]);
    if (got == (ssize_t)sizeof e) { /* exec failed */
        r->exec_errno = e;
        close_fd(&p_in[1]);
        close_fd(&p_out[0]);
        close_fd(&p_err[0]);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        sigaction(SIGPIPE, &old, NULL);
        return 1;
    }
    r->started = 1;

    long long deadline = now_ms() + timeout_ms;
    size_t sent = 0, out_cap = 0, err_cap = 0;
    int status = 0, reaped = 0;
    char buf[65536];
    if (in_len == 0)
        close_fd(&p_in[1]);
    while (p_out[0] >= 0 || p_err[0] >= 0) {
        long long left = deadline - now_ms();
        if (left <= 0) {
            r->timed_out = 1;
            break;
        }
        struct pollfd fds[3];
        int nf = 0, i_in = -1, i_out = -1, i_err = -1;
        if (p_in[1] >= 0)
            i_in = nf, fds[nf++] = (struct pollfd){p_in[1], POLLOUT, 0};
        if (p_out[0] >= 0)
            i_out = nf, fds[nf++] = (struct pollfd){p_out[0], POLLIN, 0};
        if (p_err[0] >= 0)
            i_err = nf, fds[nf++] = (struct pollfd){p_err[0], POLLIN, 0};
        int k = poll(fds, (nfds_t)nf, (int)(left > 1000 ? 1000 : left));
        if (k < 0 && errno != EINTR)
            break;
        if (k <= 0)
            continue;
        if (i_in >= 0 && fds[i_in].revents) {
            ssize_t w = write(p_in[1], in + sent, in_len - sent);
            if (w > 0)
                sent += (size_t)w;
            if ((w < 0 && errno != EAGAIN && errno != EINTR) || sent == in_len)
                close_fd(&p_in[1]); /* all sent, or it stopped reading (EPIPE) */
        }
        for (int which = 0; which < 2; which++) {
            int idx = which ? i_err : i_out, *fd = which ? &p_err[0] : &p_out[0];
            if (idx < 0 || !fds[idx].revents)
                continue;
            ssize_t n = read(*fd, buf, sizeof buf);
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
                close_fd(fd);
            } else if (n > 0 && which) {
                append(&r->err, &r->err_len, &err_cap, buf, (size_t)n, GRADE_ERR_KEEP);
            } else if (n > 0) {
                if (r->out_len + (size_t)n > max_out ||
                    !append(&r->out, &r->out_len, &out_cap, buf, (size_t)n, 0)) {
                    r->too_much = 1;
                    break;
                }
            }
        }
        if (r->too_much)
            break;
    }
    close_fd(&p_in[1]);
    /* Both pipes ended (or the run is over): wait for the exit, still
     * within the deadline. */
    while (!r->timed_out && !r->too_much) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) {
            reaped = 1;
            break;
        }
        if (w < 0 && errno != EINTR)
            break;
        if (now_ms() >= deadline)
            r->timed_out = 1;
        else
            poll(NULL, 0, 5);
    }
    if (!reaped) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    }
    close_fd(&p_out[0]);
    close_fd(&p_err[0]);
    sigaction(SIGPIPE, &old, NULL);
    if (!r->timed_out && !r->too_much) {
        if (WIFEXITED(status)) {
            r->exited = 1;
            r->status = WEXITSTATUS(status);
        } else if (WIFSIGNALED(status)) {
            r->signo = WTERMSIG(status);
        }
    }
    if (!r->out && !append(&r->out, &r->out_len, &out_cap, "", 0, 0))
        r->too_much = 1;
    return 1;
}

void grade_run_free(grade_run_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}
