# The cgroup2 manager on the host's unified mount: controllers per level,
# cgroupsPath, update, events, device rules.

# The smallest huge page size (a 4 MiB limit rounds down to 0 with 1 GiB pages):
# hugepages-2048kB → 2MB, as the cgroup files name it.
hugetlb_size() {
	local kb
	kb=$(ls /sys/kernel/mm/hugepages 2>/dev/null | grep -oE "[0-9]+" | sort -n | head -n1)
	[ -n "$kb" ] || return 0
	if [ "$kb" -ge 1048576 ]; then echo "$((kb / 1048576))GB"; elif [ "$kb" -ge 1024 ]; then echo "$((kb / 1024))MB"; else echo "${kb}KB"; fi
}

test_hugetlb_limit_enables_only_hugetlb_level_by_level() {
	local size
	size=$(hugetlb_size)
	[ -n "$size" ] && grep -qw hugetlb "$CG2/cgroup.controllers" || skip "no hugetlb controller in $CG2"
	cfg ".linux.cgroupsPath = \"/unirun-t/$$/c1\" | .linux.resources.hugepageLimits = [{\"pageSize\": \"$size\", \"limit\": 4194304}]"
	start_bg c1 || return 1
	assert_eq 4194304 "$(cat "$CG2/unirun-t/$$/c1/hugetlb.$size.max")" || return 1
	assert_eq hugetlb "$(cat "$CG2/unirun-t/$$/cgroup.subtree_control")" || return 1
	assert_eq hugetlb "$(cat "$CG2/unirun-t/cgroup.subtree_control")" || return 1
	run_ok rt delete --force c1 || return 1
	[ ! -e "$CG2/unirun-t/$$" ] || fail "created levels left" || return 1
	[ ! -e "$CG2/unirun-t" ] || fail "created top level left"
}

test_absolute_cgroups_path_keeps_levels_it_did_not_make() {
	mkdir -p "$CG2/unirun-keep-$$"
	cfg ".linux.cgroupsPath = \"/unirun-keep-$$/inner/c1\""
	start_bg c1 || return 1
	assert_match "^0::/unirun-keep-$$/inner/c1\$" "$(grep ^0:: /proc/$(pid_of c1)/cgroup)" || return 1
	run_ok rt delete --force c1 || return 1
	[ ! -e "$CG2/unirun-keep-$$/inner" ] || fail "made level left" || return 1
	[ -d "$CG2/unirun-keep-$$" ] || fail "removed a cgroup unirun did not make" || return 1
	rmdir "$CG2/unirun-keep-$$"
}

test_relative_cgroups_path_is_below_our_own_cgroup() {
	cfg '.linux.cgroupsPath = "unirun-rel/c1"'
	start_bg c1 || return 1
	assert_eq "0::/unirun-rel/c1" "$(grep ^0:: /proc/$(pid_of c1)/cgroup)"
}

test_a_populated_existing_cgroup_is_refused() {
	start_bg c1 || return 1
	cfg '.linux.cgroupsPath = "/unirun/c1"'
	run_rc 1 rt create c2 </dev/null || return 1
	assert_match 'already holds processes' "$ERR" || return 1
	[ ! -e "$ROOT/c2" ] || fail "state of c2 left"
}

test_missing_controller_is_refused_and_nothing_left() {
	grep -qw pids "$CG2/cgroup.controllers" && skip "pids is available here"
	cfg '.linux.resources.pids = {"limit": 10}'
	assert_failed c1 'the pids controller is needed but not available in' rt create c1
}

test_update_replaces_the_device_program() {
	start_bg c1 || return 1
	run_ok rt exec c1 sh -c 'echo x > /dev/null && echo wrote' || return 1
	assert_eq wrote "$OUT" || return 1
	echo '{"devices": [{"allow": false, "access": "rwm"}]}' >"$TMP/r.json"
	run_ok rt update --resources "$TMP/r.json" c1 || return 1
	run_ok rt exec c1 sh -c 'echo x > /dev/null 2>&1 && echo wrote || echo denied' || return 1
	assert_eq denied "$OUT"
}

test_update_errors() {
	start_bg c1 || return 1
	run_rc 1 rt update --pids-limit abc c1 || return 1
	assert_match -- '--pids-limit: "abc" is not a number' "$ERR" || return 1
	echo '{"memory": {"kernel": 1}}' >"$TMP/r.json"
	run_rc 1 rt update --resources "$TMP/r.json" c1 || return 1
	assert_match 'memory.kernel: is a cgroup v1 setting' "$ERR" || return 1
	echo '{"pids": {"limit": "x"}}' >"$TMP/r.json"
	run_rc 1 rt update --resources "$TMP/r.json" c1 || return 1
	assert_match -- '--resources: pids.limit: expected an integer' "$ERR" || return 1
	run_rc 1 rt update --memory 1g nosuch || return 1
	assert_match 'does not exist' "$ERR"
}

test_events_stats_and_exit() {
	start_bg c1 || return 1
	run_ok rt events --stats c1 || return 1
	assert_eq stats "$(jq -r .type <<<"$OUT")" || return 1
	assert_eq c1 "$(jq -r .id <<<"$OUT")" || return 1
	[ "$(jq -r .data.cpu.usage.total <<<"$OUT")" -ge 0 ] || return 1
	rt events --interval 200ms c1 >"$TMP/ev" 2>&1 &
	local ep=$!
	sleep 0.5
	run_ok rt kill c1 KILL || return 1
	wait $ep || fail "events exited $?" || return 1
	assert_match '"type":"stats"' "$(cat "$TMP/ev")" || return 1
	assert_eq '{"type":"exit","id":"c1"}' "$(tail -n1 "$TMP/ev")"
}

test_events_errors() {
	run_rc 1 rt events --interval soon c1 || return 1
	assert_match -- '--interval: "soon"' "$ERR" || return 1
	run_rc 1 rt events nosuch || return 1
	assert_match 'does not exist' "$ERR"
}

test_userns_root_gets_its_cgroup_delegated() {
	chmod 755 "$TMP"
	chown -R 100000:100000 "$BUNDLE/rootfs"
	cfg '.linux.namespaces += [{"type": "user"}] | .linux.uidMappings = [{"containerID": 0, "hostID": 100000, "size": 65536}] | .linux.gidMappings = [{"containerID": 0, "hostID": 100000, "size": 65536}]'
	cfg '(.mounts[] | select(.type == "cgroup") | .options) |= map(select(. != "ro"))'
	start_bg c1 sh -c 'mkdir /sys/fs/cgroup/sub && echo $$ > /sys/fs/cgroup/sub/cgroup.procs && cat /proc/self/cgroup && exec sleep 1000' || return 1
	wait_for grep -q '^0::/sub$' "$TMP/c1.out" || { cat "$TMP/c1.out"; return 1; }
	local cg
	cg=$(cgroup_dir c1)
	assert_eq 100000:100000 "$(stat -c %u:%g "$cg" "$cg/cgroup.procs" "$cg/cgroup.subtree_control" | sort -u)" || return 1
	assert_eq 0:0 "$(stat -c %u:%g "$cg/cgroup.kill" "$cg/cgroup.freeze" "$(dirname "$cg")/cgroup.procs" | sort -u)" || return 1
	assert_eq 100000:100000 "$(stat -c %u:%g "$cg/sub")" || return 1
	run_ok rt delete --force c1 || return 1
	[ ! -e "$cg" ] || fail "cgroup left"
}

test_without_a_cgroup_namespace_nothing_is_delegated() {
	chmod 755 "$TMP"
	chown -R 100000:100000 "$BUNDLE/rootfs"
	cfg '.linux.namespaces += [{"type": "user"}] | .linux.uidMappings = [{"containerID": 0, "hostID": 100000, "size": 65536}] | .linux.gidMappings = [{"containerID": 0, "hostID": 100000, "size": 65536}]'
	cfg 'del(.linux.namespaces[] | select(.type == "cgroup"))'
	start_bg c1 || return 1
	assert_eq 0:0 "$(stat -c %u:%g "$(cgroup_dir c1)" "$(cgroup_dir c1)/cgroup.procs" | sort -u)"
}
