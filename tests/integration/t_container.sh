# What the container is: process attributes, mounts, /dev, namespaces, console.

# out_of ARGS...: run the container with these args, stdout in $OUT.
out_of() {
	set_args "$@"
	run_ok rt run c1 || return 1
}

test_env_cwd_user_groups_umask() {
	cfg '.process.env = ["PATH=/bin", "GREETING=hi there"] | .process.cwd = "/home/user"
	     | .process.user = {"uid": 1000, "gid": 1000, "additionalGids": [5, 65534], "umask": 63}'
	out_of sh -c 'echo "$GREETING|$(pwd)|$(id -u):$(id -g)|$(id -G)|$(umask)"' || return 1
	assert_eq "hi there|/home/user|1000:1000|1000 5 65534|0077" "$OUT"
}

test_cwd_is_created_when_missing() {
	cfg '.process.cwd = "/made/by/unirun"'
	out_of pwd || return 1
	assert_eq /made/by/unirun "$OUT"
}

test_rlimits_are_set() {
	cfg '.process.rlimits = [{"type": "RLIMIT_NOFILE", "soft": 123, "hard": 456}]'
	out_of sh -c 'echo $(ulimit -n) $(ulimit -Hn)' || return 1
	assert_eq "123 456" "$OUT"
}

test_hostname_and_domainname() {
	cfg '.hostname = "box" | .domainname = "example.org"'
	out_of sh -c 'echo $(hostname) $(cat /proc/sys/kernel/domainname)' || return 1
	assert_eq "box example.org" "$OUT"
}

test_readonly_root_and_writable_tmpfs() {
	cfg '.mounts += [{"destination": "/scratch", "type": "tmpfs", "source": "tmpfs", "options": ["size=1m", "mode=1777"]}]'
	out_of sh -c 'touch /x 2>/dev/null && echo wrote-root; echo ok > /scratch/f && cat /scratch/f; stat -c %a /scratch; grep " /scratch " /proc/mounts' || return 1
	assert_no_match wrote-root "$OUT" || return 1
	assert_match '^ok$' "$OUT" || return 1
	assert_match '^1777$' "$OUT" || return 1
	assert_match 'size=1024k' "$OUT"
}

test_bind_mount_from_the_host_with_options() {
	mkdir -p "$TMP/share" && echo host-data >"$TMP/share/file"
	cfg ".mounts += [{\"destination\": \"/data\", \"source\": \"$TMP/share\", \"options\": [\"bind\", \"ro\", \"nosuid\"]}]"
	out_of sh -c 'cat /data/file; echo x > /data/new 2>/dev/null && echo wrote; grep " /data " /proc/mounts' || return 1
	assert_match '^host-data$' "$OUT" || return 1
	assert_no_match '^wrote$' "$OUT" || return 1
	assert_match ' ro,nosuid' "$OUT"
}

test_bind_mount_of_a_file() {
	echo file-data >"$TMP/one"
	cfg ".mounts += [{\"destination\": \"/etc/one\", \"source\": \"$TMP/one\", \"options\": [\"bind\"]}]"
	out_of cat /etc/one || return 1
	assert_eq file-data "$OUT"
}

test_default_devices_and_links() {
	out_of sh -c 'for d in null zero full random urandom tty; do stat -c "%n %t:%T %a" /dev/$d; done; for l in fd stdin stdout stderr ptmx; do readlink /dev/$l; done; test -d /dev/pts && test -d /dev/shm && echo dirs; echo hi > /dev/null && echo null-ok' || return 1
	assert_match '^/dev/null 1:3 666$' "$OUT" || return 1
	assert_match '^/dev/urandom 1:9 666$' "$OUT" || return 1
	assert_match '^/dev/tty 5:0 666$' "$OUT" || return 1
	assert_match '^/proc/self/fd$' "$OUT" || return 1
	assert_match '^/proc/self/fd/2$' "$OUT" || return 1
	assert_match '^pts/ptmx$' "$OUT" || return 1
	assert_match '^dirs$' "$OUT" || return 1
	assert_match '^null-ok$' "$OUT"
}

test_linux_devices_are_created_and_allowed() {
	cfg '.linux.devices = [{"type": "c", "path": "/dev/mynull", "major": 1, "minor": 3, "fileMode": 438, "uid": 1000, "gid": 1000}]'
	out_of sh -c 'stat -c "%t:%T %a %u:%g" /dev/mynull; echo x > /dev/mynull && echo writable' || return 1
	assert_match '^1:3 666 1000:1000$' "$OUT" || return 1
	assert_match '^writable$' "$OUT"
}

test_device_cgroup_denies_what_is_not_allowed() {
	# /dev/mem is 1:1: mknod works as root, the eBPF device program refuses the open.
	cfg '.process.capabilities.bounding += ["CAP_MKNOD"] | .process.capabilities.effective += ["CAP_MKNOD"] | .process.capabilities.permitted += ["CAP_MKNOD"] | .mounts += [{"destination": "/scratch", "type": "tmpfs", "source": "tmpfs"}]'
	out_of sh -c 'mknod /scratch/mem c 1 1 2>&1; head -c1 /scratch/mem >/dev/null 2>&1 && echo opened || echo denied' || return 1
	assert_match '^denied$' "$OUT" || return 1
	assert_match 'Operation not permitted' "$OUT"
}

test_masked_and_readonly_paths() {
	out_of sh -c 'wc -c < /proc/keys; ls /sys/firmware | wc -l; echo 1 > /proc/sys/kernel/ns_last_pid 2>/dev/null && echo wrote-sys; echo done' || return 1
	assert_eq "0
0
done" "$OUT"
}

test_pid_namespace_and_proc() {
	out_of sh -c 'echo $$; ls /proc | grep -c "^[0-9]"' || return 1
	assert_eq "1" "$(head -n1 <<<"$OUT")"
}

test_cgroup_namespace_shows_the_container_cgroup_as_root() {
	out_of sh -c 'cat /proc/self/cgroup | grep "^0::"; ls /sys/fs/cgroup/cgroup.procs' || return 1
	assert_match '^0::/$' "$OUT" || return 1
	assert_match '^/sys/fs/cgroup/cgroup.procs$' "$OUT"
}

test_init_is_placed_in_its_cgroup_from_birth() {
	start_bg c1 || return 1
	local pid
	pid=$(pid_of c1)
	assert_eq "0::/unirun/c1" "$(grep '^0::' /proc/$pid/cgroup)" || return 1
	assert_match "^$pid\$" "$(cat "$(cgroup_dir c1)/cgroup.procs")"
}

test_no_controllers_are_enabled_without_resources() {
	start_bg c1 || return 1
	assert_eq "" "$(cat "$CG2/unirun/cgroup.subtree_control")"
}

test_joins_a_network_namespace_by_path() {
	ip netns add unirun-test-$$ || skip "ip netns add failed"
	cfg "(.linux.namespaces[] | select(.type == \"network\")).path = \"/run/netns/unirun-test-$$\""
	out_of readlink /proc/self/ns/net
	local rc=$? want
	want=net:[$(stat -Lc %i /run/netns/unirun-test-$$)]
	ip netns del unirun-test-$$
	[ $rc = 0 ] || return 1
	assert_eq "$want" "$OUT"
}

test_user_namespace_maps_root() {
	chmod 755 "$TMP"
	chown -R 100000:100000 "$BUNDLE/rootfs"
	cfg '.linux.namespaces += [{"type": "user"}] | .linux.uidMappings = [{"containerID": 0, "hostID": 100000, "size": 65536}] | .linux.gidMappings = [{"containerID": 0, "hostID": 100000, "size": 65536}]'
	out_of sh -c 'cat /proc/self/uid_map; id -u' || return 1
	assert_match '^ +0 +100000 +65536$' "$OUT" || return 1
	assert_match '^0$' "$OUT"
}

test_time_namespace_offsets() {
	cfg '.linux.namespaces += [{"type": "time"}] | .linux.timeOffsets = {"boottime": {"secs": 86400000, "nanosecs": 0}}'
	out_of cut -d. -f1 /proc/uptime || return 1
	[ "$OUT" -gt 86400000 ] || fail "uptime $OUT does not carry the 1000-day offset"
}

test_no_pivot() {
	set_args sh -c 'ls / | wc -l'
	run_ok rt run --no-pivot c1 || return 1
	[ "$OUT" -gt 3 ] || fail "root listing: $OUT"
}

test_preserve_fds_passes_exactly_n_more() {
	set_args sh -c 'ls /proc/self/fd | sort -n | xargs'
	exec 5>"$TMP/five" 6>"$TMP/six"
	run_ok rt run --preserve-fds 1 c1 || return 1
	exec 5>&- 6>&-
	assert_eq "0 1 2 3" "$OUT"
}

test_no_host_fds_leak_into_the_container() {
	set_args sh -c 'ls /proc/self/fd | sort -n | xargs'
	exec 7>"$TMP/seven"
	run_ok rt run c1 || return 1
	exec 7>&-
	assert_eq "0 1 2 3" "$OUT"
}

test_terminal_through_the_console_socket() {
	cfg '.process.terminal = true'
	set_args sh -c 'tty; stty size; echo on-the-tty'
	cfg '.process.consoleSize = {"height": 33, "width": 99}'
	"$TOP/build/helpers/recvtty" "$TMP/tty.sock" >"$TMP/tty.out" 2>&1 &
	local rp=$!
	wait_for test -S "$TMP/tty.sock" || return 1
	create_ok --console-socket "$TMP/tty.sock" c1 || return 1
	run_ok rt start c1 || return 1
	wait $rp
	assert_match '^/dev/pts/0' "$(cat "$TMP/tty.out")" || return 1
	assert_match '33 99' "$(cat "$TMP/tty.out")" || return 1
	assert_match 'on-the-tty' "$(cat "$TMP/tty.out")"
}

test_capabilities_are_exactly_the_configured_sets() {
	out_of sh -c 'grep -E "^Cap(Inh|Prm|Eff|Bnd|Amb)" /proc/self/status' || return 1
	# CAP_AUDIT_WRITE(29) CAP_KILL(5) CAP_NET_BIND_SERVICE(10) = 0x20000420
	assert_match 'CapPrm:	0000000020000420' "$OUT" || return 1
	assert_match 'CapEff:	0000000020000420' "$OUT" || return 1
	assert_match 'CapBnd:	0000000020000420' "$OUT" || return 1
	assert_match 'CapInh:	0000000000000000' "$OUT"
}

test_no_new_privileges_and_oom_score_adj() {
	cfg '.process.oomScoreAdj = 123'
	out_of sh -c 'grep NoNewPrivs /proc/self/status; cat /proc/self/oom_score_adj' || return 1
	assert_match 'NoNewPrivs:	1' "$OUT" || return 1
	assert_match '^123$' "$OUT"
}

test_seccomp_errno_rule() {
	cfg '.linux.seccomp = {"defaultAction": "SCMP_ACT_ALLOW", "architectures": ["SCMP_ARCH_X86_64"], "syscalls": [{"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1}]}'
	out_of sh -c 'mkdir /tmp/d 2>&1; echo rc=$?' || return 1
	assert_match 'Operation not permitted' "$OUT" || return 1
	assert_match 'rc=1' "$OUT"
}

test_hooks_run_in_order_with_the_state() {
	local h=$TMP/hook.sh
	printf '#!/bin/sh\nread s; echo "$1 $s" >> %s\n' "$TMP/hooks.log" >"$h"
	chmod +x "$h"
	cfg ".hooks = {\"createRuntime\": [{\"path\": \"$h\", \"args\": [\"hook\", \"createRuntime\"]}],
		\"poststart\": [{\"path\": \"$h\", \"args\": [\"hook\", \"poststart\"]}],
		\"poststop\": [{\"path\": \"$h\", \"args\": [\"hook\", \"poststop\"]}]}"
	out_of true || return 1
	assert_eq "createRuntime poststart poststop" "$(cut -d' ' -f1 "$TMP/hooks.log" | xargs)" || return 1
	assert_match '"id":"c1"' "$(head -n1 "$TMP/hooks.log")" || return 1
	assert_match '"status":"stopped"' "$(tail -n1 "$TMP/hooks.log")"
}

test_failing_hook_fails_create_and_leaves_nothing() {
	cfg '.hooks = {"createRuntime": [{"path": "/bin/false"}]}'
	assert_failed c1 'hooks.createRuntime\[0\]: /bin/false exited with status 1' rt create c1
}

test_sysctl_in_the_container_namespace() {
	local host want
	host=$(cat /proc/sys/net/ipv4/ip_forward)
	want=$((1 - host))
	cfg ".linux.sysctl = {\"net.ipv4.ip_forward\": \"$want\", \"kernel.shmmni\": \"1234\"}"
	out_of sh -c 'cat /proc/sys/net/ipv4/ip_forward /proc/sys/kernel/shmmni' || return 1
	assert_eq "$want
1234" "$OUT" || return 1
	assert_eq "$host" "$(cat /proc/sys/net/ipv4/ip_forward)" "host ip_forward (unchanged)"
}

# CVE-2019-5736: what runs in the container before its exec is a sealed memfd
# copy of unirun, never the host binary.
test_the_runtime_binary_is_out_of_reach() {
	create_ok c1 || return 1
	local pid
	pid=$(pid_of c1)
	assert_match '^/memfd:unirun' "$(readlink "/proc/$pid/exe")" "exe of the created init" || return 1
	[ "$(stat -L -c %d:%i "/proc/$pid/exe")" != "$(stat -L -c %d:%i "$UNIRUN")" ] ||
		fail "the init runs the host binary" || return 1
	run_ok "$TOP/build/helpers/exeprobe" "/proc/$pid/exe" || return 1
	assert_match '^seals=15$' "$OUT" "seals: seal, shrink, grow, write" || return 1
	assert_no_match '^write=ok' "$OUT"
}

# CVE-2024-21626: a cwd through /proc/self/fd/N (or a symlink to it) could
# land on a host directory unirun holds open; it is refused, for the init and
# for exec, whatever N is.
test_cwd_through_proc_self_fd_is_refused() {
	local n
	for n in 3 4 5 6 7 8; do
		cfg ".process.cwd = \"/proc/self/fd/$n\""
		assert_failed c1 'process.cwd' rt run c1 </dev/null || return 1
	done
	cfg '.process.cwd = "/"'
	start_bg c1 || return 1
	ln -s /proc/self/fd/4 "$BUNDLE/rootfs/evil"
	for n in 3 4 5 6 7 8 9 10; do
		run_rc 1 rt exec --cwd "/proc/self/fd/$n" c1 pwd || return 1
		assert_match 'process.cwd' "$ERR" || return 1
	done
	run_rc 1 rt exec --cwd /evil c1 pwd || return 1
	assert_match 'process.cwd /evil' "$ERR"
}

# CVE-2025-52881: sysctls are written through unirun's own /proc before any
# container mount exists, so a mount over /proc/sys can't redirect them.
test_sysctl_writes_are_not_redirected_by_mounts() {
	mkdir -p "$TMP/fake"
	echo untouched >"$TMP/fake/ip_forward"
	cfg '.linux.sysctl = {"net.ipv4.ip_forward": "1"}'
	cfg ".mounts += [{\"destination\": \"/proc/sys/net/ipv4\", \"type\": \"bind\", \"source\": \"$TMP/fake\", \"options\": [\"rbind\"]}]"
	set_args cat /proc/sys/net/ipv4/ip_forward
	run_ok rt run c1 </dev/null || return 1
	assert_eq untouched "$OUT" "the bind-mounted file, seen inside" || return 1
	assert_eq untouched "$(cat "$TMP/fake/ip_forward")" "the host file"
}

# CVE-2025-31133: masking binds /dev/null over files; a /dev/null that is not
# the null device is refused, not bound. A mount over /dev/null is refused
# first (it is a default device); a symlink in an image without a /dev
# tmpfs is replaced by the device.
test_masking_needs_a_real_dev_null() {
	echo secret >"$TMP/secret"
	echo hidden >"$BUNDLE/rootfs/hidden"
	cfg '.linux.maskedPaths = ["/hidden"]'
	set_args cat /hidden
	cfg '.linux.devices = [{"path": "/dev/null", "type": "c", "major": 1, "minor": 8}]'
	run_rc 1 rt run c1 </dev/null || return 1
	assert_match 'linux.maskedPaths: /dev/null in the container is not the null device' "$ERR" || return 1
	assert_nothing_left c1 || return 1
	cfg 'del(.linux.devices)'
	cfg ".mounts += [{\"destination\": \"/dev/null\", \"type\": \"bind\", \"source\": \"$TMP/secret\", \"options\": [\"bind\"]}]"
	run_rc 1 rt run c1 </dev/null || return 1
	assert_no_match secret "$OUT" || return 1
	assert_nothing_left c1 || return 1
	cfg 'del(.mounts[-1]) | del(.mounts[] | select(.destination == "/dev"))'
	rm -rf "$BUNDLE/rootfs/dev"
	mkdir -p "$BUNDLE/rootfs/dev"
	ln -s /secret "$BUNDLE/rootfs/dev/null"
	cp "$TMP/secret" "$BUNDLE/rootfs/secret"
	run_ok rt run c1 </dev/null || return 1
	assert_eq "" "$OUT" "the masked file"
}

# SCMP_ACT_NOTIFY: the notify fd goes to listenerPath with the runtime-spec's
# containerProcessState (also for exec), and the agent answers for the kernel.
test_seccomp_notify_reaches_the_listener() {
	"$TOP/build/helpers/seccompagent" "$TMP/agent.sock" 2 >"$TMP/agent.out" 2>&1 &
	local ap=$!
	wait_for test -S "$TMP/agent.sock" || return 1
	cfg ".linux.seccomp = {\"defaultAction\": \"SCMP_ACT_ALLOW\", \"listenerPath\": \"$TMP/agent.sock\", \"listenerMetadata\": \"meta-1\", \"syscalls\": [{\"names\": [\"mkdir\", \"mkdirat\"], \"action\": \"SCMP_ACT_NOTIFY\"}]}"
	cfg '.root.readonly = false'
	start_bg c1 sh -c 'mkdir /made && echo mkdir-said-yes; ls -d /made 2>&1; sleep 1000' || return 1
	wait_for grep -q mkdir-said-yes "$TMP/c1.out" || { cat "$TMP/c1.out" "$TMP/agent.out"; return 1; }
	assert_match 'No such file' "$(cat "$TMP/c1.out")" "the agent faked the mkdir" || return 1
	local st
	st=$(grep '^state ' "$TMP/agent.out" | head -n1 | cut -d' ' -f2-)
	assert_eq '["seccompFd"]' "$(jq -c .fds <<<"$st")" || return 1
	assert_eq meta-1 "$(jq -r .metadata <<<"$st")" || return 1
	assert_eq c1 "$(jq -r .state.id <<<"$st")" || return 1
	assert_eq "$(pid_of c1)" "$(jq -r .pid <<<"$st")" || return 1
	run_ok rt exec c1 sh -c 'mkdir /again && test ! -d /again && echo faked-again' || return 1
	assert_eq faked-again "$OUT" || return 1
	assert_eq 2 "$(grep -c '^state ' "$TMP/agent.out")" || return 1
	assert_eq running "$(jq -r .state.status <<<"$(grep '^state ' "$TMP/agent.out" | tail -n1 | cut -d' ' -f2-)")" || return 1
	kill $ap 2>/dev/null
	return 0
}

# CVE-2022-29162: nothing inheritable unless the config asks, also for exec.
test_no_inheritable_capabilities_by_default() {
	start_bg c1 sh -c 'grep -E "^Cap(Inh|Amb)" /proc/self/status; sleep 1000' || return 1
	wait_for grep -q CapAmb "$TMP/c1.out" || return 1
	assert_match '^CapInh:	0000000000000000$' "$(cat "$TMP/c1.out")" || return 1
	assert_match '^CapAmb:	0000000000000000$' "$(cat "$TMP/c1.out")" || return 1
	run_ok rt exec --cap CAP_NET_ADMIN c1 grep -E '^Cap(Inh|Amb)' /proc/self/status || return 1
	assert_match '^CapInh:	0000000000000000$' "$OUT" || return 1
	assert_match '^CapAmb:	0000000000000000$' "$OUT"
}

# Idmapped bind mounts: with the mount's own mapping, and (idmap without
# one) with the container's user namespace mapping.
test_idmapped_bind_mounts() {
	mkdir -p "$TMP/vol"
	touch "$TMP/vol/root-file" "$TMP/vol/user-file"
	chown 1000:1000 "$TMP/vol/user-file"
	cfg ".mounts += [{\"destination\": \"/vol\", \"type\": \"bind\", \"source\": \"$TMP/vol\", \"options\": [\"bind\", \"idmap\"], \"uidMappings\": [{\"containerID\": 0, \"hostID\": 5000, \"size\": 2000}], \"gidMappings\": [{\"containerID\": 0, \"hostID\": 7000, \"size\": 2000}]}]"
	set_args sh -c 'stat -c "%n %u:%g" /vol/root-file /vol/user-file'
	run_ok rt run c1 </dev/null || return 1
	assert_match '^/vol/root-file 5000:7000$' "$OUT" || return 1
	assert_match '^/vol/user-file 6000:8000$' "$OUT" || return 1
	# idmap alone: the container's own mapping; its root writes as the disk's root.
	chmod 755 "$TMP"
	chown -R 100000:100000 "$BUNDLE/rootfs"
	cfg '.linux.namespaces += [{"type": "user"}] | .linux.uidMappings = [{"containerID": 0, "hostID": 100000, "size": 65536}] | .linux.gidMappings = [{"containerID": 0, "hostID": 100000, "size": 65536}]'
	cfg 'del(.mounts[-1].uidMappings, .mounts[-1].gidMappings)'
	set_args sh -c 'stat -c "%n %u:%g" /vol/root-file /vol/user-file && touch /vol/made-inside'
	run_ok rt run c2 </dev/null || return 1
	assert_match '^/vol/root-file 0:0$' "$OUT" || return 1
	assert_match '^/vol/user-file 1000:1000$' "$OUT" || return 1
	assert_eq 0:0 "$(stat -c %u:%g "$TMP/vol/made-inside")" "owner on the host of a file made inside"
}

test_idmapped_mount_errors() {
	cfg ".mounts += [{\"destination\": \"/vol\", \"type\": \"tmpfs\", \"source\": \"tmpfs\", \"options\": [\"idmap\"]}]"
	assert_failed c1 'mounts\[[0-9]+\] \(/vol\): only bind mounts can be idmapped' rt create c1 || return 1
	cfg ".mounts[-1] = {\"destination\": \"/vol\", \"type\": \"bind\", \"source\": \"$TMP\", \"options\": [\"bind\", \"idmap\"]}"
	assert_failed c1 'idmap without uidMappings/gidMappings needs' rt create c1 || return 1
	cfg ".mounts[-1].uidMappings = [{\"containerID\": 0, \"hostID\": 5000, \"size\": 10}]"
	assert_failed c1 'uidMappings and gidMappings go together' rt create c1
}

# A Docker-sized profile (one rule per syscall, ~360, plus an unknown name
# that is skipped as the peers do) loads and lets the container run.
test_a_docker_sized_seccomp_profile() {
	bash "$TOP/tests/bench/big-seccomp.sh" >"$TMP/profile.json" || return 1
	jq '.syscalls |= map(select(.names[0] != "mkdirat" and .names[0] != "mkdir"))' "$TMP/profile.json" >"$TMP/p2.json"
	cfg ".linux.seccomp = $(cat "$TMP/p2.json")"
	cfg '.root.readonly = false'
	set_args sh -c 'echo alive; mkdir /x 2>&1 || echo denied'
	run_ok rt run c1 </dev/null || return 1
	assert_match '^alive$' "$OUT" || return 1
	assert_match 'Operation not permitted' "$OUT" || return 1
	assert_match '^denied$' "$OUT"
}

# The compiled filter is cached under the state root, keyed by the whole
# profile; a cache file that doesn't match is ignored, never trusted.
test_seccomp_filter_cache() {
	cfg '.linux.seccomp = {"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13}]}'
	cfg '.root.readonly = false'
	set_args sh -c 'mkdir /x 2>&1 || true'
	run_ok rt run c1 </dev/null || return 1
	assert_match 'Permission denied' "$OUT" || return 1
	local f
	f=$(ls "$ROOT/.cache:seccomp/"*) || fail "no cache file" || return 1
	run_ok rt run c2 </dev/null || return 1
	assert_match 'Permission denied' "$OUT" || return 1
	# Same file name, other contents: recompiled, same behaviour.
	printf 'unirun seccomp cache 1\nsomething else entirely' >"$f"
	run_ok rt run c3 </dev/null || return 1
	assert_match 'Permission denied' "$OUT" || return 1
	cfg '.linux.seccomp.syscalls[0].errnoRet = 1'
	run_ok rt run c4 </dev/null || return 1
	assert_match 'Operation not permitted' "$OUT" || return 1
	assert_eq 2 "$(ls "$ROOT/.cache:seccomp" | wc -l)" "cache files for two profiles" || return 1
	run_ok rt list -q || return 1
	assert_eq "" "$OUT" "list shows no cache"
}

# tmpcopyup (podman --tmpfs): the tmpfs starts with what the directory held.
test_tmpfs_with_tmpcopyup() {
	mkdir -p "$BUNDLE/rootfs/data/sub"
	echo kept >"$BUNDLE/rootfs/data/file"
	chmod 0751 "$BUNDLE/rootfs/data/sub"
	chown 12:34 "$BUNDLE/rootfs/data/file"
	ln -s /etc/passwd "$BUNDLE/rootfs/data/link"
	cfg '.mounts += [{"destination": "/data", "type": "tmpfs", "source": "tmpfs", "options": ["tmpcopyup", "ro"]}]'
	set_args sh -c 'cat /data/file; stat -c "%a" /data/sub; stat -c "%u:%g" /data/file; readlink /data/link;
		grep " /data " /proc/mounts | cut -d" " -f3,4; touch /data/new 2>/dev/null || echo ro'
	run_ok rt run c1 </dev/null || return 1
	assert_match '^kept$' "$OUT" || return 1
	assert_match '^751$' "$OUT" || return 1
	assert_match '^12:34$' "$OUT" || return 1
	assert_match '^/etc/passwd$' "$OUT" || return 1
	assert_match '^tmpfs ro' "$OUT" || return 1
	assert_match '^ro$' "$OUT" || return 1
	cfg '.mounts[-1] = {"destination": "/data", "type": "bind", "source": "/tmp", "options": ["bind", "tmpcopyup"]}'
	assert_failed c2 'tmpcopyup is for tmpfs mounts' rt create c2
}

# personality, scheduler and nice, seen from inside.
test_personality_and_scheduler() {
	cfg '.linux.personality = {"domain": "LINUX32"} | .process.scheduler = {"policy": "SCHED_BATCH", "nice": 7}'
	set_args sh -c 'uname -m; cut -d" " -f19 /proc/self/stat; grep -E "^policy" /proc/self/sched'
	run_ok rt run c1 </dev/null || return 1
	assert_match '^i686$' "$OUT" "uname -m under LINUX32" || return 1
	assert_match '^7$' "$OUT" "nice" || return 1
	assert_match '^policy +: +3$' "$OUT" "SCHED_BATCH is policy 3"
}

# seccomp actions and what the container sees of its filter.
test_seccomp_actions_and_status() {
	cfg '.root.readonly = false'
	cfg '.linux.seccomp = {"defaultAction": "SCMP_ACT_ALLOW", "flags": ["SECCOMP_FILTER_FLAG_LOG"], "syscalls": [
		{"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_KILL_PROCESS"},
		{"names": ["rmdir"], "action": "SCMP_ACT_TRAP"},
		{"names": ["getcwd"], "action": "SCMP_ACT_LOG"},
		{"names": ["sethostname"], "action": "SCMP_ACT_ERRNO", "errnoRet": 38}]}'
	set_args sh -c 'grep -E "^Seccomp(_filters)?:" /proc/self/status; pwd; hostname x 2>&1; true'
	run_ok rt run c1 </dev/null || return 1
	assert_match '^Seccomp:	2$' "$OUT" || return 1
	assert_match '^Seccomp_filters:	1$' "$OUT" || return 1
	assert_match '^/$' "$OUT" "getcwd under SCMP_ACT_LOG" || return 1
	assert_match 'Function not implemented|not implemented' "$OUT" "errnoRet 38 (ENOSYS)" || return 1
	set_args mkdir /x
	run_rc 159 rt run c2 </dev/null || return 1
	set_args rmdir /tmp
	run_rc 159 rt run c3 </dev/null
}

# execCPUAffinity.final for exec, where the machine has two cpus.
test_exec_cpu_affinity() {
	[ "$(nproc)" -ge 2 ] || skip "needs two cpus"
	start_bg c1 || return 1
	echo '{"args": ["grep", "Cpus_allowed_list", "/proc/self/status"], "cwd": "/", "execCPUAffinity": {"final": "1"}}' >"$TMP/p.json"
	run_ok rt exec --process "$TMP/p.json" c1 || return 1
	assert_match 'Cpus_allowed_list:	1$' "$OUT"
}
