/* Stats of a container's cgroup, as runc's `events --stats` prints them. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/util.h"
#include "cgroup/cgroup.h"
#include "cgroup/stats.h"

/* The whole of PATH/FILE, or an empty string: each file is read once. */
static char *slurp(const char *path, const char *file)
{
	_cleanup_free_ char *f = xasprintf("%s/%s", path, file);
	char *buf = NULL;

	return read_file_at(AT_FDCWD, f, &buf, NULL) < 0 ? xstrdup("") : buf;
}

/* A single-value file; "max" is -1 too, absent is -2. */
static long long single(const char *path, const char *file)
{
	_cleanup_free_ char *f = xasprintf("%s/%s", path, file);
	_cleanup_free_ char *buf = NULL;

	if (read_file_at(AT_FDCWD, f, &buf, NULL) < 0)
		return -2;
	return strncmp(buf, "max", 3) ? atoll(buf) : -1;
}

static void num(yajl_gen g, const char *k, long long v)
{
	if (v >= 0)
		jg_ki(g, k, v);
}

static void raw_map(yajl_gen g, const char *path, const char *file)
{
	_cleanup_free_ char *f = xasprintf("%s/%s", path, file);
	_cleanup_free_ char *buf = NULL;

	jg_str(g, "raw");
	yajl_gen_map_open(g);
	if (read_file_at(AT_FDCWD, f, &buf, NULL) == 0)
		for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			char *sp = strchr(l, ' ');
			if (!sp)
				continue;
			*sp = '\0';
			jg_ki(g, l, atoll(sp + 1));
		}
	yajl_gen_map_close(g);
}

void cg_stats_gen(yajl_gen g, const char *path)
{
	_cleanup_free_ char *cpu = slurp(path, "cpu.stat");
	long long v;

	yajl_gen_map_open(g);
	jg_str(g, "cpu");
	yajl_gen_map_open(g);
	jg_str(g, "usage");
	yajl_gen_map_open(g);
	if ((v = cg_keyed_in(cpu, "usage_usec")) >= 0)
		jg_ki(g, "total", v * 1000);
	if ((v = cg_keyed_in(cpu, "user_usec")) >= 0)
		jg_ki(g, "user", v * 1000);
	if ((v = cg_keyed_in(cpu, "system_usec")) >= 0)
		jg_ki(g, "kernel", v * 1000);
	yajl_gen_map_close(g);
	jg_str(g, "throttling");
	yajl_gen_map_open(g);
	num(g, "periods", cg_keyed_in(cpu, "nr_periods"));
	num(g, "throttledPeriods", cg_keyed_in(cpu, "nr_throttled"));
	if ((v = cg_keyed_in(cpu, "throttled_usec")) >= 0)
		jg_ki(g, "throttledTime", v * 1000);
	yajl_gen_map_close(g);
	yajl_gen_map_close(g);
	if ((v = single(path, "memory.current")) != -2) {
		_cleanup_free_ char *events = slurp(path, "memory.events");
		jg_str(g, "memory");
		yajl_gen_map_open(g);
		jg_str(g, "usage");
		yajl_gen_map_open(g);
		num(g, "usage", v);
		num(g, "limit", single(path, "memory.max"));
		num(g, "max", single(path, "memory.peak"));
		yajl_gen_map_close(g);
		jg_str(g, "swap");
		yajl_gen_map_open(g);
		num(g, "usage", single(path, "memory.swap.current"));
		num(g, "limit", single(path, "memory.swap.max"));
		yajl_gen_map_close(g);
		num(g, "oom", cg_keyed_in(events, "oom"));
		num(g, "oomKill", cg_keyed_in(events, "oom_kill"));
		raw_map(g, path, "memory.stat");
		yajl_gen_map_close(g);
	}
	if ((v = single(path, "pids.current")) != -2) {
		jg_str(g, "pids");
		yajl_gen_map_open(g);
		num(g, "current", v);
		v = single(path, "pids.max");
		jg_ki(g, "limit", v < 0 ? 0 : v);
		yajl_gen_map_close(g);
	}
	{
		_cleanup_free_ char *f = xasprintf("%s/io.stat", path);
		_cleanup_free_ char *buf = NULL;
		if (read_file_at(AT_FDCWD, f, &buf, NULL) == 0) {
			jg_str(g, "blkio");
			yajl_gen_map_open(g);
			jg_str(g, "ioServiceBytesRecursive");
			yajl_gen_array_open(g);
			for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
				unsigned maj, min;
				long long rb = 0, wb = 0;
				char *p;
				if (sscanf(l, "%u:%u", &maj, &min) != 2)
					continue;
				if ((p = strstr(l, "rbytes=")))
					rb = atoll(p + 7);
				if ((p = strstr(l, "wbytes=")))
					wb = atoll(p + 7);
				for (int k = 0; k < 2; k++) {
					yajl_gen_map_open(g);
					jg_ki(g, "major", maj);
					jg_ki(g, "minor", min);
					jg_kv(g, "op", k ? "Write" : "Read");
					jg_ki(g, "value", k ? wb : rb);
					yajl_gen_map_close(g);
				}
			}
			yajl_gen_array_close(g);
			yajl_gen_map_close(g);
		}
	}
	yajl_gen_map_close(g);
}
