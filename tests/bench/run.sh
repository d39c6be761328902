#!/usr/bin/env bash
# make bench: unirun, crun and runc side by side on the same bundle, in one
# run: mean wall time of `run` of /bin/true, and of create+start+delete.
# N=40 by default (BENCH_N). Not a test: it prints numbers, it asserts nothing.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
n=${BENCH_N:-40}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bash "$top/tests/integration/mkbundle.sh" "$tmp/b" >/dev/null
jq '.process.args = ["true"]' "$tmp/b/config.json" >"$tmp/c" && mv "$tmp/c" "$tmp/b/config.json"
cd "$tmp/b"

ms_since() { echo $(( ($(date +%s%N) - $1) / 1000 )); }

bench() { # name binary
	local name=$1 bin=$2 t0 i us_run us_life
	command -v "$bin" >/dev/null || { printf '%-8s not installed\n' "$name"; return; }
	"$bin" --root "$tmp/root-$name" run "warm-$name" >/dev/null 2>&1 || { printf '%-8s cannot run this bundle here\n' "$name"; return; }
	t0=$(date +%s%N)
	for i in $(seq "$n"); do "$bin" --root "$tmp/root-$name" run "r$i" >/dev/null 2>&1; done
	us_run=$(( $(ms_since "$t0") / n ))
	t0=$(date +%s%N)
	for i in $(seq "$n"); do
		"$bin" --root "$tmp/root-$name" create "c$i" </dev/null >/dev/null 2>&1
		"$bin" --root "$tmp/root-$name" start "c$i" >/dev/null 2>&1
		"$bin" --root "$tmp/root-$name" delete --force "c$i" >/dev/null 2>&1
	done
	us_life=$(( $(ms_since "$t0") / n ))
	printf '%-8s run %6d.%03d ms   create+start+delete %6d.%03d ms\n' "$name" \
		$((us_run / 1000)) $((us_run % 1000)) $((us_life / 1000)) $((us_life % 1000))
}

echo "bench: N=$n, bundle $tmp/b, $(uname -r)"
bench unirun "$top/unirun"
bench crun crun
bench runc runc

# The cost of a Docker-sized seccomp profile (~360 rules, 3 architectures) on
# unirun's run: first with an empty filter cache, then from it.
seccomp_cost() {
	local t0 i us_plain us_cold us_warm
	bash "$top/tests/bench/big-seccomp.sh" >"$tmp/profile.json"
	jq --slurpfile p "$tmp/profile.json" '.linux.seccomp = $p[0]' "$tmp/b/config.json" >"$tmp/big.json"
	cp "$tmp/b/config.json" "$tmp/plain.json"
	t0=$(date +%s%N)
	for i in $(seq "$n"); do "$top/unirun" --root "$tmp/root-s" run "p$i" >/dev/null 2>&1; done
	us_plain=$(( $(ms_since "$t0") / n ))
	cp "$tmp/big.json" "$tmp/b/config.json"
	t0=$(date +%s%N)
	for i in $(seq 5); do
		rm -rf "$tmp/root-s/.cache:seccomp"
		"$top/unirun" --root "$tmp/root-s" run "c$i" >/dev/null 2>&1
	done
	us_cold=$(( $(ms_since "$t0") / 5 ))
	t0=$(date +%s%N)
	for i in $(seq "$n"); do "$top/unirun" --root "$tmp/root-s" run "w$i" >/dev/null 2>&1; done
	us_warm=$(( $(ms_since "$t0") / n ))
	cp "$tmp/plain.json" "$tmp/b/config.json"
	printf 'seccomp  run: no profile %d.%03d ms, big profile compiled %d.%03d ms, cached %d.%03d ms\n' \
		$((us_plain / 1000)) $((us_plain % 1000)) $((us_cold / 1000)) $((us_cold % 1000)) \
		$((us_warm / 1000)) $((us_warm % 1000))
}
seccomp_cost
