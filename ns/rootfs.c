/* The container's filesystem: the rootfs bind, the configured mounts, pivot_root
 * and what comes after it. Mounts are built detached (open_tree / fsmount) and
 * moved onto a target fd that was resolved inside the rootfs, so no symlink in
 * the image can redirect them. */
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "lib/util.h"
#include "ns/mountapi.h"
#include "ns/ns.h"

static unsigned long long ms_to_attr(unsigned long ms)
{
	unsigned long long a = 0;

	if (ms & MS_RDONLY)
		a |= MOUNT_ATTR_RDONLY;
	if (ms & MS_NOSUID)
		a |= MOUNT_ATTR_NOSUID;
	if (ms & MS_NODEV)
		a |= MOUNT_ATTR_NODEV;
	if (ms & MS_NOEXEC)
		a |= MOUNT_ATTR_NOEXEC;
	if (ms & MS_NODIRATIME)
		a |= MOUNT_ATTR_NODIRATIME;
	if (ms & MS_NOATIME)
		a |= MOUNT_ATTR_NOATIME;
	else if (ms & MS_STRICTATIME)
		a |= MOUNT_ATTR_STRICTATIME;
	return a;
}

/* Set flags and propagation on a detached tree before it is attached. */
static int tree_setattr(int tree, const struct mount_opts *o, const char *what, struct uerr *e)
{
	struct mount_attr a = { 0 };

	a.attr_set = ms_to_attr(o->flags);
	a.attr_clr = ms_to_attr(o->clear) & ~a.attr_set;
	if (o->flags & (MS_NOATIME | MS_STRICTATIME | MS_RELATIME))
		a.attr_clr |= MOUNT_ATTR__ATIME;
	if ((a.attr_set || a.attr_clr) && sys_mount_setattr(tree, "", AT_EMPTY_PATH, &a) < 0)
		return uerr_sys(e, "%s: setting mount flags", what);
	if (o->attr_set || o->attr_clr) {
		struct mount_attr r = { .attr_set = o->attr_set, .attr_clr = o->attr_clr };
		if (sys_mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &r) < 0)
			return uerr_sys(e, "%s: setting recursive mount flags", what);
	}
	if (o->propagation) {
		struct mount_attr p = { .propagation = o->propagation & ~MS_REC };
		if (sys_mount_setattr(tree, "", AT_EMPTY_PATH | ((o->propagation & MS_REC) ? AT_RECURSIVE : 0), &p) < 0)
			return uerr_sys(e, "%s: setting propagation", what);
	}
	return 0;
}

static int attach(int tree, int target, const char *what, struct uerr *e)
{
	if (sys_move_mount(tree, "", target, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return uerr_sys(e, "%s: attaching the mount", what);
	return 0;
}

static int bind_tree(const char *source, bool recursive, const char *what, struct uerr *e)
{
	int tree = sys_open_tree(AT_FDCWD, source, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
				 (recursive ? AT_RECURSIVE : 0));

	if (tree < 0)
		return uerr_sys(e, "%s: bind source %s", what, source);
	return tree;
}

/* A tree the parent prepared (idmapped): ours to attach, closed after. */
static int dup_tree(int tree, const char *what, struct uerr *e)
{
	int fd = fcntl(tree, F_DUPFD_CLOEXEC, 3);

	return fd < 0 ? uerr_sys(e, "%s: the idmapped tree", what) : fd;
}

/* A new filesystem instance with its data options, as a detached mount. */
static int fs_tree(const char *type, const char *source, const char *data, const char *what, struct uerr *e)
{
	_cleanup_close_ int fs = sys_fsopen(type, FSOPEN_CLOEXEC);
	_cleanup_free_ char *d = data ? xstrdup(data) : NULL;
	char *save = NULL;
	int tree;

	if (fs < 0)
		return errno == ENODEV ? uerr_set(e, ENODEV, "%s: unknown filesystem type \"%s\"", what, type)
				       : uerr_sys(e, "%s: fsopen %s", what, type);
	if (source && sys_fsconfig(fs, FSCONFIG_SET_STRING, "source", source, 0) < 0)
		return uerr_sys(e, "%s: source %s", what, source);
	for (char *tok = d ? strtok_r(d, ",", &save) : NULL; tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		int r;

		if (eq) {
			*eq = '\0';
			r = sys_fsconfig(fs, FSCONFIG_SET_STRING, tok, eq + 1, 0);
		} else {
			r = sys_fsconfig(fs, FSCONFIG_SET_FLAG, tok, NULL, 0);
		}
		if (r < 0)
			return uerr_sys(e, "%s: option \"%s%s%s\" of %s", what, tok, eq ? "=" : "", eq ? eq + 1 : "", type);
	}
	if (sys_fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return uerr_sys(e, "%s: creating the %s filesystem", what, type);
	tree = sys_fsmount(fs, FSMOUNT_CLOEXEC, 0);
	if (tree < 0)
		return uerr_sys(e, "%s: fsmount %s", what, type);
	return tree;
}

static bool source_is_dir(const char *source)
{
	struct stat st;

	return stat(source, &st) < 0 || S_ISDIR(st.st_mode);
}

static int mount_one(const struct rootfs_ctx *rc, int rootfd, size_t i, struct uerr *e)
{
	const struct oci_mount *m = &rc->cfg->mounts[i];
	_cleanup_close_ int tree = -1;
	_cleanup_close_ int target = -1;
	_cleanup_free_ char *src = NULL;
	struct mount_opts o;
	char what[128];
	bool cgroup;
	int r;

	snprintf(what, sizeof(what), "mounts[%zu] (%s)", i, m->destination);
	if ((r = mount_opts_parse(m->options, &o, what, e)) < 0)
		return r;
	cgroup = m->type && (!strcmp(m->type, "cgroup") || !strcmp(m->type, "cgroup2"));
	if (o.tmpcopyup && (!m->type || strcmp(m->type, "tmpfs") || o.bind)) {
		r = uerr_set(e, EINVAL, "%s: tmpcopyup is for tmpfs mounts", what);
		goto out;
	}
	if (!o.bind && !m->type) {
		r = uerr_set(e, EINVAL, "%s: no type and no bind option", what);
		goto out;
	}
	if (o.bind || (m->type && !strcmp(m->type, "bind"))) {
		if (!m->source) {
			r = uerr_set(e, EINVAL, "%s: a bind mount needs a source", what);
			goto out;
		}
		src = m->source[0] == '/' ? xstrdup(m->source) : realpath(m->source, NULL);
		if (!src) {
			r = uerr_sys(e, "%s: source %s", what, m->source);
			goto out;
		}
		tree = rc->idmapped && rc->idmapped[i] >= 0 ? dup_tree(rc->idmapped[i], what, e)
							     : bind_tree(src, o.recursive_bind, what, e);
	} else if (cgroup) {
		/* The container's own cgroup, as the cgroup namespace shows it: a bind
		 * of its directory costs nothing, a fresh cgroup2 superblock an RCU wait. */
		tree = bind_tree(rc->cgroup_path, false, what, e);
	} else {
		tree = fs_tree(m->type, m->source, o.data, what, e);
		if (tree == -EPERM && !strcmp(m->type, "sysfs")) {
			/* sysfs needs a network namespace we own; runc binds /sys then. */
			o.flags |= MS_RDONLY;
			o.recursive_bind = true;
			tree = bind_tree("/sys", true, what, e);
		}
	}
	if ((r = tree) < 0)
		goto out;
	target = mkpath_in_root(rootfd, m->destination, (o.bind || cgroup) && src && !source_is_dir(src), e);
	if ((r = target) < 0) {
		uerr_prefix(e, "%s", what);
		goto out;
	}
	/* Before its flags: a tmpfs asked to be read-only is filled first. */
	if (o.tmpcopyup && (r = tmpcopyup(target, tree, e)) < 0) {
		uerr_prefix(e, "%s", what);
		goto out;
	}
	if ((r = tree_setattr(tree, &o, what, e)) < 0 && errno == EPERM && o.bind && src) {
		/* In a user namespace, flags locked on the source must be kept. */
		struct statvfs sv;
		if (statvfs(src, &sv) == 0) {
			o.flags |= (sv.f_flag & ST_RDONLY ? MS_RDONLY : 0) | (sv.f_flag & ST_NOSUID ? MS_NOSUID : 0) |
				   (sv.f_flag & ST_NODEV ? MS_NODEV : 0) | (sv.f_flag & ST_NOEXEC ? MS_NOEXEC : 0);
			o.clear &= ~o.flags;
			r = tree_setattr(tree, &o, what, e);
		}
	}
	if (r < 0)
		goto out;
	r = attach(tree, target, what, e);
out:
	mount_opts_free(&o);
	return r;
}

/* The mount holding `path` must not be shared for pivot_root. */
static void make_parent_private(const char *rootfs)
{
	_cleanup_free_ char *p = xstrdup(rootfs);

	for (char *slash; (slash = strrchr(p, '/'));) {
		*slash = '\0';
		if (mount(NULL, *p ? p : "/", NULL, MS_PRIVATE, NULL) == 0 || !*p)
			return;
	}
}

int rootfs_prepare(const struct rootfs_ctx *rc, struct uerr *e)
{
	unsigned long prop = rc->cfg->linux.rootfs_propagation;
	_cleanup_close_ int tree = -1;
	_cleanup_close_ int target = -1;
	_cleanup_close_ int rootfd = -1;
	int r;

	/* Our mounts must not reach the host: slave unless told otherwise. */
	if (mount(NULL, "/", NULL, MS_REC | ((prop & (MS_SLAVE | MS_PRIVATE)) ? (prop & ~MS_REC) : MS_SLAVE), NULL) < 0)
		return uerr_sys(e, "making / a slave mount");
	if (prop & MS_SHARED)
		make_parent_private(rc->rootfs);
	/* pivot_root needs the rootfs to be a mount point: bind it onto itself. */
	if ((tree = bind_tree(rc->rootfs, true, "root.path", e)) < 0)
		return tree;
	target = open(rc->rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (target < 0)
		return uerr_sys(e, "root.path %s", rc->rootfs);
	if ((r = attach(tree, target, "root.path", e)) < 0)
		return r;
	rootfd = open(rc->rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return uerr_sys(e, "root.path %s", rc->rootfs);
	for (size_t i = 0; i < rc->cfg->n_mounts; i++)
		if ((r = mount_one(rc, rootfd, i, e)) < 0)
			return r;
	return devices_setup(rc, rootfd, e);
}

int rootfs_pivot(const struct rootfs_ctx *rc, struct uerr *e)
{
	if (chdir(rc->rootfs) < 0)
		return uerr_sys(e, "chdir %s", rc->rootfs);
	if (rc->no_pivot) {
		if (mount(rc->rootfs, "/", NULL, MS_MOVE, NULL) < 0)
			return uerr_sys(e, "moving the rootfs to / (--no-pivot)");
		if (chroot(".") < 0)
			return uerr_sys(e, "chroot (--no-pivot)");
	} else {
		/* pivot_root(".", "."): the old root stacks under the new one; detach it. */
		if (syscall(SYS_pivot_root, ".", ".") < 0)
			return uerr_sys(e, "pivot_root");
		if (umount2(".", MNT_DETACH) < 0)
			return uerr_sys(e, "detaching the old root");
	}
	if (chdir("/") < 0)
		return uerr_sys(e, "chdir /");
	return 0;
}

/*
 * The container's /dev/null, checked to be the null device and not followed
 * if it is a symlink: the image or a mount could otherwise turn "mask this
 * file" into "bind that file here" (CVE-2025-31133).
 */
static int null_tree(struct uerr *e)
{
	_cleanup_close_ int fd = open_in_root(AT_FDCWD, "/dev/null", O_PATH | O_NOFOLLOW, 0);
	struct stat st;
	int tree;

	if (fd < 0) {
		errno = -fd;
		return uerr_sys(e, "linux.maskedPaths: /dev/null in the container");
	}
	if (fstat(fd, &st) < 0)
		return uerr_sys(e, "linux.maskedPaths: /dev/null in the container");
	if (!S_ISCHR(st.st_mode) || st.st_rdev != makedev(1, 3))
		return uerr_set(e, EINVAL, "linux.maskedPaths: /dev/null in the container is not the "
				"null device (1:3); refusing to bind it over masked files");
	tree = sys_open_tree(fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
	if (tree < 0)
		return uerr_sys(e, "linux.maskedPaths: binding /dev/null");
	return tree;
}

static int mask_path(const char *path, struct uerr *e)
{
	_cleanup_close_ int target = open_in_root(AT_FDCWD, path, O_PATH, 0);
	_cleanup_close_ int tree = -1;
	struct stat st;

	if (target == -ENOENT)
		return 0;
	if (target < 0) {
		errno = -target;
		return uerr_sys(e, "linux.maskedPaths: %s", path);
	}
	if (fstat(target, &st) < 0)
		return uerr_sys(e, "linux.maskedPaths: %s", path);
	if (S_ISDIR(st.st_mode)) {
		struct mount_opts o = { .flags = MS_RDONLY };
		tree = fs_tree("tmpfs", "tmpfs", NULL, "linux.maskedPaths", e);
		if (tree < 0 || tree_setattr(tree, &o, "linux.maskedPaths", e) < 0)
			return uerr_ret(e);
	} else if ((tree = null_tree(e)) < 0) {
		return tree;
	}
	return attach(tree, target, "linux.maskedPaths", e);
}

static int readonly_path(const char *path, struct uerr *e)
{
	_cleanup_close_ int target = open_in_root(AT_FDCWD, path, O_PATH, 0);
	_cleanup_close_ int tree = -1;
	struct mount_opts o = { .attr_set = MOUNT_ATTR_RDONLY, .attr_clr = MOUNT_ATTR_RDONLY };

	if (target == -ENOENT)
		return 0;
	if (target < 0) {
		errno = -target;
		return uerr_sys(e, "linux.readonlyPaths: %s", path);
	}
	tree = sys_open_tree(target, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE | AT_EMPTY_PATH);
	if (tree < 0)
		return uerr_sys(e, "linux.readonlyPaths: %s", path);
	if (tree_setattr(tree, &o, "linux.readonlyPaths", e) < 0)
		return uerr_ret(e);
	return attach(tree, target, "linux.readonlyPaths", e);
}

int rootfs_finish(const struct rootfs_ctx *rc, struct uerr *e)
{
	const struct oci_linux *l = &rc->cfg->linux;
	int r;

	for (size_t i = 0; l->masked_paths && l->masked_paths[i]; i++)
		if ((r = mask_path(l->masked_paths[i], e)) < 0)
			return r;
	for (size_t i = 0; l->readonly_paths && l->readonly_paths[i]; i++)
		if ((r = readonly_path(l->readonly_paths[i], e)) < 0)
			return r;
	if (rc->cfg->root.readonly) {
		struct mount_attr a = { .attr_set = MOUNT_ATTR_RDONLY };
		if (sys_mount_setattr(AT_FDCWD, "/", 0, &a) < 0)
			return uerr_sys(e, "root.readonly: remounting / read-only");
	}
	if (l->rootfs_propagation && mount(NULL, "/", NULL, l->rootfs_propagation, NULL) < 0)
		return uerr_sys(e, "linux.rootfsPropagation");
	return 0;
}
