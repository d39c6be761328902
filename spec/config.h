/* The OCI runtime-spec 1.2 config.json for Linux, as plain C structs.
 * Parsed once; strings point into the JSON tree kept in `tree`. */
#ifndef UNIRUN_CONFIG_H
#define UNIRUN_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "spec/json.h"

struct oci_user {
	uint32_t uid, gid;
	struct opt_i64 umask;
	uint32_t *additional_gids;
	size_t n_additional_gids;
	char *username;
};

struct oci_capabilities {
	bool given;
	char **bounding, **effective, **inheritable, **permitted, **ambient;
};

struct oci_rlimit {
	int resource;           /* RLIMIT_* */
	char *type;
	uint64_t soft, hard;
};

struct oci_scheduler {
	bool given;
	int policy;             /* SCHED_* */
	int nice, priority;
	uint32_t flags;         /* SCHED_FLAG_* */
	uint64_t runtime, deadline, period;
};

struct oci_io_priority {
	bool given;
	int klass;              /* IOPRIO_CLASS_* */
	int priority;
};

struct oci_exec_affinity {
	char *initial, *final;
};

struct oci_process {
	bool terminal;
	struct { bool given; uint32_t height, width; } console_size;
	struct oci_user user;
	char **args;
	char **env;
	char *cwd;
	struct oci_capabilities caps;
	struct oci_rlimit *rlimits;
	size_t n_rlimits;
	bool no_new_privileges;
	struct opt_i64 oom_score_adj;
	struct oci_scheduler scheduler;
	struct oci_io_priority io_priority;
	char *apparmor_profile, *selinux_label;
	struct oci_exec_affinity exec_cpu_affinity;
};

struct oci_mount {
	char *destination, *source, *type;
	char **options;
	struct oci_idmap *uid_mappings, *gid_mappings;
	size_t n_uid_mappings, n_gid_mappings;
};

struct oci_hook {
	char *path;
	char **args, **env;
	struct opt_i64 timeout;
};

enum hook_kind {
	HOOK_PRESTART,
	HOOK_CREATE_RUNTIME,
	HOOK_CREATE_CONTAINER,
	HOOK_START_CONTAINER,
	HOOK_POSTSTART,
	HOOK_POSTSTOP,
	HOOK_KINDS
};
extern const char *const hook_kind_names[HOOK_KINDS];

struct oci_hooks {
	struct oci_hook *list[HOOK_KINDS];
	size_t n[HOOK_KINDS];
};

struct oci_namespace {
	int type;               /* CLONE_NEW* */
	char *path;
};

struct oci_idmap {
	uint32_t container_id, host_id, size;
};

struct oci_device {
	char type;              /* c, b, u, p */
	char *path;
	int64_t major, minor;
	struct opt_i64 file_mode, uid, gid;
};

struct oci_time_offset {
	bool given;
	int64_t secs;
	uint32_t nanosecs;
};

struct res_device {
	bool allow;
	char type;              /* a, c, b */
	int64_t major, minor;   /* -1: any */
	char access[4];         /* subset of rwm */
};

struct res_weight_device {
	int64_t major, minor;
	struct opt_i64 weight, leaf_weight;
};

struct res_throttle_device {
	int64_t major, minor;
	uint64_t rate;
};

struct res_hugepage {
	char *pagesize;
	uint64_t limit;
};

struct res_rdma {
	char *device;
	struct opt_i64 handles, objects;
};

/* linux.resources: cgroup v2 knows most of it; the v1-only fields are kept so
 * that cgroup/ can refuse them by name. */
struct resources {
	struct res_device *devices;
	size_t n_devices;
	struct {
		struct opt_i64 limit, reservation, swap, kernel, kernel_tcp, swappiness;
		bool disable_oom_killer, use_hierarchy, check_before_update;
		bool disable_oom_killer_set, use_hierarchy_set;
	} memory;
	struct {
		struct opt_i64 shares, quota, burst, period, realtime_runtime, realtime_period, idle;
		char *cpus, *mems;
	} cpu;
	struct {
		struct opt_i64 limit;
	} pids;
	struct {
		struct opt_i64 weight, leaf_weight;
		struct res_weight_device *weight_device;
		size_t n_weight_device;
		struct res_throttle_device *throttle[4]; /* read bps, write bps, read iops, write iops */
		size_t n_throttle[4];
	} block_io;
	struct res_hugepage *hugepages;
	size_t n_hugepages;
	struct {
		bool given;
	} network;
	struct res_rdma *rdma;
	size_t n_rdma;
	char **unified;          /* key, value, … NULL */
};

struct seccomp_arg {
	uint32_t index;
	uint64_t value, value_two;
	char *op;
};

struct seccomp_syscall {
	char **names;
	char *action;
	struct opt_i64 errno_ret;
	struct seccomp_arg *args;
	size_t n_args;
};

struct oci_seccomp {
	char *default_action;
	struct opt_i64 default_errno_ret;
	char **architectures;
	char **flags;
	char *listener_path, *listener_metadata;
	struct seccomp_syscall *syscalls;
	size_t n_syscalls;
};

struct oci_linux {
	struct oci_namespace *namespaces;
	size_t n_namespaces;
	struct oci_idmap *uid_mappings, *gid_mappings;
	size_t n_uid_mappings, n_gid_mappings;
	struct oci_time_offset monotonic, boottime;
	struct oci_device *devices;
	size_t n_devices;
	char *cgroups_path;
	struct resources *resources;
	char **sysctl;           /* key, value, … NULL */
	struct oci_seccomp *seccomp;
	unsigned long rootfs_propagation; /* MS_* or 0 */
	char **masked_paths, **readonly_paths;
	char *mount_label;
	struct { bool given; char *domain; char **flags; } personality;
	bool intel_rdt;
};

struct oci_config {
	char *oci_version;
	struct oci_process *process;
	struct { char *path; bool readonly; } root;
	char *hostname, *domainname;
	struct oci_mount *mounts;
	size_t n_mounts;
	struct oci_hooks hooks;
	char **annotations;      /* key, value, … NULL */
	struct oci_linux linux;

	yajl_val tree;
	struct arena arena;
	char *text;              /* config_load: the bytes that were parsed */
	size_t text_len;
};

/* Parse config.json text. `what` names the source in messages ("config.json"). */
struct oci_config *config_parse(const char *text, const char *what, struct uerr *e);
/* Read and parse BUNDLE/config.json, keeping its text (to save it as run). */
int config_load(const char *bundle, struct oci_config **out, struct uerr *e);
void config_free(struct oci_config *c);

/* A process object on its own (exec --process). */
struct oci_process_doc {
	struct oci_process *process;
	yajl_val tree;
	struct arena arena;
};
struct oci_process_doc *process_parse(const char *text, const char *what, struct uerr *e);
void process_doc_free(struct oci_process_doc *d);

/* A LinuxResources object on its own (update --resources). */
struct resources_doc {
	struct resources *res;
	yajl_val tree;
	struct arena arena;
};
struct resources_doc *resources_parse(const char *text, const char *what, struct uerr *e);
void resources_doc_free(struct resources_doc *d);

/* Parsers shared between the files of spec/. */
int parse_process(struct jctx *c, yajl_val v, const char *path, void *out);
int parse_linux(struct jctx *c, yajl_val v, const char *path, void *out);
int parse_resources(struct jctx *c, yajl_val v, const char *path, void *out);
int parse_idmap(struct jctx *c, yajl_val v, const char *path, void *out);

bool config_has_ns(const struct oci_config *c, int type);
const struct oci_namespace *config_ns(const struct oci_config *c, int type);
const char *ns_type_name(int type);
int ns_type_from_name(const char *name);
/* Look a key up in a key,value,… vector. */
const char *strmap_get(char *const *kv, const char *key);

#endif
