/* The container's state: what unirun keeps in <root>/<id>/state.json, and the
 * OCI state document that `state` prints. */
#ifndef UNIRUN_STATE_H
#define UNIRUN_STATE_H

#include <stdbool.h>
#include <sys/types.h>
#include "spec/json.h"

struct cstate {
	char *id;
	pid_t pid;
	unsigned long long pid_start;   /* guards against pid reuse */
	char *bundle, *rootfs, *created, *owner;
	char **annotations;             /* key, value, … NULL */
	char *cgroup;                   /* absolute path of the container's cgroup */
	char *cgroup_boundary;          /* the delegation root: writes stay below it */
	int cgroup_created;             /* how many trailing levels unirun made */
	bool saved_config;              /* config.json copied beside (hooks need it) */
	bool rootless;
	bool poststart, poststop;       /* the saved config has such hooks (parse it then) */

	yajl_val tree;
	struct arena arena;
};

char *state_to_json(const struct cstate *s, size_t *len);
struct cstate *state_parse(const char *text, struct uerr *e);
void state_free(struct cstate *s);
/* The OCI state: ociVersion, id, status, pid, bundle, rootfs, created, owner, annotations. */
void state_gen_oci(yajl_gen g, const struct cstate *s, const char *status, pid_t pid);

#define OCI_VERSION "1.2.1"

#endif
