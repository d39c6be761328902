# Process settings whose effect needs a helper to see: seccomp filter flags,
# ioPriority, and a terminal wired to unirun's own.

# A filter that sends mkdir to the test agent (which answers after DELAY_MS).
notify_mkdir() { # flags-json delay-ms
	"$TOP/build/helpers/seccompagent" "$TMP/agent.sock" 1 "$2" >"$TMP/agent.out" 2>&1 &
	wait_for test -S "$TMP/agent.sock" || return 1
	cfg ".linux.seccomp = {\"defaultAction\": \"SCMP_ACT_ALLOW\", \"listenerPath\": \"$TMP/agent.sock\",
		\"flags\": $1, \"syscalls\": [{\"names\": [\"mkdir\", \"mkdirat\"], \"action\": \"SCMP_ACT_NOTIFY\"}]}"
	cfg '.root.readonly = false'
	cp "$TOP/build/helpers/sigsyscall" "$BUNDLE/rootfs/sigsyscall"
}

# SIGUSR1 to the caller while the agent holds its mkdir.
signal_during_notified_mkdir() {
	start_bg c1 /sigsyscall /x || return 1
	wait_for grep -q "notified syscall" "$TMP/agent.out" || return 1
	kill -USR1 "$(sed -n 's/.*from pid //p' "$TMP/agent.out" | head -n1)" || return 1
	wait_for grep -q "^usr1=" "$TMP/c1.out" || return 1
	wait_for grep -q "^valid=" "$TMP/agent.out"
}

test_seccomp_notify_without_wait_killable_recv_is_interrupted() {
	notify_mkdir '[]' 1500 || return 1
	signal_during_notified_mkdir || return 1
	assert_match '^mkdir=-1 errno=EINTR$' "$(cat "$TMP/c1.out")" "the caller's mkdir" || return 1
	assert_match '^usr1=1$' "$(cat "$TMP/c1.out")" "the handler ran" || return 1
	assert_match '^valid=0$' "$(cat "$TMP/agent.out")" "the agent's request after the signal"
}

# SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV: once the agent has the request,
# only a fatal signal ends the wait; the answer still arrives.
test_seccomp_wait_killable_recv_keeps_the_request() {
	notify_mkdir '["SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV"]' 1500 || return 1
	signal_during_notified_mkdir || return 1
	assert_match '^mkdir=0 errno=0$' "$(cat "$TMP/c1.out")" "the caller's mkdir (the agent's answer)" || return 1
	assert_match '^usr1=1$' "$(cat "$TMP/c1.out")" "the handler ran after the syscall" || return 1
	assert_match '^valid=1$' "$(cat "$TMP/agent.out")" "the agent's request after the signal"
}

# SPEC_ALLOW and LOG reach the kernel's seccomp(2) as flags.
test_seccomp_spec_allow_and_log_flags_reach_the_kernel() {
	command -v strace >/dev/null || skip "strace is not installed (tests/deps.sh installs it)"
	cfg '.linux.seccomp = {"defaultAction": "SCMP_ACT_ALLOW", "flags": ["SECCOMP_FILTER_FLAG_SPEC_ALLOW", "SECCOMP_FILTER_FLAG_LOG"],
		"syscalls": [{"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1}]}'
	set_args sh -c 'mkdir /tmp/x 2>&1; grep -E "^(Seccomp|Speculation_Store_Bypass):" /proc/self/status'
	# (LeakSanitizer can't run under ptrace: a sanitized unirun is traced without it.)
	run_ok env ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=seccomp -o "$TMP/strace" \
		"$UNIRUN" --root "$ROOT" run c1 || return 1
	assert_match 'Operation not permitted' "$OUT" "mkdir under the filter" || return 1
	assert_match '^Seccomp:[[:space:]]+2$' "$OUT" || return 1
	assert_match 'seccomp\(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_LOG\|SECCOMP_FILTER_FLAG_SPEC_ALLOW,' \
		"$(cat "$TMP/strace")" "unirun's seccomp(2) call" || return 1
	# Where the kernel force-mitigates seccomp'd tasks, SPEC_ALLOW says not to.
	assert_no_match 'force mitigated' "$OUT" "Speculation_Store_Bypass with SPEC_ALLOW"
}

test_io_priority_is_seen_inside() {
	cfg '.process.ioPriority = {"class": "IOPRIO_CLASS_BE", "priority": 2}'
	set_args ionice
	run_ok rt run c1 || return 1
	assert_eq "best-effort: prio 2" "$OUT" "ionice in the container" || return 1
	cfg '.process.ioPriority = {"class": "IOPRIO_CLASS_IDLE", "priority": 0}'
	run_ok rt run c2 || return 1
	assert_eq "idle" "$OUT" "ionice with IOPRIO_CLASS_IDLE" || return 1
	cfg 'del(.process.ioPriority)'
	run_ok rt run c3 || return 1
	assert_eq "none: prio 0" "$OUT" "ionice without ioPriority"
}

# process.terminal on `run` without --console-socket: the container's pty is
# relayed to unirun's own terminal, both ways, and the status comes back.
test_run_with_a_terminal_uses_unirun_s_own() {
	command -v script >/dev/null || skip "no script(1) to give unirun a terminal"
	cfg '.process.terminal = true'
	set_args sh
	run_rc 5 script -qec "$UNIRUN --root $ROOT run c1" /dev/null \
		< <(printf 'tty; [ -t 0 ] && echo stdin-is-a-tty; echo typed-$((6*7)); exit 5\n'; exec sleep 60) || return 1
	assert_match '^/dev/pts/0' "$OUT" "tty in the container" || return 1
	assert_match 'stdin-is-a-tty' "$OUT" || return 1
	assert_match 'typed-42' "$OUT" "what was typed, run by the container's shell" || return 1
	assert_nothing_left c1
}
