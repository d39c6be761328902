/* sigsyscall DIR: mkdir(DIR) with a SIGUSR1 handler installed (no
 * SA_RESTART), so a signal that interrupts the syscall shows as EINTR.
 * Prints "mkdir=RESULT errno=NAME" and "usr1=N" (handler runs). Static, to be
 * copied into a test rootfs. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static volatile sig_atomic_t usr1;

static void on_usr1(int sig)
{
	(void)sig;
	usr1++;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	int r;

	if (argc != 2)
		return 2;
	sigaction(SIGUSR1, &sa, NULL);
	r = mkdir(argv[1], 0755);
	printf("mkdir=%d errno=%s\n", r, r < 0 ? (errno == EINTR ? "EINTR" : strerror(errno)) : "0");
	printf("usr1=%d\n", (int)usr1);
	fflush(stdout);
	return 0;
}
