# podman (Debian's 4.3, with conmon) driving unirun through --runtime: each
# test has its own storage root, a busybox image imported from the bundle's
# rootfs tarball (no registry), the cgroupfs manager and no network.

source "$TOP/tests/integration/clients.sh"

test_podman_run_prints_and_returns_the_exit_code() {
	podman_setup || return 1
	run_rc 7 pm run --rm "${PM_RUN[@]}" localhost/busybox:unirun sh -c 'echo hello-podman; exit 7' || return 1
	assert_eq hello-podman "$OUT" || return 1
	assert_eq "" "$(pm ps -aq)" "containers left after --rm" || return 1
	podman_teardown
}

test_podman_detached_exec_logs_stop_rm() {
	podman_setup || return 1
	local id
	id=$(pm run -d "${PM_RUN[@]}" localhost/busybox:unirun sh -c 'trap "exit 0" TERM; echo started; while :; do sleep 0.1; done') ||
		fail "run -d" || return 1
	run_ok pm exec "$id" sh -c 'echo in-exec $(id -u)' || return 1
	assert_eq "in-exec 0" "$OUT" || return 1
	run_rc 3 pm exec "$id" sh -c 'exit 3' || return 1
	wait_for sh -c "podman --root $PM_ROOT/root --runroot $PM_ROOT/run logs $id | grep -q started" || return 1
	run_ok pm top "$id" || return 1
	assert_match 'sh -c trap' "$OUT" || return 1
	run_ok pm stop -t 5 "$id" || return 1
	assert_match '^Exited \(0\)' "$(pm ps -a --format '{{.Status}}')" || return 1
	run_ok pm rm "$id" || return 1
	assert_eq "" "$(pm ps -aq)" || return 1
	podman_teardown
}

test_podman_process_and_mount_options() {
	podman_setup || return 1
	mkdir -p "$TMP/vol"
	echo from-host >"$TMP/vol/f"
	run_ok pm run --rm "${PM_RUN[@]}" -e FOO=bar -w /tmp --user 1000:1000 --cap-drop all --read-only \
		--tmpfs /scratch -v "$TMP/vol:/vol:ro" localhost/busybox:unirun \
		sh -c 'echo $FOO $(pwd) $(id -u):$(id -g); grep CapEff /proc/self/status; cat /vol/f;
		       touch /x 2>/dev/null || echo ro-root; touch /scratch/y && echo tmpfs-ok;
		       touch /vol/z 2>/dev/null || echo ro-vol' || return 1
	assert_match '^bar /tmp 1000:1000$' "$OUT" || return 1
	assert_match 'CapEff:	0000000000000000' "$OUT" || return 1
	assert_match '^from-host$' "$OUT" || return 1
	assert_match '^ro-root$' "$OUT" || return 1
	assert_match '^tmpfs-ok$' "$OUT" || return 1
	assert_match '^ro-vol$' "$OUT" || return 1
	podman_teardown
}

test_podman_pause_kill_and_restart() {
	podman_setup || return 1
	local id
	id=$(pm run -d "${PM_RUN[@]}" localhost/busybox:unirun sleep 1000) || fail "run -d" || return 1
	run_ok pm pause "$id" || return 1
	assert_eq paused "$(pm inspect -f '{{.State.Status}}' "$id")" || return 1
	run_ok pm unpause "$id" || return 1
	assert_eq running "$(pm inspect -f '{{.State.Status}}' "$id")" || return 1
	run_ok pm restart -t 1 "$id" || return 1
	assert_eq running "$(pm inspect -f '{{.State.Status}}' "$id")" || return 1
	run_ok pm kill "$id" || return 1
	wait_for sh -c "[ \"\$(podman --root $PM_ROOT/root --runroot $PM_ROOT/run inspect -f '{{.State.Status}}' $id)\" = exited ]" || return 1
	run_ok pm rm "$id" || return 1
	podman_teardown
}

test_podman_tty() {
	podman_setup || return 1
	command -v script >/dev/null || skip "no script(1) to give podman a terminal"
	local cmd
	cmd="podman --root $PM_ROOT/root --runroot $PM_ROOT/run --storage-driver overlay --cgroup-manager cgroupfs --events-backend file --runtime $UNIRUN run --rm -it ${PM_RUN[*]} localhost/busybox:unirun tty"
	# script's stdin stays open: at EOF script sends ^D into the terminal,
	# racing podman's attach when the tests run with stdin at /dev/null.
	run_ok script -qec "$cmd" /dev/null < <(exec sleep 60) || return 1
	assert_match '/dev/pts/0' "$OUT" "podman -it output (stderr: $ERR)" || return 1
	podman_teardown
}

# Rootless podman runs unirun inside its own user namespace (as uid 0 there):
# unirun notices, keeps its state under $XDG_RUNTIME_DIR and binds devices.
test_rootless_podman() {
	command -v podman >/dev/null || skip "podman is not installed (tests/deps.sh installs it)"
	source "$TOP/tests/integration/rootless.sh"
	rootless_setup || return 1
	local home=$TMP/rlhome
	mkdir -p "$home/xdg"
	chmod 700 "$home/xdg"
	chown -R "$RL_UID:$RL_GID" "$home"
	cp "$TOP/tests/.cache/rootfs.tar" "$home/rootfs.tar"
	chmod 644 "$home/rootfs.tar"
	rpm() {
		(cd "$home" && runuser -u "$RL_USER" -- env HOME="$home" XDG_RUNTIME_DIR="$home/xdg" \
			podman --root "$home/storage" --runroot "$home/run" --storage-driver vfs \
			--cgroup-manager cgroupfs --events-backend file --runtime "$UNIRUN" "$@")
	}
	rpm import -q "$home/rootfs.tar" localhost/busybox:unirun >/dev/null 2>"$TMP/imp.err" ||
		{ fail "rootless podman import: $(cat "$TMP/imp.err")"; pkill -u "$RL_USER"; return 1; }
	run_rc 3 rpm run --rm --network none localhost/busybox:unirun sh -c 'echo rootless-podman $(id -u); exit 3'
	local r=$?
	[ $r = 0 ] && { assert_eq "rootless-podman 0" "$OUT" || r=1; }
	[ $r = 0 ] && { [ -d "$home/xdg/unirun" ] || fail "unirun's state is not under \$XDG_RUNTIME_DIR" || r=1; }
	rpm system reset -f >/dev/null 2>&1
	pkill -u "$RL_USER" 2>/dev/null
	return $r
}
