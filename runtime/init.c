/* The container's init, from clone3 to execve, top to bottom in one function
 * (container_init) so the order can be read and reviewed in one place. */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lib/util.h"
#include "ns/ns.h"
#include "runtime/commands.h"
#include "runtime/launch.h"
#include "runtime/process.h"
#include "runtime/sync.h"

static int sync_fd;

static int expect(enum sync_type t, struct uerr *e)
{
	struct sync_msg m;

	return sync_expect(sync_fd, t, &m, e);
}

static int ask(enum sync_type t, int fd, enum sync_type reply, struct uerr *e)
{
	if (sync_send(sync_fd, t, 0, fd) < 0)
		return uerr_sys(e, "sync");
	return reply ? expect(reply, e) : 0;
}

/* Join namespaces given by path (user first), create the rest, and fork when
 * a pid or time namespace only applies to children. Returns in the init. */
static int enter_namespaces(struct launch *l, struct uerr *e)
{
	const struct oci_linux *x = &l->cfg->linux;
	int fds[16], order[16], n = 0, unshare_flags = 0;
	bool fork_needed = false;

	for (size_t i = 0; i < x->n_namespaces && n < 16; i++) {
		const struct oci_namespace *ns = &x->namespaces[i];

		if (!ns->path) {
			unshare_flags |= ns->type;
			fork_needed |= ns->type == CLONE_NEWPID || ns->type == CLONE_NEWTIME;
			continue;
		}
		fds[n] = open(ns->path, O_RDONLY | O_CLOEXEC);
		if (fds[n] < 0)
			return uerr_sys(e, "linux.namespaces[%zu].path %s", i, ns->path);
		/* user first (it grants the rights to join the rest), mount last. */
		order[n] = ns->type == CLONE_NEWUSER ? 0 : ns->type == CLONE_NEWNS ? 2 : 1;
		fork_needed |= ns->type == CLONE_NEWPID;
		n++;
	}
	for (int pass = 0; pass < 3; pass++) {
		if (pass == 1 && (unshare_flags & CLONE_NEWUSER)) {
			if (unshare(CLONE_NEWUSER) < 0)
				return uerr_sys(e, "unshare(user namespace)");
			if (ask(SYNC_USERNS, -1, SYNC_MAPPED, e) < 0)
				return uerr_ret(e);
		}
		for (int i = 0; i < n; i++)
			if (order[i] == pass && setns(fds[i], 0) < 0)
				return uerr_sys(e, "joining a namespace (linux.namespaces)");
	}
	for (int i = 0; i < n; i++)
		close(fds[i]);
	if (unshare(unshare_flags & ~CLONE_NEWUSER) < 0)
		return uerr_sys(e, "unshare(namespaces)");
	if (x->monotonic.given || x->boottime.given) {
		char buf[128];
		int len = snprintf(buf, sizeof(buf), "monotonic %lld %u\nboottime %lld %u\n",
				   (long long)x->monotonic.secs, x->monotonic.nanosecs,
				   (long long)x->boottime.secs, x->boottime.nanosecs);
		int r = write_file_at(AT_FDCWD, "/proc/self/timens_offsets", buf, (size_t)len);
		if (r < 0) {
			errno = -r;
			return uerr_sys(e, "linux.timeOffsets");
		}
	}
	if (fork_needed) {
		pid_t pid = fork();
		if (pid < 0)
			return uerr_sys(e, "fork into the new pid namespace");
		if (pid > 0) {
			sync_send(sync_fd, SYNC_PID, pid, -1);
			_exit(0);
		}
	}
	return 0;
}

static int set_sysctls(const struct oci_config *c, struct uerr *e)
{
	for (size_t i = 0; c->linux.sysctl && c->linux.sysctl[i]; i += 2) {
		_cleanup_free_ char *path = xasprintf("/proc/sys/%s", c->linux.sysctl[i]);
		const char *v = c->linux.sysctl[i + 1];
		int r;

		for (char *p = path + 10; *p; p++)
			if (*p == '.')
				*p = '/';
		if ((r = write_file_at(AT_FDCWD, path, v, strlen(v))) < 0) {
			errno = -r;
			return uerr_sys(e, "linux.sysctl: %s", c->linux.sysctl[i]);
		}
	}
	return 0;
}

static int set_names(const struct oci_config *c, struct uerr *e)
{
	if (c->hostname && *c->hostname) {
		if (!config_has_ns(c, CLONE_NEWUTS))
			return uerr_set(e, 0, "hostname: needs a uts namespace");
		if (sethostname(c->hostname, strlen(c->hostname)) < 0)
			return uerr_sys(e, "hostname");
	}
	if (c->domainname && *c->domainname) {
		if (!config_has_ns(c, CLONE_NEWUTS))
			return uerr_set(e, 0, "domainname: needs a uts namespace");
		if (setdomainname(c->domainname, strlen(c->domainname)) < 0)
			return uerr_sys(e, "domainname");
	}
	return 0;
}

static int container_hooks(struct launch *l, enum hook_kind k, const char *status, struct uerr *e)
{
	struct cstate st = { .id = (char *)l->o->id, .bundle = l->bundle, .rootfs = l->rootfs,
			     .created = "", .annotations = l->cfg->annotations };
	yajl_gen g;
	_cleanup_free_ char *json = NULL;

	if (!l->cfg->hooks.n[k])
		return 0;
	g = yajl_gen_alloc(NULL);
	state_gen_oci(g, &st, status, getpid());
	json = jg_finish(g, NULL);
	return hooks_run(&l->cfg->hooks, k, json, e);
}

/* Block until `start` opens exec.fifo for reading; the byte tells it we go on. */
static int wait_for_start(int procfd, int fifo_fd, struct uerr *e)
{
	char name[16];
	int fd;

	snprintf(name, sizeof(name), "%d", fifo_fd);
	fd = openat(procfd, name, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return uerr_sys(e, "opening exec.fifo");
	if (write(fd, "0", 1) != 1)
		return uerr_sys(e, "writing exec.fifo");
	close(fd);
	return 0;
}

static int container_init(struct launch *l, struct uerr *e)
{
	const struct oci_config *c = l->cfg;
	const struct oci_process *p = c->process;
	/* Without a cgroup of its own (rootless, not delegated) the container
	 * sees the one it runs in. */
	struct rootfs_ctx rc = { .cfg = c, .rootfs = l->rootfs, .cgroup_path = l->cg.path ? l->cg.path : l->cg.boundary,
				 .idmapped = l->idmapped,
				 .no_pivot = l->o->no_pivot };
	_cleanup_free_ char *exe = NULL;
	_cleanup_close_ int procfd = -1;
	int r, master = -1, notify = -1;

	/* No PDEATHSIG: create's parent exits once we are ready. If it dies
	 * earlier, the sync socket reads EOF and we exit with it. */
	if (l->userns && !l->two_step && ask(SYNC_USERNS, -1, SYNC_MAPPED, e) < 0)
		return uerr_ret(e);
	if (l->two_step && (r = enter_namespaces(l, e)) < 0)
		return r;
	/* In a user namespace (our own, or the one rootless podman runs us in)
	 * devices are bound from the host: mknod is not ours to do. */
	rc.userns = l->userns || config_ns(c, CLONE_NEWUSER) != NULL || G.rootless > 0;
	if (setresuid(0, 0, 0) < 0 || setresgid(0, 0, 0) < 0)
		return uerr_sys(e, "becoming root in the container (is uid/gid 0 mapped?)");
	if ((r = set_names(c, e)) < 0)
		return r;
	/* Through the host's /proc, before any container mount exists: those
	 * could redirect the writes (CVE-2025-52881). sysctls act on the
	 * writer's namespaces, which are already the container's. */
	if ((r = proc_oom_score_adj(p, e)) < 0 || (r = set_sysctls(c, e)) < 0)
		return r;
	if ((r = rootfs_prepare(&rc, e)) < 0)
		return r;
	if ((c->hooks.n[HOOK_PRESTART] || c->hooks.n[HOOK_CREATE_RUNTIME]) &&
	    ask(SYNC_HOOKS, -1, SYNC_HOOKS_DONE, e) < 0)
		return uerr_ret(e);
	if ((r = container_hooks(l, HOOK_CREATE_CONTAINER, "creating", e)) < 0)
		return r;
	{
		_cleanup_close_ int rootfd = open(l->rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC);
		_cleanup_close_ int cwd = rootfd < 0 ? -1 : mkpath_in_root(rootfd, p->cwd, false, e);
		if (cwd < 0)
			return uerr_prefix(e, "process.cwd");
	}
	/* The host's /proc/<us>/fd stays reachable through this fd after pivot_root. */
	procfd = open("/proc/self/fd", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (procfd < 0)
		return uerr_sys(e, "opening /proc/self/fd");
	if ((r = rootfs_pivot(&rc, e)) < 0 || (r = rootfs_finish(&rc, e)) < 0)
		return r;
	if (p->terminal) {
		if ((r = console_setup(p, &master, e)) < 0)
			return r;
		if (ask(SYNC_CONSOLE, master, 0, e) < 0)
			return uerr_ret(e);
		close(master);
	} else if (setsid() < 0) {
		/* Its own session, as with a terminal (and as runc's init does):
		 * no job control from the caller's, and a session leader inside
		 * the container, which CRIU needs to checkpoint it. */
		return uerr_sys(e, "setsid");
	}
	if (!l->o->no_new_keyring && syscall(SYS_keyctl, 1 /* JOIN_SESSION_KEYRING */, NULL) < 0 &&
	    errno != ENOSYS && errno != EACCES && errno != EPERM)
		return uerr_sys(e, "creating a session keyring");
	if (c->linux.personality.given &&
	    personality(!strcmp(c->linux.personality.domain, "LINUX32") ? PER_LINUX32 : PER_LINUX) < 0)
		return uerr_sys(e, "linux.personality");
	if ((r = proc_prepare(p, &exe, e)) < 0)
		return r;
	if ((r = proc_become(p, c->linux.seccomp ? &l->seccomp : NULL, proc_setgroups_allowed(), &notify, e)) < 0)
		return r;
	if (notify >= 0) {
		if (ask(SYNC_SECCOMP, notify, SYNC_SECCOMP_DONE, e) < 0)
			return uerr_ret(e);
		close(notify);
	}
	proc_cloexec_from(3 + l->o->preserve_fds);
	if (ask(SYNC_READY, -1, 0, e) < 0)
		return uerr_ret(e);
	close(sync_fd);
	sync_fd = -1;
	if ((r = wait_for_start(procfd, l->fifo_fd, e)) < 0 ||
	    (r = container_hooks(l, HOOK_START_CONTAINER, "running", e)) < 0)
		return r;
	if (p->exec_cpu_affinity.final && (r = proc_affinity(p->exec_cpu_affinity.final, "process.execCPUAffinity.final", e)) < 0)
		return r;
	execve(exe, p->args, p->env ? p->env : (char *[]){ NULL });
	return uerr_sys(e, "exec %s", exe);
}

void init_main(struct launch *l)
{
	struct uerr e = { 0 };

	sync_fd = l->sync[1];
	/* The container starts clean: no ignored or blocked signals inherited
	 * from whoever ran us (a background shell ignores SIGINT, for one). */
	proc_reset_signals();
	/* Our copy of the state dir fd would hold create's flock until exec. */
	close(l->ct.dirfd);
	close(l->cg.dirfd);
	if (l->pidfd >= 0)
		close(l->pidfd);
	container_init(l, &e);
	/* Before READY the parent reports it; after, only stderr is left. */
	if (sync_fd < 0 || sync_send_err(sync_fd, &e) < 0)
		dprintf(2, "unirun: %s\n", e.msg);
	_exit(1);
}
