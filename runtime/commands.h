#ifndef UNIRUN_COMMANDS_H
#define UNIRUN_COMMANDS_H

#include <stdbool.h>

/* Global flags, runc's. */
struct globals {
	const char *root;
	const char *criu;          /* --criu: the criu binary (default: criu on PATH) */
	const char *log, *log_format;
	bool debug, systemd_cgroup;
	int rootless;  /* -1 auto, 0 false, 1 true */
};
extern struct globals G;

typedef int (*cmd_fn)(int argc, char **argv);

int cmd_create(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_start(int argc, char **argv);
int cmd_delete(int argc, char **argv);
int cmd_kill(int argc, char **argv);
int cmd_pause(int argc, char **argv);
int cmd_resume(int argc, char **argv);
int cmd_state(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_ps(int argc, char **argv);
int cmd_spec(int argc, char **argv);
int cmd_features(int argc, char **argv);
int cmd_exec(int argc, char **argv);
int cmd_update(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_checkpoint(int argc, char **argv);
int cmd_restore(int argc, char **argv);

/* Help text of a command, printed for COMMAND --help; NULL if unknown. */
const char *cmd_usage(const char *name);
/* Report an error (stderr and --log) and return 1. */
int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "COMMAND: exactly one container id is required" etc. */
int need_id(const char *cmd, int argc, char **argv, int optind_, const char **id);

#include <sys/types.h>
int wait_process(pid_t pid, int console_master);

#endif
