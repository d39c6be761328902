/* linux.seccomp → a libseccomp filter. Unknown syscall names are skipped (a
 * profile may name syscalls newer than this kernel), as runc and crun do. */
#include <ctype.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
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

/* Build the filter with libseccomp and take its BPF out. */
static int compile(const struct oci_seccomp *s, struct seccomp_bpf *out, struct uerr *e)
{
	uint32_t def, act;
	scmp_filter_ctx ctx;
	int r = 0, mfd = -1;

	action_of(s->default_action, &s->default_errno_ret, &def);
	ctx = seccomp_init(def);
	if (!ctx)
		return uerr_set(e, ENOMEM, "linux.seccomp: seccomp_init failed");
	for (size_t i = 0; s->architectures && s->architectures[i]; i++) {
		r = seccomp_arch_add(ctx, arch_of(s->architectures[i]));
		if (r < 0 && r != -EEXIST) {
			errno = -r;
			r = uerr_sys(e, "linux.seccomp.architectures[%zu]", i);
			goto out;
		}
	}
	r = 0;
	for (size_t i = 0; i < s->n_syscalls; i++) {
		const struct seccomp_syscall *sc = &s->syscalls[i];

		action_of(sc->action, &sc->errno_ret, &act);
		out->notify |= act == SCMP_ACT_NOTIFY;
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
	mfd = memfd_create("seccomp-bpf", MFD_CLOEXEC);
	if (mfd < 0 || (r = seccomp_export_bpf(ctx, mfd)) < 0) {
		errno = mfd < 0 ? errno : -r;
		r = uerr_sys(e, "linux.seccomp: exporting the filter");
		goto out;
	}
	off_t len = lseek(mfd, 0, SEEK_END);
	if (len <= 0 || len % (off_t)sizeof(struct sock_filter) || len / (off_t)sizeof(struct sock_filter) > BPF_MAXINSNS) {
		r = uerr_set(e, E2BIG, "linux.seccomp: a filter of %lld bytes", (long long)len);
		goto out;
	}
	out->insns = xmalloc((size_t)len);
	out->len = (size_t)len / sizeof(struct sock_filter);
	if (pread(mfd, out->insns, (size_t)len, 0) != len)
		r = uerr_sys(e, "linux.seccomp: reading the filter back");
out:
	if (mfd >= 0)
		close(mfd);
	seccomp_release(ctx);
	return r;
}

static unsigned filter_flags(const struct oci_seccomp *s, bool notify)
{
	unsigned f = notify ? SECCOMP_FILTER_FLAG_NEW_LISTENER : 0;

	for (size_t i = 0; s->flags && s->flags[i]; i++) {
		const char *n = s->flags[i];
		if (!strcmp(n, "SECCOMP_FILTER_FLAG_LOG"))
			f |= SECCOMP_FILTER_FLAG_LOG;
		else if (!strcmp(n, "SECCOMP_FILTER_FLAG_SPEC_ALLOW"))
			f |= SECCOMP_FILTER_FLAG_SPEC_ALLOW;
		else if (!strcmp(n, "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV") && notify)
			f |= 1U << 5; /* SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, 5.19+ */
		else if (!strcmp(n, "SECCOMP_FILTER_FLAG_TSYNC") && !notify)
			f |= SECCOMP_FILTER_FLAG_TSYNC;
	}
	return f;
}

/*
 * The cache key: every field that shapes the filter, and the libseccomp that
 * compiles it. A cache file holds this text in full and is used only when it
 * matches byte for byte, so a hash collision can never load a wrong filter.
 */
struct canon {
	char *buf;
	size_t len, cap;
};

static void canon_add(struct canon *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = c->cap - c->len;
		va_start(ap, fmt);
		n = vsnprintf(c->buf ? c->buf + c->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if ((size_t)n < room) {
			c->len += (size_t)n;
			return;
		}
		/* Grow geometrically: a profile has hundreds of lines. */
		c->cap = (c->cap + (size_t)n + 1) * 2;
		c->buf = xrealloc(c->buf, c->cap);
	}
}

static char *canon(const struct oci_seccomp *s, size_t *len)
{
	const struct scmp_version *v = seccomp_version();
	struct canon c = { 0 };

	canon_add(&c, "libseccomp %u.%u.%u\n%s %d:%lld\n", v->major, v->minor, v->micro,
		  s->default_action, s->default_errno_ret.set, (long long)s->default_errno_ret.v);
	for (size_t i = 0; s->architectures && s->architectures[i]; i++)
		canon_add(&c, "a %s\n", s->architectures[i]);
	for (size_t i = 0; s->flags && s->flags[i]; i++)
		canon_add(&c, "f %s\n", s->flags[i]);
	for (size_t i = 0; i < s->n_syscalls; i++) {
		const struct seccomp_syscall *sc = &s->syscalls[i];
		canon_add(&c, "s %s %d:%lld\n", sc->action, sc->errno_ret.set, (long long)sc->errno_ret.v);
		for (size_t n = 0; sc->names && sc->names[n]; n++)
			canon_add(&c, "n %s\n", sc->names[n]);
		for (size_t a = 0; a < sc->n_args; a++)
			canon_add(&c, "g %u %llu %llu %s\n", sc->args[a].index,
				  (unsigned long long)sc->args[a].value,
				  (unsigned long long)sc->args[a].value_two, sc->args[a].op);
	}
	*len = c.len;
	return c.buf;
}

static uint64_t fnv1a(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (n--)
		h = (h ^ (unsigned char)*p++) * 0x100000001b3ULL;
	return h;
}

#define CACHE_MAGIC "unirun seccomp cache 1\n"

static bool cache_load(const char *file, const char *key, size_t klen, struct seccomp_bpf *out)
{
	_cleanup_free_ char *data = NULL;
	size_t n = 0, mlen = strlen(CACHE_MAGIC);
	uint32_t hdr[2];

	if (read_file_at(AT_FDCWD, file, &data, &n) < 0 || n < mlen + klen + sizeof(hdr) ||
	    memcmp(data, CACHE_MAGIC, mlen) || memcmp(data + mlen, key, klen))
		return false;
	memcpy(hdr, data + mlen + klen, sizeof(hdr));
	size_t off = mlen + klen + sizeof(hdr);
	if (hdr[0] == 0 || hdr[0] > BPF_MAXINSNS || n - off != hdr[0] * sizeof(struct sock_filter))
		return false;
	out->len = hdr[0];
	out->notify = hdr[1] != 0;
	out->insns = xmalloc(n - off);
	memcpy(out->insns, data + off, n - off);
	return true;
}

static void cache_store(const char *dir, const char *file, const char *key, size_t klen,
			const struct seccomp_bpf *b)
{
	size_t mlen = strlen(CACHE_MAGIC), blen = b->len * sizeof(struct sock_filter);
	_cleanup_free_ char *data = xmalloc(mlen + klen + 8 + blen);
	uint32_t hdr[2] = { (uint32_t)b->len, b->notify };

	memcpy(data, CACHE_MAGIC, mlen);
	memcpy(data + mlen, key, klen);
	memcpy(data + mlen + klen, hdr, sizeof(hdr));
	memcpy(data + mlen + klen + sizeof(hdr), b->insns, blen);
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return;
	write_file_atomic(file, data, mlen + klen + sizeof(hdr) + blen, 0600); /* a cache: best effort */
}

int seccomp_prepare(const struct oci_seccomp *s, const char *cache_root, struct seccomp_bpf *out,
		    struct uerr *e)
{
	size_t klen;
	_cleanup_free_ char *key = canon(s, &klen);
	_cleanup_free_ char *dir = cache_root ? xasprintf("%s/.cache:seccomp", cache_root) : NULL;
	_cleanup_free_ char *file = dir ? xasprintf("%s/%016llx", dir, (unsigned long long)fnv1a(key, klen)) : NULL;
	int r;

	memset(out, 0, sizeof(*out));
	if (!file || !cache_load(file, key, klen, out)) {
		if ((r = compile(s, out, e)) < 0) {
			seccomp_bpf_free(out);
			return r;
		}
		if (file)
			cache_store(dir, file, key, klen, out);
	}
	out->flags = filter_flags(s, out->notify);
	return 0;
}

void seccomp_bpf_free(struct seccomp_bpf *b)
{
	free(b->insns);
	b->insns = NULL;
	b->len = 0;
}

int seccomp_install(const struct seccomp_bpf *b, int *notify_fd, struct uerr *e)
{
	struct sock_fprog prog = { .len = (unsigned short)b->len, .filter = b->insns };
	long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, b->flags, &prog);

	*notify_fd = -1;
	if (r < 0)
		return uerr_sys(e, "linux.seccomp: loading the filter");
	if (b->notify)
		*notify_fd = (int)r;
	return 0;
}
