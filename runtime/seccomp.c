/* linux.seccomp → a libseccomp filter. Unknown syscall names are skipped (a
 * profile may name syscalls newer than this kernel), as runc and crun do. */
#include <ctype.h>
#include <seccomp.h>
#include <string.h>
#include "lib/util.h"
#include "runtime/process.h"

static int action_of(const char *name, const struct opt_i64 *errno_ret, uint32_t *act)
{
	uint32_t err = errno_ret && errno_ret->set ? (uint32_t)errno_ret->v : EPERM;

	if (!strcmp(name, "SCMP_ACT_KILL") || !strcmp(name, "SCMP_ACT_KILL_THREAD"))
		*act = SCMP_ACT_KILL_THREAD;
	else if (!strcmp(name, "SCMP_ACT_KILL_PROCESS"))
		*act = SCMP_ACT_KILL_PROCESS;
	else if (!strcmp(name, "SCMP_ACT_TRAP"))
		*act = SCMP_ACT_TRAP;
	else if (!strcmp(name, "SCMP_ACT_ERRNO"))
		*act = SCMP_ACT_ERRNO(err);
	else if (!strcmp(name, "SCMP_ACT_TRACE"))
		*act = SCMP_ACT_TRACE(err);
	else if (!strcmp(name, "SCMP_ACT_ALLOW"))
		*act = SCMP_ACT_ALLOW;
	else if (!strcmp(name, "SCMP_ACT_LOG"))
		*act = SCMP_ACT_LOG;
	else if (!strcmp(name, "SCMP_ACT_NOTIFY"))
		*act = SCMP_ACT_NOTIFY;
	else
		return -EINVAL;
	return 0;
}

static enum scmp_compare op_of(const char *op)
{
	static const char *const names[] = { "SCMP_CMP_NE", "SCMP_CMP_LT", "SCMP_CMP_LE", "SCMP_CMP_EQ",
					     "SCMP_CMP_GE", "SCMP_CMP_GT", "SCMP_CMP_MASKED_EQ" };
	static const enum scmp_compare ops[] = { SCMP_CMP_NE, SCMP_CMP_LT, SCMP_CMP_LE, SCMP_CMP_EQ,
						 SCMP_CMP_GE, SCMP_CMP_GT, SCMP_CMP_MASKED_EQ };
	for (size_t i = 0; i < 7; i++)
		if (!strcmp(names[i], op))
			return ops[i];
	return _SCMP_CMP_MIN;
}

static uint32_t arch_of(const char *name)
{
	char lower[64];
	size_t i;

	if (str_has_prefix(name, "SCMP_ARCH_"))
		name += 10;
	for (i = 0; name[i] && i < sizeof(lower) - 1; i++)
		lower[i] = (char)tolower((unsigned char)name[i]);
	lower[i] = '\0';
	return seccomp_arch_resolve_name(lower);
}

int seccomp_check(const struct oci_seccomp *s, struct uerr *e)
{
	bool notify = false;
	uint32_t act;

	for (size_t i = 0; s->architectures && s->architectures[i]; i++)
		if (!arch_of(s->architectures[i]))
			return uerr_set(e, 0, "linux.seccomp.architectures[%zu]: unknown architecture \"%s\"",
					i, s->architectures[i]);
	for (size_t i = 0; i < s->n_syscalls; i++)
		notify |= !strcmp(s->syscalls[i].action, "SCMP_ACT_NOTIFY");
	if (!strcmp(s->default_action, "SCMP_ACT_NOTIFY"))
		return uerr_set(e, 0, "linux.seccomp.defaultAction: SCMP_ACT_NOTIFY cannot be the default");
	if (notify && !s->listener_path)
		return uerr_set(e, 0, "linux.seccomp.listenerPath: required by an SCMP_ACT_NOTIFY rule");
	return action_of(s->default_action, &s->default_errno_ret, &act) < 0
		       ? uerr_set(e, 0, "linux.seccomp.defaultAction: unknown") : 0;
}

static int add_rule(scmp_filter_ctx ctx, uint32_t act, int nr, const struct seccomp_syscall *sc,
		    const char *name, size_t i, struct uerr *e)
{
	struct scmp_arg_cmp cmp[6];
	bool dup = false;
	int r;

	for (size_t a = 0; a < sc->n_args && a < 6; a++) {
		cmp[a] = (struct scmp_arg_cmp){ .arg = sc->args[a].index, .op = op_of(sc->args[a].op),
						.datum_a = sc->args[a].value, .datum_b = sc->args[a].value_two };
		for (size_t b = 0; b < a; b++)
			dup |= sc->args[b].index == sc->args[a].index;
	}
	if (!dup) {
		r = seccomp_rule_add_array(ctx, act, nr, (unsigned)(sc->n_args < 6 ? sc->n_args : 6), cmp);
	} else {
		/* Several conditions on one argument: each is a rule of its own (OR). */
		r = 0;
		for (size_t a = 0; a < sc->n_args && a < 6 && r == 0; a++)
			r = seccomp_rule_add_array(ctx, act, nr, 1, &cmp[a]);
	}
	if (r < 0) {
		errno = -r;
		return uerr_sys(e, "linux.seccomp.syscalls[%zu]: adding a rule for %s", i, name);
	}
	return 0;
}

int seccomp_apply(const struct oci_seccomp *s, bool no_new_privs, int *notify_fd, struct uerr *e)
{
	uint32_t def, act;
	scmp_filter_ctx ctx;
	bool notify = false;
	int r = 0;

	*notify_fd = -1;
	action_of(s->default_action, &s->default_errno_ret, &def);
	ctx = seccomp_init(def);
	if (!ctx)
		return uerr_set(e, ENOMEM, "linux.seccomp: seccomp_init failed");
	seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	for (size_t i = 0; s->architectures && s->architectures[i]; i++) {
		r = seccomp_arch_add(ctx, arch_of(s->architectures[i]));
		if (r < 0 && r != -EEXIST) {
			errno = -r;
			r = uerr_sys(e, "linux.seccomp.architectures[%zu]", i);
			goto out;
		}
	}
	for (size_t i = 0; s->flags && s->flags[i]; i++) {
		const char *f = s->flags[i];
		if (!strcmp(f, "SECCOMP_FILTER_FLAG_TSYNC"))
			seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
		else if (!strcmp(f, "SECCOMP_FILTER_FLAG_LOG"))
			seccomp_attr_set(ctx, SCMP_FLTATR_CTL_LOG, 1);
		else if (!strcmp(f, "SECCOMP_FILTER_FLAG_SPEC_ALLOW"))
			seccomp_attr_set(ctx, SCMP_FLTATR_CTL_SSB, 1);
	}
	for (size_t i = 0; i < s->n_syscalls; i++) {
		const struct seccomp_syscall *sc = &s->syscalls[i];

		action_of(sc->action, &sc->errno_ret, &act);
		notify |= act == SCMP_ACT_NOTIFY;
		if (act == def)
			continue;
		for (size_t n = 0; sc->names && sc->names[n]; n++) {
			int nr = seccomp_syscall_resolve_name(sc->names[n]);
			if (nr == __NR_SCMP_ERROR)
				continue;
			if ((r = add_rule(ctx, act, nr, sc, sc->names[n], i, e)) < 0)
				goto out;
		}
	}
	r = seccomp_load(ctx);
	if (r < 0) {
		errno = -r;
		r = uerr_sys(e, "linux.seccomp: loading the filter");
		goto out;
	}
	if (notify) {
		*notify_fd = seccomp_notify_fd(ctx);
		if (*notify_fd < 0)
			r = uerr_set(e, EIO, "linux.seccomp: no notify fd");
	}
out:
	seccomp_release(ctx);
	(void)no_new_privs;
	return r;
}
