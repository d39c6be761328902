#!/usr/bin/env bash
# make check: every suite, then one line `N passed, N failed, N skipped`.
# Each suite ends its output with "<name>: N passed, N failed[, N skipped]";
# this script adds them up.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
pass=0 failc=0 skipc=0
count() { # name, command...
	local name=$1 out line
	shift
	out=$(mktemp)
	"$@" 2>&1 | tee "$out"
	line=$(grep -E '^[a-z0-9_-]+: [0-9]+ passed, [0-9]+ failed' "$out" | tail -n1)
	rm -f "$out"
	if [ -z "$line" ]; then
		echo "$name: no summary line: counted as 1 failed"
		failc=$((failc + 1))
		return
	fi
	local p f s
	p=$(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")
	f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
	s=$(grep -oE '[0-9]+ skipped' <<<"$line" | grep -oE '[0-9]+' || echo 0)
	pass=$((pass + p)) failc=$((failc + f)) skipc=$((skipc + s))
}
for t in build/tests/test_*; do
	[[ $t == *.d ]] && continue
	count "unit $(basename "$t")" "$t"
done
for t in build-san/tests/test_*; do
	[[ $t == *.d ]] && continue
	count "unit-san $(basename "$t")" env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1 "$t"
done
count integration bash tests/integration/run.sh
count integration-san env UNIRUN="$top/build-san/unirun" INTEGRATION_LABEL=integration-san bash tests/integration/run.sh
# A build without CRIU: checkpoint/restore refuse clearly, the lifecycle works.
count integration-nocriu env UNIRUN="$top/build-nocriu/unirun" INTEGRATION_LABEL=integration-nocriu \
	INTEGRATION_DIR="$top/tests/integration $top/tests/integration/nocriu" \
	INTEGRATION_TESTS="t_nocriu t_lifecycle t_exec" bash tests/integration/run.sh
if [ -x tests/vm/suite-host.sh ]; then
	count vm bash tests/vm/suite-host.sh
fi
echo "$pass passed, $failc failed, $skipc skipped"
[ "$failc" = 0 ]
