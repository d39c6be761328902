/* /dev: the default devices every container gets, linux.devices, and the
 * standard links. As root they are made with mknod; in a user namespace,
 * where mknod is not allowed, the host's nodes are bind mounted. */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "lib/util.h"
#include "ns/mountapi.h"
#include "ns/ns.h"

static const struct oci_device default_devices[] = {
	{ .type = 'c', .path = "/dev/null", .major = 1, .minor = 3 },
	{ .type = 'c', .path = "/dev/zero", .major = 1, .minor = 5 },
	{ .type = 'c', .path = "/dev/full", .major = 1, .minor = 7 },
	{ .type = 'c', .path = "/dev/random", .major = 1, .minor = 8 },
	{ .type = 'c', .path = "/dev/urandom", .major = 1, .minor = 9 },
	{ .type = 'c', .path = "/dev/tty", .major = 5, .minor = 0 },
};

static const char *const links[][2] = {
	{ "/proc/self/fd", "/dev/fd" },     { "/proc/self/fd/0", "/dev/stdin" },
	{ "/proc/self/fd/1", "/dev/stdout" }, { "/proc/self/fd/2", "/dev/stderr" },
	{ "pts/ptmx", "/dev/ptmx" },
};

/* The directory fd and the last component of path, creating the parents. */
static int parent_of(int rootfd, const char *path, const char **name, struct uerr *e)
{
	_cleanup_free_ char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');

	*name = strrchr(path, '/') + 1;
	*slash = '\0';
	return mkpath_in_root(rootfd, dir[0] ? dir : "/", false, e);
}

static int bind_host_node(int rootfd, const struct oci_device *d, struct uerr *e)
{
	_cleanup_close_ int target = mkpath_in_root(rootfd, d->path, true, e);
	_cleanup_close_ int tree = -1;

	if (target < 0)
		return target;
	tree = sys_open_tree(AT_FDCWD, d->path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (tree < 0)
		return uerr_sys(e, "binding the host's %s (no mknod in a user namespace)", d->path);
	if (sys_move_mount(tree, "", target, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return uerr_sys(e, "binding the host's %s", d->path);
	return 0;
}

static int make_node(int rootfd, const struct oci_device *d, const char *what, struct uerr *e)
{
	_cleanup_close_ int dirfd = -1;
	const char *name;
	mode_t type = d->type == 'b' ? S_IFBLK : d->type == 'p' ? S_IFIFO : S_IFCHR;
	mode_t mode = d->file_mode.set ? (mode_t)d->file_mode.v : 0666;
	_cleanup_close_ int fd = -1;

	if ((dirfd = parent_of(rootfd, d->path, &name, e)) < 0)
		return uerr_prefix(e, "%s", what);
	/* O_PATH fds can't be mknod'ed into: reopen the directory. */
	_cleanup_close_ int dfd = openat(dirfd, ".", O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	if (dfd < 0)
		return uerr_sys(e, "%s: %s", what, d->path);
	unlinkat(dfd, name, 0);
	if (mknodat(dfd, name, type | (mode & 07777), makedev((unsigned)d->major, (unsigned)d->minor)) < 0)
		return uerr_sys(e, "%s: mknod %s", what, d->path);
	fd = openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return uerr_sys(e, "%s: %s", what, d->path);
	/* mknod honours the umask; the spec's fileMode is exact. */
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (chmod(proc, mode & 07777) < 0)
		return uerr_sys(e, "%s: chmod %s", what, d->path);
	if ((d->uid.set || d->gid.set) &&
	    fchownat(fd, "", d->uid.set ? (uid_t)d->uid.v : (uid_t)-1, d->gid.set ? (gid_t)d->gid.v : (gid_t)-1,
		     AT_EMPTY_PATH) < 0)
		return uerr_sys(e, "%s: chown %s", what, d->path);
	return 0;
}

static int add_device(const struct rootfs_ctx *rc, int rootfd, const struct oci_device *d, const char *what,
		      struct uerr *e)
{
	if (rc->userns)
		return bind_host_node(rootfd, d, e) < 0 ? uerr_prefix(e, "%s", what) : 0;
	return make_node(rootfd, d, what, e);
}

int devices_setup(const struct rootfs_ctx *rc, int rootfd, struct uerr *e)
{
	const struct oci_linux *l = &rc->cfg->linux;
	char what[64];
	int r;

	for (size_t i = 0; i < sizeof(default_devices) / sizeof(default_devices[0]); i++) {
		bool overridden = false;

		for (size_t j = 0; j < l->n_devices; j++)
			overridden |= !strcmp(l->devices[j].path, default_devices[i].path);
		if (!overridden && (r = add_device(rc, rootfd, &default_devices[i], "default devices", e)) < 0)
			return r;
	}
	for (size_t i = 0; i < l->n_devices; i++) {
		snprintf(what, sizeof(what), "linux.devices[%zu]", i);
		if ((r = add_device(rc, rootfd, &l->devices[i], what, e)) < 0)
			return r;
	}
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		_cleanup_close_ int dirfd = -1;
		const char *name;

		if ((dirfd = parent_of(rootfd, links[i][1], &name, e)) < 0)
			return dirfd;
		_cleanup_close_ int dfd = openat(dirfd, ".", O_DIRECTORY | O_RDONLY | O_CLOEXEC);
		if (dfd < 0 || (symlinkat(links[i][0], dfd, name) < 0 && errno != EEXIST))
			return uerr_sys(e, "creating %s", links[i][1]);
	}
	return 0;
}
