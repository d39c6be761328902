#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "lib/util.h"
#include "runtime/sync.h"

static int send_with_fd(int sock, const void *buf, size_t len, int fd)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (fd >= 0) {
		struct cmsghdr *c;

		memset(&u, 0, sizeof(u));
		mh.msg_control = u.buf;
		mh.msg_controllen = sizeof(u.buf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	while (sendmsg(sock, &mh, MSG_NOSIGNAL) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

int sync_send(int sock, enum sync_type type, int val, int fd)
{
	struct sync_msg m = { .type = type, .val = val };

	return send_with_fd(sock, &m, offsetof(struct sync_msg, msg), fd);
}

int sync_send_err(int sock, const struct uerr *e)
{
	struct sync_msg m = { .type = SYNC_ERROR, .code = e->code };

	snprintf(m.msg, sizeof(m.msg), "%s", e->msg);
	return send_with_fd(sock, &m, offsetof(struct sync_msg, msg) + strlen(m.msg) + 1, -1);
}

int sync_recv(int sock, struct sync_msg *m, int *fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = m, .iov_len = sizeof(*m) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			     .msg_controllen = sizeof(u.buf) };
	ssize_t n;

	memset(m, 0, sizeof(*m));
	if (fd)
		*fd = -1;
	do
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			int got;
			memcpy(&got, CMSG_DATA(c), sizeof(int));
			if (fd)
				*fd = got;
			else
				close(got);
		}
	m->msg[sizeof(m->msg) - 1] = '\0';
	return (int)n;
}

int sync_expect(int sock, enum sync_type type, struct sync_msg *m, struct uerr *e)
{
	int r = sync_recv(sock, m, NULL);

	if (r < 0) {
		errno = -r;
		return uerr_sys(e, "reading from the container's init");
	}
	if (r == 0)
		return uerr_set(e, EPIPE, "the container's init exited during setup");
	if (m->type == SYNC_ERROR)
		return uerr_set(e, m->code > 0 ? m->code : EINVAL, "%s", m->msg);
	if (m->type != type)
		return uerr_set(e, EPROTO, "unexpected message %u from the container's init", m->type);
	return 0;
}

int send_fd_to_path(const char *path, int fd, const char *payload, const char *what, struct uerr *e)
{
	_cleanup_close_ int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char byte = 0;
	int r;

	if (strlen(path) >= sizeof(sa.sun_path))
		return uerr_set(e, ENAMETOOLONG, "%s %s: path too long", what, path);
	strcpy(sa.sun_path, path);
	if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return uerr_sys(e, "%s %s", what, path);
	if ((r = payload ? send_with_fd(s, payload, strlen(payload), fd) : send_with_fd(s, &byte, 1, fd)) < 0) {
		errno = -r;
		return uerr_sys(e, "%s %s: sending the fd", what, path);
	}
	return 0;
}
