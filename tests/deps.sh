#!/usr/bin/env bash
# Install what unirun needs to build and test on Debian 12 (as root); quiet
# when everything is already there.
set -euo pipefail
pkgs=(build-essential autoconf automake pkg-config libseccomp-dev libyajl-dev libcap-dev
      libprotobuf-c-dev criu busybox-static jq uidmap qemu-system-x86 cpio kmod iproute2 procps
      podman conmon containerd strace)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
	if [ "$(id -u)" != 0 ]; then
		echo "deps: missing ${missing[*]}; run as root to install them" >&2
		exit 1
	fi
	echo "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
