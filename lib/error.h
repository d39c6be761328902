/* Errors travel up as a negative errno plus one message in a struct uerr.
 * Library code (spec/, cgroup/, ns/) fills the message; only runtime/ prints. */
#ifndef UNIRUN_ERROR_H
#define UNIRUN_ERROR_H

#include <errno.h>

struct uerr {
	int code;        /* positive errno, or 0 when not from a syscall */
	char msg[1024];
};

/* Set a message; returns -EINVAL (or -code when code > 0) for `return uerr_set(...)`. */
int uerr_set(struct uerr *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Like uerr_set with code = errno, and ": strerror(errno)" appended. */
int uerr_sys(struct uerr *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prepend "prefix: " to the current message (keeps the code). */
int uerr_prefix(struct uerr *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline int uerr_ret(const struct uerr *e)
{
	return e->code > 0 ? -e->code : -EINVAL;
}

#endif
