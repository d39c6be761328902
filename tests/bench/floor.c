/* floor ROOTFS CGROUP2_DIR N: the least a container start can cost here, for
 * `make bench` to compare against. N times: a cgroup, clone3 into it with new
 * mount/pid/ipc/uts/net/cgroup namespaces, the default spec's mounts (proc,
 * /dev tmpfs, devpts, shm, mqueue, sysfs), pivot_root and exec of /bin/true;
 * wait, remove the cgroup. No config, no state, no checks: not a runtime. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	_exit(127);
}

static void child(const char *rootfs)
{
	if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) < 0)
		die("rslave");
	if (mount(rootfs, rootfs, NULL, MS_BIND | MS_REC, NULL) < 0 || chdir(rootfs) < 0)
		die("bind rootfs");
	if (mount("proc", "proc", "proc", MS_NOSUID | MS_NOEXEC | MS_NODEV, NULL) < 0)
		die("proc");
	if (mount("tmpfs", "dev", "tmpfs", MS_NOSUID | MS_STRICTATIME, "mode=755,size=65536k") < 0)
		die("dev");
	mkdir("dev/pts", 0755);
	mkdir("dev/shm", 0755);
	mkdir("dev/mqueue", 0755);
	if (mount("devpts", "dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620") < 0)
		die("devpts");
	if (mount("shm", "dev/shm", "tmpfs", MS_NOSUID | MS_NOEXEC | MS_NODEV, "mode=1777,size=65536k") < 0)
		die("shm");
	if (mount("mqueue", "dev/mqueue", "mqueue", MS_NOSUID | MS_NOEXEC | MS_NODEV, NULL) < 0)
		die("mqueue");
	if (mount("sysfs", "sys", "sysfs", MS_NOSUID | MS_NOEXEC | MS_NODEV | MS_RDONLY, NULL) < 0)
		die("sysfs");
	if (syscall(SYS_pivot_root, ".", ".") < 0 || umount2(".", MNT_DETACH) < 0 || chdir("/") < 0)
		die("pivot_root");
	execl("/bin/true", "true", (char *)NULL);
	die("exec");
}

int main(int argc, char **argv)
{
	struct timespec a, b;
	int n;

	if (argc != 4)
		return 2;
	n = atoi(argv[3]);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < n; i++) {
		char cg[4096];
		snprintf(cg, sizeof(cg), "%s/floor-%d", argv[2], i);
		if (mkdir(cg, 0755) < 0)
			die("mkdir cgroup");
		int cgfd = open(cg, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
		struct clone_args ca = { .flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS |
						  CLONE_NEWNET | CLONE_NEWCGROUP | CLONE_INTO_CGROUP,
					 .exit_signal = SIGCHLD, .cgroup = (uint64_t)cgfd };
		pid_t pid = (pid_t)syscall(SYS_clone3, &ca, sizeof(ca));
		if (pid < 0)
			die("clone3");
		if (pid == 0)
			child(argv[1]);
		close(cgfd);
		int st;
		waitpid(pid, &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			return fprintf(stderr, "floor: the child failed\n"), 1;
		rmdir(cg);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.0f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n / 1e3);
	return 0;
}
