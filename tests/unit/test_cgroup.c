/* cgroup/ and ns/ logic that needs no kernel: controller selection, v1
 * refusals, cpu weight conversion, mount options. */
#include <stdlib.h>
#include <sys/mount.h>
#include <linux/mount.h>
#include "tests/unit/unit.h"
#include "lib/util.h"
#include "cgroup/resources.h"
#include "ns/ns.h"

static struct resources_doc *res(const char *json)
{
	struct uerr e;
	struct resources_doc *d = resources_parse(json, "resources", &e);

	if (!d)
		printf("  | %s\n", e.msg);
	return d;
}

static unsigned mask_of(const char *json, struct uerr *e)
{
	struct resources_doc *d = res(json);
	unsigned m = 0xdead;

	memset(e, 0, sizeof(*e));
	if (d && res_controllers(d->res, &m, e) < 0)
		m = 0xffff;
	resources_doc_free(d);
	return m;
}

static void test_only_the_requested_controllers(void)
{
	struct uerr e;

	CHECK_INT(mask_of("{}", &e), 0);
	CHECK_INT(mask_of("{\"devices\":[{\"allow\":false,\"access\":\"rwm\"}]}", &e), 0);
	CHECK_INT(mask_of("{\"memory\":{\"limit\":1}}", &e), CTRL_MEMORY);
	CHECK_INT(mask_of("{\"pids\":{\"limit\":5}}", &e), CTRL_PIDS);
	/* 0 in a versionless document is "not set"; -1 and shares 1024 are what
	 * a cgroup has without its controller. */
	CHECK_INT(mask_of("{\"pids\":{\"limit\":0}}", &e), 0);
	CHECK_INT(mask_of("{\"pids\":{\"limit\":-1}}", &e), 0);
	CHECK_INT(mask_of("{\"cpu\":{\"shares\":1024}}", &e), 0);
	CHECK_INT(mask_of("{\"cpu\":{\"shares\":2}}", &e), CTRL_CPU);
	CHECK_INT(mask_of("{\"cpu\":{\"cpus\":\"0\"}}", &e), CTRL_CPUSET);
	CHECK_INT(mask_of("{\"cpu\":{\"quota\":1,\"mems\":\"0\"}}", &e), CTRL_CPU | CTRL_CPUSET);
	CHECK_INT(mask_of("{\"blockIO\":{\"weight\":100}}", &e), CTRL_IO);
	CHECK_INT(mask_of("{\"blockIO\":{\"throttleWriteIOPSDevice\":[{\"major\":8,\"minor\":0,\"rate\":5}]}}", &e), CTRL_IO);
	CHECK_INT(mask_of("{\"hugepageLimits\":[{\"pageSize\":\"2MB\",\"limit\":0}]}", &e), CTRL_HUGETLB);
	CHECK_INT(mask_of("{\"rdma\":{\"mlx\":{\"hcaHandles\":1}}}", &e), CTRL_RDMA);
	CHECK_INT(mask_of("{\"unified\":{\"memory.high\":\"1\",\"pids.max\":\"3\",\"cgroup.freeze\":\"0\"}}", &e),
		  CTRL_MEMORY | CTRL_PIDS);
	CHECK_INT(mask_of("{\"unified\":{\"misc.max\":\"x 1\"}}", &e), CTRL_MISC);
}

static void expect_refused(const char *json, const char *msg)
{
	struct uerr e;

	CHECK_INT(mask_of(json, &e), 0xffff);
	CHECK_CONTAINS(e.msg, msg);
}

static void test_v1_only_settings_are_refused_by_name(void)
{
	expect_refused("{\"memory\":{\"kernel\":1}}", "linux.resources.memory.kernel: is a cgroup v1 setting");
	expect_refused("{\"memory\":{\"kernelTCP\":1}}", "linux.resources.memory.kernelTCP");
	expect_refused("{\"memory\":{\"swappiness\":10}}", "linux.resources.memory.swappiness");
	expect_refused("{\"memory\":{\"disableOOMKiller\":true}}", "linux.resources.memory.disableOOMKiller");
	expect_refused("{\"memory\":{\"useHierarchy\":false}}", "linux.resources.memory.useHierarchy");
	expect_refused("{\"cpu\":{\"realtimeRuntime\":1}}", "linux.resources.cpu.realtimeRuntime");
	expect_refused("{\"cpu\":{\"realtimePeriod\":1}}", "linux.resources.cpu.realtimePeriod");
	expect_refused("{\"network\":{\"classID\":1}}", "linux.resources.network: net_cls/net_prio");
	expect_refused("{\"blockIO\":{\"leafWeight\":10}}", "linux.resources.blockIO.leafWeight");
	expect_refused("{\"blockIO\":{\"weightDevice\":[{\"major\":8,\"minor\":0,\"leafWeight\":10}]}}",
		       "linux.resources.blockIO.weightDevice.leafWeight");
	expect_refused("{\"unified\":{\"../x\":\"1\"}}", "is not a cgroup file name");
	expect_refused("{\"unified\":{\"bogus.max\":\"1\"}}", "unknown controller");
	/* What v2 does the same way is fine. */
	struct uerr e;
	CHECK_INT(mask_of("{\"memory\":{\"useHierarchy\":true,\"disableOOMKiller\":false}}", &e), 0);
}

static void test_cpu_shares_to_weight(void)
{
	CHECK_INT(cpu_shares_to_weight(2), 1);
	CHECK_INT(cpu_shares_to_weight(1024), 100);
	CHECK_INT(cpu_shares_to_weight(262144), 10000);
	CHECK_INT(cpu_shares_to_weight(1), 1);
	CHECK_INT(cpu_shares_to_weight(1u << 20), 10000);
	/* Monotonic across the range. */
	uint64_t prev = 0;
	for (uint64_t s = 2; s <= 262144; s = s * 3 / 2 + 1) {
		uint64_t w = cpu_shares_to_weight(s);
		CHECK(w >= prev && w >= 1 && w <= 10000);
		prev = w;
	}
}

static void test_mount_options(void)
{
	char *opts[] = { "nosuid", "nodev", "ro", "rbind", "rslave", "mode=755", "size=1k", "rro", "noatime", NULL };
	struct mount_opts o;
	struct uerr e;

	CHECK_INT(mount_opts_parse(opts, &o, "mounts[0]", &e), 0);
	CHECK_INT(o.flags, MS_NOSUID | MS_NODEV | MS_RDONLY | MS_NOATIME);
	CHECK(o.bind && o.recursive_bind);
	CHECK_INT(o.propagation, MS_SLAVE | MS_REC);
	CHECK_STR(o.data, "mode=755,size=1k");
	CHECK(o.attr_set & MOUNT_ATTR_RDONLY);
	mount_opts_free(&o);

	char *rw[] = { "ro", "rw", "exec", NULL };
	CHECK_INT(mount_opts_parse(rw, &o, "mounts[1]", &e), 0);
	CHECK_INT(o.flags, 0);
	CHECK(o.clear & MS_RDONLY);
	CHECK(o.clear & MS_NOEXEC);
	mount_opts_free(&o);

	char *idmap[] = { "bind", "idmap", NULL };
	CHECK(mount_opts_parse(idmap, &o, "mounts[2]", &e) == 0);
	CHECK(o.idmap && !o.ridmap && o.bind);
	mount_opts_free(&o);
	char *ridmap[] = { "rbind", "ridmap", NULL };
	CHECK(mount_opts_parse(ridmap, &o, "mounts[2]", &e) == 0);
	CHECK(o.idmap && o.ridmap && o.recursive_bind);
	mount_opts_free(&o);
}

int main(void)
{
	unit_suite = "test_cgroup";
	RUN(test_only_the_requested_controllers);
	RUN(test_v1_only_settings_are_refused_by_name);
	RUN(test_cpu_shares_to_weight);
	RUN(test_mount_options);
	UNIT_END();
}
