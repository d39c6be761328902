/* The config.json that `unirun spec` writes: runc's default, on cgroup2. */
#ifndef UNIRUN_DEFAULT_SPEC_H
#define UNIRUN_DEFAULT_SPEC_H

/* rootless: a user namespace mapping uid/gid to the caller, /sys bound, no
 * network namespace, no device rules (they need privileges to attach). */
char *default_spec_json(bool rootless, unsigned uid, unsigned gid);
char *features_json(void);

#endif
