/*
 * tmpcopyup: a tmpfs mounted over a directory of the image starts with a copy
 * of what that directory held (podman's --tmpfs). The copy goes into the
 * detached tmpfs before it is attached, walking with *at() calls from fds
 * that were resolved inside the rootfs; symlinks are copied, never followed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/cleanup.h"
#include "lib/util.h"
#include "ns/ns.h"

static int copy_entry(int src, int dst, const char *name, int depth, struct uerr *e);

static int copy_file(int src, int dst, const char *name, const struct stat *st, struct uerr *e)
{
	_cleanup_close_ int in = openat(src, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	_cleanup_close_ int out = -1;

	if (in < 0)
		return uerr_sys(e, "tmpcopyup: opening %s", name);
	out = openat(dst, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, st->st_mode & 07777);
	if (out < 0)
		return uerr_sys(e, "tmpcopyup: creating %s", name);
	for (off_t left = st->st_size; left > 0;) {
		ssize_t n = sendfile(out, in, NULL, (size_t)left);
		if (n <= 0)
			return n < 0 ? uerr_sys(e, "tmpcopyup: copying %s", name) : 0;
		left -= n;
	}
	if (fchown(out, st->st_uid, st->st_gid) < 0 || fchmod(out, st->st_mode & 07777) < 0)
		return uerr_sys(e, "tmpcopyup: owner and mode of %s", name);
	return 0;
}

/* Copy the entries of directory src into directory dst. */
static int copy_dir(int src, int dst, int depth, struct uerr *e)
{
	int fd = openat(src, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	_cleanup_closedir_ DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *de;
	int r;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return uerr_sys(e, "tmpcopyup: reading a directory");
	}
	if (depth > 64)
		return uerr_set(e, ELOOP, "tmpcopyup: directories nested too deep");
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    (r = copy_entry(dirfd(d), dst, de->d_name, depth, e)) < 0)
			return r;
	return 0;
}

static int copy_entry(int src, int dst, const char *name, int depth, struct uerr *e)
{
	struct stat st;

	if (fstatat(src, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return uerr_sys(e, "tmpcopyup: %s", name);
	if (S_ISREG(st.st_mode))
		return copy_file(src, dst, name, &st, e);
	if (S_ISLNK(st.st_mode)) {
		char target[PATH_MAX];
		ssize_t n = readlinkat(src, name, target, sizeof(target) - 1);
		if (n < 0)
			return uerr_sys(e, "tmpcopyup: readlink %s", name);
		target[n] = '\0';
		if (symlinkat(target, dst, name) < 0 || fchownat(dst, name, st.st_uid, st.st_gid, AT_SYMLINK_NOFOLLOW) < 0)
			return uerr_sys(e, "tmpcopyup: symlink %s", name);
		return 0;
	}
	if (S_ISDIR(st.st_mode)) {
		_cleanup_close_ int s = -1, d = -1;
		if (mkdirat(dst, name, 0700) < 0)
			return uerr_sys(e, "tmpcopyup: mkdir %s", name);
		s = openat(src, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		d = openat(dst, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (s < 0 || d < 0)
			return uerr_sys(e, "tmpcopyup: opening %s", name);
		int r = copy_dir(s, d, depth + 1, e);
		if (r < 0)
			return r;
		if (fchown(d, st.st_uid, st.st_gid) < 0 || fchmod(d, st.st_mode & 07777) < 0)
			return uerr_sys(e, "tmpcopyup: owner and mode of %s", name);
		return 0;
	}
	/* fifos, sockets, device nodes */
	if (mknodat(dst, name, st.st_mode, st.st_rdev) < 0 ||
	    fchownat(dst, name, st.st_uid, st.st_gid, AT_SYMLINK_NOFOLLOW) < 0)
		return uerr_sys(e, "tmpcopyup: mknod %s", name);
	return 0;
}

int tmpcopyup(int target, int tree, struct uerr *e)
{
	_cleanup_close_ int root = openat(tree, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat st;

	if (root < 0 || fstat(target, &st) < 0)
		return uerr_sys(e, "tmpcopyup");
	if (!S_ISDIR(st.st_mode))
		return 0;
	/* The tmpfs root keeps the mode=/uid=/gid= its options gave it. */
	return copy_dir(target, root, 0, e);
}
