/* checkpoint and restore with CRIU (libcriu). */
#ifndef UNIRUN_CRIU_H
#define UNIRUN_CRIU_H

#include <stdbool.h>
#include "runtime/launch.h"

/* --manage-cgroups-mode, as libcriu's enum criu_cg_mode numbers them. */
enum { CR_CG_IGNORE = 0, CR_CG_SOFT = 3, CR_CG_FULL = 4, CR_CG_STRICT = 5, CR_CG_DEFAULT = 6 };

struct cr_opts {
	const char *image_path, *work_path, *parent_path;
	bool leave_running, pre_dump, tcp_established, ext_unix_sk, shell_job, file_locks, auto_dedup;
	int cg_mode;
	unsigned empty_ns;          /* CLONE_NEW* flags */
	int status_fd;              /* -1: none */
	struct launch_opts lo;      /* restore: id, bundle, detach, pid file… (id for both) */
};

/* runtime/criu_opts.c: runc's flags of `checkpoint` or `restore` (cmd). */
int cr_parse(const char *cmd, int argc, char **argv, struct cr_opts *o);

#endif
