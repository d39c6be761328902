# The lifecycle: create, start, run, state, kill, delete, list, ps, spec, features.

test_run_prints_and_returns_the_exit_status() {
	set_args sh -c 'echo out-$((6*7)); exit 3'
	run_rc 3 rt run c1 || return 1
	assert_eq out-42 "$OUT" || return 1
	assert_nothing_left c1
}

test_run_killed_by_a_signal_returns_128_plus_signal() {
	# Not pid 1 of a pid namespace, which ignores signals it has no handler for.
	cfg 'del(.linux.namespaces[] | select(.type == "pid"))'
	set_args sh -c 'kill -TERM $$; sleep 5'
	run_rc 143 rt run c1 || return 1
	assert_nothing_left c1
}

test_create_waits_for_start_then_runs() {
	set_args sh -c 'echo started > /tmp/mark; sleep 1000'
	cfg '.root.readonly = false'
	create_ok --pid-file "$TMP/pid" c1 || return 1
	local pid
	pid=$(pid_of c1)
	assert_eq created "$(status_of c1)" || return 1
	assert_eq "$pid" "$(cat "$TMP/pid")" "pid file" || return 1
	# Still unirun's init, blocked on exec.fifo: not yet the user's program.
	assert_no_match 'sleep' "$(tr '\0' ' ' </proc/$pid/cmdline)" || return 1
	[ ! -e "$BUNDLE/rootfs/tmp/mark" ] || fail "the process ran before start" || return 1
	run_ok rt start c1 || return 1
	assert_eq running "$(status_of c1)" || return 1
	wait_for test -e "$BUNDLE/rootfs/tmp/mark" || return 1
	assert_match sleep "$(tr '\0' ' ' </proc/$pid/cmdline)" || return 1
	run_ok rt kill c1 KILL || return 1
	wait_for sh -c "[ \"\$($UNIRUN --root $ROOT state c1 | jq -r .status)\" = stopped ]" || return 1
	run_ok rt delete c1 || return 1
	assert_nothing_left c1
}

test_state_has_runc_fields() {
	cfg '.annotations = {"org.example/key": "value"}'
	start_bg c1 || return 1
	run_ok rt state c1 || return 1
	local f
	for f in ociVersion id pid status bundle rootfs created owner; do
		[ "$(jq -r ".$f" <<<"$OUT")" != null ] || fail "state lacks $f" || return 1
	done
	assert_eq c1 "$(jq -r .id <<<"$OUT")" || return 1
	assert_eq "$BUNDLE" "$(jq -r .bundle <<<"$OUT")" || return 1
	assert_eq "$BUNDLE/rootfs" "$(jq -r .rootfs <<<"$OUT")" || return 1
	assert_eq value "$(jq -r '.annotations["org.example/key"]' <<<"$OUT")" || return 1
	assert_match '^[0-9]{4}-[0-9]{2}-[0-9]{2}T' "$(jq -r .created <<<"$OUT")"
}

test_start_twice_fails() {
	set_args sleep 1000
	create_ok c1 || return 1
	run_ok rt start c1 || return 1
	run_rc 1 rt start c1 || return 1
	assert_match 'running, not created' "$ERR"
}

test_delete_of_a_running_container_needs_force() {
	start_bg c1 || return 1
	run_rc 1 rt delete c1 || return 1
	assert_match 'is running' "$ERR" || return 1
	assert_eq running "$(status_of c1)" || return 1
	run_ok rt delete --force c1 || return 1
	assert_nothing_left c1
}

test_delete_of_a_created_container() {
	create_ok c1 || return 1
	local pid
	pid=$(pid_of c1)
	run_ok rt delete c1 || return 1
	assert_nothing_left c1 || return 1
	gone "$pid" || fail "init $pid still alive"
}

test_kill_by_name_and_number() {
	cfg '.root.readonly = false'
	local sig
	for sig in TERM SIGKILL 9 sigint; do
		# pid 1 of the namespace: only signals it handles reach it (KILL aside).
		rm -f "$BUNDLE/rootfs/tmp/trapped"
		start_bg c1 sh -c 'trap "exit 7" TERM INT; touch /tmp/trapped; while :; do sleep 0.05; done' || return 1
		wait_for test -e "$BUNDLE/rootfs/tmp/trapped" || return 1
		run_ok rt kill c1 "$sig" || return 1
		wait_for sh -c "[ \"\$($UNIRUN --root $ROOT state c1 | jq -r .status)\" = stopped ]" || return 1
		run_ok rt delete c1 || return 1
	done
}

test_kill_all_reaches_every_process() {
	start_bg c1 sh -c 'sleep 1000 & sleep 1000 & trap "" TERM; wait' || return 1
	wait_for sh -c "[ \$($UNIRUN --root $ROOT ps --format json c1 | jq length) = 3 ]" || return 1
	run_ok rt kill --all c1 KILL || return 1
	wait_for sh -c "[ \"\$($UNIRUN --root $ROOT state c1 | jq -r .status)\" = stopped ]" || return 1
	[ "$(cat "$(cgroup_dir c1)/cgroup.procs" | wc -l)" = 0 ] || fail "processes left in the cgroup"
}

test_kill_of_a_stopped_container_fails() {
	set_args true
	create_ok c1 || return 1
	run_ok rt start c1 || return 1
	wait_for sh -c "[ \"\$($UNIRUN --root $ROOT state c1 | jq -r .status)\" = stopped ]" || return 1
	run_rc 1 rt kill c1 KILL || return 1
	assert_match 'is stopped: container not running' "$ERR" || return 1
	# runc's --all still sweeps the cgroup of a stopped container.
	run_ok rt kill --all c1 KILL
}

test_sigkill_from_outside_then_delete_leaves_nothing() {
	start_bg c1 sh -c 'sleep 1000 & wait' || return 1
	kill -9 "$(pid_of c1)"
	wait_for sh -c "[ \"\$($UNIRUN --root $ROOT state c1 | jq -r .status)\" = stopped ]" || return 1
	run_ok rt delete c1 || return 1
	assert_nothing_left c1
}

test_pause_and_resume() {
	start_bg c1 sh -c 'while :; do echo x >/dev/null; done' || return 1
	run_ok rt pause c1 || return 1
	assert_eq paused "$(status_of c1)" || return 1
	assert_eq 1 "$(grep frozen "$(cgroup_dir c1)/cgroup.events" | cut -d' ' -f2)" || return 1
	run_rc 1 rt pause c1 || return 1
	run_ok rt resume c1 || return 1
	assert_eq running "$(status_of c1)" || return 1
	run_rc 1 rt resume c1
}

test_list_table_json_and_quiet() {
	start_bg c1 || return 1
	start_bg c2 || return 1
	run_ok rt list || return 1
	assert_match '^ID +PID +STATUS +BUNDLE +CREATED +OWNER' "$(head -n1 <<<"$OUT")" || return 1
	assert_match '^c1 +[0-9]+ +running' "$OUT" || return 1
	run_ok rt list --format json || return 1
	assert_eq "c1 c2" "$(jq -r '.[].id' <<<"$OUT" | xargs)" || return 1
	assert_eq running "$(jq -r '.[0].status' <<<"$OUT")" || return 1
	run_ok rt list -q || return 1
	assert_eq "c1 c2" "$(xargs <<<"$OUT")"
}

test_ps_table_and_json() {
	start_bg c1 sh -c 'sleep 1000 & wait' || return 1
	wait_for sh -c "[ \$($UNIRUN --root $ROOT ps --format json c1 | jq length) = 2 ]" || return 1
	run_ok rt ps --format json c1 || return 1
	assert_match "$(pid_of c1)" "$OUT" || return 1
	run_ok rt ps c1 || return 1
	assert_match 'PID' "$(head -n1 <<<"$OUT")" || return 1
	assert_match 'sleep 1000' "$OUT"
}

test_concurrent_creates_of_one_id_one_wins() {
	set_args sleep 1000
	local i rcs=""
	for i in 1 2 3 4; do
		( rt create c1 </dev/null >/dev/null 2>"$TMP/err$i"; echo $? >"$TMP/rc$i" ) &
	done
	wait
	for i in 1 2 3 4; do rcs="$rcs$(cat "$TMP/rc$i")"; done
	assert_eq 1 "$(grep -o 0 <<<"$rcs" | wc -l)" "creates that succeeded" || return 1
	assert_match 'already exists' "$(cat "$TMP"/err*)" || return 1
	assert_eq created "$(status_of c1)"
}

test_spec_writes_a_config_that_runs() {
	local b=$TMP/b2
	mkdir -p "$b"
	cp -a "$BUNDLE/rootfs" "$b/"
	run_ok "$UNIRUN" spec --bundle "$b" || return 1
	jq '.process.terminal = false | .process.args = ["true"]' "$b/config.json" >"$b/c" && mv "$b/c" "$b/config.json"
	run_ok rt run --bundle "$b" c1 || return 1
	run_rc 1 "$UNIRUN" spec --bundle "$b" || return 1
	assert_match 'already exists' "$ERR" || return 1
	mkdir -p "$TMP/b3"
	run_ok "$UNIRUN" spec --rootless --bundle "$TMP/b3" || return 1
	assert_eq user "$(jq -r '.linux.namespaces[] | select(.type=="user") | .type' "$TMP/b3/config.json")" || return 1
	assert_eq "$(id -u)" "$(jq -r '.linux.uidMappings[0].hostID' "$TMP/b3/config.json")"
}

test_features_version_and_help() {
	run_ok "$UNIRUN" features || return 1
	assert_eq 1.0.0 "$(jq -r .ociVersionMin <<<"$OUT")" || return 1
	assert_eq true "$(jq -r .linux.cgroup.v2 <<<"$OUT")" || return 1
	assert_eq false "$(jq -r .linux.cgroup.v1 <<<"$OUT")" || return 1
	assert_match 'time' "$(jq -r '.linux.namespaces[]' <<<"$OUT")" || return 1
	run_ok "$UNIRUN" --version || return 1
	assert_match '^unirun version [0-9]' "$OUT" || return 1
	run_ok "$UNIRUN" --help || return 1
	assert_match 'checkpoint' "$OUT" || return 1
	run_ok "$UNIRUN" create --help || return 1
	assert_match 'usage: unirun create' "$OUT"
}

test_log_json_lines_on_error() {
	run_rc 1 "$UNIRUN" --root "$ROOT" --log "$TMP/log" --log-format json start nosuch || return 1
	local line
	line=$(tail -n1 "$TMP/log")
	assert_eq error "$(jq -r .level <<<"$line")" || return 1
	assert_match 'does not exist' "$(jq -r .msg <<<"$line")" || return 1
	assert_match '^[0-9]{4}-' "$(jq -r .time <<<"$line")"
}

test_detached_run_and_pid_file() {
	set_args sleep 1000
	rt run -d --pid-file "$TMP/p" c1 </dev/null >"$TMP/out" 2>&1 || fail "run -d: $(cat "$TMP/out")" || return 1
	assert_eq running "$(status_of c1)" || return 1
	assert_eq "$(pid_of c1)" "$(cat "$TMP/p")"
}

test_state_of_a_missing_container_fails() {
	run_rc 1 rt state nosuch || return 1
	assert_match 'container "nosuch" does not exist' "$ERR"
}

test_delete_force_of_a_missing_container_succeeds() {
	run_ok rt delete --force nosuch
}
