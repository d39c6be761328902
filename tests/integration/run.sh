#!/usr/bin/env bash
# Run the integration tests: every test_* function of every t_*.sh in this
# directory or $INTEGRATION_DIR (or those named in $INTEGRATION_TESTS as file
# or file:function; INTEGRATION_DIR may name several directories), each in a fresh
# subshell with its own bundle and state root. Prints TAP-like lines and
# `integration: N passed, N failed, N skipped`.
set -u
here=$(cd "$(dirname "$0")" && pwd)
label=${INTEGRATION_LABEL:-integration}
pass=0 failc=0 skipc=0
if [ "$(id -u)" != 0 ]; then
	echo "skip - $label: needs root"
	echo "$label: 0 passed, 0 failed, 1 skipped"
	exit 0
fi
for dep in jq busybox; do
	command -v $dep >/dev/null || { echo "$label: missing $dep (run tests/deps.sh)"; echo "$label: 0 passed, 1 failed"; exit 1; }
done
selected() { # file func
	[ -z "${INTEGRATION_TESTS:-}" ] && return 0
	local t
	for t in $INTEGRATION_TESTS; do
		[ "$t" = "$1" ] || [ "$t" = "$1:$2" ] && return 0
	done
	return 1
}
# INTEGRATION_DIR may name several directories, separated by spaces.
for file in $(for d in ${INTEGRATION_DIR:-$here}; do ls "$d"/t_*.sh; done); do
	name=$(basename "$file" .sh)
	for fn in $(bash -c "source '$here/lib.sh'; source '$file'; declare -F" | awk '{print $3}' | grep '^test_' | grep -v '^test_setup$\|^test_teardown$'); do
		selected "$name" "$fn" || continue
		out=$(mktemp)
		export TEST_TMP=$(mktemp -d /tmp/unirun-test.XXXXXX)
		(
			source "$here/lib.sh"
			source "$file"
			test_setup || exit 1
			trap test_teardown EXIT
			set -o pipefail
			"$fn"
		) >"$out" 2>&1 </dev/null &
		pid=$!
		( trap 'kill $s 2>/dev/null; exit 0' TERM; sleep 60 & s=$!; wait $s; kill -9 $pid 2>/dev/null ) &
		watchdog=$!
		wait $pid
		rc=$?
		kill $watchdog 2>/dev/null
		wait $watchdog 2>/dev/null
		# A test killed by the watchdog had no teardown: do it here.
		if [ -d "$TEST_TMP" ]; then
			for id in $(ls "$TEST_TMP/root" 2>/dev/null); do
				"${UNIRUN:-$here/../../unirun}" --root "$TEST_TMP/root" delete --force "$id" >/dev/null 2>&1 </dev/null
			done
			rm -rf "$TEST_TMP"
		fi
		if [ $rc = 0 ]; then
			echo "ok - $name:$fn"
			pass=$((pass + 1))
		elif [ $rc = 77 ]; then
			echo "skip - $name:$fn: $(tail -n1 "$out")"
			skipc=$((skipc + 1))
		else
			echo "not ok - $name:$fn"
			sed 's/^/  | /' "$out"
			failc=$((failc + 1))
		fi
		rm -f "$out"
	done
done
echo "$label: $pass passed, $failc failed, $skipc skipped"
[ $failc = 0 ]
