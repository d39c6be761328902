/* Resources: which controllers a container needs, and the files that hold its limits. */
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/util.h"
#include "cgroup/resources.h"

const char *const ctrl_names[CTRL_COUNT] = {
	"cpu", "cpuset", "io", "memory", "hugetlb", "pids", "rdma", "misc",
};

static int refuse(struct uerr *e, const char *field, const char *why)
{
	return uerr_set(e, EOPNOTSUPP, "linux.resources.%s: %s", field, why);
}

static int ctrl_from_key(const char *key)
{
	size_t n = strcspn(key, ".");

	for (int i = 0; i < CTRL_COUNT; i++)
		if (strlen(ctrl_names[i]) == n && !strncmp(ctrl_names[i], key, n))
			return 1 << i;
	return 0;
}

static int v1_refusals(const struct resources *r, struct uerr *e)
{
	static const char v1[] = "is a cgroup v1 setting; the unified hierarchy has no equivalent";

	if (r->memory.kernel.set)
		return refuse(e, "memory.kernel", v1);
	if (r->memory.kernel_tcp.set)
		return refuse(e, "memory.kernelTCP", v1);
	if (r->memory.swappiness.set)
		return refuse(e, "memory.swappiness", v1);
	if (r->memory.disable_oom_killer_set && r->memory.disable_oom_killer)
		return refuse(e, "memory.disableOOMKiller", v1);
	if (r->memory.use_hierarchy_set && !r->memory.use_hierarchy)
		return refuse(e, "memory.useHierarchy", "cgroup v2 is always hierarchical");
	if (r->cpu.realtime_runtime.set)
		return refuse(e, "cpu.realtimeRuntime", v1);
	if (r->cpu.realtime_period.set)
		return refuse(e, "cpu.realtimePeriod", v1);
	if (r->network.given)
		return refuse(e, "network", "net_cls/net_prio are cgroup v1 controllers (use eBPF)");
	if (r->block_io.leaf_weight.set)
		return refuse(e, "blockIO.leafWeight", v1);
	for (size_t i = 0; i < r->block_io.n_weight_device; i++)
		if (r->block_io.weight_device[i].leaf_weight.set)
			return refuse(e, "blockIO.weightDevice.leafWeight", v1);
	return 0;
}

int res_controllers(const struct resources *r, unsigned *mask, struct uerr *e)
{
	unsigned m = 0;
	int ret;

	*mask = 0;
	if (!r)
		return 0;
	if ((ret = v1_refusals(r, e)) < 0)
		return ret;
	if (r->memory.limit.set || r->memory.reservation.set || r->memory.swap.set)
		m |= CTRL_MEMORY;
	/* shares 1024 is weight 100, what a cgroup has without asking (and what
	 * containerd always sends): like pids -1 it needs no controller. */
	if ((r->cpu.shares.set && r->cpu.shares.v != 1024) || r->cpu.quota.set || r->cpu.period.set ||
	    r->cpu.burst.set || r->cpu.idle.set)
		m |= CTRL_CPU;
	if (r->cpu.cpus || r->cpu.mems)
		m |= CTRL_CPUSET;
	/* -1 ("max") is what a cgroup without the controller has anyway: it
	 * needs pids only where pids already counts (apply_other). */
	if (r->pids.limit.set && r->pids.limit.v >= 0)
		m |= CTRL_PIDS;
	if (r->block_io.weight.set || r->block_io.n_weight_device)
		m |= CTRL_IO;
	for (int i = 0; i < 4; i++)
		if (r->block_io.n_throttle[i])
			m |= CTRL_IO;
	if (r->n_hugepages)
		m |= CTRL_HUGETLB;
	if (r->n_rdma)
		m |= CTRL_RDMA;
	for (size_t i = 0; r->unified && r->unified[i]; i += 2) {
		const char *k = r->unified[i];

		if (strchr(k, '/') || !strchr(k, '.'))
			return uerr_set(e, 0, "linux.resources.unified: \"%s\" is not a cgroup file name", k);
		if (!str_has_prefix(k, "cgroup.")) {
			int c = ctrl_from_key(k);
			if (!c)
				return uerr_set(e, 0, "linux.resources.unified: \"%s\": unknown controller", k);
			m |= (unsigned)c;
		}
	}
	*mask = m;
	return 0;
}

static bool word_in(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' || !p[n]))
			return true;
	return false;
}

static int read_level(const char *dir, const char *file, char **out, struct uerr *e)
{
	_cleanup_free_ char *f = xasprintf("%s/%s", dir, file);
	int r = read_file_at(AT_FDCWD, f, out, NULL);

	if (r < 0) {
		errno = -r;
		return uerr_sys(e, "reading %s", f);
	}
	return 0;
}

/*
 * The no-internal-processes rule: a non-root cgroup that holds processes
 * can't give its children controllers (the kernel says EBUSY, or for the
 * threaded pids/cpu/perf_event turns the level into a thread root where the
 * container's domain cgroup then can't live). Check before writing, so the
 * error names the level. When unirun itself is the only process there (run
 * from a fresh delegated cgroup), it steps aside into the leaf
 * LEVEL/unirun-self, which it keeps for later runs.
 */
static int make_room(const char *level, unsigned mask, const char *on, struct uerr *e)
{
	_cleanup_free_ char *procs = NULL, *type = xasprintf("%s/cgroup.type", level);
	bool missing = false;
	int r;

	for (int i = 0; i < CTRL_COUNT; i++)
		if ((mask & (1u << i)) && !word_in(on, ctrl_names[i]))
			missing = true;
	/* The root cgroup, the only one without cgroup.type, is exempt. */
	if (!missing || access(type, F_OK) < 0)
		return 0;
	if ((r = read_level(level, "cgroup.procs", &procs, e)) < 0)
		return r;
	if (!*procs)
		return 0;
	char self[24];
	int n = snprintf(self, sizeof(self), "%d\n", (int)getpid());
	if (strcmp(procs, self) != 0)
		return uerr_set(e, EBUSY, "cannot enable controllers in %s: it holds processes (%.*s), "
				"and cgroup2 gives controllers only to a cgroup whose processes live in "
				"leaves; move them to a child cgroup first", level,
				(int)strcspn(procs, "\n"), procs);
	_cleanup_free_ char *leaf = xasprintf("%s/unirun-self", level);
	if (mkdir(leaf, 0755) < 0 && errno != EEXIST)
		return uerr_sys(e, "mkdir %s (to leave %s free for controllers)", leaf, level);
	_cleanup_free_ char *f = xasprintf("%s/cgroup.procs", leaf);
	if ((r = write_file_at(AT_FDCWD, f, self, (size_t)n - 1)) < 0) {
		errno = -r;
		return uerr_sys(e, "moving unirun into %s", leaf);
	}
	return 0;
}

int res_enable(const char *boundary, const char *path, unsigned mask, struct uerr *e)
{
	_cleanup_free_ char *avail = NULL;
	_cleanup_free_ char *level = xstrdup(boundary);
	size_t plen = strlen(path);
	int r;

	if (!mask)
		return 0;
	if ((r = read_level(boundary, "cgroup.controllers", &avail, e)) < 0)
		return r;
	for (int i = 0; i < CTRL_COUNT; i++)
		if ((mask & (1u << i)) && !word_in(avail, ctrl_names[i]))
			return uerr_set(e, EOPNOTSUPP, "the %s controller is needed but not available in %s "
					"(cgroup.controllers: %.*s)", ctrl_names[i], boundary,
					(int)strcspn(avail, "\n"), avail);
	/* Walk boundary → parent of path, enabling what is missing at each level. */
	for (;;) {
		_cleanup_free_ char *on = NULL;
		size_t llen = strlen(level);

		if ((r = read_level(level, "cgroup.subtree_control", &on, e)) < 0)
			return r;
		if ((r = make_room(level, mask, on, e)) < 0)
			return r;
		for (int i = 0; i < CTRL_COUNT; i++) {
			char buf[32];
			_cleanup_free_ char *f = NULL;

			if (!(mask & (1u << i)) || word_in(on, ctrl_names[i]))
				continue;
			f = xasprintf("%s/cgroup.subtree_control", level);
			snprintf(buf, sizeof(buf), "+%s", ctrl_names[i]);
			r = write_file_at(AT_FDCWD, f, buf, strlen(buf));
			if (r == -EBUSY)
				return uerr_set(e, EBUSY, "cannot enable the %s controller in %s: it holds "
						"processes, and cgroup2 allows controllers only for a cgroup "
						"whose processes live in leaves", ctrl_names[i], level);
			if (r < 0) {
				errno = -r;
				return uerr_sys(e, "enabling the %s controller in %s", ctrl_names[i], f);
			}
		}
		/* Next level: extend `level` by one component of path. */
		const char *next = strchr(path + llen + 1, '/');
		if (!next || (size_t)(next - path) >= plen)
			break;
		free(level);
		level = strndup(path, (size_t)(next - path));
	}
	return 0;
}

static int put(int dirfd, const char *path, const char *file, const char *val, struct uerr *e)
{
	int r = write_file_at(dirfd, file, val, strlen(val));

	if (r < 0) {
		errno = -r;
		return uerr_sys(e, "writing \"%s\" to %s/%s", val, path, file);
	}
	return 0;
}

static int put_u64(int dirfd, const char *path, const char *file, int64_t v, struct uerr *e)
{
	char buf[32];

	if (v < 0)
		snprintf(buf, sizeof(buf), "max");
	else
		snprintf(buf, sizeof(buf), "%" PRId64, v);
	return put(dirfd, path, file, buf, e);
}

/* The quadratic-in-log mapping runc and crun use today: 2 → 1, 1024 → 100,
 * 262144 → 10000 — cgroup v1's default share lands on v2's default weight. */
uint64_t cpu_shares_to_weight(uint64_t shares)
{
	double l, w;

	if (shares <= 2)
		return 1;
	if (shares >= 262144)
		return 10000;
	l = log2((double)shares);
	w = pow(10.0, (l * l + 125.0 * l) / 612.0 - 7.0 / 34.0);
	/* ceil, but not of a rounding error a hair above an integer. */
	return (uint64_t)ceil(w - 1e-6);
}

static int apply_memory(int fd, const char *path, const struct resources *r, bool update,
			struct uerr *e)
{
	int ret;

	if (r->memory.swap.set && r->memory.swap.v >= 0 && r->memory.limit.set &&
	    r->memory.limit.v >= 0 && r->memory.swap.v < r->memory.limit.v)
		return uerr_set(e, 0, "linux.resources.memory.swap: %" PRId64 " is below the limit %"
				PRId64 " (swap counts memory plus swap)", r->memory.swap.v, r->memory.limit.v);
	if (update && r->memory.check_before_update && r->memory.limit.set && r->memory.limit.v >= 0) {
		_cleanup_free_ char *cur = NULL;
		uint64_t usage;

		if (read_file_at(fd, "memory.current", &cur, NULL) == 0 &&
		    (cur[strcspn(cur, "\n")] = '\0', parse_u64(cur, &usage) == 0) &&
		    usage > (uint64_t)r->memory.limit.v)
			return uerr_set(e, EBUSY, "linux.resources.memory.limit: %" PRId64 " is below the "
					"current usage %" PRIu64 " (checkBeforeUpdate)", r->memory.limit.v, usage);
	}
	if (r->memory.reservation.set && (ret = put_u64(fd, path, "memory.low", r->memory.reservation.v, e)) < 0)
		return ret;
	if (r->memory.limit.set && (ret = put_u64(fd, path, "memory.max", r->memory.limit.v, e)) < 0)
		return ret;
	if (r->memory.swap.set) {
		int64_t swap = r->memory.swap.v;

		/* OCI's swap is memory+swap (v1's memsw); v2's swap.max is swap alone. */
		if (swap > 0 && r->memory.limit.set && r->memory.limit.v >= 0)
			swap -= r->memory.limit.v;
		else if (swap > 0)
			return uerr_set(e, 0, "linux.resources.memory.swap: needs memory.limit to convert "
					"memory+swap into cgroup2's memory.swap.max");
		if ((ret = put_u64(fd, path, "memory.swap.max", swap, e)) < 0)
			return ret;
	}
	return 0;
}

static int apply_cpu(int fd, const char *path, const struct resources *r, struct uerr *e)
{
	char buf[64];
	int ret;

	if (r->cpu.shares.set && r->cpu.shares.v > 0 &&
	    (r->cpu.shares.v != 1024 || faccessat(fd, "cpu.weight", F_OK, 0) == 0) &&
	    (ret = put_u64(fd, path, "cpu.weight", (int64_t)cpu_shares_to_weight((uint64_t)r->cpu.shares.v), e)) < 0)
		return ret;
	if (r->cpu.quota.set || r->cpu.period.set) {
		int64_t period = r->cpu.period.set && r->cpu.period.v ? r->cpu.period.v : 100000;

		if (r->cpu.quota.set && r->cpu.quota.v > 0)
			snprintf(buf, sizeof(buf), "%" PRId64 " %" PRId64, r->cpu.quota.v, period);
		else
			snprintf(buf, sizeof(buf), "max %" PRId64, period);
		if ((ret = put(fd, path, "cpu.max", buf, e)) < 0)
			return ret;
	}
	if (r->cpu.burst.set && (ret = put_u64(fd, path, "cpu.max.burst", r->cpu.burst.v, e)) < 0)
		return ret;
	if (r->cpu.idle.set && (ret = put_u64(fd, path, "cpu.idle", r->cpu.idle.v, e)) < 0)
		return ret;
	if (r->cpu.cpus && (ret = put(fd, path, "cpuset.cpus", r->cpu.cpus, e)) < 0)
		return ret;
	if (r->cpu.mems && (ret = put(fd, path, "cpuset.mems", r->cpu.mems, e)) < 0)
		return ret;
	return 0;
}

static int apply_io(int fd, const char *path, const struct resources *r, struct uerr *e)
{
	static const char *const keys[4] = { "rbps", "wbps", "riops", "wiops" };
	char buf[96];
	int ret;

	/* blkio weights are 10..1000; io.weight is 1..10000. */
	if (r->block_io.weight.set && r->block_io.weight.v > 0) {
		snprintf(buf, sizeof(buf), "default %" PRId64, 1 + (r->block_io.weight.v - 10) * 9999 / 990);
		if ((ret = put(fd, path, "io.weight", buf, e)) < 0)
			return ret;
	}
	for (size_t i = 0; i < r->block_io.n_weight_device; i++) {
		const struct res_weight_device *d = &r->block_io.weight_device[i];
		if (!d->weight.set)
			continue;
		snprintf(buf, sizeof(buf), "%" PRId64 ":%" PRId64 " %" PRId64, d->major, d->minor,
			 1 + (d->weight.v - 10) * 9999 / 990);
		if ((ret = put(fd, path, "io.weight", buf, e)) < 0)
			return ret;
	}
	for (int k = 0; k < 4; k++)
		for (size_t i = 0; i < r->block_io.n_throttle[k]; i++) {
			const struct res_throttle_device *d = &r->block_io.throttle[k][i];
			snprintf(buf, sizeof(buf), "%" PRId64 ":%" PRId64 " %s=%" PRIu64, d->major, d->minor,
				 keys[k], d->rate);
			if ((ret = put(fd, path, "io.max", buf, e)) < 0)
				return ret;
		}
	return 0;
}

static int apply_other(int fd, const char *path, const struct resources *r, struct uerr *e)
{
	char buf[128];
	int ret;

	if (r->pids.limit.set && (r->pids.limit.v >= 0 || faccessat(fd, "pids.max", F_OK, 0) == 0) &&
	    (ret = put_u64(fd, path, "pids.max", r->pids.limit.v, e)) < 0)
		return ret;
	for (size_t i = 0; i < r->n_hugepages; i++) {
		char file[64];

		snprintf(file, sizeof(file), "hugetlb.%s.max", r->hugepages[i].pagesize);
		if (strchr(r->hugepages[i].pagesize, '/'))
			return uerr_set(e, 0, "linux.resources.hugepageLimits[%zu].pageSize: invalid", i);
		if ((ret = put_u64(fd, path, file, (int64_t)r->hugepages[i].limit, e)) < 0)
			return ret;
	}
	for (size_t i = 0; i < r->n_rdma; i++) {
		const struct res_rdma *d = &r->rdma[i];
		int n = snprintf(buf, sizeof(buf), "%s", d->device);

		if (d->handles.set)
			n += snprintf(buf + n, sizeof(buf) - (size_t)n, " hca_handle=%" PRId64, d->handles.v);
		if (d->objects.set)
			snprintf(buf + n, sizeof(buf) - (size_t)n, " hca_object=%" PRId64, d->objects.v);
		if ((ret = put(fd, path, "rdma.max", buf, e)) < 0)
			return ret;
	}
	for (size_t i = 0; r->unified && r->unified[i]; i += 2) {
		int ret2 = write_file_at(fd, r->unified[i], r->unified[i + 1], strlen(r->unified[i + 1]));
		if (ret2 == -ENOENT)
			return uerr_set(e, ENOENT, "linux.resources.unified: %s: no such file in %s "
					"(is its controller enabled?)", r->unified[i], path);
		if (ret2 < 0) {
			errno = -ret2;
			return uerr_sys(e, "linux.resources.unified: writing \"%s\" to %s/%s",
					r->unified[i + 1], path, r->unified[i]);
		}
	}
	return 0;
}

int res_apply(int dirfd, const char *path, const struct resources *r, bool update, struct uerr *e)
{
	int ret;

	if ((ret = apply_memory(dirfd, path, r, update, e)) < 0 ||
	    (ret = apply_cpu(dirfd, path, r, e)) < 0 ||
	    (ret = apply_io(dirfd, path, r, e)) < 0 ||
	    (ret = apply_other(dirfd, path, r, e)) < 0)
		return ret;
	if (r->n_devices)
		return dev_bpf_apply(dirfd, r->devices, r->n_devices, e);
	return 0;
}
