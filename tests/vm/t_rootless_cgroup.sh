# Rootless in the pure-cgroup2 guest: a cgroup delegated to the user (chown'd
# as systemd's Delegate=yes does) gets the container, with the memory and
# pids limits the user asked for, enforced.

source "$TOP/tests/integration/rootless.sh"

test_rootless_limits_in_a_delegated_cgroup() {
	[ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers ||
		skip "needs a pure cgroup2 hierarchy with every controller (tests/vm/run.sh)"
	rootless_setup || return 1
	local d=$CG2/rl$$ r=0
	echo "+memory +pids" >"$CG2/cgroup.subtree_control"
	mkdir "$d"
	chown "$RL_UID:$RL_GID" "$d" "$d/cgroup.procs" "$d/cgroup.subtree_control" "$d/cgroup.threads"
	rcfg '.linux.resources = {"memory": {"limit": 33554432, "swap": 33554432}, "pids": {"limit": 20}}'
	rcfg 'del(.linux.namespaces[] | select(.type == "cgroup"))'
	rl_args sh -c 'cat /sys/fs/cgroup/../../../..$(cut -d: -f3 /proc/self/cgroup)/memory.max 2>/dev/null; cut -d: -f3 /proc/self/cgroup;
		dd if=/dev/zero of=/dev/null bs=48M count=1 2>/dev/null && echo survived || echo killed'
	run_ok sh -c "echo \$\$ > $d/cgroup.procs && cd $RL_BUNDLE && exec setpriv --reuid=$RL_UID --regid=$RL_GID --clear-groups $UNIRUN --root $TMP/rlroot run r1" </dev/null || r=1
	[ $r = 0 ] && { assert_match "^/rl$$/unirun/r1\$" "$OUT" || r=1; }
	[ $r = 0 ] && { assert_match '^killed$' "$OUT" "a 48 MiB buffer under 32 MiB" || r=1; }
	[ $r = 0 ] && { assert_eq "memory pids" "$(cat "$d/cgroup.subtree_control")" "controllers the user enabled" || r=1; }
	rmdir "$d/unirun" "$d/unirun-self" "$d" 2>/dev/null
	[ ! -e "$d" ] || fail "cgroups left: $(find "$d" -type d)" || r=1
	return $r
}
