/* config.json: process — what runs in the container and as whom. */
#include <linux/ioprio.h>
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include "lib/util.h"
#include "spec/config.h"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif
#ifndef SCHED_IDLE
#define SCHED_IDLE 5
#endif

static const struct {
	const char *name;
	int res;
} rlimit_names[] = {
	{ "RLIMIT_AS", RLIMIT_AS },           { "RLIMIT_CORE", RLIMIT_CORE },
	{ "RLIMIT_CPU", RLIMIT_CPU },         { "RLIMIT_DATA", RLIMIT_DATA },
	{ "RLIMIT_FSIZE", RLIMIT_FSIZE },     { "RLIMIT_LOCKS", RLIMIT_LOCKS },
	{ "RLIMIT_MEMLOCK", RLIMIT_MEMLOCK }, { "RLIMIT_MSGQUEUE", RLIMIT_MSGQUEUE },
	{ "RLIMIT_NICE", RLIMIT_NICE },       { "RLIMIT_NOFILE", RLIMIT_NOFILE },
	{ "RLIMIT_NPROC", RLIMIT_NPROC },     { "RLIMIT_RSS", RLIMIT_RSS },
	{ "RLIMIT_RTPRIO", RLIMIT_RTPRIO },   { "RLIMIT_RTTIME", RLIMIT_RTTIME },
	{ "RLIMIT_SIGPENDING", RLIMIT_SIGPENDING }, { "RLIMIT_STACK", RLIMIT_STACK },
};

static const struct {
	const char *name;
	int policy;
} sched_names[] = {
	{ "SCHED_OTHER", SCHED_OTHER }, { "SCHED_FIFO", SCHED_FIFO }, { "SCHED_RR", SCHED_RR },
	{ "SCHED_BATCH", SCHED_BATCH }, { "SCHED_ISO", 4 },           { "SCHED_IDLE", SCHED_IDLE },
	{ "SCHED_DEADLINE", SCHED_DEADLINE },
};

static const struct {
	const char *name;
	uint32_t flag;
} sched_flag_names[] = {
	{ "SCHED_FLAG_RESET_ON_FORK", 0x01 }, { "SCHED_FLAG_RECLAIM", 0x02 },
	{ "SCHED_FLAG_DL_OVERRUN", 0x04 },    { "SCHED_FLAG_KEEP_POLICY", 0x08 },
	{ "SCHED_FLAG_KEEP_PARAMS", 0x10 },   { "SCHED_FLAG_UTIL_CLAMP_MIN", 0x20 },
	{ "SCHED_FLAG_UTIL_CLAMP_MAX", 0x40 },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static int parse_gid(struct jctx *c, yajl_val v, const char *path, void *out)
{
	return j_u32(c, v, path, out);
}

static int parse_user(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_user *u = out;
	char sub[JPATH_MAX];
	yajl_val g;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_opt(c, v, path, "uid", j_u32, &u->uid) < 0 ||
	    j_opt(c, v, path, "gid", j_u32, &u->gid) < 0 ||
	    j_opt(c, v, path, "umask", j_opt_u64, &u->umask) < 0 ||
	    j_opt(c, v, path, "username", j_str, &u->username) < 0)
		return uerr_ret(c->e);
	if (u->umask.set && u->umask.v > 0777) {
		jpath_key(sub, path, "umask");
		return j_err(c, sub, "out of range 0..0777: %lld", (long long)u->umask.v);
	}
	g = j_get(v, "additionalGids");
	jpath_key(sub, path, "additionalGids");
	if (g && !YAJL_IS_NULL(g) &&
	    j_array(c, g, sub, sizeof(uint32_t), parse_gid, (void **)&u->additional_gids,
		    &u->n_additional_gids) < 0)
		return uerr_ret(c->e);
	return 0;
}

static int parse_caps(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_capabilities *caps = out;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	caps->given = true;
	if (j_opt(c, v, path, "bounding", j_strv, &caps->bounding) < 0 ||
	    j_opt(c, v, path, "effective", j_strv, &caps->effective) < 0 ||
	    j_opt(c, v, path, "inheritable", j_strv, &caps->inheritable) < 0 ||
	    j_opt(c, v, path, "permitted", j_strv, &caps->permitted) < 0 ||
	    j_opt(c, v, path, "ambient", j_strv, &caps->ambient) < 0)
		return uerr_ret(c->e);
	return 0;
}

static int parse_rlimit(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_rlimit *rl = out;
	char sub[JPATH_MAX];
	size_t i;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_req(c, v, path, "type", j_str, &rl->type) < 0 ||
	    j_req(c, v, path, "soft", j_u64, &rl->soft) < 0 ||
	    j_req(c, v, path, "hard", j_u64, &rl->hard) < 0)
		return uerr_ret(c->e);
	for (i = 0; i < ARRAY_SIZE(rlimit_names); i++)
		if (strcmp(rlimit_names[i].name, rl->type) == 0)
			break;
	jpath_key(sub, path, "type");
	if (i == ARRAY_SIZE(rlimit_names))
		return j_err(c, sub, "unknown rlimit \"%s\"", rl->type);
	rl->resource = rlimit_names[i].res;
	if (rl->soft > rl->hard) {
		jpath_key(sub, path, "soft");
		return j_err(c, sub, "soft limit %llu exceeds hard limit %llu",
			     (unsigned long long)rl->soft, (unsigned long long)rl->hard);
	}
	return 0;
}

static int parse_sched_flag(struct jctx *c, yajl_val v, const char *path, void *out)
{
	char *name;

	if (j_str(c, v, path, &name) < 0)
		return uerr_ret(c->e);
	for (size_t i = 0; i < ARRAY_SIZE(sched_flag_names); i++)
		if (strcmp(sched_flag_names[i].name, name) == 0) {
			*(uint32_t *)out = sched_flag_names[i].flag;
			return 0;
		}
	return j_err(c, path, "unknown scheduler flag \"%s\"", name);
}

static int parse_scheduler(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_scheduler *s = out;
	char sub[JPATH_MAX], *policy;
	uint32_t *flags;
	size_t n = 0, i;
	yajl_val f;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_req(c, v, path, "policy", j_str, &policy) < 0 ||
	    j_opt(c, v, path, "nice", j_int, &s->nice) < 0 ||
	    j_opt(c, v, path, "priority", j_int, &s->priority) < 0 ||
	    j_opt(c, v, path, "runtime", j_u64, &s->runtime) < 0 ||
	    j_opt(c, v, path, "deadline", j_u64, &s->deadline) < 0 ||
	    j_opt(c, v, path, "period", j_u64, &s->period) < 0)
		return uerr_ret(c->e);
	for (i = 0; i < ARRAY_SIZE(sched_names); i++)
		if (strcmp(sched_names[i].name, policy) == 0)
			break;
	jpath_key(sub, path, "policy");
	if (i == ARRAY_SIZE(sched_names))
		return j_err(c, sub, "unknown scheduler policy \"%s\"", policy);
	s->policy = sched_names[i].policy;
	if (s->nice < -20 || s->nice > 19) {
		jpath_key(sub, path, "nice");
		return j_err(c, sub, "out of range -20..19: %d", s->nice);
	}
	f = j_get(v, "flags");
	jpath_key(sub, path, "flags");
	if (f && !YAJL_IS_NULL(f)) {
		if (j_array(c, f, sub, sizeof(uint32_t), parse_sched_flag, (void **)&flags, &n) < 0)
			return uerr_ret(c->e);
		for (i = 0; i < n; i++)
			s->flags |= flags[i];
	}
	s->given = true;
	return 0;
}

static int parse_io_priority(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_io_priority *p = out;
	char sub[JPATH_MAX], *klass;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_req(c, v, path, "class", j_str, &klass) < 0 ||
	    j_opt(c, v, path, "priority", j_int, &p->priority) < 0)
		return uerr_ret(c->e);
	if (strcmp(klass, "IOPRIO_CLASS_RT") == 0)
		p->klass = IOPRIO_CLASS_RT;
	else if (strcmp(klass, "IOPRIO_CLASS_BE") == 0)
		p->klass = IOPRIO_CLASS_BE;
	else if (strcmp(klass, "IOPRIO_CLASS_IDLE") == 0)
		p->klass = IOPRIO_CLASS_IDLE;
	else {
		jpath_key(sub, path, "class");
		return j_err(c, sub, "unknown class \"%s\"", klass);
	}
	if (p->priority < 0 || p->priority > 7) {
		jpath_key(sub, path, "priority");
		return j_err(c, sub, "out of range 0..7: %d", p->priority);
	}
	p->given = true;
	return 0;
}

static int parse_console_size(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_process *p = out;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_req(c, v, path, "height", j_u32, &p->console_size.height) < 0 ||
	    j_req(c, v, path, "width", j_u32, &p->console_size.width) < 0)
		return uerr_ret(c->e);
	p->console_size.given = true;
	return 0;
}

static int parse_affinity(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_exec_affinity *a = out;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_opt(c, v, path, "initial", j_str, &a->initial) < 0 ||
	    j_opt(c, v, path, "final", j_str, &a->final) < 0)
		return uerr_ret(c->e);
	return 0;
}

int parse_process(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_process *p = arena_alloc(c->arena, sizeof(*p));
	char sub[JPATH_MAX];
	yajl_val rl;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_opt(c, v, path, "terminal", j_bool, &p->terminal) < 0 ||
	    j_opt(c, v, path, "consoleSize", parse_console_size, p) < 0 ||
	    j_opt(c, v, path, "user", parse_user, &p->user) < 0 ||
	    j_req(c, v, path, "args", j_strv, &p->args) < 0 ||
	    j_opt(c, v, path, "env", j_strv, &p->env) < 0 ||
	    j_req(c, v, path, "cwd", j_str, &p->cwd) < 0 ||
	    j_opt(c, v, path, "capabilities", parse_caps, &p->caps) < 0 ||
	    j_opt(c, v, path, "noNewPrivileges", j_bool, &p->no_new_privileges) < 0 ||
	    j_opt(c, v, path, "oomScoreAdj", j_opt_i64, &p->oom_score_adj) < 0 ||
	    j_opt(c, v, path, "scheduler", parse_scheduler, &p->scheduler) < 0 ||
	    j_opt(c, v, path, "ioPriority", parse_io_priority, &p->io_priority) < 0 ||
	    j_opt(c, v, path, "apparmorProfile", j_str, &p->apparmor_profile) < 0 ||
	    j_opt(c, v, path, "selinuxLabel", j_str, &p->selinux_label) < 0 ||
	    j_opt(c, v, path, "execCPUAffinity", parse_affinity, &p->exec_cpu_affinity) < 0)
		return uerr_ret(c->e);
	jpath_key(sub, path, "args");
	if (!p->args[0])
		return j_err(c, sub, "must not be empty");
	jpath_key(sub, path, "cwd");
	if (p->cwd[0] != '/')
		return j_err(c, sub, "must be an absolute path, got \"%s\"", p->cwd);
	jpath_key(sub, path, "oomScoreAdj");
	if (p->oom_score_adj.set && (p->oom_score_adj.v < -1000 || p->oom_score_adj.v > 1000))
		return j_err(c, sub, "out of range -1000..1000: %lld", (long long)p->oom_score_adj.v);
	rl = j_get(v, "rlimits");
	jpath_key(sub, path, "rlimits");
	if (rl && !YAJL_IS_NULL(rl) &&
	    j_array(c, rl, sub, sizeof(struct oci_rlimit), parse_rlimit, (void **)&p->rlimits,
		    &p->n_rlimits) < 0)
		return uerr_ret(c->e);
	for (size_t i = 0; i < p->n_rlimits; i++)
		for (size_t j = 0; j < i; j++)
			if (p->rlimits[i].resource == p->rlimits[j].resource) {
				snprintf(sub, sizeof(sub), "%s%srlimits[%zu].type", path, *path ? "." : "", i);
				return j_err(c, sub, "duplicate rlimit \"%s\"", p->rlimits[i].type);
			}
	*(struct oci_process **)out = p;
	return 0;
}
