/* OCI hooks: each runs with the container's state on stdin, in order; a
 * failure (non-zero exit, signal, timeout) stops the sequence. */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "lib/util.h"
#include "runtime/container.h"

static int run_one(const struct oci_hook *h, const char *what, const char *state, struct uerr *e)
{
	int pipefd[2], status, pidfd;
	pid_t pid;
	char *const empty[] = { NULL };
	char *const argv0[] = { h->path, NULL };

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return uerr_sys(e, "%s: pipe", what);
	pid = fork();
	if (pid < 0)
		return uerr_sys(e, "%s: fork", what);
	if (pid == 0) {
		dup2(pipefd[0], 0);
		/* The hook's stdout is not the container's: runc sends it to our stderr? keep ours. */
		execve(h->path, h->args ? h->args : argv0, h->env ? h->env : empty);
		_exit(127);
	}
	close(pipefd[0]);
	signal(SIGPIPE, SIG_IGN);
	write_all(pipefd[1], state, strlen(state));
	close(pipefd[1]);
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (h->timeout.set && pidfd >= 0) {
		struct pollfd p = { .fd = pidfd, .events = POLLIN };
		if (poll(&p, 1, (int)(h->timeout.v * 1000)) == 0) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			close(pidfd);
			return uerr_set(e, ETIMEDOUT, "%s: %s timed out after %llds", what, h->path,
					(long long)h->timeout.v);
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return uerr_sys(e, "%s: waiting for %s", what, h->path);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && access(h->path, X_OK) < 0)
		return uerr_sys(e, "%s: %s", what, h->path);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFSIGNALED(status))
		return uerr_set(e, ECANCELED, "%s: %s killed by signal %d", what, h->path, WTERMSIG(status));
	return uerr_set(e, ECANCELED, "%s: %s exited with status %d", what, h->path, WEXITSTATUS(status));
}

int hooks_run(const struct oci_hooks *h, enum hook_kind kind, const char *state_json, struct uerr *e)
{
	char what[64];
	int r;

	for (size_t i = 0; i < h->n[kind]; i++) {
		snprintf(what, sizeof(what), "hooks.%s[%zu]", hook_kind_names[kind], i);
		if ((r = run_one(&h->list[kind][i], what, state_json, e)) < 0)
			return r;
	}
	return 0;
}
