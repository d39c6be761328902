/* The child side between clone3 and exec: rootfs, mounts, devices, pivot_root.
 * Every path inside the container is resolved inside the rootfs. */
#ifndef UNIRUN_NS_H
#define UNIRUN_NS_H

#include <stdbool.h>
#include <sys/types.h>
#include "lib/error.h"
#include "spec/config.h"

/* ns/paths.c */
/* openat2(RESOLVE_IN_ROOT): symlinks resolve as if rootfd were "/". */
int open_in_root(int rootfd, const char *path, int flags, mode_t mode);
/* Make path (a directory, or an empty file when `file`) inside root, creating
 * missing parents, and return an O_PATH fd to it. Symlinks in the image are
 * followed inside the root, never out of it. */
int mkpath_in_root(int rootfd, const char *path, bool file, struct uerr *e);

/* ns/mountopt.c */
struct mount_opts {
	unsigned long flags;       /* MS_* to set */
	unsigned long clear;       /* MS_* an option asked to clear (rw, dev, exec…) */
	unsigned long propagation; /* MS_SHARED/SLAVE/PRIVATE/UNBINDABLE (| MS_REC) */
	unsigned long long attr_set, attr_clr; /* mount_setattr for r* options (rro…) */
	bool bind, recursive_bind, tmpcopyup;
	bool idmap, ridmap;        /* idmapped bind (ridmap: recursively) */
	char *data;                /* fs-specific options, comma joined (malloc'ed) */
};
int mount_opts_parse(char *const *options, struct mount_opts *o, const char *path, struct uerr *e);
void mount_opts_free(struct mount_opts *o);

/* ns/idmap.c: write a uid_map or gid_map ("uid_map"/"gid_map") of pid. */
int ns_write_idmap(pid_t pid, const char *file, const struct oci_idmap *m, size_t n, struct uerr *e);
/* ns/idmap.c: in the parent, the detached idmapped trees of the mounts that
 * ask for one (-1 for the others); *trees is NULL when none does. */
int idmap_prepare(const struct oci_config *cfg, int **trees, struct uerr *e);
void idmap_release(int *trees, size_t n);

/* ns/copyup.c: copy directory target (an fd resolved in the rootfs) into the
 * root of the detached mount tree (a fresh tmpfs), owners and modes kept. */
int tmpcopyup(int target, int tree, struct uerr *e);

/* ns/rootfs.c */
struct rootfs_ctx {
	const struct oci_config *cfg;
	const char *rootfs;        /* absolute host path */
	const char *cgroup_path;   /* the container's cgroup (for a cgroup mount) */
	bool userns;               /* in a new user namespace: bind devices, no mknod */
	bool no_pivot;
	const int *idmapped;       /* per mount: a prepared tree, or -1 (may be NULL) */
};
int rootfs_prepare(const struct rootfs_ctx *rc, struct uerr *e);
int rootfs_pivot(const struct rootfs_ctx *rc, struct uerr *e);
int rootfs_finish(const struct rootfs_ctx *rc, struct uerr *e);

/* ns/devices.c */
int devices_setup(const struct rootfs_ctx *rc, int rootfd, struct uerr *e);

/* ns/console.c: a pty in the container's devpts; returns the master fd and
 * makes the slave the caller's controlling terminal, stdio and /dev/console. */
int console_setup(const struct oci_process *p, int *master, struct uerr *e);

#endif
