#ifndef UNIRUN_UTIL_H
#define UNIRUN_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "lib/error.h"
#include "lib/cleanup.h"

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Read a whole file (relative to dirfd) into a NUL-terminated buffer. */
int read_file_at(int dirfd, const char *path, char **out, size_t *len);
/* Write `len` bytes to an existing file (no O_CREAT): cgroup and proc knobs. */
int write_file_at(int dirfd, const char *path, const char *buf, size_t len);
/* Create/replace a file atomically: temp file in the same dir, fsync-less rename. */
int write_file_atomic(const char *path, const char *buf, size_t len, mode_t mode);
int write_pid_file(const char *path, pid_t pid, struct uerr *e);

int parse_u64(const char *s, uint64_t *out);
int parse_i64(const char *s, int64_t *out);
bool str_has_prefix(const char *s, const char *prefix);
void format_rfc3339(char *buf, size_t n, const struct timespec *ts);
/* Start time of a process in clock ticks since boot (field 22 of /proc/PID/stat), 0 on error. */
unsigned long long proc_start_time(pid_t pid);
int write_all(int fd, const void *buf, size_t len);
int mkdir_p(const char *path, mode_t mode);

#endif
