/* `unirun features`: the OCI features document, listing only what unirun does. */
#include <sys/capability.h>
#include "lib/util.h"
#include "spec/default_spec.h"
#include "spec/state.h"

static void strs(yajl_gen g, const char *key, const char *const *v)
{
	jg_str(g, key);
	yajl_gen_array_open(g);
	for (; *v; v++)
		jg_str(g, *v);
	yajl_gen_array_close(g);
}

static void enabled(yajl_gen g, const char *key, bool on)
{
	jg_str(g, key);
	yajl_gen_map_open(g);
	jg_kb(g, "enabled", on);
	yajl_gen_map_close(g);
}

char *features_json(void)
{
	static const char *const hooks[] = { "prestart", "createRuntime", "createContainer",
					     "startContainer", "poststart", "poststop", NULL };
	static const char *const mopts[] = {
		"async", "atime", "bind", "defaults", "dev", "diratime", "dirsync", "exec", "lazytime",
		"idmap", "loud", "mand", "noatime", "nodev", "nodiratime", "noexec", "nolazytime", "nomand",
		"norelatime", "nostrictatime", "nosuid", "private", "rbind", "rdev", "rdiratime", "relatime",
		"remount", "rexec", "ridmap", "rnoatime", "rnodev", "rnodiratime", "rnoexec", "rnosuid", "ro",
		"rprivate", "rrelatime", "rro", "rrw", "rshared", "rslave", "rstrictatime", "rsuid",
		"runbindable", "rw", "shared", "silent", "slave", "strictatime", "suid", "sync",
		"unbindable", NULL };
	static const char *const ns[] = { "cgroup", "ipc", "mount", "network", "pid", "time", "user", "uts", NULL };
	static const char *const actions[] = { "SCMP_ACT_ALLOW", "SCMP_ACT_ERRNO", "SCMP_ACT_KILL",
		"SCMP_ACT_KILL_PROCESS", "SCMP_ACT_KILL_THREAD", "SCMP_ACT_LOG", "SCMP_ACT_NOTIFY",
		"SCMP_ACT_TRACE", "SCMP_ACT_TRAP", NULL };
	static const char *const ops[] = { "SCMP_CMP_EQ", "SCMP_CMP_GE", "SCMP_CMP_GT", "SCMP_CMP_LE",
		"SCMP_CMP_LT", "SCMP_CMP_MASKED_EQ", "SCMP_CMP_NE", NULL };
	static const char *const archs[] = { "SCMP_ARCH_X86", "SCMP_ARCH_X86_64", "SCMP_ARCH_X32",
		"SCMP_ARCH_AARCH64", "SCMP_ARCH_ARM", NULL };
	static const char *const flags[] = { "SECCOMP_FILTER_FLAG_TSYNC", "SECCOMP_FILTER_FLAG_LOG",
		"SECCOMP_FILTER_FLAG_SPEC_ALLOW", NULL };
	yajl_gen g = yajl_gen_alloc(NULL);

	yajl_gen_config(g, yajl_gen_beautify, 1);
	yajl_gen_config(g, yajl_gen_indent_string, "    ");
	yajl_gen_map_open(g);
	jg_kv(g, "ociVersionMin", "1.0.0");
	jg_kv(g, "ociVersionMax", OCI_VERSION);
	strs(g, "hooks", hooks);
	strs(g, "mountOptions", mopts);
	jg_str(g, "linux");
	yajl_gen_map_open(g);
	strs(g, "namespaces", ns);
	jg_str(g, "capabilities");
	yajl_gen_array_open(g);
	for (cap_value_t c = 0; c <= CAP_LAST_CAP; c++) {
		char *name = cap_to_name(c);
		_cleanup_free_ char *up = xasprintf("%s", name);
		for (char *p = up; *p; p++)
			*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
		jg_str(g, up);
		cap_free(name);
	}
	yajl_gen_array_close(g);
	jg_str(g, "cgroup");
	yajl_gen_map_open(g);
	jg_kb(g, "v1", false);
	jg_kb(g, "v2", true);
	jg_kb(g, "systemd", false);
	jg_kb(g, "systemdUser", false);
	jg_kb(g, "rdma", true);
	yajl_gen_map_close(g);
	jg_str(g, "seccomp");
	yajl_gen_map_open(g);
	jg_kb(g, "enabled", true);
	strs(g, "actions", actions);
	strs(g, "operators", ops);
	strs(g, "archs", archs);
	strs(g, "knownFlags", flags);
	strs(g, "supportedFlags", flags);
	yajl_gen_map_close(g);
	enabled(g, "apparmor", false);
	enabled(g, "selinux", false);
	enabled(g, "intelRdt", false);
	jg_str(g, "mountExtensions");
	yajl_gen_map_open(g);
	enabled(g, "idmap", true);
	yajl_gen_map_close(g);
	yajl_gen_map_close(g);
	jg_str(g, "annotations");
	yajl_gen_map_open(g);
	jg_kv(g, "io.github.unirun.cgroup", "v2");
#ifdef HAVE_CRIU
	jg_kv(g, "org.opencontainers.runc.checkpoint.enabled", "true");
#else
	jg_kv(g, "org.opencontainers.runc.checkpoint.enabled", "false");
#endif
	yajl_gen_map_close(g);
	yajl_gen_map_close(g);
	return jg_finish(g, NULL);
}
