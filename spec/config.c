/* config.json: the top level, root, mounts and hooks. */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/util.h"
#include "spec/config.h"

const char *const hook_kind_names[HOOK_KINDS] = {
	"prestart", "createRuntime", "createContainer", "startContainer", "poststart", "poststop",
};

static int parse_root(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_config *cfg = out;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_req(c, v, path, "path", j_str, &cfg->root.path) < 0 ||
	    j_opt(c, v, path, "readonly", j_bool, &cfg->root.readonly) < 0)
		return uerr_ret(c->e);
	if (!cfg->root.path[0])
		return j_err(c, "root.path", "must not be empty");
	return 0;
}

static int parse_mount(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_mount *m = out;
	char sub[JPATH_MAX];

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_req(c, v, path, "destination", j_str, &m->destination) < 0 ||
	    j_opt(c, v, path, "source", j_str, &m->source) < 0 ||
	    j_opt(c, v, path, "type", j_str, &m->type) < 0 ||
	    j_opt(c, v, path, "options", j_strv, &m->options) < 0)
		return uerr_ret(c->e);
	if (m->destination[0] != '/') {
		jpath_key(sub, path, "destination");
		return j_err(c, sub, "must be an absolute path, got \"%s\"", m->destination);
	}
	jpath_key(sub, path, "uidMappings");
	if (j_get(v, "uidMappings") &&
	    j_array(c, j_get(v, "uidMappings"), sub, sizeof(struct oci_idmap), parse_idmap,
		    (void **)&m->uid_mappings, &m->n_uid_mappings) < 0)
		return uerr_ret(c->e);
	jpath_key(sub, path, "gidMappings");
	if (j_get(v, "gidMappings") &&
	    j_array(c, j_get(v, "gidMappings"), sub, sizeof(struct oci_idmap), parse_idmap,
		    (void **)&m->gid_mappings, &m->n_gid_mappings) < 0)
		return uerr_ret(c->e);
	return 0;
}

static int parse_hook(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_hook *h = out;
	char sub[JPATH_MAX];

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_req(c, v, path, "path", j_str, &h->path) < 0 ||
	    j_opt(c, v, path, "args", j_strv, &h->args) < 0 ||
	    j_opt(c, v, path, "env", j_strv, &h->env) < 0 ||
	    j_opt(c, v, path, "timeout", j_opt_i64, &h->timeout) < 0)
		return uerr_ret(c->e);
	if (h->path[0] != '/') {
		jpath_key(sub, path, "path");
		return j_err(c, sub, "must be an absolute path, got \"%s\"", h->path);
	}
	if (h->timeout.set && h->timeout.v <= 0) {
		jpath_key(sub, path, "timeout");
		return j_err(c, sub, "must be positive, got %lld", (long long)h->timeout.v);
	}
	return 0;
}

static int parse_hooks(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_hooks *hooks = out;
	char sub[JPATH_MAX];

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	for (int k = 0; k < HOOK_KINDS; k++) {
		yajl_val a = j_get(v, hook_kind_names[k]);

		if (!a || YAJL_IS_NULL(a))
			continue;
		jpath_key(sub, path, hook_kind_names[k]);
		if (j_array(c, a, sub, sizeof(struct oci_hook), parse_hook, (void **)&hooks->list[k],
			    &hooks->n[k]) < 0)
			return uerr_ret(c->e);
	}
	return 0;
}

static int parse_mounts(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct oci_config *cfg = out;

	return j_array(c, v, path, sizeof(struct oci_mount), parse_mount, (void **)&cfg->mounts,
		       &cfg->n_mounts);
}

static int parse_version(struct jctx *c, yajl_val v, const char *path, void *out)
{
	char **ver = out;

	if (j_str(c, v, path, ver) < 0)
		return uerr_ret(c->e);
	/* Any 1.x: the spec is compatible within a major version. */
	if (strncmp(*ver, "1.", 2) != 0)
		return j_err(c, path, "unsupported version \"%s\" (unirun supports 1.x)", *ver);
	return 0;
}

static int parse_top(struct jctx *c, yajl_val t, struct oci_config *cfg)
{
	if (j_object(c, t, "") < 0)
		return uerr_ret(c->e);
	if (j_req(c, t, "", "ociVersion", parse_version, &cfg->oci_version) < 0 ||
	    j_req(c, t, "", "root", parse_root, cfg) < 0 ||
	    j_req(c, t, "", "process", parse_process, &cfg->process) < 0 ||
	    j_opt(c, t, "", "hostname", j_str, &cfg->hostname) < 0 ||
	    j_opt(c, t, "", "domainname", j_str, &cfg->domainname) < 0 ||
	    j_opt(c, t, "", "mounts", parse_mounts, cfg) < 0 ||
	    j_opt(c, t, "", "hooks", parse_hooks, &cfg->hooks) < 0 ||
	    j_opt(c, t, "", "annotations", j_strmap, &cfg->annotations) < 0 ||
	    j_opt(c, t, "", "linux", parse_linux, cfg) < 0)
		return uerr_ret(c->e);
	return 0;
}

/*
 * pids.limit 0: runtime-spec 1.2.1 made `limit` optional, so from then on a
 * 0 written there means 0. Before, every client's Go structs wrote 0 for
 * "not set" (podman 4, containerd 1.6), and runc and crun read it so.
 */
static bool zero_pids_is_unset(const char *version)
{
	unsigned major = 0, minor = 0, patch = 0;

	if (!version || sscanf(version, "%u.%u.%u", &major, &minor, &patch) < 2)
		return true;
	return major == 1 && (minor < 2 || (minor == 2 && patch < 1));
}

static void legacy_pids(struct resources *r, const char *version)
{
	if (r && r->pids.limit.set && r->pids.limit.v == 0 && zero_pids_is_unset(version))
		r->pids.limit.set = false;
}

struct oci_config *config_parse(const char *text, const char *what, struct uerr *e)
{
	struct oci_config *cfg = xcalloc(1, sizeof(*cfg));
	struct jctx c = { .arena = &cfg->arena, .e = e };

	cfg->tree = json_parse(text, what, e);
	if (!cfg->tree || parse_top(&c, cfg->tree, cfg) < 0) {
		if (cfg->tree)
			uerr_prefix(e, "%s", what);
		config_free(cfg);
		return NULL;
	}
	legacy_pids(cfg->linux.resources, cfg->oci_version);
	return cfg;
}

int config_load(const char *bundle, struct oci_config **out, struct uerr *e)
{
	_cleanup_free_ char *path = xasprintf("%s/config.json", bundle);
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r = read_file_at(AT_FDCWD, path, &text, &len);

	if (r < 0) {
		errno = -r;
		return uerr_sys(e, "cannot read %s", path);
	}
	*out = config_parse(text, "config.json", e);
	if (!*out)
		return uerr_ret(e);
	(*out)->text = TAKE_PTR(text);
	(*out)->text_len = len;
	return 0;
}

void config_free(struct oci_config *cfg)
{
	if (!cfg)
		return;
	if (cfg->tree)
		yajl_tree_free(cfg->tree);
	arena_free(&cfg->arena);
	free(cfg->text);
	free(cfg);
}

struct oci_process_doc *process_parse(const char *text, const char *what, struct uerr *e)
{
	struct oci_process_doc *d = xcalloc(1, sizeof(*d));
	struct jctx c = { .arena = &d->arena, .e = e };

	d->tree = json_parse(text, what, e);
	if (!d->tree || parse_process(&c, d->tree, "", &d->process) < 0) {
		if (d->tree)
			uerr_prefix(e, "%s", what);
		process_doc_free(d);
		return NULL;
	}
	return d;
}

void process_doc_free(struct oci_process_doc *d)
{
	if (!d)
		return;
	if (d->tree)
		yajl_tree_free(d->tree);
	arena_free(&d->arena);
	free(d);
}

struct resources_doc *resources_parse(const char *text, const char *what, struct uerr *e)
{
	struct resources_doc *d = xcalloc(1, sizeof(*d));
	struct jctx c = { .arena = &d->arena, .e = e };

	d->tree = json_parse(text, what, e);
	if (!d->tree || parse_resources(&c, d->tree, "", &d->res) < 0) {
		if (d->tree)
			uerr_prefix(e, "%s", what);
		resources_doc_free(d);
		return NULL;
	}
	/* update's LinuxResources carries no version: read 0 as runc does. */
	legacy_pids(d->res, NULL);
	return d;
}

void resources_doc_free(struct resources_doc *d)
{
	if (!d)
		return;
	if (d->tree)
		yajl_tree_free(d->tree);
	arena_free(&d->arena);
	free(d);
}

static const struct {
	const char *name;
	int type;
} ns_names[] = {
	{ "pid", CLONE_NEWPID },     { "network", CLONE_NEWNET }, { "mount", CLONE_NEWNS },
	{ "ipc", CLONE_NEWIPC },     { "uts", CLONE_NEWUTS },     { "user", CLONE_NEWUSER },
	{ "cgroup", CLONE_NEWCGROUP }, { "time", CLONE_NEWTIME },
};

int ns_type_from_name(const char *name)
{
	for (size_t i = 0; i < sizeof(ns_names) / sizeof(ns_names[0]); i++)
		if (strcmp(ns_names[i].name, name) == 0)
			return ns_names[i].type;
	return 0;
}

const char *ns_type_name(int type)
{
	for (size_t i = 0; i < sizeof(ns_names) / sizeof(ns_names[0]); i++)
		if (ns_names[i].type == type)
			return ns_names[i].name;
	return "?";
}

const struct oci_namespace *config_ns(const struct oci_config *c, int type)
{
	for (size_t i = 0; i < c->linux.n_namespaces; i++)
		if (c->linux.namespaces[i].type == type)
			return &c->linux.namespaces[i];
	return NULL;
}

bool config_has_ns(const struct oci_config *c, int type)
{
	return config_ns(c, type) != NULL;
}

const char *strmap_get(char *const *kv, const char *key)
{
	for (size_t i = 0; kv && kv[i]; i += 2)
		if (strcmp(kv[i], key) == 0)
			return kv[i + 1];
	return NULL;
}
