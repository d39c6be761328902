/* spec/: config.json parsing, every error path naming its JSON path. */
#include <sched.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <time.h>
#include "tests/unit/unit.h"
#include "lib/util.h"
#include "spec/config.h"
#include "spec/default_spec.h"
#include "spec/state.h"

#define MIN_PROCESS "\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\"}"
#define MIN_ROOT "\"root\":{\"path\":\"rootfs\"}"

static struct oci_config *parse(const char *text, struct uerr *e)
{
	memset(e, 0, sizeof(*e));
	return config_parse(text, "config.json", e);
}

/* Parse `{"ociVersion":"1.2.0",<extra>}` with a valid process and root unless overridden. */
static char *doc(const char *extra)
{
	return xasprintf("{\"ociVersion\":\"1.2.0\"," MIN_ROOT "," MIN_PROCESS "%s%s}", *extra ? "," : "", extra);
}

static void expect_error(const char *text, const char *msg)
{
	struct uerr e;
	struct oci_config *c = parse(text, &e);

	CHECK(c == NULL);
	CHECK_CONTAINS(e.msg, msg);
	if (c == NULL && strstr(e.msg, msg) == NULL)
		printf("  | for %s\n", text);
	config_free(c);
}

static void expect_error_extra(const char *extra, const char *msg)
{
	char *text = doc(extra);
	/* The last duplicate key wins, so `extra` may override process or root. */
	expect_error(text, msg);
	free(text);
}

static void test_full_config_parses(void)
{
	const char *text =
		"{\"ociVersion\":\"1.2.1\",\"root\":{\"path\":\"rootfs\",\"readonly\":true},"
		"\"hostname\":\"h\",\"domainname\":\"d\","
		"\"process\":{\"terminal\":true,\"consoleSize\":{\"height\":24,\"width\":80},"
		"\"user\":{\"uid\":1000,\"gid\":100,\"umask\":18,\"additionalGids\":[5,6]},"
		"\"args\":[\"sh\",\"-c\",\"x\"],\"env\":[\"A=1\"],\"cwd\":\"/tmp\","
		"\"capabilities\":{\"bounding\":[\"CAP_KILL\"],\"effective\":[\"CAP_KILL\"]},"
		"\"rlimits\":[{\"type\":\"RLIMIT_NOFILE\",\"soft\":10,\"hard\":20}],"
		"\"noNewPrivileges\":true,\"oomScoreAdj\":-500,"
		"\"scheduler\":{\"policy\":\"SCHED_BATCH\",\"nice\":5},"
		"\"ioPriority\":{\"class\":\"IOPRIO_CLASS_BE\",\"priority\":3},"
		"\"execCPUAffinity\":{\"initial\":\"0\",\"final\":\"0-1\"}},"
		"\"mounts\":[{\"destination\":\"/proc\",\"type\":\"proc\",\"source\":\"proc\"},"
		"{\"destination\":\"/x\",\"source\":\"/tmp\",\"options\":[\"rbind\",\"ro\"]}],"
		"\"hooks\":{\"prestart\":[{\"path\":\"/bin/true\",\"args\":[\"true\"],\"timeout\":3}],"
		"\"poststop\":[{\"path\":\"/bin/false\"}]},"
		"\"annotations\":{\"a\":\"b\"},"
		"\"linux\":{\"namespaces\":[{\"type\":\"pid\"},{\"type\":\"user\"},{\"type\":\"network\",\"path\":\"/proc/1/ns/net\"}],"
		"\"uidMappings\":[{\"containerID\":0,\"hostID\":1000,\"size\":10}],"
		"\"devices\":[{\"type\":\"c\",\"path\":\"/dev/fuse\",\"major\":10,\"minor\":229,\"fileMode\":438}],"
		"\"cgroupsPath\":\"/a/b\",\"sysctl\":{\"net.ipv4.ip_forward\":\"1\"},"
		"\"resources\":{\"memory\":{\"limit\":1048576,\"swap\":2097152},\"pids\":{\"limit\":0},"
		"\"cpu\":{\"shares\":1024,\"quota\":50000,\"cpus\":\"0\"},"
		"\"devices\":[{\"allow\":false,\"access\":\"rwm\"},{\"allow\":true,\"type\":\"c\",\"major\":1,\"minor\":3,\"access\":\"rw\"}],"
		"\"unified\":{\"memory.high\":\"100000\"}},"
		"\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"mkdir\"],\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":1,"
		"\"args\":[{\"index\":1,\"value\":0,\"op\":\"SCMP_CMP_EQ\"}]}]},"
		"\"rootfsPropagation\":\"rslave\",\"maskedPaths\":[\"/proc/kcore\"],\"readonlyPaths\":[\"/proc/sys\"],"
		"\"personality\":{\"domain\":\"LINUX32\"}},\"unknownKey\":{\"is\":\"ignored\"}}";
	struct uerr e;
	struct oci_config *c = parse(text, &e);

	CHECK(c != NULL);
	if (!c) {
		printf("  | %s\n", e.msg);
		return;
	}
	CHECK_STR(c->root.path, "rootfs");
	CHECK(c->root.readonly);
	CHECK_STR(c->hostname, "h");
	CHECK(c->process->terminal);
	CHECK_INT(c->process->console_size.width, 80);
	CHECK_INT(c->process->user.uid, 1000);
	CHECK_INT(c->process->user.umask.v, 18);
	CHECK_INT(c->process->user.n_additional_gids, 2);
	CHECK_INT(c->process->user.additional_gids[1], 6);
	CHECK_STR(c->process->args[2], "x");
	CHECK(c->process->args[3] == NULL);
	CHECK_INT(c->process->rlimits[0].resource, RLIMIT_NOFILE);
	CHECK_INT(c->process->rlimits[0].hard, 20);
	CHECK_INT(c->process->oom_score_adj.v, -500);
	CHECK_INT(c->process->scheduler.policy, SCHED_BATCH);
	CHECK_INT(c->process->io_priority.priority, 3);
	CHECK_STR(c->process->exec_cpu_affinity.final, "0-1");
	CHECK_INT(c->n_mounts, 2);
	CHECK_STR(c->mounts[1].options[0], "rbind");
	CHECK_INT(c->hooks.n[HOOK_PRESTART], 1);
	CHECK_INT(c->hooks.list[HOOK_PRESTART][0].timeout.v, 3);
	CHECK_INT(c->hooks.n[HOOK_POSTSTOP], 1);
	CHECK_STR(strmap_get(c->annotations, "a"), "b");
	CHECK_INT(c->linux.n_namespaces, 3);
	CHECK(config_has_ns(c, CLONE_NEWUSER));
	CHECK_STR(config_ns(c, CLONE_NEWNET)->path, "/proc/1/ns/net");
	CHECK_INT(c->linux.uid_mappings[0].host_id, 1000);
	CHECK_INT(c->linux.devices[0].file_mode.v, 438);
	CHECK_STR(c->linux.cgroups_path, "/a/b");
	CHECK_STR(strmap_get(c->linux.sysctl, "net.ipv4.ip_forward"), "1");
	CHECK_INT(c->linux.resources->memory.limit.v, 1048576);
	/* 1.2.1: pids.limit 0 is a limit of 0. */
	CHECK(c->linux.resources->pids.limit.set);
	CHECK_INT(c->linux.resources->pids.limit.v, 0);
	CHECK_INT(c->linux.resources->n_devices, 2);
	CHECK_STR(c->linux.resources->devices[1].access, "rw");
	CHECK_INT(c->linux.resources->devices[0].major, -1);
	CHECK_STR(strmap_get(c->linux.resources->unified, "memory.high"), "100000");
	CHECK_INT(c->linux.seccomp->n_syscalls, 1);
	CHECK_INT(c->linux.seccomp->syscalls[0].errno_ret.v, 1);
	CHECK_INT(c->linux.rootfs_propagation, MS_SLAVE | MS_REC);
	CHECK_STR(c->linux.masked_paths[0], "/proc/kcore");
	CHECK(c->linux.personality.given);
	config_free(c);
}

static void test_top_level_errors(void)
{
	expect_error("not json", "config.json: not valid JSON");
	expect_error("[1,2]", "(top level): expected an object");
	expect_error("{\"root\":{\"path\":\"r\"}," MIN_PROCESS "}", "config.json: ociVersion: required but missing");
	expect_error("{\"ociVersion\":\"2.0.0\"," MIN_ROOT "," MIN_PROCESS "}", "ociVersion: unsupported version \"2.0.0\"");
	expect_error("{\"ociVersion\":1," MIN_ROOT "," MIN_PROCESS "}", "ociVersion: expected a string");
	expect_error("{\"ociVersion\":\"1.0.0\"," MIN_PROCESS "}", "config.json: root: required but missing");
	expect_error("{\"ociVersion\":\"1.0.0\"," MIN_ROOT "}", "config.json: process: required but missing");
	expect_error_extra("\"root\":{}", "root.path: required but missing");
	expect_error_extra("\"root\":{\"path\":\"\"}", "root.path: must not be empty");
	expect_error_extra("\"root\":{\"path\":\"r\",\"readonly\":\"yes\"}", "root.readonly: expected true or false");
	expect_error_extra("\"hostname\":5", "hostname: expected a string");
	expect_error_extra("\"annotations\":{\"a\":1}", "annotations.a: expected a string");
}

static void test_process_errors(void)
{
	expect_error_extra("\"process\":{\"cwd\":\"/\"}", "process.args: required but missing");
	expect_error_extra("\"process\":{\"args\":[],\"cwd\":\"/\"}", "process.args: must not be empty");
	expect_error_extra("\"process\":{\"args\":\"sh\",\"cwd\":\"/\"}", "process.args: expected an array");
	expect_error_extra("\"process\":{\"args\":[\"sh\",2],\"cwd\":\"/\"}", "config.json: process.args[1]: expected a string");
	expect_error_extra("\"process\":{\"args\":[\"sh\"]}", "process.cwd: required but missing");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"tmp\"}", "process.cwd: must be an absolute path");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"env\":[1]}", "process.env[0]: expected a string");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"user\":{\"uid\":-1}}", "process.user.uid: out of range");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"user\":{\"uid\":\"0\"}}", "process.user.uid: expected an integer");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"user\":{\"uid\":4294967296}}", "process.user.uid: out of range");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"user\":{\"umask\":1024}}", "process.user.umask: out of range");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"user\":{\"additionalGids\":[\"x\"]}}", "process.user.additionalGids[0]: expected an integer");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"rlimits\":[{\"type\":\"RLIMIT_BOGUS\",\"soft\":1,\"hard\":1}]}", "process.rlimits[0].type: unknown rlimit \"RLIMIT_BOGUS\"");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"rlimits\":[{\"type\":\"RLIMIT_NOFILE\",\"soft\":2,\"hard\":1}]}", "process.rlimits[0].soft: soft limit 2 exceeds hard limit 1");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"rlimits\":[{\"type\":\"RLIMIT_NOFILE\",\"hard\":1}]}", "process.rlimits[0].soft: required but missing");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"rlimits\":[{\"type\":\"RLIMIT_CPU\",\"soft\":1,\"hard\":1},{\"type\":\"RLIMIT_CPU\",\"soft\":1,\"hard\":1}]}", "process.rlimits[1].type: duplicate rlimit");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"oomScoreAdj\":5000}", "process.oomScoreAdj: out of range -1000..1000");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"scheduler\":{\"policy\":\"SCHED_BOGUS\"}}", "process.scheduler.policy: unknown scheduler policy");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"scheduler\":{\"policy\":\"SCHED_OTHER\",\"nice\":40}}", "process.scheduler.nice: out of range");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"scheduler\":{\"policy\":\"SCHED_OTHER\",\"flags\":[\"X\"]}}", "process.scheduler.flags[0]: unknown scheduler flag");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"ioPriority\":{\"class\":\"IOPRIO_CLASS_X\"}}", "process.ioPriority.class: unknown class");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"ioPriority\":{\"class\":\"IOPRIO_CLASS_BE\",\"priority\":9}}", "process.ioPriority.priority: out of range");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"capabilities\":{\"bounding\":\"CAP_KILL\"}}", "process.capabilities.bounding: expected an array");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"consoleSize\":{\"height\":1}}", "process.consoleSize.width: required but missing");
	expect_error_extra("\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\",\"terminal\":1}", "process.terminal: expected true or false");
}

static void test_mount_and_hook_errors(void)
{
	expect_error_extra("\"mounts\":{}", "mounts: expected an array");
	expect_error_extra("\"mounts\":[{\"type\":\"tmpfs\"}]", "mounts[0].destination: required but missing");
	expect_error_extra("\"mounts\":[{\"destination\":\"tmp\"}]", "mounts[0].destination: must be an absolute path");
	expect_error_extra("\"mounts\":[{\"destination\":\"/t\",\"options\":\"ro\"}]", "mounts[0].options: expected an array");
	expect_error_extra("\"hooks\":{\"prestart\":[{\"path\":\"true\"}]}", "hooks.prestart[0].path: must be an absolute path");
	expect_error_extra("\"hooks\":{\"poststop\":[{\"args\":[]}]}", "hooks.poststop[0].path: required but missing");
	expect_error_extra("\"hooks\":{\"poststart\":[{\"path\":\"/x\",\"timeout\":0}]}", "hooks.poststart[0].timeout: must be positive");
}

static void test_linux_errors(void)
{
	expect_error_extra("\"linux\":{\"namespaces\":[{\"type\":\"foo\"}]}", "linux.namespaces[0].type: unknown namespace \"foo\"");
	expect_error_extra("\"linux\":{\"namespaces\":[{\"type\":\"pid\"},{\"type\":\"pid\"}]}", "linux.namespaces[1].type: duplicate namespace \"pid\"");
	expect_error_extra("\"linux\":{\"namespaces\":[{\"type\":\"net\"}]}", "linux.namespaces[0].type: unknown namespace");
	expect_error_extra("\"linux\":{\"namespaces\":[{\"type\":\"network\",\"path\":\"x\"}]}", "linux.namespaces[0].path: must be an absolute path");
	expect_error_extra("\"linux\":{\"uidMappings\":[{\"containerID\":0,\"hostID\":1,\"size\":1}]}", "linux.uidMappings: mappings need a user namespace");
	expect_error_extra("\"linux\":{\"namespaces\":[{\"type\":\"user\"}],\"uidMappings\":[{\"containerID\":0,\"hostID\":1,\"size\":0}]}", "linux.uidMappings[0].size: must be positive");
	expect_error_extra("\"linux\":{\"namespaces\":[{\"type\":\"user\"}],\"gidMappings\":[{\"containerID\":0,\"size\":1}]}", "linux.gidMappings[0].hostID: required but missing");
	expect_error_extra("\"linux\":{\"devices\":[{\"type\":\"x\",\"path\":\"/dev/x\",\"major\":1,\"minor\":1}]}", "linux.devices[0].type: unknown device type \"x\"");
	expect_error_extra("\"linux\":{\"devices\":[{\"type\":\"c\",\"path\":\"dev/x\",\"major\":1,\"minor\":1}]}", "linux.devices[0].path: must be an absolute path");
	expect_error_extra("\"linux\":{\"devices\":[{\"type\":\"c\",\"path\":\"/dev/x\",\"minor\":1}]}", "linux.devices[0].major: required for a character device");
	expect_error_extra("\"linux\":{\"timeOffsets\":{\"monotonic\":{\"secs\":1}}}", "linux.timeOffsets: offsets need a new time namespace");
	expect_error_extra("\"linux\":{\"namespaces\":[{\"type\":\"time\"}],\"timeOffsets\":{\"realtime\":{\"secs\":1}}}", "linux.timeOffsets.realtime: unknown clock");
	expect_error_extra("\"linux\":{\"rootfsPropagation\":\"bogus\"}", "linux.rootfsPropagation: unknown propagation \"bogus\"");
	expect_error_extra("\"linux\":{\"sysctl\":{\"a\":1}}", "linux.sysctl.a: expected a string");
	expect_error_extra("\"linux\":{\"seccomp\":{}}", "linux.seccomp.defaultAction: required but missing");
	expect_error_extra("\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_FOO\"}}", "linux.seccomp.defaultAction: unknown action");
	expect_error_extra("\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"x\"],\"action\":\"SCMP_ACT_ERRNO\",\"args\":[{\"index\":7,\"value\":1,\"op\":\"SCMP_CMP_EQ\"}]}]}}", "linux.seccomp.syscalls[0].args[0].index: out of range");
	expect_error_extra("\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"x\"],\"action\":\"SCMP_ACT_ERRNO\",\"args\":[{\"index\":1,\"value\":1,\"op\":\"SCMP_CMP_XX\"}]}]}}", "linux.seccomp.syscalls[0].args[0].op: unknown operator");
	expect_error_extra("\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"flags\":[\"X\"]}}", "linux.seccomp.flags[0]: unknown flag");
	expect_error_extra("\"linux\":{\"personality\":{\"domain\":\"BSD\"}}", "linux.personality.domain: unknown domain");
	expect_error_extra("\"linux\":{\"resources\":{\"memory\":{\"limit\":\"1G\"}}}", "linux.resources.memory.limit: expected an integer");
	expect_error_extra("\"linux\":{\"resources\":{\"devices\":[{\"allow\":true,\"access\":\"rwx\"}]}}", "linux.resources.devices[0].access: must be a combination");
	expect_error_extra("\"linux\":{\"resources\":{\"devices\":[{\"access\":\"r\"}]}}", "linux.resources.devices[0].allow: required but missing");
	expect_error_extra("\"linux\":{\"resources\":{\"hugepageLimits\":[{\"pageSize\":\"2MB\"}]}}", "linux.resources.hugepageLimits[0].limit: required but missing");
	expect_error_extra("\"linux\":{\"resources\":{\"blockIO\":{\"throttleReadBpsDevice\":[{\"major\":8,\"minor\":0}]}}}", "linux.resources.blockIO.throttleReadBpsDevice[0].rate: required but missing");
	expect_error_extra("\"linux\":{\"resources\":{\"unified\":[]}}", "linux.resources.unified: expected an object");
}

static void test_last_duplicate_key_wins_and_null_is_absent(void)
{
	struct uerr e;
	struct oci_config *c = parse("{\"ociVersion\":\"1.0.0\",\"root\":{\"path\":\"a\"},\"root\":{\"path\":\"b\"},"
				     MIN_PROCESS ",\"hostname\":null,\"linux\":null}", &e);

	CHECK(c != NULL);
	if (c) {
		CHECK_STR(c->root.path, "b");
		CHECK(c->hostname == NULL);
	}
	config_free(c);
}

static void test_big_unsigned_values(void)
{
	struct uerr e;
	struct oci_config *c = parse("{\"ociVersion\":\"1.0.0\"," MIN_ROOT ",\"process\":{\"args\":[\"sh\"],\"cwd\":\"/\","
				     "\"rlimits\":[{\"type\":\"RLIMIT_NOFILE\",\"soft\":18446744073709551615,"
				     "\"hard\":18446744073709551615}]}}", &e);

	CHECK(c != NULL);
	if (c)
		CHECK(c->process->rlimits[0].hard == UINT64_MAX);
	config_free(c);
}

/* Before 1.2.1 clients wrote pids.limit 0 for "not set" (podman 4.3 sends
 * 1.0.2-dev with 0): no limit, no pids controller. */
static void test_zero_pids_limit_by_version(void)
{
	static const char *const versions[] = { "1.0.2-dev", "1.1.0", "1.2.0", "1.2.1", "1.3.0" };
	static const bool is_limit[] = { false, false, false, true, true };

	for (size_t i = 0; i < 5; i++) {
		struct uerr e;
		_cleanup_free_ char *t = xasprintf("{\"ociVersion\":\"%s\"," MIN_ROOT "," MIN_PROCESS
						   ",\"linux\":{\"resources\":{\"pids\":{\"limit\":0}}}}",
						   versions[i]);
		struct oci_config *c = parse(t, &e);

		CHECK(c != NULL);
		if (c)
			CHECK(c->linux.resources->pids.limit.set == is_limit[i]);
		config_free(c);
	}
}

/* The hand-made UTC formatting agrees with gmtime over a wide range. */
static void test_rfc3339_matches_gmtime(void)
{
	char mine[64], ref[64];
	int bad = 0;

	for (long long t = -2000000000LL; t < 5000000000LL; t += 86399LL * 37 + 13) {
		struct timespec ts = { .tv_sec = (time_t)t, .tv_nsec = 123456789 };
		struct tm tm;
		time_t tt = (time_t)t;

		format_rfc3339(mine, sizeof(mine), &ts);
		gmtime_r(&tt, &tm);
		strftime(ref, sizeof(ref), "%Y-%m-%dT%H:%M:%S.123456789Z", &tm);
		if (strcmp(mine, ref) && bad++ < 3)
			printf("  | %lld: %s != %s\n", t, mine, ref);
	}
	CHECK_INT(bad, 0);
}

static void test_default_spec_parses(void)
{
	for (int rootless = 0; rootless < 2; rootless++) {
		char *json = default_spec_json(rootless, 1000, 1000);
		struct uerr e;
		struct oci_config *c = parse(json, &e);

		CHECK(c != NULL);
		if (!c)
			printf("  | %s\n", e.msg);
		else {
			CHECK_INT(config_has_ns(c, CLONE_NEWUSER), rootless);
			CHECK_INT(config_has_ns(c, CLONE_NEWNET), !rootless);
		}
		config_free(c);
		free(json);
	}
}

static void test_state_round_trip(void)
{
	char *ann[] = { "k", "v", NULL };
	struct cstate s = { .id = "c1", .pid = 42, .pid_start = 7, .bundle = "/b", .rootfs = "/b/r",
			    .created = "t", .owner = "root", .annotations = ann, .cgroup = "/sys/fs/cgroup/x",
			    .cgroup_created = 2, .saved_config = true };
	size_t len;
	char *json = state_to_json(&s, &len);
	struct uerr e;
	struct cstate *p = state_parse(json, &e);

	CHECK(p != NULL);
	if (p) {
		CHECK_STR(p->id, "c1");
		CHECK_INT(p->pid, 42);
		CHECK_INT(p->pid_start, 7);
		CHECK_STR(p->cgroup, "/sys/fs/cgroup/x");
		CHECK_INT(p->cgroup_created, 2);
		CHECK(p->saved_config);
		CHECK_STR(strmap_get(p->annotations, "k"), "v");
	}
	state_free(p);
	free(json);
	p = state_parse("{\"id\":\"x\"}", &e);
	CHECK(p == NULL);
	CHECK_CONTAINS(e.msg, "state.json: pid: required but missing");
}

static void test_process_and_resources_documents(void)
{
	struct uerr e;
	struct oci_process_doc *d = process_parse("{\"args\":[\"ls\"],\"cwd\":\"/\",\"env\":[\"A=B\"]}", "process.json", &e);
	struct resources_doc *r;

	CHECK(d != NULL);
	if (d)
		CHECK_STR(d->process->args[0], "ls");
	process_doc_free(d);
	d = process_parse("{\"args\":[\"ls\"]}", "process.json", &e);
	CHECK(d == NULL);
	CHECK_CONTAINS(e.msg, "process.json: cwd: required but missing");
	r = resources_parse("{\"pids\":{\"limit\":10}}", "resources", &e);
	CHECK(r != NULL);
	if (r)
		CHECK_INT(r->res->pids.limit.v, 10);
	resources_doc_free(r);
	/* update's JSON has no version: 0 is "not set", as runc reads it. */
	r = resources_parse("{\"pids\":{\"limit\":0}}", "resources", &e);
	CHECK(r != NULL);
	if (r)
		CHECK(!r->res->pids.limit.set);
	resources_doc_free(r);
	r = resources_parse("{\"pids\":{\"limit\":\"x\"}}", "resources", &e);
	CHECK(r == NULL);
	CHECK_CONTAINS(e.msg, "resources: pids.limit: expected an integer");
}

int main(void)
{
	unit_suite = "test_spec";
	RUN(test_full_config_parses);
	RUN(test_top_level_errors);
	RUN(test_process_errors);
	RUN(test_mount_and_hook_errors);
	RUN(test_linux_errors);
	RUN(test_last_duplicate_key_wins_and_null_is_absent);
	RUN(test_big_unsigned_values);
	RUN(test_zero_pids_limit_by_version);
	RUN(test_rfc3339_matches_gmtime);
	RUN(test_default_spec_parses);
	RUN(test_state_round_trip);
	RUN(test_process_and_resources_documents);
	UNIT_END();
}
