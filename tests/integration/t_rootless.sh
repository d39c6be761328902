# Rootless: an unprivileged user runs bundles with the same commands, with a
# single mapping of itself or with ranges through newuidmap/newgidmap.

source "$TOP/tests/integration/rootless.sh"

test_teardown() {
	local id
	for id in $(ls "$TMP/rlroot" 2>/dev/null); do
		[ "${id#.}" = "$id" ] && ru delete --force "$id" >/dev/null 2>&1 </dev/null
	done
	for id in $(ls "$ROOT" 2>/dev/null); do rt delete --force "$id" >/dev/null 2>&1 </dev/null; done
	rm -rf "$TMP"
}

test_rootless_lifecycle_with_a_single_mapping() {
	rootless_setup || return 1
	rl_args sh -c 'cat /proc/self/uid_map; id -u; cat /proc/self/setgroups'
	run_ok ru run r1 </dev/null || return 1
	assert_match "^ +0 +$RL_UID +1$" "$OUT" || return 1
	assert_match '^0$' "$OUT" || return 1
	assert_match '^deny$' "$OUT" || return 1
	assert_match 'runs without a cgroup of its own' "$ERR" || return 1
	rl_args sleep 1000
	ru run -d r2 </dev/null >/dev/null 2>&1 || fail "run -d as $RL_USER" || return 1
	run_ok ru state r2 || return 1
	assert_eq running "$(jq -r .status <<<"$OUT")" || return 1
	assert_eq "$RL_UID" "$(stat -c %u "/proc/$(jq -r .pid <<<"$OUT")")" "owner of the init" || return 1
	run_ok ru list -q || return 1
	assert_eq r2 "$OUT" || return 1
	run_ok ru exec r2 sh -c 'echo exec $(id -u)' || return 1
	assert_eq "exec 0" "$OUT" || return 1
	run_ok ru ps --format json r2 || return 1
	assert_eq 1 "$(jq length <<<"$OUT")" "ps of the container" || return 1
	run_rc 1 ru pause r2 || return 1
	assert_match 'no cgroup of its own' "$ERR" || return 1
	run_ok ru kill r2 KILL || return 1
	wait_for sh -c "runuser -u $RL_USER -- $UNIRUN --root $TMP/rlroot state r2 | grep -q stopped" || return 1
	run_ok ru delete r2 || return 1
	assert_eq "" "$(ls "$TMP/rlroot")" "state left"
}

test_rootless_files_made_inside_belong_to_the_user() {
	rootless_setup || return 1
	mkdir -p "$TMP/vol"
	chown "$RL_UID:$RL_GID" "$TMP/vol"
	rcfg ".mounts += [{\"destination\": \"/tmp\", \"type\": \"bind\", \"source\": \"$TMP/vol\", \"options\": [\"rbind\"]}]"
	rl_args sh -c 'touch /tmp/made && stat -c %u /tmp/made'
	run_ok ru run r1 </dev/null || return 1
	assert_eq 0 "$OUT" "owner inside" || return 1
	assert_eq "$RL_UID" "$(stat -c %u "$TMP/vol/made")" "owner outside"
}

test_rootless_ranges_through_newuidmap() {
	rootless_setup || return 1
	command -v newuidmap >/dev/null || skip "newuidmap is not installed"
	rcfg ".linux.uidMappings = [{\"containerID\": 0, \"hostID\": $RL_UID, \"size\": 1}, {\"containerID\": 1, \"hostID\": $RL_SUB, \"size\": 1000}]"
	rcfg ".linux.gidMappings = [{\"containerID\": 0, \"hostID\": $RL_GID, \"size\": 1}, {\"containerID\": 1, \"hostID\": $RL_SUBG, \"size\": 1000}]"
	mkdir -p "$TMP/vol"
	chown "$RL_UID:$RL_GID" "$TMP/vol"
	rcfg ".mounts += [{\"destination\": \"/tmp\", \"type\": \"bind\", \"source\": \"$TMP/vol\", \"options\": [\"rbind\"]}]"
	rcfg '.process.capabilities |= with_entries(.value += ["CAP_CHOWN"])'
	rl_args sh -c 'cat /proc/self/uid_map | wc -l; cat /proc/self/setgroups; touch /tmp/f && chown 5:5 /tmp/f && echo chowned'
	run_ok ru run r1 </dev/null || return 1
	assert_match '^2$' "$OUT" "uid_map lines" || return 1
	assert_match '^allow$' "$OUT" || return 1
	assert_match '^chowned$' "$OUT" || return 1
	assert_eq "$((RL_SUB + 4)):$((RL_SUBG + 4))" "$(stat -c %u:%g "$TMP/vol/f")" "owner outside of uid 5 inside"
}

test_rootless_refusals() {
	rootless_setup || return 1
	rcfg '.linux.resources = {"memory": {"limit": 33554432}, "pids": {"limit": 10}}'
	run_rc 1 ru create r1 </dev/null || return 1
	assert_match 'linux.resources needs the memory, pids controllers, but .* is not delegated to uid' "$ERR" || return 1
	assert_eq "" "$(ls "$TMP/rlroot")" "state left" || return 1
	rcfg 'del(.linux.resources) | .linux.uidMappings = [{"containerID": 0, "hostID": 0, "size": 1}, {"containerID": 1, "hostID": 1, "size": 1}]'
	run_rc 1 ru create r1 </dev/null || return 1
	assert_match 'linux.uidMappings: newuidmap refused the mapping' "$ERR" || return 1
	assert_eq "" "$(ls "$TMP/rlroot")" "state left"
}

test_rootless_state_lives_in_xdg_runtime_dir() {
	rootless_setup || return 1
	mkdir -p "$TMP/xdg"
	chown "$RL_UID:$RL_GID" "$TMP/xdg"
	rl_args sleep 1000
	(cd "$RL_BUNDLE" && runuser -u "$RL_USER" -- env XDG_RUNTIME_DIR="$TMP/xdg" "$UNIRUN" run -d r1 </dev/null >/dev/null 2>&1) ||
		fail "run -d" || return 1
	[ -f "$TMP/xdg/unirun/r1/state.json" ] || fail "no state in \$XDG_RUNTIME_DIR/unirun" || return 1
	(cd "$RL_BUNDLE" && runuser -u "$RL_USER" -- env XDG_RUNTIME_DIR="$TMP/xdg" "$UNIRUN" delete -f r1) ||
		fail "delete" || return 1
	[ ! -e "$TMP/xdg/unirun/r1" ] || fail "state left"
}

test_rootless_in_a_delegated_cgroup() {
	rootless_setup || return 1
	local d=$CG2/rl$$
	mkdir "$d"
	chown "$RL_UID:$RL_GID" "$d" "$d/cgroup.procs" "$d/cgroup.subtree_control" "$d/cgroup.threads"
	rl_args cat /proc/self/cgroup
	rcfg 'del(.linux.namespaces[] | select(.type == "cgroup"))'
	# Put the user's unirun in the delegated cgroup, as systemd's Delegate=yes would.
	run_ok sh -c "echo \$\$ > $d/cgroup.procs && cd $RL_BUNDLE && exec setpriv --reuid=$RL_UID --regid=$RL_GID --clear-groups $UNIRUN --root $TMP/rlroot run r1" </dev/null
	local r=$?
	[ $r = 0 ] && { assert_match "^0::/rl$$/unirun/r1\$" "$OUT" || r=1; }
	[ $r = 0 ] && { assert_no_match 'without a cgroup' "$ERR" || r=1; }
	# With a cgroup of its own, pause and resume work rootless too.
	rl_args sleep 1000
	if [ $r = 0 ]; then
		sh -c "echo \$\$ > $d/cgroup.procs && cd $RL_BUNDLE && exec setpriv --reuid=$RL_UID --regid=$RL_GID --clear-groups $UNIRUN --root $TMP/rlroot run -d r2" </dev/null >/dev/null 2>&1 ||
			fail "run -d in the delegated cgroup" || r=1
	fi
	[ $r = 0 ] && { run_ok ru pause r2 || r=1; }
	[ $r = 0 ] && { assert_eq paused "$(ru state r2 | jq -r .status)" || r=1; }
	[ $r = 0 ] && { assert_match 'frozen 1' "$(cat "$d/unirun/r2/cgroup.events")" || r=1; }
	[ $r = 0 ] && { run_ok ru resume r2 || r=1; }
	[ $r = 0 ] && { run_ok ru delete --force r2 || r=1; }
	rmdir "$d/unirun" "$d/unirun-self" "$d" 2>/dev/null
	[ ! -e "$d" ] || fail "cgroups left: $(find "$d" -type d)" || r=1
	return $r
}
