# The cgroup2 manager with every controller: run only in the pure-cgroup2 guest
# (tests/vm/run.sh), sourced by tests/integration/run.sh. Each test puts its
# container under /g$$/… so it can check exactly which controllers unirun
# enabled at each level it made, and that it removed them all afterwards.

guest_only() {
	[ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers ||
		skip "needs a pure cgroup2 hierarchy with every controller (tests/vm/run.sh)"
}

# in_group PATH RESOURCES_JSON: the container's cgroupsPath and resources.
in_group() {
	cfg ".linux.cgroupsPath = \"$1\" | .linux.resources = $2 | .root.readonly = false"
}

# assert_levels CONTROLLERS PATH...: subtree_control of each level.
assert_levels() {
	local want=$1 p
	shift
	for p in "$@"; do
		assert_eq "$want" "$(cat "$CG2$p/cgroup.subtree_control")" "subtree_control of $p" || return 1
	done
}

assert_removed() { # the top level unirun made for this test
	[ ! -e "$CG2/g$$" ] || fail "cgroup $CG2/g$$ left behind: $(find "$CG2/g$$" -type d)"
}

test_memory_files_oom_kill_and_the_oom_event() {
	guest_only
	in_group "/g$$/c1" '{"memory": {"limit": 16777216, "reservation": 8388608, "swap": 16777216}}'
	start_bg c1 sh -c 'sleep 1; dd if=/dev/zero of=/dev/shm/fill bs=1M count=48; sleep 1000' || return 1
	local cg=$CG2/g$$/c1
	assert_eq 16777216 "$(cat "$cg/memory.max")" memory.max || return 1
	assert_eq 8388608 "$(cat "$cg/memory.low")" memory.low || return 1
	assert_eq 0 "$(cat "$cg/memory.swap.max")" "memory.swap.max (swap - limit)" || return 1
	assert_levels memory "/g$$" || return 1
	assert_levels "" "/g$$/c1" || return 1
	timeout 20 "$UNIRUN" --root "$ROOT" events --interval 10s c1 >"$TMP/ev" 2>&1 &
	local ep=$!
	wait_for grep -q '"type":"oom"' "$TMP/ev" || { cat "$TMP/ev"; return 1; }
	kill $ep
	[ "$(grep -E '^oom_kill ' "$cg/memory.events" | cut -d' ' -f2)" -ge 1 ] || fail "no oom_kill in memory.events" || return 1
	run_ok rt events --stats c1 || return 1
	[ "$(jq .data.memory.usage.limit <<<"$OUT")" = 16777216 ] || fail "stats limit: $OUT" || return 1
	[ "$(jq .data.memory.usage.max <<<"$OUT")" -gt 8000000 ] || fail "stats peak: $OUT" || return 1
	[ "$(jq .data.memory.usage.usage <<<"$OUT")" -gt 0 ] || fail "stats usage: $OUT" || return 1
	[ "$(jq .data.memory.oomKill <<<"$OUT")" -ge 1 ] || fail "stats oomKill: $OUT" || return 1
	assert_eq null "$(jq -c .data.pids <<<"$OUT")" "pids stats without the pids controller" || return 1
	# checkBeforeUpdate: a limit below what is in use is refused, and kept.
	echo '{"memory": {"limit": 1048576, "checkBeforeUpdate": true}}' >"$TMP/r.json"
	run_rc 1 rt update --resources "$TMP/r.json" c1 || return 1
	assert_match 'checkBeforeUpdate' "$ERR" || return 1
	assert_eq 16777216 "$(cat "$cg/memory.max")" "memory.max after a refused update" || return 1
	run_ok rt delete --force c1 || return 1
	assert_removed
}

test_pids_limit_stops_a_fork_bomb_and_kill_all_ends_it() {
	guest_only
	in_group "/g$$/c1" '{"pids": {"limit": 16}}'
	start_bg c1 || return 1
	local cg=$CG2/g$$/c1
	rt exec -d c1 sh -c 'b() { b & b & wait; }; b' </dev/null >"$TMP/bomb" 2>&1 || fail "exec of the bomb" || return 1
	assert_eq 16 "$(cat "$cg/pids.max")" pids.max || return 1
	assert_levels pids "/g$$" || return 1
	wait_for grep -qE '^max [1-9]' "$cg/pids.events" || return 1
	[ "$(cat "$cg/pids.current")" -le 16 ] || fail "pids.current above the limit" || return 1
	run_ok rt kill --all c1 KILL || return 1
	wait_for grep -q 'populated 0' "$cg/cgroup.events" || return 1
	run_ok rt delete c1 || return 1
	assert_removed
}

test_cpu_files_and_throttling() {
	guest_only
	in_group "/g$$/c1" '{"cpu": {"shares": 1024, "quota": 10000, "period": 100000, "burst": 1000, "cpus": "1", "mems": "0", "idle": 0}}'
	start_bg c1 sh -c 'grep Cpus_allowed_list /proc/self/status > /tmp/cpus; while :; do :; done' || return 1
	local cg=$CG2/g$$/c1
	assert_eq 100 "$(cat "$cg/cpu.weight")" "cpu.weight of shares 1024" || return 1
	assert_eq "10000 100000" "$(cat "$cg/cpu.max")" cpu.max || return 1
	assert_eq 1000 "$(cat "$cg/cpu.max.burst")" cpu.max.burst || return 1
	assert_eq 1 "$(cat "$cg/cpuset.cpus")" cpuset.cpus || return 1
	assert_eq 0 "$(cat "$cg/cpuset.mems")" cpuset.mems || return 1
	assert_levels "cpuset cpu" "/g$$" || return 1
	wait_for rt exec c1 test -s /tmp/cpus || return 1
	run_ok rt exec c1 cat /tmp/cpus || return 1
	assert_match '1$' "$OUT" "cpus allowed in the container" || return 1
	wait_for grep -qE '^nr_throttled [1-9]' "$cg/cpu.stat" || return 1
	run_ok rt delete --force c1 || return 1
	assert_removed
}

test_io_weight_and_a_read_limit_on_a_real_disk() {
	guest_only
	[ -b /dev/vda ] || skip "no /dev/vda in this guest"
	local maj min
	maj=$((0x$(stat -c %t /dev/vda))) min=$((0x$(stat -c %T /dev/vda)))
	in_group "/g$$/c1" "{\"blockIO\": {\"weight\": 300, \"throttleReadBpsDevice\": [{\"major\": $maj, \"minor\": $min, \"rate\": 1048576}]}}"
	cfg ".linux.devices = [{\"path\": \"/dev/vda\", \"type\": \"b\", \"major\": $maj, \"minor\": $min}]"
	cfg ".linux.resources.devices += [{\"allow\": true, \"type\": \"b\", \"major\": $maj, \"minor\": $min, \"access\": \"r\"}]"
	start_bg c1 || return 1
	local cg=$CG2/g$$/c1
	assert_match "^$maj:$min rbps=1048576 wbps=max" "$(cat "$cg/io.max")" io.max || return 1
	assert_match '^default 2930$' "$(cat "$cg/io.weight")" "io.weight of blkio weight 300" || return 1
	assert_levels io "/g$$" || return 1
	local t0 t1
	t0=$(date +%s%N)
	run_ok rt exec c1 dd if=/dev/vda of=/dev/null bs=64k count=64 iflag=direct || return 1
	t1=$(date +%s%N)
	[ $(((t1 - t0) / 1000000)) -ge 2000 ] || fail "4 MiB at 1 MiB/s took $(((t1 - t0) / 1000000)) ms" || return 1
	run_ok rt delete --force c1 || return 1
	assert_removed
}

test_update_enables_what_it_needs_and_nothing_else() {
	guest_only
	in_group "/g$$/c1" '{}'
	start_bg c1 || return 1
	assert_levels "" "/g$$" || return 1
	run_ok rt update --memory 33554432 --memory-swap 67108864 --pids-limit 50 --cpu-shares 2 \
		--cpu-quota 20000 --cpu-period 50000 c1 || return 1
	local cg=$CG2/g$$/c1
	assert_levels "cpu memory pids" "/g$$" || return 1
	run_ok rt update --memory-reservation 16777216 --cpuset-cpus 1 --cpuset-mems 0 --blkio-weight 500 c1 || return 1
	assert_levels "cpuset cpu io memory pids" "/g$$" || return 1
	assert_eq 16777216 "$(cat "$cg/memory.low")" "memory.low of --memory-reservation" || return 1
	assert_eq 1 "$(cat "$cg/cpuset.cpus")" "cpuset.cpus" || return 1
	assert_eq 0 "$(cat "$cg/cpuset.mems")" "cpuset.mems" || return 1
	assert_match '^default 4950$' "$(cat "$cg/io.weight")" "io.weight of --blkio-weight 500" || return 1
	assert_eq 33554432 "$(cat "$cg/memory.max")" memory.max || return 1
	assert_eq 33554432 "$(cat "$cg/memory.swap.max")" memory.swap.max || return 1
	assert_eq 50 "$(cat "$cg/pids.max")" pids.max || return 1
	assert_eq 1 "$(cat "$cg/cpu.weight")" "cpu.weight of shares 2" || return 1
	assert_eq "20000 50000" "$(cat "$cg/cpu.max")" cpu.max || return 1
	# --pids-limit 0 is "not set", as for runc; 0 itself through unified.
	run_ok rt update --pids-limit 0 c1 || return 1
	assert_eq 50 "$(cat "$cg/pids.max")" "pids.max after --pids-limit 0" || return 1
	echo '{"unified": {"pids.max": "0"}}' >"$TMP/r.json"
	run_ok rt update --resources "$TMP/r.json" c1 || return 1
	assert_eq 0 "$(cat "$cg/pids.max")" "pids.max 0 is a limit" || return 1
	run_rc 1 rt exec c1 true || return 1
	echo '{"unified": {"memory.high": "30000000"}}' >"$TMP/r.json"
	run_ok rt update --resources "$TMP/r.json" c1 || return 1
	assert_eq 29999104 "$(cat "$cg/memory.high")" memory.high || return 1
	run_ok rt delete --force c1 || return 1
	assert_removed
}

test_unified_keys_and_their_refusals() {
	guest_only
	in_group "/g$$/c1" '{"unified": {"pids.max": "7", "memory.high": "max"}}'
	start_bg c1 || return 1
	assert_eq 7 "$(cat "$CG2/g$$/c1/pids.max")" || return 1
	assert_levels "memory pids" "/g$$" || return 1
	run_ok rt delete --force c1 || return 1
	assert_removed || return 1
	in_group "/g$$/c2" '{"unified": {"pids.nosuch": "1"}}'
	assert_failed c2 'linux.resources.unified: pids.nosuch' rt create c2 || return 1
	assert_removed || return 1
	in_group "/g$$/c2" '{"memory": {"kernel": 1}}'
	assert_failed c2 'linux.resources.memory.kernel: is a cgroup v1 setting' rt create c2 || return 1
	in_group "/g$$/c2" '{"memory": {"swappiness": 10}}'
	assert_failed c2 'linux.resources.memory.swappiness' rt create c2 || return 1
	in_group "/g$$/c2" '{"cpu": {"realtimeRuntime": 10}}'
	assert_failed c2 'linux.resources.cpu.realtimeRuntime' rt create c2 || return 1
	in_group "/g$$/c2" '{"memory": {"limit": 4194304, "swap": 1048576}}'
	assert_failed c2 'linux.resources.memory.swap' rt create c2 || return 1
	assert_removed
}

test_a_parent_holding_processes_is_named() {
	guest_only
	# As an administrator delegating /busy$$ would: the controllers available in it.
	echo "+memory +pids" >"$CG2/cgroup.subtree_control"
	mkdir -p "$CG2/busy$$"
	sleep 1000 &
	local sp=$! ctl r=0
	echo $sp >"$CG2/busy$$/cgroup.procs"
	# memory is a domain controller (the kernel says EBUSY), pids a threaded
	# one (the kernel would allow it and then refuse the container's cgroup).
	for ctl in '{"memory": {"limit": 8388608}}' '{"pids": {"limit": 10}}'; do
		in_group "/busy$$/c1" "$ctl"
		run_rc 1 rt create c1 </dev/null || r=1
		assert_match "cannot enable controllers in $CG2/busy$$: it holds processes \\($sp\\)" "$ERR" || r=1
		assert_nothing_left c1 || r=1
		[ ! -e "$CG2/busy$$/c1" ] || fail "cgroup c1 left" || r=1
		assert_eq "" "$(cat "$CG2/busy$$/cgroup.subtree_control")" || r=1
	done
	kill $sp
	wait $sp 2>/dev/null
	rmdir "$CG2/busy$$"
	return $r
}

test_unirun_alone_in_its_cgroup_steps_into_a_leaf() {
	guest_only
	echo "+memory" >"$CG2/cgroup.subtree_control"
	mkdir -p "$CG2/self$$"
	cfg '.linux.resources = {"memory": {"limit": 33554432}} | .process.args = ["cat", "/proc/self/cgroup"]'
	cfg 'del(.linux.namespaces[] | select(.type == "cgroup"))'
	# unirun's cgroup is /self$$, so its containers go to /self$$/unirun/ID.
	run_ok sh -c "echo \$\$ > $CG2/self$$/cgroup.procs && exec $UNIRUN --root $ROOT run c1" </dev/null || return 1
	assert_eq "0::/self$$/unirun/c1" "$OUT" || return 1
	assert_eq memory "$(cat "$CG2/self$$/cgroup.subtree_control")" || return 1
	[ -d "$CG2/self$$/unirun-self" ] || fail "no leaf for unirun" || return 1
	assert_eq "" "$(cat "$CG2/self$$/unirun-self/cgroup.procs")" || return 1
	rmdir "$CG2/self$$/unirun-self" "$CG2/self$$/unirun" "$CG2/self$$"
}

test_pause_and_resume_a_forking_container() {
	guest_only
	in_group "/g$$/c1" '{"pids": {"limit": 100}}'
	start_bg c1 sh -c 'i=0; while :; do i=$((i+1)); sh -c "echo $i > /tmp/n.new && mv /tmp/n.new /tmp/n"; done' || return 1
	local cg=$CG2/g$$/c1 a b
	wait_for rt exec c1 test -s /tmp/n || return 1
	run_ok rt pause c1 || return 1
	assert_eq paused "$(status_of c1)" || return 1
	assert_match 'frozen 1' "$(cat "$cg/cgroup.events")" || return 1
	a=$(cat "/proc/$(pid_of c1)/root/tmp/n")
	sleep 1
	b=$(cat "/proc/$(pid_of c1)/root/tmp/n")
	assert_eq "$a" "$b" "counter while paused" || return 1
	run_ok rt resume c1 || return 1
	assert_eq running "$(status_of c1)" || return 1
	wait_for sh -c "[ \$(cat /proc/$(pid_of c1)/root/tmp/n) -gt $b ]" || return 1
	run_ok rt delete --force c1 || return 1
	assert_removed
}

test_delete_removes_cgroups_the_container_made_itself() {
	guest_only
	in_group "/g$$/c1" '{"pids": {"limit": 100}}'
	cfg '(.mounts[] | select(.type == "cgroup") | .options) |= map(select(. != "ro"))'
	start_bg c1 sh -c 'mkdir -p /sys/fs/cgroup/leaf/deeper /sys/fs/cgroup/init
		echo $$ > /sys/fs/cgroup/init/cgroup.procs
		sleep 1000 &
		echo $! > /sys/fs/cgroup/leaf/deeper/cgroup.procs
		touch /tmp/ready
		wait' || return 1
	wait_for rt exec c1 test -e /tmp/ready || { cat "$TMP/c1.out"; return 1; }
	[ -d "$CG2/g$$/c1/leaf/deeper" ] || fail "the container could not make its own cgroups" || return 1
	assert_eq "0::/leaf/deeper" "$(rt exec c1 sh -c 'cat /proc/$(pidof sleep)/cgroup')" || return 1
	# Its own cgroup now gives pids to its children: exec joins the init's leaf.
	run_ok rt exec c1 sh -c 'echo $$ > /sys/fs/cgroup/init/cgroup.procs && echo +pids > /sys/fs/cgroup/cgroup.subtree_control' || return 1
	assert_eq pids "$(cat "$CG2/g$$/c1/cgroup.subtree_control")" || return 1
	run_ok rt exec c1 cat /proc/self/cgroup || return 1
	assert_eq "0::/init" "$OUT" "exec into a cgroup with children" || return 1
	run_ok rt delete --force c1 || return 1
	assert_removed
}

# A snapshot of every cgroup outside DIR: its path and subtree_control.
outside() {
	find "$CG2" -name cgroup.subtree_control -not -path "$1/*" | sort | while read -r f; do
		echo "$f: $(cat "$f")"
	done
}

test_writes_stay_below_the_delegation_boundary() {
	guest_only
	local d=$CG2/deleg$$ before
	echo "+memory +pids" >"$CG2/cgroup.subtree_control"
	echo "-io" >"$CG2/cgroup.subtree_control" || fail "could not take io from the root" || return 1
	mkdir "$d"
	before=$(outside "$d")
	in_group "/deleg$$/a/b/c1" '{"memory": {"limit": 33554432}, "pids": {"limit": 20}}'
	start_bg c1 || return 1
	assert_levels "memory pids" "/deleg$$" "/deleg$$/a" "/deleg$$/a/b" || return 1
	assert_levels "" "/deleg$$/a/b/c1" || return 1
	assert_eq "$before" "$(outside "$d")" "cgroups outside the boundary" || return 1
	run_ok rt delete --force c1 || return 1
	assert_eq "" "$(ls -d "$d"/*/ 2>/dev/null)" "levels left below the boundary" || return 1
	assert_eq "memory pids" "$(cat "$d/cgroup.subtree_control")" "the boundary keeps its controllers" || return 1
	# What the boundary was not given can't be had.
	in_group "/deleg$$/a/c2" '{"blockIO": {"weight": 100}}'
	assert_failed c2 "the io controller is needed but not available in $d" rt create c2 || return 1
	assert_eq "$before" "$(outside "$d")" "cgroups outside the boundary" || return 1
	echo "-memory -pids" >"$d/cgroup.subtree_control"
	rmdir "$d"
}
