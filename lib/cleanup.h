/* __attribute__((cleanup)) helpers: error paths stay one `return`. */
#ifndef UNIRUN_CLEANUP_H
#define UNIRUN_CLEANUP_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <dirent.h>

static inline void freep(void *p)
{
	free(*(void **)p);
}
static inline void closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;
		close(*fd);
		errno = saved;
	}
}
static inline void fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}
static inline void closedirp(DIR **d)
{
	if (*d)
		closedir(*d);
}
static inline void strvfreep(char ***v)
{
	if (*v) {
		for (char **p = *v; *p; p++)
			free(*p);
		free(*v);
	}
}

#define _cleanup_free_ __attribute__((cleanup(freep)))
#define _cleanup_close_ __attribute__((cleanup(closep)))
#define _cleanup_fclose_ __attribute__((cleanup(fclosep)))
#define _cleanup_closedir_ __attribute__((cleanup(closedirp)))
#define _cleanup_strv_ __attribute__((cleanup(strvfreep)))

/* Hand a resource out of a cleanup-guarded variable. */
static inline int take_fd(int *fd)
{
	int r = *fd;
	*fd = -1;
	return r;
}
#define TAKE_PTR(p) ({ __typeof__(p) _t = (p); (p) = NULL; _t; })

#endif
