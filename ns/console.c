/* process.terminal: a pty from the container's own devpts. The slave becomes
 * the controlling terminal, stdio and /dev/console; the master goes to the
 * caller of create (and on to --console-socket). */
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>
#include "lib/util.h"
#include "ns/mountapi.h"
#include "ns/ns.h"

int console_setup(const struct oci_process *p, int *master, struct uerr *e)
{
	_cleanup_close_ int m = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
	_cleanup_close_ int s = -1;
	_cleanup_close_ int tree = -1;
	_cleanup_close_ int target = -1;
	int unlock = 0;

	if (m < 0)
		return uerr_sys(e, "process.terminal: opening /dev/ptmx in the container");
	if (ioctl(m, TIOCSPTLCK, &unlock) < 0)
		return uerr_sys(e, "process.terminal: unlocking the pty");
	s = ioctl(m, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s < 0)
		return uerr_sys(e, "process.terminal: opening the pty slave");
	if (p->console_size.given) {
		struct winsize ws = { .ws_row = (unsigned short)p->console_size.height,
				      .ws_col = (unsigned short)p->console_size.width };
		if (ioctl(s, TIOCSWINSZ, &ws) < 0)
			return uerr_sys(e, "process.consoleSize");
	}
	/* /dev/console: a bind of the slave, as runc and crun do. */
	target = open_in_root(AT_FDCWD, "/dev/console", O_PATH | O_NOFOLLOW, 0);
	if (target == -ENOENT) {
		int fd = open_in_root(AT_FDCWD, "/dev/console", O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW, 0600);
		if (fd >= 0)
			close(fd);
		target = open_in_root(AT_FDCWD, "/dev/console", O_PATH | O_NOFOLLOW, 0);
	}
	if (target >= 0) {
		struct stat st;
		if (fstat(target, &st) == 0 && S_ISLNK(st.st_mode))
			return uerr_set(e, EINVAL, "process.terminal: /dev/console in the image is a symlink");
		tree = sys_open_tree(s, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
		if (tree < 0 || sys_move_mount(tree, "", target, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
			return uerr_sys(e, "process.terminal: binding /dev/console");
	}
	if (setsid() < 0 && getsid(0) != getpid())
		return uerr_sys(e, "setsid");
	if (ioctl(s, TIOCSCTTY, 0) < 0)
		return uerr_sys(e, "process.terminal: TIOCSCTTY");
	for (int fd = 0; fd < 3; fd++)
		if (dup2(s, fd) < 0)
			return uerr_sys(e, "process.terminal: dup2");
	*master = take_fd(&m);
	return 0;
}
