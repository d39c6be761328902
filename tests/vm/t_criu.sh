# checkpoint and restore with CRIU, in the pure-cgroup2 guest: CRIU 3.17 from
# Debian dumps there (Debian's 6.1 kernel) but not on these hosts' newer ones.

criu_only() {
	[ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers ||
		skip "needs the pure-cgroup2 guest (tests/vm/run.sh): CRIU 3.17 can't dump on the host's kernel (vDSO)"
	command -v criu >/dev/null || skip "criu is not installed (tests/deps.sh installs it)"
	"$UNIRUN" features | jq -e '.annotations["org.opencontainers.runc.checkpoint.enabled"] == "true"' \
		>/dev/null || skip "unirun was built without CRIU"
}

# A counter: one line per tick in /count.log (rootfs), so a restore that
# started over, or lost ticks, shows as numbers out of sequence.
COUNTER='i=0; while :; do i=$((i+1)); echo $i >>/count.log; sleep 0.1; done'
count() { tail -n1 "$BUNDLE/rootfs/count.log" 2>/dev/null || echo 0; }
count_above() { [ "$(count)" -gt "$1" ]; }
# Every line is its own line number: consecutive from 1, never restarted.
assert_consecutive() {
	local bad
	bad=$(awk 'NR != $1 { print NR ": " $1; exit }' "$BUNDLE/rootfs/count.log")
	[ -z "$bad" ] || fail "count.log out of sequence at line $bad"
}
counter_bundle() { cfg '.root.readonly = false'; }
# restore_bg ID ARGS...: a detached restore whose stdio, like start_bg's, is
# files: the restored init is handed the restore's own stdio in place of
# what it had, and CRIU puts back its file offsets.
restore_bg() {
	local id=$1
	shift
	rt restore --detach "$@" "$id" </dev/null >"$TMP/$id.restored" 2>&1 ||
		fail "restore $* $id: $(cat "$TMP/$id.restored")"
}

test_checkpoint_stops_and_restore_continues_the_count() {
	criu_only
	counter_bundle
	start_bg c1 sh -c "$COUNTER" || return 1
	wait_for count_above 5 || return 1
	run_ok rt checkpoint --image-path "$TMP/img" c1 || return 1
	assert_eq stopped "$(status_of c1)" "status after checkpoint" || return 1
	[ -s "$TMP/img/inventory.img" ] && [ -s "$TMP/img/dump.log" ] || fail "no images or dump.log in $TMP/img" || return 1
	local n1
	n1=$(count)
	sleep 0.5
	assert_eq "$n1" "$(count)" "count while checkpointed" || return 1
	restore_bg c1 --image-path "$TMP/img" || return 1
	assert_eq running "$(status_of c1)" "status after restore" || return 1
	wait_for count_above $((n1 + 3)) || return 1
	assert_consecutive || return 1
	local pid
	pid=$(pid_of c1)
	grep -qx "$pid" "$(cgroup_dir c1)/cgroup.procs" || fail "restored init $pid not in $(cgroup_dir c1)" || return 1
	run_ok rt exec c1 cat /count.log || return 1
	run_ok rt delete --force c1 || return 1
	assert_nothing_left c1
}
