/* The parent/child protocol over a SOCK_SEQPACKET pair: one message a packet. */
#ifndef UNIRUN_SYNC_H
#define UNIRUN_SYNC_H

#include <stdint.h>
#include "lib/error.h"

enum sync_type {
	SYNC_USERNS = 1,   /* child → parent: my new user namespace wants its maps */
	SYNC_MAPPED,       /* parent → child: id maps written, go on */
	SYNC_PID,          /* child → parent: the real init's pid (after a second fork) */
	SYNC_HOOKS,        /* child → parent: namespaces exist, run createRuntime hooks */
	SYNC_HOOKS_DONE,   /* parent → child */
	SYNC_CONSOLE,      /* child → parent: the pty master rides along */
	SYNC_SECCOMP,      /* child → parent: the seccomp notify fd rides along */
	SYNC_SECCOMP_DONE, /* parent → child */
	SYNC_READY,        /* child → parent: about to wait for start */
	SYNC_ERROR,        /* child → parent: msg says what failed */
};

struct sync_msg {
	uint32_t type;
	int32_t val;
	int32_t code;
	char msg[1024];
};

int sync_send(int sock, enum sync_type type, int val, int fd);
int sync_send_err(int sock, const struct uerr *e);
/* Receive one message (and an fd when one came along: *fd, else -1). 0 on EOF. */
int sync_recv(int sock, struct sync_msg *m, int *fd);
/* Wait for a message of `type`; an SYNC_ERROR or EOF becomes the error. */
int sync_expect(int sock, enum sync_type type, struct sync_msg *m, struct uerr *e);
/* Send an fd over a connected unix socket at path (--console-socket). */
/* Connect to the unix socket at path and send fd with payload (a NUL byte
 * when payload is NULL). */
int send_fd_to_path(const char *path, int fd, const char *payload, const char *what, struct uerr *e);

#endif
