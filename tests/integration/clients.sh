# Helpers for the tests that drive unirun through real clients: podman
# (t_podman.sh) and containerd (t_containerd.sh), on the host and in the
# cgroup2 guest (tests/vm/t_clients.sh).


podman_setup() {
	command -v podman >/dev/null || skip "podman is not installed (tests/deps.sh installs it)"
	PM_ROOT=$TMP/podman
	import_image || return 1
}

# pm ARGS...: podman on the test's private store, with unirun as runtime.
pm() {
	podman --root "$PM_ROOT/root" --runroot "$PM_ROOT/run" --storage-driver overlay \
		--cgroup-manager cgroupfs --events-backend file --runtime "$UNIRUN" "$@"
}

# Flags for every container: no network, conmon outside cgroups (on a hybrid
# host podman would otherwise write cgroup v1 for it), and limits this
# machine can grant without CAP_SYS_RESOURCE.
PM_RUN=()
pm_run_flags() {
	local nofile nproc
	nofile=$(ulimit -Hn) nproc=$(ulimit -Hu)
	[ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ] && nproc=32768
	PM_RUN=(--network none --ulimit "nofile=$nofile:$nofile" --ulimit "nproc=$nproc:$nproc")
	if [ "$(stat -fc %T /sys/fs/cgroup)" != cgroup2fs ]; then
		PM_RUN+=(--cgroups no-conmon --pids-limit 0)
	fi
}

import_image() {
	[ -s "$TOP/tests/.cache/rootfs.tar" ] || fail "no cached rootfs tarball" || return 1
	pm import -q "$TOP/tests/.cache/rootfs.tar" localhost/busybox:unirun >/dev/null 2>"$TMP/import.err" ||
		fail "podman import: $(cat "$TMP/import.err")" || return 1
	pm_run_flags
}

podman_teardown() {
	[ -n "${PM_ROOT:-}" ] && [ -d "$PM_ROOT" ] && pm system reset -f >/dev/null 2>&1
	# podman's own cgroups for conmon (made only where it may, on cgroup2).
	rmdir "$CG2/libpod_parent/conmon" "$CG2/libpod_parent" 2>/dev/null
	return 0
}




ctd_setup() {
	command -v containerd >/dev/null && command -v ctr >/dev/null ||
		skip "containerd is not installed (tests/deps.sh installs it)"
	CTD=$TMP/ctd
	CTD_NS=unirun-$$
	mkdir -p "$CTD"
	cat >"$CTD/config.toml" <<-EOT
		version = 2
		root = "$CTD/root"
		state = "$CTD/state"
		disabled_plugins = ["io.containerd.grpc.v1.cri"]
		[grpc]
		  address = "$CTD/sock"
	EOT
	containerd --config "$CTD/config.toml" >"$CTD/log" 2>&1 &
	CTD_PID=$!
	wait_for test -S "$CTD/sock" || { cat "$CTD/log"; return 1; }
	oci_image "$CTD/img.tar" || return 1
	c images import "$CTD/img.tar" >/dev/null || fail "ctr images import" || return 1
}

c() { ctr -a "$CTD/sock" -n "$CTD_NS" "$@"; }

# An OCI image archive of the cached busybox rootfs, made by hand.
oci_image() {
	local out=$1 d=$TMP/oci L C M
	mkdir -p "$d/blobs/sha256"
	cp "$TOP/tests/.cache/rootfs.tar" "$d/layer"
	L=$(sha256sum "$d/layer" | cut -d' ' -f1)
	mv "$d/layer" "$d/blobs/sha256/$L"
	jq -cn --arg l "sha256:$L" '{architecture: "amd64", os: "linux", rootfs: {type: "layers", diff_ids: [$l]},
		config: {Cmd: ["sh"], Env: ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]}}' >"$d/c"
	C=$(sha256sum "$d/c" | cut -d' ' -f1)
	jq -cn --arg c "sha256:$C" --argjson cs "$(stat -c %s "$d/c")" --arg l "sha256:$L" \
		--argjson ls "$(stat -c %s "$d/blobs/sha256/$L")" \
		'{schemaVersion: 2, mediaType: "application/vnd.oci.image.manifest.v1+json",
		  config: {mediaType: "application/vnd.oci.image.config.v1+json", digest: $c, size: $cs},
		  layers: [{mediaType: "application/vnd.oci.image.layer.v1.tar", digest: $l, size: $ls}]}' >"$d/m"
	mv "$d/c" "$d/blobs/sha256/$C"
	M=$(sha256sum "$d/m" | cut -d' ' -f1)
	jq -cn --arg m "sha256:$M" --argjson ms "$(stat -c %s "$d/m")" \
		'{schemaVersion: 2, manifests: [{mediaType: "application/vnd.oci.image.manifest.v1+json",
		  digest: $m, size: $ms, annotations: {"io.containerd.image.name": "docker.io/library/busybox:unirun"}}]}' \
		>"$d/index.json"
	mv "$d/m" "$d/blobs/sha256/$M"
	echo '{"imageLayoutVersion": "1.0.0"}' >"$d/oci-layout"
	tar -C "$d" -cf "$out" .
}

IMG=docker.io/library/busybox:unirun

ctd_teardown() {
	if [ -n "${CTD_PID:-}" ]; then
		local t
		for t in $(c task ls -q 2>/dev/null); do
			c task kill -s KILL "$t" >/dev/null 2>&1
			c task delete -f "$t" >/dev/null 2>&1
		done
		for t in $(c containers ls -q 2>/dev/null); do c containers delete "$t" >/dev/null 2>&1; done
		kill "$CTD_PID" 2>/dev/null
		wait "$CTD_PID" 2>/dev/null
		grep -q " $CTD/" /proc/self/mountinfo && awk -v p="$CTD/" '$5 ~ "^"p {print $5}' /proc/self/mountinfo |
			sort -r | xargs -r -n1 umount -l
		rmdir "/run/containerd/runc/$CTD_NS" 2>/dev/null
	fi
	CTD_PID=
}


# Podman's store and containerd hold mounts: both go down before the rest.
test_teardown() {
	podman_teardown
	ctd_teardown
	rm -rf "$TMP"
}
