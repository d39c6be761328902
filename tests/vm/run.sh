#!/usr/bin/env bash
# tests/vm/run.sh CMD...: run CMD (as root, in the current directory) inside a
# throwaway qemu guest whose /sys/fs/cgroup is a pure cgroup2 hierarchy with
# every controller, and exit with CMD's status. The guest sees the host's / read-only
# under a tmpfs overlay, and a 64 MiB virtio disk at /dev/vda for io tests.
# KVM when a real one is usable, software emulation (TCG) otherwise.
# VM_TIMEOUT (seconds, default 1500) bounds the whole boot.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=$("$here/build.sh")
res=$(mktemp -d /tmp/unirun-vm.XXXXXX)
trap 'rm -rf "$res"' EXIT
{
	echo "cd $(printf %q "$PWD") || exit 99"
	echo "export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root"
	for v in $(compgen -e | grep -E '^(UNIRUN|INTEGRATION_[A-Z_]+|VM_[A-Z_]+)$'); do
		echo "export $v=$(printf %q "${!v}")"
	done
	printf 'exec'
	printf ' %q' "$@"
	echo
} >"$res/cmd"
truncate -s 64M "$res/disk.img"
# The work tree: what the guest must show even if it lies under /tmp.
top=$(cd "$here/../.." && pwd)
echo "$top" >"$res/workdir"

# /dev/kvm on PVM hosts (kvm_pvm) can't boot a stock kernel: TCG there.
accel=(-accel tcg,thread=multi -cpu max)
if [ -w /dev/kvm ] && [ ! -d /sys/module/kvm_pvm ]; then
	accel=(-accel kvm -cpu host)
fi
timeout "${VM_TIMEOUT:-1500}" qemu-system-x86_64 "${accel[@]}" -smp 2 -m 2048 \
	-nographic -no-reboot -nodefaults -serial stdio -display none \
	-kernel "$cache/vmlinuz" -initrd "$cache/initramfs.gz" \
	-append "console=ttyS0 quiet loglevel=3 panic=-1 cgroup_no_v1=all hugepages=16" \
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
	-virtfs "local,path=$res,mount_tag=results,security_model=none" \
	-drive "file=$res/disk.img,if=virtio,format=raw,cache=unsafe" </dev/null |
	awk '/init:/ { on = 1; sub(/^.*init:/, "init:") } on { print; fflush() }' ||
	echo "vm: qemu exited ${PIPESTATUS[0]}"
[ -s "$res/rc" ] || { echo "vm: the guest left no exit status"; exit 1; }
exit "$(cat "$res/rc")"
