/* create: the parent side. Parse once, claim the id, build the cgroup, clone3
 * the init straight into it with its namespaces, answer its requests (id maps,
 * hooks, console), and record the state once it is ready to exec. */
#include <fcntl.h>
#include <limits.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "lib/util.h"
#include "ns/ns.h"
#include "runtime/commands.h"
#include "runtime/launch.h"
#include "runtime/log.h"
#include "runtime/process.h"
#include "runtime/sync.h"

static bool sysctl_namespaced(const char *key, const struct oci_config *c, const char **needs)
{
	static const char *const ipc[] = { "kernel.msgmax", "kernel.msgmnb", "kernel.msgmni", "kernel.sem",
					   "kernel.shmall", "kernel.shmmax", "kernel.shmmni",
					   "kernel.shm_rmid_forced" };
	for (size_t i = 0; i < sizeof(ipc) / sizeof(ipc[0]); i++)
		if (!strcmp(key, ipc[i])) {
			*needs = "ipc";
			return config_has_ns(c, CLONE_NEWIPC);
		}
	if (str_has_prefix(key, "fs.mqueue.")) {
		*needs = "ipc";
		return config_has_ns(c, CLONE_NEWIPC);
	}
	if (str_has_prefix(key, "net.")) {
		*needs = "network";
		return config_has_ns(c, CLONE_NEWNET);
	}
	if (!strcmp(key, "kernel.hostname") || !strcmp(key, "kernel.domainname")) {
		*needs = "uts";
		return config_has_ns(c, CLONE_NEWUTS);
	}
	*needs = NULL;
	return false;
}

/* What only this host can judge, before anything is made. */
static int check_config(struct launch *l, struct uerr *e)
{
	const struct oci_config *c = l->cfg;
	const char *needs;
	struct stat st;
	int r;

	if ((r = proc_check(c->process, "process", e)) < 0)
		return uerr_prefix(e, "config.json");
	if (c->linux.mount_label && *c->linux.mount_label)
		return uerr_set(e, EOPNOTSUPP, "config.json: linux.mountLabel: unirun does not apply "
				"SELinux labels (and will not silently run without one)");
	if (c->linux.intel_rdt)
		return uerr_set(e, EOPNOTSUPP, "config.json: linux.intelRdt: unirun does not manage "
				"resctrl (Intel RDT); refusing rather than ignoring it");
	if (!config_has_ns(c, CLONE_NEWNS))
		return uerr_set(e, 0, "config.json: linux.namespaces: a mount namespace is required");
	for (size_t i = 0; c->linux.sysctl && c->linux.sysctl[i]; i += 2) {
		const char *k = c->linux.sysctl[i];
		if (!sysctl_namespaced(k, c, &needs))
			return uerr_set(e, EPERM, needs ? "config.json: linux.sysctl: \"%s\" needs a new %s "
					"namespace (it would change the host)" : "config.json: linux.sysctl: "
					"\"%s\" is not namespaced: setting it would change the host%s", k,
					needs ? needs : "");
		if (strstr(k, "..") || strchr(k, '/'))
			return uerr_set(e, 0, "config.json: linux.sysctl: invalid key \"%s\"", k);
	}
	for (size_t i = 0; i < c->linux.n_namespaces; i++) {
		const struct oci_namespace *ns = &c->linux.namespaces[i];
		if (ns->path && stat(ns->path, &st) < 0)
			return uerr_sys(e, "config.json: linux.namespaces[%zu].path %s", i, ns->path);
	}
	if (c->linux.seccomp && (r = seccomp_check(c->linux.seccomp, e)) < 0)
		return uerr_prefix(e, "config.json");
	if (c->process->terminal && !l->o->console_socket && l->o->detach)
		return uerr_set(e, 0, "config.json: process.terminal is true: --console-socket is required");
	if (!c->process->terminal && l->o->console_socket)
		return uerr_set(e, 0, "--console-socket given but process.terminal is false");
	if (c->linux.personality.given && c->linux.personality.flags && c->linux.personality.flags[0])
		return uerr_set(e, EOPNOTSUPP, "config.json: linux.personality.flags: no flags are supported");
	return 0;
}

static int resolve_paths(struct launch *l, struct uerr *e)
{
	const char *root = l->cfg->root.path;
	struct stat st;

	_cleanup_free_ char *joined = root[0] == '/' ? xstrdup(root) : xasprintf("%s/%s", l->bundle, root);
	l->rootfs = realpath(joined, NULL);
	if (!l->rootfs)
		return uerr_sys(e, "config.json: root.path %s", joined);
	if (stat(l->rootfs, &st) < 0 || !S_ISDIR(st.st_mode))
		return uerr_set(e, ENOTDIR, "config.json: root.path %s: not a directory", joined);
	return 0;
}

static int write_map(pid_t pid, const char *file, const struct oci_idmap *m, size_t n, struct uerr *e)
{
	if (n && ns_write_idmap(pid, file, m, n, e) < 0)
		return uerr_prefix(e, "linux.%s", !strcmp(file, "uid_map") ? "uidMappings" : "gidMappings");
	return 0;
}

/* Only our own uid and gid, one each: what an unprivileged process may map. */
static bool just_ourselves(const struct oci_linux *x)
{
	return x->n_uid_mappings == 1 && x->uid_mappings[0].size == 1 && x->uid_mappings[0].host_id == geteuid() &&
	       x->n_gid_mappings == 1 && x->gid_mappings[0].size == 1 && x->gid_mappings[0].host_id == getegid();
}

/* Several ranges without privileges: newuidmap/newgidmap, which check them
 * against /etc/subuid and /etc/subgid. */
static int helper_map(const char *helper, pid_t pid, const struct oci_idmap *m, size_t n, const char *field,
		      struct uerr *e)
{
	char **argv = xcalloc(3 * n + 3, sizeof(*argv));
	size_t k = 0;
	int status = 0;
	pid_t child;

	argv[k++] = (char *)helper;
	argv[k++] = xasprintf("%d", (int)pid);
	for (size_t i = 0; i < n; i++) {
		argv[k++] = xasprintf("%u", m[i].container_id);
		argv[k++] = xasprintf("%u", m[i].host_id);
		argv[k++] = xasprintf("%u", m[i].size);
	}
	child = fork();
	if (child == 0) {
		execvp(helper, argv);
		_exit(127);
	}
	if (child > 0)
		waitpid(child, &status, 0);
	for (size_t i = 1; i < k; i++)
		free(argv[i]);
	free(argv);
	if (child < 0)
		return uerr_sys(e, "fork for %s", helper);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return uerr_set(e, EPERM, "%s: %s refused the mapping (exit %d; is it installed, and are the "
				"ranges in /etc/sub%cid?)", field, helper, WIFEXITED(status) ? WEXITSTATUS(status) : -1,
				helper[3] == 'u' ? 'u' : 'g');
	return 0;
}

static int map_ids(struct launch *l, pid_t pid, struct uerr *e)
{
	const struct oci_linux *x = &l->cfg->linux;
	char path[64];
	int r;

	if (geteuid() != 0 && !just_ourselves(x)) {
		if ((r = helper_map("newuidmap", pid, x->uid_mappings, x->n_uid_mappings, "linux.uidMappings", e)) < 0 ||
		    (r = helper_map("newgidmap", pid, x->gid_mappings, x->n_gid_mappings, "linux.gidMappings", e)) < 0)
			return r;
	} else {
		/* Without privileges the kernel lets us map ourselves once
		 * setgroups is denied. */
		snprintf(path, sizeof(path), "/proc/%d/setgroups", (int)pid);
		if (geteuid() != 0 && (r = write_file_at(AT_FDCWD, path, "deny", 4)) < 0) {
			errno = -r;
			return uerr_sys(e, "writing %s", path);
		}
		if ((r = write_map(pid, "uid_map", x->uid_mappings, x->n_uid_mappings, e)) < 0 ||
		    (r = write_map(pid, "gid_map", x->gid_mappings, x->n_gid_mappings, e)) < 0)
			return r;
	}
	return sync_send(l->sync[0], SYNC_MAPPED, 0, -1) < 0 ? uerr_sys(e, "sync") : 0;
}

/* runc's rule: whatever linux.resources.devices says, the default devices and
 * those of linux.devices stay usable; their allow rules come last and win. */
static void add_device_rules(struct launch *l)
{
	static const struct res_device defaults[] = {
		{ true, 'c', 1, 3, "rwm" }, { true, 'c', 1, 5, "rwm" }, { true, 'c', 1, 7, "rwm" },
		{ true, 'c', 1, 8, "rwm" }, { true, 'c', 1, 9, "rwm" }, { true, 'c', 5, 0, "rwm" },
		{ true, 'c', 5, 1, "rwm" }, { true, 'c', 5, 2, "rwm" }, { true, 'c', 136, -1, "rwm" },
	};
	const size_t nd = sizeof(defaults) / sizeof(defaults[0]);
	struct resources *r = l->cfg->linux.resources;
	const struct oci_linux *x = &l->cfg->linux;
	struct res_device *all;
	size_t n;

	if (!r || !r->n_devices)
		return;
	n = r->n_devices;
	all = arena_alloc(&l->cfg->arena, (n + nd + x->n_devices) * sizeof(*all));
	memcpy(all, r->devices, n * sizeof(*all));
	memcpy(all + n, defaults, sizeof(defaults));
	n += nd;
	for (size_t i = 0; i < x->n_devices; i++)
		if (x->devices[i].type == 'c' || x->devices[i].type == 'b')
			all[n++] = (struct res_device){ true, x->devices[i].type, x->devices[i].major,
							x->devices[i].minor, "rwm" };
	r->devices = all;
	r->n_devices = n;
}

static void plan_namespaces(struct launch *l)
{
	const struct oci_linux *x = &l->cfg->linux;

	l->clone_flags = 0;
	l->two_step = x->monotonic.given || x->boottime.given;
	for (size_t i = 0; i < x->n_namespaces; i++) {
		if (x->namespaces[i].path)
			l->two_step = true;
		else
			l->clone_flags |= x->namespaces[i].type;
	}
	l->userns = l->clone_flags & CLONE_NEWUSER;
}

static pid_t do_clone3(struct launch *l, int *pidfd)
{
	struct clone_args args = {
		.flags = (l->cg.dirfd >= 0 ? CLONE_INTO_CGROUP : 0) | CLONE_PIDFD |
			 (l->two_step ? 0 : (uint64_t)l->clone_flags),
		.pidfd = (uint64_t)(uintptr_t)pidfd,
		.exit_signal = SIGCHLD,
		.cgroup = (uint64_t)l->cg.dirfd,
	};
	return (pid_t)syscall(SYS_clone3, &args, sizeof(args));
}

/* The container's state as far as it exists before state.json does. */
static struct cstate state_now(const struct launch *l)
{
	return (struct cstate){ .id = (char *)l->o->id, .pid = l->pid, .bundle = l->bundle,
				.rootfs = l->rootfs, .created = "", .annotations = l->cfg->annotations };
}

static char *state_json_now(struct launch *l, const char *status)
{
	struct cstate st = state_now(l);
	yajl_gen g = yajl_gen_alloc(NULL);

	state_gen_oci(g, &st, status, l->pid);
	return jg_finish(g, NULL);
}

static int run_parent_hooks(struct launch *l, struct uerr *e)
{
	_cleanup_free_ char *json = state_json_now(l, "creating");
	int r;

	/* prestart is deprecated but still run, right before createRuntime. */
	if ((r = hooks_run(&l->cfg->hooks, HOOK_PRESTART, json, e)) < 0 ||
	    (r = hooks_run(&l->cfg->hooks, HOOK_CREATE_RUNTIME, json, e)) < 0)
		return r;
	return sync_send(l->sync[0], SYNC_HOOKS_DONE, 0, -1) < 0 ? uerr_sys(e, "sync") : 0;
}

/* The runtime-spec's containerProcessState, sent with the notify fd. */
char *seccomp_process_state(const struct oci_seccomp *sc, const struct cstate *st, const char *status,
			    pid_t pid)
{
	yajl_gen g = yajl_gen_alloc(NULL);

	yajl_gen_map_open(g);
	jg_kv(g, "ociVersion", OCI_VERSION);
	jg_str(g, "fds");
	yajl_gen_array_open(g);
	jg_str(g, "seccompFd");
	yajl_gen_array_close(g);
	jg_ki(g, "pid", pid);
	if (sc->listener_metadata)
		jg_kv(g, "metadata", sc->listener_metadata);
	jg_str(g, "state");
	state_gen_oci(g, st, status, pid);
	yajl_gen_map_close(g);
	return jg_finish(g, NULL);
}

static int send_seccomp_fd(struct launch *l, int fd, struct uerr *e)
{
	struct cstate st = state_now(l);
	_cleanup_free_ char *json = seccomp_process_state(l->cfg->linux.seccomp, &st, "creating", l->pid);
	int r = send_fd_to_path(l->cfg->linux.seccomp->listener_path, fd, json, "linux.seccomp.listenerPath", e);

	close(fd);
	if (r < 0)
		return r;
	return sync_send(l->sync[0], SYNC_SECCOMP_DONE, 0, -1) < 0 ? uerr_sys(e, "sync") : 0;
}

/* Serve the init's requests until it says it is ready (or fails). */
static int serve_child(struct launch *l, struct uerr *e)
{
	struct sync_msg m;
	int fd, r;

	for (;;) {
		r = sync_recv(l->sync[0], &m, &fd);
		if (r < 0) {
			errno = -r;
			return uerr_sys(e, "reading from the container's init");
		}
		if (r == 0)
			return uerr_set(e, EPIPE, "the container's init exited during setup");
		switch (m.type) {
		case SYNC_USERNS:
			r = map_ids(l, l->two_step ? l->child : l->child, e);
			break;
		case SYNC_PID:
			l->pid = m.val;
			waitpid(l->child, NULL, 0);
			l->child = 0;
			r = 0;
			break;
		case SYNC_HOOKS:
			r = run_parent_hooks(l, e);
			break;
		case SYNC_CONSOLE:
			l->console_master = fd;
			r = l->o->console_socket ? send_fd_to_path(l->o->console_socket, fd, NULL, "--console-socket", e) : 0;
			break;
		case SYNC_SECCOMP:
			r = send_seccomp_fd(l, fd, e);
			break;
		case SYNC_READY:
			return 0;
		case SYNC_ERROR:
			return uerr_set(e, m.code > 0 ? m.code : EINVAL, "%s", m.msg);
		default:
			return uerr_set(e, EPROTO, "unexpected message %u from the container's init", m.type);
		}
		if (r < 0)
			return r;
	}
}

int launch_record(struct launch *l, struct uerr *e)
{
	struct cstate *st = xcalloc(1, sizeof(*st));
	struct timespec now;
	char created[64], owner[32];
	_cleanup_free_ char *owner_s = NULL;
	int r;

	clock_gettime(CLOCK_REALTIME, &now);
	format_rfc3339(created, sizeof(created), &now);
	snprintf(owner, sizeof(owner), "%s", getuid() == 0 ? "root" : "");
	if (!owner[0])
		snprintf(owner, sizeof(owner), "%u", getuid());
	st->id = (char *)l->o->id;
	st->pid = l->pid;
	st->pid_start = proc_start_time(l->pid);
	st->bundle = l->bundle;
	st->rootfs = l->rootfs;
	st->created = created;
	st->owner = owner;
	st->annotations = l->cfg->annotations;
	st->cgroup = l->cg.path;
	st->cgroup_boundary = l->cg.boundary;
	st->cgroup_created = l->cg.created;
	/* exec needs the container's process defaults, and hooks run later. */
	st->saved_config = true;
	/* start and delete parse the saved config only for these. */
	st->poststart = l->cfg->hooks.n[HOOK_POSTSTART] > 0;
	st->poststop = l->cfg->hooks.n[HOOK_POSTSTOP] > 0;
	{
		/* The very text that was parsed: not read again, so what exec and the
		 * hooks see is what the container was made from. */
		_cleanup_free_ char *dst = xasprintf("%s/config.json", l->ct.dir);
		if ((r = write_file_atomic(dst, l->cfg->text, l->cfg->text_len, 0600)) < 0) {
			free(st);
			errno = -r;
			return uerr_sys(e, "saving config.json for the hooks");
		}
	}
	l->ct.st = st;
	r = container_save(&l->ct, e);
	l->ct.st = NULL;
	free(st);
	if (r < 0)
		return r;
	if (l->o->pid_file && (r = write_pid_file(l->o->pid_file, l->pid, e)) < 0)
		return r;
	/* From here the state dir is the truth: reload what we just wrote. */
	_cleanup_free_ char *text = NULL;
	if (read_file_at(l->ct.dirfd, "state.json", &text, NULL) < 0 || !(l->ct.st = state_parse(text, e)))
		return uerr_set(e, EIO, "re-reading %s/state.json", l->ct.dir);
	return 0;
}
/* The host id that container id 0 maps to, or -1. */
static long long host_root(const struct oci_idmap *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (m[i].container_id == 0 && m[i].size > 0)
			return m[i].host_id;
	return -1;
}

/*
 * A container with its own user and cgroup namespaces gets its cgroup
 * delegated to its root, as systemd delegates to a user: it may then make
 * and manage children below it, and nothing above (nsdelegate).
 */
static int delegate_cgroup(struct launch *l, struct uerr *e)
{
	const struct oci_linux *lx = &l->cfg->linux;
	const struct oci_namespace *user = config_ns(l->cfg, CLONE_NEWUSER);
	long long uid = host_root(lx->uid_mappings, lx->n_uid_mappings);
	long long gid = host_root(lx->gid_mappings, lx->n_gid_mappings);

	if (!user || user->path || !config_has_ns(l->cfg, CLONE_NEWCGROUP) || uid < 0 || gid < 0 ||
	    l->cg.dirfd < 0)
		return 0;
	return cg_delegate(&l->cg, (uid_t)uid, (gid_t)gid, e);
}


int launch_begin(struct launch *l, struct uerr *e)
{
	const struct launch_opts *o = l->o;
	int r;

	l->sync[0] = l->sync[1] = l->fifo_fd = l->pidfd = l->console_master = -1;
	l->cg.dirfd = -1;
	l->ct.dirfd = -1;
	l->bundle = realpath(o->bundle ? o->bundle : ".", NULL);
	if (!l->bundle)
		return uerr_sys(e, "--bundle %s", o->bundle ? o->bundle : ".");
	if ((r = container_check_id(o->id, e)) < 0 || (r = config_load(l->bundle, &l->cfg, e)) < 0 ||
	    (r = resolve_paths(l, e)) < 0 || (r = check_config(l, e)) < 0)
		return r;
	plan_namespaces(l);
	add_device_rules(l);
	if ((r = container_new(o->root, o->id, &l->ct, e)) < 0)
		return r;
	if ((r = cg_prepare(&l->cg, G.rootless > 0, l->cfg->linux.cgroups_path, o->id, l->cfg->linux.resources, e)) < 0)
		return r;
	if (!l->cg.path)
		log_warn("%s runs without a cgroup of its own: %s is not delegated to uid %u", o->id,
			 l->cg.boundary, (unsigned)geteuid());
	return delegate_cgroup(l, e);
}

int launch_create(struct launch *l, struct uerr *e)
{
	_cleanup_free_ char *fifo = NULL;
	int r;

	if ((r = launch_begin(l, e)) < 0)
		return r;
	fifo = xasprintf("%s/exec.fifo", l->ct.dir);
	/* Writable by the container's user, whoever that is (it opens it last). */
	if (mkfifo(fifo, 0622) < 0 || chmod(fifo, 0622) < 0)
		return uerr_sys(e, "creating %s", fifo);
	l->fifo_fd = open(fifo, O_PATH | O_CLOEXEC);
	if (l->fifo_fd < 0)
		return uerr_sys(e, "opening %s", fifo);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, l->sync) < 0)
		return uerr_sys(e, "socketpair");
	if ((r = idmap_prepare(l->cfg, &l->idmapped, e)) < 0)
		return r;
	if (l->cfg->linux.seccomp && (r = seccomp_prepare(l->cfg->linux.seccomp, l->o->root, &l->seccomp, e)) < 0)
		return r;
	l->child = do_clone3(l, &l->pidfd);
	if (l->child < 0) {
		l->child = 0;
		return uerr_sys(e, "clone3 into %s with the container's namespaces", l->cg.path);
	}
	if (l->child == 0) {
		close(l->sync[0]);
		init_main(l);
	}
	close(l->sync[1]);
	l->sync[1] = -1;
	/* The init has its copies of the idmapped trees. */
	idmap_release(l->idmapped, l->cfg->n_mounts);
	l->idmapped = NULL;
	l->pid = l->child;
	if ((r = serve_child(l, e)) < 0)
		return r;
	return launch_record(l, e);
}

void launch_free(struct launch *l)
{
	if (l->sync[0] >= 0)
		close(l->sync[0]);
	if (l->fifo_fd >= 0)
		close(l->fifo_fd);
	if (l->pidfd >= 0)
		close(l->pidfd);
	if (l->console_master >= 0)
		close(l->console_master);
	l->sync[0] = l->fifo_fd = l->pidfd = l->console_master = -1;
	cg_release(&l->cg);
	container_close(&l->ct);
	if (l->cfg)
		idmap_release(l->idmapped, l->cfg->n_mounts);
	l->idmapped = NULL;
	seccomp_bpf_free(&l->seccomp);
	config_free(l->cfg);
	free(l->bundle);
	free(l->rootfs);
	l->cfg = NULL;
	l->bundle = l->rootfs = NULL;
}

void launch_cleanup(struct launch *l)
{
	struct uerr ignored;

	if (l->pid > 0)
		kill(l->pid, SIGKILL);
	if (l->child > 0)
		waitpid(l->child, NULL, 0);
	if (l->cg.path) {
		cg_kill(l->cg.path, &ignored);
		cg_wait_empty(l->cg.path, 5000, &ignored);
		cg_remove(l->cg.path, l->cg.created, &ignored);
	}
	if (l->ct.dir)
		state_dir_remove(l->ct.dir);
}
