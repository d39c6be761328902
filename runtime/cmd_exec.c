/* exec: a new process in a running container. Its namespaces are joined
 * through a pidfd of the init, and it is born in the container's cgroup
 * (clone3 CLONE_INTO_CGROUP), then made what the process says. */
#include <fcntl.h>
#include <getopt.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lib/util.h"
#include "cgroup/cgroup.h"
#include "ns/ns.h"
#include "runtime/commands.h"
#include "runtime/container.h"
#include "runtime/launch.h"
#include "runtime/process.h"
#include "runtime/sync.h"

struct exec_opts {
	const char *process_file, *console_socket, *pid_file, *cwd, *user, *id;
	const char *label, *apparmor;   /* refused by proc_check, as in a config */
	char **env, **caps;
	size_t n_env, n_caps;
	uint32_t *gids;
	size_t n_gids;
	bool tty, detach, no_new_privs, ignore_paused;
	int preserve_fds;
	char **args;
};

static int parse_exec_opts(int argc, char **argv, struct exec_opts *o)
{
	static const struct option opts[] = {
		{ "process", required_argument, NULL, 'p' }, { "tty", no_argument, NULL, 't' },
		{ "console-socket", required_argument, NULL, 'C' }, { "detach", no_argument, NULL, 'd' },
		{ "pid-file", required_argument, NULL, 'P' }, { "cwd", required_argument, NULL, 'w' },
		{ "env", required_argument, NULL, 'e' }, { "user", required_argument, NULL, 'u' },
		{ "additional-gids", required_argument, NULL, 'g' }, { "cap", required_argument, NULL, 'c' },
		{ "no-new-privs", no_argument, NULL, 'n' }, { "preserve-fds", required_argument, NULL, 'F' },
		{ "ignore-paused", no_argument, NULL, 'I' }, { "process-label", required_argument, NULL, 'L' },
		{ "apparmor", required_argument, NULL, 'A' }, { 0 }
	};
	uint64_t n;
	int c;

	while ((c = getopt_long(argc, argv, "+p:tdw:e:u:g:c:", opts, NULL)) != -1) {
		switch (c) {
		case 'p': o->process_file = optarg; break;
		case 't': o->tty = true; break;
		case 'C': o->console_socket = optarg; break;
		case 'd': o->detach = true; break;
		case 'P': o->pid_file = optarg; break;
		case 'w': o->cwd = optarg; break;
		case 'e':
			o->env = xrealloc(o->env, (o->n_env + 2) * sizeof(char *));
			o->env[o->n_env++] = optarg;
			o->env[o->n_env] = NULL;
			break;
		case 'u': o->user = optarg; break;
		case 'g':
			if (parse_u64(optarg, &n) < 0 || n > UINT32_MAX)
				return fail("exec: --additional-gids: \"%s\" is not a gid", optarg);
			o->gids = xrealloc(o->gids, (o->n_gids + 1) * sizeof(uint32_t));
			o->gids[o->n_gids++] = (uint32_t)n;
			break;
		case 'c':
			o->caps = xrealloc(o->caps, (o->n_caps + 2) * sizeof(char *));
			o->caps[o->n_caps++] = optarg;
			o->caps[o->n_caps] = NULL;
			break;
		case 'n': o->no_new_privs = true; break;
		case 'F':
			if (parse_u64(optarg, &n) < 0 || n > 65536)
				return fail("exec: --preserve-fds: \"%s\" is not a number of fds", optarg);
			o->preserve_fds = (int)n;
			break;
		case 'I': o->ignore_paused = true; break;
		case 'L': o->label = optarg; break;
		case 'A': o->apparmor = optarg; break;
		default:
			return fail("exec: unknown option (see unirun exec --help)");
		}
	}
	if (argc - optind < 1)
		return fail("exec: a container id is required (see unirun exec --help)");
	o->id = argv[optind];
	o->args = argv + optind + 1;
	if (!o->process_file && !o->args[0])
		return fail("exec: a command (or --process FILE) is required");
	if (o->process_file && o->args[0])
		return fail("exec: give either --process or a command, not both");
	if (o->console_socket && !o->tty)
		return fail("exec: --console-socket needs --tty");
	if (o->tty && o->detach && !o->console_socket)
		return fail("exec: --tty with --detach needs --console-socket");
	return 0;
}

/* Add caps to every set but ambient (runc's --cap). */
static char **add_caps(struct arena *a, char **set, char **extra)
{
	size_t n = strv_len(set), m = strv_len(extra);
	char **out = arena_alloc(a, (n + m + 1) * sizeof(char *));

	memcpy(out, set, n * sizeof(char *));
	memcpy(out + n, extra, m * sizeof(char *));
	return out;
}

static char **concat_env(struct arena *a, char **base, char **extra)
{
	return add_caps(a, base, extra);
}

/* The process to run: --process FILE as is, or the container's process with
 * the command line's overrides. */
static int build_process(const struct exec_opts *o, struct oci_config *cfg,
			 struct oci_process_doc **doc, struct oci_process **out)
{
	struct uerr e = { 0 };
	struct oci_process *p;

	if (o->process_file) {
		_cleanup_free_ char *text = NULL;
		int r = read_file_at(AT_FDCWD, o->process_file, &text, NULL);
		if (r < 0)
			return fail("exec: --process %s: %s", o->process_file, strerror(-r));
		*doc = process_parse(text, o->process_file, &e);
		if (!*doc)
			return fail("exec: %s", e.msg);
		*out = (*doc)->process;
		return 0;
	}
	p = arena_alloc(&cfg->arena, sizeof(*p));
	*p = *cfg->process;
	p->args = o->args;
	p->terminal = o->tty;
	p->console_size.given = false;
	if (o->env)
		p->env = concat_env(&cfg->arena, p->env, o->env);
	if (o->cwd)
		p->cwd = (char *)o->cwd;
	if (o->user) {
		unsigned uid, gid;
		int n = 0;
		if (sscanf(o->user, "%u:%u%n", &uid, &gid, &n) == 2 && !o->user[n]) {
			p->user.uid = uid;
			p->user.gid = gid;
		} else if (sscanf(o->user, "%u%n", &uid, &n) == 1 && !o->user[n]) {
			p->user.uid = uid;
		} else {
			return fail("exec: --user: \"%s\" is not UID[:GID]", o->user);
		}
		p->user.n_additional_gids = 0;
	}
	if (o->n_gids) {
		p->user.additional_gids = o->gids;
		p->user.n_additional_gids = o->n_gids;
	}
	if (o->caps) {
		p->caps.given = true;
		p->caps.bounding = add_caps(&cfg->arena, p->caps.bounding, o->caps);
		p->caps.effective = add_caps(&cfg->arena, p->caps.effective, o->caps);
		p->caps.permitted = add_caps(&cfg->arena, p->caps.permitted, o->caps);
	}
	if (o->no_new_privs)
		p->no_new_privileges = true;
	if (o->label)
		p->selinux_label = (char *)o->label;
	if (o->apparmor)
		p->apparmor_profile = (char *)o->apparmor;
	*out = p;
	return 0;
}

static int ns_flags_of(const struct oci_config *cfg)
{
	int f = 0;

	for (size_t i = 0; i < cfg->linux.n_namespaces; i++)
		f |= cfg->linux.namespaces[i].type;
	return f;
}

/* The child: join the rest of the namespaces, become the process, exec. */
static int exec_child(const struct oci_config *cfg, const struct oci_process *p, const struct seccomp_bpf *bpf,
		      int pidfd, int joined, int sock, int preserve_fds, struct uerr *e)
{
	_cleanup_free_ char *exe = NULL;
	int flags = ns_flags_of(cfg) & ~(CLONE_NEWPID | CLONE_NEWTIME | joined);
	int master, notify = -1, r;

	/* Until execve we are a copy of unirun inside the container: not
	 * dumpable, so its processes cannot open our /proc/PID/exe (the unirun
	 * binary) or our memory. execve restores dumpability for the program. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return uerr_sys(e, "PR_SET_DUMPABLE");
	proc_reset_signals();
	/* Through the host's /proc, before the container's mounts (CVE-2025-52881). */
	if ((r = proc_oom_score_adj(p, e)) < 0)
		return r;
	if (flags && setns(pidfd, flags) < 0)
		return uerr_sys(e, "joining the container's namespaces");
	if (setresuid(0, 0, 0) < 0 || setresgid(0, 0, 0) < 0)
		return uerr_sys(e, "becoming root in the container");
	if (p->terminal) {
		if ((r = console_setup(p, &master, e)) < 0)
			return r;
		if (sync_send(sock, SYNC_CONSOLE, 0, master) < 0)
			return uerr_sys(e, "sync");
		close(master);
	}
	if ((r = proc_prepare(p, &exe, e)) < 0)
		return r;
	if ((r = proc_become(p, cfg->linux.seccomp ? bpf : NULL, proc_setgroups_allowed(), &notify, e)) < 0)
		return r;
	/* The listener is a host path: the parent passes the notify fd on. */
	if (notify >= 0) {
		if (sync_send(sock, SYNC_SECCOMP, 0, notify) < 0)
			return uerr_sys(e, "sync");
		close(notify);
	}
	if (p->exec_cpu_affinity.final &&
	    (r = proc_affinity(p->exec_cpu_affinity.final, "process.execCPUAffinity.final", e)) < 0)
		return r;
	proc_cloexec_from(3 + preserve_fds);
	/* The sync socket is CLOEXEC: a successful exec reads as EOF upstairs. */
	execve(exe, p->args, p->env ? p->env : (char *[]){ NULL });
	return uerr_sys(e, "exec %s", exe);
}

/*
 * A parent that stayed in the container's user and pid namespaces (rootless
 * exec) leaves with _exit: nothing of ours may run at exit there (a
 * LeakSanitizer tracer would be born in the container's pid namespace).
 */
static int leave(int late, int status)
{
	if (!(late & CLONE_NEWUSER))
		return status;
	fflush(NULL);
	_exit(status);
}

/* The cgroup the init is in now, if it lies inside the container's. */
static int init_leaf(const char *cgroup, pid_t init)
{
	_cleanup_free_ char *rel = NULL, *leaf = NULL;
	struct uerr e;
	const char *mount;

	if (cg_of(init, &rel, &e) < 0 || cg_mount(&mount, &e) < 0)
		return -1;
	leaf = xasprintf("%s%s", mount, rel);
	size_t n = strlen(cgroup);
	if (strncmp(leaf, cgroup, n) || leaf[n] != '/')
		return -1;
	return open(leaf, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
}

static int exec_in(struct container *c, struct oci_config *cfg, const struct oci_process *p,
		   const struct exec_opts *o, pid_t init)
{
	_cleanup_close_ int pidfd = (int)syscall(SYS_pidfd_open, init, 0);
	_cleanup_close_ int cgfd = has_cgroup(c->st) ? open(c->st->cgroup, O_DIRECTORY | O_RDONLY | O_CLOEXEC) : -2;
	int sock[2], master = -1, child_pidfd = -1, fd;
	struct seccomp_bpf bpf __attribute__((cleanup(seccomp_bpf_free))) = { 0 };
	struct uerr e = { 0 };
	struct sync_msg m;
	pid_t pid;
	int r;

	if (pidfd < 0 || cgfd == -1)
		return fail("exec %s: %s", o->id, strerror(errno));
	/* Compiled here (or found in the cache), before the clone: the child
	 * only installs it. */
	if (cfg->linux.seccomp && seccomp_prepare(cfg->linux.seccomp, G.root, &bpf, &e) < 0)
		return fail("exec %s: %s", o->id, e.msg);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sock) < 0)
		return fail("exec: socketpair: %s", strerror(errno));
	/* pid and time namespaces take effect for children: enter them here. */
	int late = ns_flags_of(cfg) & (CLONE_NEWPID | CLONE_NEWTIME);
	/* Without privileges only the container's own user namespace gives the
	 * right to join its pid namespace: we go in there for good (what we do
	 * after the clone works the same from inside). */
	if (late && geteuid() != 0 && (ns_flags_of(cfg) & CLONE_NEWUSER))
		late |= CLONE_NEWUSER;
	_cleanup_close_ int own_pid = open("/proc/self/ns/pid", O_RDONLY | O_CLOEXEC);
	_cleanup_close_ int own_time = open("/proc/self/ns/time", O_RDONLY | O_CLOEXEC);
	if (late && setns(pidfd, late) < 0)
		return fail("exec %s: joining the pid namespace: %s", o->id, strerror(errno));
	struct clone_args args = { .flags = (cgfd >= 0 ? CLONE_INTO_CGROUP : 0) | CLONE_PIDFD,
				   .pidfd = (uint64_t)(uintptr_t)&child_pidfd, .exit_signal = SIGCHLD,
				   .cgroup = cgfd >= 0 ? (uint64_t)cgfd : 0 };
	pid = (pid_t)syscall(SYS_clone3, &args, sizeof(args));
	if (pid < 0 && (errno == EBUSY || errno == EOPNOTSUPP) && cgfd >= 0) {
		/* The container made its cgroup a parent with controllers (cgroupns
		 * delegation): processes live in leaves now, so join the init's. */
		_cleanup_close_ int leaf = init_leaf(c->st->cgroup, init);
		if (leaf >= 0) {
			args.cgroup = (uint64_t)leaf;
			pid = (pid_t)syscall(SYS_clone3, &args, sizeof(args));
		}
	}
	if (pid > 0 && late && !(late & CLONE_NEWUSER)) {
		/* Back to our own namespaces for whatever we fork later (hooks,
		 * LeakSanitizer's tracer): only the exec'd child belongs there. */
		if ((late & CLONE_NEWPID) && own_pid >= 0)
			setns(own_pid, CLONE_NEWPID);
		if ((late & CLONE_NEWTIME) && own_time >= 0)
			setns(own_time, CLONE_NEWTIME);
	}
	if (pid < 0)
		return fail("exec %s: clone3 into %s: %s", o->id, c->st->cgroup, strerror(errno));
	if (pid == 0) {
		close(sock[0]);
		close(c->dirfd);
		exec_child(cfg, p, &bpf, pidfd, (late & CLONE_NEWUSER) ? CLONE_NEWUSER : 0, sock[1], o->preserve_fds, &e);
		sync_send_err(sock[1], &e);
		_exit(127);
	}
	close(sock[1]);
	close(child_pidfd);
	/* Until EOF: a console fd, or an error. EOF alone means exec happened. */
	while ((r = sync_recv(sock[0], &m, &fd)) > 0) {
		if (m.type == SYNC_CONSOLE) {
			master = fd;
			if (o->console_socket && send_fd_to_path(o->console_socket, fd, NULL, "--console-socket", &e) < 0)
				break;
		} else if (m.type == SYNC_SECCOMP) {
			_cleanup_free_ char *json = seccomp_process_state(cfg->linux.seccomp, c->st, "running", pid);
			r = send_fd_to_path(cfg->linux.seccomp->listener_path, fd, json,
					    "linux.seccomp.listenerPath", &e);
			close(fd);
			if (r < 0)
				break;
		} else if (m.type == SYNC_ERROR) {
			uerr_set(&e, m.code, "%s", m.msg);
			break;
		}
	}
	close(sock[0]);
	if (e.msg[0]) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return fail("exec %s: %s", o->id, e.msg);
	}
	if (o->pid_file && write_pid_file(o->pid_file, pid, &e) < 0)
		return fail("exec: %s", e.msg);
	if (o->detach)
		return leave(late, 0);
	flock(c->dirfd, LOCK_UN);
	return leave(late, wait_process(pid, o->console_socket ? -1 : master));
}

int cmd_exec(int argc, char **argv)
{
	struct exec_opts o = { 0 };
	struct container c;
	struct oci_config *cfg = NULL;
	struct oci_process_doc *doc = NULL;
	struct oci_process *p = NULL;
	struct uerr e = { 0 };
	pid_t init;
	int r = 1;

	if (parse_exec_opts(argc, argv, &o))
		goto out_opts;
	proc_cloexec_from(3 + o.preserve_fds);
	if (container_open(G.root, o.id, &c, &e) < 0) {
		fail("exec: %s", e.msg);
		goto out_opts;
	}
	enum cstatus s = container_status(&c, &init);
	if (s == ST_STOPPED || s == ST_CREATING || (s == ST_PAUSED && !o.ignore_paused)) {
		fail("exec: container \"%s\" is %s%s", o.id, status_names[s],
		     s == ST_STOPPED ? ": container not running" : "");
		goto out;
	}
	if (container_config(&c, &cfg, &e) < 0 || !cfg) {
		fail("exec: %s", cfg ? e.msg : "the container's config was not saved");
		goto out;
	}
	if (build_process(&o, cfg, &doc, &p) || proc_check(p, "process", &e) < 0) {
		if (e.msg[0])
			fail("exec: %s", e.msg);
		goto out;
	}
	r = exec_in(&c, cfg, p, &o, init);
out:
	process_doc_free(doc);
	config_free(cfg);
	container_close(&c);
out_opts:
	free(o.env);
	free(o.caps);
	free(o.gids);
	return r;
}
