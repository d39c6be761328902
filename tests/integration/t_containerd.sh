# containerd (Debian's 1.6, containerd-shim-runc-v2) driving unirun through
# `ctr run --runc-binary`: each test starts its own containerd (socket, root
# and state under the test's directory) and imports a busybox OCI image made
# here from the bundle's rootfs tarball (no registry).

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

test_teardown() {
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
	rm -rf "$TMP"
}

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
