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

test_leave_running_then_restore_under_a_new_id() {
	criu_only
	counter_bundle
	start_bg c1 sh -c "$COUNTER" || return 1
	wait_for count_above 3 || return 1
	local n0 n1
	n0=$(count)
	run_ok rt checkpoint --leave-running --image-path "$TMP/img" c1 || return 1
	assert_eq running "$(status_of c1)" "status after --leave-running" || return 1
	n1=$(count)
	wait_for count_above $((n1 + 3)) || return 1
	run_ok rt delete --force c1 || return 1
	# The counter restarts from what it had at the checkpoint: its log
	# goes back to that point first, so the file ends up out of sequence
	# only if the restored count started anywhere else.
	local at
	at=$(awk 'END { print NR }' "$BUNDLE/rootfs/count.log")
	restore_bg c2 --image-path "$TMP/img" || return 1
	assert_eq running "$(status_of c2)" "status of c2" || return 1
	wait_for count_above "$at" || return 1
	local first
	first=$(sed -n "$((at + 1))p" "$BUNDLE/rootfs/count.log")
	# The dump froze the counter somewhere between n0 and n1.
	[ "$first" -gt "$n0" ] && [ "$first" -le $((n1 + 1)) ] ||
		fail "c2 went on from $first, the checkpoint was taken between $n0 and $n1" || return 1
	grep -qx "$(pid_of c2)" "$(cgroup_dir c2)/cgroup.procs" || fail "c2's init not in $(cgroup_dir c2)" || return 1
	[ ! -e "$(cgroup_dir c1)" ] || fail "c1's cgroup is back" || return 1
	run_ok rt delete --force c2 || return 1
	assert_nothing_left c2
}

test_pre_dump_then_dump_on_top_of_it() {
	criu_only
	counter_bundle
	start_bg c1 sh -c "$COUNTER" || return 1
	wait_for count_above 3 || return 1
	run_ok rt checkpoint --pre-dump --image-path "$TMP/pre" c1 || return 1
	assert_eq running "$(status_of c1)" "status after --pre-dump" || return 1
	[ -s "$TMP/pre/pre-dump.log" ] && ls "$TMP/pre"/pagemap-*.img >/dev/null 2>&1 ||
		fail "pre-dump left no pages in $TMP/pre" || return 1
	run_ok rt checkpoint --parent-path ../pre --image-path "$TMP/img" c1 || return 1
	[ "$(readlink "$TMP/img/parent")" = ../pre ] || fail "the dump has no parent link to the pre-dump" || return 1
	restore_bg c1 --image-path "$TMP/img" || return 1
	local n1
	n1=$(count)
	wait_for count_above $((n1 + 3)) || return 1
	assert_consecutive
}

test_tmpfs_and_bind_mounts_come_back() {
	criu_only
	counter_bundle
	mkdir -p "$TMP/hostdir"
	echo before >"$TMP/hostdir/seen"
	cfg ".mounts += [{\"destination\": \"/scratch\", \"type\": \"tmpfs\", \"source\": \"tmpfs\"},
		{\"destination\": \"/data\", \"type\": \"bind\", \"source\": \"$TMP/hostdir\", \"options\": [\"rbind\"]}]"
	start_bg c1 sh -c "echo kept >/scratch/x; $COUNTER" || return 1
	wait_for count_above 2 || return 1
	run_ok rt checkpoint --image-path "$TMP/img" c1 || return 1
	restore_bg c1 --image-path "$TMP/img" || return 1
	run_ok rt exec c1 cat /scratch/x || return 1
	assert_eq kept "$OUT" "the tmpfs's contents after restore" || return 1
	echo after >"$TMP/hostdir/new"
	run_ok rt exec c1 cat /data/seen /data/new || return 1
	assert_eq "before
after" "$OUT" "the bind mount after restore" || return 1
	run_ok rt exec c1 grep -c " /scratch tmpfs " /proc/self/mounts || return 1
	assert_eq 1 "$OUT" "/scratch is a tmpfs again"
}

test_limits_come_back_in_the_new_cgroup() {
	criu_only
	counter_bundle
	cfg ".linux.cgroupsPath = \"/g$$/c1\" | .linux.resources = {\"memory\": {\"limit\": 67108864}, \"pids\": {\"limit\": 32}}"
	start_bg c1 sh -c "$COUNTER" || return 1
	wait_for count_above 2 || return 1
	run_ok rt checkpoint --image-path "$TMP/img" c1 || return 1
	[ ! -e "$CG2/g$$/c1" ] || [ "$(cat "$CG2/g$$/c1/cgroup.procs")" = "" ] || fail "processes left in c1's cgroup" || return 1
	run_ok rt delete c1 || return 1
	[ ! -e "$CG2/g$$" ] || fail "c1's cgroup was not removed" || return 1
	restore_bg c1 --image-path "$TMP/img" || return 1
	local cg=$CG2/g$$/c1
	assert_eq 67108864 "$(cat "$cg/memory.max")" "memory.max after restore" || return 1
	assert_eq 32 "$(cat "$cg/pids.max")" "pids.max after restore" || return 1
	assert_eq "memory pids" "$(cat "$CG2/g$$/cgroup.subtree_control")" "controllers enabled above c1" || return 1
	local pid
	pid=$(pid_of c1)
	grep -qx "$pid" "$cg/cgroup.procs" || fail "restored init $pid not in $cg" || return 1
	assert_eq "0::/g$$/c1" "$(grep ^0:: /proc/$pid/cgroup)" "the init's cgroup" || return 1
	run_ok rt delete --force c1 || return 1
	[ ! -e "$CG2/g$$" ] || fail "cgroup $CG2/g$$ left behind"
}

# A connection inside the container: a client ticking into a listener.
# (busybox nc quits at EOF on its stdin: the listener reads a sleep.)
TCP='sleep 100000 | nc -l -p 9000 >/got & sleep 0.3; while :; do echo tick; sleep 0.1; done | nc 127.0.0.1 9000'
ticks() { wc -l <"$BUNDLE/rootfs/got" 2>/dev/null || echo 0; }
ticks_above() { [ "$(ticks)" -gt "$1" ]; }

test_established_tcp_needs_the_flag_and_then_survives() {
	criu_only
	counter_bundle
	cfg '.process.capabilities.effective += ["CAP_NET_ADMIN"] | .process.capabilities.bounding += ["CAP_NET_ADMIN"] | .process.capabilities.permitted += ["CAP_NET_ADMIN"]'
	start_bg c1 sh -c "ip link set lo up; $TCP" || return 1
	wait_for ticks_above 2 || return 1
	run_rc 1 rt checkpoint --image-path "$TMP/img0" c1 || return 1
	assert_match "criu dump failed: .*dump.log: .*(TCP|tcp)" "$ERR" "checkpoint without --tcp-established" || return 1
	assert_eq running "$(status_of c1)" "status after the failed checkpoint" || return 1
	run_ok rt checkpoint --tcp-established --image-path "$TMP/img" c1 || return 1
	local n
	n=$(ticks)
	restore_bg c1 --tcp-established --image-path "$TMP/img" || return 1
	wait_for ticks_above $((n + 3)) || return 1
}

lo_flags() { rt exec "$1" ip -o link show lo | grep -oE '<[^>]*>'; }

test_empty_ns_network_leaves_the_network_namespace_empty() {
	criu_only
	counter_bundle
	cfg '.process.capabilities.effective += ["CAP_NET_ADMIN"] | .process.capabilities.bounding += ["CAP_NET_ADMIN"] | .process.capabilities.permitted += ["CAP_NET_ADMIN"]'
	start_bg c1 sh -c "ip link set lo up; $COUNTER" || return 1
	wait_for count_above 2 || return 1
	assert_match 'UP' "$(lo_flags c1)" "lo before" || return 1
	# Dumped whole, the network namespace comes back as it was...
	run_ok rt checkpoint --image-path "$TMP/img" c1 || return 1
	restore_bg c1 --image-path "$TMP/img" || return 1
	assert_match 'UP' "$(lo_flags c1)" "lo after a plain restore" || return 1
	# ...and with --empty-ns network it is new and empty, for the caller to set up.
	run_ok rt checkpoint --empty-ns network --image-path "$TMP/img2" c1 || return 1
	restore_bg c1 --empty-ns network --image-path "$TMP/img2" || return 1
	assert_no_match 'UP' "$(lo_flags c1)" "lo after --empty-ns network" || return 1
	local n
	n=$(count)
	wait_for count_above $((n + 2))
}

test_a_failed_restore_names_the_log_and_leaves_nothing() {
	criu_only
	counter_bundle
	start_bg c1 sh -c "$COUNTER" || return 1
	wait_for count_above 2 || return 1
	run_ok rt checkpoint --image-path "$TMP/img" c1 || return 1
	cp -a "$TMP/img" "$TMP/img2"
	: >"$TMP/img"/core-1.img
	run_rc 1 rt restore --detach --image-path "$TMP/img" c2 </dev/null || return 1
	assert_match 'restore c2: criu restore failed: .*/img/restore.log: .*Error' "$ERR" || return 1
	assert_nothing_left c2 || return 1
	# Without its process tree CRIU gives up before it logs anything.
	rm -f "$TMP/img2"/pstree.img
	run_rc 1 rt restore --detach --image-path "$TMP/img2" c2 </dev/null || return 1
	assert_match 'restore c2: criu restore: criu ended without an answer' "$ERR" || return 1
	assert_nothing_left c2 || return 1
	assert_eq stopped "$(status_of c1)" "c1, still checkpointed"
}

test_foreground_restore_waits_and_returns_the_status() {
	criu_only
	counter_bundle
	start_bg c1 sh -c 'i=0; while [ $i -lt 40 ]; do i=$((i+1)); echo $i >>/count.log; sleep 0.1; done; exit 7' || return 1
	wait_for count_above 2 || return 1
	# --status-fd gets a NUL when the images are ready.
	rt checkpoint --status-fd 3 --image-path "$TMP/img" c1 3>"$TMP/status" 2>"$TMP/err" ||
		fail "checkpoint: $(cat "$TMP/err")" || return 1
	assert_eq "00" "$(od -An -tx1 "$TMP/status" | tr -d ' ')" "what --status-fd got" || return 1
	local rc=0
	rt restore --image-path "$TMP/img" c1 </dev/null >"$TMP/fg.out" 2>&1 || rc=$?
	assert_eq 7 "$rc" "restore's exit status (output: $(cat "$TMP/fg.out"))" || return 1
	assert_eq 40 "$(count)" "the count at the end" || return 1
	assert_consecutive || return 1
	assert_nothing_left c1
}
