# exec: a new process inside a running container.

test_exec_runs_in_the_container_and_returns_its_status() {
	start_bg c1 || return 1
	run_rc 4 rt exec c1 sh -c 'echo $$ $(hostname); readlink /proc/self/ns/net; exit 4' || return 1
	local init
	init=$(pid_of c1)
	assert_match '^[0-9]+ unirun$' "$(head -n1 <<<"$OUT")" || return 1
	assert_eq "$(readlink /proc/$init/ns/net)" "$(tail -n1 <<<"$OUT")"
}

test_exec_is_born_in_the_container_cgroup() {
	start_bg c1 || return 1
	run_ok rt exec c1 cat /proc/self/cgroup || return 1
	assert_match '^0::/$' "$OUT" || return 1
	rt exec -d --pid-file "$TMP/ep" c1 sleep 100 </dev/null >"$TMP/eo" 2>&1 || fail "exec -d: $(cat "$TMP/eo")" || return 1
	assert_match "^$(cat "$TMP/ep")\$" "$(cat "$(cgroup_dir c1)/cgroup.procs")"
}

test_exec_overrides_user_env_cwd_and_keeps_config_defaults() {
	start_bg c1 || return 1
	run_ok rt exec --user 1000:1000 --additional-gids 5 --env FOO=bar --cwd /tmp c1 sh -c 'echo $(id -u):$(id -g) $(id -G) $FOO $(pwd) $(ulimit -n); grep NoNewPrivs /proc/self/status' || return 1
	assert_match '^1000:1000 1000 5 bar /tmp 1024$' "$OUT" || return 1
	assert_match 'NoNewPrivs:	1' "$OUT"
}

test_exec_cap_adds_a_capability() {
	start_bg c1 || return 1
	run_ok rt exec --cap CAP_CHOWN c1 grep CapEff /proc/self/status || return 1
	assert_match '0000000020000421' "$OUT"
}

test_exec_with_a_process_file() {
	start_bg c1 || return 1
	echo '{"args": ["sh", "-c", "echo from-file $A"], "cwd": "/", "env": ["A=1", "PATH=/bin"]}' >"$TMP/p.json"
	run_ok rt exec --process "$TMP/p.json" c1 || return 1
	assert_eq "from-file 1" "$OUT"
}

test_exec_errors() {
	start_bg c1 || return 1
	run_rc 1 rt exec c1 nosuchcmd || return 1
	assert_match 'process.args\[0\]: "nosuchcmd" not found' "$ERR" || return 1
	run_rc 1 rt exec c1 || return 1
	assert_match 'a command \(or --process FILE\) is required' "$ERR" || return 1
	echo '{"args": [], "cwd": "/"}' >"$TMP/p.json"
	run_rc 1 rt exec --process "$TMP/p.json" c1 || return 1
	assert_match "$TMP/p.json: args: must not be empty" "$ERR" || return 1
	run_rc 1 rt exec --user nobody c1 true || return 1
	assert_match -- '--user: "nobody"' "$ERR" || return 1
	run_rc 1 rt exec nosuch true || return 1
	assert_match 'does not exist' "$ERR" || return 1
	run_rc 1 rt exec --apparmor unconfined c1 true || return 1
	assert_match 'process.apparmorProfile: unirun does not apply AppArmor' "$ERR" || return 1
	run_rc 1 rt exec --process-label system_u:system_r:container_t:s0 c1 true || return 1
	assert_match 'process.selinuxLabel: unirun does not apply SELinux' "$ERR" || return 1
	run_ok rt pause c1 || return 1
	run_rc 1 rt exec c1 true || return 1
	assert_match 'is paused' "$ERR" || return 1
	run_ok rt resume c1 || return 1
	# Nothing of the failed execs is left in the cgroup.
	assert_eq 1 "$(wc -l <"$(cgroup_dir c1)/cgroup.procs")"
}

test_exec_in_a_stopped_container_fails() {
	set_args true
	create_ok c1 || return 1
	run_ok rt start c1 || return 1
	wait_for sh -c "[ \"\$($UNIRUN --root $ROOT state c1 | jq -r .status)\" = stopped ]" || return 1
	run_rc 1 rt exec c1 true || return 1
	assert_match 'is stopped' "$ERR"
}

test_exec_gets_the_container_seccomp_profile() {
	cfg '.linux.seccomp = {"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13}]}'
	start_bg c1 || return 1
	run_ok rt exec c1 sh -c 'mkdir /tmp/x 2>&1; true' || return 1
	assert_match 'Permission denied' "$OUT"
}

test_exec_tty_through_the_console_socket() {
	start_bg c1 || return 1
	"$TOP/build/helpers/recvtty" "$TMP/tty.sock" >"$TMP/tty.out" 2>&1 &
	local rp=$!
	wait_for test -S "$TMP/tty.sock" || return 1
	run_ok rt exec -t --console-socket "$TMP/tty.sock" c1 sh -c 'tty; echo exec-tty' || return 1
	wait $rp
	assert_match '^/dev/pts/[0-9]' "$(cat "$TMP/tty.out")" || return 1
	assert_match 'exec-tty' "$(cat "$TMP/tty.out")"
}
