/* seccompagent SOCKET COUNT [DELAY_MS]: a seccomp notify agent for tests. For
 * each of COUNT connections on the unix socket, print the
 * containerProcessState JSON that came with the fd, then answer every
 * notified syscall as a success returning 0 (without doing it) until the
 * filter's processes are gone. With DELAY_MS it waits that long before each
 * answer and then prints whether the request is still valid (a signal to
 * the caller cancels it unless the filter has WAIT_KILLABLE_RECV). */
#include <errno.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int delay_ms;

static void serve(int fd)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;

	for (;;) {
		memset(&req, 0, sizeof(req));
		if (ioctl(fd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
			if (errno == EINTR)
				continue;
			return; /* ENOENT-ish: no process left behind the filter */
		}
		printf("notified syscall %d from pid %u\n", req.data.nr, req.pid);
		fflush(stdout);
		if (delay_ms) {
			usleep((useconds_t)delay_ms * 1000);
			printf("valid=%d\n", ioctl(fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &req.id) == 0);
			fflush(stdout);
		}
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.val = 0;
		resp.error = 0;
		ioctl(fd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char buf[65536], cbuf[CMSG_SPACE(sizeof(int))];
	int s, count;

	if (argc < 3 || argc > 4 || strlen(argv[1]) >= sizeof(sa.sun_path))
		return 2;
	count = atoi(argv[2]);
	delay_ms = argc == 4 ? atoi(argv[3]) : 0;
	strcpy(sa.sun_path, argv[1]);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	unlink(argv[1]);
	if (s < 0 || bind(s, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(s, 4) < 0)
		return perror("seccompagent: listen"), 1;
	for (int i = 0; i < count; i++) {
		struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) - 1 };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
				     .msg_controllen = sizeof(cbuf) };
		int c = accept(s, NULL, NULL), fd = -1;
		ssize_t n;

		if (c < 0 || (n = recvmsg(c, &mh, 0)) < 0)
			return perror("seccompagent: recvmsg"), 1;
		buf[n] = 0;
		for (struct cmsghdr *h = CMSG_FIRSTHDR(&mh); h; h = CMSG_NXTHDR(&mh, h))
			if (h->cmsg_type == SCM_RIGHTS)
				memcpy(&fd, CMSG_DATA(h), sizeof(int));
		close(c);
		if (fd < 0)
			return fprintf(stderr, "seccompagent: no fd received\n"), 1;
		printf("state %s\n", buf);
		fflush(stdout);
		if (fork() == 0) {
			serve(fd);
			_exit(0);
		}
		close(fd);
	}
	return 0;
}
