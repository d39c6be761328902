# checkpoint and restore: what is refused before CRIU runs (so on any host;
# the real checkpoints run in the cgroup2 guest, tests/vm/t_criu.sh).

has_criu() {
	"$UNIRUN" features | jq -e '.annotations["org.opencontainers.runc.checkpoint.enabled"] == "true"' >/dev/null
}
criu_build() { has_criu || skip "unirun was built without CRIU"; }

test_checkpoint_of_an_unknown_container_fails() {
	criu_build
	run_rc 1 rt checkpoint --image-path "$TMP/img" nosuch || return 1
	assert_match 'checkpoint: container "nosuch" does not exist' "$ERR" || return 1
	[ ! -e "$TMP/img" ] || fail "an image dir was made for nothing"
}

test_checkpoint_of_a_stopped_container_fails() {
	criu_build
	set_args true
	create_ok c1 || return 1
	run_ok rt start c1 || return 1
	wait_for test "$(status_of c1)" = stopped || return 1
	run_rc 1 rt checkpoint --image-path "$TMP/img" c1 || return 1
	assert_match 'container "c1" is stopped: only a running container can be checkpointed' "$ERR" || return 1
	[ ! -e "$TMP/img" ] || fail "an image dir was made for a stopped container"
}

test_checkpoint_of_a_created_container_fails() {
	criu_build
	create_ok c1 || return 1
	run_rc 1 rt checkpoint --image-path "$TMP/img" c1 || return 1
	assert_match '"c1" is created: only a running container' "$ERR"
}

test_checkpoint_flag_errors() {
	criu_build
	start_bg c1 || return 1
	run_rc 1 rt checkpoint --manage-cgroups-mode weird c1 || return 1
	assert_match -- '--manage-cgroups-mode: "weird" is not soft, full, strict or ignore' "$ERR" || return 1
	run_rc 1 rt checkpoint --empty-ns ipc c1 || return 1
	assert_match -- '--empty-ns: "ipc" is not supported \(only network\)' "$ERR" || return 1
	run_rc 1 rt checkpoint --lazy-pages c1 || return 1
	assert_match -- '--lazy-pages: not supported' "$ERR" || return 1
	run_rc 1 rt checkpoint --page-server 127.0.0.1:1 c1 || return 1
	assert_match -- '--page-server: not supported' "$ERR" || return 1
	run_rc 1 rt checkpoint --status-fd x c1 || return 1
	assert_match -- '--status-fd: "x" is not a file descriptor' "$ERR" || return 1
	run_rc 1 rt checkpoint --bundle . c1 || return 1
	assert_match 'checkpoint: unknown option' "$ERR" || return 1
	run_rc 1 rt restore --leave-running c1 || return 1
	assert_match 'restore: unknown option' "$ERR" || return 1
	assert_eq running "$(status_of c1)" "c1 after refused checkpoints"
}

test_checkpoint_of_a_joined_namespace_is_refused() {
	criu_build
	ip netns add unirun-cr-$$ || skip "ip netns add failed"
	cfg "(.linux.namespaces[] | select(.type == \"network\")).path = \"/run/netns/unirun-cr-$$\""
	start_bg c1 || { ip netns del unirun-cr-$$; return 1; }
	run_rc 1 rt checkpoint --image-path "$TMP/img" c1
	local rc=$?
	rt delete --force c1
	ip netns del unirun-cr-$$
	[ $rc = 0 ] || return 1
	assert_match 'linux.namespaces\[[0-9]\]: a joined network namespace \(/run/netns/unirun-cr-[0-9]+\) can.t be declared to CRIU' "$ERR" || return 1
	[ ! -e "$TMP/img" ] || fail "an image dir was made for a refused checkpoint"
}

test_checkpoint_of_a_terminal_container_is_refused() {
	criu_build
	cfg '.process.terminal = true'
	set_args sleep 1000
	"$TOP/build/helpers/recvtty" "$TMP/console.sock" >/dev/null 2>&1 &
	local sock=$!
	wait_for test -S "$TMP/console.sock" || return 1
	rt run -d --console-socket "$TMP/console.sock" c1 </dev/null >/dev/null 2>"$TMP/err" || fail "run: $(cat "$TMP/err")" || return 1
	run_rc 1 rt checkpoint --image-path "$TMP/img" c1 || return 1
	kill $sock 2>/dev/null
	assert_match 'process.terminal: a container with a terminal can.t be checkpointed' "$ERR"
}

# A restore that can't be done leaves nothing: no state dir, cgroup or process.
test_restore_without_a_checkpoint_fails_and_leaves_nothing() {
	criu_build
	mkdir -p "$TMP/empty"
	assert_failed c1 'restore c1: --image-path .*/empty: no checkpoint there \(no inventory.img\)' \
		rt restore --detach --image-path "$TMP/empty" --tcp-established --ext-unix-sk --shell-job \
		--file-locks --manage-cgroups-mode soft --empty-ns network --auto-dedup --no-pivot \
		--pid-file "$TMP/pid" --work-path "$TMP/work" c1 || return 1
	assert_failed c1 'restore c1: --image-path .*/missing: No such file' \
		rt restore -d --image-path "$TMP/missing" c1 || return 1
	[ ! -e "$TMP/pid" ] || fail "a pid file was written"
}

test_restore_errors_in_the_bundle_leave_nothing() {
	criu_build
	mkdir -p "$TMP/img"
	cfg '.process.args = 7'
	assert_failed c1 'config.json: process.args: expected an array' rt restore -d --image-path "$TMP/img" c1 || return 1
	run_rc 1 rt restore -d --console-socket "$TMP/s" --image-path "$TMP/img" c1 || return 1
	assert_match -- '--console-socket: containers with a terminal can.t be checkpointed' "$ERR"
}

test_restore_refuses_to_replace_a_running_container() {
	criu_build
	start_bg c1 || return 1
	mkdir -p "$TMP/img"
	run_rc 1 rt restore -d --image-path "$TMP/img" c1 || return 1
	assert_match 'container "c1" already exists' "$ERR" || return 1
	assert_eq running "$(status_of c1)" "c1 after the refused restore"
}

test_features_and_help_say_checkpoint_is_there() {
	criu_build
	run_ok rt checkpoint --help || return 1
	assert_match -- '--leave-running' "$OUT" || return 1
	run_ok rt restore --help || return 1
	assert_match -- '--image-path' "$OUT"
}
