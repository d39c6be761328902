/*
 * checkpoint and restore with CRIU, through libcriu.
 *
 * The cgroup2 way: CRIU freezes the container through its cgroup.freeze, and
 * a restore runs CRIU from a helper cloned straight into the container's new
 * cgroup (CLONE_INTO_CGROUP), so the restored tree is born there. What the
 * container sees from outside its rootfs is declared to CRIU: bind mounts
 * from the host and the host's device nodes as external mounts, stdio that
 * leads outside as external files or pipes; two small files in the image
 * directory carry those keys from checkpoint to restore.
 */
#ifdef HAVE_CRIU
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <criu/criu.h>
#include <criu/rpc.pb-c.h>
#include "lib/util.h"
#include "runtime/commands.h"
#include "runtime/criu.h"
#include "runtime/log.h"

#define MOUNTS_FILE "unirun-mounts"  /* "key source" per external mount */
#define STDIO_FILE "unirun-stdio"    /* "fd key" per stdio fd leading outside */

typedef criu_opts *criu_optsp;
static void criu_optsp_free(criu_optsp *o)
{
	if (*o)
		criu_local_free_opts(*o);
}
#define _cleanup_criu_ __attribute__((cleanup(criu_optsp_free)))

/*
 * libcriu 3.17 has no setter for empty_ns. Its criu_opts begins with the
 * CriuOpts request it sends (lib/c/criu.c, unchanged since 2.x), so the
 * field is set there.
 */
static CriuOpts *criu_rpc(criu_opts *o)
{
	return *(CriuOpts **)o;
}

/* The first "Error (...)" line of a CRIU log (the cause; the last one is
 * its summary, "Dumping FAILED."), to quote in our message. */
static char *criu_log_error(const char *dir, const char *log)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", dir, log);
	_cleanup_free_ char *text = NULL;
	char *last = NULL, *line, *save;

	if (read_file_at(AT_FDCWD, path, &text, NULL) < 0)
		return xasprintf("it wrote no %s", path);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!last && (strstr(line, "Error (") || strstr(line, "Error:")))
			last = line;
	return last ? xasprintf("%s: %s", path, last) : xasprintf("see %s", path);
}

static int criu_failed(int r, const char *what, const char *work, const char *log, struct uerr *e)
{
	_cleanup_free_ char *why = criu_log_error(work, log);

	/* libcriu: -ECOMM when criu could not be run or talked to, -EBADE
	 * when it ran and failed. */
	if (r == -ECOMM)
		return uerr_set(e, ECOMM, "%s: criu ended without an answer (is it installed? --criu names it): %s",
				what, why);
	return uerr_set(e, r < 0 ? -r : EIO, "%s failed: %s", what, why);
}

static int open_dir(const char *path, bool make, const char *flag, struct uerr *e)
{
	int fd;

	if (make && mkdir_p(path, 0700) < 0)
		return uerr_sys(e, "%s %s", flag, path);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? uerr_sys(e, "%s %s", flag, path) : fd;
}

/* The options checkpoint and restore share. */
static int cr_common(criu_opts **out, const struct cr_opts *o, int img, int work, const char *log, struct uerr *e)
{
	criu_opts *co = NULL;

	if (criu_local_init_opts(&co) < 0)
		return uerr_set(e, ENOMEM, "libcriu: cannot allocate its options");
	*out = co;
	if (G.criu && criu_local_set_service_binary(co, G.criu) < 0)
		return uerr_set(e, ENOMEM, "libcriu: --criu %s", G.criu);
	criu_local_set_images_dir_fd(co, img);
	criu_local_set_work_dir_fd(co, work);
	criu_local_set_log_level(co, 4);
	if (criu_local_set_log_file(co, log) < 0)
		return uerr_set(e, ENOMEM, "libcriu: log file");
	criu_local_set_tcp_established(co, o->tcp_established);
	criu_local_set_ext_unix_sk(co, o->ext_unix_sk);
	criu_local_set_shell_job(co, o->shell_job);
	criu_local_set_file_locks(co, o->file_locks);
	criu_local_set_auto_dedup(co, o->auto_dedup);
	criu_local_set_manage_cgroups(co, true);
	criu_local_set_manage_cgroups_mode(co, (enum criu_cg_mode)(o->cg_mode == CR_CG_DEFAULT ? CR_CG_SOFT : o->cg_mode));
	if (o->empty_ns) {
		criu_rpc(co)->has_empty_ns = true;
		criu_rpc(co)->empty_ns = o->empty_ns;
	}
	return 0;
}

/* What CRIU can't take faithfully, said before anything is frozen. */
static int cr_refuse(const struct oci_config *cfg, bool rootless, struct uerr *e)
{
	static const struct {
		int type;
		const char *name;
	} ns[] = { { CLONE_NEWNET, "network" }, { CLONE_NEWIPC, "ipc" }, { CLONE_NEWUTS, "uts" },
		   { CLONE_NEWPID, "pid" }, { CLONE_NEWUSER, "user" }, { CLONE_NEWCGROUP, "cgroup" },
		   { CLONE_NEWNS, "mount" }, { CLONE_NEWTIME, "time" } };

	if (rootless)
		return uerr_set(e, EPERM, "rootless containers can't be checkpointed (CRIU needs root)");
	if (cfg->process && cfg->process->terminal)
		return uerr_set(e, EOPNOTSUPP, "config.json: process.terminal: a container with a terminal "
				"can't be checkpointed by unirun yet (its pty master lives outside)");
	for (size_t i = 0; i < cfg->linux.n_namespaces; i++) {
		const struct oci_namespace *n = &cfg->linux.namespaces[i];
		const char *name = "?";
		if (!n->path)
			continue;
		for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++)
			if (ns[k].type == n->type)
				name = ns[k].name;
		return uerr_set(e, EOPNOTSUPP, "config.json: linux.namespaces[%zu]: a joined %s namespace (%s) "
				"can't be declared to CRIU by unirun yet", i, name, n->path);
	}
	return 0;
}

static bool is_bind(const struct oci_mount *m)
{
	if (m->type && !strcmp(m->type, "bind"))
		return true;
	for (size_t i = 0; m->options && m->options[i]; i++)
		if (!strcmp(m->options[i], "bind") || !strcmp(m->options[i], "rbind"))
			return true;
	return false;
}

static const struct oci_mount *config_bind(const struct oci_config *cfg, const char *dest)
{
	for (size_t i = 0; i < cfg->n_mounts; i++)
		if (is_bind(&cfg->mounts[i]) && !strcmp(cfg->mounts[i].destination, dest))
			return &cfg->mounts[i];
	return NULL;
}

/* Filesystems CRIU dumps itself (their contents or nothing to keep). */
static bool criu_dumps_fs(const char *fstype)
{
	static const char *const own[] = { "proc", "sysfs", "tmpfs", "devpts", "mqueue", "cgroup2", "cgroup" };
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (!strcmp(fstype, own[i]))
			return true;
	return false;
}

/*
 * Each mount of the container that comes from the host, with the host path
 * to mount there on restore: the config's bind mounts, and the host's
 * device nodes bound in (a user namespace can't mknod). Anything else from
 * outside has no source unirun could name: an error naming it.
 */
static int external_mounts(pid_t pid, const struct oci_config *cfg, const char *bundle, char **out, struct uerr *e)
{
	char path[64];
	_cleanup_free_ char *info = NULL;
	char *line, *save, *list = xstrdup("");

	snprintf(path, sizeof(path), "/proc/%d/mountinfo", (int)pid);
	if (read_file_at(AT_FDCWD, path, &info, NULL) < 0) {
		free(list);
		return uerr_sys(e, "reading %s", path);
	}
	for (line = strtok_r(info, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char root[4096], mnt[4096], fstype[256];
		const char *dash = strstr(line, " - ");
		const struct oci_mount *m;
		_cleanup_free_ char *src = NULL;
		char *next;

		if (!dash || sscanf(line, "%*d %*d %*s %4095s %4095s", root, mnt) != 2 ||
		    sscanf(dash, " - %255s", fstype) != 1)
			continue;
		if (!strcmp(mnt, "/"))
			continue;
		if ((m = config_bind(cfg, mnt)))
			src = m->source[0] == '/' ? xstrdup(m->source) : xasprintf("%s/%s", bundle, m->source);
		else if (!strcmp(fstype, "devtmpfs") && strcmp(root, "/"))
			src = xasprintf("/dev%s", root);
		else if (criu_dumps_fs(fstype))
			continue;
		else {
			free(list);
			return uerr_set(e, EOPNOTSUPP, "the mount at %s (%s) comes from outside the container and "
					"is none of config.json's mounts: CRIU could not restore it", mnt, fstype);
		}
		next = xasprintf("%s%s %s\n", list, mnt, src);
		free(list);
		list = next;
	}
	*out = list;
	return 0;
}

/* mnt_id of an open fd of pid, from its fdinfo; -1 if unknown. */
static long fd_mnt_id(pid_t pid, int fd)
{
	char path[64];
	_cleanup_free_ char *info = NULL;
	const char *p;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", (int)pid, fd);
	if (read_file_at(AT_FDCWD, path, &info, NULL) < 0 || !(p = strstr(info, "mnt_id:")))
		return -1;
	return strtol(p + 7, NULL, 10);
}

/* Whether mount id `id` is one of pid's (its mount namespace). */
static bool has_mount(pid_t pid, long id)
{
	char path[64], pat[32];
	_cleanup_free_ char *info = NULL;

	snprintf(path, sizeof(path), "/proc/%d/mountinfo", (int)pid);
	snprintf(pat, sizeof(pat), "%ld ", id);
	if (read_file_at(AT_FDCWD, path, &info, NULL) < 0)
		return false;
	for (const char *l = info; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (str_has_prefix(l, pat))
			return true;
	return false;
}

/*
 * The init's stdio: a pipe, or a file on a mount the container doesn't
 * have (the runtime's caller's), is declared external so that a restore
 * can hand over its own fd in its place (runc does the same).
 */
static int external_stdio(criu_opts *co, pid_t pid, char **out, struct uerr *e)
{
	char *list = xstrdup("");

	for (int fd = 0; fd < 3; fd++) {
		char path[64], target[4096], *key = NULL, *next;
		struct stat st;
		ssize_t n;
		long mnt;

		snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)pid, fd);
		n = readlink(path, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = 0;
		if (str_has_prefix(target, "pipe:"))
			key = xstrdup(target);
		else if (target[0] == '/' && stat(path, &st) == 0 && (mnt = fd_mnt_id(pid, fd)) >= 0 &&
			 !has_mount(pid, mnt)) {
			key = xasprintf("file[%lx:%llx]", (unsigned long)mnt, (unsigned long long)st.st_ino);
			if (criu_local_add_external(co, key) < 0) {
				free(key);
				free(list);
				return uerr_set(e, ENOMEM, "libcriu: external %s", target);
			}
		}
		if (!key)
			continue;
		next = xasprintf("%s%d %s\n", list, fd, key);
		free(key);
		free(list);
		list = next;
	}
	*out = list;
	return 0;
}

static int save_in_images(const char *dir, const char *name, const char *text, struct uerr *e)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", dir, name);
	int r = write_file_atomic(path, text, strlen(text), 0600);

	if (r < 0) {
		errno = -r;
		return uerr_sys(e, "writing %s", path);
	}
	return 0;
}

static int do_checkpoint(const struct cr_opts *o, struct container *c, struct uerr *e)
{
	struct oci_config *cfg = NULL;
	_cleanup_close_ int img = -1, work = -1;
	_cleanup_criu_ criu_opts *co = NULL;
	_cleanup_free_ char *mounts = NULL, *stdio = NULL;
	const char *log = o->pre_dump ? "pre-dump.log" : "dump.log";
	pid_t pid;
	enum cstatus s = container_status(c, &pid);
	int r;

	if (s != ST_RUNNING && s != ST_PAUSED)
		return uerr_set(e, EINVAL, "container \"%s\" is %s: only a running container can be checkpointed",
				c->st ? c->st->id : o->lo.id, status_names[s]);
	if ((r = container_config(c, &cfg, e)) < 0)
		return r;
	if (!cfg)
		return uerr_set(e, ENOENT, "container \"%s\" has no saved config.json", c->st->id);
	if ((r = cr_refuse(cfg, c->st->rootless, e)) < 0 ||
	    (r = external_mounts(pid, cfg, c->st->bundle, &mounts, e)) < 0)
		goto out;
	if ((img = r = open_dir(o->image_path, true, "--image-path", e)) < 0 ||
	    (work = r = open_dir(o->work_path, true, "--work-path", e)) < 0 ||
	    (r = cr_common(&co, o, img, work, log, e)) < 0 || (r = external_stdio(co, pid, &stdio, e)) < 0)
		goto out;
	criu_local_set_pid(co, pid);
	criu_local_set_leave_running(co, o->leave_running);
	criu_local_set_track_mem(co, o->pre_dump || o->parent_path);
	if (o->parent_path && criu_local_set_parent_images(co, o->parent_path) < 0) {
		r = uerr_set(e, ENOMEM, "libcriu: --parent-path");
		goto out;
	}
	if (criu_local_set_root(co, c->st->rootfs) < 0 ||
	    (has_cgroup(c->st) && criu_local_set_freeze_cgroup(co, c->st->cgroup) < 0)) {
		r = uerr_set(e, ENOMEM, "libcriu: options");
		goto out;
	}
	for (char *l = mounts, *sp; *l; l = strchr(l, '\n') + 1) {
		char *nl = strchr(l, '\n');
		*nl = 0;
		sp = strchr(l, ' ');
		*sp = 0;
		r = criu_local_add_ext_mount(co, l, l);
		*sp = ' ';
		*nl = '\n';
		if (r < 0) {
			r = uerr_set(e, ENOMEM, "libcriu: external mount");
			goto out;
		}
	}
	if (!o->pre_dump && ((r = save_in_images(o->image_path, MOUNTS_FILE, mounts, e)) < 0 ||
			     (r = save_in_images(o->image_path, STDIO_FILE, stdio, e)) < 0))
		goto out;
	r = o->pre_dump ? criu_local_pre_dump(co) : criu_local_dump(co);
	if (r < 0) {
		r = criu_failed(r, o->pre_dump ? "criu pre-dump" : "criu dump", o->work_path, log, e);
		goto out;
	}
	r = 0;
	/* runc's --status-fd gets a NUL once the images are ready; without lazy
	 * pages (refused) that is when the dump is done. */
	if (o->status_fd >= 0) {
		if (write(o->status_fd, "", 1) != 1)
			r = uerr_sys(e, "--status-fd %d", o->status_fd);
		close(o->status_fd);
	}
out:
	config_free(cfg);
	return r;
}

int cmd_checkpoint(int argc, char **argv)
{
	struct cr_opts o;
	struct container c;
	struct uerr e = { 0 };
	int r;

	if (cr_parse("checkpoint", argc, argv, &o))
		return 1;
	if (container_open(G.root, o.lo.id, &c, &e) < 0)
		return fail("checkpoint: %s", e.msg);
	r = do_checkpoint(&o, &c, &e);
	container_close(&c);
	return r < 0 ? fail("checkpoint %s: %s", o.lo.id, e.msg) : 0;
}

/* "key value" lines of a file in the image dir (missing: none). */
static char *read_keys(const char *dir, const char *name)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", dir, name);
	char *text = NULL;

	if (read_file_at(AT_FDCWD, path, &text, NULL) < 0)
		return xstrdup("");
	return text;
}

/* External mounts from the image, each mounted from the restore bundle's
 * source when its config binds something there, else from where it was. */
static int restore_mounts(criu_opts *co, const struct launch *l, const char *dir, struct uerr *e)
{
	_cleanup_free_ char *text = read_keys(dir, MOUNTS_FILE);
	char *line, *save;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *src = strchr(line, ' ');
		const struct oci_mount *m;
		_cleanup_free_ char *from = NULL;

		if (!src)
			continue;
		*src++ = 0;
		if ((m = config_bind(l->cfg, line)))
			from = m->source[0] == '/' ? xstrdup(m->source) : xasprintf("%s/%s", l->bundle, m->source);
		if (access(from ? from : src, F_OK) < 0)
			return uerr_sys(e, "the checkpoint's mount at %s needs %s", line, from ? from : src);
		if (criu_local_add_ext_mount(co, line, from ? from : src) < 0)
			return uerr_set(e, ENOMEM, "libcriu: external mount");
	}
	return 0;
}

/* The checkpointed stdio that led outside gets ours in its place. */
static int restore_stdio(criu_opts *co, const char *dir, struct uerr *e)
{
	_cleanup_free_ char *text = read_keys(dir, STDIO_FILE);
	char *line, *save;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int fd = atoi(line);
		const char *key = strchr(line, ' ');
		if (!key || fd < 0 || fd > 2)
			continue;
		if (criu_local_add_inherit_fd(co, fd, key + 1) < 0)
			return uerr_set(e, ENOMEM, "libcriu: inherit fd");
	}
	return 0;
}

/* The cgroup as CRIU names it: relative to the cgroup2 mount. */
static const char *cg_rel(const struct cgroup *cg)
{
	size_t n = strlen(cg->mount);
	return cg->path[n] ? cg->path + n : "/";
}

/* In a helper born in the container's cgroup: CRIU (and so the restored
 * tree, its sibling) starts there. The restored init's pid comes back. */
static int restore_in_cgroup(criu_opts *co, const struct launch *l, pid_t *init, struct uerr *e)
{
	struct clone_args args = { .flags = l->cg.dirfd >= 0 ? CLONE_INTO_CGROUP : 0, .exit_signal = SIGCHLD,
				   .cgroup = (uint64_t)l->cg.dirfd };
	int p[2], status;
	pid_t helper;

	if (pipe2(p, O_CLOEXEC) < 0)
		return uerr_sys(e, "pipe");
	helper = (pid_t)syscall(SYS_clone3, &args, sizeof(args));
	if (helper < 0) {
		close(p[0]);
		close(p[1]);
		return uerr_sys(e, "clone3 into %s", l->cg.path);
	}
	if (helper == 0) {
		int r = criu_local_restore_child(co);
		close(p[0]);
		write_all(p[1], &r, sizeof(r));
		_exit(r > 0 ? 0 : 1);
	}
	close(p[1]);
	int r = -EPIPE;
	if (read(p[0], &r, sizeof(r)) != sizeof(r))
		r = -EPIPE;
	close(p[0]);
	waitpid(helper, &status, 0);
	if (r <= 0)
		return r ? r : -EIO;
	*init = r;
	return 0;
}

static int do_restore(const struct cr_opts *o, struct launch *l, struct uerr *e)
{
	_cleanup_close_ int img = -1, work = -1;
	_cleanup_criu_ criu_opts *co = NULL;
	int r;

	if ((r = launch_begin(l, e)) < 0 || (r = cr_refuse(l->cfg, G.rootless > 0, e)) < 0)
		return r;
	if ((img = r = open_dir(o->image_path, false, "--image-path", e)) < 0 ||
	    (work = r = open_dir(o->work_path, true, "--work-path", e)) < 0 ||
	    (r = cr_common(&co, o, img, work, "restore.log", e)) < 0)
		return r;
	if (faccessat(img, "inventory.img", F_OK, 0) < 0)
		return uerr_set(e, ENOENT, "--image-path %s: no checkpoint there (no inventory.img)", o->image_path);
	if ((r = restore_mounts(co, l, o->image_path, e)) < 0 || (r = restore_stdio(co, o->image_path, e)) < 0)
		return r;
	if (criu_local_set_root(co, l->rootfs) < 0 ||
	    (l->cg.path && criu_local_add_cg_root(co, NULL, cg_rel(&l->cg)) < 0))
		return uerr_set(e, ENOMEM, "libcriu: options");
	r = restore_in_cgroup(co, l, &l->pid, e);
	if (r < 0)
		return criu_failed(r, "criu restore", o->work_path, "restore.log", e);
	return launch_record(l, e);
}

/* A stopped container of that id (left by a checkpoint) makes way. */
static int clear_stopped(const char *id, struct uerr *e)
{
	struct container c;
	pid_t pid;
	int r = 0;

	if (container_open(G.root, id, &c, e) < 0)
		return e->code == ENOENT ? 0 : uerr_ret(e);
	if (container_status(&c, &pid) == ST_STOPPED)
		r = container_destroy(&c, e);
	container_close(&c);
	return r;
}

int cmd_restore(int argc, char **argv)
{
	struct cr_opts o;
	struct launch l = { .o = &o.lo };
	struct uerr e = { 0 };
	int r, code;

	if (cr_parse("restore", argc, argv, &o))
		return 1;
	if (o.lo.console_socket)
		return fail("restore: --console-socket: containers with a terminal can't be checkpointed by "
			    "unirun yet, so none is restored with one");
	if (clear_stopped(o.lo.id, &e) < 0)
		return fail("restore %s: %s", o.lo.id, e.msg);
	/* The restored init is the helper's child: it must come back to us. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	r = do_restore(&o, &l, &e);
	if (r < 0) {
		launch_cleanup(&l);
		launch_free(&l);
		return fail("restore %s: %s", o.lo.id, e.msg);
	}
	if (o.lo.detach) {
		launch_free(&l);
		return 0;
	}
	flock(l.ct.dirfd, LOCK_UN);
	code = wait_process(l.pid, -1);
	flock(l.ct.dirfd, LOCK_EX);
	if (container_destroy(&l.ct, &e) < 0)
		log_warn("restore %s: %s", o.lo.id, e.msg);
	launch_free(&l);
	return code;
}
#endif /* HAVE_CRIU */
