/* exeprobe PATH: what a container could do to the binary behind PATH (a
 * /proc/PID/exe link): prints "seals=N" (F_GET_SEALS, -1 when not a memfd)
 * and "write=ok" or "write=ERRNO-NAME" for an attempt to append a byte. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	printf("seals=%d\n", fcntl(fd, F_GET_SEALS));
	/* Reopen through the fd, as the CVE-2019-5736 exploit does. */
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	int w = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (w < 0 || write(w, "", 0) < 0 || write(w, "x", 1) != 1)
		printf("write=%s\n", strerrorname_np(errno));
	else
		printf("write=ok\n");
	return 0;
}
