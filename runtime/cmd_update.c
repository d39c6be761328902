/* update: new limits for a container, enabling a controller first if the
 * new resources need one that is not on yet. The flags become a
 * LinuxResources document, so they go through the same parser and checks. */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/util.h"
#include "cgroup/cgroup.h"
#include "cgroup/resources.h"
#include "runtime/commands.h"
#include "runtime/container.h"

/* 512, 64k, 100m, 2g (runc's RAMInBytes); -1 stays -1. */
static int parse_size(const char *s, long long *out)
{
	char *end;
	long long v = strtoll(s, &end, 10);
	long long mult = 1;

	if (end == s)
		return -1;
	switch (*end) {
	case 'k': case 'K': mult = 1LL << 10; end++; break;
	case 'm': case 'M': mult = 1LL << 20; end++; break;
	case 'g': case 'G': mult = 1LL << 30; end++; break;
	case 't': case 'T': mult = 1LL << 40; end++; break;
	}
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end || (v < 0 && v != -1))
		return -1;
	*out = v < 0 ? v : v * mult;
	return 0;
}

struct flag {
	const char *name, *group, *key;
	bool size, string;
};

static const struct flag flags[] = {
	{ "memory", "memory", "limit", true, false },
	{ "memory-swap", "memory", "swap", true, false },
	{ "memory-reservation", "memory", "reservation", true, false },
	{ "cpu-shares", "cpu", "shares", false, false },
	{ "cpu-quota", "cpu", "quota", false, false },
	{ "cpu-period", "cpu", "period", false, false },
	{ "cpuset-cpus", "cpu", "cpus", false, true },
	{ "cpuset-mems", "cpu", "mems", false, true },
	{ "pids-limit", "pids", "limit", false, false },
	{ "blkio-weight", "blockIO", "weight", false, false },
};
#define NFLAGS (sizeof(flags) / sizeof(flags[0]))

static char *flags_to_json(const char **vals, struct uerr *e)
{
	static const char *const groups[] = { "memory", "cpu", "pids", "blockIO" };
	yajl_gen g = yajl_gen_alloc(NULL);

	yajl_gen_map_open(g);
	for (size_t gi = 0; gi < 4; gi++) {
		bool open = false;
		for (size_t i = 0; i < NFLAGS; i++) {
			long long v;
			if (!vals[i] || strcmp(flags[i].group, groups[gi]))
				continue;
			if (!open) {
				jg_str(g, groups[gi]);
				yajl_gen_map_open(g);
				open = true;
			}
			if (flags[i].string) {
				jg_kv(g, flags[i].key, vals[i]);
				continue;
			}
			if ((flags[i].size ? parse_size(vals[i], &v) : (parse_i64(vals[i], (int64_t *)&v))) < 0) {
				uerr_set(e, 0, "--%s: \"%s\" is not a number", flags[i].name, vals[i]);
				yajl_gen_free(g);
				return NULL;
			}
			jg_ki(g, flags[i].key, v);
		}
		if (open)
			yajl_gen_map_close(g);
	}
	yajl_gen_map_close(g);
	return jg_finish(g, NULL);
}

int cmd_update(int argc, char **argv)
{
	struct option opts[NFLAGS + 2];
	const char *vals[NFLAGS] = { 0 }, *resources = NULL, *id;
	_cleanup_free_ char *text = NULL;
	struct resources_doc *doc = NULL;
	struct uerr e = { 0 };
	struct container c;
	unsigned mask;
	pid_t pid;
	int opt, idx, r = 1;
	_cleanup_close_ int dirfd = -1;

	for (size_t i = 0; i < NFLAGS; i++)
		opts[i] = (struct option){ flags[i].name, required_argument, NULL, 0 };
	opts[NFLAGS] = (struct option){ "resources", required_argument, NULL, 'r' };
	opts[NFLAGS + 1] = (struct option){ 0 };
	while ((opt = getopt_long(argc, argv, "+r:", opts, &idx)) != -1) {
		if (opt == 0)
			vals[idx] = optarg;
		else if (opt == 'r')
			resources = optarg;
		else
			return fail("update: unknown option (see unirun update --help)");
	}
	if (need_id("update", argc, argv, optind, &id))
		return 1;
	if (resources) {
		int rr = read_file_at(strcmp(resources, "-") ? AT_FDCWD : AT_FDCWD,
				      strcmp(resources, "-") ? resources : "/dev/stdin", &text, NULL);
		if (rr < 0)
			return fail("update: --resources %s: %s", resources, strerror(-rr));
	} else {
		text = flags_to_json(vals, &e);
		if (!text)
			return fail("update: %s", e.msg);
	}
	doc = resources_parse(text, resources ? "--resources" : "update flags", &e);
	if (!doc)
		return fail("update: %s", e.msg);
	if (container_open(G.root, id, &c, &e) < 0) {
		resources_doc_free(doc);
		return fail("update: %s", e.msg);
	}
	enum cstatus s = container_status(&c, &pid);
	if (s == ST_STOPPED || !c.st) {
		fail("update: container \"%s\" is %s", id, status_names[s]);
		goto out;
	}
	if (!has_cgroup(c.st)) {
		fail("update: container \"%s\" has no cgroup of its own (rootless without a delegated cgroup)", id);
		goto out;
	}
	dirfd = open(c.st->cgroup, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	if (dirfd < 0) {
		fail("update: %s: %s", c.st->cgroup, strerror(errno));
		goto out;
	}
	if (res_controllers(doc->res, &mask, &e) < 0 ||
	    res_enable(c.st->cgroup_boundary ? c.st->cgroup_boundary : c.st->cgroup, c.st->cgroup, mask, &e) < 0 ||
	    res_apply(dirfd, c.st->cgroup, doc->res, true, &e) < 0) {
		fail("update %s: %s", id, e.msg);
		goto out;
	}
	r = 0;
out:
	container_close(&c);
	resources_doc_free(doc);
	return r;
}
