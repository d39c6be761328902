/* The cgroup2 manager: one hierarchy, a delegated subtree, only the requested
 * controllers. Knows nothing of OCI JSON beyond struct resources. */
#ifndef UNIRUN_CGROUP_H
#define UNIRUN_CGROUP_H

#include <sys/types.h>
#include <stdbool.h>
#include "lib/error.h"

struct resources;

struct cgroup {
	char *mount;       /* the cgroup2 mount point, e.g. /sys/fs/cgroup/unified */
	char *path;        /* the container's cgroup, absolute in the filesystem */
	char *boundary;    /* the delegation root: unirun writes at or below it only */
	int created;       /* trailing levels of path that unirun made */
	int dirfd;         /* the container's cgroup directory, for CLONE_INTO_CGROUP */
};

/* Find the cgroup2 mount: /sys/fs/cgroup when it is cgroup2, else the unified
 * mount of a hybrid host. */
int cg_mount(const char **out, struct uerr *e);
/* The cgroup the calling process is in ("/" or "/a/b"), from /proc/self/cgroup. */
int cg_self(char **out, struct uerr *e);
/* The same for another process (0: ourselves). */
int cg_of(pid_t pid, char **out, struct uerr *e);

/* Resolve linux.cgroupsPath (NULL: the default "<own cgroup>/unirun/<id>"), make
 * the directories, enable exactly the controllers `res` needs from the boundary
 * down, and write the limits. On failure nothing is left behind. */
/* rootless: a cgroup unirun may not write means running without one (or an
 * error when resources need controllers). */
int cg_prepare(struct cgroup *cg, bool rootless, const char *cgroups_path, const char *id,
	       const struct resources *res, struct uerr *e);
void cg_release(struct cgroup *cg);
/* chown the cgroup and its delegatable files to uid:gid (cgroupns + userns). */
int cg_delegate(const struct cgroup *cg, uid_t uid, gid_t gid, struct uerr *e);

/* "key value" lines (cgroup.events, memory.events, cpu.stat…): key's value,
 * or -1 when absent; cg_keyed reads PATH/FILE first. */
long long cg_keyed_in(const char *buf, const char *key);
long long cg_keyed(const char *path, const char *file, const char *key);

/* Wait until cgroup.events says populated 0; timeout_ms < 0 waits forever. */
int cg_wait_empty(const char *path, int timeout_ms, struct uerr *e);
bool cg_populated(const char *path);
/* cgroup.kill, or SIGKILL to every process of the tree where there is none. */
int cg_kill(const char *path, struct uerr *e);
int cg_signal_all(const char *path, int sig, struct uerr *e);
/* cgroup.freeze, then wait for frozen 1/0 in cgroup.events. */
int cg_freeze(const char *path, bool freeze, struct uerr *e);
bool cg_frozen(const char *path);
/* Pids of every process in the tree (recursive), malloc'ed. */
int cg_pids(const char *path, int **pids, size_t *n, struct uerr *e);
/* Remove sub-cgroups the container made and then the `created` levels of path. */
int cg_remove(const char *path, int created, struct uerr *e);

#endif
