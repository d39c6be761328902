/* mount(8)-style options → MS_* flags, propagation, mount_setattr attributes
 * and the filesystem's own data string. */
#include <string.h>
#include <sys/mount.h>
#include <linux/mount.h>
#include "lib/util.h"
#include "ns/ns.h"

struct opt {
	const char *name;
	unsigned long set, clear;
};

static const struct opt flag_opts[] = {
	{ "ro", MS_RDONLY, 0 },          { "rw", 0, MS_RDONLY },
	{ "nosuid", MS_NOSUID, 0 },      { "suid", 0, MS_NOSUID },
	{ "nodev", MS_NODEV, 0 },        { "dev", 0, MS_NODEV },
	{ "noexec", MS_NOEXEC, 0 },      { "exec", 0, MS_NOEXEC },
	{ "sync", MS_SYNCHRONOUS, 0 },   { "async", 0, MS_SYNCHRONOUS },
	{ "dirsync", MS_DIRSYNC, 0 },    { "remount", MS_REMOUNT, 0 },
	{ "mand", MS_MANDLOCK, 0 },      { "nomand", 0, MS_MANDLOCK },
	{ "atime", 0, MS_NOATIME },      { "noatime", MS_NOATIME, 0 },
	{ "diratime", 0, MS_NODIRATIME }, { "nodiratime", MS_NODIRATIME, 0 },
	{ "relatime", MS_RELATIME, 0 },  { "norelatime", 0, MS_RELATIME },
	{ "strictatime", MS_STRICTATIME, 0 }, { "nostrictatime", 0, MS_STRICTATIME },
	{ "lazytime", MS_LAZYTIME, 0 },  { "nolazytime", 0, MS_LAZYTIME },
	{ "silent", MS_SILENT, 0 },      { "loud", 0, MS_SILENT },
	{ "defaults", 0, 0 },
};

static const struct opt prop_opts[] = {
	{ "private", MS_PRIVATE, 0 },      { "rprivate", MS_PRIVATE | MS_REC, 0 },
	{ "shared", MS_SHARED, 0 },        { "rshared", MS_SHARED | MS_REC, 0 },
	{ "slave", MS_SLAVE, 0 },          { "rslave", MS_SLAVE | MS_REC, 0 },
	{ "unbindable", MS_UNBINDABLE, 0 }, { "runbindable", MS_UNBINDABLE | MS_REC, 0 },
};

/* Recursive variants (mount_setattr with AT_RECURSIVE). */
static const struct {
	const char *name;
	unsigned long long set, clr;
} rec_opts[] = {
	{ "rro", MOUNT_ATTR_RDONLY, 0 },      { "rrw", 0, MOUNT_ATTR_RDONLY },
	{ "rnosuid", MOUNT_ATTR_NOSUID, 0 },  { "rsuid", 0, MOUNT_ATTR_NOSUID },
	{ "rnodev", MOUNT_ATTR_NODEV, 0 },    { "rdev", 0, MOUNT_ATTR_NODEV },
	{ "rnoexec", MOUNT_ATTR_NOEXEC, 0 },  { "rexec", 0, MOUNT_ATTR_NOEXEC },
	{ "rnoatime", MOUNT_ATTR_NOATIME, MOUNT_ATTR__ATIME },
	{ "rrelatime", MOUNT_ATTR_RELATIME, MOUNT_ATTR__ATIME },
	{ "rstrictatime", MOUNT_ATTR_STRICTATIME, MOUNT_ATTR__ATIME },
	{ "rnodiratime", MOUNT_ATTR_NODIRATIME, 0 }, { "rdiratime", 0, MOUNT_ATTR_NODIRATIME },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void add_data(struct mount_opts *o, const char *opt)
{
	char *d = o->data ? xasprintf("%s,%s", o->data, opt) : xstrdup(opt);

	free(o->data);
	o->data = d;
}

static bool match_table(const struct opt *t, size_t n, const char *s, unsigned long *set,
			unsigned long *clear)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].name, s)) {
			*set |= t[i].set;
			*set &= ~t[i].clear;
			if (clear)
				*clear |= t[i].clear;
			return true;
		}
	return false;
}

int mount_opts_parse(char *const *options, struct mount_opts *o, const char *path, struct uerr *e)
{
	memset(o, 0, sizeof(*o));
	for (size_t i = 0; options && options[i]; i++) {
		const char *s = options[i];
		size_t k;

		if (!strcmp(s, "bind")) {
			o->bind = true;
			continue;
		}
		if (!strcmp(s, "rbind")) {
			o->bind = o->recursive_bind = true;
			continue;
		}
		if (!strcmp(s, "tmpcopyup")) {
			o->tmpcopyup = true;
			continue;
		}
		if (!strcmp(s, "idmap") || !strcmp(s, "ridmap")) {
			o->idmap = true;
			o->ridmap |= s[0] == 'r';
			continue;
		}
		if (match_table(flag_opts, ARRAY_SIZE(flag_opts), s, &o->flags, &o->clear))
			continue;
		if (match_table(prop_opts, ARRAY_SIZE(prop_opts), s, &o->propagation, NULL))
			continue;
		for (k = 0; k < ARRAY_SIZE(rec_opts); k++)
			if (!strcmp(rec_opts[k].name, s)) {
				o->attr_set |= rec_opts[k].set;
				o->attr_clr |= rec_opts[k].clr | rec_opts[k].set;
				break;
			}
		if (k < ARRAY_SIZE(rec_opts))
			continue;
		/* Everything else belongs to the filesystem (mode=755, size=65536k…). */
		add_data(o, s);
	}
	return 0;
}

void mount_opts_free(struct mount_opts *o)
{
	free(o->data);
	o->data = NULL;
}
