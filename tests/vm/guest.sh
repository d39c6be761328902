#!/usr/bin/env bash
# Inside the guest: every tests/vm/t_*.sh against unirun, then the client
# tests (t_clients.sh) again with runc as the runtime, which proves that
# those tests test the runtime and not themselves.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
INTEGRATION_DIR=$top/tests/vm INTEGRATION_LABEL=vm-guest bash "$top/tests/integration/run.sh"
if command -v runc >/dev/null; then
	UNIRUN=$(command -v runc) INTEGRATION_DIR=$top/tests/vm INTEGRATION_TESTS=t_clients \
		INTEGRATION_LABEL=vm-runc bash "$top/tests/integration/run.sh"
else
	echo "skip - vm-runc: runc is not installed"
	echo "vm-runc: 0 passed, 0 failed, 1 skipped"
fi
