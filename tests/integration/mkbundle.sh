#!/usr/bin/env bash
# mkbundle.sh DIR: an OCI bundle with a busybox-static rootfs and unirun's
# default config (terminal off, runs `sh`). The rootfs is built once and
# cached as a tarball; each bundle is an untar.
set -euo pipefail
dir=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=$top/tests/.cache
tar=$cache/rootfs.tar
busybox=$(command -v busybox || echo /bin/busybox)
if [ ! -s "$tar" ] || [ "$busybox" -nt "$tar" ]; then
	mkdir -p "$cache"
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	mkdir -p "$tmp"/{bin,proc,sys,dev,tmp,etc,root,home/user,var/run}
	cp "$busybox" "$tmp/bin/busybox"
	for a in $("$busybox" --list); do
		[ "$a" = busybox ] || ln -s busybox "$tmp/bin/$a"
	done
	printf 'root:x:0:0:root:/root:/bin/sh\nuser:x:1000:1000:user:/home/user:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$tmp/etc/passwd"
	printf 'root:x:0:\ntty:x:5:\nuser:x:1000:\nnogroup:x:65534:\n' >"$tmp/etc/group"
	chmod 1777 "$tmp/tmp"
	tar -C "$tmp" -cf "$tar.new" . && mv "$tar.new" "$tar"
	rm -rf "$tmp"
fi
mkdir -p "$dir/rootfs"
tar -C "$dir/rootfs" -xf "$tar"
rm -f "$dir/config.json"
"${UNIRUN:-$top/unirun}" spec --bundle "$dir"
# Tests want plain stdio, not a terminal.
sed -i 's/"terminal": true/"terminal": false/' "$dir/config.json"
