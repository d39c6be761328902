/* struct resources → cgroup2 files, and the controllers they need. */
#ifndef UNIRUN_RESOURCES_H
#define UNIRUN_RESOURCES_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/error.h"
#include "spec/config.h"

enum {
	CTRL_CPU = 1 << 0,
	CTRL_CPUSET = 1 << 1,
	CTRL_IO = 1 << 2,
	CTRL_MEMORY = 1 << 3,
	CTRL_HUGETLB = 1 << 4,
	CTRL_PIDS = 1 << 5,
	CTRL_RDMA = 1 << 6,
	CTRL_MISC = 1 << 7,
	CTRL_COUNT = 8,
};
extern const char *const ctrl_names[CTRL_COUNT];

/* The controllers `res` needs; refuses what cgroup v2 cannot do, naming the field. */
int res_controllers(const struct resources *res, unsigned *mask, struct uerr *e);
/* Enable `mask` in cgroup.subtree_control of every level from boundary down to
 * the parent of path, checking that each is available at the boundary. */
int res_enable(const char *boundary, const char *path, unsigned mask, struct uerr *e);
/* Write every limit of res into the cgroup (dirfd). `update` applies
 * checkBeforeUpdate. Device rules go to an eBPF program. */
int res_apply(int dirfd, const char *path, const struct resources *res, bool update, struct uerr *e);
uint64_t cpu_shares_to_weight(uint64_t shares);

/* Devices as a BPF_PROG_TYPE_CGROUP_DEVICE program (devices_bpf.c). */
int dev_bpf_apply(int dirfd, const struct res_device *rules, size_t n, struct uerr *e);

#endif
