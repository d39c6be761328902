#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "lib/util.h"
#include "runtime/log.h"
#include "spec/json.h"

bool log_debug_on;
static int log_fd = -1;
static bool log_json;

int log_init(const char *path, const char *format, bool debug)
{
	log_debug_on = debug;
	if (format && strcmp(format, "json") && strcmp(format, "text")) {
		fprintf(stderr, "unirun: --log-format: \"%s\" is not text or json\n", format);
		return -EINVAL;
	}
	log_json = format && !strcmp(format, "json");
	if (path && *path) {
		log_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (log_fd < 0) {
			fprintf(stderr, "unirun: --log %s: %s\n", path, strerror(errno));
			return -errno;
		}
	}
	return 0;
}

void log_msg(const char *level, const char *fmt, ...)
{
	char msg[2048], ts[64];
	struct timespec now;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* stderr always gets errors: a person or conmon reads it. */
	if (strcmp(level, "debug") || log_fd < 0)
		fprintf(stderr, "unirun: %s%s%s\n", strcmp(level, "error") ? level : "",
			strcmp(level, "error") ? ": " : "", msg);
	if (log_fd < 0)
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	format_rfc3339(ts, sizeof(ts), &now);
	if (log_json) {
		yajl_gen g = yajl_gen_alloc(NULL);
		size_t n;
		char *line;

		yajl_gen_map_open(g);
		jg_kv(g, "level", level);
		jg_kv(g, "msg", msg);
		jg_kv(g, "time", ts);
		yajl_gen_map_close(g);
		line = jg_finish(g, &n);
		line = xrealloc(line, n + 2);
		line[n] = '\n';
		write_all(log_fd, line, n + 1);
		free(line);
	} else {
		_cleanup_free_ char *line = xasprintf("time=\"%s\" level=%s msg=\"%s\"\n", ts, level, msg);
		write_all(log_fd, line, strlen(line));
	}
}
