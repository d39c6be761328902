/* state, list, ps, spec, features. */
#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lib/util.h"
#include "cgroup/cgroup.h"
#include "runtime/commands.h"
#include "runtime/container.h"
#include "spec/default_spec.h"

static void print_json(yajl_gen g)
{
	char *s = jg_finish(g, NULL);

	printf("%s\n", s);
	free(s);
}

static yajl_gen pretty(void)
{
	yajl_gen g = yajl_gen_alloc(NULL);

	yajl_gen_config(g, yajl_gen_beautify, 1);
	yajl_gen_config(g, yajl_gen_indent_string, "  ");
	return g;
}

static int no_options(const char *cmd, int argc, char **argv)
{
	if (getopt_long(argc, argv, "+", (struct option[]){ { 0 } }, NULL) != -1)
		return fail("%s: unknown option (see unirun %s --help)", cmd, cmd);
	return 0;
}

int cmd_state(int argc, char **argv)
{
	struct container c;
	struct uerr e = { 0 };
	const char *id;
	pid_t pid;

	if (no_options("state", argc, argv) || need_id("state", argc, argv, optind, &id))
		return 1;
	if (container_open(G.root, id, &c, &e) < 0)
		return fail("state: %s", e.msg);
	enum cstatus s = container_status(&c, &pid);
	if (!c.st) {
		/* Between mkdir and state.json: runc says "creating" too. */
		struct cstate st = { .id = (char *)id, .bundle = "", .rootfs = "", .created = "" };
		yajl_gen g = pretty();
		state_gen_oci(g, &st, status_names[s], 0);
		print_json(g);
	} else {
		yajl_gen g = pretty();
		state_gen_oci(g, c.st, status_names[s], pid);
		print_json(g);
	}
	container_close(&c);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = { { "format", required_argument, NULL, 'f' },
					      { "quiet", no_argument, NULL, 'q' }, { 0 } };
	const char *format = "table";
	bool quiet = false, json;
	_cleanup_closedir_ DIR *d = NULL;
	struct dirent *de;
	char **ids = NULL;
	size_t n = 0;
	int opt;
	yajl_gen g = NULL;

	while ((opt = getopt_long(argc, argv, "+f:q", opts, NULL)) != -1) {
		if (opt == 'f')
			format = optarg;
		else if (opt == 'q')
			quiet = true;
		else
			return fail("list: unknown option (see unirun list --help)");
	}
	if (strcmp(format, "table") && strcmp(format, "json"))
		return fail("list: --format: \"%s\" is not table or json", format);
	if (optind < argc)
		return fail("list: unexpected argument \"%s\"", argv[optind]);
	json = !strcmp(format, "json");
	d = opendir(G.root);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || de->d_type != DT_DIR)
			continue;
		ids = xrealloc(ids, (n + 1) * sizeof(*ids));
		ids[n++] = xstrdup(de->d_name);
	}
	if (n)
		qsort(ids, n, sizeof(*ids), cmp_str);
	if (json) {
		g = yajl_gen_alloc(NULL);
		yajl_gen_array_open(g);
	} else if (!quiet) {
		printf("%-12s %-8s %-10s %-40s %-31s %s\n", "ID", "PID", "STATUS", "BUNDLE", "CREATED", "OWNER");
	}
	for (size_t i = 0; i < n; i++) {
		struct container c;
		struct uerr e;
		pid_t pid;

		if (container_open(G.root, ids[i], &c, &e) < 0)
			goto next;
		enum cstatus s = container_status(&c, &pid);
		if (quiet && !json)
			printf("%s\n", ids[i]);
		else if (json && c.st)
			state_gen_oci(g, c.st, status_names[s], pid);
		else if (c.st)
			printf("%-12s %-8d %-10s %-40s %-31s %s\n", ids[i], pid, status_names[s], c.st->bundle,
			       c.st->created, c.st->owner ? c.st->owner : "");
		container_close(&c);
	next:
		free(ids[i]);
	}
	free(ids);
	if (json) {
		yajl_gen_array_close(g);
		print_json(g);
	}
	return 0;
}

/* ps: runc runs ps(1) and keeps the rows of the container's pids. */
static int ps_table(int *pids, size_t n, int argc, char **argv)
{
	_cleanup_free_ char *cmd = NULL;
	char line[4096];
	int pid_col = -1;
	FILE *f;

	cmd = xstrdup("ps");
	if (argc == 0)
		cmd = (free(cmd), xstrdup("ps -ef"));
	for (int i = 0; i < argc; i++) {
		if (strpbrk(argv[i], "'\\"))
			return fail("ps: unsupported character in ps argument");
		char *next = xasprintf("%s '%s'", cmd, argv[i]);
		free(cmd);
		cmd = next;
	}
	f = popen(cmd, "r");
	if (!f)
		return fail("ps: running %s failed", cmd);
	for (bool header = true; fgets(line, sizeof(line), f); header = false) {
		char copy[4096], *save = NULL, *tok;
		int col = 0;

		snprintf(copy, sizeof(copy), "%s", line);
		if (header) {
			for (tok = strtok_r(copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save), col++)
				if (!strcmp(tok, "PID"))
					pid_col = col;
			fputs(line, stdout);
			if (pid_col < 0) {
				pclose(f);
				return fail("ps: no PID column in the output of %s", cmd);
			}
			continue;
		}
		for (tok = strtok_r(copy, " \t\n", &save); tok && col < pid_col; tok = strtok_r(NULL, " \t\n", &save))
			col++;
		for (size_t i = 0; tok && i < n; i++)
			if (atoi(tok) == pids[i]) {
				fputs(line, stdout);
				break;
			}
	}
	return pclose(f) == 0 ? 0 : fail("ps: %s failed", cmd);
}

/* Without a cgroup: the processes in the init's pid namespace. */
static int pidns_pids(pid_t init, int **pids, size_t *n, struct uerr *e)
{
	char link[64], want[64] = "", have[64];
	_cleanup_closedir_ DIR *d = opendir("/proc");
	struct dirent *de;
	size_t cap = 0;
	ssize_t k;

	snprintf(link, sizeof(link), "/proc/%d/ns/pid", (int)init);
	if (!d || (k = readlink(link, want, sizeof(want) - 1)) < 0)
		return uerr_sys(e, "reading %s", link);
	want[k] = '\0';
	*pids = NULL;
	*n = 0;
	while ((de = readdir(d))) {
		int p = atoi(de->d_name);
		if (p <= 0)
			continue;
		snprintf(link, sizeof(link), "/proc/%d/ns/pid", p);
		if ((k = readlink(link, have, sizeof(have) - 1)) < 0)
			continue;
		have[k] = '\0';
		if (strcmp(have, want))
			continue;
		if (*n == cap)
			*pids = xrealloc(*pids, (cap = cap ? cap * 2 : 16) * sizeof(**pids));
		(*pids)[(*n)++] = p;
	}
	return 0;
}

int cmd_ps(int argc, char **argv)
{
	static const struct option opts[] = { { "format", required_argument, NULL, 'f' }, { 0 } };
	const char *format = "table", *id;
	struct container c;
	struct uerr e = { 0 };
	_cleanup_free_ int *pids = NULL;
	size_t n = 0;
	pid_t pid;
	int opt, r;

	while ((opt = getopt_long(argc, argv, "+f:", opts, NULL)) != -1) {
		if (opt != 'f')
			return fail("ps: unknown option (see unirun ps --help)");
		format = optarg;
	}
	if (strcmp(format, "table") && strcmp(format, "json"))
		return fail("ps: --format: \"%s\" is not table or json", format);
	if (argc - optind < 1)
		return fail("ps: a container id is required (see unirun ps --help)");
	id = argv[optind];
	if (container_open(G.root, id, &c, &e) < 0)
		return fail("ps: %s", e.msg);
	enum cstatus s = container_status(&c, &pid);
	if (s == ST_STOPPED || !c.st) {
		container_close(&c);
		return fail("ps: container \"%s\" is %s", id, status_names[s]);
	}
	r = has_cgroup(c.st) ? cg_pids(c.st->cgroup, &pids, &n, &e) : pidns_pids(pid, &pids, &n, &e);
	container_close(&c);
	if (r < 0)
		return fail("ps %s: %s", id, e.msg);
	if (!strcmp(format, "json")) {
		yajl_gen g = yajl_gen_alloc(NULL);
		yajl_gen_array_open(g);
		for (size_t i = 0; i < n; i++)
			yajl_gen_integer(g, pids[i]);
		yajl_gen_array_close(g);
		print_json(g);
		return 0;
	}
	return ps_table(pids, n, argc - optind - 1, argv + optind + 1);
}

int cmd_spec(int argc, char **argv)
{
	static const struct option opts[] = { { "bundle", required_argument, NULL, 'b' },
					      { "rootless", no_argument, NULL, 'r' }, { 0 } };
	const char *bundle = ".";
	bool rootless = false;
	_cleanup_free_ char *path = NULL;
	_cleanup_free_ char *json = NULL;
	int opt, fd;

	while ((opt = getopt_long(argc, argv, "+b:", opts, NULL)) != -1) {
		if (opt == 'b')
			bundle = optarg;
		else if (opt == 'r')
			rootless = true;
		else
			return fail("spec: unknown option (see unirun spec --help)");
	}
	if (optind < argc)
		return fail("spec: unexpected argument \"%s\"", argv[optind]);
	path = xasprintf("%s/config.json", bundle);
	json = default_spec_json(rootless, getuid(), getgid());
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno == EEXIST ? fail("spec: %s already exists", path) : fail("spec: %s: %s", path, strerror(errno));
	write_all(fd, json, strlen(json));
	close(fd);
	return 0;
}

int cmd_features(int argc, char **argv)
{
	char *json;

	if (no_options("features", argc, argv))
		return 1;
	json = features_json();
	printf("%s\n", json);
	free(json);
	return 0;
}

const char *cmd_usage(const char *name)
{
	static const struct {
		const char *name, *text;
	} u[] = {
		{ "create", "usage: unirun create [--bundle DIR] [--pid-file FILE] [--console-socket PATH]\n"
			    "                     [--no-pivot] [--no-new-keyring] [--preserve-fds N] ID\n"
			    "Create the container ID from the bundle; its process waits for `start`.\n" },
		{ "run", "usage: unirun run [--detach] [--bundle DIR] [--pid-file FILE] [--console-socket PATH]\n"
			 "                  [--no-pivot] [--no-new-keyring] [--preserve-fds N] ID\n"
			 "Create and start; without --detach wait, then delete, and exit with its status.\n" },
		{ "start", "usage: unirun start ID\nRun the user process of a created container.\n" },
		{ "state", "usage: unirun state ID\nPrint the OCI state of a container as JSON.\n" },
		{ "kill", "usage: unirun kill [--all] ID [SIGNAL]\nSend SIGNAL (name or number, default TERM).\n" },
		{ "delete", "usage: unirun delete [--force] ID\nDelete a stopped (or, with --force, any) container.\n" },
		{ "pause", "usage: unirun pause ID\nFreeze the container's cgroup.\n" },
		{ "resume", "usage: unirun resume ID\nThaw the container's cgroup.\n" },
		{ "ps", "usage: unirun ps [--format table|json] ID [PS ARGS...]\nList the container's processes.\n" },
		{ "list", "usage: unirun list [--format table|json] [--quiet]\nList containers.\n" },
		{ "spec", "usage: unirun spec [--bundle DIR] [--rootless]\nWrite a default config.json.\n" },
		{ "features", "usage: unirun features\nPrint the OCI features document.\n" },
		{ "exec", "usage: unirun exec [--process FILE] [--tty] [--console-socket PATH] [--detach]\n"
			  "                   [--pid-file FILE] [--cwd DIR] [--env K=V] [--user UID[:GID]]\n"
			  "                   [--additional-gids GID] [--cap CAP] [--no-new-privs]\n"
			  "                   [--preserve-fds N] [--ignore-paused] ID [COMMAND [ARGS...]]\n"
			  "Run a new process in a running container.\n" },
		{ "update", "usage: unirun update [--resources FILE|-] [--memory N] [--memory-swap N]\n"
			    "                     [--memory-reservation N] [--cpu-shares N] [--cpu-quota N]\n"
			    "                     [--cpu-period N] [--cpuset-cpus L] [--cpuset-mems L]\n"
			    "                     [--pids-limit N] [--blkio-weight N] ID\n"
			    "Change the resource limits of a container.\n" },
		{ "events", "usage: unirun events [--stats] [--interval DURATION] ID\n"
			    "Print stats once (--stats) or a stream of JSON events.\n" },
		{ "checkpoint", "usage: unirun checkpoint [--image-path DIR] [--work-path DIR] [--parent-path DIR]\n"
				"                         [--leave-running] [--pre-dump] [--tcp-established]\n"
				"                         [--ext-unix-sk] [--shell-job] [--file-locks] [--auto-dedup]\n"
				"                         [--manage-cgroups-mode soft|full|strict|ignore]\n"
				"                         [--empty-ns network] [--status-fd FD] ID\n"
				"Checkpoint a running container with CRIU into --image-path (default ./checkpoint);\n"
				"it is frozen through cgroup.freeze and, without --leave-running, stopped.\n" },
		{ "restore", "usage: unirun restore [--image-path DIR] [--work-path DIR] [--bundle DIR] [--detach]\n"
			     "                      [--pid-file FILE] [--no-pivot] [--tcp-established]\n"
			     "                      [--ext-unix-sk] [--shell-job] [--file-locks] [--auto-dedup]\n"
			     "                      [--manage-cgroups-mode soft|full|strict|ignore]\n"
			     "                      [--empty-ns network] ID\n"
			     "Restore a checkpoint as container ID (any id) into its own new cgroup, with the\n"
			     "bundle's limits; without --detach wait for it like run.\n" },
	};
	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (!strcmp(u[i].name, name))
			return u[i].text;
	return "";
}
