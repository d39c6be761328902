#!/usr/bin/env bash
# Build (once) what the cgroup2 test guest boots: Debian's 6.1 kernel, taken
# from its package with `apt-get download` + `dpkg-deb -x` (never installed on
# the host), and a busybox initramfs holding the modules for virtio-9p,
# virtio-blk and overlayfs, and what CRIU needs (socket diag, nftables,
# conntrack netlink, tun, veth). Cached in tests/.cache/vm; prints that directory.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=$top/tests/.cache/vm
mods=(virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci
      netfs fscache 9pnet 9pnet_virtio 9p overlay virtio_blk
      crc32c_generic libcrc32c nfnetlink nf_tables unix_diag inet_diag tcp_diag udp_diag raw_diag
      netlink_diag af_packet_diag tun veth nf_defrag_ipv4 nf_defrag_ipv6 nf_conntrack nf_conntrack_netlink)

if [ -s "$cache/vmlinuz" ] && [ -s "$cache/initramfs.gz" ] && [ "$cache/initramfs.gz" -nt "$0" ] &&
	[ "$cache/initramfs.gz" -nt "$top/tests/vm/init" ]; then
	echo "$cache"
	exit 0
fi
mkdir -p "$cache"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

newest_kernel() {
	apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' 2>/dev/null |
		awk '{print $1}' | sort -t- -k5,5n | tail -n1
}
pkg=$(newest_kernel)
if [ -z "$pkg" ]; then
	apt-get update -qq >/dev/null 2>&1 || true
	pkg=$(newest_kernel)
fi
[ -n "$pkg" ] || { echo "vm: no linux-image-6.1.0-*-amd64 package in apt's lists" >&2; exit 1; }
(cd "$work" && apt-get download -q "$pkg" >/dev/null 2>&1) ||
	{ echo "vm: apt-get download $pkg failed" >&2; exit 1; }
dpkg-deb -x "$work"/*.deb "$work/k"
kver=${pkg#linux-image-}
moddir=$work/k/lib/modules/$kver

ird=$work/initramfs
mkdir -p "$ird"/{bin,mod,proc,sys,dev,host,rw,newroot}
cp /bin/busybox "$ird/bin/busybox"
for m in "${mods[@]}"; do
	f=$(find "$moddir" -name "$m.ko" -o -name "$m.ko.xz" -o -name "$m.ko.zst" | head -n1)
	[ -n "$f" ] || { echo "vm: module $m not in $pkg" >&2; exit 1; }
	cp "$f" "$ird/mod/"
	echo "$(basename "$f")" >>"$ird/mod/order"
done
cp "$top/tests/vm/init" "$ird/init"
chmod 755 "$ird/init"
(cd "$ird" && find . | cpio -o -H newc --quiet | gzip -1) >"$cache/initramfs.gz.new"
cp "$work/k/boot/vmlinuz-$kver" "$cache/vmlinuz.new"
mv "$cache/vmlinuz.new" "$cache/vmlinuz"
mv "$cache/initramfs.gz.new" "$cache/initramfs.gz"
echo "$kver" >"$cache/version"
echo "$cache"
