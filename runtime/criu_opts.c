/* checkpoint and restore: runc's flags, parsed into one struct (criu.h). */
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include "lib/util.h"
#include "runtime/commands.h"
#include "runtime/criu.h"

static const struct {
	const char *name;
	int mode;
} cg_modes[] = { { "soft", CR_CG_SOFT }, { "full", CR_CG_FULL }, { "strict", CR_CG_STRICT },
		 { "ignore", CR_CG_IGNORE } };

/* Both commands' options, then checkpoint's (O_PARENT..O_PAGESERVER), then
 * restore's (O_BUNDLE on): the ranges say which command takes which. */
enum {
	O_IMAGE = 256, O_WORK, O_TCP, O_EXTUNIX, O_SHELL, O_LOCKS, O_CGMODE, O_EMPTYNS, O_DEDUP, O_LAZY,
	O_PARENT, O_LEAVE, O_PREDUMP, O_STATUSFD, O_PAGESERVER,
	O_BUNDLE, O_DETACH, O_PIDFILE, O_CONSOLE, O_NOPIVOT, O_NOSUBREAPER,
};

int cr_parse(const char *cmd, int argc, char **argv, struct cr_opts *o)
{
	static const struct option both[] = {
		{ "image-path", required_argument, NULL, O_IMAGE },
		{ "work-path", required_argument, NULL, O_WORK },
		{ "tcp-established", no_argument, NULL, O_TCP },
		{ "ext-unix-sk", no_argument, NULL, O_EXTUNIX },
		{ "shell-job", no_argument, NULL, O_SHELL },
		{ "file-locks", no_argument, NULL, O_LOCKS },
		{ "manage-cgroups-mode", required_argument, NULL, O_CGMODE },
		{ "empty-ns", required_argument, NULL, O_EMPTYNS },
		{ "auto-dedup", no_argument, NULL, O_DEDUP },
		{ "lazy-pages", no_argument, NULL, O_LAZY },
		/* checkpoint only */
		{ "parent-path", required_argument, NULL, O_PARENT },
		{ "leave-running", no_argument, NULL, O_LEAVE },
		{ "pre-dump", no_argument, NULL, O_PREDUMP },
		{ "status-fd", required_argument, NULL, O_STATUSFD },
		{ "page-server", required_argument, NULL, O_PAGESERVER },
		/* restore only */
		{ "bundle", required_argument, NULL, O_BUNDLE },
		{ "detach", no_argument, NULL, O_DETACH },
		{ "pid-file", required_argument, NULL, O_PIDFILE },
		{ "console-socket", required_argument, NULL, O_CONSOLE },
		{ "no-pivot", no_argument, NULL, O_NOPIVOT },
		{ "no-subreaper", no_argument, NULL, O_NOSUBREAPER },
		{ 0 }
	};
	bool restore = !strcmp(cmd, "restore");
	uint64_t n;
	int c;

	memset(o, 0, sizeof(*o));
	o->image_path = "checkpoint";
	o->cg_mode = CR_CG_DEFAULT;
	o->status_fd = -1;
	while ((c = getopt_long(argc, argv, restore ? "+b:d" : "+", both, NULL)) != -1) {
		if (restore ? (c >= O_PARENT && c <= O_PAGESERVER) : c >= O_BUNDLE)
			return fail("%s: unknown option (see unirun %s --help)", cmd, cmd);
		switch (c) {
		case O_IMAGE: o->image_path = optarg; break;
		case O_WORK: o->work_path = optarg; break;
		case O_PARENT: o->parent_path = optarg; break;
		case O_LEAVE: o->leave_running = true; break;
		case O_PREDUMP: o->pre_dump = true; break;
		case O_TCP: o->tcp_established = true; break;
		case O_EXTUNIX: o->ext_unix_sk = true; break;
		case O_SHELL: o->shell_job = true; break;
		case O_LOCKS: o->file_locks = true; break;
		case O_DEDUP: o->auto_dedup = true; break;
		case O_CGMODE:
			o->cg_mode = -1;
			for (size_t i = 0; i < sizeof(cg_modes) / sizeof(cg_modes[0]); i++)
				if (!strcmp(optarg, cg_modes[i].name))
					o->cg_mode = cg_modes[i].mode;
			if (o->cg_mode < 0)
				return fail("%s: --manage-cgroups-mode: \"%s\" is not soft, full, strict or ignore",
					    cmd, optarg);
			break;
		case O_EMPTYNS:
			/* runc's one: the network namespace is made empty, for the
			 * caller to set up (CNI) instead of being dumped. */
			if (strcmp(optarg, "network"))
				return fail("%s: --empty-ns: \"%s\" is not supported (only network)", cmd, optarg);
			o->empty_ns |= CLONE_NEWNET;
			break;
		case O_STATUSFD:
			if (parse_u64(optarg, &n) < 0 || n > 65535)
				return fail("%s: --status-fd: \"%s\" is not a file descriptor", cmd, optarg);
			o->status_fd = (int)n;
			break;
		case O_PAGESERVER:
			return fail("%s: --page-server: not supported (images are written locally)", cmd);
		case O_LAZY:
			return fail("%s: --lazy-pages: not supported (pages are dumped and restored eagerly)", cmd);
		case 'b': case O_BUNDLE: o->lo.bundle = optarg; break;
		case 'd': case O_DETACH: o->lo.detach = true; break;
		case O_PIDFILE: o->lo.pid_file = optarg; break;
		case O_CONSOLE: o->lo.console_socket = optarg; break;
		case O_NOPIVOT: o->lo.no_pivot = true; break;
		case O_NOSUBREAPER: break;
		default:
			return fail("%s: unknown option (see unirun %s --help)", cmd, cmd);
		}
	}
	if (need_id(cmd, argc, argv, optind, &o->lo.id))
		return 1;
	o->lo.root = G.root;
	if (!o->lo.bundle)
		o->lo.bundle = ".";
	if (!o->work_path)
		o->work_path = o->image_path;
	return 0;
}
