/* What every command shares: the global flags and how errors are reported. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "runtime/commands.h"
#include "runtime/log.h"

struct globals G = { .root = "/run/unirun", .rootless = -1 };

int fail(const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_error("%s", msg);
	return 1;
}

int need_id(const char *cmd, int argc, char **argv, int optind_, const char **id)
{
	if (argc - optind_ < 1)
		return fail("%s: a container id is required (see unirun %s --help)", cmd, cmd);
	if (argc - optind_ > 1 && strcmp(cmd, "exec"))
		return fail("%s: exactly one container id is expected, got \"%s\" too", cmd, argv[optind_ + 1]);
	*id = argv[optind_];
	return 0;
}

