# containerd (Debian's 1.6, containerd-shim-runc-v2) driving unirun through
# `ctr run --runc-binary`: each test starts its own containerd (socket, root
# and state under the test's directory) and imports a busybox OCI image made
# here from the bundle's rootfs tarball (no registry).

source "$TOP/tests/integration/clients.sh"

test_ctr_run_prints_and_returns_the_exit_status() {
	ctd_setup || return 1
	run_rc 4 c run --rm --runc-binary "$UNIRUN" "$IMG" c1 sh -c 'echo hello-ctr; exit 4' || return 1
	assert_eq hello-ctr "$OUT" || return 1
	assert_eq "" "$(c containers ls -q)" "containers left after --rm"
}

test_ctr_task_exec_pause_ps_kill_delete() {
	ctd_setup || return 1
	run_ok c run -d --runc-binary "$UNIRUN" "$IMG" c1 sleep 1000 || return 1
	assert_match 'c1 +[0-9]+ +RUNNING' "$(c task ls)" || return 1
	run_rc 5 c task exec --exec-id e1 c1 sh -c 'echo exec-ok; exit 5' || return 1
	assert_eq exec-ok "$OUT" || return 1
	run_ok c task pause c1 || return 1
	assert_match 'c1 +[0-9]+ +PAUSED' "$(c task ls)" || return 1
	run_ok c task resume c1 || return 1
	assert_match 'c1 +[0-9]+ +RUNNING' "$(c task ls)" || return 1
	run_ok c task ps c1 || return 1
	assert_match "^$(c task ls | awk '$1 == "c1" {print $2}')" "$(sed 1d <<<"$OUT")" || return 1
	run_ok c task kill -s KILL c1 || return 1
	wait_for sh -c "ctr -a $CTD/sock -n $CTD_NS task ls | grep -q 'c1 .*STOPPED'" || return 1
	run_ok c task delete c1 || return 1
	run_ok c containers delete c1 || return 1
	assert_eq "" "$(ls /run/containerd/runc/$CTD_NS 2>/dev/null)" "unirun state left"
}

test_ctr_tty() {
	ctd_setup || return 1
	command -v script >/dev/null || skip "no script(1) to give ctr a terminal"
	run_ok script -qec "ctr -a $CTD/sock -n $CTD_NS run --rm -t --runc-binary $UNIRUN $IMG c1 tty" /dev/null || return 1
	assert_match '/dev/pts/0' "$OUT" "ctr run -t output (stderr: $ERR)"
}
