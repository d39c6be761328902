# podman and containerd in the pure-cgroup2 guest: the resource flags they
# turn into linux.resources are enforced by unirun's cgroups.

source "$TOP/tests/integration/clients.sh"

guest_only() {
	[ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers ||
		skip "needs a pure cgroup2 hierarchy with every controller (tests/vm/run.sh)"
}

test_podman_memory_pids_and_cpus_are_enforced() {
	guest_only
	podman_setup || return 1
	local id cg
	id=$(pm run -d "${PM_RUN[@]}" --memory 32m --memory-swap 32m --pids-limit 20 --cpus 0.5 \
		localhost/busybox:unirun sleep 1000) || fail "podman run -d" || return 1
	cg=$CG2$(grep '^0::' "/proc/$(pm inspect -f '{{.State.Pid}}' "$id")/cgroup" | cut -d: -f3)
	assert_eq 33554432 "$(cat "$cg/memory.max")" "memory.max of --memory 32m" || return 1
	assert_eq 20 "$(cat "$cg/pids.max")" "pids.max of --pids-limit 20" || return 1
	assert_eq "50000 100000" "$(cat "$cg/cpu.max")" "cpu.max of --cpus 0.5" || return 1
	# The effect: a 48 MiB buffer is OOM-killed, a fork loop stops at 20.
	run_rc 137 pm exec "$id" dd if=/dev/zero of=/dev/null bs=48M count=1 || return 1
	pm exec "$id" sh -c 'i=0; while [ $i -lt 40 ]; do sleep 100 & i=$((i+1)); done' >/dev/null 2>&1
	[ "$(cat "$cg/pids.current")" -le 20 ] || fail "pids.current above 20" || return 1
	assert_match '^max [1-9]' "$(cat "$cg/pids.events")" "pids.events" || return 1
	run_ok pm rm -f -t 0 "$id" || return 1
	[ ! -e "$cg" ] || fail "cgroup $cg left"
}

test_ctr_memory_limit_is_enforced() {
	guest_only
	ctd_setup || return 1
	run_ok c run -d --runc-binary "$UNIRUN" --memory-limit 33554432 "$IMG" c1 sleep 1000 || return 1
	local cg=$CG2/$CTD_NS/c1
	assert_eq 33554432 "$(cat "$cg/memory.max")" "memory.max of --memory-limit" || return 1
	run_ok c task metrics c1 || return 1
	assert_match 'memory\.usage_limit +33554432' "$OUT" "ctr task metrics" || return 1
	run_rc 137 c task exec --exec-id e1 c1 dd if=/dev/zero of=/dev/null bs=48M count=1
}

# podman's checkpoint and restore call unirun's (conmon runs the restore,
# with new pipes for the container's output): the count goes on in the log.
test_podman_checkpoint_and_restore() {
	guest_only
	command -v criu >/dev/null || skip "criu is not installed (tests/deps.sh installs it)"
	podman_setup || return 1
	local id n
	id=$(pm run -d "${PM_RUN[@]}" localhost/busybox:unirun \
		sh -c 'i=0; while :; do i=$((i+1)); echo $i; sleep 0.1; done') || fail "podman run -d" || return 1
	logs_above() { [ "$(pm logs "$id" 2>/dev/null | tail -n1)" -gt "$1" ]; }
	wait_for logs_above 5 || return 1
	run_ok pm container checkpoint "$id" || return 1
	assert_eq exited "$(pm inspect -f '{{.State.Status}}' "$id")" "podman's status after checkpoint" || return 1
	n=$(pm logs "$id" | tail -n1)
	run_ok pm container restore "$id" || return 1
	assert_eq running "$(pm inspect -f '{{.State.Status}}' "$id")" "podman's status after restore" || return 1
	wait_for logs_above $((n + 3)) || return 1
	local bad
	bad=$(pm logs "$id" | awk 'NR != $1 { print NR ": " $1; exit }')
	[ -z "$bad" ] || fail "the log is out of sequence at line $bad: the count did not go on" || return 1
	run_ok pm rm -f -t 0 "$id"
}
