/* events: one stats object (--stats), or a stream of JSON events: stats every
 * --interval, "oom" when memory.events counts a new OOM kill, and the end
 * when cgroup.events says populated 0. No release agent, no polling loop
 * faster than the interval: cgroup.events and memory.events wake us. */
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/util.h"
#include "cgroup/cgroup.h"
#include "cgroup/stats.h"
#include "runtime/commands.h"
#include "runtime/container.h"

static void emit(const char *type, const char *id, const char *path)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	char *s;

	yajl_gen_map_open(g);
	jg_kv(g, "type", type);
	jg_kv(g, "id", id);
	if (path) {
		jg_str(g, "data");
		cg_stats_gen(g, path);
	}
	yajl_gen_map_close(g);
	s = jg_finish(g, NULL);
	printf("%s\n", s);
	fflush(stdout);
	free(s);
}

/* "5s", "500ms", "1m", or plain seconds. */
static int parse_interval(const char *s, int *ms)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || v <= 0)
		return -1;
	if (!strcmp(end, "ms"))
		*ms = (int)v;
	else if (!strcmp(end, "s") || !*end)
		*ms = (int)(v * 1000);
	else if (!strcmp(end, "m"))
		*ms = (int)(v * 60000);
	else
		return -1;
	return *ms > 0 ? 0 : -1;
}

int cmd_events(int argc, char **argv)
{
	static const struct option opts[] = { { "stats", no_argument, NULL, 's' },
					      { "interval", required_argument, NULL, 'i' }, { 0 } };
	bool stats = false;
	int interval = 5000, opt;
	const char *id;
	struct container c;
	struct uerr e = { 0 };
	pid_t pid;

	while ((opt = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		if (opt == 's')
			stats = true;
		else if (opt == 'i') {
			if (parse_interval(optarg, &interval) < 0)
				return fail("events: --interval: \"%s\" is not a duration", optarg);
		} else
			return fail("events: unknown option (see unirun events --help)");
	}
	if (need_id("events", argc, argv, optind, &id))
		return 1;
	if (container_open(G.root, id, &c, &e) < 0)
		return fail("events: %s", e.msg);
	enum cstatus s = container_status(&c, &pid);
	if (s == ST_STOPPED || !c.st) {
		container_close(&c);
		return fail("events: container \"%s\" is %s", id, status_names[s]);
	}
	if (!has_cgroup(c.st)) {
		container_close(&c);
		return fail("events: container \"%s\" has no cgroup of its own (rootless without a delegated cgroup)", id);
	}
	_cleanup_free_ char *path = xstrdup(c.st->cgroup);
	container_close(&c);
	if (stats) {
		emit("stats", id, path);
		return 0;
	}
	_cleanup_free_ char *ev = xasprintf("%s/cgroup.events", path);
	_cleanup_free_ char *mev = xasprintf("%s/memory.events", path);
	_cleanup_close_ int efd = open(ev, O_RDONLY | O_CLOEXEC);
	_cleanup_close_ int mfd = open(mev, O_RDONLY | O_CLOEXEC);
	long long ooms = cg_keyed(path, "memory.events", "oom_kill");

	if (efd < 0)
		return fail("events: %s: %s", ev, strerror(errno));
	for (;;) {
		struct pollfd p[2] = { { .fd = efd, .events = POLLPRI }, { .fd = mfd, .events = POLLPRI } };
		char buf[256];
		int n = poll(p, 2, interval);

		if (n == 0) {
			emit("stats", id, path);
			continue;
		}
		(void)!pread(efd, buf, sizeof(buf), 0);
		if (mfd >= 0)
			(void)!pread(mfd, buf, sizeof(buf), 0);
		long long now = cg_keyed(path, "memory.events", "oom_kill");
		if (now > ooms) {
			emit("oom", id, NULL);
			ooms = now;
		}
		if (!cg_populated(path)) {
			emit("exit", id, NULL);
			return 0;
		}
	}
}
