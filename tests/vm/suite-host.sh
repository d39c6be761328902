#!/usr/bin/env bash
# The guest suite, run by `make check`: one boot of the pure-cgroup2 guest
# (tests/vm/run.sh) running every tests/vm/t_*.sh through the integration
# runner. Ends with "vm: N passed, N failed, N skipped".
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
INTEGRATION_DIR=$top/tests/vm INTEGRATION_LABEL=vm-guest tests/vm/run.sh \
	bash tests/integration/run.sh 2>&1 | tee "$out"
line=$(grep -E '^vm-guest: [0-9]+ passed' "$out" | tail -n1)
if [ -z "$line" ]; then
	echo "not ok - vm: the guest suite did not finish"
	echo "vm: 0 passed, 1 failed"
	exit 1
fi
echo "vm: ${line#vm-guest: }"
