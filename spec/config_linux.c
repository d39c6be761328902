/* config.json: linux — namespaces, id mappings, devices, seccomp and the rest. */
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include "lib/util.h"
#include "spec/config.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static int parse_namespace(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_namespace *ns = out;
	char sub[JPATH_MAX], *type;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_req(c, v, path, "type", j_str, &type) < 0 ||
	    j_opt(c, v, path, "path", j_str, &ns->path) < 0)
		return uerr_ret(c->e);
	ns->type = ns_type_from_name(type);
	jpath_key(sub, path, "type");
	if (!ns->type)
		return j_err(c, sub, "unknown namespace \"%s\"", type);
	jpath_key(sub, path, "path");
	if (ns->path && ns->path[0] != '/')
		return j_err(c, sub, "must be an absolute path, got \"%s\"", ns->path);
	return 0;
}

int parse_idmap(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_idmap *m = out;
	char sub[JPATH_MAX];

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_req(c, v, path, "containerID", j_u32, &m->container_id) < 0 ||
	    j_req(c, v, path, "hostID", j_u32, &m->host_id) < 0 ||
	    j_req(c, v, path, "size", j_u32, &m->size) < 0)
		return uerr_ret(c->e);
	jpath_key(sub, path, "size");
	if (m->size == 0)
		return j_err(c, sub, "must be positive");
	return 0;
}

static int parse_device(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_device *d = out;
	char sub[JPATH_MAX], *type;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	d->major = d->minor = -1;
	if (j_req(c, v, path, "type", j_str, &type) < 0 ||
	    j_req(c, v, path, "path", j_str, &d->path) < 0 ||
	    j_opt(c, v, path, "major", j_i64, &d->major) < 0 ||
	    j_opt(c, v, path, "minor", j_i64, &d->minor) < 0 ||
	    j_opt(c, v, path, "fileMode", j_opt_u64, &d->file_mode) < 0 ||
	    j_opt(c, v, path, "uid", j_opt_u64, &d->uid) < 0 ||
	    j_opt(c, v, path, "gid", j_opt_u64, &d->gid) < 0)
		return uerr_ret(c->e);
	jpath_key(sub, path, "type");
	if (strlen(type) != 1 || !strchr("cbup", type[0]))
		return j_err(c, sub, "unknown device type \"%s\" (c, b, u or p)", type);
	d->type = type[0];
	jpath_key(sub, path, "path");
	if (d->path[0] != '/')
		return j_err(c, sub, "must be an absolute path, got \"%s\"", d->path);
	if (d->type != 'p' && (d->major < 0 || d->minor < 0)) {
		jpath_key(sub, path, d->major < 0 ? "major" : "minor");
		return j_err(c, sub, "required for a %s device", d->type == 'b' ? "block" : "character");
	}
	jpath_key(sub, path, "fileMode");
	if (d->file_mode.set && d->file_mode.v > 07777)
		return j_err(c, sub, "out of range 0..07777");
	return 0;
}

static int parse_offset(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_time_offset *o = out;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_opt(c, v, path, "secs", j_i64, &o->secs) < 0 ||
	    j_opt(c, v, path, "nanosecs", j_u32, &o->nanosecs) < 0)
		return uerr_ret(c->e);
	if (o->nanosecs >= 1000000000u)
		return j_err(c, path, "nanosecs must be below 1000000000");
	o->given = true;
	return 0;
}

static int parse_time_offsets(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_linux *l = out;
	char sub[JPATH_MAX];

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	for (size_t i = 0; i < v->u.object.len; i++) {
		const char *k = v->u.object.keys[i];
		if (strcmp(k, "monotonic") && strcmp(k, "boottime")) {
			jpath_key(sub, path, k);
			return j_err(c, sub, "unknown clock (monotonic or boottime)");
		}
	}
	if (j_opt(c, v, path, "monotonic", parse_offset, &l->monotonic) < 0 ||
	    j_opt(c, v, path, "boottime", parse_offset, &l->boottime) < 0)
		return uerr_ret(c->e);
	return 0;
}

static const struct {
	const char *name;
	unsigned long flags;
} propagations[] = {
	{ "private", MS_PRIVATE },    { "rprivate", MS_PRIVATE | MS_REC },
	{ "slave", MS_SLAVE },        { "rslave", MS_SLAVE | MS_REC },
	{ "shared", MS_SHARED },      { "rshared", MS_SHARED | MS_REC },
	{ "unbindable", MS_UNBINDABLE }, { "runbindable", MS_UNBINDABLE | MS_REC },
};

static int parse_propagation(struct jctx *c, yajl_val v, const char *path, void *out)
{
	char *s;

	if (j_str(c, v, path, &s) < 0)
		return uerr_ret(c->e);
	for (size_t i = 0; i < ARRAY_SIZE(propagations); i++)
		if (strcmp(propagations[i].name, s) == 0) {
			*(unsigned long *)out = propagations[i].flags;
			return 0;
		}
	return j_err(c, path, "unknown propagation \"%s\"", s);
}

static const char *const seccomp_actions[] = {
	"SCMP_ACT_KILL", "SCMP_ACT_KILL_PROCESS", "SCMP_ACT_KILL_THREAD", "SCMP_ACT_TRAP",
	"SCMP_ACT_ERRNO", "SCMP_ACT_TRACE", "SCMP_ACT_ALLOW", "SCMP_ACT_LOG", "SCMP_ACT_NOTIFY",
};
static const char *const seccomp_ops[] = {
	"SCMP_CMP_NE", "SCMP_CMP_LT", "SCMP_CMP_LE", "SCMP_CMP_EQ",
	"SCMP_CMP_GE", "SCMP_CMP_GT", "SCMP_CMP_MASKED_EQ",
};
static const char *const seccomp_flags[] = {
	"SECCOMP_FILTER_FLAG_TSYNC", "SECCOMP_FILTER_FLAG_LOG", "SECCOMP_FILTER_FLAG_SPEC_ALLOW",
	"SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV",
};

static int one_of(struct jctx *c, const char *path, const char *s, const char *const *set, size_t n,
		  const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(set[i], s) == 0)
			return 0;
	return j_err(c, path, "unknown %s \"%s\"", what, s);
}

static int parse_seccomp_arg(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct seccomp_arg *a = out;
	char sub[JPATH_MAX];

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_req(c, v, path, "index", j_u32, &a->index) < 0 ||
	    j_req(c, v, path, "value", j_u64, &a->value) < 0 ||
	    j_opt(c, v, path, "valueTwo", j_u64, &a->value_two) < 0 ||
	    j_req(c, v, path, "op", j_str, &a->op) < 0)
		return uerr_ret(c->e);
	jpath_key(sub, path, "index");
	if (a->index > 5)
		return j_err(c, sub, "out of range 0..5: %u", a->index);
	jpath_key(sub, path, "op");
	return one_of(c, sub, a->op, seccomp_ops, ARRAY_SIZE(seccomp_ops), "operator");
}

static int parse_seccomp_syscall(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct seccomp_syscall *s = out;
	char sub[JPATH_MAX];
	yajl_val a;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_req(c, v, path, "names", j_strv, &s->names) < 0 ||
	    j_req(c, v, path, "action", j_str, &s->action) < 0 ||
	    j_opt(c, v, path, "errnoRet", j_opt_u64, &s->errno_ret) < 0)
		return uerr_ret(c->e);
	jpath_key(sub, path, "action");
	if (one_of(c, sub, s->action, seccomp_actions, ARRAY_SIZE(seccomp_actions), "action") < 0)
		return uerr_ret(c->e);
	a = j_get(v, "args");
	jpath_key(sub, path, "args");
	if (a && !YAJL_IS_NULL(a) &&
	    j_array(c, a, sub, sizeof(struct seccomp_arg), parse_seccomp_arg, (void **)&s->args,
		    &s->n_args) < 0)
		return uerr_ret(c->e);
	return 0;
}

static int parse_seccomp(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_seccomp *s = arena_alloc(c->arena, sizeof(*s));
	char sub[JPATH_MAX];
	yajl_val a;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_req(c, v, path, "defaultAction", j_str, &s->default_action) < 0 ||
	    j_opt(c, v, path, "defaultErrnoRet", j_opt_u64, &s->default_errno_ret) < 0 ||
	    j_opt(c, v, path, "architectures", j_strv, &s->architectures) < 0 ||
	    j_opt(c, v, path, "flags", j_strv, &s->flags) < 0 ||
	    j_opt(c, v, path, "listenerPath", j_str, &s->listener_path) < 0 ||
	    j_opt(c, v, path, "listenerMetadata", j_str, &s->listener_metadata) < 0)
		return uerr_ret(c->e);
	jpath_key(sub, path, "defaultAction");
	if (one_of(c, sub, s->default_action, seccomp_actions, ARRAY_SIZE(seccomp_actions), "action") < 0)
		return uerr_ret(c->e);
	for (size_t i = 0; s->flags && s->flags[i]; i++) {
		snprintf(sub, sizeof(sub), "%s.flags[%zu]", path, i);
		if (one_of(c, sub, s->flags[i], seccomp_flags, ARRAY_SIZE(seccomp_flags), "flag") < 0)
			return uerr_ret(c->e);
	}
	a = j_get(v, "syscalls");
	jpath_key(sub, path, "syscalls");
	if (a && !YAJL_IS_NULL(a) &&
	    j_array(c, a, sub, sizeof(struct seccomp_syscall), parse_seccomp_syscall,
		    (void **)&s->syscalls, &s->n_syscalls) < 0)
		return uerr_ret(c->e);
	*(struct oci_seccomp **)out = s;
	return 0;
}

static int parse_personality(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_linux *l = out;
	char sub[JPATH_MAX];

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_req(c, v, path, "domain", j_str, &l->personality.domain) < 0 ||
	    j_opt(c, v, path, "flags", j_strv, &l->personality.flags) < 0)
		return uerr_ret(c->e);
	jpath_key(sub, path, "domain");
	if (strcmp(l->personality.domain, "LINUX") && strcmp(l->personality.domain, "LINUX32"))
		return j_err(c, sub, "unknown domain \"%s\" (LINUX or LINUX32)", l->personality.domain);
	l->personality.given = true;
	return 0;
}

static int parse_present(struct jctx *c, yajl_val v, const char *path, void *out)
{
	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	*(bool *)out = true;
	return 0;
}

static int parse_linux_arrays(struct jctx *c, yajl_val v, const char *path, struct oci_linux *l)
{
	static const struct {
		const char *key;
		size_t size;
		j_fn fn;
		size_t off_arr, off_n;
	} arrays[] = {
#define A(k, t, f, arr, n) { k, sizeof(t), f, offsetof(struct oci_linux, arr), offsetof(struct oci_linux, n) }
		A("namespaces", struct oci_namespace, parse_namespace, namespaces, n_namespaces),
		A("uidMappings", struct oci_idmap, parse_idmap, uid_mappings, n_uid_mappings),
		A("gidMappings", struct oci_idmap, parse_idmap, gid_mappings, n_gid_mappings),
		A("devices", struct oci_device, parse_device, devices, n_devices),
#undef A
	};
	char sub[JPATH_MAX];

	for (size_t i = 0; i < ARRAY_SIZE(arrays); i++) {
		yajl_val a = j_get(v, arrays[i].key);

		if (!a || YAJL_IS_NULL(a))
			continue;
		jpath_key(sub, path, arrays[i].key);
		if (j_array(c, a, sub, arrays[i].size, arrays[i].fn, (void **)((char *)l + arrays[i].off_arr),
			    (size_t *)((char *)l + arrays[i].off_n)) < 0)
			return uerr_ret(c->e);
	}
	return 0;
}

/* Rules that need the whole of linux: duplicates and what depends on a namespace. */
static int check_linux(struct jctx *c, const struct oci_linux *l)
{
	char sub[JPATH_MAX];
	bool userns = false, timens = false;

	for (size_t i = 0; i < l->n_namespaces; i++) {
		for (size_t j = 0; j < i; j++)
			if (l->namespaces[i].type == l->namespaces[j].type) {
				snprintf(sub, sizeof(sub), "linux.namespaces[%zu].type", i);
				return j_err(c, sub, "duplicate namespace \"%s\"", ns_type_name(l->namespaces[i].type));
			}
		userns |= l->namespaces[i].type == CLONE_NEWUSER;
		timens |= l->namespaces[i].type == CLONE_NEWTIME && !l->namespaces[i].path;
	}
	if ((l->n_uid_mappings || l->n_gid_mappings) && !userns)
		return j_err(c, l->n_uid_mappings ? "linux.uidMappings" : "linux.gidMappings",
			     "mappings need a user namespace in linux.namespaces");
	if ((l->monotonic.given || l->boottime.given) && !timens)
		return j_err(c, "linux.timeOffsets", "offsets need a new time namespace in linux.namespaces");
	return 0;
}

int parse_linux(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_config *cfg = out;
	struct oci_linux *l = &cfg->linux;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (parse_linux_arrays(c, v, path, l) < 0 ||
	    j_opt(c, v, path, "timeOffsets", parse_time_offsets, l) < 0 ||
	    j_opt(c, v, path, "cgroupsPath", j_str, &l->cgroups_path) < 0 ||
	    j_opt(c, v, path, "resources", parse_resources, &l->resources) < 0 ||
	    j_opt(c, v, path, "sysctl", j_strmap, &l->sysctl) < 0 ||
	    j_opt(c, v, path, "seccomp", parse_seccomp, &l->seccomp) < 0 ||
	    j_opt(c, v, path, "rootfsPropagation", parse_propagation, &l->rootfs_propagation) < 0 ||
	    j_opt(c, v, path, "maskedPaths", j_strv, &l->masked_paths) < 0 ||
	    j_opt(c, v, path, "readonlyPaths", j_strv, &l->readonly_paths) < 0 ||
	    j_opt(c, v, path, "mountLabel", j_str, &l->mount_label) < 0 ||
	    j_opt(c, v, path, "personality", parse_personality, l) < 0 ||
	    j_opt(c, v, path, "intelRdt", parse_present, &l->intel_rdt) < 0)
		return uerr_ret(c->e);
	return check_linux(c, l);
}
