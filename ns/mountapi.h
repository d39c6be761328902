/* The new mount API (open_tree, move_mount, fsopen…), for glibc without wrappers. */
#ifndef UNIRUN_MOUNTAPI_H
#define UNIRUN_MOUNTAPI_H

#include <fcntl.h>
#include <linux/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline int sys_open_tree(int dfd, const char *path, unsigned flags)
{
	return (int)syscall(SYS_open_tree, dfd, path, flags);
}
static inline int sys_move_mount(int from_dfd, const char *from, int to_dfd, const char *to, unsigned flags)
{
	return (int)syscall(SYS_move_mount, from_dfd, from, to_dfd, to, flags);
}
static inline int sys_fsopen(const char *fs, unsigned flags)
{
	return (int)syscall(SYS_fsopen, fs, flags);
}
static inline int sys_fsconfig(int fd, unsigned cmd, const char *key, const void *val, int aux)
{
	return (int)syscall(SYS_fsconfig, fd, cmd, key, val, aux);
}
static inline int sys_fsmount(int fd, unsigned flags, unsigned attr)
{
	return (int)syscall(SYS_fsmount, fd, flags, attr);
}
static inline int sys_mount_setattr(int dfd, const char *path, unsigned flags, struct mount_attr *a)
{
	return (int)syscall(SYS_mount_setattr, dfd, path, flags, a, sizeof(*a));
}

#endif
