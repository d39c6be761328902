#include <string.h>
#include "lib/util.h"
#include "spec/state.h"

static void gen_annotations(yajl_gen g, char *const *kv)
{
	yajl_gen_map_open(g);
	for (size_t i = 0; kv && kv[i]; i += 2)
		jg_kv(g, kv[i], kv[i + 1]);
	yajl_gen_map_close(g);
}

char *state_to_json(const struct cstate *s, size_t *len)
{
	yajl_gen g = yajl_gen_alloc(NULL);

	yajl_gen_map_open(g);
	jg_kv(g, "id", s->id);
	jg_ki(g, "pid", s->pid);
	jg_ki(g, "pidStart", (long long)s->pid_start);
	jg_kv(g, "bundle", s->bundle);
	jg_kv(g, "rootfs", s->rootfs);
	jg_kv(g, "created", s->created);
	jg_kv(g, "owner", s->owner);
	jg_str(g, "annotations");
	gen_annotations(g, s->annotations);
	jg_kv(g, "cgroup", s->cgroup);
	jg_kv(g, "cgroupBoundary", s->cgroup_boundary);
	jg_ki(g, "cgroupCreated", s->cgroup_created);
	jg_kb(g, "savedConfig", s->saved_config);
	jg_kb(g, "rootless", s->rootless);
	jg_kb(g, "poststart", s->poststart);
	jg_kb(g, "poststop", s->poststop);
	yajl_gen_map_close(g);
	return jg_finish(g, len);
}

struct cstate *state_parse(const char *text, struct uerr *e)
{
	struct cstate *s = xcalloc(1, sizeof(*s));
	struct jctx c = { .arena = &s->arena, .e = e };
	int64_t pid = 0, start = 0;
	int r;

	s->tree = json_parse(text, "state.json", e);
	if (!s->tree)
		goto fail;
	r = j_object(&c, s->tree, "");
	if (r == 0)
		r = j_req(&c, s->tree, "", "id", j_str, &s->id);
	if (r == 0)
		r = j_req(&c, s->tree, "", "pid", j_i64, &pid);
	if (r == 0)
		r = j_opt(&c, s->tree, "", "pidStart", j_i64, &start);
	if (r == 0)
		r = j_req(&c, s->tree, "", "bundle", j_str, &s->bundle);
	if (r == 0)
		r = j_req(&c, s->tree, "", "rootfs", j_str, &s->rootfs);
	if (r == 0)
		r = j_req(&c, s->tree, "", "created", j_str, &s->created);
	if (r == 0)
		r = j_opt(&c, s->tree, "", "owner", j_str, &s->owner);
	if (r == 0)
		r = j_opt(&c, s->tree, "", "annotations", j_strmap, &s->annotations);
	if (r == 0)
		r = j_opt(&c, s->tree, "", "cgroup", j_str, &s->cgroup);
	if (r == 0)
		r = j_opt(&c, s->tree, "", "cgroupBoundary", j_str, &s->cgroup_boundary);
	if (r == 0)
		r = j_opt(&c, s->tree, "", "cgroupCreated", j_int, &s->cgroup_created);
	if (r == 0)
		r = j_opt(&c, s->tree, "", "savedConfig", j_bool, &s->saved_config);
	if (r == 0)
		r = j_opt(&c, s->tree, "", "rootless", j_bool, &s->rootless);
	if (r == 0)
		r = j_opt(&c, s->tree, "", "poststart", j_bool, &s->poststart);
	if (r == 0)
		r = j_opt(&c, s->tree, "", "poststop", j_bool, &s->poststop);
	if (r < 0) {
		uerr_prefix(e, "state.json");
		goto fail;
	}
	s->pid = (pid_t)pid;
	s->pid_start = (unsigned long long)start;
	return s;
fail:
	state_free(s);
	return NULL;
}

void state_free(struct cstate *s)
{
	if (!s)
		return;
	if (s->tree)
		yajl_tree_free(s->tree);
	arena_free(&s->arena);
	free(s);
}

void state_gen_oci(yajl_gen g, const struct cstate *s, const char *status, pid_t pid)
{
	yajl_gen_map_open(g);
	jg_kv(g, "ociVersion", OCI_VERSION);
	jg_kv(g, "id", s->id);
	jg_kv(g, "status", status);
	jg_ki(g, "pid", pid);
	jg_kv(g, "bundle", s->bundle);
	jg_kv(g, "rootfs", s->rootfs);
	jg_kv(g, "created", s->created);
	jg_kv(g, "owner", s->owner ? s->owner : "");
	jg_str(g, "annotations");
	gen_annotations(g, s->annotations);
	yajl_gen_map_close(g);
}
