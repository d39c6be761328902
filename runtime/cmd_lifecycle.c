/* create, start, run, delete, kill, pause, resume. */
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include "lib/util.h"
#include "runtime/commands.h"
#include "runtime/launch.h"
#include "runtime/log.h"
#include "runtime/process.h"

static int parse_create_opts(const char *cmd, int argc, char **argv, struct launch_opts *o, bool run)
{
	static const struct option opts[] = {
		{ "bundle", required_argument, NULL, 'b' },
		{ "pid-file", required_argument, NULL, 'p' },
		{ "console-socket", required_argument, NULL, 'c' },
		{ "no-pivot", no_argument, NULL, 'P' },
		{ "no-new-keyring", no_argument, NULL, 'K' },
		{ "preserve-fds", required_argument, NULL, 'F' },
		{ "detach", no_argument, NULL, 'd' },
		{ "keep", no_argument, NULL, 'k' },
		{ "no-subreaper", no_argument, NULL, 'S' },
		{ 0 }
	};
	uint64_t n;
	int c;

	while ((c = getopt_long(argc, argv, run ? "+b:d" : "+b:", opts, NULL)) != -1) {
		switch (c) {
		case 'b': o->bundle = optarg; break;
		case 'p': o->pid_file = optarg; break;
		case 'c': o->console_socket = optarg; break;
		case 'P': o->no_pivot = true; break;
		case 'K': o->no_new_keyring = true; break;
		case 'F':
			if (parse_u64(optarg, &n) < 0 || n > 65536)
				return fail("%s: --preserve-fds: \"%s\" is not a number of fds", cmd, optarg);
			o->preserve_fds = (int)n;
			break;
		case 'd':
			if (!run)
				goto bad;
			o->detach = true;
			break;
		case 'k': case 'S': break;
		default:
		bad:
			return fail("%s: unknown option (see unirun %s --help)", cmd, cmd);
		}
	}
	if (need_id(cmd, argc, argv, optind, &o->id))
		return 1;
	o->root = G.root;
	if (!o->bundle)
		o->bundle = ".";
	return 0;
}

int cmd_create(int argc, char **argv)
{
	struct launch_opts o = { .detach = true };
	struct launch l = { .o = &o };
	struct uerr e = { 0 };
	int r;

	if (parse_create_opts("create", argc, argv, &o, false))
		return 1;
	proc_cloexec_from(3 + o.preserve_fds);
	r = launch_create(&l, &e);
	if (r < 0) {
		launch_cleanup(&l);
		fail("create %s: %s", o.id, e.msg);
	}
	launch_free(&l);
	return r < 0 ? 1 : 0;
}

/* Release the init blocked on exec.fifo and wait for its byte (or its death). */
static int release_init(struct container *c, pid_t pid, struct uerr *e)
{
	_cleanup_free_ char *fifo = xasprintf("%s/exec.fifo", c->dir);
	_cleanup_close_ int fd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	_cleanup_close_ int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	char byte;

	if (fd < 0)
		return uerr_sys(e, "opening %s", fifo);
	for (;;) {
		struct pollfd p[2] = { { .fd = fd, .events = POLLIN }, { .fd = pidfd, .events = POLLIN } };
		if (poll(p, pidfd >= 0 ? 2 : 1, -1) < 0 && errno != EINTR)
			return uerr_sys(e, "poll");
		ssize_t n = read(fd, &byte, 1);
		if (n == 1)
			break;
		if (n < 0 && errno != EAGAIN)
			return uerr_sys(e, "reading %s", fifo);
		if (p[1].revents & POLLIN)
			return uerr_set(e, ESRCH, "the container's init exited before it could start");
	}
	unlink(fifo);
	return 0;
}

int container_start(struct container *c, struct uerr *e)
{
	struct oci_config *cfg = NULL;
	pid_t pid;
	enum cstatus s = container_status(c, &pid);
	int r;

	if (s != ST_CREATED)
		return uerr_set(e, EINVAL, "container \"%s\" is %s, not created", c->st ? c->st->id : "?",
				status_names[s]);
	if ((r = release_init(c, pid, e)) < 0)
		return r;
	if (c->st->poststart && (r = container_config(c, &cfg, e)) < 0)
		return r;
	if (cfg && cfg->hooks.n[HOOK_POSTSTART]) {
		_cleanup_free_ char *json = container_state_json(c, "running", pid);
		if ((r = hooks_run(&cfg->hooks, HOOK_POSTSTART, json, e)) < 0) {
			struct uerr ignored;
			/* The spec: a failing poststart hook stops the container. */
			cg_kill(c->st->cgroup, &ignored);
		}
	}
	config_free(cfg);
	return r;
}

int cmd_start(int argc, char **argv)
{
	struct container c;
	struct uerr e = { 0 };
	const char *id;
	int r;

	if (getopt_long(argc, argv, "+", (struct option[]){ { 0 } }, NULL) != -1)
		return fail("start: unknown option");
	if (need_id("start", argc, argv, optind, &id))
		return 1;
	if (container_open(G.root, id, &c, &e) < 0)
		return fail("start: %s", e.msg);
	r = container_start(&c, &e);
	container_close(&c);
	return r < 0 ? fail("start %s: %s", id, e.msg) : 0;
}

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH, SIGCONT };

static void copy_fd(int from, int to)
{
	char buf[4096];
	ssize_t n = read(from, buf, sizeof(buf));

	if (n > 0)
		write_all(to, buf, (size_t)n);
}

/* A foreground process (run, exec): forward signals, relay a terminal,
 * reap, and return its status the shell way (128+signal when killed). */
int wait_process(pid_t pid, int console_master)
{
	sigset_t set;
	int sfd, status = 0, pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	struct termios saved;
	bool raw = false;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaddset(&set, forwarded[i]);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	sfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (console_master >= 0 && isatty(0) && tcgetattr(0, &saved) == 0) {
		struct termios t = saved;
		cfmakeraw(&t);
		raw = tcsetattr(0, TCSANOW, &t) == 0;
	}
	for (;;) {
		struct pollfd p[3] = { { .fd = sfd, .events = POLLIN }, { .fd = console_master, .events = POLLIN },
				       { .fd = console_master >= 0 ? 0 : -1, .events = POLLIN } };
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		if (poll(p, 3, pidfd >= 0 ? -1 : 100) < 0 && errno != EINTR)
			break;
		if (p[0].revents & POLLIN) {
			struct signalfd_siginfo si;
			if (read(sfd, &si, sizeof(si)) == sizeof(si) && si.ssi_signo != SIGCHLD)
				kill(pid, (int)si.ssi_signo);
		}
		if (p[1].revents & POLLIN)
			copy_fd(console_master, 1);
		else if (p[1].revents & (POLLHUP | POLLERR))
			console_master = -1;
		if (p[2].revents & POLLIN)
			copy_fd(0, console_master);
		else if (p[2].revents & (POLLHUP | POLLERR))
			p[2].fd = -1;
	}
	if (raw)
		tcsetattr(0, TCSANOW, &saved);
	if (pidfd >= 0)
		close(pidfd);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

int cmd_run(int argc, char **argv)
{
	struct launch_opts o = { 0 };
	struct launch l = { .o = &o };
	struct uerr e = { 0 };
	int r, code;

	if (parse_create_opts("run", argc, argv, &o, true))
		return 1;
	proc_cloexec_from(3 + o.preserve_fds);
	/* A pid namespace's init may be our grandchild: it must come back to us. */
	if (!o.detach)
		prctl(PR_SET_CHILD_SUBREAPER, 1);
	r = launch_create(&l, &e);
	if (r == 0)
		r = container_start(&l.ct, &e);
	if (r < 0) {
		launch_cleanup(&l);
		fail("run %s: %s", o.id, e.msg);
	}
	if (r < 0 || o.detach) {
		launch_free(&l);
		return r < 0 ? 1 : 0;
	}
	/* Others (kill, exec, state) need the lock while we wait. */
	flock(l.ct.dirfd, LOCK_UN);
	code = wait_process(l.pid, l.console_master);
	flock(l.ct.dirfd, LOCK_EX);
	if (container_destroy(&l.ct, &e) < 0)
		log_warn("run %s: %s", o.id, e.msg);
	launch_free(&l);
	return code;
}

int cmd_delete(int argc, char **argv)
{
	static const struct option opts[] = { { "force", no_argument, NULL, 'f' }, { 0 } };
	struct container c;
	struct uerr e = { 0 };
	bool force = false;
	const char *id;
	pid_t pid;
	int opt, r;

	while ((opt = getopt_long(argc, argv, "+f", opts, NULL)) != -1) {
		if (opt != 'f')
			return fail("delete: unknown option (see unirun delete --help)");
		force = true;
	}
	if (need_id("delete", argc, argv, optind, &id))
		return 1;
	if (container_open(G.root, id, &c, &e) < 0) {
		if (force && e.code == ENOENT)
			return 0;
		return fail("delete: %s", e.msg);
	}
	enum cstatus s = container_status(&c, &pid);
	if (!force && (s == ST_RUNNING || s == ST_PAUSED)) {
		container_close(&c);
		return fail("delete: container \"%s\" is %s: stop it first or use --force", id, status_names[s]);
	}
	if (s == ST_CREATING && !force) {
		container_close(&c);
		return fail("delete: container \"%s\" is still being created", id);
	}
	r = container_destroy(&c, &e);
	container_close(&c);
	return r < 0 ? fail("delete %s: %s", id, e.msg) : 0;
}

static int parse_signal(const char *s)
{
	static const struct {
		const char *name;
		int sig;
	} names[] = {
		{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT }, { "ILL", SIGILL },
		{ "TRAP", SIGTRAP }, { "ABRT", SIGABRT }, { "IOT", SIGIOT }, { "BUS", SIGBUS },
		{ "FPE", SIGFPE }, { "KILL", SIGKILL }, { "USR1", SIGUSR1 }, { "SEGV", SIGSEGV },
		{ "USR2", SIGUSR2 }, { "PIPE", SIGPIPE }, { "ALRM", SIGALRM }, { "TERM", SIGTERM },
		{ "STKFLT", SIGSTKFLT }, { "CHLD", SIGCHLD }, { "CONT", SIGCONT }, { "STOP", SIGSTOP },
		{ "TSTP", SIGTSTP }, { "TTIN", SIGTTIN }, { "TTOU", SIGTTOU }, { "URG", SIGURG },
		{ "XCPU", SIGXCPU }, { "XFSZ", SIGXFSZ }, { "VTALRM", SIGVTALRM }, { "PROF", SIGPROF },
		{ "WINCH", SIGWINCH }, { "IO", SIGIO }, { "POLL", SIGPOLL }, { "PWR", SIGPWR },
		{ "SYS", SIGSYS },
	};
	uint64_t n;

	if (parse_u64(s, &n) == 0)
		return n >= 1 && n <= 64 ? (int)n : -1;
	if (!strncasecmp(s, "SIG", 3))
		s += 3;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(names[i].name, s))
			return names[i].sig;
	if (!strncasecmp(s, "RTMIN+", 6) && parse_u64(s + 6, &n) == 0 && SIGRTMIN + (int)n <= SIGRTMAX)
		return SIGRTMIN + (int)n;
	return -1;
}

int cmd_kill(int argc, char **argv)
{
	static const struct option opts[] = { { "all", no_argument, NULL, 'a' }, { 0 } };
	struct container c;
	struct uerr e = { 0 };
	bool all = false;
	const char *id;
	int opt, sig = SIGTERM, r = 0;
	pid_t pid;

	while ((opt = getopt_long(argc, argv, "+a", opts, NULL)) != -1) {
		if (opt != 'a')
			return fail("kill: unknown option (see unirun kill --help)");
		all = true;
	}
	if (argc - optind < 1)
		return fail("kill: a container id is required (see unirun kill --help)");
	id = argv[optind];
	if (argc - optind > 2)
		return fail("kill: too many arguments");
	if (argc - optind == 2 && (sig = parse_signal(argv[optind + 1])) < 0)
		return fail("kill: unknown signal \"%s\"", argv[optind + 1]);
	if (container_open(G.root, id, &c, &e) < 0)
		return fail("kill: %s", e.msg);
	enum cstatus s = container_status(&c, &pid);
	/* Like runc, --all still reaches whatever is left in the cgroup of a
	 * stopped container (a container without its own pid namespace may
	 * leave processes behind its init). The wording is what containerd's
	 * shim looks for. */
	if (s == ST_CREATING || (s == ST_STOPPED && !all)) {
		container_close(&c);
		return fail("kill: container \"%s\" is %s: container not running", id, status_names[s]);
	}
	/* Without a cgroup (rootless, not delegated) --all reaches the init,
	 * whose pid namespace takes the rest with it on SIGKILL. */
	bool whole = all && has_cgroup(c.st);
	if (whole && s == ST_STOPPED && access(c.st->cgroup, F_OK) < 0)
		r = 0;
	else if (whole)
		r = sig == SIGKILL ? cg_kill(c.st->cgroup, &e) : cg_signal_all(c.st->cgroup, sig, &e);
	else if (s != ST_STOPPED && kill(pid, sig) < 0)
		r = uerr_sys(&e, "kill %d", pid);
	container_close(&c);
	return r < 0 ? fail("kill %s: %s", id, e.msg) : 0;
}

static int freeze_cmd(const char *cmd, int argc, char **argv, bool freeze)
{
	struct container c;
	struct uerr e = { 0 };
	const char *id;
	pid_t pid;
	int r;

	if (getopt_long(argc, argv, "+", (struct option[]){ { 0 } }, NULL) != -1)
		return fail("%s: unknown option", cmd);
	if (need_id(cmd, argc, argv, optind, &id))
		return 1;
	if (container_open(G.root, id, &c, &e) < 0)
		return fail("%s: %s", cmd, e.msg);
	enum cstatus s = container_status(&c, &pid);
	if (s != (freeze ? ST_RUNNING : ST_PAUSED)) {
		container_close(&c);
		return fail("%s: container \"%s\" is %s, not %s", cmd, id, status_names[s],
			    freeze ? "running" : "paused");
	}
	r = has_cgroup(c.st) ? cg_freeze(c.st->cgroup, freeze, &e)
			     : uerr_set(&e, EOPNOTSUPP, "the container has no cgroup of its own to freeze "
						     "(rootless without a delegated cgroup)");
	container_close(&c);
	return r < 0 ? fail("%s %s: %s", cmd, id, e.msg) : 0;
}

int cmd_pause(int argc, char **argv)
{
	return freeze_cmd("pause", argc, argv, true);
}

int cmd_resume(int argc, char **argv)
{
	return freeze_cmd("resume", argc, argv, false);
}
