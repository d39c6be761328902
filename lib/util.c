#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "lib/util.h"

static void oom(void)
{
	static const char m[] = "unirun: out of memory\n";
	(void)!write(2, m, sizeof(m) - 1);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);
	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);
	if (!p)
		oom();
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		oom();
	va_end(ap);
	return p;
}

int read_file_at(int dirfd, const char *path, char **out, size_t *len)
{
	_cleanup_close_ int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	size_t cap = 4096, n = 0;
	char *buf;

	if (fd < 0)
		return -errno;
	buf = xmalloc(cap);
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap)
			buf = xrealloc(buf, cap *= 2);
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int saved = errno;
			free(buf);
			return -saved;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	*out = buf;
	if (len)
		*len = n;
	return 0;
}

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t r = write(fd, p, len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

int write_file_at(int dirfd, const char *path, const char *buf, size_t len)
{
	_cleanup_close_ int fd = openat(dirfd, path, O_WRONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0)
		return -errno;
	/* One write(): kernel knobs parse each write as a whole. */
	r = write(fd, buf, len);
	if (r < 0)
		return -errno;
	return (size_t)r == len ? 0 : -EIO;
}

int write_file_atomic(const char *path, const char *buf, size_t len, mode_t mode)
{
	_cleanup_free_ char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	int fd, r;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	r = write_all(fd, buf, len);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}

int write_pid_file(const char *path, pid_t pid, struct uerr *e)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%d", (int)pid);
	int r = write_file_atomic(path, buf, (size_t)n, 0644);

	if (r < 0) {
		errno = -r;
		return uerr_sys(e, "--pid-file %s", path);
	}
	return 0;
}

int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_i64(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (!s || !*s || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

bool str_has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/*
 * UTC by arithmetic (days to civil date, H. Hinnant's algorithm): glibc's
 * gmtime_r and strftime both run tzset, which reads /etc/localtime on every
 * create for a stamp that has no zone.
 */
void format_rfc3339(char *buf, size_t n, const struct timespec *ts)
{
	long long secs = ts->tv_sec, days = secs / 86400, rem = secs % 86400;

	if (rem < 0) {
		rem += 86400;
		days--;
	}
	long long z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097;
	long long doe = z - era * 146097;
	long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
	long long d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
	long long y = yoe + era * 400 + (m <= 2);

	snprintf(buf, n, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%09ldZ", y, m, d, rem / 3600, rem / 60 % 60,
		 rem % 60, ts->tv_nsec);
}

unsigned long long proc_start_time(pid_t pid)
{
	char path[64];
	_cleanup_free_ char *buf = NULL;
	unsigned long long start = 0;
	char *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_file_at(AT_FDCWD, path, &buf, NULL) < 0)
		return 0;
	/* comm may hold spaces and parens: fields restart after the last ')'. */
	p = strrchr(buf, ')');
	if (!p)
		return 0;
	p++;
	for (int field = 3; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (p)
		start = strtoull(p + 1, NULL, 10);
	return start;
}

int mkdir_p(const char *path, mode_t mode)
{
	_cleanup_free_ char *p = xstrdup(path);

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(p, mode) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}
