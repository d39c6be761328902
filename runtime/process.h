/* The container process's attributes: rlimits, identity, capabilities,
 * scheduling, the executable. Used by init and by exec. */
#ifndef UNIRUN_PROCESS_H
#define UNIRUN_PROCESS_H

#include <stdbool.h>
#include "lib/error.h"
#include "spec/config.h"

/* Check names and values that only the host can judge (capability names…). */
int proc_check(const struct oci_process *p, const char *path, struct uerr *e);
int proc_oom_score_adj(const struct oci_process *p, struct uerr *e);
bool proc_setgroups_allowed(void);
/* rlimits, scheduler, cwd, the executable: the steps init and exec share. */
int proc_prepare(const struct oci_process *p, char **exe, struct uerr *e);
/* setgroups/setgid/setuid keeping the capabilities we are about to set. */
int proc_identity(const struct oci_process *p, bool setgroups_allowed, struct uerr *e);
int proc_drop_bounding(const struct oci_process *p, struct uerr *e);
int proc_caps(const struct oci_process *p, struct uerr *e);
int proc_affinity(const char *cpus, const char *what, struct uerr *e);
/* Close every fd from `from` up at exec (CLOSE_RANGE_CLOEXEC). */
void proc_cloexec_from(int from);

/* seccomp (if any), bounding set, uid/gid/groups, capabilities,
 * no_new_privs — in the order that keeps each step possible. */
struct seccomp_bpf;
int proc_become(const struct oci_process *p, const struct seccomp_bpf *sc, bool setgroups_allowed,
		int *notify, struct uerr *e);
/* No blocked or ignored signals inherited by the container's process. */
void proc_reset_signals(void);

/* runtime/seccomp.c: build the filter; load it (returns the notify fd or -1). */
int seccomp_check(const struct oci_seccomp *s, struct uerr *e);
/* The filter as BPF, compiled in the parent (from a verified cache under
 * cache_root when one matches) and installed by the process itself. */
struct sock_filter;
struct seccomp_bpf {
	struct sock_filter *insns;
	size_t len;
	unsigned flags;            /* SECCOMP_FILTER_FLAG_* */
	bool notify;               /* has SCMP_ACT_NOTIFY rules: a listener fd comes back */
};
int seccomp_prepare(const struct oci_seccomp *s, const char *cache_root, struct seccomp_bpf *out,
		    struct uerr *e);
int seccomp_install(const struct seccomp_bpf *b, int *notify_fd, struct uerr *e);
void seccomp_bpf_free(struct seccomp_bpf *b);

#endif
