#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/ioprio.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "lib/util.h"
#include "ns/ns.h"
#include "runtime/process.h"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

static const char *const cap_sets[] = { "bounding", "effective", "inheritable", "permitted", "ambient" };

static char **cap_set(const struct oci_capabilities *c, int i)
{
	char **sets[] = { c->bounding, c->effective, c->inheritable, c->permitted, c->ambient };
	return sets[i];
}

static int cap_value(const char *name, cap_value_t *v)
{
	/* libcap wants lower case without the CAP_ prefix, or the full name. */
	return cap_from_name(name, v);
}

int proc_check(const struct oci_process *p, const char *path, struct uerr *e)
{
	cap_value_t v;

	for (int s = 0; s < 5 && p->caps.given; s++) {
		char **set = cap_set(&p->caps, s);
		for (size_t i = 0; set && set[i]; i++)
			if (cap_value(set[i], &v) < 0)
				return uerr_set(e, 0, "%s.capabilities.%s[%zu]: unknown capability \"%s\"", path,
						cap_sets[s], i, set[i]);
	}
	if (p->apparmor_profile && *p->apparmor_profile)
		return uerr_set(e, EOPNOTSUPP, "%s.apparmorProfile: unirun does not apply AppArmor "
				"profiles (and will not silently run without one)", path);
	if (p->selinux_label && *p->selinux_label)
		return uerr_set(e, EOPNOTSUPP, "%s.selinuxLabel: unirun does not apply SELinux labels "
				"(and will not silently run without one)", path);
	return 0;
}

static const char *env_get(char *const *env, const char *key)
{
	size_t n = strlen(key);

	for (size_t i = 0; env && env[i]; i++)
		if (!strncmp(env[i], key, n) && env[i][n] == '=')
			return env[i] + n + 1;
	return NULL;
}

static int proc_find_exe(const struct oci_process *p, char **exe, struct uerr *e)
{
	const char *name = p->args[0];
	const char *path = env_get(p->env, "PATH");
	struct stat st;

	if (strchr(name, '/')) {
		if (stat(name, &st) < 0)
			return uerr_sys(e, "process.args[0]: %s", name);
		if (S_ISDIR(st.st_mode) || access(name, X_OK) < 0)
			return uerr_set(e, EACCES, "process.args[0]: %s is not executable", name);
		*exe = xstrdup(name);
		return 0;
	}
	if (!path)
		path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	for (const char *s = path; *s;) {
		size_t n = strcspn(s, ":");
		_cleanup_free_ char *cand = xasprintf("%.*s/%s", (int)n, n ? s : ".", name);

		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
			*exe = TAKE_PTR(cand);
			return 0;
		}
		s += n;
		if (*s == ':')
			s++;
	}
	return uerr_set(e, ENOENT, "process.args[0]: \"%s\" not found in $PATH (%s)", name, path);
}

/* A user namespace mapped without privileges has setgroups denied. */
bool proc_setgroups_allowed(void)
{
	char buf[16] = "";
	int fd = open("/proc/self/setgroups", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return true;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n <= 0 || strncmp(buf, "deny", 4) != 0;
}

/* Before the container's mounts or namespaces can stand in for /proc/self. */
int proc_oom_score_adj(const struct oci_process *p, struct uerr *e)
{
	char buf[24];
	int n, r;

	if (!p->oom_score_adj.set)
		return 0;
	n = snprintf(buf, sizeof(buf), "%lld", (long long)p->oom_score_adj.v);
	if ((r = write_file_at(AT_FDCWD, "/proc/self/oom_score_adj", buf, (size_t)n)) < 0) {
		errno = -r;
		return uerr_sys(e, "process.oomScoreAdj");
	}
	return 0;
}

/*
 * cwd is resolved inside the container's root with no magic links: a cwd of
 * /proc/self/fd/N (or a symlink to one) would otherwise land on whatever host
 * directory fd N is (CVE-2024-21626).
 */
static int proc_chdir(const char *cwd, struct uerr *e)
{
	_cleanup_close_ int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	_cleanup_close_ int fd = -1;

	if (root < 0)
		return uerr_sys(e, "opening /");
	fd = open_in_root(root, cwd, O_PATH | O_DIRECTORY, 0);
	if (fd < 0) {
		errno = -fd;
		return uerr_sys(e, "process.cwd %s (resolved in the container, no magic links)", cwd);
	}
	if (fchdir(fd) < 0)
		return uerr_sys(e, "process.cwd %s", cwd);
	return 0;
}

static int proc_rlimits(const struct oci_process *p, struct uerr *e)
{
	for (size_t i = 0; i < p->n_rlimits; i++) {
		struct rlimit rl = { .rlim_cur = p->rlimits[i].soft, .rlim_max = p->rlimits[i].hard };
		if (setrlimit(p->rlimits[i].resource, &rl) < 0)
			return uerr_sys(e, "process.rlimits[%zu]: %s", i, p->rlimits[i].type);
	}
	return 0;
}

struct sched_attr_k {
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
};

static int proc_sched(const struct oci_process *p, struct uerr *e)
{
	if (p->scheduler.given) {
		struct sched_attr_k a = {
			.size = sizeof(a), .sched_policy = (uint32_t)p->scheduler.policy,
			.sched_flags = p->scheduler.flags, .sched_nice = p->scheduler.nice,
			.sched_priority = (uint32_t)p->scheduler.priority,
			.sched_runtime = p->scheduler.runtime, .sched_deadline = p->scheduler.deadline,
			.sched_period = p->scheduler.period,
		};
		if (syscall(SYS_sched_setattr, 0, &a, 0) < 0)
			return uerr_sys(e, "process.scheduler");
	}
	if (p->io_priority.given &&
	    syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, IOPRIO_PRIO_VALUE(p->io_priority.klass, p->io_priority.priority)) < 0)
		return uerr_sys(e, "process.ioPriority");
	return 0;
}

/* What every process needs before it becomes the container's user: limits,
 * scheduling, its cwd (inside the root) and the program, found while we can
 * still read everything. */
int proc_prepare(const struct oci_process *p, char **exe, struct uerr *e)
{
	int r;

	if ((r = proc_rlimits(p, e)) < 0 || (r = proc_sched(p, e)) < 0 || (r = proc_chdir(p->cwd, e)) < 0)
		return r;
	return proc_find_exe(p, exe, e);
}

int proc_drop_bounding(const struct oci_process *p, struct uerr *e)
{
	if (!p->caps.given)
		return 0;
	for (cap_value_t c = 0; c <= CAP_LAST_CAP; c++) {
		bool keep = false;
		cap_value_t v;

		for (size_t i = 0; p->caps.bounding && p->caps.bounding[i]; i++)
			if (cap_value(p->caps.bounding[i], &v) == 0 && v == c)
				keep = true;
		if (!keep && prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0 && errno != EINVAL)
			return uerr_sys(e, "process.capabilities.bounding: dropping %s", cap_to_name(c));
	}
	return 0;
}

int proc_identity(const struct oci_process *p, bool setgroups_allowed, struct uerr *e)
{
	const struct oci_user *u = &p->user;

	/* Keep the permitted set across setuid: capabilities are set right after. */
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
		return uerr_sys(e, "PR_SET_KEEPCAPS");
	if (setgroups_allowed) {
		gid_t *g = xcalloc(u->n_additional_gids + 1, sizeof(gid_t));
		for (size_t i = 0; i < u->n_additional_gids; i++)
			g[i] = u->additional_gids[i];
		int r = setgroups(u->n_additional_gids, g);
		free(g);
		if (r < 0)
			return uerr_sys(e, "process.user.additionalGids");
	} else if (u->n_additional_gids) {
		return uerr_set(e, EPERM, "process.user.additionalGids: setgroups is denied in this "
				"user namespace");
	}
	if (setresgid(u->gid, u->gid, u->gid) < 0)
		return uerr_sys(e, "process.user.gid %u", u->gid);
	if (setresuid(u->uid, u->uid, u->uid) < 0)
		return uerr_sys(e, "process.user.uid %u", u->uid);
	if (u->umask.set)
		umask((mode_t)u->umask.v);
	return 0;
}

static int fill_set(cap_t caps, cap_flag_t flag, char **names)
{
	for (size_t i = 0; names && names[i]; i++) {
		cap_value_t v;

		if (cap_value(names[i], &v) < 0 || cap_set_flag(caps, flag, 1, &v, CAP_SET) < 0)
			return -EINVAL;
	}
	return 0;
}

int proc_caps(const struct oci_process *p, struct uerr *e)
{
	cap_t caps;
	int r;

	if (prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) < 0)
		return uerr_sys(e, "PR_SET_KEEPCAPS");
	if (!p->caps.given)
		return 0;
	caps = cap_init();
	if (fill_set(caps, CAP_EFFECTIVE, p->caps.effective) < 0 ||
	    fill_set(caps, CAP_PERMITTED, p->caps.permitted) < 0 ||
	    fill_set(caps, CAP_INHERITABLE, p->caps.inheritable) < 0) {
		cap_free(caps);
		return uerr_set(e, 0, "process.capabilities: invalid set");
	}
	r = cap_set_proc(caps);
	cap_free(caps);
	if (r < 0)
		return uerr_sys(e, "process.capabilities: capset");
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		return uerr_sys(e, "process.capabilities.ambient: clearing");
	for (size_t i = 0; p->caps.ambient && p->caps.ambient[i]; i++) {
		cap_value_t v;

		cap_value(p->caps.ambient[i], &v);
		/* An ambient cap must be permitted and inheritable; runc skips the rest too. */
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, v, 0, 0) < 0 && errno != EPERM)
			return uerr_sys(e, "process.capabilities.ambient[%zu]: %s", i, p->caps.ambient[i]);
	}
	return 0;
}

int proc_affinity(const char *cpus, const char *what, struct uerr *e)
{
	cpu_set_t set;
	_cleanup_free_ char *s = xstrdup(cpus);
	char *save = NULL;

	CPU_ZERO(&set);
	for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned a, b;
		int n = 0;

		if (sscanf(tok, "%u-%u%n", &a, &b, &n) == 2 && !tok[n]) {
		} else if (sscanf(tok, "%u%n", &a, &n) == 1 && !tok[n]) {
			b = a;
		} else {
			return uerr_set(e, 0, "%s: invalid cpu list \"%s\"", what, cpus);
		}
		if (b < a || b >= CPU_SETSIZE)
			return uerr_set(e, 0, "%s: invalid cpu range \"%s\"", what, tok);
		for (unsigned c = a; c <= b; c++)
			CPU_SET(c, &set);
	}
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		return uerr_sys(e, "%s: sched_setaffinity(%s)", what, cpus);
	return 0;
}

void proc_cloexec_from(int from)
{
	if (syscall(SYS_close_range, (unsigned)from, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
		return;
	for (int fd = from; fd < 1024; fd++)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
}

/* Who the process is, in the order that keeps each step possible: without
 * no_new_privs a seccomp filter needs CAP_SYS_ADMIN, so it goes in before the
 * capabilities are dropped; with it, as late as possible. */
int proc_become(const struct oci_process *p, const struct seccomp_bpf *sc, bool setgroups_allowed,
		int *notify, struct uerr *e)
{
	int r;

	*notify = -1;
	if (sc && !p->no_new_privileges && (r = seccomp_install(sc, notify, e)) < 0)
		return r;
	if ((r = proc_drop_bounding(p, e)) < 0 || (r = proc_identity(p, setgroups_allowed, e)) < 0 ||
	    (r = proc_caps(p, e)) < 0)
		return r;
	if (p->no_new_privileges && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return uerr_sys(e, "process.noNewPrivileges");
	if (sc && p->no_new_privileges && (r = seccomp_install(sc, notify, e)) < 0)
		return r;
	return 0;
}

void proc_reset_signals(void)
{
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
}
