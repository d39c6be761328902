/* The devices controller of cgroup2 is an eBPF program (BPF_PROG_TYPE_CGROUP_DEVICE).
 * unirun generates it from the rules: checked last to first, the first rule that
 * matches decides; no match allows (cgroup v1's initial "a *:* rwm"), so a
 * leading wildcard deny makes it an allow-list. */
#include <linux/bpf.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "lib/util.h"
#include "cgroup/resources.h"

#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })
#define LDX_W(d, s, o) INSN(BPF_LDX | BPF_MEM | BPF_W, d, s, o, 0)
#define MOV_REG(d, s) INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV_IMM(d, i) INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define AND_IMM(d, i) INSN(BPF_ALU64 | BPF_AND | BPF_K, d, 0, 0, i)
#define RSH_IMM(d, i) INSN(BPF_ALU64 | BPF_RSH | BPF_K, d, 0, 0, i)
#define JNE_IMM(d, i, o) INSN(BPF_JMP | BPF_JNE | BPF_K, d, 0, o, i)
#define JEQ_IMM(d, i, o) INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, i)
#define EXIT() INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

static unsigned access_bits(const char *a)
{
	unsigned bits = 0;

	for (; *a; a++)
		bits |= *a == 'm' ? BPF_DEVCG_ACC_MKNOD : *a == 'r' ? BPF_DEVCG_ACC_READ : BPF_DEVCG_ACC_WRITE;
	return bits;
}

/* Emit one rule: a block that jumps past itself when the device doesn't match. */
static size_t emit_rule(struct bpf_insn *p, const struct res_device *d)
{
	unsigned acc = access_bits(d->access);
	size_t n = 0, skip_at[5], ns = 0;

	if (d->type != 'a') {
		skip_at[ns++] = n;
		p[n++] = JNE_IMM(2, d->type == 'b' ? BPF_DEVCG_DEV_BLOCK : BPF_DEVCG_DEV_CHAR, 0);
	}
	if (acc != (BPF_DEVCG_ACC_MKNOD | BPF_DEVCG_ACC_READ | BPF_DEVCG_ACC_WRITE)) {
		p[n++] = MOV_REG(6, 3);
		if (d->allow) {
			/* Allow only when everything asked for is in the rule. */
			p[n++] = AND_IMM(6, (int32_t)~acc);
			skip_at[ns++] = n;
			p[n++] = JNE_IMM(6, 0, 0);
		} else {
			/* Deny when anything asked for is in the rule. */
			p[n++] = AND_IMM(6, (int32_t)acc);
			skip_at[ns++] = n;
			p[n++] = JEQ_IMM(6, 0, 0);
		}
	}
	if (d->major >= 0) {
		skip_at[ns++] = n;
		p[n++] = JNE_IMM(4, (int32_t)d->major, 0);
	}
	if (d->minor >= 0) {
		skip_at[ns++] = n;
		p[n++] = JNE_IMM(5, (int32_t)d->minor, 0);
	}
	p[n++] = MOV_IMM(0, d->allow ? 1 : 0);
	p[n++] = EXIT();
	for (size_t i = 0; i < ns; i++)
		p[skip_at[i]].off = (int16_t)(n - skip_at[i] - 1);
	return n;
}

static int bpf(int cmd, union bpf_attr *attr)
{
	return (int)syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

int dev_bpf_apply(int dirfd, const struct res_device *rules, size_t n, struct uerr *e)
{
	_cleanup_free_ struct bpf_insn *prog = xcalloc(6 + n * 12, sizeof(*prog));
	_cleanup_close_ int pfd = -1;
	union bpf_attr attr;
	uint32_t old_ids[64], old_cnt = 64;
	size_t len = 0;

	/* r2 = type, r3 = access, r4 = major, r5 = minor (struct bpf_cgroup_dev_ctx). */
	prog[len++] = LDX_W(2, 1, 0);
	prog[len++] = AND_IMM(2, 0xffff);
	prog[len++] = LDX_W(3, 1, 0);
	prog[len++] = RSH_IMM(3, 16);
	prog[len++] = LDX_W(4, 1, 4);
	prog[len++] = LDX_W(5, 1, 8);
	bool catch_all = false;
	for (size_t i = n; i-- > 0 && !catch_all;) {
		len += emit_rule(prog + len, &rules[i]);
		/* A rule matching everything ends the program: the verifier
		 * refuses unreachable instructions after it. */
		catch_all = rules[i].type == 'a' && rules[i].major < 0 && rules[i].minor < 0 &&
			    strlen(rules[i].access) == 3;
	}
	if (!catch_all) {
		prog[len++] = MOV_IMM(0, 1);
		prog[len++] = EXIT();
	}

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_CGROUP_DEVICE;
	attr.insns = (uint64_t)(uintptr_t)prog;
	attr.insn_cnt = (uint32_t)len;
	attr.license = (uint64_t)(uintptr_t)"Apache";
	pfd = bpf(BPF_PROG_LOAD, &attr);
	if (pfd < 0) {
		/* Load again with the verifier's log, to say why. */
		char log[512] = "";
		int saved = errno;
		attr.log_buf = (uint64_t)(uintptr_t)log;
		attr.log_size = sizeof(log);
		attr.log_level = 1;
		bpf(BPF_PROG_LOAD, &attr);
		log[strcspn(log, "\n")] = '\0';
		errno = saved;
		return uerr_sys(e, "loading the devices eBPF program (%s)", log);
	}

	/* Programs already here (an update): replace them after ours is in. */
	memset(&attr, 0, sizeof(attr));
	attr.query.target_fd = (uint32_t)dirfd;
	attr.query.attach_type = BPF_CGROUP_DEVICE;
	attr.query.prog_ids = (uint64_t)(uintptr_t)old_ids;
	attr.query.prog_cnt = old_cnt;
	if (bpf(BPF_PROG_QUERY, &attr) < 0)
		attr.query.prog_cnt = 0;
	old_cnt = attr.query.prog_cnt;

	memset(&attr, 0, sizeof(attr));
	attr.target_fd = (uint32_t)dirfd;
	attr.attach_bpf_fd = (uint32_t)pfd;
	attr.attach_type = BPF_CGROUP_DEVICE;
	attr.attach_flags = BPF_F_ALLOW_MULTI;
	if (bpf(BPF_PROG_ATTACH, &attr) < 0)
		return uerr_sys(e, "attaching the devices eBPF program");
	for (uint32_t i = 0; i < old_cnt; i++) {
		union bpf_attr get = { .prog_id = old_ids[i] };
		_cleanup_close_ int ofd = bpf(BPF_PROG_GET_FD_BY_ID, &get);

		if (ofd < 0)
			continue;
		memset(&attr, 0, sizeof(attr));
		attr.target_fd = (uint32_t)dirfd;
		attr.attach_bpf_fd = (uint32_t)ofd;
		attr.attach_type = BPF_CGROUP_DEVICE;
		bpf(BPF_PROG_DETACH, &attr);
	}
	return 0;
}
