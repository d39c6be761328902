# Bad input: each malformed config or flag fails with status 1, a message that
# names the JSON path or flag, and nothing left behind.

# bad_config JQ_FILTER REGEX: the filter breaks config.json; create must refuse.
bad_config() {
	cfg "$1" || return 1
	assert_failed c1 "$2" rt create c1
}

test_config_not_json() {
	echo '{"ociVersion": ' >"$BUNDLE/config.json"
	assert_failed c1 'config.json: not valid JSON' rt create c1
}
test_config_top_level_array() {
	echo '[]' >"$BUNDLE/config.json"
	assert_failed c1 'expected an object' rt create c1
}
test_config_missing_file() {
	rm "$BUNDLE/config.json"
	assert_failed c1 'config.json: No such file' rt create c1
}
test_missing_oci_version() { bad_config 'del(.ociVersion)' 'config.json: ociVersion: required but missing'; }
test_oci_version_2() { bad_config '.ociVersion = "2.0.0"' 'ociVersion: unsupported version "2.0.0"'; }
test_missing_process() { bad_config 'del(.process)' 'config.json: process: required but missing'; }
test_args_missing() { bad_config 'del(.process.args)' 'process.args: required but missing'; }
test_args_empty() { bad_config '.process.args = []' 'process.args: must not be empty'; }
test_args_not_array() { bad_config '.process.args = "sh"' 'process.args: expected an array'; }
test_args_element_not_string() { bad_config '.process.args = ["sh", 1]' 'config.json: process.args\[1\]: expected a string'; }
test_cwd_relative() { bad_config '.process.cwd = "tmp"' 'process.cwd: must be an absolute path'; }
test_uid_negative() { bad_config '.process.user.uid = -1' 'process.user.uid: out of range'; }
test_uid_string() { bad_config '.process.user.uid = "0"' 'process.user.uid: expected an integer'; }
test_env_not_string() { bad_config '.process.env = [1]' 'process.env\[0\]: expected a string'; }
test_rlimit_unknown() { bad_config '.process.rlimits[0].type = "RLIMIT_FOO"' 'process.rlimits\[0\].type: unknown rlimit'; }
test_capability_unknown() { bad_config '.process.capabilities.bounding += ["CAP_BOGUS"]' 'process.capabilities.bounding\[3\]: unknown capability'; }
test_oom_score_adj_out_of_range() { bad_config '.process.oomScoreAdj = 5000' 'process.oomScoreAdj: out of range'; }
test_scheduler_policy_unknown() { bad_config '.process.scheduler = {"policy": "SCHED_BOGUS"}' 'process.scheduler.policy: unknown'; }
test_apparmor_refused() { bad_config '.process.apparmorProfile = "docker-default"' 'process.apparmorProfile: unirun does not apply AppArmor'; }
test_selinux_refused() { bad_config '.process.selinuxLabel = "system_u:system_r:container_t:s0"' 'process.selinuxLabel'; }
test_root_missing() { bad_config 'del(.root)' 'config.json: root: required but missing'; }
test_root_path_missing() { bad_config '.root = {}' 'root.path: required but missing'; }
test_root_path_nonexistent() { bad_config '.root.path = "nope"' 'root.path .*nope'; }
test_mount_destination_missing() { bad_config '.mounts[0] |= del(.destination)' 'mounts\[0\].destination: required but missing'; }
test_mount_destination_relative() { bad_config '.mounts[0].destination = "proc"' 'mounts\[0\].destination: must be an absolute path'; }
test_mount_options_not_array() { bad_config '.mounts[1].options = "ro"' 'mounts\[1\].options: expected an array'; }
test_mount_type_unknown() { bad_config '.mounts += [{"destination": "/x", "type": "nosuchfs", "source": "x"}]' 'mounts\[[0-9]+\] \(/x\): unknown filesystem type "nosuchfs"'; }
test_mount_bind_source_missing() { bad_config '.mounts += [{"destination": "/x", "type": "bind", "source": "/nonexistent", "options": ["bind"]}]' 'mounts\[[0-9]+\] \(/x\).*/nonexistent'; }
test_namespace_unknown() { bad_config '.linux.namespaces += [{"type": "foo"}]' 'linux.namespaces\[[0-9]+\].type: unknown namespace "foo"'; }
test_namespace_duplicate() { bad_config '.linux.namespaces += [{"type": "pid"}]' 'duplicate namespace "pid"'; }
test_namespace_path_missing() { bad_config '(.linux.namespaces[] | select(.type == "network")) .path = "/nonexistent/ns"' 'linux.namespaces\[[0-9]+\].path /nonexistent/ns'; }
test_no_mount_namespace() { bad_config 'del(.linux.namespaces[] | select(.type == "mount"))' 'a mount namespace is required'; }
test_uid_mappings_without_userns() { bad_config '.linux.uidMappings = [{"containerID": 0, "hostID": 1000, "size": 1}]' 'linux.uidMappings: mappings need a user namespace'; }
test_device_type_unknown() { bad_config '.linux.devices = [{"type": "x", "path": "/dev/x", "major": 1, "minor": 1}]' 'linux.devices\[0\].type: unknown device type'; }
test_device_path_relative() { bad_config '.linux.devices = [{"type": "c", "path": "dev/x", "major": 1, "minor": 1}]' 'linux.devices\[0\].path: must be an absolute path'; }
test_kernel_memory_refused() { bad_config '.linux.resources.memory = {"kernel": 1048576}' 'linux.resources.memory.kernel: is a cgroup v1 setting'; }
test_swappiness_refused() { bad_config '.linux.resources.memory = {"swappiness": 10}' 'linux.resources.memory.swappiness'; }
test_realtime_cpu_refused() { bad_config '.linux.resources.cpu = {"realtimeRuntime": 1000}' 'linux.resources.cpu.realtimeRuntime'; }
test_net_cls_refused() { bad_config '.linux.resources.network = {"classID": 1}' 'linux.resources.network: net_cls'; }
test_missing_controller_refused() { bad_config '.linux.resources.memory = {"limit": 1048576}' 'the memory controller is needed but not available'; }
test_sysctl_not_namespaced() { bad_config '.linux.sysctl = {"kernel.panic": "1"}' 'linux.sysctl: "kernel.panic" is not namespaced'; }
test_sysctl_without_its_namespace() { bad_config 'del(.linux.namespaces[] | select(.type == "network")) | .linux.sysctl = {"net.ipv4.ip_forward": "1"}' 'needs a new network namespace'; }
test_propagation_unknown() { bad_config '.linux.rootfsPropagation = "bogus"' 'linux.rootfsPropagation: unknown propagation "bogus"'; }
test_hook_path_relative() { bad_config '.hooks = {"prestart": [{"path": "true"}]}' 'hooks.prestart\[0\].path: must be an absolute path'; }
test_intel_rdt_refused() { bad_config '.linux.intelRdt = {"closID": "x"}' 'linux.intelRdt'; }
test_time_offsets_without_timens() { bad_config '.linux.timeOffsets = {"monotonic": {"secs": 1}}' 'linux.timeOffsets: offsets need a new time namespace'; }
test_systemd_cgroups_path() { bad_config '.linux.cgroupsPath = "system.slice:unirun:c1"' 'linux.cgroupsPath: .* systemd'; }
test_seccomp_action_unknown() { bad_config '.linux.seccomp = {"defaultAction": "SCMP_ACT_FOO"}' 'linux.seccomp.defaultAction: unknown action'; }
test_executable_not_found() { bad_config '.process.args = ["nosuchprogram"]' 'process.args\[0\]: "nosuchprogram" not found'; }
test_terminal_without_console_socket() { bad_config '.process.terminal = true' 'process.terminal is true: --console-socket is required'; }

test_bad_ids() {
	local id
	for id in "../x" "a/b" "." ".."; do
		run_rc 1 rt create "$id" </dev/null || return 1
		assert_match 'invalid container id' "$ERR" || return 1
	done
	run_rc 1 rt create "" </dev/null || return 1
	assert_match 'must not be empty' "$ERR" || return 1
	[ -z "$(ls "$ROOT" 2>/dev/null)" ] || fail "state left: $(ls "$ROOT")"
}

test_bad_flags() {
	run_rc 1 rt create --bogus c1 || return 1
	assert_match 'unknown option' "$ERR" || return 1
	run_rc 1 rt create || return 1
	assert_match 'a container id is required' "$ERR" || return 1
	run_rc 1 rt create --preserve-fds abc c1 || return 1
	assert_match -- '--preserve-fds: "abc"' "$ERR" || return 1
	run_rc 1 "$UNIRUN" --log-format xml --root "$ROOT" list || return 1
	assert_match -- '--log-format: "xml"' "$ERR" || return 1
	run_rc 1 "$UNIRUN" --bogus list || return 1
	run_rc 1 "$UNIRUN" --systemd-cgroup --root "$ROOT" list || return 1
	assert_match -- '--systemd-cgroup' "$ERR" || return 1
	run_rc 1 "$UNIRUN" nosuchcommand || return 1
	assert_match 'unknown command "nosuchcommand"' "$ERR" || return 1
	run_rc 1 rt list --format yaml || return 1
	assert_match -- '--format: "yaml"' "$ERR" || return 1
	assert_nothing_left c1
}

test_bad_flag_values_leave_nothing() {
	assert_failed c1 '--bundle /nonexistent' rt create --bundle /nonexistent c1 || return 1
	set_args true
	assert_failed c1 '--pid-file /nonexistent/dir/pid' rt create --pid-file /nonexistent/dir/pid c1 || return 1
	assert_failed c1 '--console-socket given but process.terminal is false' rt create --console-socket /tmp/x.sock c1
}

test_commands_on_missing_containers() {
	local cmd
	for cmd in start delete kill state pause resume ps; do
		run_rc 1 rt $cmd nosuch || return 1
		assert_match 'container "nosuch" does not exist' "$ERR" "$cmd" || return 1
	done
}

test_kill_with_a_bad_signal() {
	start_bg c1 || return 1
	run_rc 1 rt kill c1 SIGFOO || return 1
	assert_match 'unknown signal "SIGFOO"' "$ERR" || return 1
	run_rc 1 rt kill c1 99 || return 1
	assert_eq running "$(status_of c1)"
}
