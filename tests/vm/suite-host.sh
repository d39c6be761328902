#!/usr/bin/env bash
# The guest suite, run by `make check`: one boot of the pure-cgroup2 guest
# (tests/vm/run.sh) running tests/vm/guest.sh (every tests/vm/t_*.sh through
# the integration runner, and the client tests again with runc). Ends with
# "vm: N passed, N failed, N skipped".
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
if ! command -v qemu-system-x86_64 >/dev/null; then
	echo "skip - vm: qemu-system-x86_64 is not installed: THE CGROUP2 GUEST SUITE DID NOT RUN"
	echo "vm: 0 passed, 0 failed, 1 skipped"
	exit 0
fi
if ! tests/vm/build.sh >/dev/null; then
	echo "not ok - vm: could not build the guest kernel and initramfs"
	echo "vm: 0 passed, 1 failed"
	exit 1
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
tests/vm/run.sh bash tests/vm/guest.sh 2>&1 | tee "$out"
p=0 f=0 k=0
for label in vm-guest vm-runc; do
	line=$(grep -E "^$label: [0-9]+ passed" "$out" | tail -n1)
	if [ -z "$line" ]; then
		echo "not ok - $label: the guest suite did not finish"
		f=$((f + 1))
		continue
	fi
	p=$((p + $(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")))
	f=$((f + $(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")))
	k=$((k + $(grep -oE '[0-9]+ skipped' <<<"$line" | grep -oE '[0-9]+' || echo 0)))
done
echo "vm: $p passed, $f failed, $k skipped"
[ "$f" = 0 ]
