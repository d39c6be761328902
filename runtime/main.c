/* unirun: argv → global flags → one command. */
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/cleanup.h"
#include "lib/util.h"
#include "runtime/commands.h"
#include "runtime/log.h"
#include "runtime/selfclone.h"

static const struct {
	const char *name;
	cmd_fn fn;
	const char *summary;
	bool clone;    /* puts processes into a container: run from a sealed copy */
} commands[] = {
	{ "create", cmd_create, "create a container", true },
	{ "start", cmd_start, "execute the user process of a created container", false },
	{ "run", cmd_run, "create and start a container", true },
	{ "exec", cmd_exec, "run a new process inside a container", true },
	{ "state", cmd_state, "output the state of a container", false },
	{ "kill", cmd_kill, "send a signal to the container's init (or all with --all)", false },
	{ "delete", cmd_delete, "delete a container and what it holds", false },
	{ "pause", cmd_pause, "freeze all processes of a container (cgroup.freeze)", false },
	{ "resume", cmd_resume, "thaw a paused container", false },
	{ "ps", cmd_ps, "list the processes of a container", false },
	{ "list", cmd_list, "list the containers", false },
	{ "update", cmd_update, "update the resource limits of a container", false },
	{ "events", cmd_events, "stats and events of a container", false },
	{ "spec", cmd_spec, "write a new config.json", false },
	{ "features", cmd_features, "show what unirun supports (OCI features.json)", false },
	{ "checkpoint", cmd_checkpoint, "checkpoint a running container (CRIU)", false },
	{ "restore", cmd_restore, "restore a container from a checkpoint (CRIU)", true },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: unirun [global options] COMMAND [options] [ID]\n\n"
		   "An OCI container runtime for the unified cgroup hierarchy (cgroup v2).\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-11s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nGlobal options:\n"
		   "  --root DIR              state directory (default /run/unirun; rootless:\n"
		   "                          $XDG_RUNTIME_DIR/unirun)\n"
		   "  --log FILE              also log to FILE\n"
		   "  --log-format text|json  format of --log (default text)\n"
		   "  --debug                 log debug messages\n"
		   "  --systemd-cgroup        use the systemd cgroup driver (not available)\n"
		   "  --rootless true|false|auto\n"
		   "  -v, --version           print the version\n"
		   "  -h, --help              this help; COMMAND --help for a command\n");
}

static void version(void)
{
	printf("unirun version %s\nspec: 1.2.1\ncgroup: v2 only\n", PACKAGE_VERSION);
}

/* Not in the initial user namespace: our uid_map is not the identity. */
static bool in_user_namespace(void)
{
	_cleanup_free_ char *map = NULL;
	unsigned long a, b, c;

	if (read_file_at(AT_FDCWD, "/proc/self/uid_map", &map, NULL) < 0)
		return false;
	return sscanf(map, "%lu %lu %lu", &a, &b, &c) != 3 || a != 0 || b != 0 || c != 4294967295UL;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "log", required_argument, NULL, 'l' },
		{ "log-format", required_argument, NULL, 'f' },
		{ "debug", no_argument, NULL, 'd' },
		{ "systemd-cgroup", no_argument, NULL, 's' },
		{ "rootless", required_argument, NULL, 'R' },
		{ "criu", required_argument, NULL, 'C' },
		{ "version", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	bool root_given = false;
	int c;

	/* '+': stop at the command; its own options are parsed by it. */
	while ((c = getopt_long(argc, argv, "+vh", opts, NULL)) != -1) {
		switch (c) {
		case 'r': G.root = optarg; root_given = true; break;
		case 'l': G.log = optarg; break;
		case 'f': G.log_format = optarg; break;
		case 'd': G.debug = true; break;
		case 's': G.systemd_cgroup = true; break;
		case 'C': G.criu = optarg; break;
		case 'R':
			if (!strcmp(optarg, "true"))
				G.rootless = 1;
			else if (!strcmp(optarg, "false"))
				G.rootless = 0;
			else if (!strcmp(optarg, "auto"))
				G.rootless = -1;
			else {
				log_init(NULL, NULL, false);
				return fail("--rootless: \"%s\" is not true, false or auto", optarg);
			}
			break;
		case 'v': version(); return 0;
		case 'h': usage(stdout); return 0;
		default:
			fprintf(stderr, "unirun: unknown global option (see unirun --help)\n");
			return 1;
		}
	}
	if (log_init(G.log, G.log_format, G.debug) < 0)
		return 1;
	if (optind >= argc) {
		usage(stderr);
		return 1;
	}
	if (G.systemd_cgroup)
		return fail("--systemd-cgroup: unirun has no systemd cgroup driver yet; it manages "
			    "cgroup2 directly (drop the flag)");
	if (G.rootless < 0)
		G.rootless = geteuid() != 0 || in_user_namespace();
	/* Rootless (also as root of a user namespace, as rootless podman runs
	 * us): state where the user may write. */
	if (!root_given && G.rootless) {
		const char *xdg = getenv("XDG_RUNTIME_DIR");
		G.root = xdg && *xdg ? xasprintf("%s/unirun", xdg) : xasprintf("/tmp/unirun-%u", getuid());
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(commands[i].name, argv[optind]))
			continue;
		char **cargv = argv + optind;
		int cargc = argc - optind;
		for (int k = 1; k < cargc && strcmp(cargv[k], "--"); k++)
			if (!strcmp(cargv[k], "--help") || !strcmp(cargv[k], "-h")) {
				printf("%s", cmd_usage(commands[i].name));
				return 0;
			}
		if (commands[i].clone) {
			struct uerr e;
			if (self_clone(argv, &e) < 0)
				return fail("%s", e.msg);
		}
		optind = 1;
		return commands[i].fn(cargc, cargv);
	}
	return fail("unknown command \"%s\" (see unirun --help)", argv[optind]);
}
