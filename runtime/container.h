/* A container's state directory <root>/<id>: state.json, exec.fifo, a lock. */
#ifndef UNIRUN_CONTAINER_H
#define UNIRUN_CONTAINER_H

#include <stdbool.h>
#include <sys/types.h>
#include "lib/error.h"
#include "spec/config.h"
#include "spec/state.h"

struct container {
	char *dir;          /* <root>/<id> */
	int dirfd;          /* holds the flock */
	struct cstate *st;  /* NULL while "creating" */
};

enum cstatus { ST_CREATING, ST_CREATED, ST_RUNNING, ST_PAUSED, ST_STOPPED };
extern const char *const status_names[];

int container_check_id(const char *id, struct uerr *e);
/* Open and lock an existing container; reads its state. */
int container_open(const char *root, const char *id, struct container *c, struct uerr *e);
/* Make the state dir (fails if it exists: "already exists") and lock it. */
int container_new(const char *root, const char *id, struct container *c, struct uerr *e);
void container_close(struct container *c);
int container_save(struct container *c, struct uerr *e);
/* Status, and the init pid when it is alive (else 0). */
enum cstatus container_status(const struct container *c, pid_t *pid);
/* The config saved at create (for hooks), or NULL when none was needed. */
int container_config(const struct container *c, struct oci_config **cfg, struct uerr *e);
/* The OCI state JSON hooks get on stdin. */
char *container_state_json(const struct container *c, const char *status, pid_t pid);
/* Rootless without a delegated cgroup, a container has none of its own. */
static inline bool has_cgroup(const struct cstate *st)
{
	return st && st->cgroup && *st->cgroup;
}

/* Stop everything, run poststop hooks, remove the cgroup and the state dir. */
int container_destroy(struct container *c, struct uerr *e);
/* Remove a state dir and its files (no hooks, no cgroup). */
void state_dir_remove(const char *dir);

/* runtime/hooks.c */
int hooks_run(const struct oci_hooks *h, enum hook_kind kind, const char *state_json, struct uerr *e);

#endif
