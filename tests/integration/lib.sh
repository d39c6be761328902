# Sourced by every test file: the per-test bundle, state root and asserts.
# A test is a function test_*; it fails by returning non-zero (the asserts
# print what they expected and what they saw) and skips with `skip REASON`.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
UNIRUN=${UNIRUN:-$TOP/unirun}
CG2=/sys/fs/cgroup
[ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ] || CG2=/sys/fs/cgroup/unified

rt() { "$UNIRUN" --root "$ROOT" "$@"; }
fail() { echo "FAIL: $*"; return 1; }
skip() { echo "$*"; exit 77; }

# cfg JQ_FILTER: edit the bundle's config.json.
cfg() {
	jq "$1" "$BUNDLE/config.json" >"$BUNDLE/config.json.new" && mv "$BUNDLE/config.json.new" "$BUNDLE/config.json"
}
# set_args ARG...: the container's process.args.
set_args() {
	local j
	j=$(jq -cn '$ARGS.positional' --args -- "$@")
	cfg ".process.args = $j"
}

assert_eq() { # expected seen [what]
	[ "$1" = "$2" ] || fail "${3:-value}: expected [$1], saw [$2]"
}
assert_match() { # regex string [what]
	grep -qE -- "$1" <<<"$2" || fail "${3:-output}: expected /$1/ in [$2]"
}
assert_no_match() {
	! grep -qE -- "$1" <<<"$2" || fail "${3:-output}: did not expect /$1/ in [$2]"
}

# run_ok CMD...: run, keep stdout in $OUT and stderr in $ERR; fail unless 0.
run_ok() {
	OUT=$("$@" 2>"$TMP/err") && ERR=$(cat "$TMP/err") && return 0
	local rc=$?
	ERR=$(cat "$TMP/err")
	fail "$* exited $rc: $ERR"
}
# run_rc EXPECTED CMD...
run_rc() {
	local want=$1 rc=0
	shift
	OUT=$("$@" 2>"$TMP/err") || rc=$?
	ERR=$(cat "$TMP/err")
	[ "$rc" = "$want" ] || fail "$* exited $rc, expected $want: $ERR"
}

cgroup_dir() { echo "$CG2/unirun/$1"; }

# Nothing of container ID may remain: state dir, cgroup, mounts, processes.
assert_nothing_left() {
	local id=$1
	[ ! -e "$ROOT/$id" ] || fail "state dir $ROOT/$id left behind"
	[ ! -e "$(cgroup_dir "$id")" ] || fail "cgroup $(cgroup_dir "$id") left behind"
	! grep -q -- "$BUNDLE" /proc/self/mountinfo || fail "a mount under $BUNDLE left behind"
	local p
	for p in /proc/[0-9]*; do
		if [ "$(readlink "$p/root" 2>/dev/null)" = "$BUNDLE/rootfs" ]; then
			fail "process ${p#/proc/} left running in the rootfs"
		fi
	done
}

# assert_failed ID REGEX CMD...: exit status 1, stderr names the problem, no traces.
assert_failed() {
	local id=$1 re=$2
	shift 2
	run_rc 1 "$@" || return 1
	assert_match "$re" "$ERR" "stderr of $*" || return 1
	assert_nothing_left "$id"
}

wait_for() { # CMD... (up to 5 s)
	local i
	for i in $(seq 100); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.05
	done
	fail "timed out waiting for: $*"
}

status_of() { rt state "$1" 2>/dev/null | jq -r .status; }
pid_of() { rt state "$1" | jq -r .pid; }

# A detached container running CMD (default: sleep), its output in $TMP/ID.out.
start_bg() { # id [args...]
	local id=$1
	shift
	[ $# -gt 0 ] || set -- sleep 1000
	set_args "$@"
	rt run --detach "$id" >"$TMP/$id.out" 2>&1 </dev/null || fail "run --detach $id: $(cat "$TMP/$id.out")"
}

test_setup() {
	TMP=${TEST_TMP:-$(mktemp -d /tmp/unirun-test.XXXXXX)}
	ROOT=$TMP/root
	BUNDLE=$TMP/bundle
	UNIRUN=$UNIRUN bash "$TOP/tests/integration/mkbundle.sh" "$BUNDLE" >/dev/null
	cd "$BUNDLE"
}

test_teardown() {
	local id
	for id in $(ls "$ROOT" 2>/dev/null); do
		rt delete --force "$id" >/dev/null 2>&1 </dev/null
	done
	rm -rf "$TMP"
}

# A process is gone when it is reaped or a zombie (its parent may be slow).
gone() {
	[ ! -e "/proc/$1" ] || [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" = Z ]
}

# create_ok ARGS...: `create` with the container's stdio on files, since its
# init keeps them open (a pipe would never close for $(...)).
create_ok() {
	"$UNIRUN" --root "$ROOT" create "$@" </dev/null >"$TMP/create.out" 2>"$TMP/err" && return 0
	local rc=$?
	ERR=$(cat "$TMP/err")
	fail "create $* exited $rc: $ERR"
}
