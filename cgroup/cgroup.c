/* cgroup2 paths, the delegated subtree, cgroup.events, freeze, kill, removal. */
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/magic.h>
#include "lib/util.h"
#include "cgroup/cgroup.h"
#include "cgroup/resources.h"

int cg_mount(const char **out, struct uerr *e)
{
	static const char *const candidates[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified" };
	struct statfs st;

	for (size_t i = 0; i < 2; i++)
		if (statfs(candidates[i], &st) == 0 && st.f_type == CGROUP2_SUPER_MAGIC) {
			*out = candidates[i];
			return 0;
		}
	return uerr_set(e, ENOENT, "no cgroup2 mount at /sys/fs/cgroup or /sys/fs/cgroup/unified "
			"(unirun needs the unified hierarchy)");
}

int cg_self(char **out, struct uerr *e)
{
	return cg_of(0, out, e);
}

int cg_of(pid_t pid, char **out, struct uerr *e)
{
	_cleanup_free_ char *buf = NULL;
	char file[64], *line;
	int r;

	if (pid)
		snprintf(file, sizeof(file), "/proc/%d/cgroup", (int)pid);
	else
		snprintf(file, sizeof(file), "/proc/self/cgroup");
	if ((r = read_file_at(AT_FDCWD, file, &buf, NULL)) < 0) {
		errno = -r;
		return uerr_sys(e, "reading %s", file);
	}
	for (line = buf; line && *line;) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		if (str_has_prefix(line, "0::")) {
			*out = xstrdup(line + 3);
			return 0;
		}
		line = nl ? nl + 1 : NULL;
	}
	return uerr_set(e, ENOENT, "%s has no cgroup2 entry", file);
}

static const char *xasprintf_tmp(const char *a, const char *b)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s%s", a, b);
	return buf;
}

/* Absolute filesystem path of the container's cgroup and its delegation
 * boundary: the parent of the cgroup as given (or the caller's own cgroup for
 * the default path). */
static int cg_resolve(struct cgroup *cg, const char *mount, const char *cgroups_path,
		      const char *id, struct uerr *e)
{
	_cleanup_free_ char *self = NULL;
	_cleanup_free_ char *rel = NULL;
	char *slash;
	int r;

	if (cgroups_path && strchr(cgroups_path, ':') && cgroups_path[0] != '/')
		return uerr_set(e, 0, "linux.cgroupsPath: \"%s\" is a systemd slice:prefix:name path; "
				"unirun has no systemd cgroup driver (drop --systemd-cgroup style paths)",
				cgroups_path);
	if (cgroups_path && (strstr(cgroups_path, "..") || !cgroups_path[0]))
		return uerr_set(e, 0, "linux.cgroupsPath: \"%s\" is not a valid cgroup path", cgroups_path);
	if (cgroups_path && cgroups_path[0] == '/') {
		rel = xstrdup(cgroups_path);
	} else {
		if ((r = cg_self(&self, e)) < 0)
			return r;
		rel = cgroups_path ? xasprintf("%s/%s", strcmp(self, "/") ? self : "", cgroups_path)
				   : xasprintf("%s/unirun/%s", strcmp(self, "/") ? self : "", id);
	}
	/* Squash trailing and doubled slashes. */
	for (char *p = rel; *p; p++)
		while (p[0] == '/' && (p[1] == '/' || p[1] == '\0') && p != rel)
			memmove(p, p + 1, strlen(p));
	if (!strcmp(rel, "/"))
		return uerr_set(e, 0, "linux.cgroupsPath: the root cgroup cannot hold a container");
	cg->path = xasprintf("%s%s", mount, rel);
	slash = strrchr(rel, '/');
	if (!cgroups_path) {
		/* The default puts unirun/<id> under our own cgroup: that is the boundary. */
		slash = strrchr(rel, '/');
		*slash = '\0';
		slash = strrchr(rel, '/');
	}
	*slash = '\0';
	/* Levels of an explicit path that do not exist yet are ours to make (and
	 * to remove): the boundary is the deepest level that already exists. */
	for (struct stat st; cgroups_path && *rel && stat(xasprintf_tmp(mount, rel), &st) < 0;) {
		slash = strrchr(rel, '/');
		*slash = '\0';
	}
	cg->boundary = xasprintf("%s%s", mount, rel);
	cg->mount = xstrdup(mount);
	return 0;
}

/* mkdir every missing level below the boundary; count those we made. */
static int cg_make_dirs(struct cgroup *cg, struct uerr *e)
{
	size_t blen = strlen(cg->boundary);
	_cleanup_free_ char *p = xstrdup(cg->path);
	struct stat st;

	if (stat(cg->boundary, &st) < 0)
		return uerr_sys(e, "cgroup %s", cg->boundary);
	for (char *s = p + blen + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, 0755) == 0)
			cg->created++;
		else if (errno != EEXIST)
			return uerr_sys(e, "creating cgroup %s", p);
		else if (cg->created)
			return uerr_set(e, EEXIST, "cgroup %s appeared while creating it", p);
		*s = c;
		if (!c)
			break;
	}
	return 0;
}

void cg_release(struct cgroup *cg)
{
	if (cg->dirfd >= 0)
		close(cg->dirfd);
	cg->dirfd = -1;
	free(cg->mount);
	free(cg->path);
	free(cg->boundary);
	cg->mount = cg->path = cg->boundary = NULL;
}

/* Delegated to us, as systemd's Delegate=yes or an administrator's chown
 * makes it: we may make children and move processes. */
static bool delegated(const char *dir)
{
	_cleanup_free_ char *procs = xasprintf("%s/cgroup.procs", dir);
	_cleanup_free_ char *ctl = xasprintf("%s/cgroup.subtree_control", dir);

	return access(dir, W_OK) == 0 && access(procs, W_OK) == 0 && access(ctl, W_OK) == 0;
}

/*
 * Rootless without a delegated cgroup: the container runs in unirun's own
 * cgroup, which is fine as long as nothing needs a controller; a config that
 * asks for limits is refused, naming what is missing.
 */
static int no_delegation(struct cgroup *cg, unsigned need, struct uerr *e)
{
	char names[128] = "";

	for (int i = 0; i < CTRL_COUNT; i++)
		if (need & (1u << i))
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 names[0] ? ", " : "", ctrl_names[i]);
	if (need)
		return uerr_set(e, EACCES, "linux.resources needs the %s controller%s, but %s is not "
				"delegated to uid %u (run unirun from a delegated cgroup, e.g. "
				"systemd-run --user --scope -p Delegate=yes)", names,
				strchr(names, ',') ? "s" : "", cg->boundary, (unsigned)geteuid());
	free(cg->path);
	cg->path = NULL;
	return 0;
}

int cg_prepare(struct cgroup *cg, bool rootless, const char *cgroups_path, const char *id,
	       const struct resources *res, struct uerr *e)
{
	const char *mount;
	unsigned need = 0;
	int r;

	cg->dirfd = -1;
	cg->created = 0;
	if ((r = res_controllers(res, &need, e)) < 0)
		return r;
	if ((r = cg_mount(&mount, e)) < 0 || (r = cg_resolve(cg, mount, cgroups_path, id, e)) < 0)
		return r;
	if (rootless && !delegated(cg->boundary))
		return no_delegation(cg, need, e);
	if ((r = cg_make_dirs(cg, e)) < 0)
		goto fail;
	/* The shared "unirun" level of the default path is never ours to remove. */
	if (!cgroups_path && cg->created > 1)
		cg->created = 1;
	if (!cg->created && cg_populated(cg->path)) {
		r = uerr_set(e, EBUSY, "cgroup %s already holds processes", cg->path);
		goto fail;
	}
	if ((r = res_enable(cg->boundary, cg->path, need, e)) < 0)
		goto fail;
	cg->dirfd = open(cg->path, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	if (cg->dirfd < 0) {
		r = uerr_sys(e, "opening cgroup %s", cg->path);
		goto fail;
	}
	if (res && (r = res_apply(cg->dirfd, cg->path, res, false, e)) < 0)
		goto fail;
	return 0;
fail:
	if (cg->created) {
		struct uerr ignored;
		cg_remove(cg->path, cg->created, &ignored);
	}
	cg_release(cg);
	return r;
}

/*
 * Hand the container's cgroup to its own root (a user namespace's uid 0):
 * the directory and the files the kernel lists as delegatable, so a runtime
 * in the container can make and fill its own children, and nothing above.
 */
int cg_delegate(const struct cgroup *cg, uid_t uid, gid_t gid, struct uerr *e)
{
	_cleanup_free_ char *list = NULL;
	char *save = NULL;

	if (fchownat(cg->dirfd, "", uid, gid, AT_EMPTY_PATH) < 0)
		return uerr_sys(e, "chown of cgroup %s to %u:%u", cg->path, uid, gid);
	if (read_file_at(AT_FDCWD, "/sys/kernel/cgroup/delegate", &list, NULL) < 0)
		list = xstrdup("cgroup.procs\ncgroup.threads\ncgroup.subtree_control\n");
	for (char *f = strtok_r(list, "\n", &save); f; f = strtok_r(NULL, "\n", &save))
		if (fchownat(cg->dirfd, f, uid, gid, 0) < 0 && errno != ENOENT)
			return uerr_sys(e, "chown of %s/%s to %u:%u", cg->path, f, uid, gid);
	return 0;
}

long long cg_keyed_in(const char *buf, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, n) && p[n] == ' ')
			return atoll(p + n + 1);
	return -1;
}

long long cg_keyed(const char *path, const char *file, const char *key)
{
	_cleanup_free_ char *f = xasprintf("%s/%s", path, file);
	_cleanup_free_ char *buf = NULL;

	if (read_file_at(AT_FDCWD, f, &buf, NULL) < 0)
		return -1;
	return cg_keyed_in(buf, key);
}

static int events_field(const char *path, const char *key)
{
	return (int)cg_keyed(path, "cgroup.events", key);
}

bool cg_populated(const char *path)
{
	return events_field(path, "populated") == 1;
}

bool cg_frozen(const char *path)
{
	return events_field(path, "frozen") == 1;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* cgroup.events raises POLLPRI on change: poll it instead of sleeping. */
static int wait_event(const char *path, const char *key, int want, int timeout_ms, struct uerr *e)
{
	_cleanup_free_ char *f = xasprintf("%s/cgroup.events", path);
	_cleanup_close_ int fd = open(f, O_RDONLY | O_CLOEXEC);
	long long deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;

	if (fd < 0)
		return errno == ENOENT ? 0 : uerr_sys(e, "opening %s", f);
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLPRI };
		int v = events_field(path, key), left;

		if (v == want || v < 0)
			return 0;
		left = deadline < 0 ? -1 : (int)(deadline - now_ms());
		if (deadline >= 0 && left <= 0)
			return uerr_set(e, ETIMEDOUT, "timed out waiting for %s %d in %s", key, want, f);
		if (poll(&pfd, 1, left) < 0 && errno != EINTR)
			return uerr_sys(e, "poll %s", f);
		/* Re-arm: the next POLLPRI comes after a read from the start. */
		char buf[256];
		(void)!pread(fd, buf, sizeof(buf), 0);
	}
}

int cg_wait_empty(const char *path, int timeout_ms, struct uerr *e)
{
	return wait_event(path, "populated", 0, timeout_ms, e);
}

int cg_signal_all(const char *path, int sig, struct uerr *e)
{
	_cleanup_free_ int *pids = NULL;
	size_t n = 0;
	int r = cg_pids(path, &pids, &n, e);

	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++)
		if (kill(pids[i], sig) < 0 && errno != ESRCH)
			return uerr_sys(e, "kill %d", pids[i]);
	return 0;
}

int cg_kill(const char *path, struct uerr *e)
{
	_cleanup_free_ char *f = xasprintf("%s/cgroup.kill", path);
	int r = write_file_at(AT_FDCWD, f, "1", 1);

	if (r == 0 || (r == -ENOENT && access(path, F_OK) < 0))
		return 0;
	if (r != -ENOENT) {
		errno = -r;
		return uerr_sys(e, "writing %s", f);
	}
	/* Kernels before 5.14: freeze, signal everyone, thaw. */
	cg_freeze(path, true, e);
	r = cg_signal_all(path, SIGKILL, e);
	cg_freeze(path, false, e);
	return r;
}

int cg_freeze(const char *path, bool freeze, struct uerr *e)
{
	_cleanup_free_ char *f = xasprintf("%s/cgroup.freeze", path);
	int r = write_file_at(AT_FDCWD, f, freeze ? "1" : "0", 1);

	if (r < 0) {
		errno = -r;
		return uerr_sys(e, "writing %s", f);
	}
	return wait_event(path, "frozen", freeze ? 1 : 0, 10000, e);
}

static int collect_pids(const char *path, int **pids, size_t *n, size_t *cap, struct uerr *e)
{
	_cleanup_free_ char *f = xasprintf("%s/cgroup.procs", path);
	_cleanup_free_ char *buf = NULL;
	_cleanup_closedir_ DIR *d = NULL;
	struct dirent *de;
	int r = read_file_at(AT_FDCWD, f, &buf, NULL);

	if (r == -ENOENT)
		return 0;
	if (r < 0) {
		errno = -r;
		return uerr_sys(e, "reading %s", f);
	}
	for (char *p = buf; *p;) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		if (*n == *cap)
			*pids = xrealloc(*pids, (*cap = *cap ? *cap * 2 : 16) * sizeof(int));
		(*pids)[(*n)++] = (int)v;
		p = *end ? end + 1 : end;
	}
	d = opendir(path);
	while (d && (de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		_cleanup_free_ char *sub = xasprintf("%s/%s", path, de->d_name);
		if ((r = collect_pids(sub, pids, n, cap, e)) < 0)
			return r;
	}
	return 0;
}

int cg_pids(const char *path, int **pids, size_t *n, struct uerr *e)
{
	size_t cap = 0;

	*pids = NULL;
	*n = 0;
	return collect_pids(path, pids, n, &cap, e);
}

static int remove_tree(const char *path, struct uerr *e)
{
	_cleanup_closedir_ DIR *d = opendir(path);
	struct dirent *de;

	if (!d)
		return errno == ENOENT ? 0 : uerr_sys(e, "opening cgroup %s", path);
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		_cleanup_free_ char *sub = xasprintf("%s/%s", path, de->d_name);
		int r = remove_tree(sub, e);
		if (r < 0)
			return r;
	}
	if (rmdir(path) < 0 && errno != ENOENT) {
		/* A dying cgroup can stay busy for a moment after populated 0. */
		if (errno == EBUSY && cg_wait_empty(path, 2000, e) == 0 && rmdir(path) == 0)
			return 0;
		return uerr_sys(e, "removing cgroup %s", path);
	}
	return 0;
}

int cg_remove(const char *path, int created, struct uerr *e)
{
	_cleanup_free_ char *p = xstrdup(path);
	int r;

	if (created <= 0)
		return 0;
	if ((r = remove_tree(p, e)) < 0)
		return r;
	/* The parents we made, as long as nobody else put something there. */
	for (int i = 1; i < created; i++) {
		char *slash = strrchr(p, '/');
		if (!slash)
			break;
		*slash = '\0';
		if (rmdir(p) < 0 && errno != ENOENT)
			break;
	}
	return 0;
}
