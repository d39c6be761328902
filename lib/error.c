#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "lib/error.h"

int uerr_set(struct uerr *e, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	e->code = code;
	return code > 0 ? -code : -EINVAL;
}

int uerr_sys(struct uerr *e, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	n = strlen(e->msg);
	snprintf(e->msg + n, sizeof(e->msg) - n, ": %s", strerror(saved));
	e->code = saved ? saved : EIO;
	return -e->code;
}

int uerr_prefix(struct uerr *e, const char *fmt, ...)
{
	char prefix[512], old[sizeof(e->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, e->msg, sizeof(old));
	snprintf(e->msg, sizeof(e->msg), "%s: %.*s", prefix, (int)(sizeof(e->msg) - 2 - strlen(prefix)), old);
	return uerr_ret(e);
}
