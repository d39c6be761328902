/* create and run: the parent side (launch.c) and the container's init (init.c). */
#ifndef UNIRUN_LAUNCH_H
#define UNIRUN_LAUNCH_H

#include <stdbool.h>
#include <sys/types.h>
#include "cgroup/cgroup.h"
#include "runtime/container.h"
#include "runtime/process.h"
#include "spec/config.h"

struct launch_opts {
	const char *root, *id, *bundle, *pid_file, *console_socket;
	bool no_pivot, no_new_keyring, detach;
	int preserve_fds;
};

struct launch {
	const struct launch_opts *o;
	struct oci_config *cfg;
	char *bundle, *rootfs;      /* absolute */
	struct cgroup cg;
	struct container ct;
	int sync[2];                /* [0] parent, [1] child */
	int fifo_fd;                /* O_PATH to exec.fifo, for init */
	int clone_flags;            /* namespaces clone3 creates */
	bool two_step;              /* setns/unshare + fork in the child */
	bool userns;                /* a new user namespace */
	pid_t child, pid;           /* clone3's child, and the container's init */
	int pidfd;
	int console_master;
	int *idmapped;              /* per mount: an idmapped tree or -1 (NULL: none) */
	struct seccomp_bpf seccomp; /* compiled by the parent, installed by init */
};

/* Everything of create up to "created"; returns with the container locked. */
int launch_create(struct launch *l, struct uerr *e);
/* The part create and restore share: parse and check the bundle's config,
 * claim the id, make the cgroup with its limits (and delegate it). */
int launch_begin(struct launch *l, struct uerr *e);
/* Save config.json and state.json for l->pid (and the --pid-file), then
 * reload state.json into l->ct.st: from here the state dir is the truth. */
int launch_record(struct launch *l, struct uerr *e);
/* The runtime-spec's containerProcessState JSON sent to a seccomp listener. */
char *seccomp_process_state(const struct oci_seccomp *sc, const struct cstate *st, const char *status,
			    pid_t pid);
void launch_cleanup(struct launch *l);
/* Release memory and fds (after success or cleanup). */
void launch_free(struct launch *l);
/* The child: never returns. */
__attribute__((noreturn)) void init_main(struct launch *l);
/* Parent side of start: release init, run poststart hooks. */
int container_start(struct container *c, struct uerr *e);

#endif
