#include <stdbool.h>
#include <string.h>
#include "lib/util.h"
#include "spec/default_spec.h"
#include "spec/state.h"

#define CAPS "\"CAP_AUDIT_WRITE\", \"CAP_KILL\", \"CAP_NET_BIND_SERVICE\""

char *default_spec_json(bool rootless, unsigned uid, unsigned gid)
{
	char maps[256] = "";
	const char *sys =
		rootless ? "{ \"destination\": \"/sys\", \"type\": \"none\", \"source\": \"/sys\", "
			   "\"options\": [\"rbind\", \"nosuid\", \"noexec\", \"nodev\", \"ro\"] }"
			 : "{ \"destination\": \"/sys\", \"type\": \"sysfs\", \"source\": \"sysfs\", "
			   "\"options\": [\"nosuid\", \"noexec\", \"nodev\", \"ro\"] },\n"
			   "    { \"destination\": \"/sys/fs/cgroup\", \"type\": \"cgroup\", \"source\": \"cgroup\", "
			   "\"options\": [\"nosuid\", \"noexec\", \"nodev\", \"relatime\", \"ro\"] }";

	if (rootless)
		snprintf(maps, sizeof(maps),
			 "  \"uidMappings\": [ { \"containerID\": 0, \"hostID\": %u, \"size\": 1 } ],\n"
			 "  \"gidMappings\": [ { \"containerID\": 0, \"hostID\": %u, \"size\": 1 } ],\n", uid, gid);
	return xasprintf(
		"{\n"
		" \"ociVersion\": \"" OCI_VERSION "\",\n"
		" \"process\": {\n"
		"  \"terminal\": true,\n"
		"  \"user\": { \"uid\": 0, \"gid\": 0 },\n"
		"  \"args\": [ \"sh\" ],\n"
		"  \"env\": [ \"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\", \"TERM=xterm\" ],\n"
		"  \"cwd\": \"/\",\n"
		"  \"capabilities\": {\n"
		"   \"bounding\": [ " CAPS " ],\n"
		"   \"effective\": [ " CAPS " ],\n"
		"   \"permitted\": [ " CAPS " ],\n"
		"   \"ambient\": [ " CAPS " ]\n"
		"  },\n"
		"  \"rlimits\": [ { \"type\": \"RLIMIT_NOFILE\", \"hard\": 1024, \"soft\": 1024 } ],\n"
		"  \"noNewPrivileges\": true\n"
		" },\n"
		" \"root\": { \"path\": \"rootfs\", \"readonly\": true },\n"
		" \"hostname\": \"unirun\",\n"
		" \"mounts\": [\n"
		"    { \"destination\": \"/proc\", \"type\": \"proc\", \"source\": \"proc\" },\n"
		"    { \"destination\": \"/dev\", \"type\": \"tmpfs\", \"source\": \"tmpfs\", "
		"\"options\": [\"nosuid\", \"strictatime\", \"mode=755\", \"size=65536k\"] },\n"
		"    { \"destination\": \"/dev/pts\", \"type\": \"devpts\", \"source\": \"devpts\", "
		"\"options\": [\"nosuid\", \"noexec\", \"newinstance\", \"ptmxmode=0666\", \"mode=0620\"%s] },\n"
		"    { \"destination\": \"/dev/shm\", \"type\": \"tmpfs\", \"source\": \"shm\", "
		"\"options\": [\"nosuid\", \"noexec\", \"nodev\", \"mode=1777\", \"size=65536k\"] },\n"
		"    { \"destination\": \"/dev/mqueue\", \"type\": \"mqueue\", \"source\": \"mqueue\", "
		"\"options\": [\"nosuid\", \"noexec\", \"nodev\"] },\n"
		"    %s\n"
		" ],\n"
		" \"linux\": {\n"
		"%s"
		"%s"
		"  \"namespaces\": [ { \"type\": \"pid\" }, %s{ \"type\": \"ipc\" }, { \"type\": \"uts\" }, "
		"{ \"type\": \"mount\" }, { \"type\": \"cgroup\" }%s ],\n"
		"  \"maskedPaths\": [ \"/proc/acpi\", \"/proc/asound\", \"/proc/kcore\", \"/proc/keys\", "
		"\"/proc/latency_stats\", \"/proc/timer_list\", \"/proc/timer_stats\", \"/proc/sched_debug\", "
		"\"/sys/firmware\", \"/proc/scsi\", \"/sys/devices/virtual/powercap\" ],\n"
		"  \"readonlyPaths\": [ \"/proc/bus\", \"/proc/fs\", \"/proc/irq\", \"/proc/sys\", \"/proc/sysrq-trigger\" ]\n"
		" }\n"
		"}\n",
		rootless ? "" : ", \"gid=5\"", sys,
		rootless ? "" : "  \"resources\": { \"devices\": [ { \"allow\": false, \"access\": \"rwm\" } ] },\n",
		maps, rootless ? "" : "{ \"type\": \"network\" }, ", rootless ? ", { \"type\": \"user\" }" : "");
}
