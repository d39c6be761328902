#!/usr/bin/env bash
# make bench: unirun, crun and runc side by side on one busybox bundle, in
# one run, interleaved (unirun crun runc, unirun crun runc, …) so that drift
# of the machine falls on all three; each figure is the median.
#
# crun 1.8.1 refuses a hybrid host's cgroup2 mount, so it runs in a private
# mount namespace where /sys/fs/cgroup/unified is hidden under a tmpfs (it
# then uses cgroup v1, as runc does); entering that namespace costs an
# nsenter, measured alone and taken off crun's figures.
#
# Not a test: it prints numbers and asserts nothing. BENCH_N (default 30)
# iterations; BENCH_MANY (default 1000) containers for the list/state curve.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
n=${BENCH_N:-30}
many=${BENCH_MANY:-1000}
tmp=$(mktemp -d /tmp/unirun-bench.XXXXXX)
mntns=$tmp/mntns
cleanup() {
	local r
	for r in unirun crun runc; do
		for id in $(ls "$tmp/root-$r" 2>/dev/null); do
			[ "${id#.}" = "$id" ] && rtcall "$r" delete --force "$id" >/dev/null 2>&1
		done
	done
	umount "$mntns" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
bash "$top/tests/integration/mkbundle.sh" "$tmp/b" >/dev/null
# crun 1.8.1 knows runtime-spec versions up to 1.1: a 1.0.2 config runs on all three.
jq '.ociVersion = "1.0.2" | .process.args = ["true"]' "$tmp/b/config.json" >"$tmp/c" && mv "$tmp/c" "$tmp/b/config.json"
cd "$tmp/b"

runtimes=(unirun)
command -v crun >/dev/null && runtimes+=(crun)
command -v runc >/dev/null && runtimes+=(runc)
cg2=/sys/fs/cgroup
hybrid=false
if [ "$(stat -fc %T /sys/fs/cgroup)" != cgroup2fs ]; then
	hybrid=true
	touch "$mntns"
	unshare --mount="$mntns" --propagation private mount -t tmpfs none /sys/fs/cgroup/unified
fi

rtcall() { # runtime args...
	local r=$1
	shift
	case $r in
	unirun) "$top/unirun" --root "$tmp/root-unirun" "$@" ;;
	crun) if $hybrid; then nsenter --mount="$mntns" --wd="$PWD" crun --root "$tmp/root-crun" "$@"; else crun --root "$tmp/root-crun" "$@"; fi ;;
	runc) runc --root "$tmp/root-runc" "$@" ;;
	esac
}

# Microseconds, without a fork ($(...) would cost a process per sample).
now() { T=${EPOCHREALTIME/./}; T=${T#0}; }
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : int((a[NR / 2] + a[NR / 2 + 1]) / 2)}'; }
ms() { printf '%d.%02d' $(($1 / 1000)) $((($1 % 1000) / 10)); }

# The cost of entering crun's mount namespace, taken off its figures.
nsenter_us=0
if $hybrid && command -v crun >/dev/null; then
	for i in $(seq "$n"); do
		now; t0=$T
		nsenter --mount="$mntns" true
		now; echo $((T - t0))
	done | median >"$tmp/nsenter"
	nsenter_us=$(cat "$tmp/nsenter")
fi

declare -A RUN LIFE EXEC
for r in "${runtimes[@]}"; do
	rtcall "$r" run "warm-$r" >/dev/null 2>&1 || { echo "$r cannot run the bundle here: left out"; runtimes=("${runtimes[@]/$r/}"); }
done
runtimes=(${runtimes[@]})

# 1. run of /bin/true; 2. create + start + wait + delete as separate calls.
for i in $(seq "$n"); do
	for r in "${runtimes[@]}"; do
		now; t0=$T
		rtcall "$r" run "r$i" >/dev/null 2>&1
		now; echo $((T - t0)) >>"$tmp/run-$r"
		now; t0=$T
		rtcall "$r" create "l$i" </dev/null >/dev/null 2>&1
		rtcall "$r" start "l$i" >/dev/null 2>&1
		while st=$(rtcall "$r" state "l$i" 2>/dev/null) && [[ $st == *'"running"'* ]]; do :; done
		rtcall "$r" delete "l$i" >/dev/null 2>&1
		now; echo $((T - t0)) >>"$tmp/life-$r"
	done
done
# 3. exec of /bin/true into a running container.
jq '.process.args = ["sleep", "1000"]' config.json >"$tmp/c" && cp config.json "$tmp/true.json" && mv "$tmp/c" config.json
for r in "${runtimes[@]}"; do rtcall "$r" run -d "e-$r" </dev/null >/dev/null 2>&1; done
for i in $(seq "$n"); do
	for r in "${runtimes[@]}"; do
		now; t0=$T
		rtcall "$r" exec "e-$r" true >/dev/null 2>&1
		now; echo $((T - t0)) >>"$tmp/exec-$r"
	done
done
for r in "${runtimes[@]}"; do rtcall "$r" delete --force "e-$r" >/dev/null 2>&1; done
cp "$tmp/true.json" config.json

for r in "${runtimes[@]}"; do
	off=0
	[ "$r" = crun ] && off=$nsenter_us
	RUN[$r]=$(($(median <"$tmp/run-$r") - off))
	LIFE[$r]=$(($(median <"$tmp/life-$r") - 4 * off))
	EXEC[$r]=$(($(median <"$tmp/exec-$r") - off))
done

# 5. peak RSS of the runtime process on `run`, and the binary's size.
declare -A RSS SIZE
for r in "${runtimes[@]}"; do
	case $r in unirun) bin=$top/unirun ;; *) bin=$(command -v "$r") ;; esac
	SIZE[$r]=$(($(stat -L -c %s "$bin") / 1024))
	if [ "$r" = crun ] && $hybrid; then
		RSS[$r]=$(nsenter --mount="$mntns" --wd="$PWD" /usr/bin/time -f %M crun --root "$tmp/root-crun" run rss 2>&1 >/dev/null | tail -n1)
	else
		RSS[$r]=$( { /usr/bin/time -f %M "$bin" --root "$tmp/root-$r" run rss >/dev/null; } 2>&1 | tail -n1)
	fi
done

# 7. The floor: namespaces, cgroup, default mounts, pivot_root, exec — no
# runtime. Started as its own process per container, as the runtimes are.
floor=
if cc -O2 -o "$tmp/floor" "$top/tests/bench/floor.c" 2>/dev/null; then
	fdir=$cg2/unirun-floor
	$hybrid && fdir=$cg2/unified/unirun-floor
	mkdir -p "$fdir"
	for i in $(seq "$n"); do
		now; t0=$T
		"$tmp/floor" "$tmp/b/rootfs" "$fdir" 1 >/dev/null 2>&1
		now; echo $((T - t0))
	done | median >"$tmp/floor.us"
	floor=$(cat "$tmp/floor.us")
	rmdir "$fdir" 2>/dev/null || true
fi

echo "bench: N=$n (medians), $(uname -r), $(nproc) cpus, $($hybrid && echo "hybrid cgroups (crun via nsenter, $(ms "$nsenter_us") ms taken off)" || echo cgroup2)"
printf '%-8s %12s %22s %12s %10s %10s %10s\n' runtime "run (ms)" "create..delete (ms)" "exec (ms)" "RSS (KiB)" "size KiB" "vs crun"
for r in "${runtimes[@]}"; do
	ratio=-
	[ -n "${RUN[crun]:-}" ] && ratio=$(awk -v a="${RUN[$r]}" -v b="${RUN[crun]}" 'BEGIN {printf "%.2f", a / b}')
	printf '%-8s %12s %22s %12s %10s %10s %10s\n' "$r" "$(ms "${RUN[$r]}")" "$(ms "${LIFE[$r]}")" \
		"$(ms "${EXEC[$r]}")" "${RSS[$r]}" "${SIZE[$r]}" "$ratio"
done
[ -n "$floor" ] && printf 'floor    %12s   (clone3 into namespaces and a cgroup, default mounts, pivot_root, exec)\n' "$(ms "$floor")"
[ -n "$floor" ] && awk -v a="${RUN[unirun]}" -v b="$floor" 'BEGIN {printf "unirun run is %.2fx the floor\n", a / b}'

# 6. Scale: K containers created and started at once; then list/state
# with BENCH_MANY containers present.
for k in 1 10 50 100; do
	now; t0=$T
	for j in $(seq "$k"); do
		("$top/unirun" --root "$tmp/root-unirun" create "s$k-$j" </dev/null >/dev/null 2>&1 &&
			"$top/unirun" --root "$tmp/root-unirun" start "s$k-$j" >/dev/null 2>&1) &
	done
	wait
	now; per=$(((T - t0) / k))
	printf 'scale    %3d containers at once: %s ms per container\n' "$k" "$(ms "$per")"
	for j in $(seq "$k"); do "$top/unirun" --root "$tmp/root-unirun" delete --force "s$k-$j" >/dev/null 2>&1 & done
	wait
done
jq '.process.args = ["sleep", "1000"]' "$tmp/true.json" >config.json
now; t0=$T
for j in $(seq "$many"); do "$top/unirun" --root "$tmp/root-unirun" create "m$j" </dev/null >/dev/null 2>&1; done
now; per=$(((T - t0) / many))
now; t0=$T
"$top/unirun" --root "$tmp/root-unirun" list -q >/dev/null
now; list=$((T - t0))
now; t0=$T
"$top/unirun" --root "$tmp/root-unirun" state "m$((many / 2))" >/dev/null
now; state=$((T - t0))
printf 'many     %d created containers: create %s ms each, list %s ms, state %s ms\n' "$many" "$(ms "$per")" "$(ms "$list")" "$(ms "$state")"
for j in $(seq "$many"); do "$top/unirun" --root "$tmp/root-unirun" delete --force "m$j" >/dev/null 2>&1; done
cp "$tmp/true.json" config.json

# The cost of a Docker-sized seccomp profile (~360 rules, 3 architectures)
# on unirun's run: compiled (empty cache), then from the cache.
bash "$top/tests/bench/big-seccomp.sh" >"$tmp/profile.json"
jq --slurpfile p "$tmp/profile.json" '.linux.seccomp = $p[0]' "$tmp/true.json" >config.json
for i in $(seq 5); do
	rm -rf "$tmp/root-unirun/.cache:seccomp"
	now; t0=$T
	"$top/unirun" --root "$tmp/root-unirun" run "sc$i" >/dev/null 2>&1
	now; echo $((T - t0))
done | median >"$tmp/cold"
for i in $(seq "$n"); do
	now; t0=$T
	"$top/unirun" --root "$tmp/root-unirun" run "sw$i" >/dev/null 2>&1
	now; echo $((T - t0))
done | median >"$tmp/warm"
printf 'seccomp  run with a Docker-sized profile: %s ms compiled, %s ms cached (none: %s ms)\n' \
	"$(ms "$(cat "$tmp/cold")")" "$(ms "$(cat "$tmp/warm")")" "$(ms "${RUN[unirun]}")"
cp "$tmp/true.json" config.json

# The guest half: memory.peak and the smallest memory.max, all three on cgroup2.
if command -v qemu-system-x86_64 >/dev/null; then
	(cd "$top" && tests/vm/run.sh bash tests/bench/guest.sh 2>&1 | grep -vE '^init:|reboot: Power down') || true
else
	echo "guest: qemu-system-x86_64 is not installed; memory figures skipped"
fi
