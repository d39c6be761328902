/*
 * Idmapped bind mounts (mounts[].uidMappings/gidMappings, options idmap and
 * ridmap). They are made by the parent, in the host's namespaces, before the
 * container's init exists: mount_setattr(MOUNT_ATTR_IDMAP) needs a user
 * namespace holding the mapping, and only the host can write a mapping of
 * host ids. The init inherits the detached trees and attaches them where the
 * config says, like any other bind.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lib/util.h"
#include "ns/mountapi.h"
#include "ns/ns.h"

int ns_write_idmap(pid_t pid, const char *file, const struct oci_idmap *m, size_t n, struct uerr *e)
{
	char buf[4096], path[64];
	size_t len = 0;
	int r;

	for (size_t i = 0; i < n && len < sizeof(buf) - 40; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%u %u %u\n", m[i].container_id,
					m[i].host_id, m[i].size);
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	if ((r = write_file_at(AT_FDCWD, path, buf, len)) < 0) {
		errno = -r;
		return uerr_sys(e, "writing %s", path);
	}
	return 0;
}

/* A user namespace holding the mapping, as an fd; its only process is gone. */
static int idmap_userns(const struct oci_idmap *u, size_t nu, const struct oci_idmap *g, size_t ng,
			struct uerr *e)
{
	struct clone_args args = { .flags = CLONE_NEWUSER, .exit_signal = SIGCHLD };
	char path[64];
	int hold[2], fd = -1;
	pid_t pid;

	if (pipe2(hold, O_CLOEXEC) < 0)
		return uerr_sys(e, "pipe");
	pid = (pid_t)syscall(SYS_clone3, &args, sizeof(args));
	if (pid == 0) {
		char c;
		close(hold[1]);
		_exit(read(hold[0], &c, 1) < 0);
	}
	close(hold[0]);
	if (pid < 0) {
		close(hold[1]);
		return uerr_sys(e, "a user namespace for an idmapped mount");
	}
	if (ns_write_idmap(pid, "uid_map", u, nu, e) == 0 && ns_write_idmap(pid, "gid_map", g, ng, e) == 0) {
		snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			uerr_sys(e, "opening %s", path);
	}
	close(hold[1]);
	waitpid(pid, NULL, 0);
	return fd;
}

static int idmapped_tree(const struct oci_config *cfg, size_t i, bool recursive, struct uerr *e)
{
	const struct oci_mount *m = &cfg->mounts[i];
	const struct oci_linux *lx = &cfg->linux;
	bool own = m->n_uid_mappings || m->n_gid_mappings;
	_cleanup_close_ int userns = -1;
	int tree;

	if (own && (!m->n_uid_mappings || !m->n_gid_mappings))
		return uerr_set(e, EINVAL, "mounts[%zu]: uidMappings and gidMappings go together", i);
	if (!own && (!lx->n_uid_mappings || !lx->n_gid_mappings))
		return uerr_set(e, EINVAL, "mounts[%zu]: idmap without uidMappings/gidMappings needs "
				"the container's linux.uidMappings and linux.gidMappings", i);
	if (!m->source)
		return uerr_set(e, EINVAL, "mounts[%zu]: a bind mount needs a source", i);
	userns = own ? idmap_userns(m->uid_mappings, m->n_uid_mappings, m->gid_mappings, m->n_gid_mappings, e)
		     : idmap_userns(lx->uid_mappings, lx->n_uid_mappings, lx->gid_mappings, lx->n_gid_mappings, e);
	if (userns < 0)
		return uerr_prefix(e, "mounts[%zu] (%s)", i, m->destination);
	tree = sys_open_tree(AT_FDCWD, m->source, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | (recursive ? AT_RECURSIVE : 0));
	if (tree < 0)
		return uerr_sys(e, "mounts[%zu] (%s): bind source %s", i, m->destination, m->source);
	struct mount_attr a = { .attr_set = MOUNT_ATTR_IDMAP, .userns_fd = (uint64_t)userns };
	if (sys_mount_setattr(tree, "", AT_EMPTY_PATH | (recursive ? AT_RECURSIVE : 0), &a) < 0) {
		int err = errno;
		close(tree);
		errno = err;
		return uerr_sys(e, "mounts[%zu] (%s): idmapping %s (does its filesystem support "
				"idmapped mounts?)", i, m->destination, m->source);
	}
	return tree;
}

/* A look at the raw options first: most mounts have nothing to do with this,
 * and create should not parse every mount's options twice. */
static bool asks_idmap(const struct oci_mount *m)
{
	if (m->n_uid_mappings || m->n_gid_mappings)
		return true;
	for (size_t i = 0; m->options && m->options[i]; i++)
		if (!strcmp(m->options[i], "idmap") || !strcmp(m->options[i], "ridmap"))
			return true;
	return false;
}

int idmap_prepare(const struct oci_config *cfg, int **trees, struct uerr *e)
{
	int *t = NULL;

	*trees = NULL;
	for (size_t i = 0; i < cfg->n_mounts; i++) {
		const struct oci_mount *m = &cfg->mounts[i];
		struct mount_opts o;

		if (!asks_idmap(m))
			continue;
		if (mount_opts_parse(m->options, &o, "mounts", e) < 0)
			return uerr_ret(e);
		bool bind = o.bind || (m->type && !strcmp(m->type, "bind"));
		bool recursive = o.ridmap || (o.recursive_bind && !o.idmap);
		mount_opts_free(&o);
		if (!bind) {
			idmap_release(t, i);
			return uerr_set(e, EINVAL, "mounts[%zu] (%s): only bind mounts can be idmapped", i,
					m->destination);
		}
		if (!t) {
			t = xmalloc(cfg->n_mounts * sizeof(*t));
			for (size_t k = 0; k < cfg->n_mounts; k++)
				t[k] = -1;
		}
		if ((t[i] = idmapped_tree(cfg, i, recursive, e)) < 0) {
			idmap_release(t, cfg->n_mounts);
			return uerr_ret(e);
		}
	}
	*trees = t;
	return 0;
}

void idmap_release(int *trees, size_t n)
{
	for (size_t i = 0; trees && i < n; i++)
		if (trees[i] >= 0)
			close(trees[i]);
	free(trees);
}
