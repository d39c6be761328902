/*
 * Keep the runtime binary out of the container's reach (CVE-2019-5736).
 *
 * Every process unirun puts into a container starts as a copy of unirun, so
 * until it execs, its /proc/PID/exe is unirun's binary; a container that
 * makes it exec /proc/self/exe (as args[0], a #! line or an ELF interpreter)
 * runs the host binary and can hold it open to overwrite it once unirun has
 * exited. So the commands that make such processes first re-exec unirun from
 * a sealed memfd copy: the only binary a container could ever see is that
 * copy, which can't be written, grown or shrunk, and goes away with the last
 * process using it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/cleanup.h"
#include "runtime/selfclone.h"

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

#define CLONE_SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

extern char **environ;

static bool is_sealed_copy(int fd)
{
	int seals = fcntl(fd, F_GET_SEALS);

	return seals >= 0 && (seals & CLONE_SEALS) == CLONE_SEALS;
}

static int sealed_copy(int exe, struct uerr *e)
{
	struct stat st;
	/* MFD_EXEC where vm.memfd_noexec exists (6.3+); older kernels say EINVAL. */
	_cleanup_close_ int mfd = memfd_create("unirun", MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_EXEC);

	if (mfd < 0 && errno == EINVAL)
		mfd = memfd_create("unirun", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (mfd < 0)
		return uerr_sys(e, "memfd_create for a sealed copy of unirun");
	if (fstat(exe, &st) < 0)
		return uerr_sys(e, "fstat /proc/self/exe");
	for (off_t done = 0; done < st.st_size;) {
		ssize_t n = sendfile(mfd, exe, NULL, (size_t)(st.st_size - done));
		if (n <= 0)
			return n < 0 ? uerr_sys(e, "copying unirun into a memfd")
				     : uerr_set(e, EIO, "copying unirun into a memfd: short file");
		done += n;
	}
	if (fcntl(mfd, F_ADD_SEALS, CLONE_SEALS) < 0)
		return uerr_sys(e, "sealing the memfd copy of unirun");
	return take_fd(&mfd);
}

int self_clone(char **argv, struct uerr *e)
{
	_cleanup_close_ int exe = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	_cleanup_close_ int mfd = -1;

	if (exe < 0)
		return uerr_sys(e, "opening /proc/self/exe");
	if (is_sealed_copy(exe))
		return 0;
	if ((mfd = sealed_copy(exe, e)) < 0)
		return mfd;
	fexecve(mfd, argv, environ);
	return uerr_sys(e, "re-executing unirun from its sealed memfd copy (is vm.memfd_noexec 2?)");
}
