/* Paths inside the container's root. openat2 RESOLVE_IN_ROOT makes "..", absolute
 * symlinks and the rest resolve as if the rootfs were "/": an image cannot send a
 * mount, a device or a cwd outside of it. */
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "lib/util.h"
#include "ns/ns.h"

int open_in_root(int rootfd, const char *path, int flags, mode_t mode)
{
	struct open_how how = {
		.flags = (uint64_t)flags | O_CLOEXEC,
		.mode = (flags & O_CREAT) ? mode : 0,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	int fd;

	while (*path == '/')
		path++;
	if (!*path)
		path = ".";
	do
		fd = (int)syscall(SYS_openat2, rootfd, path, &how, sizeof(how));
	while (fd < 0 && errno == EAGAIN);
	return fd < 0 ? -errno : fd;
}

/* Create one missing component `name` under the directory parentfd. A dangling
 * symlink there is resolved (inside the root) and its target made instead. */
static int make_component(int rootfd, int parentfd, const char *name, const char *sofar, bool file,
			  int depth, struct uerr *e)
{
	char target[PATH_MAX];
	ssize_t n;

	if (file) {
		int fd = openat(parentfd, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0644);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
	} else if (mkdirat(parentfd, name, 0755) == 0) {
		return 0;
	}
	if (errno != EEXIST)
		return uerr_sys(e, "creating %s in the rootfs", sofar);
	n = readlinkat(parentfd, name, target, sizeof(target) - 1);
	if (n < 0 || depth > 8)
		return uerr_set(e, ELOOP, "creating %s in the rootfs: exists but cannot be resolved", sofar);
	target[n] = '\0';
	if (target[0] != '/') {
		/* Relative to the link's directory. */
		_cleanup_free_ char *dir = xstrdup(sofar);
		char *slash = strrchr(dir, '/');
		_cleanup_free_ char *abs = NULL;
		if (slash)
			*slash = '\0';
		abs = xasprintf("%s/%s", dir, target);
		int fd = mkpath_in_root(rootfd, abs, file, e);
		if (fd < 0)
			return fd;
		close(fd);
		return 0;
	}
	int fd = mkpath_in_root(rootfd, target, file, e);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int mkpath_in_root(int rootfd, const char *path, bool file, struct uerr *e)
{
	_cleanup_free_ char *p = xstrdup(path);
	static __thread int depth;
	int fd = open_in_root(rootfd, path, O_PATH, 0);

	if (fd >= 0)
		return fd;
	if (fd != -ENOENT) {
		errno = -fd;
		return uerr_sys(e, "resolving %s in the rootfs", path);
	}
	depth++;
	/* Walk down: open each prefix; create the first missing one and go on. */
	for (char *s = p + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		int pfd = open_in_root(rootfd, p, O_PATH, 0);
		if (pfd == -ENOENT) {
			char *slash = strrchr(p, '/');
			_cleanup_close_ int parent = -1;
			*slash = '\0';
			parent = open_in_root(rootfd, p[0] ? p : "/", O_PATH | O_DIRECTORY, 0);
			*slash = '/';
			if (parent < 0) {
				errno = -parent;
				depth--;
				return uerr_sys(e, "resolving %s in the rootfs", p);
			}
			int r = make_component(rootfd, parent, slash + 1, p, file && !c, depth, e);
			if (r < 0) {
				depth--;
				return r;
			}
		} else if (pfd < 0) {
			errno = -pfd;
			depth--;
			return uerr_sys(e, "resolving %s in the rootfs", p);
		} else {
			close(pfd);
		}
		*s = c;
		if (!c)
			break;
	}
	depth--;
	fd = open_in_root(rootfd, path, O_PATH, 0);
	if (fd < 0) {
		errno = -fd;
		return uerr_sys(e, "resolving %s in the rootfs", path);
	}
	return fd;
}
