#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "lib/util.h"
#include "cgroup/cgroup.h"
#include "runtime/container.h"
#include "runtime/log.h"

const char *const status_names[] = { "creating", "created", "running", "paused", "stopped" };

int container_check_id(const char *id, struct uerr *e)
{
	if (!id || !*id)
		return uerr_set(e, 0, "container id must not be empty");
	if (!strcmp(id, ".") || !strcmp(id, "..") || strlen(id) > 1024 ||
	    strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+-.") != strlen(id))
		return uerr_set(e, 0, "invalid container id \"%s\": use letters, digits, _ + - and .", id);
	return 0;
}

static int lock_dir(struct container *c, struct uerr *e)
{
	c->dirfd = open(c->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->dirfd < 0)
		return uerr_sys(e, "opening %s", c->dir);
	if (flock(c->dirfd, LOCK_EX) < 0)
		return uerr_sys(e, "locking %s", c->dir);
	return 0;
}

int container_new(const char *root, const char *id, struct container *c, struct uerr *e)
{
	int r;

	memset(c, 0, sizeof(*c));
	c->dirfd = -1;
	if ((r = container_check_id(id, e)) < 0)
		return r;
	if (mkdir_p(root, 0711) < 0)
		return uerr_sys(e, "creating the state root %s", root);
	c->dir = xasprintf("%s/%s", root, id);
	/* mkdir is the atomic "claim" of the id: of two creates, one wins. */
	if (mkdir(c->dir, 0711) < 0) {
		r = errno == EEXIST ? uerr_set(e, EEXIST, "container \"%s\" already exists", id)
				    : uerr_sys(e, "creating %s", c->dir);
		free(c->dir);
		c->dir = NULL;
		return r;
	}
	return lock_dir(c, e);
}

int container_open(const char *root, const char *id, struct container *c, struct uerr *e)
{
	_cleanup_free_ char *text = NULL;
	int r;

	memset(c, 0, sizeof(*c));
	c->dirfd = -1;
	if ((r = container_check_id(id, e)) < 0)
		return r;
	c->dir = xasprintf("%s/%s", root, id);
	if (access(c->dir, F_OK) < 0) {
		r = uerr_set(e, ENOENT, "container \"%s\" does not exist", id);
		goto fail;
	}
	if ((r = lock_dir(c, e)) < 0)
		goto fail;
	r = read_file_at(c->dirfd, "state.json", &text, NULL);
	if (r == -ENOENT)
		return 0; /* creating, or a create that died: status says which */
	if (r < 0) {
		errno = -r;
		r = uerr_sys(e, "reading %s/state.json", c->dir);
		goto fail;
	}
	c->st = state_parse(text, e);
	if (!c->st) {
		r = uerr_ret(e);
		goto fail;
	}
	return 0;
fail:
	container_close(c);
	return r;
}

void container_close(struct container *c)
{
	if (c->dirfd >= 0)
		close(c->dirfd);
	c->dirfd = -1;
	state_free(c->st);
	c->st = NULL;
	free(c->dir);
	c->dir = NULL;
}

int container_save(struct container *c, struct uerr *e)
{
	size_t len;
	_cleanup_free_ char *json = state_to_json(c->st, &len);
	_cleanup_free_ char *path = xasprintf("%s/state.json", c->dir);
	int r = write_file_atomic(path, json, len, 0600);

	if (r < 0) {
		errno = -r;
		return uerr_sys(e, "writing %s", path);
	}
	return 0;
}

static bool pid_alive(pid_t pid, unsigned long long start)
{
	if (pid <= 0 || (kill(pid, 0) < 0 && errno == ESRCH))
		return false;
	/* A zombie init is gone for our purposes; a recycled pid has another start. */
	unsigned long long now = proc_start_time(pid);
	if (!now || (start && now != start))
		return false;
	char path[64], *buf = NULL;
	bool zombie = false;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_file_at(AT_FDCWD, path, &buf, NULL) == 0) {
		char *p = strrchr(buf, ')');
		zombie = p && (p[2] == 'Z' || p[2] == 'X');
	}
	free(buf);
	return !zombie;
}

enum cstatus container_status(const struct container *c, pid_t *pid)
{
	*pid = 0;
	if (!c->st)
		return ST_CREATING;
	if (!pid_alive(c->st->pid, c->st->pid_start))
		return ST_STOPPED;
	*pid = c->st->pid;
	if (faccessat(c->dirfd, "exec.fifo", F_OK, 0) == 0)
		return ST_CREATED;
	if (has_cgroup(c->st) && cg_frozen(c->st->cgroup))
		return ST_PAUSED;
	return ST_RUNNING;
}

int container_config(const struct container *c, struct oci_config **cfg, struct uerr *e)
{
	_cleanup_free_ char *text = NULL;
	int r;

	*cfg = NULL;
	if (!c->st || !c->st->saved_config)
		return 0;
	r = read_file_at(c->dirfd, "config.json", &text, NULL);
	if (r < 0) {
		errno = -r;
		return uerr_sys(e, "reading %s/config.json", c->dir);
	}
	*cfg = config_parse(text, "config.json", e);
	return *cfg ? 0 : uerr_ret(e);
}

char *container_state_json(const struct container *c, const char *status, pid_t pid)
{
	yajl_gen g = yajl_gen_alloc(NULL);

	state_gen_oci(g, c->st, status, pid);
	return jg_finish(g, NULL);
}

void state_dir_remove(const char *dir)
{
	_cleanup_closedir_ DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.' || (de->d_name[1] && strcmp(de->d_name, "..")))
			unlinkat(dirfd(d), de->d_name, 0);
	rmdir(dir);
}

/* No cgroup to kill: SIGKILL the init (its pid namespace goes with it) and
 * wait on its pidfd for it to be gone. */
static int kill_init(struct container *c, struct uerr *e)
{
	pid_t pid;

	if (container_status(c, &pid) == ST_STOPPED || pid <= 0)
		return 0;
	_cleanup_close_ int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0)
		return errno == ESRCH ? 0 : uerr_sys(e, "pidfd_open %d", (int)pid);
	if (syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0) < 0 && errno != ESRCH)
		return uerr_sys(e, "killing the init %d", (int)pid);
	struct pollfd p = { .fd = pidfd, .events = POLLIN };
	if (poll(&p, 1, 10000) == 0)
		return uerr_set(e, ETIMEDOUT, "the init %d did not die", (int)pid);
	return 0;
}

int container_destroy(struct container *c, struct uerr *e)
{
	struct oci_config *cfg = NULL;
	pid_t pid;
	int r = 0;

	if (c->st && !has_cgroup(c->st) && (r = kill_init(c, e)) < 0)
		return r;
	if (has_cgroup(c->st)) {
		if (container_status(c, &pid) != ST_STOPPED || cg_populated(c->st->cgroup)) {
			if (cg_kill(c->st->cgroup, e) < 0)
				return uerr_ret(e);
		}
		/* No release agent: populated 0 in cgroup.events says everyone is gone. */
		if ((r = cg_wait_empty(c->st->cgroup, 10000, e)) < 0)
			return r;
		if ((r = cg_remove(c->st->cgroup, c->st->cgroup_created, e)) < 0)
			return r;
	}
	if (c->st && c->st->poststop && container_config(c, &cfg, e) == 0 && cfg) {
		_cleanup_free_ char *json = container_state_json(c, "stopped", 0);
		struct uerr he;
		/* poststop failures are logged, and the container goes anyway (spec). */
		if (hooks_run(&cfg->hooks, HOOK_POSTSTOP, json, &he) < 0)
			log_warn("%s", he.msg);
	}
	config_free(cfg);
	state_dir_remove(c->dir);
	return 0;
}
