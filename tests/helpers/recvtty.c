/* recvtty SOCKET: accept one connection on a unix socket, take the pty master
 * that unirun sends with SCM_RIGHTS (--console-socket), and copy everything the
 * container writes to stdout until it hangs up. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char buf[4096], cbuf[CMSG_SPACE(sizeof(int))], byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	int s, c, master = -1;
	ssize_t n;

	if (argc != 2 || strlen(argv[1]) >= sizeof(sa.sun_path))
		return 2;
	strcpy(sa.sun_path, argv[1]);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	unlink(argv[1]);
	if (s < 0 || bind(s, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(s, 1) < 0)
		return perror("recvtty: listen"), 1;
	c = accept(s, NULL, NULL);
	if (c < 0 || recvmsg(c, &mh, 0) < 0)
		return perror("recvtty: recvmsg"), 1;
	for (struct cmsghdr *h = CMSG_FIRSTHDR(&mh); h; h = CMSG_NXTHDR(&mh, h))
		if (h->cmsg_type == SCM_RIGHTS)
			memcpy(&master, CMSG_DATA(h), sizeof(int));
	if (master < 0)
		return fprintf(stderr, "recvtty: no fd received\n"), 1;
	while ((n = read(master, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			fwrite(buf, 1, (size_t)n, stdout), fflush(stdout);
	return 0;
}
