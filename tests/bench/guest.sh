#!/usr/bin/env bash
# The guest half of `make bench`, run inside the pure-cgroup2 guest
# (tests/vm/run.sh), where unirun, crun and runc all use cgroup2 with the
# same limits: software emulation makes absolute times meaningless, so this
# measures memory only:
#  - memory.peak of the container's cgroup after /bin/true ran in it (what
#    the runtime itself charged to the container), median of BENCH_N runs;
#  - the smallest memory.max under which the container still starts and
#    exits 0, by bisection between 64 KiB and 16 MiB (4 KiB steps).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
n=${BENCH_N:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bash "$top/tests/integration/mkbundle.sh" "$tmp/b" >/dev/null
jq '.ociVersion = "1.0.2" | .process.args = ["true"] | .linux.resources = {"memory": {"limit": 268435456}}' \
	"$tmp/b/config.json" >"$tmp/base.json"
cd "$tmp/b"
echo "+memory +pids" >/sys/fs/cgroup/cgroup.subtree_control
mkdir -p /sys/fs/cgroup/bench
echo "+memory" >/sys/fs/cgroup/bench/cgroup.subtree_control

rtbin() { case $1 in unirun) echo "$top/unirun" ;; *) command -v "$1" ;; esac; }
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : int((a[NR / 2] + a[NR / 2 + 1]) / 2)}'; }

peak() { # runtime → memory.peak in KiB of one create/start/wait of /bin/true
	local r=$1 bin id=p$RANDOM cg
	bin=$(rtbin "$r")
	jq ".linux.cgroupsPath = \"/bench/$id\"" "$tmp/base.json" >config.json
	"$bin" --root "$tmp/root-$r" create "$id" </dev/null >/dev/null 2>&1 || { echo -1; return; }
	"$bin" --root "$tmp/root-$r" start "$id" >/dev/null 2>&1
	cg=/sys/fs/cgroup/bench/$id
	while grep -q 'populated 1' "$cg/cgroup.events" 2>/dev/null; do sleep 0.05; done
	echo $(($(cat "$cg/memory.peak") / 1024))
	"$bin" --root "$tmp/root-$r" delete --force "$id" >/dev/null 2>&1
}

starts_under() { # runtime bytes → exit 0 if the container runs /bin/true under memory.max=bytes
	local r=$1 bin id=m$RANDOM
	bin=$(rtbin "$r")
	jq ".linux.cgroupsPath = \"/bench/$id\" | .linux.resources.memory = {\"limit\": $2, \"swap\": $2}" "$tmp/base.json" >config.json
	timeout 60 "$bin" --root "$tmp/root-$r" run "$id" </dev/null >/dev/null 2>&1
	local rc=$?
	"$bin" --root "$tmp/root-$r" delete --force "$id" >/dev/null 2>&1
	rmdir "/sys/fs/cgroup/bench/$id" 2>/dev/null
	return $rc
}

min_max() { # runtime → the smallest memory.max (KiB) that still runs
	local lo=16 hi=4096 mid   # in 4 KiB pages: 64 KiB .. 16 MiB
	starts_under "$1" $((hi * 4096)) || { echo ">16384"; return; }
	while [ $((hi - lo)) -gt 1 ]; do
		mid=$(((lo + hi) / 2))
		if starts_under "$1" $((mid * 4096)); then hi=$mid; else lo=$mid; fi
	done
	echo $((hi * 4))
}

printf 'guest: %s, cgroup2, N=%d\n' "$(uname -r)" "$n"
printf '%-8s %18s %22s\n' runtime "memory.peak (KiB)" "min memory.max (KiB)"
for r in unirun crun runc; do
	command -v "$(rtbin "$r")" >/dev/null || { printf '%-8s not installed\n' "$r"; continue; }
	p=$(for i in $(seq "$n"); do peak "$r"; done | median)
	m=$(min_max "$r")
	printf '%-8s %18s %22s\n' "$r" "$p" "$m"
done
rmdir /sys/fs/cgroup/bench/* /sys/fs/cgroup/bench 2>/dev/null || true
